#include "core/scene/share_link.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/scene/base64url.h"
#include "core/scene/scene_json.h"

namespace md5stage {

namespace {

constexpr char kLinkFile[] = "#scene";

// The first byte of a payload: which compression and dictionary the rest uses.
constexpr std::uint8_t kLinkFormat = 1;

// Preset DEFLATE dictionary of format 1: the keys and common values of a scene, so that even a
// small scene's first keys compress to matches. Changing it needs a new format number.
constexpr char kLinkDictionary[] =
    "{\"version\":1,\"models\":[{\"name\":\"\",\"mesh\":\"models/.md5mesh\",\"anims\":[\"mode"
    "ls/.md5anim\",\"https://\"],\"local\":true}],\"routes\":[{\"name\":\"route\",\"closed\":"
    "true,\"kinds\":\"bbbbbbbbbbbbbbbb\",\"scale\":100,\"deltas\":[],\"segments\":[{\"line\":"
    "[[0,0]]},{\"bezier\":[[0,0]]}]}],\"instances\":[{\"model\":\"\",\"position\":[0,0],\"hea"
    "ding\":0,\"animation\":\"idle\",\"time\":0,\"rate\":1,\"mode\":\"once\",\"locomotion\":\""
    "walk\",\"idle\":\"idle\",\"speed\":60,\"turn_radius\":0,\"route\":0,\"route_mode\":\"pin"
    "gpong\",\"start_delay\":0,\"target\":{\"x\":0,\"y\":0,\"heading\":0},\"attachments\":[{\""
    "model\":\"\",\"joint\":\"tag_\",\"offset\":[0,0,0],\"rotation\":[0,0,0]}]}],\"camera\":{"
    "\"target\":[0,0,35],\"yaw\":0,\"pitch\":0,\"distance\":0},\"display\":{\"grid\":false,\""
    "skeleton\":true,\"joint_names\":true,\"bounds\":true,\"wireframe\":true,\"normals\":true"
    ",\"routes\":false,\"turn_circles\":false},\"time\":0,\"playing\":false}";

// zlib never matches the first byte of its window (position 0 is the end of its hash chains), so
// the compressor's copy of the dictionary has one byte in front that it never refers to: every
// link starts with the dictionary's first bytes ({"version":1,...) and that saves one literal.
// Distances count back from the end, so the decompressor reads the stream with kLinkDictionary.
const std::string& CompressorDictionary() {
  static const std::string dictionary = std::string(1, ' ') + kLinkDictionary;
  return dictionary;
}

// Raw DEFLATE (windowBits -15: no zlib header or checksum) at zlib's best level, with the preset
// dictionary. Z_FILTERED favours Huffman coding over short matches, which wins on the digit-heavy
// JSON of big scenes and loses on small ones, so both are tried and the shorter kept.
std::vector<std::uint8_t> CompressLinkJson(const std::string& json) {
  std::vector<std::uint8_t> best;
  for (const int strategy : {Z_DEFAULT_STRATEGY, Z_FILTERED}) {
    z_stream stream{};
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, strategy) != Z_OK) continue;
    const std::string& dictionary = CompressorDictionary();
    deflateSetDictionary(&stream, reinterpret_cast<const Bytef*>(dictionary.data()),
                         static_cast<uInt>(dictionary.size()));
    std::vector<std::uint8_t> out(deflateBound(&stream, static_cast<uLong>(json.size())));
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(json.data()));
    stream.avail_in = static_cast<uInt>(json.size());
    stream.next_out = out.data();
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);  // deflateBound leaves room to finish at once
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (status == Z_STREAM_END && (best.empty() || out.size() < best.size())) best = std::move(out);
  }
  return best;
}

// What zlib's inflate reports, in the terms of RFC 1951 ("expected ..., found ...").
std::string DescribeInflateError(const char* zlib_message, uLong written) {
  const std::string message = zlib_message ? zlib_message : "";
  if (message == "invalid block type") return "a block type 0, 1 or 2, found 3";
  if (message == "invalid stored block lengths") {
    return "a stored block length and its complement, found two that do not match";
  }
  if (message == "too many length or distance symbols") {
    return "at most 286 literal/length and 30 distance codes, found more";
  }
  if (message == "invalid code lengths set") {
    return "a complete code-length code, found an incomplete or oversubscribed one";
  }
  if (message == "invalid bit length repeat") {
    return "a repeat of code lengths after a first length and within the count, found one "
           "outside them";
  }
  if (message == "invalid code -- missing end-of-block") {
    return "a code for the end of block, found none";
  }
  if (message == "invalid literal/lengths set") {
    return "a complete literal/length code, found an incomplete or oversubscribed one";
  }
  if (message == "invalid distances set") {
    return "a complete distance code, found an incomplete or oversubscribed one";
  }
  if (message == "invalid literal/length code") return "a length code 257-285, found 286 or 287";
  if (message == "invalid distance code") return "a distance code 0-29, found 30 or 31";
  if (message == "invalid distance too far back") {
    return "a distance within the dictionary and the " + std::to_string(written) +
           " bytes written, found a longer one";
  }
  return "valid compressed data, found zlib's \"" + message + "\"";
}

// Inflates hostile data: output grows only up to max_output bytes (one more byte of room tells a
// stream that ends there from one that goes on), and an error names the byte where inflate
// stopped reading.
Result<std::string> DecompressLinkJson(const std::uint8_t* data, std::size_t size,
                                       std::size_t max_output) {
  z_stream stream{};
  if (inflateInit2(&stream, -15) != Z_OK) {
    return MakeError(kLinkFile, 0, 0, "expected memory for the decompressor, found none");
  }
  inflateSetDictionary(&stream, reinterpret_cast<const Bytef*>(kLinkDictionary),
                       static_cast<uInt>(std::strlen(kLinkDictionary)));
  stream.next_in = const_cast<Bytef*>(data);
  stream.avail_in = static_cast<uInt>(size);
  std::string out;
  int status = Z_OK;
  std::string expected;
  while (true) {
    if (stream.total_out == out.size()) {
      if (out.size() > max_output) {
        expected = "at most " + std::to_string(max_output) + " bytes of output, found more";
        break;
      }
      out.resize(std::min(max_output + 1, std::max<std::size_t>(4096, out.size() * 2)));
    }
    stream.next_out = reinterpret_cast<Bytef*>(&out[stream.total_out]);
    stream.avail_out = static_cast<uInt>(out.size() - stream.total_out);
    status = inflate(&stream, Z_NO_FLUSH);
    if (status == Z_STREAM_END) {
      if (stream.total_out > max_output) {
        expected = "at most " + std::to_string(max_output) + " bytes of output, found more";
      } else if (stream.avail_in > 0) {
        expected = "end of data after the final block, found " + std::to_string(stream.avail_in) +
                   " more bytes";
      }
      break;
    }
    if (status == Z_DATA_ERROR) {
      expected = DescribeInflateError(stream.msg, stream.total_out);
      break;
    }
    if (status != Z_OK && status != Z_BUF_ERROR) {
      expected = "valid compressed data, found zlib status " + std::to_string(status);
      break;
    }
    // Z_OK or Z_BUF_ERROR: inflate needs more room (the loop makes it) or more input (none is
    // left).
    if (stream.avail_in == 0 && stream.avail_out > 0) {
      expected = "more compressed data, found the end of the data";
      break;
    }
  }
  const std::size_t position = static_cast<std::size_t>(stream.next_in - data);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  if (!expected.empty()) {
    return MakeError(
        kLinkFile, 0, 0,
        "compressed data at byte " + std::to_string(position) + ": expected " + expected);
  }
  return out;
}

Status CheckNoLocalModels(const Scene& scene) {
  for (std::size_t i = 0; i < scene.models.size(); ++i) {
    if (scene.models[i].local) {
      return MakeError(kLinkFile, 0, 0,
                       "models[" + std::to_string(i) +
                           "].local: expected a bundled or https model in a share link, found "
                           "a local file (\"" +
                           scene.models[i].name + "\")");
    }
  }
  return Status();
}

}  // namespace

Result<std::string> EncodeSceneLink(const Scene& scene) {
  Status valid = ValidateScene(scene);
  if (!valid.ok()) {
    Diagnostic error = valid.error();
    error.file = kLinkFile;
    return error;
  }
  Status travels = CheckNoLocalModels(scene);
  if (!travels.ok()) return travels.error();
  SceneWriteOptions options;
  options.omit_defaults = true;
  options.decimals = kSceneLinkDecimals;
  options.pack_routes = true;
  const std::string json = WriteScene(scene, options);
  std::vector<std::uint8_t> bytes = CompressLinkJson(json);
  if (bytes.empty()) return MakeError(kLinkFile, 0, 0, "expected zlib to compress the scene");
  bytes.insert(bytes.begin(), kLinkFormat);
  return Base64UrlEncode(bytes.data(), bytes.size());
}

Result<Scene> DecodeSceneLink(std::string_view payload) {
  if (payload.substr(0, 1) == "#") payload.remove_prefix(1);
  if (payload.substr(0, 6) == "scene=") payload.remove_prefix(6);
  Result<std::vector<std::uint8_t>> bytes = Base64UrlDecode(kLinkFile, payload, kMaxSceneLinkChars);
  if (!bytes.ok()) return bytes.error();
  const std::vector<std::uint8_t>& data = bytes.value();
  if (data.empty() || data[0] != kLinkFormat) {
    return MakeError(kLinkFile, 0, 0,
                     "expected link format " + std::to_string(kLinkFormat) + ", found " +
                         (data.empty() ? std::string("no data") : std::to_string(data[0])));
  }
  Result<std::string> json =
      DecompressLinkJson(data.data() + 1, data.size() - 1, kMaxSceneJsonBytes);
  if (!json.ok()) return json.error();
  Result<Scene> scene = ParseScene(kLinkFile, json.value());
  if (!scene.ok()) return scene;
  Status travels = CheckNoLocalModels(scene.value());
  if (!travels.ok()) return travels.error();
  return scene;
}

}  // namespace md5stage
