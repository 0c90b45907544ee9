#include "cli/camera_cli.h"

#include <cstdio>
#include <cstdlib>

#include "core/md5/file_reader.h"
#include "core/md5/md5_camera.h"

namespace md5stage::cli {
namespace {

std::string NumberText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

}  // namespace

bool DescribeCameraFile(const std::string& path, bool json, JsonValue* json_out) {
  *json_out = JsonValue::MakeObject();
  json_out->Set("file", path);
  json_out->Set("kind", "camera");
  Result<std::string> bytes = md5::ReadFileBytes(path);
  Result<md5::CameraFile> camera = bytes.ok() ? md5::ParseMd5Camera(path, bytes.value())
                                              : Result<md5::CameraFile>(bytes.error());
  if (!camera.ok()) {
    std::fprintf(stderr, "%s\n", camera.error().ToString().c_str());
    json_out->Set("error", camera.error().ToString());
    return false;
  }
  const md5::CameraFile& f = camera.value();
  // The text line and --json show the same digits.
  const std::string rate = NumberText(f.frame_rate);
  const std::string duration = NumberText(f.duration());
  if (json) {
    json_out->Set("frames", static_cast<double>(f.frames.size()));
    json_out->Set("frame_rate", std::strtod(rate.c_str(), nullptr));
    JsonValue cuts = JsonValue::MakeArray();
    for (int cut : f.cuts) cuts.Append(cut);
    json_out->Set("cuts", std::move(cuts));
    json_out->Set("shots", static_cast<double>(f.cuts.size() + 1));
    json_out->Set("duration", std::strtod(duration.c_str(), nullptr));
    return true;
  }
  std::string cuts;
  for (int cut : f.cuts) cuts += (cuts.empty() ? "" : " ") + std::to_string(cut);
  std::printf("%s: camera, %zu frames at %s fps, %zu cuts%s, %s s\n", path.c_str(), f.frames.size(),
              rate.c_str(), f.cuts.size(), cuts.empty() ? "" : (" (at frame " + cuts + ")").c_str(),
              duration.c_str());
  return true;
}

}  // namespace md5stage::cli
