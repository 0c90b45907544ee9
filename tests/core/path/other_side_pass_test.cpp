// The planner's other-side pass (issue 44): cases of the OMPL comparison (bench/compare_cases.h)
// where the passes alone went round the longer side of an obstacle. Each is planned without the
// pass (limits.other_side = false: the planner before it) and with it: without, the path is at
// least `gain` longer than the shorter way; with it, the shorter way is found, legal.
#include <gtest/gtest.h>

#include "../../../bench/compare_cases.h"
#include "core/path/obstacle_planner.h"

namespace md5stage {
namespace {

struct OtherSideCase {
  int index;           // compare_cases::MakeCase(index)
  double shorter_way;  // the length the other-side pass finds (md5stage_ompl_compare, ours)
  double gain;         // how much longer the passes alone are, at least (relative)
};

// The four cases of 300 where the pass gains most (md5stage_ompl_compare --other-side 0 and 1):
// 840.3 -> 821.3, 1563.5 -> 1536.1, 743.3 -> 733.1, 562.4 -> 557.6. (Case 265, 878.3 -> 852.8
// before the first pass's 2-D distance saw the walls, and case 69, 842.4 -> 798.6 before that
// distance was on the finer wall grid, are found by the first pass now: 853.6 and 798.3.)
constexpr OtherSideCase kCases[] = {
    {238, 821.306, 0.02},    // mixed, radius 38.8, a final heading
    {187, 1536.147, 0.015},  // maze, radius 81.1, clearance 19.5, no final heading
    {120, 733.065, 0.012},   // circles, radius 25.1, clearance 16, no final heading
    {233, 557.627, 0.008},   // polygons, radius 77.7, clearance 1.1, no final heading
};

double PlanLength(const compare_cases::Case& c, bool other_side, PlannedPath* path) {
  ObstaclePlannerScratch scratch;
  ObstaclePlanResult result;
  ObstaclePlanJob job = planner_cases::PlanJobFor(c, &scratch, path, &result);
  job.limits.other_side = other_side;
  const Status status = job.Run();
  EXPECT_TRUE(status.ok()) << status.error().message;
  EXPECT_TRUE(result.found()) << result.reason;
  return result.found() ? path->length : -1.0;
}

TEST(ObstaclePlannerOtherSide, FindsTheShorterSideThePassesAloneMiss) {
  for (const OtherSideCase& t : kCases) {
    SCOPED_TRACE("case " + std::to_string(t.index));
    const compare_cases::Case c = compare_cases::MakeCase(t.index);
    PlannedPath without, with;
    const double old_length = PlanLength(c, false, &without);
    const double new_length = PlanLength(c, true, &with);
    EXPECT_GE(old_length, t.shorter_way * (1.0 + t.gain));
    EXPECT_LE(new_length, t.shorter_way * (1.0 + 1e-6));
    const double* heading = c.has_heading ? &c.heading : nullptr;
    const Status legal =
        CheckPlannedPath(with, c.start, c.goal, heading, c.radius, c.clearance, c.obstacles);
    EXPECT_TRUE(legal.ok()) << legal.error().message;
  }
}

// The pass spends out of the same limits: expansions within the budget, and every shortening of
// the query together within shorten_budget x passes (small budgets, which every shortening
// spends in full, so one more pass's shortening would show).
TEST(ObstaclePlannerOtherSide, SpendsWithinTheLimits) {
  // (Case 238: the pass runs on it; on 69, where it ran before, the first pass finds the way now.)
  const compare_cases::Case c = compare_cases::MakeCase(238);
  struct Limits {
    int budget, passes, shorten_budget;
  };
  constexpr Limits kLimits[] = {
      {12000, 1, 40}, {12000, 2, 40}, {12000, 3, 40}, {900, 1, 3000}, {12000, 1, 0}};
  for (const Limits& l : kLimits) {
    SCOPED_TRACE("budget " + std::to_string(l.budget) + ", passes " + std::to_string(l.passes) +
                 ", shorten_budget " + std::to_string(l.shorten_budget));
    ObstaclePlannerScratch scratch;
    PlannedPath path;
    ObstaclePlanResult result;
    ObstaclePlanJob job;
    job.start = c.start;
    job.goal = c.goal;
    job.has_goal_heading = c.has_heading;
    job.goal_heading = c.heading;
    job.turning_radius = c.radius;
    job.clearance = c.clearance;
    job.obstacles = &c.obstacles;
    job.scratch = &scratch;
    job.path = &path;
    job.result = &result;
    job.limits = {l.budget, l.passes, l.shorten_budget};
    ASSERT_TRUE(job.Run().ok());
    EXPECT_TRUE(result.found()) << result.reason;
    EXPECT_LE(result.expansions, l.budget);
    EXPECT_LE(result.shorten_words, l.shorten_budget * l.passes);
    const double* heading = c.has_heading ? &c.heading : nullptr;
    EXPECT_TRUE(
        CheckPlannedPath(path, c.start, c.goal, heading, c.radius, c.clearance, c.obstacles).ok());
  }
}

}  // namespace
}  // namespace md5stage
