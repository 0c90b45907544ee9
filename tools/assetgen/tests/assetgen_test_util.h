// Shared helpers for the generator's tests: one generation per test program, and the paths of the
// committed assets.
#pragma once

#include <string>

#include "asset_set.h"

namespace md5stage::assetgen::testing {

// GenerateAssets(), run once per test program.
inline const AssetSet& Assets() {
  static const AssetSet set = GenerateAssets();
  return set;
}

inline std::string AssetsDir() { return std::string(MD5STAGE_SOURCE_DIR) + "/assets"; }

inline const GeneratedFile* FindFile(const std::string& path) {
  for (const GeneratedFile& file : Assets().files) {
    if (file.path == path) return &file;
  }
  return nullptr;
}

}  // namespace md5stage::assetgen::testing
