#include "core/anim/transform_node.h"

#include <glm/mat3x3.hpp>
#include <utility>

#include "core/anim/joint_transform.h"

namespace md5stage::anim {

TransformNode::TransformNode(std::string name, const glm::vec3& position, const glm::quat& rotation)
    : name_(std::move(name)),
      initial_position_(position),
      initial_rotation_(rotation),
      local_position_(position),
      local_rotation_(rotation) {
  UpdateWorld();
}

void TransformNode::ClearParent() {
  parent_node_ = nullptr;
  parent_joints_ = Span<const glm::mat4>();
  parent_joint_ = -1;
}

void TransformNode::SetParent(const TransformNode* node) {
  ClearParent();
  parent_node_ = node;
}

bool TransformNode::SetParentJoint(Span<const glm::mat4> joint_world_matrices, int joint) {
  if (joint < 0 || static_cast<std::size_t>(joint) >= joint_world_matrices.size) return false;
  ClearParent();
  parent_joints_ = joint_world_matrices;
  parent_joint_ = joint;
  return true;
}

void TransformNode::SetLocal(const glm::vec3& position, const glm::quat& rotation) {
  local_position_ = position;
  local_rotation_ = rotation;
}

void TransformNode::SetInitial(const glm::vec3& position, const glm::quat& rotation) {
  initial_position_ = position;
  initial_rotation_ = rotation;
}

void TransformNode::ResetToInitial() {
  local_position_ = initial_position_;
  local_rotation_ = initial_rotation_;
}

glm::mat4 TransformNode::ParentWorld() const {
  if (parent_node_ != nullptr) return parent_node_->world_matrix();
  if (parent_joint_ >= 0) return parent_joints_[static_cast<std::size_t>(parent_joint_)];
  return glm::mat4(1.0f);
}

void TransformNode::UpdateWorld() {
  world_matrix_ = MultiplyAffine(ParentWorld(), ToMatrix(local_position_, local_rotation_));
}

glm::quat TransformNode::world_rotation() const {
  glm::mat3 rotation(world_matrix_);
  for (int c = 0; c < 3; ++c) {
    const float length = glm::length(rotation[c]);
    if (length > 0.0f) rotation[c] /= length;
  }
  return glm::normalize(glm::quat_cast(rotation));
}

}  // namespace md5stage::anim
