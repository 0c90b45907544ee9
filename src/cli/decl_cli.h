// The material and skin side of the md5stage command: `info` on .mtr/.shader/.skin files and
// `check MESH --materials DIR` (which images each mesh part resolves to, which are missing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/common/result.h"
#include "core/material/material.h"
#include "core/material/material_resolve.h"

namespace md5stage::cli {

// `info FILE` for a decl file: prints the materials and skins (or fills *json_out with its JSON
// object); warnings and errors go to stderr. False when the file cannot be read or parsed.
bool DescribeDeclFile(const std::string& path, bool json, JsonValue* json_out);

// The decls (.mtr, .shader, .skin, .def) and image files under a folder, as `check --materials`
// and `export --materials` read them; decl diagnostics are printed to stderr as they are read.
struct MaterialFolder {
  std::string folder;
  std::vector<std::string> paths;  // every file, relative to the folder, '/'-separated, sorted
  std::vector<std::unique_ptr<material::DeclFile>> decls;
  std::vector<const material::DeclFile*> decl_files;  // the same, as the table takes them
  std::unique_ptr<material::MaterialTable> table;
  material::ImageIndex images;
  bool all_read = true;  // false when a decl could not be read or parsed

  // The skin of that name (ignoring case), or null.
  const material::Skin* FindSkin(const std::string& name) const;
};
// Errors: the folder is not one.
Result<std::unique_ptr<MaterialFolder>> ReadMaterialFolder(const std::string& folder);

// The mesh's parts resolved against the folder (skin by name, "" for none; an unknown skin is an
// error naming --skin).
Result<material::ResolveOutput> ResolveFolderMaterials(const MaterialFolder& folder,
                                                       const std::vector<std::string>& shaders,
                                                       const std::string& model_name,
                                                       const std::string& skin);

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
