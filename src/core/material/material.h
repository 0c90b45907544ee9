// What md5stage keeps of Doom 3 material decls (.mtr; Daemon .shader uses the same keywords) and
// skins (.skin): the diffuse, normal, specular and height maps of each material, the flags a
// viewer needs, and the shader remaps of each skin. Produced by material_parser.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/md5/tokenizer.h"

namespace md5stage::material {

// The roles of a material's images. kNormal is Doom 3's bumpmap (RBDOOM and Daemon: normalMap).
enum class MapKind { kDiffuse, kNormal, kSpecular, kHeight, kOther };
inline constexpr int kMapKindCount = 5;
const char* MapKindName(MapKind kind);  // "diffuse", "normal", "specular", "height", "other"

// An image program as written (`map addnormals( a_local, heightmap( a_h, 4 ) )`), kept as a tree
// for whoever loads the images; nothing is evaluated here.
struct ImageProgram {
  enum class Op {
    kImage,       // text: the image path as written
    kNumber,      // number: an argument such as heightmap's scale
    kAddNormals,  // addnormals( A, B )
    kHeightMap,   // heightmap( IMAGE, SCALE )
    kFunction,    // any other function (makeintensity, scale, ...): text is its name
  };
  Op op = Op::kImage;
  std::string text;
  float number = 0.0f;
  std::vector<ImageProgram> args;
  md5::SourceLocation where;

  // Every image path the program reads, depth first ("a_local", "a_h").
  void CollectImages(std::vector<const ImageProgram*>* out) const;
  // The program as text, normalised: "addnormals(a_local, heightmap(a_h, 4))".
  std::string ToString() const;
};

struct Stage {
  MapKind kind = MapKind::kOther;
  // How the stage was written: "diffusemap" for the shortcut, or the blend of an explicit stage
  // ("bumpmap", "add", "gl_one, gl_zero"; "" when the stage has none).
  std::string blend;
  bool shortcut = false;     // `diffusemap X` rather than `{ blend diffusemap map X }`
  bool has_image = false;    // false for stages without `map` (mirrorRenderMap, ...)
  bool conditional = false;  // `if ( ... )`: drawn only when an entity parameter says so
  ImageProgram image;
  md5::SourceLocation where;
};

struct Material {
  std::string name;  // as written; look-ups ignore case
  std::string file;
  md5::SourceLocation where;
  std::vector<Stage> stages;
  bool two_sided = false;  // twoSided, or Quake 3 `cull none|disable|twosided`
  bool translucent = false;
  // alphaTest with a number; alphaTest with an expression (sinTable[time]) keeps its text.
  std::optional<float> alpha_test;
  std::string alpha_test_expression;

  // The first stage of that kind that draws unconditionally, else the first of that kind.
  const Stage* FindStage(MapKind kind) const;
};

struct SkinRemap {
  std::string from;  // a shader (material) name, or "*" for every shader
  std::string to;
  md5::SourceLocation where;
};

struct Skin {
  std::string name;
  std::string file;
  md5::SourceLocation where;
  std::vector<std::string> models;  // `model M` lines: the models the skin is meant for
  std::vector<SkinRemap> remaps;    // in file order
  bool quake_style = false;         // `surface,image` lines (Quake 3, XreaL, Unvanquished)

  // The shader a mesh part with `shader` shows under this skin: the first remap (in file order,
  // as Doom 3's idDeclSkin::RemapShaderBySkin) whose `from` is the shader, ignoring case, or `*`.
  // Unmapped shaders stay as they are.
  std::string Remap(const std::string& shader) const;
  // True when the skin names no model or names this one (ignoring case; `models/x/y.md5mesh`
  // matches a mesh path ending in it).
  bool IsFor(const std::string& mesh_path) const;
};

// One parsed decl file.
struct DeclFile {
  std::string file;
  std::vector<Material> materials;
  std::vector<Skin> skins;
  int skipped_decls = 0;  // tables, guides, particles, entityDefs, ... (not read)
  std::vector<Diagnostic> warnings;
};

}  // namespace md5stage::material
