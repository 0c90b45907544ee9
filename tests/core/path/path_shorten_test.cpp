// PathShortenJob (the planner's shortening pass) and the planner's budget: the validity tables,
// a detour shortened to the tangent way round, the output never longer and always legal, and the
// same answer for the same budget.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/path/obstacle_planner.h"
#include "obstacle_fixtures.h"

namespace md5stage {
namespace {

using test::Box;
using test::Set;

// A legal detour round a wall: up, across well above it, down (lines and quarter turns).
PlannedPath Detour(const ObstacleSet& set, double r) {
  PlannedPath path;
  path.start = {{0, 0}, 0};
  ObstaclePlannerScratch scratch;
  ObstaclePlanResult result;
  ObstaclePlanJob job;
  job.start = path.start;
  job.goal = {200, 0};
  job.turning_radius = r;
  job.clearance = 2;
  job.obstacles = &set;
  job.limits.shorten_budget = 0;  // the raw search path
  job.limits.passes = 1;
  job.scratch = &scratch;
  job.path = &path;
  job.result = &result;
  EXPECT_TRUE(job.Run().ok());
  EXPECT_TRUE(result.found());
  return path;
}

struct Shortener {
  PathShortenScratch scratch;
  PlannedPath out;
  PathShortenResult result;
  PathShortenJob Job(const PlannedPath& path, const ObstacleSet& set, double r, double clearance) {
    PathShortenJob job;
    job.path = &path;
    job.goal = path.end.position;
    job.turning_radius = r;
    job.clearance = clearance;
    job.obstacles = &set;
    job.scratch = &scratch;
    job.out = &out;
    job.result = &result;
    return job;
  }
};

TEST(PathShortenJob, ValidityTable) {
  const ObstacleSet set = Set({Box(90, -60, 110, 60)});
  const PlannedPath path = Detour(set, 15);
  PlannedPath other;
  struct Row {
    const char* name;
    std::function<void(PathShortenJob&)> spoil;
    const char* expected;
  };
  const Row rows[] = {
      {"no path", [](PathShortenJob& j) { j.path = nullptr; },
       "shorten: path, obstacles, scratch, out and result are required"},
      {"no obstacles", [](PathShortenJob& j) { j.obstacles = nullptr; }, "are required"},
      {"no scratch", [](PathShortenJob& j) { j.scratch = nullptr; }, "are required"},
      {"no out", [](PathShortenJob& j) { j.out = nullptr; }, "are required"},
      {"no result", [](PathShortenJob& j) { j.result = nullptr; }, "are required"},
      {"out is the input", [](PathShortenJob& j) { j.out = const_cast<PlannedPath*>(j.path); },
       "shorten: out: expected a path other than `path`"},
      {"goal not finite", [](PathShortenJob& j) { j.goal.x = std::nan(""); },
       "shorten: goal: expected a finite point"},
      {"radius 0", [](PathShortenJob& j) { j.turning_radius = 0; },
       "shorten: radius: expected a number > 0 and <= 1e15, found 0"},
      {"clearance < 0", [](PathShortenJob& j) { j.clearance = -1; },
       "shorten: clearance: expected a number >= 0 and <= 1e15, found -1"},
      {"budget < 0", [](PathShortenJob& j) { j.budget = -1; },
       "shorten: budget: expected a number >= 0, found -1"},
      {"anchor spacing 0", [](PathShortenJob& j) { j.options.anchor_spacing = 0; },
       "shorten: options.anchor_spacing: expected a number > 0 and <= 1e6, found 0"},
      {"last step 1", [](PathShortenJob& j) { j.options.last_step = 1; },
       "shorten: options.last_step: expected a number > 0 and <= 0.5, found 1"},
      {"no sweeps", [](PathShortenJob& j) { j.options.sweeps = 0; },
       "shorten: options.sweeps: expected 1 to 100, found 0"},
      {"radius above the path's", [](PathShortenJob& j) { j.turning_radius = 20; },
       "shorten: path: segment"},
      {"clearance the path does not keep", [](PathShortenJob& j) { j.clearance = 30; },
       "shorten: path: segment"},
      {"another goal",
       [](PathShortenJob& j) {
         j.goal = {201, 0};
       },
       "shorten: path: the path does not end at the goal"},
  };
  Shortener s;
  for (const Row& row : rows) {
    PathShortenJob job = s.Job(path, set, 15, 2);
    ASSERT_TRUE(job.Validate().ok()) << row.name;
    row.spoil(job);
    const Status valid = job.Validate();
    ASSERT_FALSE(valid.ok()) << row.name;
    EXPECT_NE(valid.error().message.find(row.expected), std::string::npos)
        << row.name << ": " << valid.error().message;
    EXPECT_FALSE(job.Run().ok()) << row.name;
  }
}

TEST(PathShortenJob, ShortensADetourAndStaysLegal) {
  const ObstacleSet set = Set({Box(90, -60, 110, 60)});
  const PlannedPath path = Detour(set, 15);
  Shortener s;
  PathShortenJob job = s.Job(path, set, 15, 2);
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LE(s.out.length, path.length);
  EXPECT_EQ(s.result.length_before, path.length);
  EXPECT_EQ(s.result.length_after, s.out.length);
  EXPECT_LE(s.result.words, job.budget);
  EXPECT_TRUE(CheckPlannedPath(s.out, path.start, job.goal, nullptr, 15, 2, set).ok());
  // The way round the wall's top corners (inflated by the clearance) is a lower bound.
  EXPECT_GT(s.out.length, 2.0 * std::hypot(90.0, 62.0) + 20.0);
  // The same budget, the same answer, on a reused scratch too, and no allocation: the scratch's
  // and the output's buffers stay where they are.
  const double first = s.out.length;
  s.out.segments.reserve(256);
  const void* segments = s.out.segments.data();
  const void* anchors = s.scratch.anchors.data();
  const void* chain = s.scratch.chain.data();
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(s.out.length, first);
  EXPECT_EQ(s.out.segments.data(), segments);
  EXPECT_EQ(s.scratch.anchors.data(), anchors);
  EXPECT_EQ(s.scratch.chain.data(), chain);
  // Budget 0: the input unchanged.
  job.budget = 0;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_FALSE(s.result.changed);
  EXPECT_EQ(s.out.length, path.length);
  ASSERT_EQ(s.out.segments.size(), path.segments.size());
}

TEST(ObstaclePlanJob, LimitsValidityTable) {
  const ObstacleSet set = Set({Box(90, -60, 110, 60)});
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
  struct Row {
    const char* name;
    std::function<void(ObstaclePlanLimits&)> spoil;
    const char* expected;
  };
  const Row rows[] = {
      {"budget 0", [](ObstaclePlanLimits& l) { l.budget = 0; },
       "plan: limits.budget: expected a number >= 1, found 0"},
      {"no passes", [](ObstaclePlanLimits& l) { l.passes = 0; },
       "plan: limits.passes: expected 1 to 3, found 0"},
      {"four passes", [](ObstaclePlanLimits& l) { l.passes = 4; },
       "plan: limits.passes: expected 1 to 3, found 4"},
      {"shorten budget < 0", [](ObstaclePlanLimits& l) { l.shorten_budget = -2; },
       "plan: limits.shorten_budget: expected a number >= 0, found -2"},
  };
  for (const Row& row : rows) {
    ObstaclePlanJob job;
    job.start = {{0, 0}, 0};
    job.goal = {200, 0};
    job.turning_radius = 15;
    job.obstacles = &set;
    job.scratch = &scratch;
    job.path = &path;
    job.result = &result;
    ASSERT_TRUE(job.Validate().ok()) << row.name;
    row.spoil(job.limits);
    const Status valid = job.Validate();
    ASSERT_FALSE(valid.ok()) << row.name;
    EXPECT_EQ(valid.error().message, row.expected) << row.name;
  }
}

TEST(ObstaclePlanJob, BudgetBoundsTheWorkAndGivesTheSameAnswer) {
  const ObstacleSet set = Set({Box(90, -60, 110, 60), Obstacle::Circle({150, 40}, 12)});
  for (int budget : {1, 50, 400, kDefaultPlanBudget}) {
    double first = -1.0;
    for (int round = 0; round < 2; ++round) {
      ObstaclePlannerScratch scratch;
      PlannedPath path;
      ObstaclePlanResult result;
      ObstaclePlanJob job;
      job.start = {{0, 0}, 0.3};
      job.goal = {220, 10};
      job.turning_radius = 15;
      job.clearance = 2;
      job.obstacles = &set;
      job.limits.budget = budget;
      job.scratch = &scratch;
      job.path = &path;
      job.result = &result;
      ASSERT_TRUE(job.Run().ok());
      EXPECT_LE(result.expansions, budget);
      EXPECT_LE(result.passes, job.limits.passes);
      if (!result.found()) {
        EXPECT_STREQ(result.reason, "no path found within the budget") << budget;
        continue;
      }
      if (round == 0) first = path.length;
      EXPECT_EQ(path.length, first) << budget;  // counts, not a clock: the same every time
    }
  }
  EXPECT_EQ(PlanBudgetFromMilliseconds(0.0), 1);
  EXPECT_EQ(PlanBudgetFromMilliseconds(1.0), kPlanExpansionsPerMs);
  EXPECT_EQ(PlanBudgetFromMilliseconds(1e300), 100000000);
}

}  // namespace
}  // namespace md5stage
