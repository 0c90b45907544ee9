// From a mesh part's shader to image files, as id Tech 4 does it: the shader (after the skin's
// remap) names a material decl, the decl names images, and the images are looked up among the
// files of a dropped folder. Without a material, images are guessed from the shader's base name.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/common/result.h"
#include "core/material/material.h"

namespace md5stage::material {

// The image files a folder offers (paths relative to its root, as dropped or listed), indexed
// for look-ups that ignore case and try the extensions .tga .png .jpg (then .jpeg .bmp .dds) in
// turn.
class ImageIndex {
 public:
  ImageIndex() = default;
  // Files that are not images (by extension) are left out; indices refer to `paths`.
  explicit ImageIndex(const std::vector<std::string>& paths);

  struct Match {
    enum class How { kMissing, kPath, kPathSuffix, kBaseName };
    How how = How::kMissing;
    int file = -1;  // index into the paths given
  };
  // An image as a decl names it ("models/x/body_local.tga", "models/x/body"): first the path
  // from the root, then a file whose path ends in it (the folder dropped may be a parent or a
  // child of the decls' root), then any file of that base name; within each, the extension the
  // decl gives first, then .tga .png .jpg. The first file listed wins a tie.
  Match Find(std::string_view image) const;

  int image_count() const { return static_cast<int>(files_.size()); }
  // The n-th image's index into the paths given.
  int image_file(int n) const { return files_[static_cast<std::size_t>(n)].index; }
  const std::string& path(int file) const { return paths_[static_cast<std::size_t>(file)]; }

 private:
  struct File {
    std::string lower_path;  // "models/x/body.tga"
    int index;
  };
  std::vector<std::string> paths_;
  std::vector<File> files_;
  std::unordered_map<std::string, int> by_path_;               // lower path -> first file
  std::unordered_map<std::string, std::vector<int>> by_name_;  // lower base name -> files
};

// A name canonical for look-ups: lower case, '/' for '\', no leading "./", no image extension.
std::string CanonicalName(std::string_view name);

// All materials of the given files by canonical name; the first definition wins (later ones
// are reported, as Doom 3 keeps the first decl of a name).
class MaterialTable {
 public:
  explicit MaterialTable(const std::vector<const DeclFile*>& files);
  const Material* Find(std::string_view shader) const;
  const std::vector<Diagnostic>& warnings() const { return warnings_; }
  int size() const { return static_cast<int>(by_name_.size()); }

 private:
  std::unordered_map<std::string, const Material*> by_name_;
  std::vector<Diagnostic> warnings_;
};

struct ImageLookup {
  enum class How { kMissing, kBuiltin, kPath, kPathSuffix, kBaseName };
  std::string requested;  // as the decl names it, or the name guessed
  How how = How::kMissing;
  int file = -1;     // index into the available paths
  std::string path;  // that path, "" when missing or built in (_white, _flat, $lightmap, ...)
};
const char* LookupHowName(ImageLookup::How how);  // "missing", "builtin", "path", ...

struct ResolvedMap {
  bool present = false;             // the material declares this map (or the guess found one)
  ImageProgram program;             // as declared; one image for a guess
  std::vector<ImageLookup> images;  // the program's images, depth first
  md5::SourceLocation where;        // the stage
  bool Complete() const;            // present, and every image found or built in
};

struct PartResolution {
  std::string shader;                  // as the mesh names it
  std::string shader_after_skin;       // what the skin made of it (the same without a skin)
  const Material* material = nullptr;  // points into the decls given; null: guessed
  std::array<ResolvedMap, kMapKindCount> maps;  // by MapKind
  const ResolvedMap& map(MapKind kind) const { return maps[static_cast<int>(kind)]; }
};

struct ResolveInput {
  std::vector<std::string> shaders;  // per mesh part
  std::string model_name;            // the mesh's base name: the guess for an empty shader
  const MaterialTable* materials = nullptr;
  const Skin* skin = nullptr;  // optional
  const ImageIndex* images = nullptr;

  Status Validate() const;
};

struct ResolveOutput {
  std::vector<PartResolution> parts;
  // One per image a material names that is not there: "FILE:LINE:COL: warning: material 'M':
  // normal image 'x_local' not found (tried .tga .png .jpg by path and base name)".
  std::vector<Diagnostic> warnings;
};

// Pure: the same inputs give the same output. Fails only when Validate() does.
Result<ResolveOutput> ResolveMaterials(const ResolveInput& input);

// Today's guess, without a material: the shader's base name plus the usual suffixes
// (diffuse: none, _d, _diffuse, _color; normal: _local, _n, _normal; specular: _s, _spec;
// height: _h), and for an empty shader a diffuse map named diffuse, skin, base or after the
// model, or the only image there is.
ImageLookup GuessImage(const ImageIndex& images, std::string_view shader,
                       std::string_view model_name, MapKind kind);

}  // namespace md5stage::material
