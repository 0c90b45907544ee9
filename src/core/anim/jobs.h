// Per-frame animation jobs: small structs with pointers to immutable inputs and caller-owned
// outputs; Validate() checks sizes, Run() validates then computes without allocating.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "core/anim/animation.h"
#include "core/anim/joint_transform.h"
#include "core/anim/skeleton.h"
#include "core/anim/span.h"

namespace md5stage::anim {

class Model;

enum class RootMotion {
  kKeep,             // play the root's translation as authored
  kStripHorizontal,  // hold every root's x and y at frame 0 (in-place playback for routes)
};

// Samples an animation's local (parent-relative) pose at a time: lerp of translations, nlerp of
// rotations between the two neighbouring frames.
struct SampleJob {
  const Animation* animation = nullptr;
  float time = 0.0f;  // seconds
  int frame = -1;     // when >= 0: exactly this frame; time and mode are ignored
  PlaybackMode mode = PlaybackMode::kLoop;
  RootMotion root_motion = RootMotion::kKeep;
  Span<JointTransform> output;  // animation->joint_count() transforms

  bool Validate() const;
  bool Run() const;
};

// Crossfade of two local poses: weight 0 gives `from`, 1 gives `to` (exactly), between them lerp
// and shortest-arc nlerp. The output may alias either input.
struct BlendJob {
  Span<const JointTransform> from;
  Span<const JointTransform> to;
  float weight = 0.0f;
  Span<JointTransform> output;

  bool Validate() const;
  bool Run() const;
};

// Local pose -> model-space (or world) matrices: world = parent world x local from the roots down.
// Roots are multiplied by `root`: the character's world transform, or the world matrix of the
// joint/node a whole skeleton hangs from (a head on a neck). `root` must be affine.
struct LocalToModelJob {
  const Skeleton* skeleton = nullptr;
  Span<const JointTransform> locals;  // skeleton->joint_count()
  glm::mat4 root{1.0f};
  Span<glm::mat4> models;  // skeleton->joint_count()

  bool Validate() const;
  bool Run() const;
};

// Skinning matrices for the GPU path: palette[j] = joint_matrices[j] x inverse_bind[j].
struct SkinningPaletteJob {
  Span<const glm::mat4> joint_matrices;
  Span<const glm::mat4> inverse_bind_matrices;
  Span<glm::mat4> palette;

  bool Validate() const;
  bool Run() const;
};

// CPU reference skinning of one mesh with the format's own formula: position = sum of
// bias x (joint matrix x weight position) over all of a vertex's weights (divided by the bias
// sum when normalize_weights); normal = normalized sum of bias x (joint rotation x the vertex's
// bind normal, derived from the bind-pose triangles, in the joint's bind frame); tangent likewise
// from the vertex's bind tangent, with the bind bitangent sign.
struct SkinningJob {
  const Model* model = nullptr;
  int mesh_index = 0;
  Span<const glm::mat4> joint_matrices;  // model->skeleton().joint_count()
  bool normalize_weights = false;
  Span<glm::vec3> positions;  // the mesh's vertex count
  Span<glm::vec3> normals;    // empty, or the mesh's vertex count
  Span<glm::vec4> tangents;   // empty, or the mesh's vertex count

  bool Validate() const;
  bool Run() const;
};

// What the vertex shader does, on the CPU: each GPU vertex (bind position, normal, 4 joints,
// 4 weights) skinned by the palette. For tests, benchmarks and error measurement.
struct PaletteSkinningJob {
  const Model* model = nullptr;
  Span<const glm::mat4> palette;  // model->skeleton().joint_count()
  Span<glm::vec3> positions;      // model->gpu().vertices.size()
  Span<glm::vec3> normals;        // empty, or as positions
  Span<glm::vec4> tangents;       // empty, or as positions (xyz skinned as the normal, w kept)

  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage::anim
