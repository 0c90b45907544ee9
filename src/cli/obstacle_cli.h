// What the commands that take --obstacles share: reading the obstacles file, printing a planned
// path like `plan`, and finding the stretches of a route that come within a clearance.
#pragma once

#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"
#include "core/path/route_obstacles.h"

namespace md5stage::cli {

// Reads and validates FILE.json ({"obstacles": [...]}); errors are printed `file:line:col: ...`
// ready for stderr ("file: error: cannot open file" when it cannot be read).
Result<ObstacleSet> LoadObstaclesFile(const std::string& file);

// `plan`'s output: "found ..." lines, or {"found": ...} with segments as `turn --json` prints them.
void PrintPlanText(const ObstaclePlanResult& result, const PlannedPath& path);
void PrintPlanJson(const ObstaclePlanResult& result, const PlannedPath& path);

// Moved to the path core (the viewer marks routes with it too); the CLI's names stay.
using md5stage::FindObstacleStretches;
using md5stage::ObstacleStretch;

}  // namespace md5stage::cli
