// Skeleton as parallel arrays: lookups, bind-pose conversion, and local-to-model composition
// checked against explicit matrix products.
#include "core/anim/skeleton.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "anim_test_util.h"
#include "core/anim/jobs.h"

namespace md5stage::anim {
namespace {

using testing::NearMatrix;

const float kPi = 3.14159265358979f;

glm::quat AxisAngle(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(degrees * kPi / 180.0f, axis);
}

glm::mat4 Explicit(const glm::vec3& t, const glm::quat& q) {
  return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(q);
}

Skeleton Chain() {
  return Skeleton::FromLocals({"root", "arm", "hand", "other_root", "hand"}, {-1, 0, 1, -1, 3},
                              {{{1, 0, 0}, AxisAngle(90, {0, 0, 1})},
                               {{0, 2, 0}, AxisAngle(90, {1, 0, 0})},
                               {{0, 0, 3}, glm::quat(1, 0, 0, 0)},
                               {{5, 5, 5}, AxisAngle(30, {0, 1, 0})},
                               {{1, 1, 1}, glm::quat(1, 0, 0, 0)}});
}

TEST(Skeleton, LooksUpJointsByNameAndIndex) {
  const Skeleton skeleton = Chain();
  EXPECT_EQ(skeleton.joint_count(), 5);
  EXPECT_EQ(skeleton.FindJoint("root"), 0);
  EXPECT_EQ(skeleton.FindJoint("arm"), 1);
  EXPECT_EQ(skeleton.FindJoint("hand"), 2);  // the first of two
  EXPECT_EQ(skeleton.FindJoint("other_root"), 3);
  EXPECT_EQ(skeleton.FindJoint("missing"), -1);
  EXPECT_EQ(skeleton.FindJoint(""), -1);
  EXPECT_EQ(skeleton.name(1), "arm");
  EXPECT_EQ(skeleton.parent(2), 1);
  EXPECT_EQ(Skeleton().FindJoint("x"), -1);
}

TEST(Skeleton, LookupSurvivesCopiesAndMoves) {
  Skeleton original = Chain();
  const Skeleton copy = original;
  const Skeleton moved = std::move(original);
  EXPECT_EQ(copy.FindJoint("arm"), 1);
  EXPECT_EQ(moved.FindJoint("other_root"), 3);
}

TEST(LocalToModelJob, ComposesParentTimesLocalFromTheRoots) {
  const Skeleton skeleton = Chain();
  const glm::mat4 root = Explicit({10, 20, 0}, AxisAngle(45, {0, 0, 1}));
  std::vector<glm::mat4> models(5);
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.locals = skeleton.bind_locals();
  job.root = root;
  job.models = models;
  ASSERT_TRUE(job.Run());
  const std::vector<JointTransform>& l = skeleton.bind_locals();
  const glm::mat4 m0 = root * Explicit(l[0].translation, l[0].rotation);
  const glm::mat4 m1 = m0 * Explicit(l[1].translation, l[1].rotation);
  const glm::mat4 m2 = m1 * Explicit(l[2].translation, l[2].rotation);
  const glm::mat4 m3 = root * Explicit(l[3].translation, l[3].rotation);
  const glm::mat4 m4 = m3 * Explicit(l[4].translation, l[4].rotation);
  EXPECT_TRUE(NearMatrix(models[0], m0));
  EXPECT_TRUE(NearMatrix(models[1], m1));
  EXPECT_TRUE(NearMatrix(models[2], m2));
  EXPECT_TRUE(NearMatrix(models[3], m3));
  EXPECT_TRUE(NearMatrix(models[4], m4));
  // Worked by hand: root at (1,0,0) turned 90 degrees about z maps the arm's (0,2,0) to (-2,0,0).
  const std::vector<glm::mat4>& bind = skeleton.bind_matrices();
  EXPECT_TRUE(testing::Near(glm::vec3(bind[1][3]), glm::vec3(-1, 0, 0)));
  // The hand's (0,0,3) under the arm's R_z90 * R_x90 is (3,0,0): (-1,0,0) + (3,0,0).
  EXPECT_TRUE(testing::Near(glm::vec3(bind[2][3]), glm::vec3(2, 0, 0)));
}

TEST(LocalToModelJob, RefusesShortBuffers) {
  const Skeleton skeleton = Chain();
  std::vector<JointTransform> locals(4);
  std::vector<glm::mat4> models(5);
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.locals = locals;
  job.models = models;
  EXPECT_FALSE(job.Run());
  LocalToModelJob no_skeleton;
  EXPECT_FALSE(no_skeleton.Validate());
}

TEST(Skeleton, MeshBindPoseRoundTripsThroughLocals) {
  // Model-space joints with rotations: locals derived from them must compose back.
  const char text[] =
      "MD5Version 10\nnumJoints 3\nnumMeshes 0\njoints {\n"
      "\"a\" -1 ( 1 2 3 ) ( 0.5 0 0 )\n"
      "\"b\" 0 ( 4 -1 2 ) ( 0.1 0.7 -0.2 )\n"
      "\"c\" 1 ( 0 0 9 ) ( -0.3 0.3 0.3 )\n}\n";
  const std::shared_ptr<const Model> model = testing::LoadModel(text);
  ASSERT_NE(model, nullptr);
  const Skeleton& skeleton = model->skeleton();
  std::vector<glm::mat4> models(3);
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.locals = skeleton.bind_locals();
  job.models = models;
  ASSERT_TRUE(job.Run());
  const md5::MeshFile& file = model->source();
  for (int j = 0; j < 3; ++j) {
    const glm::mat4 expected = Explicit(file.joints[j].position, file.joints[j].orientation);
    EXPECT_TRUE(NearMatrix(models[j], expected, 1e-5f)) << j;
    EXPECT_TRUE(NearMatrix(skeleton.bind_matrices()[j], expected, 1e-6f)) << j;
    EXPECT_TRUE(NearMatrix(skeleton.inverse_bind_matrices()[j] * expected, glm::mat4(1.0f), 1e-5f))
        << j;
  }
}

}  // namespace
}  // namespace md5stage::anim
