// The one-call per-frame update agrees with running its jobs by hand.
#include "core/anim/character_pose_job.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "anim_test_util.h"

namespace md5stage::anim {
namespace {

using testing::kAnimFixture;
using testing::kMeshFixture;
using testing::NearMatrix;

TEST(CharacterPoseJob, MatchesTheJobsRunByHand) {
  const std::shared_ptr<const Model> model = testing::LoadModel(kMeshFixture);
  const Animation walk = testing::LoadAnimation(kAnimFixture);
  const Animation other =
      testing::LoadAnimation(testing::Replace(kAnimFixture, "\t1 2 0.5 0\n", "\t-1 -2 0 0.3\n"));
  const glm::mat4 world = glm::translate(glm::mat4(1.0f), glm::vec3(5, 6, 7));
  Pose pose(model->skeleton().joint_count());
  CharacterPoseJob job;
  job.model = model.get();
  job.animation = &walk;
  job.time = 0.07f;
  job.fade_from = &other;
  job.fade_from_time = 0.12f;
  job.fade_weight = 0.3f;
  job.world = world;
  job.pose = &pose;
  ASSERT_TRUE(job.Run());

  std::vector<JointTransform> a(2), b(2), blended(2);
  SampleJob sample_a;
  sample_a.animation = &other;
  sample_a.time = 0.12f;
  sample_a.output = a;
  SampleJob sample_b;
  sample_b.animation = &walk;
  sample_b.time = 0.07f;
  sample_b.output = b;
  ASSERT_TRUE(sample_a.Run() && sample_b.Run());
  BlendJob blend{a, b, 0.3f, blended};
  ASSERT_TRUE(blend.Run());
  std::vector<glm::mat4> models(2), palette(2);
  LocalToModelJob to_world;
  to_world.skeleton = &model->skeleton();
  to_world.locals = blended;
  to_world.root = world;
  to_world.models = models;
  ASSERT_TRUE(to_world.Run());
  SkinningPaletteJob palette_job{models, model->skeleton().inverse_bind_matrices(), palette};
  ASSERT_TRUE(palette_job.Run());
  for (int j = 0; j < 2; ++j) {
    EXPECT_TRUE(NearMatrix(pose.models[j], models[j])) << j;
    EXPECT_TRUE(NearMatrix(pose.palette[j], palette[j])) << j;
  }
}

TEST(CharacterPoseJob, WithoutAnimationGivesTheBindPoseAndIdentityPalette) {
  const std::shared_ptr<const Model> model = testing::LoadModel(kMeshFixture);
  Pose pose(model->skeleton().joint_count());
  CharacterPoseJob job;
  job.model = model.get();
  job.pose = &pose;
  ASSERT_TRUE(job.Run());
  for (int j = 0; j < 2; ++j) {
    EXPECT_TRUE(NearMatrix(pose.models[j], model->skeleton().bind_matrices()[j])) << j;
    EXPECT_TRUE(NearMatrix(pose.palette[j], glm::mat4(1.0f))) << j;
  }
}

TEST(CharacterPoseJob, RefusesMismatchedInputs) {
  const std::shared_ptr<const Model> model = testing::LoadModel(kMeshFixture);
  const Animation one_joint = testing::LoadAnimation(
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n");
  Pose pose(model->skeleton().joint_count());
  Pose small(1);
  CharacterPoseJob job;
  job.model = model.get();
  job.pose = &small;
  EXPECT_FALSE(job.Run());
  job.pose = &pose;
  job.animation = &one_joint;
  EXPECT_FALSE(job.Run());
  job.animation = nullptr;
  job.fade_from = &one_joint;
  EXPECT_FALSE(job.Validate());
}

}  // namespace
}  // namespace md5stage::anim
