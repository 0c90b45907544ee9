#include "viewer/md5_download.h"

#include "core/md5/md5_writer.h"
#include "viewer/json_util.h"
#include "viewer/viewer.h"

namespace md5stage::viewer {

std::vector<Md5DownloadFile> ExportModelAsMd5(const LoadedModel& model) {
  std::vector<Md5DownloadFile> files;
  files.push_back({model.name + ".md5mesh", md5::WriteMd5Mesh(model.model->source())});
  for (size_t i = 0; i < model.animations.size(); ++i) {
    files.push_back(
        {model.animation_names[i] + ".md5anim", md5::WriteMd5Anim(model.animations[i]->source())});
  }
  return files;
}

JsonValue Viewer::DownloadMd5(int model) {
  const std::vector<Md5DownloadFile> files =
      ExportModelAsMd5(library_->models()[static_cast<size_t>(model)]);
  JsonArray names;
  size_t bytes = 0;
  for (const Md5DownloadFile& file : files) {
    if (host_) host_->DownloadFile(file.file_name, kMd5MimeType, file.text);
    names.emplace_back(file.file_name);
    bytes += file.text.size();
  }
  last_warnings_.clear();
  status_ = files.front().file_name + " + " + std::to_string(files.size() - 1) +
            " animation(s): " + std::to_string(bytes) + " bytes";
  last_error_.clear();
  JsonValue reply = Reply(true);
  reply.Set("files", JsonValue(std::move(names)));
  reply.Set("bytes", static_cast<double>(bytes));
  return reply;
}

}  // namespace md5stage::viewer
