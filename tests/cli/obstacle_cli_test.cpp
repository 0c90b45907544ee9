// `md5stage turn --obstacles` (the turn path when clear, otherwise a plan printed like `plan`) and
// `md5stage route --obstacles` (the stretches that come within the clearance), text and JSON.
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
#include "core/path/obstacles.h"
#include "core/path/route.h"
#include "core/path/route_json.h"

namespace md5stage {
namespace {

using testing::CliRun;
using testing::Lines;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) parts.push_back(part);
  return parts;
}

// The CSV rows after the "within clearance" header of `route` text output.
std::vector<std::vector<double>> StretchRows(const std::string& out, std::string* header) {
  const std::vector<std::string> lines = Lines(out);
  std::vector<std::vector<double>> rows;
  std::size_t i = 0;
  while (i < lines.size() && lines[i].rfind("within clearance", 0) != 0) ++i;
  if (i == lines.size()) return rows;
  *header = lines[i];
  for (i += 2; i < lines.size(); ++i) {
    std::vector<double> row;
    for (const std::string& field : Split(lines[i]))
      row.push_back(std::strtod(field.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

// A circle of radius 10 at (100, 5), a 20-wide wall at x = 140..160, and a circle far away.
const char* kObstacles = R"({"obstacles": [
  {"circle": {"centre": [100, 5], "radius": 10}},
  {"polygon": [[140, -60], [160, -60], [160, 60], [140, 60]]},
  {"circle": {"centre": [100, 500], "radius": 10}}]})";

struct RouteCase {
  const char* name;
  const char* route;
  double clearance;
  // Expected rows: start, end, obstacle, min_distance.
  std::vector<std::vector<double>> rows;
};

TEST(RouteObstacles, ListsTheStretchesWithinTheClearance) {
  const std::string obstacles = WriteTempFile("obstacles.json", kObstacles);
  const double half = std::sqrt(12.0 * 12.0 - 5.0 * 5.0);  // |x - 100| where the distance is 2
  const RouteCase cases[] = {
      {"crosses the circle",
       R"({"segments": [{"line": [[0, 0], [120, 0]]}]})",
       2.0,
       {{100 - half, 100 + half, 0, 0}}},
      {"clear", R"({"segments": [{"line": [[0, 40], [120, 40]]}]})", 2.0, {}},
      // Passing at exactly the clearance is legal, as in the planner.
      {"tangent at the clearance", R"({"segments": [{"line": [[0, 17], [120, 17]]}]})", 2.0, {}},
      {"near, not touching",
       R"({"segments": [{"line": [[0, 16], [120, 16]]}]})",
       2.0,
       {{100 - std::sqrt(144.0 - 121.0), 100 + std::sqrt(144.0 - 121.0), 0, 1}}},
      // One stretch across a join, and the wall crossed from 138 to 162 with clearance 2.
      {"join and wall",
       R"({"segments": [{"line": [[0, 0], [100, 0]]}, {"line": [[100, 0], [200, 0]]}]})",
       2.0,
       {{100 - half, 100 + half, 0, 0}, {138, 162, 1, 0}}},
      {"clearance 0",
       R"({"segments": [{"line": [[0, 0], [200, 0]]}]})",
       0.0,
       {{100 - std::sqrt(75.0), 100 + std::sqrt(75.0), 0, 0}, {140, 160, 1, 0}}},
  };
  for (const RouteCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string route = WriteTempFile("route.json", c.route);
    char clearance[32];
    std::snprintf(clearance, sizeof clearance, "%g", c.clearance);
    const CliRun run = RunCli("route '" + route + "' --samples 2 --obstacles '" + obstacles +
                              "' --clearance " + clearance);
    ASSERT_EQ(run.status, 0) << run.err;
    std::string header;
    const std::vector<std::vector<double>> rows = StretchRows(run.out, &header);
    EXPECT_EQ(header, "within clearance " + std::string(clearance) +
                          " of an obstacle: " + std::to_string(c.rows.size()));
    ASSERT_EQ(rows.size(), c.rows.size()) << run.out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ASSERT_EQ(rows[i].size(), 4u);
      EXPECT_NEAR(rows[i][0], c.rows[i][0], 1e-9);
      EXPECT_NEAR(rows[i][1], c.rows[i][1], 1e-9);
      EXPECT_EQ(rows[i][2], c.rows[i][2]);
      EXPECT_NEAR(rows[i][3], c.rows[i][3], 1e-9);
    }
    // --json says the same.
    const CliRun json = RunCli("route '" + route + "' --samples 2 --json --obstacles '" +
                               obstacles + "' --clearance " + clearance);
    ASSERT_EQ(json.status, 0) << json.err;
    const Result<JsonValue> parsed = ParseJson("stdout", json.out);
    ASSERT_TRUE(parsed.ok()) << json.out;
    const JsonValue* list = parsed.value().Find("obstacle_stretches");
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->as_array().size(), c.rows.size());
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
      const JsonValue& item = list->as_array()[i];
      EXPECT_NEAR(item.Find("start")->as_number(), c.rows[i][0], 1e-9);
      EXPECT_NEAR(item.Find("end")->as_number(), c.rows[i][1], 1e-9);
      EXPECT_EQ(item.Find("obstacle")->as_number(), c.rows[i][2]);
      EXPECT_NEAR(item.Find("min_distance")->as_number(), c.rows[i][3], 1e-9);
    }
    EXPECT_EQ(parsed.value().Find("clearance")->as_number(), c.clearance);
    ASSERT_EQ(parsed.value().Find("samples")->as_array().size(), 3u);
  }
}

// A Bezier through the circle: the stretch ends are where the distance is the clearance, and a
// dense independent scan finds the same stretch.
TEST(RouteObstacles, BezierStretchEndsAreAtTheClearance) {
  const std::string obstacles = WriteTempFile("obstacles_curve.json", kObstacles);
  const char* text = R"({"segments": [{"bezier": [[0, 0], [60, 40], [120, -30], [130, 30]]}]})";
  const std::string file = WriteTempFile("curve.json", text);
  const CliRun run = RunCli("route '" + file + "' --samples 1 --json --clearance 3 --obstacles '" +
                            obstacles + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const Result<JsonValue> parsed = ParseJson("stdout", run.out);
  ASSERT_TRUE(parsed.ok());
  const Result<Route> route = ReadRouteJson(file, text);
  const Result<ObstacleSet> set = ReadObstaclesJson("obstacles", kObstacles);
  ASSERT_TRUE(route.ok() && set.ok());
  const Obstacle& circle = set.value().obstacles()[0];
  auto distance = [&](double d) {
    return DistanceToObstacle(circle, route.value().Sample(d).position);
  };
  // Independent scan: runs where the distance is below 3.
  std::vector<std::pair<double, double>> runs;
  const int n = 200000;
  const double length = route.value().length();
  bool inside = false;
  for (int k = 0; k <= n; ++k) {
    const double d = length * k / n;
    const bool now = distance(d) < 3.0;
    if (now && !inside) runs.push_back({d, d});
    if (now) runs.back().second = d;
    inside = now;
  }
  const JsonArray& list = parsed.value().Find("obstacle_stretches")->as_array();
  ASSERT_EQ(list.size(), runs.size()) << run.out;
  ASSERT_FALSE(runs.empty());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double start = list[i].Find("start")->as_number();
    const double end = list[i].Find("end")->as_number();
    EXPECT_NEAR(start, runs[i].first, 2 * length / n);
    EXPECT_NEAR(end, runs[i].second, 2 * length / n);
    if (start > 0) {
      EXPECT_NEAR(distance(start), 3.0, 1e-6);
    }
    if (end < length) {
      EXPECT_NEAR(distance(end), 3.0, 1e-6);
    }
    EXPECT_EQ(list[i].Find("obstacle")->as_number(), 0);
  }
}

TEST(RouteObstacles, Errors) {
  const std::string route =
      WriteTempFile("route_err.json", R"({"segments": [{"line": [[0, 0], [1, 0]]}]})");
  const std::string bad = WriteTempFile(
      "bad.json", "{\"obstacles\": [\n  {\"circle\": {\"centre\": [0, 0], \"radius\": -1}}]}");
  const CliRun run = RunCli("route '" + route + "' --obstacles '" + bad + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(bad + ":2:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("error: obstacles[0].circle.radius"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(RunCli("route '" + route + "' --obstacles '" + TempPath("missing.json") + "'").status,
            1);
  EXPECT_EQ(RunCli("route '" + route + "' --clearance 1").status, 2);  // needs --obstacles
  EXPECT_EQ(RunCli("route '" + route + "' --obstacles '" + bad + "' --clearance -1").status, 2);
}

TEST(TurnObstacles, AClearTurnPathPrintsLikeTurn) {
  const std::string obstacles = WriteTempFile("obstacles_turn.json", kObstacles);
  for (const char* json : {"", " --json"}) {
    const std::string query = std::string("turn --from 0,30,0 --to 120,40,0 --radius 10") + json;
    const CliRun plain = RunCli(query);
    const CliRun checked = RunCli(query + " --clearance 2 --obstacles '" + obstacles + "'");
    EXPECT_EQ(checked.status, 0) << checked.err;
    EXPECT_EQ(checked.out, plain.out);
    EXPECT_EQ(checked.err, "");
  }
}

TEST(TurnObstacles, ACrossingTurnPathIsPlannedAroundLikePlan) {
  const std::string obstacles = WriteTempFile("obstacles_cross.json", kObstacles);
  for (const char* json : {"", " --json"}) {
    const std::string args = std::string(" --from 0,0,0 --to 200,0,0 --radius 10 --clearance 2") +
                             json + " --obstacles '" + obstacles + "'";
    const CliRun turn = RunCli("turn" + args);
    const CliRun plan = RunCli("plan" + args);
    EXPECT_EQ(turn.status, 0) << turn.err;
    EXPECT_EQ(plan.status, 0) << plan.err;
    EXPECT_EQ(turn.out, plan.out);
    EXPECT_NE(turn.err.find("comes within clearance 2 of obstacles[0]"), std::string::npos)
        << turn.err;
  }
  // With a final heading too.
  const std::string args = " --from 0,0,0 --to 200,0,3 --radius 10 --obstacles '" + obstacles + "'";
  EXPECT_EQ(RunCli("turn" + args).out, RunCli("plan" + args).out);
}

TEST(TurnObstacles, NoPathAndErrors) {
  const std::string ring = WriteTempFile("ring.json", R"({"obstacles": [
    {"polygon": [[-50, -50], [50, -50], [50, -40], [-50, -40]]},
    {"polygon": [[-50, 40], [50, 40], [50, 50], [-50, 50]]},
    {"polygon": [[-50, -50], [-40, -50], [-40, 50], [-50, 50]]},
    {"polygon": [[40, -50], [50, -50], [50, 50], [40, 50]]}]})");
  const CliRun none =
      RunCli("turn --from -120,0,0 --to 0,0 --radius 15 --obstacles '" + ring + "'");
  EXPECT_EQ(none.status, 1);
  const std::vector<std::string> lines = Lines(none.out);
  ASSERT_EQ(lines.size(), 2u) << none.out;
  EXPECT_EQ(lines[0], "found false");
  EXPECT_EQ(lines[1].rfind("reason ", 0), 0u);
  const CliRun none_json =
      RunCli("turn --from -120,0,0 --to 0,0 --radius 15 --json --obstacles '" + ring + "'");
  EXPECT_EQ(none_json.status, 1);
  const Result<JsonValue> parsed = ParseJson("stdout", none_json.out);
  ASSERT_TRUE(parsed.ok()) << none_json.out;
  EXPECT_FALSE(parsed.value().Find("found")->as_bool());
  // A start inside an obstacle is an error naming it.
  const CliRun inside =
      RunCli("turn --from 45,0,0 --to 100,0 --radius 5 --obstacles '" + ring + "'");
  EXPECT_EQ(inside.status, 1);
  EXPECT_NE(inside.err.find("start (45, 0) is within clearance 0 of obstacles[3]"),
            std::string::npos)
      << inside.err;
  // A bad obstacles file: located message.
  const std::string bad = WriteTempFile(
      "bad_turn.json", "{\"obstacles\": [\n  {\"polygon\": [[0, 0], [1, 0], \"x\"]}]}");
  const CliRun located = RunCli("turn --from -5,0,0 --to 5,5 --radius 1 --obstacles '" + bad + "'");
  EXPECT_EQ(located.status, 1);
  EXPECT_NE(located.err.find(bad + ":2:32: error: obstacles[0].polygon[2]: expected a point"),
            std::string::npos)
      << located.err;
  EXPECT_EQ(RunCli("turn --from 0,0,0 --to 1,1 --radius 1 --clearance 1").status, 2);
  EXPECT_EQ(RunCli("turn --batch --obstacles '" + ring + "'").status, 2);
}

}  // namespace
}  // namespace md5stage
