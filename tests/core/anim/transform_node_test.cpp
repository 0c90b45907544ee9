// Transform nodes: attached to nothing, to another node, or to a character's joint (a weapon in
// a hand); and a whole skeleton hung from another's joint through a node (a head on a neck).
#include "core/anim/transform_node.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "anim_test_util.h"
#include "core/anim/jobs.h"
#include "core/anim/skeleton.h"

namespace md5stage::anim {
namespace {

using testing::Near;
using testing::NearMatrix;
using testing::SameRotation;

const float kPi = 3.14159265358979f;

glm::mat4 Explicit(const glm::vec3& t, const glm::quat& q) {
  return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(q);
}

Skeleton Body() {
  return Skeleton::FromLocals({"pelvis", "neck", "hand"}, {-1, 0, 0},
                              {{{0, 0, 10}, glm::quat(1, 0, 0, 0)},
                               {{0, 0, 6}, glm::angleAxis(kPi / 4, glm::vec3(0, 1, 0))},
                               {{0, -3, 4}, glm::angleAxis(kPi / 2, glm::vec3(1, 0, 0))}});
}

std::vector<glm::mat4> WorldPose(const Skeleton& skeleton, const glm::mat4& root,
                                 const std::vector<JointTransform>& locals) {
  std::vector<glm::mat4> models(static_cast<std::size_t>(skeleton.joint_count()));
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.locals = locals;
  job.root = root;
  job.models = models;
  EXPECT_TRUE(job.Run());
  return models;
}

TEST(TransformNode, WithoutParentWorldIsLocal) {
  const glm::quat rotation = glm::angleAxis(0.3f, glm::vec3(0, 0, 1));
  TransformNode node("lamp", {1, 2, 3}, rotation);
  EXPECT_EQ(node.name(), "lamp");
  EXPECT_TRUE(NearMatrix(node.world_matrix(), Explicit({1, 2, 3}, rotation)));
  EXPECT_TRUE(Near(node.world_position(), {1, 2, 3}));
  EXPECT_TRUE(SameRotation(node.world_rotation(), rotation));
}

TEST(TransformNode, FollowsAJointOfACharacter) {
  const Skeleton body = Body();
  const glm::mat4 character = Explicit({100, 50, 0}, glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1)));
  std::vector<glm::mat4> world = WorldPose(body, character, body.bind_locals());
  const glm::quat grip = glm::angleAxis(kPi, glm::vec3(0, 0, 1));
  TransformNode weapon("railgun", {1, 0, 0}, grip);
  ASSERT_TRUE(weapon.SetParentJoint(world, body.FindJoint("hand")));
  weapon.UpdateWorld();
  EXPECT_EQ(weapon.parent_joint(), 2);
  EXPECT_TRUE(NearMatrix(weapon.world_matrix(), world[2] * Explicit({1, 0, 0}, grip)));
  // The hand moves: the weapon follows on the next update.
  std::vector<JointTransform> locals = body.bind_locals();
  locals[2].translation += glm::vec3(0, 0, 5);
  const std::vector<glm::mat4> moved = WorldPose(body, character, locals);
  std::copy(moved.begin(), moved.end(), world.begin());
  weapon.UpdateWorld();
  EXPECT_TRUE(NearMatrix(weapon.world_matrix(), moved[2] * Explicit({1, 0, 0}, grip)));
  EXPECT_TRUE(SameRotation(weapon.world_rotation(), glm::quat_cast(glm::mat3(moved[2])) * grip));
}

TEST(TransformNode, ChainsNodesAndResetsToInitial) {
  TransformNode parent("parent", {0, 0, 5});
  TransformNode child("child", {1, 0, 0});
  child.SetParent(&parent);
  parent.UpdateWorld();
  child.UpdateWorld();
  EXPECT_TRUE(Near(child.world_position(), {1, 0, 5}));
  child.SetLocal({2, 0, 0}, glm::angleAxis(1.0f, glm::vec3(1, 0, 0)));
  child.UpdateWorld();
  EXPECT_TRUE(Near(child.world_position(), {2, 0, 5}));
  child.ResetToInitial();
  child.UpdateWorld();
  EXPECT_TRUE(Near(child.world_position(), {1, 0, 5}));
  EXPECT_EQ(child.initial_position(), glm::vec3(1, 0, 0));
  child.ClearParent();
  child.UpdateWorld();
  EXPECT_TRUE(Near(child.world_position(), {1, 0, 0}));
}

TEST(TransformNode, RejectsJointsOutsideThePose) {
  std::vector<glm::mat4> world(3, glm::mat4(1.0f));
  TransformNode node("n");
  EXPECT_FALSE(node.SetParentJoint(world, -1));
  EXPECT_FALSE(node.SetParentJoint(world, 3));
  EXPECT_EQ(node.parent_joint(), -1);
}

TEST(TransformNode, WorldRotationIgnoresAParentsScale) {
  TransformNode parent("scaled");
  TransformNode child("child", {0, 0, 0}, glm::angleAxis(0.5f, glm::vec3(0, 1, 0)));
  child.SetParent(&parent);
  parent.UpdateWorld();
  // A scaled parent is set through a joint matrix: 2x uniform scale.
  std::vector<glm::mat4> scaled = {glm::scale(glm::mat4(1.0f), glm::vec3(2.0f))};
  child.SetParentJoint(scaled, 0);
  child.UpdateWorld();
  EXPECT_TRUE(SameRotation(child.world_rotation(), glm::angleAxis(0.5f, glm::vec3(0, 1, 0))));
}

// A head skeleton hangs from the body's neck: its root matrix is the neck's world matrix times
// an offset node, so its joints follow the neck.
TEST(TransformNode, AWholeSkeletonHangsFromAnothersJoint) {
  const Skeleton body = Body();
  const Skeleton head = Skeleton::FromLocals({"head", "jaw"}, {-1, 0},
                                             {{{0, 0, 1}, glm::angleAxis(0.2f, glm::vec3(0, 0, 1))},
                                              {{0.5f, 0, -0.5f}, glm::quat(1, 0, 0, 0)}});
  const glm::mat4 character = Explicit({10, 0, 0}, glm::quat(1, 0, 0, 0));
  const std::vector<glm::mat4> body_world = WorldPose(body, character, body.bind_locals());
  TransformNode socket("neck_socket", {0, 0, 0.5f});
  ASSERT_TRUE(socket.SetParentJoint(body_world, body.FindJoint("neck")));
  socket.UpdateWorld();
  const std::vector<glm::mat4> head_world =
      WorldPose(head, socket.world_matrix(), head.bind_locals());
  const glm::mat4 expected_head =
      body_world[1] * Explicit({0, 0, 0.5f}, glm::quat(1, 0, 0, 0)) *
      Explicit(head.bind_locals()[0].translation, head.bind_locals()[0].rotation);
  EXPECT_TRUE(NearMatrix(head_world[0], expected_head));
  EXPECT_TRUE(
      NearMatrix(head_world[1], expected_head * Explicit({0.5f, 0, -0.5f}, glm::quat(1, 0, 0, 0))));
}

}  // namespace
}  // namespace md5stage::anim
