// Sampling at frame boundaries, between frames, past the end (loop and clamp), with partial
// flags; root motion; crossfades at weight 0, 1 and between.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "anim_test_util.h"
#include "core/anim/jobs.h"

namespace md5stage::anim {
namespace {

using testing::kAnimFixture;
using testing::LoadAnimation;
using testing::Md5Quat;
using testing::Near;
using testing::Replace;
using testing::SameRotation;

// kAnimFixture written out: root animates Tx, Ty; child animates Qx, Qz, its translation (0,0,1)
// and Qy (0.6) come from the baseframe.
struct Expected {
  glm::vec3 root_translation;
  glm::quat child_rotation;
};
Expected Frame(int f) {
  switch (f) {
    case 0:
      return {{0, 0, 0}, Md5Quat(0, 0.6f, 0)};
    case 1:
      return {{1, 2, 0}, Md5Quat(0.5f, 0.6f, 0)};
    default:
      return {{2, 4, 0}, Md5Quat(0, 0.6f, 0.6f)};
  }
}

glm::quat Nlerp(glm::quat a, glm::quat b, float t) {
  if (glm::dot(a, b) < 0.0f) b = -b;
  return glm::normalize(a * (1.0f - t) + b * t);
}

std::vector<JointTransform> Sample(const Animation& animation, float time,
                                   PlaybackMode mode = PlaybackMode::kLoop,
                                   RootMotion root_motion = RootMotion::kKeep) {
  std::vector<JointTransform> pose(static_cast<std::size_t>(animation.joint_count()));
  SampleJob job;
  job.animation = &animation;
  job.time = time;
  job.mode = mode;
  job.root_motion = root_motion;
  job.output = pose;
  EXPECT_TRUE(job.Run());
  return pose;
}

TEST(Animation, ConvertsFramesWithPartialFlags) {
  const Animation animation = LoadAnimation(kAnimFixture);
  EXPECT_EQ(animation.joint_count(), 2);
  EXPECT_EQ(animation.frame_count(), 3);
  EXPECT_FLOAT_EQ(animation.duration(), 0.2f);
  for (int f = 0; f < 3; ++f) {
    const JointTransform* frame = animation.frame(f);
    EXPECT_TRUE(Near(frame[0].translation, Frame(f).root_translation)) << "frame " << f;
    EXPECT_TRUE(SameRotation(frame[0].rotation, glm::quat(1, 0, 0, 0))) << "frame " << f;
    EXPECT_TRUE(Near(frame[1].translation, glm::vec3(0, 0, 1))) << "frame " << f;
    EXPECT_TRUE(SameRotation(frame[1].rotation, Frame(f).child_rotation)) << "frame " << f;
  }
}

struct SampleCase {
  const char* name;
  float time;
  PlaybackMode mode;
  int frame0;
  int frame1;
  float alpha;
};

class SampleAtTime : public ::testing::TestWithParam<SampleCase> {};

TEST_P(SampleAtTime, InterpolatesTheNeighbouringFrames) {
  const SampleCase& c = GetParam();
  const Animation animation = LoadAnimation(kAnimFixture);
  const std::vector<JointTransform> pose = Sample(animation, c.time, c.mode);
  const Expected a = Frame(c.frame0);
  const Expected b = Frame(c.frame1);
  EXPECT_TRUE(Near(pose[0].translation,
                   a.root_translation * (1 - c.alpha) + b.root_translation * c.alpha, 1e-4f));
  EXPECT_TRUE(
      SameRotation(pose[1].rotation, Nlerp(a.child_rotation, b.child_rotation, c.alpha), 1e-4f));
  EXPECT_TRUE(Near(pose[1].translation, glm::vec3(0, 0, 1)));
  const float length = std::sqrt(glm::dot(pose[1].rotation, pose[1].rotation));
  EXPECT_NEAR(length, 1.0f, 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(
    Times, SampleAtTime,
    ::testing::Values(SampleCase{"Start", 0.0f, PlaybackMode::kLoop, 0, 0, 0.0f},
                      SampleCase{"FrameOne", 0.1f, PlaybackMode::kLoop, 1, 1, 0.0f},
                      SampleCase{"Between0And1", 0.05f, PlaybackMode::kLoop, 0, 1, 0.5f},
                      SampleCase{"Quarter1To2", 0.125f, PlaybackMode::kLoop, 1, 2, 0.25f},
                      SampleCase{"EndLoopsToStart", 0.2f, PlaybackMode::kLoop, 0, 0, 0.0f},
                      SampleCase{"PastEndLoops", 0.25f, PlaybackMode::kLoop, 0, 1, 0.5f},
                      SampleCase{"ManyLoops", 10.05f, PlaybackMode::kLoop, 0, 1, 0.5f},
                      SampleCase{"NegativeLoops", -0.05f, PlaybackMode::kLoop, 1, 2, 0.5f},
                      SampleCase{"EndClamped", 0.2f, PlaybackMode::kClamp, 2, 2, 0.0f},
                      SampleCase{"PastEndClamped", 7.0f, PlaybackMode::kClamp, 2, 2, 0.0f},
                      SampleCase{"NegativeClamped", -1.0f, PlaybackMode::kClamp, 0, 0, 0.0f},
                      SampleCase{"BetweenClamped", 0.15f, PlaybackMode::kClamp, 1, 2, 0.5f}),
    [](const ::testing::TestParamInfo<SampleCase>& info) { return std::string(info.param.name); });

TEST(SampleJob, ExactFrameIgnoresTime) {
  const Animation animation = LoadAnimation(kAnimFixture);
  std::vector<JointTransform> pose(2);
  SampleJob job;
  job.animation = &animation;
  job.time = 0.05f;
  job.frame = 2;
  job.output = pose;
  ASSERT_TRUE(job.Run());
  EXPECT_EQ(pose[0].translation, glm::vec3(2, 4, 0));
  job.frame = 3;
  EXPECT_FALSE(job.Validate());
  EXPECT_FALSE(job.Run());
}

TEST(SampleJob, RefusesMissingInputsAndShortOutputs) {
  const Animation animation = LoadAnimation(kAnimFixture);
  std::vector<JointTransform> short_pose(1);
  SampleJob job;
  job.output = short_pose;
  EXPECT_FALSE(job.Run());
  job.animation = &animation;
  EXPECT_FALSE(job.Run());
}

TEST(Animation, LocateHandlesNonFiniteTimeAndSingleFrames) {
  const Animation animation = LoadAnimation(kAnimFixture);
  const FramePosition nan = animation.Locate(std::nanf(""), PlaybackMode::kLoop);
  EXPECT_EQ(nan.frame0, 0);
  EXPECT_EQ(nan.alpha, 0.0f);
  const Animation single = LoadAnimation(
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 1 2 3 ) ( 0 0 0 )\n}\nframe 0 {\n}\n");
  EXPECT_EQ(single.duration(), 0.0f);
  EXPECT_EQ(single.average_ground_speed(), 0.0f);
  for (float t : {0.0f, 0.5f, -3.0f, 100.0f}) {
    const std::vector<JointTransform> pose = Sample(single, t);
    EXPECT_EQ(pose[0].translation, glm::vec3(1, 2, 3)) << t;
  }
}

TEST(RootMotion, AverageGroundSpeedIsHorizontalDisplacementOverDuration) {
  // Root z animated too (via baseframe 5): it must not count as ground speed.
  const Animation animation =
      LoadAnimation(Replace(kAnimFixture, "\t( 0 0 0 ) ( 0 0 0 )\n", "\t( 0 0 5 ) ( 0 0 0 )\n"));
  EXPECT_TRUE(Near(animation.root_displacement(), glm::vec3(2, 4, 0)));
  EXPECT_NEAR(animation.average_ground_speed(), std::sqrt(20.0f) / 0.2f, 1e-4f);
}

TEST(RootMotion, StrippingHoldsEveryRootAtItsFirstFrameXY) {
  // Frame 0 puts the root at (3, 1); z stays 5 from the baseframe.
  const Animation animation =
      LoadAnimation(Replace(Replace(kAnimFixture, "\t0 0 0 0\n", "\t3 1 0 0\n"),
                            "\t( 0 0 0 ) ( 0 0 0 )\n", "\t( 0 0 5 ) ( 0 0 0 )\n"));
  EXPECT_NEAR(animation.average_ground_speed(), std::sqrt(1.0f + 9.0f) / 0.2f, 1e-4f);
  for (float t : {0.0f, 0.05f, 0.15f, 0.19f}) {
    const std::vector<JointTransform> kept = Sample(animation, t);
    const std::vector<JointTransform> stripped =
        Sample(animation, t, PlaybackMode::kLoop, RootMotion::kStripHorizontal);
    EXPECT_EQ(stripped[0].translation, glm::vec3(3, 1, 5)) << t;
    EXPECT_EQ(stripped[0].rotation, kept[0].rotation) << t;
    EXPECT_EQ(stripped[1].translation, kept[1].translation) << t;
    EXPECT_EQ(stripped[1].rotation, kept[1].rotation) << t;
  }
}

TEST(BlendJob, WeightZeroAndOneGiveTheInputsExactly) {
  const Animation animation = LoadAnimation(kAnimFixture);
  const std::vector<JointTransform> a = Sample(animation, 0.03f);
  const std::vector<JointTransform> b = Sample(animation, 0.17f);
  std::vector<JointTransform> out(2);
  BlendJob job;
  job.from = a;
  job.to = b;
  job.output = out;
  for (float weight : {0.0f, -0.5f, 1.0f, 2.0f}) {
    job.weight = weight;
    ASSERT_TRUE(job.Run());
    const std::vector<JointTransform>& expected = weight <= 0.0f ? a : b;
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(out[j].translation, expected[j].translation) << weight;
      EXPECT_EQ(out[j].rotation, expected[j].rotation) << weight;
    }
  }
}

TEST(BlendJob, HalfwayIsTheMidpointOnTheShortestArc) {
  const Animation animation = LoadAnimation(kAnimFixture);
  const std::vector<JointTransform> a = Sample(animation, 0.0f);
  std::vector<JointTransform> b = Sample(animation, 0.2f, PlaybackMode::kClamp);
  // The same rotation with the opposite sign must blend the same way.
  std::vector<JointTransform> b_negated = b;
  for (JointTransform& t : b_negated) t.rotation = -t.rotation;
  std::vector<JointTransform> out(2), out_negated(2);
  BlendJob job{a, b, 0.5f, out};
  ASSERT_TRUE(job.Run());
  BlendJob negated{a, b_negated, 0.5f, out_negated};
  ASSERT_TRUE(negated.Run());
  EXPECT_TRUE(Near(out[0].translation, glm::vec3(1, 2, 0)));
  const glm::quat expected = Nlerp(Frame(0).child_rotation, Frame(2).child_rotation, 0.5f);
  EXPECT_TRUE(SameRotation(out[1].rotation, expected));
  EXPECT_TRUE(SameRotation(out_negated[1].rotation, expected));
}

TEST(BlendJob, OutputMayAliasAnInput) {
  const Animation animation = LoadAnimation(kAnimFixture);
  std::vector<JointTransform> a = Sample(animation, 0.0f);
  const std::vector<JointTransform> b = Sample(animation, 0.1f);
  BlendJob job{a, b, 0.5f, a};
  ASSERT_TRUE(job.Run());
  EXPECT_TRUE(Near(a[0].translation, glm::vec3(0.5f, 1.0f, 0)));
}

TEST(BlendJob, RefusesMismatchedSizes) {
  std::vector<JointTransform> a(2), b(3), out(3);
  BlendJob job{a, b, 0.5f, out};
  EXPECT_FALSE(job.Validate());
  EXPECT_FALSE(job.Run());
  BlendJob nan_weight{a, a, std::nanf(""), out};
  EXPECT_FALSE(nan_weight.Run());
}

}  // namespace
}  // namespace md5stage::anim
