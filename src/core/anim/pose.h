// What a character instance owns: its own pose buffers, sized once for a skeleton; everything
// else (skeleton, mesh, animations) is shared and immutable.
#pragma once

#include <cstddef>
#include <glm/mat4x4.hpp>
#include <vector>

#include "core/anim/joint_transform.h"

namespace md5stage::anim {

struct Pose {
  std::vector<JointTransform> locals;   // SampleJob / BlendJob output
  std::vector<JointTransform> scratch;  // a second local pose for crossfades
  std::vector<glm::mat4> models;        // LocalToModelJob output (world when root = world)
  std::vector<glm::mat4> palette;       // SkinningPaletteJob output: upload to the shader

  Pose() = default;
  explicit Pose(int joint_count) { Resize(joint_count); }
  void Resize(int joint_count) {
    const std::size_t n = static_cast<std::size_t>(joint_count);
    locals.resize(n);
    scratch.resize(n);
    models.resize(n, glm::mat4(1.0f));
    palette.resize(n, glm::mat4(1.0f));
  }
};

}  // namespace md5stage::anim
