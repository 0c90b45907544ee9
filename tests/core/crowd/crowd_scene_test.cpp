// A scene's characters as the crowd takes them (core/crowd/crowd_scene.h): what `md5stage
// simulate` and the viewer both step.
#include "core/crowd/crowd_scene.h"

#include <gtest/gtest.h>

#include <string>

#include "core/scene/scene_json.h"

namespace md5stage {
namespace {

constexpr const char* kScene = R"({"version": 1,
  "models": [{"name": "walker", "mesh": "models/walker/walker.md5mesh"},
             {"name": "other", "mesh": "models/other.md5mesh"}],
  "routes": [{"name": "line", "closed": false, "segments": [{"line": [[0, 0], [0, 100]]}]}],
  "instances": [
    {"model": "walker", "position": [10, 20], "heading": 90, "speed": 70, "turn_radius": 0,
     "target": {"x": 100, "y": -50}, "start_delay": 2},
    {"model": "walker", "position": [0, 0], "heading": 0, "turn_radius": 30, "clearance": 12,
     "route": 0, "route_mode": "pingpong"},
    {"model": "other", "position": [5, 5], "heading": 180},
    {"model": "walker", "position": [50, 0], "heading": 45, "turn_radius": 30, "route": 0}]})";

Scene Parse(const std::string& text) {
  Result<Scene> scene = ParseScene("s.json", text);
  EXPECT_TRUE(scene.ok()) << scene.error().ToString();
  return scene.ok() ? scene.value() : Scene();
}

TEST(CrowdCharactersOf, TakesEveryInstanceInOrder) {
  int asked = 0;
  const ModelClearance clearance = [&](const SceneModel& model) -> Result<double> {
    ++asked;
    return model.name == "walker" ? 17.5 : 4.0;
  };
  Result<std::vector<CrowdCharacter>> characters = CrowdCharactersOf(Parse(kScene), clearance);
  ASSERT_TRUE(characters.ok()) << characters.error().ToString();
  const std::vector<CrowdCharacter>& c = characters.value();
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(asked, 2);  // once a model
  // A target, degrees to radians, turn radius 0 turned on the in-place radius, the model's
  // clearance, the start delay.
  EXPECT_EQ(c[0].start.position, glm::dvec2(10, 20));
  EXPECT_DOUBLE_EQ(c[0].start.heading, kPi / 2);
  EXPECT_EQ(c[0].turning_radius, kCrowdInPlaceTurnRadius);
  EXPECT_EQ(c[0].speed, 70);
  EXPECT_EQ(c[0].clearance, 17.5);
  EXPECT_TRUE(c[0].has_target);
  EXPECT_EQ(c[0].target, glm::dvec2(100, -50));
  EXPECT_EQ(c[0].start_delay, 2);
  EXPECT_FALSE(c[0].route);
  // On its route's start it faces along the route (up), whatever its own heading.
  ASSERT_TRUE(c[1].route);
  EXPECT_EQ(c[1].route_mode, PlayMode::kPingPong);
  EXPECT_NEAR(c[1].start.heading, kPi / 2, 1e-9);
  EXPECT_EQ(c[1].clearance, 12);
  EXPECT_EQ(c[1].turning_radius, 30);
  // One route built once for its walkers; off its start, a walker keeps its heading.
  EXPECT_EQ(c[3].route, c[1].route);
  EXPECT_DOUBLE_EQ(c[3].start.heading, kPi / 4);
  // Neither: it stands.
  EXPECT_FALSE(c[2].has_target);
  EXPECT_FALSE(c[2].route);
  EXPECT_EQ(c[2].clearance, 4.0);
  EXPECT_EQ(CrowdTurningRadius(25.0), 25.0);
}

TEST(CrowdCharactersOf, ErrorsNameTheField) {
  const ModelClearance refuse = [](const SceneModel& model) -> Result<double> {
    return MakeError("", 0, 0, "cannot read the mesh of '" + model.name + "'");
  };
  Result<std::vector<CrowdCharacter>> refused = CrowdCharactersOf(Parse(kScene), refuse);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "instances[0].clearance: absent, and cannot read the mesh of 'walker'");
  // Every clearance given: the models are never asked.
  Scene given = Parse(kScene);
  for (SceneInstance& instance : given.instances) instance.clearance = 10.0;
  EXPECT_TRUE(CrowdCharactersOf(given, refuse).ok());
  // A route that does not build is an error only when walked.
  Scene broken = given;
  broken.routes.push_back(broken.routes[0]);
  broken.routes[1].closed = true;  // a closed route must end where it starts; this one does not
  EXPECT_TRUE(CrowdCharactersOf(broken, refuse).ok());
  broken.instances[1].route = 1;
  Result<std::vector<CrowdCharacter>> walked = CrowdCharactersOf(broken, refuse);
  ASSERT_FALSE(walked.ok());
  EXPECT_EQ(walked.error().message.rfind("routes[1]: ", 0), 0u) << walked.error().message;
}

TEST(CrowdSimulationBuild, RouteProgressIsADistanceAlongItsRoute) {
  Scene scene = Parse(kScene);
  for (SceneInstance& instance : scene.instances) instance.clearance = 10.0;
  Result<std::vector<CrowdCharacter>> characters =
      CrowdCharactersOf(scene, [](const SceneModel&) -> Result<double> { return 0.0; });
  ASSERT_TRUE(characters.ok());
  struct Row {
    double progress;
    bool ok;
  };
  for (const Row& row : {Row{0.0, true}, Row{60.0, true}, Row{100.0, true}, Row{-1.0, false},
                         Row{100.5, false}, Row{NAN, false}}) {
    std::vector<CrowdCharacter> c = characters.value();
    c[1].route_progress = row.progress;
    c[1].route_backwards = true;
    Result<CrowdSimulation> sim = CrowdSimulation::Build(c, ObstacleSet());
    ASSERT_EQ(sim.ok(), row.ok) << row.progress;
    if (!row.ok) {
      EXPECT_NE(sim.error().message.find("characters[1].route_progress"), std::string::npos)
          << sim.error().message;
      continue;
    }
    EXPECT_EQ(sim.value().route_progress(1), row.progress);
    EXPECT_TRUE(sim.value().route_backwards(1));
  }
}

}  // namespace
}  // namespace md5stage
