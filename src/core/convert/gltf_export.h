// MD5 -> glTF 2.0: a job that writes a validated model and its animations as one skinned glTF
// asset (.glb, or .gltf + .bin), byte-for-byte the same for the same inputs.
#pragma once

#include <string>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/anim/span.h"
#include "core/common/result.h"

namespace md5stage::convert {

struct ExportAnimation {
  const anim::Animation* animation = nullptr;
  std::string name;  // the glTF animation's name: the md5anim's base name
};

// An image file embedded as is (glTF takes PNG and JPEG only; gltf_export_maps.h makes them).
struct ExportImage {
  std::string name;       // base file name, kept as the glTF image's name
  std::string mime_type;  // "image/png" or "image/jpeg"
  const std::string* bytes = nullptr;
};

// A mesh part's maps, each an index into GltfExportJob::images or -1 for none. The normal map is
// in glTF's convention already (green towards decreasing v: material::InvertGreen).
struct ExportPartMaps {
  int diffuse = -1;   // pbrMetallicRoughness.baseColorTexture
  int normal = -1;    // normalTexture
  int specular = -1;  // KHR_materials_specular's specularColorTexture
};

enum class GltfContainer {
  kGlb,              // one binary file, the buffer in its BIN chunk
  kGltfSeparateBin,  // JSON text that refers to `bin_uri` for its one buffer
};

struct GltfFiles {
  std::string main;  // the .glb or the .gltf
  std::string bin;   // kGltfSeparateBin only: the .bin's bytes
};

// The Doom 3 Z-up world becomes glTF's Y-up at one root node (rotation of -90 degrees about X,
// MD5 (x, y, z) -> glTF (x, z, -y)); mesh data is written already rotated, so a skinned vertex is
// rotation x joint x inverse bind (which includes the inverse rotation) x vertex. TANGENT is the
// model's Doom 3 tangent with w negated: glTF's bitangent cross(N, T) x w points up the image
// (decreasing v), Doom 3's down it.
struct GltfExportJob {
  const anim::Model* model = nullptr;
  anim::Span<const ExportAnimation> animations;
  anim::Span<const ExportImage> images;
  // Per mesh part, its maps as indices into `images`; empty when no part has one.
  anim::Span<const ExportPartMaps> part_maps;
  GltfContainer container = GltfContainer::kGlb;
  std::string bin_uri;  // kGltfSeparateBin: how the .gltf names its .bin (a relative URI)
  GltfFiles* output = nullptr;
  // Receives what the export changes or leaves out (4-weight truncation with the largest vertex
  // displacement it causes, zero normals, empty mesh parts). May be null.
  std::vector<Diagnostic>* warnings = nullptr;

  // Errors name the field: "animations[1] (run.md5anim): expected the 59 joints of ...".
  Status Validate() const;
  // A one-shot tool job: it allocates the asset it builds (unlike the per-frame jobs).
  Status Run() const;
};

// The root node's rotation as a glTF quaternion (x, y, z, w).
inline constexpr double kZUpToYUpRotation[4] = {-0.70710678118654752, 0.0, 0.0,
                                                0.70710678118654752};

}  // namespace md5stage::convert
