// md5stage_assetgen: writes the project's own models, animations, textures and demo scenes.
//   md5stage_assetgen <assets-dir>                 write every file (always, so timestamps move)
//   md5stage_assetgen --check <assets-dir>         exit 1 if any file differs from a fresh run
//   md5stage_assetgen --preview <dir>              write contact sheets (PNG) for a visual check
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "asset_set.h"
#include "preview_sheets.h"

namespace {

using md5stage::assetgen::GeneratedFile;

bool WriteFile(const std::filesystem::path& path, const std::string& bytes) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "md5stage_assetgen: cannot write %s\n", path.string().c_str());
    return false;
  }
  return true;
}

bool ReadFile(const std::filesystem::path& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *bytes = buffer.str();
  return true;
}

int Usage() {
  std::fprintf(stderr,
               "usage: md5stage_assetgen <assets-dir>\n"
               "       md5stage_assetgen --check <assets-dir>\n"
               "       md5stage_assetgen --preview <dir>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && argv[1][0] != '-') {
    std::filesystem::path root(argv[1]);
    for (const GeneratedFile& file : md5stage::assetgen::GenerateAssets().files) {
      if (!WriteFile(root / file.path, file.bytes)) return 1;
    }
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--check") == 0) {
    std::filesystem::path root(argv[2]);
    int differences = 0;
    for (const GeneratedFile& file : md5stage::assetgen::GenerateAssets().files) {
      std::string bytes;
      if (!ReadFile(root / file.path, &bytes) || bytes != file.bytes) {
        std::fprintf(stderr, "md5stage_assetgen: %s differs from a fresh generation\n",
                     (root / file.path).string().c_str());
        ++differences;
      }
    }
    return differences ? 1 : 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--preview") == 0) {
    std::filesystem::path root(argv[2]);
    auto set = md5stage::assetgen::GenerateAssets();
    for (const GeneratedFile& sheet : md5stage::assetgen::RenderPreviewSheets(set)) {
      if (!WriteFile(root / sheet.path, sheet.bytes)) return 1;
    }
    return 0;
  }
  return Usage();
}
