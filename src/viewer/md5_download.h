// "Download MD5": a loaded model's md5mesh and each bound md5anim as separate files, written by
// the core's md5_writer from the parsed data the model and animations keep (core/anim), and the
// decl and image files its materials come from (an imported glTF's .mtr and images).
#pragma once

#include <string>
#include <vector>

#include "viewer/model_library.h"

namespace md5stage::viewer {

inline constexpr char kMd5MimeType[] = "text/plain";

struct Md5DownloadFile {
  std::string file_name;  // "<model>.md5mesh", "<animation>.md5anim", "walker.mtr", "walker.png"
  std::string text;       // the file's bytes
  const char* mime_type = kMd5MimeType;
};

// The mesh first, then the animations in the model's order, then the material files
// (ModelLibrary::MaterialFilesFor) by base name, as loaded. The MD5 files are regenerated from the
// parsed form rather than the bytes as dropped, so an imported glTF (which has no md5 bytes of its
// own) and a dropped md5mesh go the same way, and no second copy of every file is kept.
std::vector<Md5DownloadFile> ExportModelAsMd5(const ModelLibrary& library, int model);

}  // namespace md5stage::viewer
