// The DetourCrowd reference of the crowd benchmarks (bench/detour_crowd.h): its navmesh is made
// from the scenario's ground and obstacles (kept a clearance off them), its agents reach their
// targets, and scenarios it cannot take are errors naming the field.
#include "detour_crowd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <glm/geometric.hpp>
#include <string>

namespace md5stage::bench {
namespace {

CrowdCharacter Walker(glm::dvec2 start, glm::dvec2 target, double clearance = 15.0) {
  CrowdCharacter c;
  c.start = {start, 0.0};
  c.speed = 100.0;
  c.turning_radius = 30.0;
  c.clearance = clearance;
  c.has_target = true;
  c.target = target;
  return c;
}

// Runs until every agent arrives or `cap` seconds pass.
void RunToArrival(DetourCrowdRun& run, double cap) {
  while (run.arrived_count() < run.size() && run.time() < cap) run.Step();
}

struct ArrivalCase {
  std::string name;
  CrowdScenario scenario;
  double cap;  // seconds
};

std::vector<ArrivalCase> ArrivalCases() {
  std::vector<ArrivalCase> cases;
  cases.push_back({"head_on_pair",
                   {"pair", {Walker({0, 0}, {400, 0}), Walker({400, 5}, {0, 5})}, ObstacleSet{}},
                   20.0});
  cases.push_back({"field_25", FieldScenario(25), 30.0});
  const std::string scenes = std::string(MD5STAGE_SOURCE_DIR) + "/assets/scenes/";
  cases.push_back(
      {"crossing_scene", SceneScenario("crossing", scenes + "crossing.json").value(), 40.0});
  return cases;
}

TEST(DetourCrowdRun, AgentsReachTheirTargets) {
  for (ArrivalCase& c : ArrivalCases()) {
    SCOPED_TRACE(c.name);
    Result<DetourCrowdRun> built = DetourCrowdRun::Build(c.scenario);
    ASSERT_TRUE(built.ok()) << built.error().ToString();
    DetourCrowdRun& run = built.value();
    EXPECT_GT(run.navmesh_polygons(), 0);
    ASSERT_EQ(run.size(), static_cast<int>(c.scenario.characters.size()));
    RunToArrival(run, c.cap);
    EXPECT_EQ(run.arrived_count(), run.size());
    for (int i = 0; i < run.size(); ++i) {
      EXPECT_GT(run.arrival_time(i), 0.0) << "agent " << i;
      EXPECT_LE(glm::distance(run.target(i), c.scenario.characters[i].target), 1e-3)
          << "agent " << i << ": its target moved onto the navmesh";
    }
  }
}

// A target inside an obstacle lands on the navmesh's edge, a clearance off the obstacle (to a
// cell), and the agent walking past it stays that far off.
TEST(DetourCrowdRun, NavmeshKeepsTheClearanceOffObstacles) {
  CrowdScenario scenario{"pillar",
                         {Walker({-300, 0}, {0, 0}), Walker({-300, 30}, {300, 30})},
                         ObstacleSet::Build({Obstacle::Circle({0, 0}, 60)}).value()};
  Result<DetourCrowdRun> built = DetourCrowdRun::Build(scenario);
  ASSERT_TRUE(built.ok()) << built.error().ToString();
  DetourCrowdRun& run = built.value();
  const double cell = 15.0 / 2.0;
  EXPECT_NEAR(glm::length(run.target(0)), 60.0 + 15.0, 2.0 * cell);
  double closest = 1e300;
  while (run.arrival_time(1) < 0.0 && run.time() < 20.0) {
    run.Step();
    closest = std::min(closest, glm::length(run.position(1)));
  }
  EXPECT_GE(run.arrival_time(1), 0.0);
  EXPECT_GE(closest, 60.0 + 15.0 - 2.0 * cell);
}

TEST(DetourCrowdRun, ScenariosItCannotTakeAreErrors) {
  CrowdCharacter routed = Walker({0, 100}, {100, 100});
  routed.has_target = false;
  struct Case {
    std::string name;
    std::vector<CrowdCharacter> characters;
    std::string error;
  };
  const Case cases[] = {
      {"none", {}, "characters: none"},
      {"two_clearances",
       {Walker({0, 0}, {100, 0}), Walker({0, 50}, {100, 50}, 20.0)},
       "characters[1].clearance"},
      {"zero_clearance", {Walker({0, 0}, {100, 0}, 0.0)}, "characters[0].clearance"},
      {"no_target", {Walker({0, 0}, {100, 0}), routed}, "characters[1]: expected a target"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Result<DetourCrowdRun> built = DetourCrowdRun::Build({c.name, c.characters, ObstacleSet{}});
    ASSERT_FALSE(built.ok());
    EXPECT_NE(built.error().message.find(c.error), std::string::npos) << built.error().message;
  }
  DetourCrowdOptions bad_rate;
  bad_rate.rate = 0.0;
  Result<DetourCrowdRun> built =
      DetourCrowdRun::Build({"rate", {Walker({0, 0}, {100, 0})}, ObstacleSet{}}, bad_rate);
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.error().message.find("rate"), std::string::npos);
}

}  // namespace
}  // namespace md5stage::bench
