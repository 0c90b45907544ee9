// `md5stage simulate`: wrong arguments name the field, the JSON object has the documented
// schema (one track row a step from t = 0), the summary's totals, and two runs print the same.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "core/common/json.h"

namespace md5stage {
namespace {

using testing::RunCli;
using testing::WriteTempFile;

// Two walkers head-on with targets, one standing, a pillar off to the side.
const char* kHeadOnScene = R"({"version": 1,
  "models": [{"name": "walker", "mesh": "models/walker/walker.md5mesh"}],
  "instances": [
    {"model": "walker", "position": [-300, 0], "heading": 0, "speed": 100, "turn_radius": 30,
     "clearance": 15, "target": {"x": 300, "y": 0}},
    {"model": "walker", "position": [300, 0], "heading": 180, "speed": 100, "turn_radius": 30,
     "clearance": 15, "target": {"x": -300, "y": 0}},
    {"model": "walker", "position": [0, 300], "clearance": 20}],
  "obstacles": [{"circle": {"centre": [0, -200], "radius": 30}}]})";

TEST(SimulateCommand, WrongArgumentsNameTheField) {
  const std::string scene = WriteTempFile("simulate_args.json", kHeadOnScene);
  struct Row {
    std::string args;
    const char* message;
  };
  const Row rows[] = {
      {"", "SCENE: expected a scene file"},
      {scene, "--duration: expected seconds"},
      {scene + " --duration", "--duration: expected seconds"},
      {scene + " --duration 0", "--duration: expected seconds in (0, 3600], found '0'"},
      {scene + " --duration -1", "--duration"},
      {scene + " --duration nan", "--duration"},
      {scene + " --duration 5000", "--duration"},
      {scene + " --duration 1s", "--duration"},
      {scene + " --duration 1 --rate 0", "--rate: expected steps a second in [1, 1000], found '0'"},
      {scene + " --duration 1 --rate fast", "--rate"},
      {scene + " --duration 1 --rate 2000", "--rate"},
      {scene + " --duration 1 --assets", "--assets: expected a folder"},
      {scene + " --duration 1 --speed 3", "unexpected argument '--speed'"},
      {scene + " " + scene + " --duration 1", "SCENE: expected one scene file"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.args);
    const testing::CliRun run = RunCli("simulate " + row.args);
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(row.message), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
}

TEST(SimulateCommand, BadScenesAreErrorsNamingTheField) {
  struct Row {
    const char* name;
    std::string text;
    const char* message;
  };
  const Row rows[] = {
      {"not json", "{", "expected"},
      {"no characters", R"({"version": 1})", "instances: expected at least one character"},
      {"negative clearance",
       R"({"version": 1, "models": [{"name": "m", "mesh": "a.md5mesh"}],
           "instances": [{"model": "m", "clearance": -1}]})",
       "instances[0].clearance"},
      {"clearance from a missing mesh",
       R"({"version": 1, "models": [{"name": "m", "mesh": "nowhere/a.md5mesh"}],
           "instances": [{"model": "m"}]})",
       "instances[0].clearance: absent, and"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    const std::string scene = WriteTempFile("simulate_bad.json", row.text);
    const testing::CliRun run = RunCli("simulate " + scene + " --duration 1");
    EXPECT_EQ(run.status, 1);
    EXPECT_NE(run.err.find(row.message), std::string::npos) << run.err;
  }
  EXPECT_EQ(RunCli("simulate /nonexistent/scene.json --duration 1").status, 1);
}

TEST(SimulateCommand, JsonHasTheDocumentedSchema) {
  const std::string scene = WriteTempFile("simulate_json.json", kHeadOnScene);
  const testing::CliRun run = RunCli("simulate " + scene + " --duration 10 --rate 30 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  Result<JsonValue> parsed = ParseJson("out", run.out, {64 << 20, 64});
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const JsonValue& root = parsed.value();
  EXPECT_EQ(root.Find("rate")->as_number(), 30.0);
  const JsonArray& characters = root.Find("characters")->as_array();
  ASSERT_EQ(characters.size(), 3u);
  for (std::size_t i = 0; i < characters.size(); ++i) {
    const JsonValue& c = characters[i];
    EXPECT_EQ(c.Find("index")->as_number(), static_cast<double>(i));
    for (const char* key : {"clearance", "turn_radius", "speed", "min_distance_to_character",
                            "min_distance_to_obstacle"}) {
      ASSERT_NE(c.Find(key), nullptr) << key;
      EXPECT_TRUE(c.Find(key)->is_number()) << key;
    }
    const JsonArray& track = c.Find("track")->as_array();
    ASSERT_EQ(track.size(), 301u);  // t = 0 and 300 steps
    EXPECT_EQ(track[0].as_array()[0].as_number(), 0.0);
    EXPECT_NEAR(track[300].as_array()[0].as_number(), 10.0, 1e-9);
    for (const JsonValue& row : track) ASSERT_EQ(row.as_array().size(), 5u);
  }
  // The walkers with targets arrive; the standing one has none.
  EXPECT_TRUE(characters[0].Find("arrival")->is_number());
  EXPECT_TRUE(characters[1].Find("arrival")->is_number());
  EXPECT_TRUE(characters[2].Find("arrival")->is_null());
  EXPECT_GE(characters[0].Find("min_distance_to_character")->as_number(), 30.0 - 1e-9);
  EXPECT_EQ(characters[0].Find("clearance")->as_number(), 15.0);
  EXPECT_EQ(characters[0].Find("turn_radius")->as_number(), 30.0);
  EXPECT_EQ(characters[0].Find("track")->as_array()[0].as_array()[3].as_number(), 0.0);
  EXPECT_EQ(characters[1].Find("track")->as_array()[0].as_array()[3].as_number(), 180.0);
  const JsonValue& summary = *root.Find("summary");
  EXPECT_EQ(summary.Find("pairs_too_close")->as_number(), 0.0);
  EXPECT_EQ(summary.Find("arrivals")->as_number(), 2.0);
  EXPECT_EQ(summary.Find("characters_with_target")->as_number(), 2.0);
  EXPECT_GE(summary.Find("least_separation")->as_number(), 0.0);
  EXPECT_LE(summary.Find("tightest_curvature_times_radius")->as_number(), 1.0 + 1e-9);
  EXPECT_GE(summary.Find("latest_arrival")->as_number(), summary.Find("mean_arrival")->as_number());
  // Same scene, same output.
  EXPECT_EQ(RunCli("simulate " + scene + " --duration 10 --rate 30 --json").out, run.out);
}

TEST(SimulateCommand, SummaryPrintsTheTotals) {
  const std::string scene = WriteTempFile("simulate_summary.json", kHeadOnScene);
  const testing::CliRun run = RunCli("simulate " + scene + " --duration 10 --summary");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = testing::Lines(run.out);
  ASSERT_EQ(lines.size(), 3u + 6u);  // a line a character, then the totals
  EXPECT_EQ(lines[0].rfind("character 0 clearance 15 turn_radius 30 speed 100 arrival ", 0), 0u)
      << lines[0];
  EXPECT_NE(lines[2].find("arrival none"), std::string::npos);
  EXPECT_EQ(lines[4], "pairs_too_close 0");
  EXPECT_EQ(lines[5], "arrivals 2 of 2");
  EXPECT_EQ(lines[8].rfind("tightest_curvature_times_radius ", 0), 0u);
  // Without --summary: each character's track, a line a step.
  const testing::CliRun tracks = RunCli("simulate " + scene + " --duration 1 --rate 10");
  ASSERT_EQ(tracks.status, 0);
  EXPECT_EQ(testing::Lines(tracks.out).size(), 3u * (1u + 11u));
}

TEST(SimulateCommand, BundledModelGivesTheDefaultClearance) {
  // No clearance: half the walker's bind-pose width, read from the project's assets.
  const std::string scene = WriteTempFile("simulate_model.json", R"({"version": 1,
    "models": [{"name": "walker", "mesh": "models/walker/walker.md5mesh"}],
    "instances": [{"model": "walker", "target": {"x": 100, "y": 0}, "turn_radius": 20}]})");
  const testing::CliRun run = RunCli("simulate " + scene + " --duration 5 --summary");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("clearance 24.79"), std::string::npos) << run.out;
  const testing::CliRun elsewhere =
      RunCli("simulate " + scene + " --duration 5 --assets /nonexistent");
  EXPECT_EQ(elsewhere.status, 1);
  EXPECT_NE(elsewhere.err.find("/nonexistent/models/walker/walker.md5mesh"), std::string::npos)
      << elsewhere.err;
}

}  // namespace
}  // namespace md5stage
