#include "viewer/gltf_download.h"

#include <memory>

#include "core/convert/gltf_export.h"
#include "core/convert/gltf_export_maps.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

Result<GlbDownload> ExportModelAsGlb(const ModelLibrary& library, int index) {
  const LoadedModel& model = library.models()[static_cast<size_t>(index)];
  GlbDownload download;
  download.file_name = model.name + ".glb";

  std::vector<convert::ExportAnimation> animations;
  for (size_t i = 0; i < model.animations.size(); ++i) {
    animations.push_back({model.animations[i].get(), model.animation_names[i]});
  }
  Result<convert::ExportMaps> maps = library.ExportMaps(index);
  if (!maps.ok()) {
    Diagnostic error = maps.error();
    error.message = model.name + ": " + error.message;
    return error;
  }
  for (const Diagnostic& warning : maps.value().warnings) {
    download.warnings.push_back(warning.ToString());
  }

  convert::GltfFiles files;
  std::vector<Diagnostic> warnings;
  convert::GltfExportJob job;
  job.model = model.model.get();
  job.animations = animations;
  job.images = maps.value().images;
  job.part_maps = maps.value().parts;
  job.container = convert::GltfContainer::kGlb;
  job.output = &files;
  job.warnings = &warnings;
  const Status done = job.Run();
  if (!done.ok()) {
    Diagnostic error = done.error();
    error.message = model.name + ": " + error.message;
    return error;
  }
  for (const Diagnostic& warning : warnings) download.warnings.push_back(warning.ToString());
  download.bytes = std::move(files.main);
  download.animations = static_cast<int>(animations.size());
  download.images = static_cast<int>(maps.value().images.size());
  return download;
}

Result<convert::ExportMaps> ModelLibrary::ExportMaps(int index) const {
  if (index < 0 || index >= static_cast<int>(models_.size())) {
    return MakeError("", 0, 0,
                     "model: expected an index below " + std::to_string(models_.size()) +
                         ", found " + std::to_string(index));
  }
  const ResolveContext context(*this);
  auto resolved = ResolveNow(models_[static_cast<size_t>(index)], context);
  if (!resolved.ok()) return resolved.error();
  std::vector<convert::SourceImageFile> files;
  files.reserve(images_.size());
  for (const StoredImage& image : images_) files.push_back({image.file.name, &image.file.bytes});
  convert::ExportMapsInput maps;
  maps.resolution = &resolved.value();
  maps.files = files;
  return convert::BuildExportMaps(maps);
}

JsonValue Stage::DownloadGltf(int model) {
  auto exported = ExportModelAsGlb(*library_, model);
  if (!exported.ok()) {
    const std::string message = "Download glTF: " + exported.error().ToString();
    SetError(message);
    return Failure(message);
  }
  const GlbDownload& download = exported.value();
  if (host_) host_->DownloadFile(download.file_name, kGlbMimeType, download.bytes);
  report_.warnings = download.warnings;
  report_.status = download.file_name + ": " + std::to_string(download.bytes.size()) + " bytes, " +
                   std::to_string(download.animations) + " animation(s), " +
                   std::to_string(download.images) + " image(s)";
  report_.error.clear();
  JsonValue reply = Reply(true);
  reply.Set("file", download.file_name);
  reply.Set("bytes", static_cast<double>(download.bytes.size()));
  reply.Set("animations", download.animations);
  reply.Set("images", download.images);
  JsonArray warnings;
  for (const std::string& warning : download.warnings) warnings.emplace_back(warning);
  reply.Set("warnings", JsonValue(std::move(warnings)));
  return reply;
}

}  // namespace md5stage::viewer
