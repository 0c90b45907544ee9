// "Download MD5": a loaded model's md5mesh and each bound md5anim as separate files, written by
// the core's md5_writer from the parsed data the model and animations keep (core/anim).
#pragma once

#include <string>
#include <vector>

#include "viewer/model_library.h"

namespace md5stage::viewer {

struct Md5DownloadFile {
  std::string file_name;  // "<model>.md5mesh", "<animation>.md5anim"
  std::string text;
};

inline constexpr char kMd5MimeType[] = "text/plain";

// The mesh first, then the animations in the model's order. Regenerated from the parsed form
// rather than the bytes as dropped, so an imported glTF (which has no md5 bytes of its own) and
// a dropped md5mesh go the same way, and no second copy of every file is kept.
std::vector<Md5DownloadFile> ExportModelAsMd5(const LoadedModel& model);

}  // namespace md5stage::viewer
