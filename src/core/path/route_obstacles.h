// The stretches of a route that come within a clearance of obstacles (what `md5stage route
// --obstacles` lists and the viewer marks on a drawn route).
#pragma once

#include <vector>

#include "core/path/obstacles.h"
#include "core/path/route.h"

namespace md5stage {

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

}  // namespace md5stage
