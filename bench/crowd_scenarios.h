// The crowd scenarios the benchmarks step (bench/crowd_step_bench.cpp, and side by side with
// DetourCrowd in bench/detour_crowd_bench.cpp): walkers in an open field, and the viewer's `swap`
// and `crossing` demo scenes. Pure core, so the native and the wasm benchmarks step the same ones.
#pragma once

#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/crowd/crowd_simulation.h"
#include "core/path/obstacles.h"

namespace md5stage::bench {

struct CrowdScenario {
  std::string name;  // "field_1000", "swap", ...
  std::vector<CrowdCharacter> characters;
  ObstacleSet obstacles;
};

// `count` walkers on a jittered grid 80 units apart (clearance 15, turning radius 30, speed 100),
// each sent 300 to 500 units in its own direction through the others (deterministic).
CrowdScenario FieldScenario(int count);

// A scene file's characters and obstacles (every character's clearance given by the scene, as in
// the demos); errors name the file or the field.
Result<CrowdScenario> SceneScenario(const std::string& name, const std::string& path);

// Seconds the slowest character would take alone to its target in a straight line (what the
// side-by-side runs bound their length by).
double LongestStraightTime(const CrowdScenario& scenario);

}  // namespace md5stage::bench
