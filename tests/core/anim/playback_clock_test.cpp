#include "core/anim/playback_clock.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "anim_test_util.h"
#include "core/anim/jobs.h"

namespace md5stage::anim {
namespace {

using testing::LoadAnimation;
using testing::Near;
using testing::SameRotation;

constexpr double kDuration = 2.0;  // every clip in the tables; binary fractions keep most exact
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct AdvanceCase {
  const char* name;
  PlayMode mode;
  double time;
  float rate;
  int direction;
  double dt;
  double expected_time;
  int expected_direction;
  bool expected_finished;
  bool playing = true;
  bool finished = false;  // before the step
  double duration = kDuration;
};

class AdvanceClockTest : public ::testing::TestWithParam<AdvanceCase> {};

TEST_P(AdvanceClockTest, MovesWrapsHoldsOrReflects) {
  const AdvanceCase& c = GetParam();
  PlaybackClock clock;
  clock.animation = 0;
  clock.mode = c.mode;
  clock.time = c.time;
  clock.rate = c.rate;
  clock.direction = c.direction;
  clock.playing = c.playing;
  clock.finished = c.finished;
  AdvanceClock(clock, c.duration, c.dt);
  EXPECT_NEAR(clock.time, c.expected_time, 1e-9);
  EXPECT_EQ(clock.direction, c.expected_direction);
  EXPECT_EQ(clock.finished, c.expected_finished);
  EXPECT_EQ(clock.playing, c.playing) << "the clock never pauses itself";
  EXPECT_EQ(clock.animation, 0);
}

// 10.3 and 11.3 clip lengths: 20.6 and 22.6 seconds at rate 1 (an even and an odd number of
// ping-pong legs), far beyond any fixed number of reflections.
constexpr double kLong = 10.3 * kDuration;
constexpr double kLongOdd = 11.3 * kDuration;

INSTANTIATE_TEST_SUITE_P(
    Loop, AdvanceClockTest,
    ::testing::Values(
        AdvanceCase{"Forward", PlayMode::kLoop, 0.5, 1.0f, 1, 0.25, 0.75, 1, false},
        AdvanceCase{"WrapsAtEnd", PlayMode::kLoop, 1.75, 1.0f, 1, 0.5, 0.25, 1, false},
        AdvanceCase{"LandsOnEndIsStart", PlayMode::kLoop, 1.5, 1.0f, 1, 0.5, 0.0, 1, false},
        AdvanceCase{"ReverseWrapsAtStart", PlayMode::kLoop, 0.25, -1.0f, 1, 0.5, 1.75, 1, false},
        AdvanceCase{"ReverseFromStart", PlayMode::kLoop, 0.0, -1.0f, 1, 0.5, 1.5, 1, false},
        AdvanceCase{"DoubleRate", PlayMode::kLoop, 0.5, 2.0f, 1, 0.5, 1.5, 1, false},
        AdvanceCase{"ManyWraps", PlayMode::kLoop, 0.5, 1.0f, 1, kLong, 1.1, 1, false},
        AdvanceCase{"ManyWrapsReverse", PlayMode::kLoop, 0.5, -1.0f, 1, kLong, 1.9, 1, false},
        AdvanceCase{"RateZero", PlayMode::kLoop, 0.5, 0.0f, 1, 1.0, 0.5, 1, false},
        AdvanceCase{"Paused", PlayMode::kLoop, 0.5, 1.0f, 1, 1.0, 0.5, 1, false, false},
        AdvanceCase{"PausedOutOfRangeWraps", PlayMode::kLoop, 5.0, 1.0f, 1, 0.0, 1.0, 1, false,
                    false},
        AdvanceCase{"NegativeDtIgnored", PlayMode::kLoop, 0.5, 1.0f, 1, -1.0, 0.5, 1, false},
        AdvanceCase{"NaNDtIgnored", PlayMode::kLoop, 0.5, 1.0f, 1, kNaN, 0.5, 1, false},
        AdvanceCase{"InfiniteDtIgnored", PlayMode::kLoop, 0.5, 1.0f, 1, kInf, 0.5, 1, false},
        AdvanceCase{"NaNTimeRestarts", PlayMode::kLoop, kNaN, 1.0f, 1, 0.25, 0.25, 1, false},
        AdvanceCase{"LeftoverFinishedCleared", PlayMode::kLoop, 0.5, 1.0f, 1, 0.25, 0.75, 1, false,
                    true, true},
        AdvanceCase{"ZeroDuration", PlayMode::kLoop, 0.5, 1.0f, 1, 0.25, 0.0, 1, false, true, false,
                    0.0},
        AdvanceCase{"NaNDuration", PlayMode::kLoop, 0.5, 1.0f, 1, 0.25, 0.0, 1, false, true, false,
                    kNaN}),
    [](const ::testing::TestParamInfo<AdvanceCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Once, AdvanceClockTest,
    ::testing::Values(
        AdvanceCase{"Forward", PlayMode::kOnce, 0.5, 1.0f, 1, 0.25, 0.75, 1, false},
        AdvanceCase{"ReachesEnd", PlayMode::kOnce, 1.75, 1.0f, 1, 0.5, 2.0, 1, true},
        AdvanceCase{"LandsOnEnd", PlayMode::kOnce, 1.5, 1.0f, 1, 0.5, 2.0, 1, true},
        AdvanceCase{"LongStep", PlayMode::kOnce, 0.5, 1.0f, 1, kLong, 2.0, 1, true},
        AdvanceCase{"PlayAtEndFinishes", PlayMode::kOnce, 2.0, 1.0f, 1, 0.01, 2.0, 1, true},
        AdvanceCase{"StaysFinished", PlayMode::kOnce, 2.0, 1.0f, 1, 0.5, 2.0, 1, true, true, true},
        AdvanceCase{"ForwardFromStart", PlayMode::kOnce, 0.0, 1.0f, 1, 0.25, 0.25, 1, false},
        AdvanceCase{"ReverseReachesStart", PlayMode::kOnce, 0.25, -1.0f, 1, 0.5, 0.0, 1, true},
        AdvanceCase{"ReverseLongStep", PlayMode::kOnce, 1.5, -1.0f, 1, kLong, 0.0, 1, true},
        AdvanceCase{"ReverseAtStartStays", PlayMode::kOnce, 0.0, -1.0f, 1, 0.5, 0.0, 1, true},
        // Finished at the end, then played backwards: it leaves the end and is no longer done.
        AdvanceCase{"ReverseLeavesEnd", PlayMode::kOnce, 2.0, -1.0f, 1, 0.5, 1.5, 1, false, true,
                    true},
        AdvanceCase{"ReverseFromPastEnd", PlayMode::kOnce, 5.0, -1.0f, 1, 0.5, 2.0, 1, false},
        AdvanceCase{"BackwardDirection", PlayMode::kOnce, 0.25, 1.0f, -1, 0.5, 0.0, -1, true},
        AdvanceCase{"RateZeroAtEnd", PlayMode::kOnce, 2.0, 0.0f, 1, 0.5, 2.0, 1, false},
        AdvanceCase{"RateZeroKeepsFinished", PlayMode::kOnce, 2.0, 0.0f, 1, 0.5, 2.0, 1, true, true,
                    true},
        AdvanceCase{"PausedAtEnd", PlayMode::kOnce, 2.0, 1.0f, 1, 0.5, 2.0, 1, false, false},
        AdvanceCase{"PausedOutOfRangeClamps", PlayMode::kOnce, 5.0, 1.0f, 1, 0.5, 2.0, 1, false,
                    false},
        AdvanceCase{"PausedNegativeClamps", PlayMode::kOnce, -1.0, 1.0f, 1, 0.5, 0.0, 1, false,
                    false},
        // A clip with no length ends at once when played, in either direction.
        AdvanceCase{"ZeroDuration", PlayMode::kOnce, 0.0, 1.0f, 1, 0.1, 0.0, 1, true, true, false,
                    0.0},
        AdvanceCase{"ZeroDurationReverse", PlayMode::kOnce, 0.0, -1.0f, 1, 0.1, 0.0, 1, true, true,
                    false, 0.0},
        AdvanceCase{"ZeroDurationPaused", PlayMode::kOnce, 0.3, 1.0f, 1, 0.1, 0.0, 1, false, false,
                    false, 0.0}),
    [](const ::testing::TestParamInfo<AdvanceCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    PingPong, AdvanceClockTest,
    ::testing::Values(
        AdvanceCase{"Forward", PlayMode::kPingPong, 0.5, 1.0f, 1, 0.25, 0.75, 1, false},
        AdvanceCase{"ReflectsAtEnd", PlayMode::kPingPong, 1.75, 1.0f, 1, 0.5, 1.75, -1, false},
        AdvanceCase{"LandsOnEnd", PlayMode::kPingPong, 1.5, 1.0f, 1, 0.5, 2.0, -1, false},
        AdvanceCase{"BackwardLeg", PlayMode::kPingPong, 1.0, 1.0f, -1, 0.25, 0.75, -1, false},
        AdvanceCase{"ReflectsAtStart", PlayMode::kPingPong, 0.25, 1.0f, -1, 0.5, 0.25, 1, false},
        AdvanceCase{"LandsOnStart", PlayMode::kPingPong, 0.5, 1.0f, -1, 0.5, 0.0, 1, false},
        AdvanceCase{"FromEndGoesBack", PlayMode::kPingPong, 2.0, 1.0f, 1, 0.5, 1.5, -1, false},
        AdvanceCase{"FromStartGoesOn", PlayMode::kPingPong, 0.0, 1.0f, -1, 0.5, 0.5, 1, false},
        // A negative rate runs each leg the other way: time falls on the +1 leg.
        AdvanceCase{"ReverseRateReflectsAtStart", PlayMode::kPingPong, 0.25, -1.0f, 1, 0.5, 0.25,
                    -1, false},
        AdvanceCase{"ReverseRateReflectsAtEnd", PlayMode::kPingPong, 1.75, -1.0f, -1, 0.5, 1.75, 1,
                    false},
        AdvanceCase{"ReverseRateLandsOnStart", PlayMode::kPingPong, 0.5, -1.0f, 1, 0.5, 0.0, -1,
                    false},
        AdvanceCase{"ReverseRateLandsOnEnd", PlayMode::kPingPong, 1.5, -1.0f, -1, 0.5, 2.0, 1,
                    false},
        AdvanceCase{"ManyReflectionsEven", PlayMode::kPingPong, 0.5, 1.0f, 1, kLong, 1.1, 1, false},
        AdvanceCase{"ManyReflectionsOdd", PlayMode::kPingPong, 0.5, 1.0f, 1, kLongOdd, 0.9, -1,
                    false},
        AdvanceCase{"ManyReflectionsBackwardLeg", PlayMode::kPingPong, 0.5, 1.0f, -1, kLong, 0.1, 1,
                    false},
        AdvanceCase{"ManyReflectionsReverseRate", PlayMode::kPingPong, 0.5, -1.0f, 1, kLong, 0.1,
                    -1, false},
        AdvanceCase{"HugeStep", PlayMode::kPingPong, 0.5, 1.0f, 1, 4e6 + 1.0, 1.5, 1, false},
        AdvanceCase{"RateZero", PlayMode::kPingPong, 0.5, 0.0f, -1, 1.0, 0.5, -1, false},
        AdvanceCase{"PausedKeepsLegAtEnd", PlayMode::kPingPong, 2.0, 1.0f, 1, 0.5, 2.0, 1, false,
                    false},
        AdvanceCase{"PausedKeepsLegAtStart", PlayMode::kPingPong, 0.0, 1.0f, -1, 0.5, 0.0, -1,
                    false, false},
        AdvanceCase{"PausedPastEndUnfolds", PlayMode::kPingPong, 2.5, 1.0f, 1, 0.0, 1.5, -1, false,
                    false},
        AdvanceCase{"PausedBeforeStartUnfolds", PlayMode::kPingPong, -0.5, 1.0f, -1, 0.0, 0.5, 1,
                    false, false},
        AdvanceCase{"LeftoverFinishedCleared", PlayMode::kPingPong, 0.5, 1.0f, 1, 0.25, 0.75, 1,
                    false, true, true},
        AdvanceCase{"ZeroDuration", PlayMode::kPingPong, 0.5, 1.0f, -1, 0.25, 0.0, -1, false, true,
                    false, 0.0}),
    [](const ::testing::TestParamInfo<AdvanceCase>& info) { return info.param.name; });

// Many small steps and one long step land in the same place: no step length is special.
TEST(AdvanceClock, SmallStepsMatchOneLongStep) {
  for (PlayMode mode : {PlayMode::kLoop, PlayMode::kOnce, PlayMode::kPingPong}) {
    for (float rate : {1.0f, -1.5f, 0.75f}) {
      PlaybackClock stepped;
      stepped.mode = mode;
      stepped.rate = rate;
      stepped.time = 0.3;
      PlaybackClock jumped = stepped;
      const int steps = 1030;
      const double dt = kLong / steps;
      for (int i = 0; i < steps; ++i) AdvanceClock(stepped, kDuration, dt);
      AdvanceClock(jumped, kDuration, dt * steps);
      SCOPED_TRACE(PlayModeName(mode));
      SCOPED_TRACE(rate);
      EXPECT_NEAR(stepped.time, jumped.time, 1e-9);
      EXPECT_EQ(stepped.direction, jumped.direction);
      EXPECT_EQ(stepped.finished, jumped.finished);
    }
  }
}

TEST(PlaybackClock, FinishedIsClearedByTimeModeAndClipChanges) {
  PlaybackClock finished;
  finished.animation = 3;
  finished.mode = PlayMode::kOnce;
  finished.time = 1.9;
  AdvanceClock(finished, kDuration, 1.0);
  ASSERT_TRUE(finished.finished);
  ASSERT_TRUE(finished.playing);
  ASSERT_DOUBLE_EQ(finished.time, kDuration);

  PlaybackClock scrubbed = finished;
  SetClockTime(scrubbed, 0.5);
  EXPECT_FALSE(scrubbed.finished);
  EXPECT_DOUBLE_EQ(scrubbed.time, 0.5);

  PlaybackClock same_mode = finished;
  SetClockMode(same_mode, PlayMode::kOnce);
  EXPECT_TRUE(same_mode.finished) << "setting the mode it has is no change";

  PlaybackClock looped = finished;
  SetClockMode(looped, PlayMode::kLoop);
  EXPECT_FALSE(looped.finished);
  EXPECT_EQ(looped.mode, PlayMode::kLoop);

  PlaybackClock switched = finished;
  SwitchClip(switched, 4);
  EXPECT_FALSE(switched.finished);

  PlaybackClock reswitched = finished;
  SwitchClip(reswitched, 3);
  EXPECT_TRUE(reswitched.finished) << "switching to the current clip is no change";
  EXPECT_DOUBLE_EQ(reswitched.time, kDuration);
}

TEST(PlaybackClock, SetClockTimeAndModeEdgeCases) {
  PlaybackClock clock;
  clock.animation = 0;
  clock.fade_from = 1;
  clock.fade_duration = 0.25f;
  SetClockTime(clock, kNaN);
  EXPECT_EQ(clock.time, 0.0);
  EXPECT_EQ(clock.fade_from, -1) << "a scrubbed pose is not a blend";
  SetClockTime(clock, 7.0);
  AdvanceClock(clock, kDuration, 0.0);
  EXPECT_DOUBLE_EQ(clock.time, 1.0) << "the next advance wraps it";

  clock.mode = PlayMode::kPingPong;
  clock.direction = -1;
  SetClockMode(clock, PlayMode::kLoop);
  EXPECT_EQ(clock.direction, 1) << "a new mode plays forwards";
}

TEST(SwitchClip, StartsACrossfadeFromTheCurrentClip) {
  PlaybackClock clock;
  clock.animation = 2;
  clock.mode = PlayMode::kPingPong;
  clock.time = 1.25;
  clock.rate = 1.5f;
  clock.direction = -1;
  clock.playing = false;
  clock.crossfade_seconds = 0.4f;
  SwitchClip(clock, 5);
  EXPECT_EQ(clock.animation, 5);
  EXPECT_EQ(clock.time, 0.0);
  EXPECT_EQ(clock.direction, 1);
  EXPECT_TRUE(clock.playing);
  EXPECT_EQ(clock.rate, 1.5f) << "the rate is the caller's";
  EXPECT_EQ(clock.mode, PlayMode::kPingPong);
  EXPECT_EQ(clock.fade_from, 2);
  EXPECT_EQ(clock.fade_from_time, 1.25);
  EXPECT_EQ(clock.fade_from_rate, -1.5f);
  EXPECT_EQ(clock.fade_from_mode, PlayMode::kPingPong);
  EXPECT_EQ(clock.fade_elapsed, 0.0f);
  EXPECT_EQ(clock.fade_duration, 0.4f);
  EXPECT_EQ(CrossfadeWeight(clock), 0.0f);
}

struct NoFadeCase {
  const char* name;
  int from;
  int to;
  float crossfade_seconds;
};

TEST(SwitchClip, NoFadeFromOrToTheBindPoseOrWithZeroSeconds) {
  const NoFadeCase cases[] = {
      {"FromBindPose", -1, 1, 0.25f},
      {"ToBindPose", 1, -1, 0.25f},
      {"ZeroSeconds", 1, 2, 0.0f},
      {"NegativeSeconds", 1, 2, -1.0f},
  };
  for (const NoFadeCase& c : cases) {
    PlaybackClock clock;
    clock.animation = c.from;
    clock.crossfade_seconds = c.crossfade_seconds;
    clock.fade_from = 7;  // a fade in progress is dropped
    SwitchClip(clock, c.to);
    EXPECT_EQ(clock.animation, c.to) << c.name;
    EXPECT_EQ(clock.fade_from, -1) << c.name;
    EXPECT_EQ(CrossfadeWeight(clock), 1.0f) << c.name;
  }
}

// Two local poses far apart, so a wrong weight shows in every component.
std::vector<JointTransform> PoseA() {
  return {{glm::vec3(0, 0, 0), glm::quat(1, 0, 0, 0)},
          {glm::vec3(10, -4, 2), glm::normalize(glm::quat(0.8f, 0.6f, 0.0f, 0.0f))}};
}
std::vector<JointTransform> PoseB() {
  return {{glm::vec3(8, 4, -2), glm::normalize(glm::quat(0.6f, 0.0f, 0.8f, 0.0f))},
          {glm::vec3(-6, 0, 1), glm::normalize(glm::quat(0.0f, 0.0f, 0.0f, 1.0f))}};
}

std::vector<JointTransform> Blend(float weight) {
  const std::vector<JointTransform> a = PoseA(), b = PoseB();
  std::vector<JointTransform> out(a.size());
  BlendJob job{a, b, weight, out};
  EXPECT_TRUE(job.Run());
  return out;
}

TEST(Crossfade, WeightIsElapsedOverDurationAndDrivesBlendJob) {
  PlaybackClock clock;
  clock.animation = 0;
  clock.crossfade_seconds = 0.25f;
  SwitchClip(clock, 1);
  ASSERT_EQ(clock.fade_from, 0);
  const double dt = 1.0 / 32.0;  // exact in float: elapsed is exactly k/32
  for (int k = 0; k <= 8; ++k) {
    SCOPED_TRACE(k);
    const float expected = static_cast<float>(k) * static_cast<float>(dt) / 0.25f;
    EXPECT_FLOAT_EQ(CrossfadeWeight(clock), expected);
    EXPECT_EQ(clock.fade_from >= 0, k < 8) << "the fade ends after its duration";
    const std::vector<JointTransform> got = Blend(CrossfadeWeight(clock));
    const std::vector<JointTransform> want = Blend(expected);
    const std::vector<JointTransform> a = PoseA(), b = PoseB();
    for (std::size_t j = 0; j < got.size(); ++j) {
      EXPECT_TRUE(Near(got[j].translation, want[j].translation)) << j;
      EXPECT_TRUE(SameRotation(got[j].rotation, want[j].rotation)) << j;
      EXPECT_TRUE(Near(got[j].translation, glm::mix(a[j].translation, b[j].translation, expected)));
    }
    if (k == 0) {
      for (std::size_t j = 0; j < got.size(); ++j) EXPECT_EQ(got[j].translation, a[j].translation);
    }
    if (k == 8) {
      for (std::size_t j = 0; j < got.size(); ++j) {
        EXPECT_EQ(got[j].translation, b[j].translation);
        EXPECT_EQ(got[j].rotation, b[j].rotation);
      }
    }
    AdvanceClock(clock, kDuration, dt);
  }
}

struct WeightCase {
  const char* name;
  int fade_from;
  float elapsed;
  float duration;
  float expected;
};

TEST(Crossfade, WeightIsClampedAndOneWithoutAFade) {
  const WeightCase cases[] = {
      {"Start", 0, 0.0f, 0.5f, 0.0f},        {"Quarter", 0, 0.125f, 0.5f, 0.25f},
      {"Half", 0, 0.25f, 0.5f, 0.5f},        {"End", 0, 0.5f, 0.5f, 1.0f},
      {"Past", 0, 2.0f, 0.5f, 1.0f},         {"NegativeElapsed", 0, -1.0f, 0.5f, 0.0f},
      {"ZeroDuration", 0, 0.1f, 0.0f, 1.0f}, {"NoFade", -1, 0.1f, 0.5f, 1.0f},
  };
  for (const WeightCase& c : cases) {
    PlaybackClock clock;
    clock.fade_from = c.fade_from;
    clock.fade_elapsed = c.elapsed;
    clock.fade_duration = c.duration;
    EXPECT_FLOAT_EQ(CrossfadeWeight(clock), c.expected) << c.name;
  }
}

TEST(Crossfade, RunsOnWallTimeAndFreezesWhenPaused) {
  PlaybackClock clock;
  clock.animation = 0;
  SwitchClip(clock, 1);
  clock.rate = 0.0f;
  AdvanceClock(clock, kDuration, 0.125);
  EXPECT_FLOAT_EQ(CrossfadeWeight(clock), 0.5f) << "rate 0 still fades";
  EXPECT_EQ(clock.time, 0.0);
  clock.playing = false;
  AdvanceClock(clock, kDuration, 0.1);
  EXPECT_FLOAT_EQ(CrossfadeWeight(clock), 0.5f) << "a paused clock holds its pose";
  clock.playing = true;
  AdvanceClock(clock, kDuration, 10.0);
  EXPECT_EQ(clock.fade_from, -1);
  EXPECT_EQ(CrossfadeWeight(clock), 1.0f);
}

struct FromTimeCase {
  const char* name;
  PlayMode mode;
  double from_time;
  float from_rate;
  float elapsed;
  double from_duration;
  double expected;
};

TEST(Crossfade, ClipFadingOutCarriesOnAtItsOwnPace) {
  const FromTimeCase cases[] = {
      {"LoopMoves", PlayMode::kLoop, 0.5, 1.0f, 0.25f, 2.0, 0.75},
      {"LoopWraps", PlayMode::kLoop, 1.875, 1.0f, 0.25f, 2.0, 0.125},
      {"LoopAtDoubleRate", PlayMode::kLoop, 1.5, 2.0f, 0.5f, 2.0, 0.5},
      {"LoopReverse", PlayMode::kLoop, 0.125, -1.0f, 0.25f, 2.0, 1.875},
      {"OnceHoldsAtEnd", PlayMode::kOnce, 1.875, 1.0f, 0.25f, 2.0, 2.0},
      {"OnceReverseHoldsAtStart", PlayMode::kOnce, 0.125, -1.0f, 0.25f, 2.0, 0.0},
      {"PingPongReflects", PlayMode::kPingPong, 1.875, 1.0f, 0.25f, 2.0, 1.875},
      {"PingPongBackwardLegReflects", PlayMode::kPingPong, 0.125, -1.0f, 0.25f, 2.0, 0.125},
      {"RateZero", PlayMode::kLoop, 0.5, 0.0f, 0.25f, 2.0, 0.5},
      {"ZeroDuration", PlayMode::kLoop, 0.5, 1.0f, 0.25f, 0.0, 0.0},
  };
  for (const FromTimeCase& c : cases) {
    PlaybackClock clock;
    clock.fade_from = 0;
    clock.fade_from_time = c.from_time;
    clock.fade_from_rate = c.from_rate;
    clock.fade_from_mode = c.mode;
    clock.fade_elapsed = c.elapsed;
    clock.fade_duration = 1.0f;
    EXPECT_NEAR(CrossfadeFromTime(clock, c.from_duration), c.expected, 1e-9) << c.name;
  }
  PlaybackClock no_fade;
  no_fade.fade_from_time = 0.7;
  EXPECT_EQ(CrossfadeFromTime(no_fade, 2.0), 0.7);
}

// The clock drives a real crossfade: the pose it asks for is the BlendJob of both clips sampled
// where the clock says, at the clock's weight.
TEST(Crossfade, SampledPosesBlendAtTheClocksWeight) {
  const Animation animation = LoadAnimation(testing::kAnimFixture);  // 0.2 s, 3 frames
  const double duration = animation.duration();
  PlaybackClock clock;
  clock.animation = 0;
  clock.time = 0.15;
  clock.crossfade_seconds = 0.1f;
  SwitchClip(clock, 1);
  AdvanceClock(clock, duration, 0.04);
  const float weight = CrossfadeWeight(clock);
  EXPECT_NEAR(weight, 0.4f, 1e-6f);
  const double from_time = CrossfadeFromTime(clock, duration);
  EXPECT_NEAR(from_time, 0.19, 1e-6);
  std::vector<JointTransform> from(2), to(2), out(2), expected(2);
  SampleJob sample_from{
      &animation, static_cast<float>(from_time), -1, PlaybackMode::kClamp, RootMotion::kKeep, from};
  SampleJob sample_to{
      &animation, static_cast<float>(clock.time), -1, PlaybackMode::kClamp, RootMotion::kKeep, to};
  ASSERT_TRUE(sample_from.Run());
  ASSERT_TRUE(sample_to.Run());
  BlendJob blend{from, to, weight, out};
  ASSERT_TRUE(blend.Run());
  BlendJob reference{from, to, 0.4f, expected};
  ASSERT_TRUE(reference.Run());
  for (int j = 0; j < 2; ++j) {
    EXPECT_TRUE(Near(out[j].translation, expected[j].translation)) << j;
    EXPECT_TRUE(SameRotation(out[j].rotation, expected[j].rotation)) << j;
  }
}

struct WalkRateCase {
  const char* name;
  double ground_speed;
  float clip_ground_speed;
  float expected;
};

TEST(WalkPlaybackRate, SpeedOverClipGroundSpeed) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const WalkRateCase cases[] = {
      {"InStep", 50.0, 50.0f, 1.0f},
      {"Twice", 100.0, 50.0f, 2.0f},
      {"Quarter", 25.0, 100.0f, 0.25f},
      {"Standing", 0.0, 50.0f, 0.0f},
      {"ClipInPlace", 100.0, 0.0f, 1.0f},
      {"ClipNearlyInPlace", 100.0, 1e-7f, 1.0f},
      {"ClipNegative", 100.0, -5.0f, 1.0f},
      {"ClipNaN", 100.0, nan, 1.0f},
      {"ClipInfinite", 100.0, std::numeric_limits<float>::infinity(), 1.0f},
      {"SpeedNegative", -10.0, 50.0f, 0.0f},
      {"SpeedNaN", kNaN, 50.0f, 0.0f},
      {"SpeedInfinite", kInf, 50.0f, 0.0f},
  };
  for (const WalkRateCase& c : cases) {
    EXPECT_FLOAT_EQ(WalkPlaybackRate(c.ground_speed, c.clip_ground_speed), c.expected) << c.name;
  }
}

struct LocomotionCase {
  const char* name;
  bool moving;
  int walk;
  int idle;
  int expected_animation;
  float expected_rate;
};

TEST(ChooseLocomotionClip, WalkWhileMovingIdleWhileStanding) {
  const LocomotionCase cases[] = {
      {"Walking", true, 3, 1, 3, 2.0f},
      {"Standing", false, 3, 1, 1, 1.0f},
      {"WalkingWithoutWalkClip", true, -1, 1, -1, 1.0f},
      {"StandingWithoutIdleClip", false, 3, -1, -1, 1.0f},
      {"SameClipForBoth", true, 2, 2, 2, 2.0f},
  };
  for (const LocomotionCase& c : cases) {
    const LocomotionClip clip = ChooseLocomotionClip(c.moving, c.walk, c.idle, 100.0, 50.0f);
    EXPECT_EQ(clip.animation, c.expected_animation) << c.name;
    EXPECT_FLOAT_EQ(clip.rate, c.expected_rate) << c.name;
  }
}

TEST(ApplyLocomotionClip, SwitchesOnceAndKeepsTheFadeGoing) {
  constexpr int kWalk = 3, kIdle = 1;
  PlaybackClock clock;
  clock.animation = kIdle;
  clock.time = 0.5;
  ApplyLocomotionClip(clock, ChooseLocomotionClip(true, kWalk, kIdle, 100.0, 50.0f));
  EXPECT_EQ(clock.animation, kWalk);
  EXPECT_EQ(clock.rate, 2.0f);
  EXPECT_EQ(clock.fade_from, kIdle);
  EXPECT_EQ(clock.fade_from_rate, 1.0f) << "the idle fades out at its own rate";
  AdvanceClock(clock, kDuration, 0.125);
  EXPECT_DOUBLE_EQ(clock.time, 0.25);
  // Every frame asks again, at a new speed: the fade goes on, only the rate follows.
  ApplyLocomotionClip(clock, ChooseLocomotionClip(true, kWalk, kIdle, 25.0, 50.0f));
  EXPECT_EQ(clock.fade_from, kIdle);
  EXPECT_FLOAT_EQ(clock.fade_elapsed, 0.125f);
  EXPECT_DOUBLE_EQ(clock.time, 0.25);
  EXPECT_EQ(clock.rate, 0.5f);
  AdvanceClock(clock, kDuration, 0.5);
  EXPECT_EQ(clock.fade_from, -1);
  // Stopping fades back to the idle at rate 1; the walk fades out at its walk rate.
  ApplyLocomotionClip(clock, ChooseLocomotionClip(false, kWalk, kIdle, 0.0, 50.0f));
  EXPECT_EQ(clock.animation, kIdle);
  EXPECT_EQ(clock.rate, 1.0f);
  EXPECT_EQ(clock.fade_from, kWalk);
  EXPECT_DOUBLE_EQ(clock.fade_from_time, 0.5);
  AdvanceClock(clock, kDuration, 0.125);
  EXPECT_DOUBLE_EQ(CrossfadeFromTime(clock, kDuration), 0.5 + 0.125 * 0.5);
  // No clip for the state: the clock is left alone.
  const PlaybackClock before = clock;
  ApplyLocomotionClip(clock, ChooseLocomotionClip(true, -1, kIdle, 100.0, 50.0f));
  EXPECT_EQ(clock.animation, before.animation);
  EXPECT_EQ(clock.rate, before.rate);
  EXPECT_EQ(clock.fade_from, before.fade_from);
}

// ---- SetGaitClock: the clock of a walker as a function of how far and how long it has walked ----

// What SetGaitClock is given: the gait, the walk and idle clips, the walk clip's ground speed,
// the clock's mode.
struct GaitInput {
  Gait gait;
  int walk;
  int idle;
  float clip_ground_speed;
  PlayMode mode;
};

// What the clock shows after it: whether it was set, the clip, its time and rate, and the clip
// fading out (-1: none), where that is now (CrossfadeFromTime) and the fade's elapsed time.
struct GaitClockShown {
  bool set;
  int animation;
  double time;
  float rate;
  int fade_from;
  double fade_time;
  float fade_elapsed;
};

struct GaitCase {
  const char* name;
  GaitInput input;
  GaitClockShown expected;
};

TEST(SetGaitClock, WalkPhaseFromTheDistanceIdleFromTheStandCrossfadeFromTheChange) {
  constexpr int kWalk = 3, kIdle = 1, kBoth = 2;
  constexpr PlayMode kLoop = PlayMode::kLoop, kOnce = PlayMode::kOnce;
  constexpr PlayMode kPingPong = PlayMode::kPingPong;
  // Gait: moving, walked, speed, elapsed, previous. Clips kDuration long, crossfade 0.25 s.
  const GaitCase cases[] = {
      // 175 / 50 = 3.5 s into a 2 s loop; the walk began 3 s ago: no fade.
      {"WalkingPhaseIsDistanceOverClipSpeed",
       {{true, 175.0, 100.0, 3.0, 1.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kWalk, 1.5, 2.0f, -1, 0.0, 0.0f}},
      // The idle that lasted 0.75 s fades out from there at rate 1, 0.125 s on.
      {"JustStartedWalkingFadesFromTheIdle",
       {{true, 10.0, 100.0, 0.125, 0.75}, kWalk, kIdle, 50.0f, kLoop},
       {true, kWalk, 0.2, 2.0f, kIdle, 0.875, 0.125f}},
      {"StandingIdleTimeIsTheStandsLength",
       {{false, 175.0, 100.0, 2.5, 4.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kIdle, 0.5, 1.0f, -1, 0.0, 0.0f}},
      // The walk held its phase (3.5 s -> 1.5 s) and runs on at its last rate, 2: 1.75 s.
      {"JustStoppedFadesFromTheWalkWhereItsDistanceLeftIt",
       {{false, 175.0, 100.0, 0.125, 4.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kIdle, 0.125, 1.0f, kWalk, 1.75, 0.125f}},
      {"TheFirstStandFadesFromNothing",
       {{false, 0.0, 0.0, 0.125, -1.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kIdle, 0.125, 1.0f, -1, 0.0, 0.0f}},
      {"AtTheFadesEndNoFade",
       {{true, 10.0, 100.0, 0.25, 0.75}, kWalk, kIdle, 50.0f, kLoop},
       {true, kWalk, 0.2, 2.0f, -1, 0.0, 0.0f}},
      // A clip walking in place plays the walk's own time at rate 1.
      {"WalkInPlaceClipPlaysTheWalksTime",
       {{true, 175.0, 100.0, 0.5, 1.0}, kWalk, kIdle, 0.0f, kLoop},
       {true, kWalk, 0.5, 1.0f, -1, 0.0, 0.0f}},
      {"WalkInPlaceFadesOutWhereTheWalkEnded",
       {{false, 175.0, 100.0, 0.125, 0.5}, kWalk, kIdle, 0.0f, kLoop},
       {true, kIdle, 0.125, 1.0f, kWalk, 0.625, 0.125f}},
      {"OnceHoldsAtTheEnd",
       {{true, 175.0, 100.0, 3.0, 1.0}, kWalk, kIdle, 50.0f, kOnce},
       {true, kWalk, 2.0, 2.0f, -1, 0.0, 0.0f}},
      {"PingPongComesBack",
       {{true, 175.0, 100.0, 3.0, 1.0}, kWalk, kIdle, 50.0f, kPingPong},
       {true, kWalk, 0.5, 2.0f, -1, 0.0, 0.0f}},
      {"SameClipForBothNeverFades",
       {{true, 10.0, 100.0, 0.125, 0.75}, kBoth, kBoth, 50.0f, kLoop},
       {true, kBoth, 0.2, 2.0f, -1, 0.0, 0.0f}},
      {"NonFiniteDistanceCountsAsNone",
       {{true, kNaN, 100.0, 3.0, 1.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kWalk, 0.0, 2.0f, -1, 0.0, 0.0f}},
      {"NegativeElapsedCountsAsNone",
       {{false, 0.0, 0.0, -0.5, -1.0}, kWalk, kIdle, 50.0f, kLoop},
       {true, kIdle, 0.0, 1.0f, -1, 0.0, 0.0f}},
      // No clip for the state: the clock is left to the caller (clip 7 at 0.3 s, rate 0.5).
      {"WalkingWithoutWalkClip",
       {{true, 10.0, 100.0, 3.0, 1.0}, -1, kIdle, 50.0f, kLoop},
       {false, 7, 0.3, 0.5f, -1, 0.0, 0.0f}},
      {"StandingWithoutIdleClip",
       {{false, 10.0, 100.0, 3.0, 1.0}, kWalk, -1, 50.0f, kLoop},
       {false, 7, 0.3, 0.5f, -1, 0.0, 0.0f}},
  };
  for (const GaitCase& c : cases) {
    const GaitInput& in = c.input;
    const GaitClockShown& want = c.expected;
    PlaybackClock clock;
    clock.animation = 7;
    clock.time = 0.3;
    clock.rate = 0.5f;
    clock.mode = in.mode;
    EXPECT_EQ(
        SetGaitClock(clock, in.gait, in.walk, in.idle, in.clip_ground_speed, kDuration, kDuration),
        want.set)
        << c.name;
    EXPECT_EQ(clock.animation, want.animation) << c.name;
    EXPECT_NEAR(clock.time, want.time, 1e-12) << c.name;
    EXPECT_FLOAT_EQ(clock.rate, want.rate) << c.name;
    EXPECT_EQ(clock.fade_from, want.fade_from) << c.name;
    if (want.fade_from >= 0) {
      EXPECT_NEAR(CrossfadeFromTime(clock, kDuration), want.fade_time, 1e-12) << c.name;
      EXPECT_FLOAT_EQ(clock.fade_elapsed, want.fade_elapsed) << c.name;
      EXPECT_FLOAT_EQ(CrossfadeWeight(clock), want.fade_elapsed / 0.25f) << c.name;
    }
  }
}

// A walk at changing speeds, played frame by frame at WalkPlaybackRate (the clock the viewer
// advanced before), reaches the phase SetGaitClock gives for the distance walked: the gait keeps
// the feet on the ground as playing did, without the frames.
TEST(SetGaitClock, EqualsAClockPlayedAtTheWalkRateOverTheSameWalk) {
  constexpr float kClipSpeed = 37.5f;
  PlaybackClock played;
  played.animation = 3;
  double walked = 0.0;
  for (int frame = 0; frame < 500; ++frame) {
    // Speeds whose rates are exact in a float (the played clock's rate is one).
    const double speeds[] = {75.0, 37.5, 18.75, 56.25, 0.0};
    const double speed = speeds[(frame / 7) % 5];
    const double dt = frame % 3 == 0 ? 0.021 : 0.013;
    played.rate = WalkPlaybackRate(speed, kClipSpeed);
    AdvanceClock(played, kDuration, dt);
    walked += speed * dt;
  }
  PlaybackClock gait_clock;
  ASSERT_TRUE(SetGaitClock(gait_clock, Gait{true, walked, 75.0, 9.0, -1.0}, 3, 1, kClipSpeed,
                           kDuration, kDuration));
  EXPECT_NEAR(gait_clock.time, played.time, 1e-9);
}

}  // namespace
}  // namespace md5stage::anim
