// Scene-graph attachment: a named transform that hangs from nothing (the world), another node, or
// a joint of a character's world pose (a weapon in a hand). Its world matrix can also serve as the
// root of a whole skeleton (LocalToModelJob::root), which is how a head goes on a neck.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <string>

#include "core/anim/span.h"

namespace md5stage::anim {

class TransformNode {
 public:
  TransformNode() = default;
  explicit TransformNode(std::string name, const glm::vec3& position = glm::vec3(0.0f),
                         const glm::quat& rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f));

  const std::string& name() const { return name_; }

  // One parent at a time. A joint parent reads joint_world_matrices[joint] on every UpdateWorld:
  // the buffer (an instance's Pose::models) must stay alive and unresized while attached.
  void ClearParent();
  void SetParent(const TransformNode* node);
  bool SetParentJoint(Span<const glm::mat4> joint_world_matrices, int joint);
  const TransformNode* parent_node() const { return parent_node_; }
  int parent_joint() const { return parent_joint_; }

  // Initial = what ResetToInitial() restores; local = the current offset in the parent's frame.
  const glm::vec3& initial_position() const { return initial_position_; }
  const glm::quat& initial_rotation() const { return initial_rotation_; }
  const glm::vec3& local_position() const { return local_position_; }
  const glm::quat& local_rotation() const { return local_rotation_; }
  void SetLocal(const glm::vec3& position, const glm::quat& rotation);
  void SetInitial(const glm::vec3& position, const glm::quat& rotation);
  void ResetToInitial();

  // world = parent world x local. Parents must be updated first.
  void UpdateWorld();
  glm::mat4 ParentWorld() const;
  const glm::mat4& world_matrix() const { return world_matrix_; }
  glm::vec3 world_position() const { return glm::vec3(world_matrix_[3]); }
  // The rotation part (columns normalized, so a scaled parent does not skew it).
  glm::quat world_rotation() const;

 private:
  std::string name_;
  const TransformNode* parent_node_ = nullptr;
  Span<const glm::mat4> parent_joints_;
  int parent_joint_ = -1;
  glm::vec3 initial_position_{0.0f};
  glm::quat initial_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 local_position_{0.0f};
  glm::quat local_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  glm::mat4 world_matrix_{1.0f};
};

}  // namespace md5stage::anim
