// The immutable runtime model: the parsed mesh file, its skeleton, derived bind-pose geometry
// and the GPU skinning data the viewer uploads once. Shared by every instance (see ResourceCache).
#pragma once

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/skeleton.h"
#include "core/anim/span.h"
#include "core/md5/md5_types.h"

namespace md5stage::anim {

// Derived per mesh part, in file vertex/weight order.
struct MeshGeometry {
  std::vector<glm::vec3> bind_positions;  // normalized weighted sum (what the viewer shows)
  std::vector<glm::vec3> bind_normals;    // area-weighted normals of the bind-pose triangles
  // Per weight: the bind normal in its joint's frame, of the last vertex using the weight (a weight
  // shared by the vertices of a split has one of their normals; SkinningJob works per vertex).
  std::vector<glm::vec3> weight_normals;
  std::vector<glm::vec4> bind_tangents;  // xyz unit, orthogonal to the normal; w bitangent sign
};

// One interleaved vertex for WebGL2 (72 bytes): offsets 0 position, 12 normal, 24 uv,
// 32 joints (4 x uint16, vertexAttribIPointer UNSIGNED_SHORT), 40 weights (4 x float),
// 56 tangent (xyz + bitangent sign w, see TangentJob).
struct GpuVertex {
  glm::vec3 position{0.0f};  // bind pose, model space
  glm::vec3 normal{0.0f};    // bind pose, unit length
  glm::vec2 uv{0.0f};        // as in the file (v points down the image)
  std::uint16_t joints[4] = {0, 0, 0, 0};
  float weights[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // largest first, sum 1
  glm::vec4 tangent{1.0f, 0.0f, 0.0f, 1.0f};    // bind pose; bitangent = w * cross(normal, xyz)
};
static_assert(sizeof(GpuVertex) == 72, "GpuVertex layout is part of the viewer contract");

// A draw range: one MD5 mesh part.
struct GpuSubmesh {
  std::string shader;
  std::uint32_t first_index = 0;  // into GpuSkinData::indices
  std::uint32_t index_count = 0;
  std::uint32_t first_vertex = 0;  // into GpuSkinData::vertices
  std::uint32_t vertex_count = 0;
};

struct GpuSkinData {
  std::vector<GpuVertex> vertices;     // all mesh parts, file order
  std::vector<std::uint32_t> indices;  // absolute vertex indices, counter-clockwise front faces
  std::vector<GpuSubmesh> submeshes;
  std::vector<glm::mat4> inverse_bind_matrices;  // one per joint
  // The 4-influence reduction: how many vertices had more than 4 weights, the largest share of a
  // vertex's bias that was dropped, and where.
  int vertices_over_four = 0;
  float worst_dropped_weight = 0.0f;
  int worst_dropped_mesh = -1;
  int worst_dropped_vertex = -1;
};

class Model {
 public:
  static std::shared_ptr<const Model> Create(std::shared_ptr<const md5::MeshFile> file);

  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& name() const { return source_->file_name; }
  const md5::MeshFile& source() const { return *source_; }
  const std::vector<Diagnostic>& warnings() const { return source_->warnings; }
  const Skeleton& skeleton() const { return skeleton_; }
  int mesh_count() const { return static_cast<int>(source_->meshes.size()); }
  const md5::MeshPart& mesh(int index) const { return source_->meshes[index]; }
  const MeshGeometry& geometry(int index) const { return geometry_[index]; }
  const GpuSkinData& gpu() const { return gpu_; }

 private:
  Model() = default;

  std::shared_ptr<const md5::MeshFile> source_;
  Skeleton skeleton_;
  std::vector<MeshGeometry> geometry_;
  GpuSkinData gpu_;
};

// Worst distance between the CPU reference (all weights, normalized) and the GPU path (4 weights
// and the bind position, palette-skinned) for one pose. Allocates scratch: a tool, not a job.
struct SkinningError {
  float distance = 0.0f;
  int mesh = -1;
  int vertex = -1;
};
SkinningError MeasureGpuSkinningError(const Model& model, Span<const glm::mat4> joint_matrices);

class Animation;

// The worst of MeasureGpuSkinningError over every frame of an animation bound to the model, and
// that frame (-1 when no frame could be posed).
struct AnimationSkinningError {
  SkinningError worst;
  int frame = -1;
};
AnimationSkinningError MeasureGpuSkinningError(const Model& model, const Animation& animation);

}  // namespace md5stage::anim
