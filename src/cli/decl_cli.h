// The material and skin side of the md5stage command: `info` on .mtr/.shader/.skin files and
// `check MESH --materials DIR` (which images each mesh part resolves to, which are missing).
#pragma once

#include <string>
#include <vector>

#include "core/common/json.h"

namespace md5stage::cli {

// `info FILE` for a decl file: prints the materials and skins (or fills *json_out with its JSON
// object); warnings and errors go to stderr. False when the file cannot be read or parsed.
bool DescribeDeclFile(const std::string& path, bool json, JsonValue* json_out);

struct MaterialCheckOptions {
  std::string mesh;
  std::string folder;  // --materials DIR
  std::string skin;    // --skin NAME, "" for none
  bool json = false;
};

// `check MESH --materials DIR`: reads every .mtr, .shader, .skin and .def under DIR; exit status 0
// when every part has a diffuse image and every image a material names is there, 1 otherwise (or on
// a file that cannot be read), 2 for bad options.
int RunMaterialCheck(const MaterialCheckOptions& options);

}  // namespace md5stage::cli
