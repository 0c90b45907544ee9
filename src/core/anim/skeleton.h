// The immutable runtime skeleton: parallel arrays (names, parents, bind pose) with parents before
// children, O(1) lookup by index and by name. Shared by every instance of a model.
#pragma once

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/joint_transform.h"
#include "core/md5/md5_types.h"

namespace md5stage::anim {

class Skeleton {
 public:
  Skeleton() = default;
  // From a parsed (validated) mesh: its joints are model-space; bind locals are derived.
  static Skeleton FromMeshFile(const md5::MeshFile& file);
  // From parallel arrays of parent-relative transforms (tests, tools). Parents must come first.
  static Skeleton FromLocals(std::vector<std::string> names, std::vector<int> parents,
                             std::vector<JointTransform> bind_locals);

  int joint_count() const { return static_cast<int>(names_.size()); }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<int>& parents() const { return parents_; }  // -1 for roots
  const std::string& name(int joint) const { return names_[joint]; }
  int parent(int joint) const { return parents_[joint]; }
  // Parent-relative bind pose (roots: model-relative).
  const std::vector<JointTransform>& bind_locals() const { return bind_locals_; }
  // Model-space bind pose, as transforms and as matrices, and the inverse bind matrices.
  const std::vector<JointTransform>& bind_models() const { return bind_models_; }
  const std::vector<glm::mat4>& bind_matrices() const { return bind_matrices_; }
  const std::vector<glm::mat4>& inverse_bind_matrices() const { return inverse_bind_matrices_; }

  // Index of the first joint with this name, or -1.
  int FindJoint(std::string_view name) const;

 private:
  void BuildDerived();

  std::vector<std::string> names_;
  std::vector<int> parents_;
  std::vector<JointTransform> bind_locals_;
  std::vector<JointTransform> bind_models_;
  std::vector<glm::mat4> bind_matrices_;
  std::vector<glm::mat4> inverse_bind_matrices_;
  // Open-addressing table of joint index + 1 (0 = empty), sized to a power of two >= 2n.
  std::vector<std::int32_t> name_slots_;
};

}  // namespace md5stage::anim
