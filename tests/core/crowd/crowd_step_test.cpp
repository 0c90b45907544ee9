// The crowd step job: its validity table, the motion of one step (arcs, limits, standing still
// when boxed in) and AdvancePose against the independent arc of crowd_check.h.
#include "core/crowd/crowd_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "crowd_check.h"

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

CrowdAgent Walker(glm::dvec2 position, double heading, double wanted_curvature) {
  CrowdAgent a;
  a.pose = {position, heading};
  a.max_speed = 100.0;
  a.speed = 100.0;
  a.turning_radius = 20.0;
  a.clearance = 10.0;
  a.wanted_curvature = wanted_curvature;
  // The heading its arc turns to within a quarter turn (straight on when it wants no turn).
  a.wanted_heading = heading + (wanted_curvature > 0   ? 1
                                : wanted_curvature < 0 ? -1
                                                       : 0) *
                                   0.5 * kPi;
  a.wanted_speed = 100.0;
  return a;
}

struct StepFixture {
  std::vector<CrowdAgent> agents;
  std::vector<CrowdMotion> motions;
  CrowdScratch scratch;
  CrowdStepJob job;

  explicit StepFixture(std::vector<CrowdAgent> a) : agents(std::move(a)) {
    motions.resize(agents.size());
    scratch.Reserve(static_cast<int>(agents.size()));
    job.agents = agents.data();
    job.count = static_cast<int>(agents.size());
    job.scratch = &scratch;
    job.motions = motions.data();
  }
};

TEST(CrowdStepValidity, Table) {
  struct Row {
    const char* name;
    std::function<void(StepFixture&)> change;
    const char* message;  // "" when valid
  };
  CrowdScratch small;
  small.Reserve(1);
  const Row rows[] = {
      {"valid", [](StepFixture&) {}, ""},
      {"no scratch", [](StepFixture& f) { f.job.scratch = nullptr; }, "scratch: expected"},
      {"scratch too small", [&](StepFixture& f) { f.job.scratch = &small; },
       "scratch: expected Reserve(2)"},
      {"no output", [](StepFixture& f) { f.job.motions = nullptr; }, "motions: expected"},
      {"no agents", [](StepFixture& f) { f.job.agents = nullptr; }, "agents: expected"},
      {"zero count", [](StepFixture& f) { f.job.count = 0; }, "count: expected"},
      {"negative count", [](StepFixture& f) { f.job.count = -3; }, "count: expected"},
      {"step zero", [](StepFixture& f) { f.job.options.step = 0.0; }, "options.step"},
      {"step NaN", [](StepFixture& f) { f.job.options.step = kNaN; }, "options.step"},
      {"step too long", [](StepFixture& f) { f.job.options.step = 2.0; }, "options.step"},
      {"horizon below step", [](StepFixture& f) { f.job.options.horizon = 0.001; },
       "options.horizon"},
      {"horizon inf", [](StepFixture& f) { f.job.options.horizon = kInf; }, "options.horizon"},
      {"x NaN", [](StepFixture& f) { f.agents[1].pose.position.x = kNaN; },
       "agents[1].pose.position.x"},
      {"y inf", [](StepFixture& f) { f.agents[0].pose.position.y = kInf; },
       "agents[0].pose.position.y"},
      {"y huge", [](StepFixture& f) { f.agents[0].pose.position.y = 1e12; },
       "agents[0].pose.position.y"},
      {"heading NaN", [](StepFixture& f) { f.agents[1].pose.heading = kNaN; },
       "agents[1].pose.heading"},
      {"negative radius", [](StepFixture& f) { f.agents[1].turning_radius = -1.0; },
       "agents[1].turning_radius: expected a finite number > 0, found -1"},
      {"zero radius", [](StepFixture& f) { f.agents[0].turning_radius = 0.0; },
       "agents[0].turning_radius"},
      {"NaN radius", [](StepFixture& f) { f.agents[0].turning_radius = kNaN; },
       "agents[0].turning_radius"},
      {"negative clearance", [](StepFixture& f) { f.agents[0].clearance = -0.5; },
       "agents[0].clearance"},
      {"negative max speed", [](StepFixture& f) { f.agents[0].max_speed = -1.0; },
       "agents[0].max_speed"},
      {"speed above max", [](StepFixture& f) { f.agents[1].speed = 101.0; }, "agents[1].speed"},
      {"negative speed", [](StepFixture& f) { f.agents[1].speed = -1.0; }, "agents[1].speed"},
      {"wanted speed above max", [](StepFixture& f) { f.agents[0].wanted_speed = 150.0; },
       "agents[0].wanted_speed"},
      {"wanted speed negative", [](StepFixture& f) { f.agents[0].wanted_speed = -1.0; },
       "agents[0].wanted_speed"},
      {"wanted heading NaN", [](StepFixture& f) { f.agents[1].wanted_heading = kNaN; },
       "agents[1].wanted_heading"},
      {"wanted curvature inf", [](StepFixture& f) { f.agents[1].wanted_curvature = kInf; },
       "agents[1].wanted_curvature"},
      {"wanted curvature NaN", [](StepFixture& f) { f.agents[0].wanted_curvature = kNaN; },
       "agents[0].wanted_curvature"},
      {"wanted distance zero", [](StepFixture& f) { f.agents[1].wanted_distance = 0.0; },
       "agents[1].wanted_distance: expected a distance > 0"},
      {"wanted distance negative", [](StepFixture& f) { f.agents[0].wanted_distance = -5.0; },
       "agents[0].wanted_distance"},
      {"wanted distance NaN", [](StepFixture& f) { f.agents[0].wanted_distance = kNaN; },
       "agents[0].wanted_distance"},
      {"wanted distance finite", [](StepFixture& f) { f.agents[0].wanted_distance = 1e-3; }, ""},
      {"zero clearance, zero speeds",
       [](StepFixture& f) {
         for (CrowdAgent& a : f.agents) a = CrowdAgent{};
         f.agents[1].pose.position = {5, 0};
       },
       ""},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    StepFixture f({Walker({0, 0}, 0, 0), Walker({100, 0}, kPi, 0)});
    row.change(f);
    const Status validity = f.job.Validate();
    const Status run = f.job.Run();
    if (row.message[0] == '\0') {
      EXPECT_TRUE(validity.ok()) << validity.error().message;
      EXPECT_TRUE(run.ok());
    } else {
      ASSERT_FALSE(validity.ok());
      EXPECT_NE(validity.error().message.find(row.message), std::string::npos)
          << validity.error().message;
      EXPECT_FALSE(run.ok());
    }
  }
}

TEST(AdvancePose, MatchesTheIndependentArc) {
  struct Row {
    double heading, speed, curvature, time;
  };
  const Row rows[] = {{0, 100, 0, 1},        {1, 100, 0.05, 0.5}, {-2, 30, -0.1, 2},
                      {3, 10, 1e-12, 1},     {0.5, 0, 0.1, 1},    {kPi, 250, 1.0 / 110, 1 / 60.0},
                      {-kPi, 50, -0.02, 10}, {2, 80, 0.1, 0.0}};
  for (const Row& row : rows) {
    const Pose2 start{{3, -4}, row.heading};
    const Pose2 end = AdvancePose(start, row.speed, row.curvature, row.time);
    const testing::StepArc arc{start.position, start.heading, row.speed, row.curvature};
    const glm::dvec2 expected = testing::ArcPosition(arc, row.time);
    EXPECT_NEAR(end.position.x, expected.x, 1e-9 * (1 + row.speed * row.time));
    EXPECT_NEAR(end.position.y, expected.y, 1e-9 * (1 + row.speed * row.time));
    EXPECT_NEAR(WrapPi(end.heading - (row.heading + row.curvature * row.speed * row.time)), 0.0,
                1e-12);
  }
}

TEST(CrowdStep, AloneTakesTheWantedMotionWithinItsLimits) {
  struct Row {
    double wanted_curvature, wanted_speed;
    double expected_curvature;  // in 1 / turning radius
    double expected_speed;
  };
  const Row rows[] = {
      {0, 100, 0, 100},       // straight on
      {0.05, 100, 1, 100},    // the tightest left turn
      {-0.05, 100, -1, 100},  // the tightest right turn
      {3.0, 100, 1, 100},     // wants tighter than it can: the tightest
      {-1e9, 100, -1, 100},   // far tighter the other way
      {0.01, 100, 0.2, 100},  // a gentle arc
      {0, 40, 0, 40},         // slower when it wants to be
      {0.02, 0, 0, 0},        // waiting
  };
  for (const Row& row : rows) {
    StepFixture f({Walker({0, 0}, 0.3, row.wanted_curvature)});
    f.agents[0].wanted_speed = row.wanted_speed;
    ASSERT_TRUE(f.job.Run().ok());
    EXPECT_NEAR(f.motions[0].curvature * 20.0, row.expected_curvature, 1e-12);
    EXPECT_DOUBLE_EQ(f.motions[0].speed, row.expected_speed);
    EXPECT_EQ(f.motions[0].boxed_in_by, -1);
  }
}

TEST(CrowdStep, BoxedInStandsStill) {
  // Touching neighbours ahead, left and right, an obstacle behind: every forward arc comes
  // closer to one of them, so the walker waits.
  std::vector<CrowdAgent> agents = {Walker({0, 0}, 0, 0), Walker({20, 0}, kPi, 0),
                                    Walker({0, 20}, 0, 0), Walker({0, -20}, 0, 0)};
  for (std::size_t i = 1; i < agents.size(); ++i) agents[i].wanted_speed = 0.0;
  StepFixture f(agents);
  ASSERT_TRUE(f.job.Run().ok());
  EXPECT_EQ(f.motions[0].speed, 0.0);
  // It names the one that keeps it standing: the one it faces, too close to turn away from
  // (what lets the simulation ask one that has arrived to make way).
  EXPECT_EQ(f.motions[0].boxed_in_by, 1);
  // Those that want to stand are kept by nobody.
  for (std::size_t i = 1; i < agents.size(); ++i) EXPECT_EQ(f.motions[i].boxed_in_by, -1) << i;
}

TEST(CrowdStep, OneBoxedInDoesNotBoxInTheOneThatBoxesIt) {
  // Walker 1 faces walker 0 (standing, facing +x) too close to turn away from: boxed in by
  // it. It stands just outside 0's own boxed-in region (in front of 0 and too close for 0's
  // right-hand turn to clear it): any step it takes, even the slowest, ends inside it, and the
  // two would be boxed in by each other at contact for good. So it waits for 0 to leave.
  const glm::dvec2 start{30.6, 6.0};
  std::vector<CrowdAgent> agents = {Walker({0, 0}, 0, 0),
                                    Walker(start, std::atan2(-start.y, -start.x), 0)};
  agents[0].wanted_speed = 0.0;
  // It has waited long: standing costs it more than coming nearer, so only the rule keeps it.
  agents[1].waiting = 30.0;
  StepFixture f(agents);
  ASSERT_TRUE(f.job.Run().ok());
  EXPECT_EQ(f.motions[1].speed, 0.0);
  EXPECT_EQ(f.motions[1].boxed_in_by, 0);
  // Farther out (no step ends in 0's boxed-in region) it walks on, boxed in by 0 or not.
  f.agents[1].pose.position = {40.0, 6.0};
  ASSERT_TRUE(f.job.Run().ok());
  EXPECT_GT(f.motions[1].speed, 0.0);
}

TEST(CrowdStep, ObstacleAheadIsNeverEntered) {
  // A wall across the walker's way, its clearance just ahead: it turns or stops, never enters;
  // also after waiting long (then the ranking prefers walking on, into the wall: the safety
  // check alone keeps it out).
  Result<ObstacleSet> wall =
      ObstacleSet::Build({Obstacle::Polygon({{11, -50}, {20, -50}, {20, 50}, {11, 50}})});
  ASSERT_TRUE(wall.ok());
  for (double waiting : {0.0, 10.0, 100.0}) {
    StepFixture f({Walker({0, 0}, 0, 0)});
    f.agents[0].waiting = waiting;
    f.job.obstacles = &wall.value();
    ASSERT_TRUE(f.job.Run().ok());
    const testing::StepArc arc{f.agents[0].pose.position, f.agents[0].pose.heading,
                               f.motions[0].speed, f.motions[0].curvature};
    for (int k = 0; k <= 64; ++k) {
      const glm::dvec2 p = testing::ArcPosition(arc, f.job.options.step * k / 64);
      EXPECT_GE(wall.value().Distance(p), 10.0 - 1e-9) << "waiting " << waiting << " at " << k;
    }
  }
}

TEST(CrowdStep, AWalkerNearItsGoalIgnoresThoseBeyondIt) {
  // A walker 30 short of its goal, straight ahead, and one standing 35 beyond the goal: the
  // walker's manoeuvres end at its goal, where it keeps the margin (1.5 x the clearances) from
  // the one standing, so it walks straight on at its speed. Ranked as running on for the whole
  // horizon (no end), it would walk into the one standing and turns or slows instead.
  std::vector<CrowdAgent> agents = {Walker({0, 0}, 0, 0), Walker({65, 0}, kPi, 0)};
  agents[1].wanted_speed = 0.0;
  agents[1].speed = 0.0;
  agents[0].wanted_distance = 30.0;
  StepFixture ending(agents);
  ASSERT_TRUE(ending.job.Run().ok());
  EXPECT_EQ(ending.motions[0].curvature, 0.0);
  EXPECT_EQ(ending.motions[0].speed, 100.0);
  agents[0].wanted_distance = kInf;
  StepFixture going_on(agents);
  ASSERT_TRUE(going_on.job.Run().ok());
  EXPECT_TRUE(going_on.motions[0].curvature != 0.0 || going_on.motions[0].speed < 100.0);
}

TEST(CrowdStep, AWalkerNearItsGoalIgnoresObstaclesBeyondIt) {
  // A walker 30 short of its goal, straight ahead, and a pillar beyond the goal: the goal keeps
  // twice the walker's clearance from it, but the straight way run on for the whole horizon
  // (100 units) goes through it. The walker's manoeuvres end at its goal, so it walks straight
  // on at its speed. Ranked as running on past the goal into the pillar, its own way was dearer
  // than a turn aside: it turned away from its goal each time it came near, missed it and
  // circled it (field_100_obstacles' walker 82).
  Result<ObstacleSet> pillar = ObstacleSet::Build({Obstacle::Circle({65, 0}, 15)});
  ASSERT_TRUE(pillar.ok());
  StepFixture ending({Walker({0, 0}, 0, 0)});
  ending.job.obstacles = &pillar.value();
  ending.agents[0].wanted_distance = 30.0;
  ASSERT_TRUE(ending.job.Run().ok());
  EXPECT_EQ(ending.motions[0].curvature, 0.0);
  EXPECT_EQ(ending.motions[0].speed, 100.0);
  // The same way going on past the pillar (a look-ahead point, no end): it turns or slows.
  StepFixture going_on({Walker({0, 0}, 0, 0)});
  going_on.job.obstacles = &pillar.value();
  ASSERT_TRUE(going_on.job.Run().ok());
  EXPECT_TRUE(going_on.motions[0].curvature != 0.0 || going_on.motions[0].speed < 100.0);
}

TEST(CrowdStep, HeadOnBothTurnTheSameWay) {
  // Exactly mirrored: the right-hand preference makes both turn right (clockwise), so they
  // pass instead of mirroring each other into a stop.
  StepFixture f({Walker({0, 0}, 0, 0), Walker({120, 0}, kPi, 0)});
  ASSERT_TRUE(f.job.Run().ok());
  EXPECT_LT(f.motions[0].curvature, 0.0);
  EXPECT_LT(f.motions[1].curvature, 0.0);
}

TEST(CrowdStep, LaterCharacterChecksTheEarlierOnesMotion) {
  // Two walkers side by side converging: whatever each takes, the pair stays apart over the
  // step on the exact arcs.
  for (double gap = 20.0; gap <= 24.0; gap += 0.5) {
    StepFixture f({Walker({0, 0}, 0.4, 0.05), Walker({0, gap}, -0.4, -0.05)});
    ASSERT_TRUE(f.job.Run().ok());
    const testing::StepArc a{f.agents[0].pose.position, f.agents[0].pose.heading,
                             f.motions[0].speed, f.motions[0].curvature};
    const testing::StepArc b{f.agents[1].pose.position, f.agents[1].pose.heading,
                             f.motions[1].speed, f.motions[1].curvature};
    double closest = 0.0;
    EXPECT_TRUE(testing::StaysApart(a, b, f.job.options.step, 20.0, 1e-9, &closest))
        << "gap " << gap << " closest " << closest;
  }
}

}  // namespace
}  // namespace md5stage
