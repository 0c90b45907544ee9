// A .glb read back by hand for tests (header, chunks, the JSON with the project's own parser), so
// what an exporter wrote is checked without the library that wrote it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/common/json.h"

namespace md5stage::test {

inline uint32_t ReadU32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  if (at + 4 <= bytes.size()) std::memcpy(&value, bytes.data() + at, 4);  // GLB is little-endian
  return value;
}

// A .glb's parts: header fields, the JSON chunk parsed, the BIN chunk's bytes.
struct Glb {
  bool header_ok = false;
  uint32_t version = 0;
  JsonValue json;
  std::string bin;
};

inline Glb ParseGlb(const std::string& bytes) {
  Glb glb;
  if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return glb;
  glb.version = ReadU32(bytes, 4);
  if (ReadU32(bytes, 8) != bytes.size()) return glb;
  const uint32_t json_length = ReadU32(bytes, 12);
  if (ReadU32(bytes, 16) != 0x4E4F534Au || 20 + json_length > bytes.size()) return glb;
  JsonLimits limits;
  limits.max_bytes = json_length;
  auto json = ParseJson("glb", std::string_view(bytes).substr(20, json_length), limits);
  if (!json.ok()) return glb;
  glb.json = std::move(json).value();
  const size_t bin_at = 20 + json_length;
  if (bin_at + 8 <= bytes.size()) {
    const uint32_t bin_length = ReadU32(bytes, bin_at);
    if (ReadU32(bytes, bin_at + 4) != 0x004E4942u || bin_at + 8 + bin_length > bytes.size()) {
      return glb;
    }
    glb.bin = bytes.substr(bin_at + 8, bin_length);
  }
  glb.header_ok = true;
  return glb;
}

inline const JsonArray& ArrayOf(const JsonValue& object, const char* key) {
  static const JsonArray kEmpty;
  const JsonValue* value = object.Find(key);
  return value && value->is_array() ? value->as_array() : kEmpty;
}
inline std::string StringOf(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  return value && value->is_string() ? value->as_string() : "";
}
inline double NumberOf(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  return value && value->is_number() ? value->as_number() : -1.0;
}

// An image's bytes as the .glb holds them (through its bufferView into the BIN chunk).
inline std::string ImageBytes(const Glb& glb, const JsonValue& image) {
  const JsonArray& views = ArrayOf(glb.json, "bufferViews");
  const double view_index = NumberOf(image, "bufferView");
  if (view_index < 0 || view_index >= static_cast<double>(views.size())) return "";
  const JsonValue& view = views[static_cast<size_t>(view_index)];
  const double offset = std::max(0.0, NumberOf(view, "byteOffset"));
  const double length = NumberOf(view, "byteLength");
  if (length < 0 || offset + length > static_cast<double>(glb.bin.size())) return "";
  return glb.bin.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
}

}  // namespace md5stage::test
