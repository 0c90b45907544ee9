// What the commands that take --obstacles share: reading the obstacles file, printing a planned
// path like `plan`, and finding the stretches of a route that come within a clearance.
#pragma once

#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"

namespace md5stage::cli {

// Reads and validates FILE.json ({"obstacles": [...]}); errors are printed `file:line:col: ...`
// ready for stderr ("file: error: cannot open file" when it cannot be read).
Result<ObstacleSet> LoadObstaclesFile(const std::string& file);

// `plan`'s output: "found ..." lines, or {"found": ...} with segments as `turn --json` prints them.
void PrintPlanText(const ObstaclePlanResult& result, const PlannedPath& path);
void PrintPlanJson(const ObstaclePlanResult& result, const PlannedPath& path);

// A stretch of a route (distances along it) that comes within the clearance of one obstacle.
struct ObstacleStretch {
  double start_distance = 0.0;
  double end_distance = 0.0;
  int obstacle = -1;          // index in the obstacle set
  double min_distance = 0.0;  // smallest distance from the route to the obstacle in the stretch
};

// Stretches in route order (then by obstacle), one per obstacle and maximal run. "Within" is the
// planner's rule (ObstacleSet), so a route passing at exactly the clearance has none. Lines are
// cut exactly (roots of the distance to circles, corners and edges); Beziers are sampled at most
// a quarter of the clearance (and 1/512 of the segment) apart and their ends bisected, so a
// Bezier that grazes an obstacle between two samples can be missed.
std::vector<ObstacleStretch> FindObstacleStretches(const Route& route, const ObstacleSet& obstacles,
                                                   double clearance);

}  // namespace md5stage::cli
