// A scene's characters as the crowd takes them: positions and headings (degrees to radians),
// speeds, turning radii, clearances, targets and routes. One conversion for `md5stage simulate`
// and the viewer's crowd (viewer/crowd_playback.h), so both step the same characters.
#pragma once

#include <functional>
#include <vector>

#include "core/common/result.h"
#include "core/crowd/crowd_simulation.h"
#include "core/scene/scene.h"

namespace md5stage {

// A scene's turn_radius 0 turns in place; the crowd needs a curvature bound, so such a character
// turns on this radius (far below anything visible).
constexpr double kCrowdInPlaceTurnRadius = 1e-3;

// The radius the crowd turns a character on, from the scene's (0: in place).
double CrowdTurningRadius(double scene_turn_radius);

// The clearance of a character whose scene gives none, from its model: the viewer's default is
// half the wider horizontal extent of the model's bind pose; the CLI reads the mesh, the viewer
// asks its library. An error is reported as the instance's clearance's.
using ModelClearance = std::function<Result<double>(const SceneModel& model)>;

// Every instance, in the scene's order (an instance with neither a target nor a route stands and
// is gone round). A character standing on its route's start faces along the route (as the
// viewer places it). Routes are built once each, only those walked. Errors name the field
// ("instances[2].clearance: absent, and ...", "routes[1]: ...").
Result<std::vector<CrowdCharacter>> CrowdCharactersOf(const Scene& scene,
                                                      const ModelClearance& model_clearance);

}  // namespace md5stage
