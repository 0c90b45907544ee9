// The compact binary form of an .md5mesh (`md5stage pack`): what a figure fetches instead of the
// MD5 text it names (docs/design.md, "The mesh pack"). Joints are exact; UVs, weight biases and
// weight positions are 16-bit steps over each mesh's own range, so they come back within half a
// step (MeshPackTolerance); UVs, positions and triangle corners are stored as differences from
// the previous one, and every array as byte planes, so that gzip finds their repeats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/md5/md5_limits.h"
#include "core/md5/md5_types.h"

namespace md5stage::md5 {

// "MD5PACK" and the format's version byte.
inline constexpr char kMeshPackMagic[8] = {'M', 'D', '5', 'P', 'A', 'C', 'K', 1};

// Whether `bytes` begin as a mesh pack (of any version): a mesh loader then decodes rather than
// parses them.
bool IsMeshPack(std::string_view bytes);

// The pack of a parsed mesh. Errors (naming the mesh's file) when a mesh has more than 65536
// vertices, a vertex more than 255 weights, or weights not stored in vertex order (each vertex's
// first weight right after the previous vertex's): the MD5 text stays that mesh's only form.
Result<std::string> EncodeMeshPack(const MeshFile& mesh);

// Where a mesh's quantized values lie: each is within half a step of the text's value.
struct MeshPackRange {
  glm::vec2 uv_min{0.0f}, uv_max{0.0f};
  float bias_min = 0.0f, bias_max = 0.0f;
  glm::vec3 position_min{0.0f}, position_max{0.0f};
};

// One mesh's counts and ranges, and where its arrays start in the pack.
struct MeshPackPart {
  std::string shader;
  int vertex_count = 0;
  int triangle_count = 0;
  int weight_count = 0;
  MeshPackRange range;
  std::size_t arrays_offset = 0;
};

// What a pack holds, read and checked from its header before anything is sized: the counts are
// within `limits` and the bytes are exactly as many as the counts need.
struct MeshPackLayout {
  std::string commandline;
  std::vector<MeshJoint> joints;  // exact, with names and parents checked
  std::vector<MeshPackPart> parts;
};
Result<MeshPackLayout> ReadMeshPackLayout(std::string_view file_name, std::string_view bytes,
                                          const Md5Limits& limits = Md5Limits());

// Fills a mesh sized by the layout (SizeMeshFromLayout) from the pack's arrays, without
// allocating. Validate() checks the output's sizes against the layout; Run() validates, decodes,
// and fails (naming nothing: see CheckMeshPackIndices) only on a size mismatch.
struct MeshPackDecodeJob {
  std::string_view bytes;
  const MeshPackLayout* layout = nullptr;
  MeshFile* mesh = nullptr;

  bool Validate() const;
  bool Run() const;
};

// The mesh a layout describes, its arrays sized and its joints copied, for MeshPackDecodeJob.
MeshFile SizeMeshFromLayout(std::string_view file_name, const MeshPackLayout& layout);

// After a decode: triangle corners below the vertex count, weights' joints below the joint count,
// each vertex's weights within the mesh's (a hostile pack can say anything).
Status CheckMeshPackIndices(const MeshFile& mesh);

// Layout, size, decode, check: the mesh as ParseMd5Mesh would give it for the text the pack was
// made from, within MeshPackTolerance (and without the text's warnings).
Result<MeshFile> DecodeMeshPack(std::string_view file_name, std::string_view bytes,
                                const Md5Limits& limits = Md5Limits());

// Half a 16-bit step of a range: the most a decoded value may differ from the text's (plus the
// float rounding of min + step * q).
float MeshPackTolerance(float min, float max);

}  // namespace md5stage::md5
