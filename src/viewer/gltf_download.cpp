#include "viewer/gltf_download.h"

#include <memory>

#include "core/convert/gltf_export.h"
#include "viewer/json_util.h"
#include "viewer/viewer.h"

namespace md5stage::viewer {

Result<GlbDownload> ExportModelAsGlb(const LoadedModel& model) {
  GlbDownload download;
  download.file_name = model.name + ".glb";

  std::vector<convert::ExportAnimation> animations;
  for (size_t i = 0; i < model.animations.size(); ++i) {
    animations.push_back({model.animations[i].get(), model.animation_names[i]});
  }

  // One glTF image per distinct image file; parts sharing a file share it.
  std::vector<convert::ExportImage> images;
  std::vector<const std::string*> image_sources;
  std::vector<int> part_images(model.texture_files.size(), -1);
  bool any_image = false;
  for (size_t part = 0; part < model.texture_files.size(); ++part) {
    const std::string& file = model.texture_files[part];
    if (file.empty()) continue;
    const std::string extension = FileExtension(file);
    const bool png = extension == "png";
    if (!png && extension != "jpg" && extension != "jpeg") {
      download.warnings.push_back(file + ": warning: the diffuse image of mesh " +
                                  std::to_string(part) +
                                  " is not embedded: glTF takes PNG or JPEG, found ." + extension);
      continue;
    }
    const std::string* bytes =
        part < model.texture_bytes.size() ? model.texture_bytes[part].get() : nullptr;
    if (bytes == nullptr) continue;
    int index = -1;
    for (size_t i = 0; i < image_sources.size(); ++i) {
      if (image_sources[i] == bytes) index = static_cast<int>(i);
    }
    if (index < 0) {
      index = static_cast<int>(images.size());
      images.push_back({FileStem(file) + "." + extension, png ? "image/png" : "image/jpeg", bytes});
      image_sources.push_back(bytes);
    }
    part_images[part] = index;
    any_image = true;
  }
  if (!any_image) part_images.clear();

  convert::GltfFiles files;
  std::vector<Diagnostic> warnings;
  convert::GltfExportJob job;
  job.model = model.model.get();
  job.animations = animations;
  job.images = images;
  job.part_images = part_images;
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
  download.images = static_cast<int>(images.size());
  return download;
}

JsonValue Viewer::DownloadGltf(int model) {
  auto exported = ExportModelAsGlb(library_->models()[static_cast<size_t>(model)]);
  if (!exported.ok()) {
    const std::string message = "Download glTF: " + exported.error().ToString();
    SetError(message);
    return Failure(message);
  }
  const GlbDownload& download = exported.value();
  if (host_) host_->DownloadFile(download.file_name, kGlbMimeType, download.bytes);
  last_warnings_ = download.warnings;
  status_ = download.file_name + ": " + std::to_string(download.bytes.size()) + " bytes, " +
            std::to_string(download.animations) + " animation(s), " +
            std::to_string(download.images) + " image(s)";
  last_error_.clear();
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
