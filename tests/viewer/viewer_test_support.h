// What the viewer tests share: file bytes, commands as JSON, replies read back, and a host that
// records what the viewer hands it (downloads).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "viewer/stage.h"

namespace md5stage::viewer::test {

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A file of the project's assets/models.
inline std::string AssetModelPath(const std::string& relative) {
  return std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/" + relative;
}

// Queues the walker's mesh and its idle and walk animations, as a drop of them does.
inline void QueueWalker(Stage& stage) {
  for (const char* name : {"walker.md5mesh", "idle.md5anim", "walk.md5anim"}) {
    InputFile file;
    file.name = name;
    file.source = "local";
    file.bytes = ReadBytes(AssetModelPath(std::string("walker/") + name));
    stage.QueueFile(std::move(file));
  }
}

inline JsonValue Command(const std::string& text) {
  auto parsed = ParseJson("test", text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? parsed.value() : JsonValue::MakeObject();
}

inline bool Ok(const JsonValue& reply) {
  const JsonValue* ok = reply.Find("ok");
  return ok && ok->is_bool() && ok->as_bool();
}

// The strings of reply[key] (errors, warnings, models), empty when absent.
inline std::vector<std::string> Strings(const JsonValue& reply, const char* key) {
  std::vector<std::string> out;
  const JsonValue* value = reply.Find(key);
  if (value == nullptr || !value->is_array()) return out;
  for (const JsonValue& item : value->as_array()) {
    if (item.is_string()) out.push_back(item.as_string());
  }
  return out;
}

struct Download {
  std::string name;
  std::string mime_type;
  std::string bytes;
};

class RecordingHost : public StageHost {
 public:
  void DownloadFile(const std::string& name, const std::string& mime_type,
                    const std::string& bytes) override {
    downloads.push_back({name, mime_type, bytes});
  }
  std::vector<Download> downloads;
};

}  // namespace md5stage::viewer::test
