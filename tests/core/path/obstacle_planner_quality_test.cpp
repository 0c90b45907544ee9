// The planner against a slow fine-resolution search (exhaustive_planner.h): "no path" only where
// that search finds none either, and on the benchmark's field the ratio of the planner's lengths
// to the search's. MD5STAGE_EXHAUSTIVE_QUERIES=100 measures all of the benchmark's queries (a
// minute or two) instead of the first eight that need a search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "../../../bench/planner_field.h"
#include "core/path/obstacle_planner.h"
#include "exhaustive_planner.h"

namespace md5stage {
namespace {

using testing::ExhaustivePlan;
using testing::ExhaustiveResult;

struct Planner {
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;

  Status Plan(const ObstacleSet& set, const Pose2& start, glm::dvec2 goal, const double* heading,
              double radius, double clearance) {
    ObstaclePlanJob job;
    job.start = start;
    job.goal = goal;
    job.has_goal_heading = heading != nullptr;
    job.goal_heading = heading != nullptr ? *heading : 0.0;
    job.turning_radius = radius;
    job.clearance = clearance;
    job.obstacles = &set;
    job.scratch = &scratch;
    job.path = &path;
    job.result = &result;
    return job.Run();
  }
};

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const std::size_t i = static_cast<std::size_t>(p * (values.size() - 1) + 0.5);
  return values[std::min(i, values.size() - 1)];
}

// Random fields crowded enough that some goals are walled off or leave no room to turn.
TEST(ObstaclePlannerQuality, NoPathOnlyWhereTheExhaustiveSearchFindsNone) {
  std::mt19937_64 rng(1818);
  std::uniform_real_distribution<double> u(0, 1);
  Planner p;
  int queries = 0, no_path = 0;
  for (int field = 0; field < 200; ++field) {
    const double size = 200;
    const double radius = 8 + 12 * u(rng);
    const double clearance = 3 * u(rng);
    std::vector<Obstacle> obstacles;
    const int count = 6 + field % 10;
    for (int i = 0; i < count; ++i) {
      const glm::dvec2 c{u(rng) * size, u(rng) * size};
      if (i % 2 == 0) {
        obstacles.push_back(Obstacle::Circle(c, 4 + 16 * u(rng)));
      } else {
        const double a = u(rng) * kPi, w = 10 + 50 * u(rng), h = 3 + 6 * u(rng);
        const glm::dvec2 x{std::cos(a), std::sin(a)}, y{-std::sin(a), std::cos(a)};
        obstacles.push_back(Obstacle::Polygon(
            {c - w * x - h * y, c + w * x - h * y, c + w * x + h * y, c - w * x + h * y}));
      }
    }
    Result<ObstacleSet> built = ObstacleSet::Build(obstacles);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const ObstacleSet& set = built.value();
    Pose2 start;
    glm::dvec2 goal;
    do {
      start = {{u(rng) * size, u(rng) * size}, u(rng) * kTwoPi};
    } while (set.FirstWithin(start.position, clearance) >= 0);
    do {
      goal = {u(rng) * size, u(rng) * size};
    } while (set.FirstWithin(goal, clearance) >= 0);
    const double heading_value = u(rng) * kTwoPi;
    const double* heading = field % 2 == 0 ? &heading_value : nullptr;
    ASSERT_TRUE(p.Plan(set, start, goal, heading, radius, clearance).ok());
    ++queries;
    if (p.result.found()) continue;
    ++no_path;
    testing::ExhaustiveOptions options;
    options.cells_per_radius = 3.0;
    options.heading_bins = 48;
    options.shot_within = 8.0 * radius;
    const ExhaustiveResult best =
        ExhaustivePlan(start, goal, heading, radius, clearance, set, options);
    EXPECT_TRUE(best.complete);
    EXPECT_FALSE(best.found) << "field " << field << ": the planner answered \"" << p.result.reason
                             << "\" but the exhaustive search found a path of length "
                             << best.length;
  }
  std::printf(
      "[ quality  ] %d queries, %d without a path (each confirmed by the exhaustive "
      "search)\n",
      queries, no_path);
  EXPECT_GT(no_path, 0);  // the fields must exercise "no path" at all
}

TEST(ObstaclePlannerQuality, LengthRatioToTheExhaustiveSearchOnTheBenchField) {
  namespace pf = planner_field;
  const ObstacleSet field = pf::MakeField(2026);
  ASSERT_EQ(field.size(), static_cast<std::size_t>(pf::kObstacleCount));
  const std::vector<pf::Query> queries = pf::MakeQueries(field, 0.0, 17);
  const char* env = std::getenv("MD5STAGE_EXHAUSTIVE_QUERIES");
  const int measured = env != nullptr ? std::atoi(env) : 8;
  Planner p;
  std::vector<double> ratios;
  int direct = 0, compared = 0;
  for (int i = 0; i < static_cast<int>(queries.size()) && compared < measured; ++i) {
    const pf::Query& q = queries[i];
    const double* heading = q.has_heading ? &q.heading : nullptr;
    ASSERT_TRUE(p.Plan(field, q.start, q.goal, heading, pf::kRadius, pf::kClearance).ok());
    if (p.result.direct) {  // the obstacle-free optimum: nothing is shorter
      ++direct;
      ratios.push_back(1.0);
      continue;
    }
    ++compared;
    const ExhaustiveResult best =
        ExhaustivePlan(q.start, q.goal, heading, pf::kRadius, pf::kClearance, field);
    ASSERT_TRUE(best.complete) << "query " << i;
    EXPECT_EQ(p.result.found(), best.found) << "query " << i << ": " << p.result.reason;
    if (!p.result.found() || !best.found) continue;
    const double ratio = p.path.length / best.length;
    ratios.push_back(ratio);
    std::printf("[ quality  ] query %d: planner %.2f exhaustive %.2f ratio %.4f (%zu expansions)\n",
                i, p.path.length, best.length, ratio, best.expansions);
    // The 5% on every query (the generated cases of planner_cases_test.cpp check it
    // against a stronger reference; this search is not shortened, so the planner may beat it).
    EXPECT_LE(ratio, 1.05) << "query " << i;
  }
  ASSERT_FALSE(ratios.empty());
  std::printf("[ quality  ] %zu queries (%d direct): ratio median %.4f, 95th %.4f, max %.4f\n",
              ratios.size(), direct, Percentile(ratios, 0.5), Percentile(ratios, 0.95),
              Percentile(ratios, 1.0));
  EXPECT_LE(Percentile(ratios, 0.5), 1.01);
}

}  // namespace
}  // namespace md5stage
