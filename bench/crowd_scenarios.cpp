#include "crowd_scenarios.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <glm/geometric.hpp>
#include <sstream>
#include <utility>

#include "core/crowd/crowd_scene.h"
#include "core/scene/scene_json.h"

namespace md5stage::bench {

CrowdScenario FieldScenario(int count) {
  std::uint64_t state = 12345;
  auto uniform = [&state](double lo, double hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  const int columns = static_cast<int>(std::ceil(std::sqrt(count)));
  const double spacing = 80.0;
  CrowdScenario scenario;
  scenario.name = "field_" + std::to_string(count);
  for (int i = 0; i < count; ++i) {
    CrowdCharacter c;
    const glm::dvec2 p{spacing * (i % columns) + uniform(-8, 8),
                       spacing * (i / columns) + uniform(-8, 8)};
    const double direction = uniform(-kPi, kPi);
    c.start = {p, direction + uniform(-1, 1)};
    c.speed = 100.0;
    c.turning_radius = 30.0;
    c.clearance = 15.0;
    c.has_target = true;
    c.target = p + uniform(300, 500) * Direction(direction);
    scenario.characters.push_back(c);
  }
  return scenario;
}

Result<CrowdScenario> SceneScenario(const std::string& name, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(path, 0, 0, "cannot read the scene file");
  std::ostringstream text;
  text << in.rdbuf();
  Result<Scene> scene = ParseScene(path, text.str());
  if (!scene.ok()) return scene.error();
  // The demos give every walker its clearance; a scene that leaves it to the model is not one
  // of these scenarios.
  auto no_model_clearance = [&path](const SceneModel&) -> Result<double> {
    return MakeError(path, 0, 0, "the benchmark scenarios give every clearance in the scene");
  };
  Result<std::vector<CrowdCharacter>> characters =
      CrowdCharactersOf(scene.value(), no_model_clearance);
  if (!characters.ok()) return characters.error();
  CrowdScenario scenario;
  scenario.name = name;
  scenario.characters = std::move(characters.value());
  scenario.obstacles = scene.value().obstacles;
  return scenario;
}

double LongestStraightTime(const CrowdScenario& scenario) {
  double longest = 0.0;
  for (const CrowdCharacter& c : scenario.characters) {
    if (c.has_target && c.speed > 0.0) {
      longest = std::max(longest, glm::distance(c.start.position, c.target) / c.speed);
    }
  }
  return longest;
}

}  // namespace md5stage::bench
