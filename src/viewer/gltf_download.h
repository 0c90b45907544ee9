// "Download glTF": a loaded model with all its animations and its diffuse, normal and specular
// maps as one .glb, written by the core's exporter (core/convert) with the CLI's map rules.
#pragma once

#include <string>
#include <vector>

#include "core/common/result.h"
#include "viewer/model_library.h"

namespace md5stage::viewer {

struct GlbDownload {
  std::string file_name;  // "<model>.glb"
  std::string bytes;
  int animations = 0;
  int images = 0;
  // What the export changed or left out (4-weight truncation, maps that could not be made).
  std::vector<std::string> warnings;
};

inline constexpr char kGlbMimeType[] = "model/gltf-binary";

// Errors name the model and the exporter's field ("walker: animations[1] (run.md5anim): ...").
Result<GlbDownload> ExportModelAsGlb(const ModelLibrary& library, int model);

}  // namespace md5stage::viewer
