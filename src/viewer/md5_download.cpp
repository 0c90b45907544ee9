#include "viewer/md5_download.h"

#include "core/md5/md5_writer.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

std::vector<Md5DownloadFile> ExportModelAsMd5(const ModelLibrary& library, int index) {
  const LoadedModel& model = library.models()[static_cast<size_t>(index)];
  std::vector<Md5DownloadFile> files;
  files.push_back({model.name + ".md5mesh", md5::WriteMd5Mesh(model.model->source())});
  for (size_t i = 0; i < model.animations.size(); ++i) {
    files.push_back(
        {model.animation_names[i] + ".md5anim", md5::WriteMd5Anim(model.animations[i]->source())});
  }
  for (InputFile& file : library.MaterialFilesFor(index)) {
    const std::string extension = FileExtension(file.name);
    const char* mime_type = extension == "png"                          ? "image/png"
                            : extension == "jpg" || extension == "jpeg" ? "image/jpeg"
                            : extension == "mtr" || extension == "shader" || extension == "skin"
                                ? "text/plain"
                                : "application/octet-stream";
    const size_t slash = file.name.find_last_of("/\\");
    files.push_back({slash == std::string::npos ? file.name : file.name.substr(slash + 1),
                     std::move(file.bytes), mime_type});
  }
  return files;
}

JsonValue Stage::DownloadMd5(int model) {
  const std::vector<Md5DownloadFile> files = ExportModelAsMd5(*library_, model);
  const size_t animations = library_->models()[static_cast<size_t>(model)].animations.size();
  JsonArray names;
  size_t bytes = 0;
  for (const Md5DownloadFile& file : files) {
    if (host_) host_->DownloadFile(file.file_name, file.mime_type, file.text);
    names.emplace_back(file.file_name);
    bytes += file.text.size();
  }
  report_.warnings.clear();
  report_.status = files.front().file_name + " + " + std::to_string(animations) + " animation(s)";
  if (files.size() > animations + 1) {
    report_.status += " + " + std::to_string(files.size() - animations - 1) + " material file(s)";
  }
  report_.status += ": " + std::to_string(bytes) + " bytes";
  report_.error.clear();
  JsonValue reply = Reply(true);
  reply.Set("files", JsonValue(std::move(names)));
  reply.Set("bytes", static_cast<double>(bytes));
  return reply;
}

}  // namespace md5stage::viewer
