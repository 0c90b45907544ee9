// The planner on the 164 generated cases of planner_cases.h (mazes, circle, polygon and mixed
// fields, radius 10-80, clearance 0-20) against the recorded reference of
// tests/core/path/testdata/planner_reference.csv (tools/planner_reference: a much finer lattice
// search run to optimality, then shortened): every case found or refused as the reference is,
// every path legal, every length within 5% of the reference, the median within 1%.
#include "../../../bench/planner_cases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/path/obstacle_planner.h"
#include "reference_csv.h"

namespace md5stage {
namespace {

bool Same(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(a)); }

TEST(PlannerCases, EveryCaseWithinFivePercentOfTheReference) {
  const testing::CsvTable table = testing::ReadCsv(
      std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/path/testdata/planner_reference.csv");
  ASSERT_EQ(table.size(), static_cast<std::size_t>(planner_cases::kCaseCount))
      << "tests/core/path/testdata/planner_reference.csv missing or short";
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
  std::vector<double> ratios;
  int refused = 0, direct = 0, worst = -1;
  double worst_ratio = 0.0;
  long long expansions = 0;
  for (int i = 0; i < planner_cases::kCaseCount; ++i) {
    const testing::CsvRow row = table[i];
    const planner_cases::Case c = planner_cases::MakeCase(i);
    ASSERT_EQ(c.obstacles.empty(), false) << "case " << i;
    // The table was made from these very queries (a changed generator needs a new table).
    ASSERT_TRUE(
        Same(row.number("radius"), c.radius) && Same(row.number("clearance"), c.clearance) &&
        Same(row.number("x0"), c.start.position.x) && Same(row.number("y0"), c.start.position.y) &&
        Same(row.number("h0"), c.start.heading) && Same(row.number("x1"), c.goal.x) &&
        Same(row.number("y1"), c.goal.y) &&
        (c.has_heading ? Same(row.number("h1"), c.heading) : row.text("h1").empty()))
        << "case " << i << ": the table's query differs from planner_cases.h; regenerate it "
        << "with md5stage_planner_reference";
    ASSERT_EQ(row.text("complete"), "true") << "case " << i;
    ObstaclePlanJob job = planner_cases::PlanJobFor(c, &scratch, &path, &result);
    const Status status = job.Run();
    ASSERT_TRUE(status.ok()) << "case " << i << ": " << status.error().message;
    expansions += result.expansions;
    const bool reference_found = row.text("found") == "true";
    EXPECT_EQ(result.found(), reference_found)
        << "case " << i << " (" << c.kind << "): " << result.reason;
    if (!reference_found) ++refused;
    if (!result.found() || !reference_found) continue;
    const double* heading = c.has_heading ? &c.heading : nullptr;
    const Status legal =
        CheckPlannedPath(path, c.start, c.goal, heading, c.radius, c.clearance, c.obstacles);
    EXPECT_TRUE(legal.ok()) << "case " << i << ": " << legal.error().message;
    const double ratio = path.length / row.number("length");
    EXPECT_LE(ratio, 1.05) << "case " << i << " (" << c.kind << ", radius " << c.radius
                           << ", clearance " << c.clearance << "): " << path.length
                           << " against the reference's " << row.number("length");
    if (result.direct) ++direct;
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = i;
    }
    ratios.push_back(ratio);
  }
  ASSERT_GE(ratios.size(), 100u);
  std::vector<double> sorted = ratios;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const double p95 = sorted[static_cast<std::size_t>(0.95 * (sorted.size() - 1) + 0.5)];
  std::printf(
      "[ cases    ] %zu found (%d direct), %d refused as the reference; ratio min %.4f median "
      "%.4f 95th %.4f max %.4f (case %d); %.0f expansions per case\n",
      ratios.size(), direct, refused, sorted.front(), median, p95, sorted.back(), worst,
      static_cast<double>(expansions) / planner_cases::kCaseCount);
  EXPECT_LE(median, 1.01);
  EXPECT_GT(refused, 0);  // the cases must exercise "no path" at all
}

}  // namespace
}  // namespace md5stage
