// glTF 2.0 -> MD5: a job that reads a .glb or .gltf (with tinygltf) and converts one skin (the
// first a mesh of the default scene uses), the meshes it deforms and every animation into an
// md5mesh and md5anims (parsed form; write them with md5::WriteMd5Mesh / WriteMd5Anim).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/md5/md5_limits.h"
#include "core/md5/md5_types.h"

namespace md5stage::convert {

// The bytes of a file a .gltf names by a relative URI (already %-decoded), or null when there is
// none: the job never opens files itself.
using GltfFileLookup = std::function<const std::string*(const std::string& uri)>;

// What one conversion may cost, worked out from the keys' times and the skin's and meshes' sizes
// before any frame is sampled; an input past them is refused with a message naming its field and
// the bound. The same for `md5stage convert` and a glTF dropped on the viewer (which then parses
// what was made). docs/reliability.md says why these values.
struct GltfImportBounds {
  // md5anim text of all animations together, estimated (md5::EstimateMd5AnimBytes): 16 MB, over
  // 10 times the largest real md5anim here (1.4 MB, rifle_view_idle: 501 frames of 46 joints).
  std::uint64_t max_anim_bytes = std::uint64_t{16} << 20;
  // Sampling work of all animations together: frames x (nodes + joints + mesh weights), a node's
  // transform, a joint's split into MD5 form and a weight skinned for the frame's bounds each one
  // unit. 2^26 is over 20 times the largest real model's (rifle_view: 501 frames x 5,692).
  std::uint64_t max_sampling_work = std::uint64_t{1} << 26;
};

struct GltfImportOptions {
  // Frames per second of every md5anim. 0: the rate of the grid all of an animation's keys lie
  // on (its smallest key spacing) when that is in [kMinGridFps, kMaxGridFps], else
  // kDefaultImportFps.
  float fps = 0.0f;
  md5::Md5Limits limits;
  GltfImportBounds bounds;
};

inline constexpr float kDefaultImportFps = 30.0f;
// Keys on a finer grid than kMaxGridFps are resampled at the default rate; so are keys on a grid
// coarser than kMinGridFps (a key every 2.8 hours), whose rate no player would play at.
inline constexpr double kMaxGridFps = 240.0;
inline constexpr double kMinGridFps = 1e-4;

// Deepest nesting of arrays and objects the JSON of a .gltf (or a .glb's JSON chunk) may have;
// checked before tinygltf parses it. Real files nest fewer than 10 levels.
inline constexpr int kMaxGltfJsonDepth = 64;

struct ImportedAnimation {
  std::string name;  // the glTF animation's name made a file stem (unique, no path characters)
  md5::AnimFile file;
};

// An image a glTF material uses, as its bytes (PNG or JPEG; nothing is decoded or re-encoded).
struct ImportedImage {
  std::string file_name;  // a unique file-safe name with its extension: "skin.png"
  std::string bytes;
};

// What a mesh part's shader names, as a Doom 3 material: the glTF material's base colour
// texture becomes the diffuse map, its normal texture the bump map (re-encoded as PNG with green
// inverted: glTF's green leans up the image, Doom 3's down it), KHR_materials_specular's
// specularColorTexture the specular map.
struct ImportedMaterial {
  std::string name;        // the mesh parts' shader
  int diffuse_image = -1;  // index into GltfImportOutput::images, -1: none
  int normal_image = -1;
  int specular_image = -1;
};

struct GltfImportOutput {
  md5::MeshFile mesh;
  std::vector<ImportedAnimation> animations;
  std::vector<ImportedImage> images;
  std::vector<ImportedMaterial> materials;  // those with an image; parts' shaders name them
};

// The materials as an .mtr decl file that names the images by their file names (written beside
// it); "" when there are none.
std::string WriteImportedMaterials(const GltfImportOutput& output);

// glTF Y-up becomes Doom 3 Z-up: glTF (x, y, z) -> MD5 (x, -z, y). Joints are that skin's,
// parents first (skin order kept otherwise), each joint's MD5 transform the rigid part of its
// world matrix, so non-joint ancestors are folded in; what scale remains (MD5 has none) goes into
// the weight positions, which is exact while it stays as in the bind pose and is warned about
// where it does not. One mesh part per triangle primitive of the nodes the skin deforms. Images of
// the materials (in the BIN chunk, data: URIs or files given by `files`) are handed over as
// they are, with materials naming them.
struct GltfImportJob {
  std::string file_name;   // for messages; the mesh's name
  std::string_view bytes;  // the .glb or .gltf
  GltfFileLookup files;    // for a .gltf's external buffers; may be empty
  GltfImportOptions options;
  GltfImportOutput* output = nullptr;
  // What is changed or left out ("left out: 2 morph targets of meshes[0]", "weights of 12
  // vertices over 4 influences: ...", scale not exact). May be null.
  std::vector<Diagnostic>* warnings = nullptr;

  // The job's own fields (output, bytes, fps); the asset is checked by Run().
  Status Validate() const;
  // A one-shot tool job: it allocates what it builds. Errors name the glTF field:
  // "accessors[3].count: ...", "nodes[2].children: cycle ...".
  Status Run() const;
};

}  // namespace md5stage::convert
