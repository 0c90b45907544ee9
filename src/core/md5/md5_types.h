// Raw MD5 data exactly as a file holds it (after validation): every joint, vertex, triangle,
// weight, hierarchy entry, bound, baseframe value and frame component, plus the load warnings.
#pragma once

#include <array>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

#include "core/common/result.h"

namespace md5stage::md5 {

// A joint of an .md5mesh: model-space bind pose.
struct MeshJoint {
  int index = 0;
  std::string name;
  int parent = -1;  // -1 for the root; always below index
  std::string parent_name;
  glm::vec3 position{0.0f};
  glm::vec3 orientation_xyz{0.0f};                // as written in the file
  glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};  // w = -sqrt(1 - |xyz|^2), normalized
  int line = 0;
};

struct MeshVertex {
  glm::vec2 uv{0.0f};
  int first_weight = 0;
  int weight_count = 0;
};

struct MeshTriangle {
  std::array<std::uint32_t, 3> vertices{};
};

// A weight's position is in its joint's bind-pose frame.
struct MeshWeight {
  int joint = 0;
  float bias = 0.0f;
  glm::vec3 position{0.0f};
};

struct MeshPart {
  std::string shader;
  std::vector<MeshVertex> vertices;
  std::vector<MeshTriangle> triangles;
  std::vector<MeshWeight> weights;
  int line = 0;  // of the 'mesh' keyword
};

struct MeshFile {
  std::string file_name;
  int version = 10;
  std::string commandline;
  std::vector<MeshJoint> joints;
  std::vector<MeshPart> meshes;
  std::vector<Diagnostic> warnings;

  int vertex_count() const;
  int triangle_count() const;
  int weight_count() const;
  int max_weights_per_vertex() const;
};

// Bits of AnimJoint::flags, read in this order from start_index.
enum AnimComponentFlag : int {
  kAnimTx = 1,
  kAnimTy = 2,
  kAnimTz = 4,
  kAnimQx = 8,
  kAnimQy = 16,
  kAnimQz = 32,
};

struct AnimJoint {
  std::string name;
  int parent = -1;
  std::string parent_name;
  int flags = 0;
  int start_index = 0;
  int line = 0;
};

struct AnimBounds {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
};

// Parent-relative (the root: model-relative) pose every frame starts from.
struct AnimBaseJoint {
  glm::vec3 position{0.0f};
  glm::vec3 orientation_xyz{0.0f};
};

struct AnimFile {
  std::string file_name;
  int version = 10;
  std::string commandline;
  int frame_count = 0;
  int joint_count = 0;
  int joint_count_line = 0;  // of numJoints, for binding messages
  float frame_rate = 0.0f;
  int animated_component_count = 0;
  std::vector<AnimJoint> hierarchy;
  std::vector<AnimBounds> bounds;  // one per frame
  std::vector<AnimBaseJoint> baseframe;
  // frame_count * animated_component_count values, frame-major.
  std::vector<float> frame_components;
  std::vector<Diagnostic> warnings;

  const float* frame(int index) const {
    return frame_components.data() + static_cast<std::size_t>(index) * animated_component_count;
  }
  // (frame_count - 1) / frame_rate: the last frame closes the loop.
  float duration() const;
};

// The quaternion an MD5 file means by (x, y, z): w = -sqrt(1 - x^2 - y^2 - z^2), 0 when the
// radicand is negative, then normalized.
glm::quat QuatFromXyz(const glm::vec3& xyz);

}  // namespace md5stage::md5
