// `md5stage plan`: text and JSON output, no path, batch mode, and errors, checked against the
// planner core.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "core/common/json.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/turn_path.h"

namespace md5stage {
namespace {

using testing::CliRun;
using testing::Lines;
using testing::RunCli;
using testing::TempPath;
using testing::WriteFile;

// A wall from y = -60 to 60 between x = 40 and 60, and a circle beyond it.
const char* kObstacles = R"({"obstacles": [
  {"polygon": [[40, -60], [60, -60], [60, 60], [40, 60]]},
  {"circle": {"centre": [120, 40], "radius": 15}}]})";

std::string ObstaclesFile() {
  const std::string file = TempPath("obstacles.json");
  WriteFile(file, kObstacles);
  return file;
}

// --budget-ms N is N x kPlanExpansionsPerMs expansions: the JSON's search member reports the work,
// within the budget, and a budget too small to reach the goal answers "no path" saying so.
TEST(PlanCommand, BudgetMsBoundsTheExpansions) {
  const std::string file = ObstaclesFile();
  const std::string query = "plan --from 0,0,0 --to 150,0,1.5 --radius 10 --clearance 2 --json ";
  const CliRun roomy = RunCli(query + "--budget-ms 100 --obstacles '" + file + "'");
  ASSERT_EQ(roomy.status, 0) << roomy.err;
  const Result<JsonValue> json = ParseJson("stdout", roomy.out);
  ASSERT_TRUE(json.ok()) << json.error().ToString();
  const JsonValue* search = json.value().Find("search");
  ASSERT_NE(search, nullptr);
  EXPECT_GT(search->Find("expansions")->as_number(), 0.0);
  EXPECT_LE(search->Find("expansions")->as_number(), 100.0 * kPlanExpansionsPerMs);
  EXPECT_GE(search->Find("passes")->as_number(), 1.0);
  // The default budget gives the same path here (the search ends well within both).
  const CliRun by_default = RunCli(query + "--obstacles '" + file + "'");
  ASSERT_EQ(by_default.status, 0) << by_default.err;
  EXPECT_EQ(by_default.out, roomy.out);
  const CliRun tiny = RunCli(query + "--budget-ms 0.004 --obstacles '" + file + "'");
  EXPECT_EQ(tiny.status, 1) << tiny.err;
  const Result<JsonValue> none = ParseJson("stdout", tiny.out);
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_FALSE(none.value().Find("found")->as_bool());
  EXPECT_EQ(none.value().Find("reason")->as_string(), "no path found within the budget");
}

TEST(PlanCommand, JsonOutputMatchesTheCore) {
  const CliRun run = RunCli(
      "plan --from 0,0,0 --to 150,0,1.5 --radius 10 --clearance 2 "
      "--obstacles '" +
      ObstaclesFile() + "' --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const Result<JsonValue> json = ParseJson("stdout", run.out);
  ASSERT_TRUE(json.ok()) << json.error().ToString();
  const Result<ObstacleSet> set = ReadObstaclesJson("o.json", kObstacles);
  ASSERT_TRUE(set.ok());
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
  ObstaclePlanJob job;
  job.start = {{0, 0}, 0};
  job.goal = {150, 0};
  job.has_goal_heading = true;
  job.goal_heading = 1.5;
  job.turning_radius = 10;
  job.clearance = 2;
  job.obstacles = &set.value();
  job.scratch = &scratch;
  job.path = &path;
  job.result = &result;
  ASSERT_TRUE(job.Run().ok());
  ASSERT_TRUE(result.found());
  EXPECT_TRUE(json.value().Find("found")->as_bool());
  EXPECT_DOUBLE_EQ(json.value().Find("length")->as_number(), path.length);
  const JsonArray& segments = json.value().Find("segments")->as_array();
  ASSERT_EQ(segments.size(), path.segments.size());
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const bool arc = path.segments[i].kind == TurnSegment::Kind::kArc;
    EXPECT_EQ(segments[i].Find("kind")->as_string(), arc ? "arc" : "line");
    EXPECT_DOUBLE_EQ(segments[i].Find("length")->as_number(), path.segments[i].length);
    if (arc) {
      EXPECT_DOUBLE_EQ(segments[i].Find("sweep")->as_number(), path.segments[i].sweep);
    }
  }
  const JsonArray& end = json.value().Find("end")->Find("position")->as_array();
  EXPECT_NEAR(end[0].as_number(), 150.0, 1e-9);
  EXPECT_NEAR(end[1].as_number(), 0.0, 1e-9);
  EXPECT_NEAR(json.value().Find("end")->Find("heading")->as_number(), 1.5, 1e-9);
}

TEST(PlanCommand, ClearPathIsTheTurnPathAndPrintsLikeTurn) {
  const std::string file = TempPath("empty.json");
  WriteFile(file, R"({"obstacles": []})");
  const CliRun plan = RunCli("plan --from 0,0,0 --to 2,2 --radius 2 --obstacles '" + file + "'");
  ASSERT_EQ(plan.status, 0) << plan.err;
  const std::vector<std::string> lines = Lines(plan.out);
  ASSERT_GE(lines.size(), 4u) << plan.out;
  EXPECT_EQ(lines[0], "found true");
  EXPECT_EQ(lines[1], "length 3.14159265358979");
  const CliRun turn = RunCli("turn --from 0,0,0 --to 2,2 --radius 2");
  // The same pieces, less turn's zero-length ones (here the empty line after the quarter arc):
  // planned paths never hold those.
  std::vector<std::string> turn_lines;
  const std::vector<std::string> all_turn_lines = Lines(turn.out);
  for (const std::string& line : all_turn_lines) {
    const std::string empty = " length 0";
    const bool zero = line.size() > empty.size() &&
                      line.compare(line.size() - empty.size(), empty.size(), empty) == 0;
    if (!zero) turn_lines.push_back(line);
  }
  EXPECT_EQ(turn_lines.size() + 1, all_turn_lines.size());
  ASSERT_EQ(turn_lines.size(), lines.size());
  for (std::size_t i = 2; i < lines.size(); ++i) EXPECT_EQ(lines[i], turn_lines[i]);
  // And the JSON segments are exactly those of `turn --json`.
  const CliRun plan_json =
      RunCli("plan --from 1,2,0.5 --to -7,3,2.5 --radius 1.5 --json --obstacles '" + file + "'");
  const CliRun turn_json = RunCli("turn --from 1,2,0.5 --to -7,3,2.5 --radius 1.5 --json");
  const Result<JsonValue> a = ParseJson("plan", plan_json.out);
  const Result<JsonValue> b = ParseJson("turn", turn_json.out);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a.value().Find("segments"), *b.value().Find("segments"));
  EXPECT_EQ(*a.value().Find("length"), *b.value().Find("length"));
}

TEST(PlanCommand, NoPathIsReportedWithAReason) {
  const std::string file = TempPath("ring.json");
  WriteFile(file, R"({"obstacles": [
    {"polygon": [[-50, -50], [50, -50], [50, -40], [-50, -40]]},
    {"polygon": [[-50, 40], [50, 40], [50, 50], [-50, 50]]},
    {"polygon": [[-50, -50], [-40, -50], [-40, 50], [-50, 50]]},
    {"polygon": [[40, -50], [50, -50], [50, 50], [40, 50]]}]})");
  const CliRun run =
      RunCli("plan --from -120,0,0 --to 0,0 --radius 15 --obstacles '" + file + "' --json");
  EXPECT_EQ(run.status, 1);
  const Result<JsonValue> json = ParseJson("stdout", run.out);
  ASSERT_TRUE(json.ok()) << run.out;
  EXPECT_FALSE(json.value().Find("found")->as_bool());
  ASSERT_NE(json.value().Find("reason"), nullptr);
  EXPECT_NE(json.value().Find("reason")->as_string(), "");
  EXPECT_EQ(json.value().Find("segments"), nullptr);
}

TEST(PlanCommand, BatchAnswersEveryLine) {
  const std::string input =
      "0,0,0,150,0,,10\n"  // round the wall
      "0,0,0,-30,0,,5\n"   // clear: the arc-line path
      "# a comment\n"
      "\n"
      "0,0,0,50,0,,10\n"     // goal inside the wall
      "1,2\n"                // malformed
      "0,0,0,150,0,0,-1\n";  // no such radius
  const CliRun run = RunCli("plan --batch --obstacles '" + ObstaclesFile() + "'", input);
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 5u) << run.out;
  EXPECT_NE(lines[0].find(",true"), std::string::npos) << lines[0];
  EXPECT_GT(std::strtod(lines[0].c_str(), nullptr), 150.0);
  const double clear = ArcLinePath({0, 0}, 0, 5, {-30, 0}).length;
  EXPECT_NEAR(std::strtod(lines[1].c_str(), nullptr), clear, 1e-12);
  EXPECT_EQ(lines[1].substr(lines[1].find(',')), ",true");
  EXPECT_EQ(lines[2], "nan,invalid");
  EXPECT_EQ(lines[3], "nan,invalid");
  EXPECT_EQ(lines[4], "nan,invalid");
  EXPECT_NE(
      run.err.find("stdin:5: error: plan: goal (50, 0) is within clearance 0 of obstacles[0]"),
      std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("stdin:6: error: expected 7 finite numbers"), std::string::npos);
}

TEST(PlanCommand, ErrorsAndUsage) {
  const std::string file = ObstaclesFile();
  // Start inside an obstacle: an error naming it, not "no path".
  const CliRun inside =
      RunCli("plan --from 50,0,0 --to 150,0 --radius 10 --obstacles '" + file + "'");
  EXPECT_EQ(inside.status, 1);
  EXPECT_NE(inside.err.find("start (50, 0) is within clearance 0 of obstacles[0]"),
            std::string::npos)
      << inside.err;
  const std::string bad = TempPath("bad_obstacles.json");
  WriteFile(bad, "{\"obstacles\": [\n  {\"polygon\": [[0, 0], [1, 0], \"x\"]}]}");
  const CliRun located = RunCli("plan --from -5,0,0 --to 5,5 --radius 1 --obstacles '" + bad + "'");
  EXPECT_EQ(located.status, 1);
  EXPECT_NE(located.err.find(bad + ":2:32: error: obstacles[0].polygon[2]: expected a point"),
            std::string::npos)
      << located.err;
  EXPECT_EQ(
      RunCli("plan --from 0,0,0 --to 1,1 --radius 1 --obstacles '" + TempPath("missing.json") + "'")
          .status,
      1);
  EXPECT_EQ(RunCli("plan --from 0,0,0 --to 1,1 --radius 1").status, 2);  // no obstacles
  EXPECT_EQ(RunCli("plan --from 0,0 --to 1,1 --radius 1 --obstacles '" + file + "'").status, 2);
  EXPECT_EQ(RunCli("plan --from 0,0,0 --to 1,1 --radius 0 --obstacles '" + file + "'").status, 2);
  EXPECT_EQ(
      RunCli("plan --from 0,0,0 --to 1,1 --radius 1 --clearance -1 --obstacles '" + file + "'")
          .status,
      2);
  EXPECT_EQ(RunCli("plan --batch --json --obstacles '" + file + "'").status, 2);
  for (const char* bad : {"0", "-3", "x", "1e7"}) {
    const CliRun budget = RunCli("plan --from 0,0,0 --to 1,1 --radius 1 --budget-ms " +
                                 std::string(bad) + " --obstacles '" + file + "'");
    EXPECT_EQ(budget.status, 2) << bad;
    EXPECT_NE(budget.err.find("--budget-ms: expected a number of milliseconds > 0 and <= 1e6, "
                              "found '" +
                              std::string(bad) + "'"),
              std::string::npos)
        << budget.err;
  }
  const CliRun unknown = RunCli("plan --frm 0,0,0");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unexpected argument '--frm'"), std::string::npos);
}

}  // namespace
}  // namespace md5stage
