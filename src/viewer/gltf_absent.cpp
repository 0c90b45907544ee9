// The lean figures build (md5stage-figures.wasm): the converter is left out, and what needs it
// says so instead of linking it (docs/design.md, "Figures").
#include "viewer/gltf_bridge.h"
#include "viewer/gltf_download.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {
constexpr char kNoConverter[] =
    "glTF is not part of md5stage figures; open the file in the md5stage viewer";
}  // namespace

void ImportGltfFiles(std::vector<InputFile>& files, LoadReport& report) {
  for (const InputFile& file : files) {
    const std::string extension = FileExtension(file.name);
    if (extension == "glb" || extension == "gltf")
      report.errors.push_back(file.name + ": error: " + kNoConverter);
  }
}

Result<GlbDownload> ExportModelAsGlb(const ModelLibrary&, int) {
  return MakeError("", 0, 0, kNoConverter);
}

Result<convert::ExportMaps> ModelLibrary::ExportMaps(int) const {
  return MakeError("", 0, 0, kNoConverter);
}

JsonValue Stage::DownloadGltf(int) { return Failure(std::string("exportGltf: ") + kNoConverter); }

}  // namespace md5stage::viewer
