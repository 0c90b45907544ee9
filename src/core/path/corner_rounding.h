// Automatic corner rounding for routes: every kink is replaced by a circular fillet of the unit's
// turning radius (cubic Bezier arcs), shrunk where it does not fit, with a report of what is left
// tighter than the radius.
#pragma once

#include <cstddef>
#include <vector>

#include "core/common/result.h"
#include "core/path/pose.h"
#include "core/path/route.h"

namespace md5stage {

// Arcs are cut into pieces of at most this angle: the standard cubic (handles 4/3·tan(θ/4)·r)
// then keeps its radius of curvature within 0.03% of the circle's (a 90° piece strays 2%).
constexpr double kMaxArcPieceAngle = kPi / 6.0;

// Smallest radius of curvature of the standard cubic approximating an arc of unit radius and
// the given angle (slightly below 1; the curve's dip is between its ends and its middle).
double StandardArcMinRadius(double angle);

// Appends the cubic Beziers of a circular arc around `center`, starting at angle `start_angle`
// (radians, from +x) and turning by `sweep` (positive = counter-clockwise), in pieces of at most
// kMaxArcPieceAngle. Nothing is appended for a zero sweep or a non-positive radius.
void AppendArcBeziers(glm::dvec2 center, double radius, double start_angle, double sweep,
                      std::vector<RouteSegment>* out);

// One corner of the input route and what became of it.
struct RoundedCorner {
  std::size_t segment = 0;  // input segment arriving at the corner (the next one leaves it)
  glm::dvec2 point{0.0, 0.0};
  double turn = 0.0;        // signed deflection of the direction of travel, (-π, π]
  double radius = 0.0;      // radius of the fillet's circle; 0 when the corner was left sharp
  double min_radius = 0.0;  // smallest radius of curvature of the fillet as built (0: sharp)
  bool tight = false;       // min_radius < the turning radius (shrunk to fit, or a U-turn)
  std::size_t first_output_segment = 0;  // the fillet's pieces in the output (none when sharp)
  std::size_t output_segment_count = 0;
  // Where the fillet starts and ends along the rounded route (equal for a sharp corner), e.g. to
  // show the corner's radius on hover.
  double start_distance = 0.0;
  double end_distance = 0.0;
};

// A stretch of an input Bezier that is itself tighter than the turning radius (not a corner).
struct TightCurve {
  std::size_t segment = 0;  // input segment
  TightStretch stretch;     // distances along the rounded route
};

struct RoundedRoute {
  std::vector<RouteSegment> segments;
  bool closed = false;
  Route route;  // the segments built (valid), so callers need not build them again
  // Per output segment: the input segment it was cut from, or -1 for a fillet piece.
  std::vector<int> source;
  std::vector<RoundedCorner> corners;  // in route order (the closing join last)
  std::vector<TightCurve> tight_curves;

  // Nothing left tighter than the turning radius.
  bool clear() const;
};

// Rounds the corners of a valid segment chain (as Route::Build accepts it) with fillets of
// `turning_radius` (enlarged by about 1e-4 so the cubic arcs' radius of curvature never drops
// below it). A corner is a join whose directions differ by more than 5e-8 rad (the path core flags
// 1e-7). Fillets on lines and curves alike are tangent to both sides (on curves the tangent points
// are solved for); where two fillets compete for one segment it is shared out and the fillets
// shrink; a U-turn (a reversal of 180°), or a corner whose fillet would have to be shorter than
// 1e-6 of the coordinates' size, stays sharp. Zero-length segments are dropped. An input
// without corners comes back unchanged.
Result<RoundedRoute> RoundCorners(const std::vector<RouteSegment>& segments, bool closed,
                                  double turning_radius);

}  // namespace md5stage
