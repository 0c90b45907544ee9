// Route files: {"segments":[{"line":[[x0,y0],[x1,y1]]},{"bezier":[[x0,y0],[c1x,c1y],[c2x,c2y],
// [x1,y1]]}], "closed": false} read into a validated Route (located errors) and written back.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/json.h"
#include "core/common/result.h"
#include "core/path/route.h"
#include "core/path/route_obstacles.h"

namespace md5stage {

constexpr std::size_t kMaxRouteFileSegments = 4096;

// The segments and closed flag as written, before Route::Build.
struct RouteDescription {
  std::vector<RouteSegment> segments;
  bool closed = false;
};

// Reads a parsed route object. Errors read `file:line:col: error: segments[2].bezier[1]: expected
// a point [x, y], found ...`, located at the offending value; unknown members are ignored.
// Consecutive segments must share end points (the rule of Route::Build).
Result<RouteDescription> RouteDescriptionFromJson(std::string_view file, const JsonValue& value);

// Parses and validates a whole route file.
Result<Route> ReadRouteJson(std::string_view file, std::string_view text);

// {"segments":[...]} plus "closed": true when closed; numbers read back to the same doubles.
JsonValue RouteToJson(const std::vector<RouteSegment>& segments, bool closed = false);
std::string WriteRouteJson(const Route& route, int indent = 0);

// What a route check finds, as `md5stage route --json` and the viewer's state() both report it:
// [{"start", "end", "min_radius", "min_radius_at"}] and [{"start", "end", "obstacle",
// "min_distance"}], distances along the route.
JsonValue TightStretchesToJson(const std::vector<TightStretch>& stretches);
JsonValue ObstacleStretchesToJson(const std::vector<ObstacleStretch>& stretches);

}  // namespace md5stage
