// Paths for a unit with a turning radius: arc + line to a point (no final heading) and the
// shortest Dubins path (arc, line or arc, arc) to a point with a required final heading.
#pragma once

#include <array>
#include <cstddef>

#include "core/path/pose.h"

namespace md5stage {

struct TurnSegment {
  enum class Kind { kArc, kLine };
  Kind kind = Kind::kLine;
  Pose2 start;          // where the segment begins and the heading there
  double length = 0.0;  // distance travelled along it
  // Arc: the unit is at centre + radius·(cos a, sin a) with a = start_angle + sweep·(s/length);
  // sweep > 0 turns left (counter-clockwise).
  glm::dvec2 centre{0.0, 0.0};
  double start_angle = 0.0;
  double sweep = 0.0;
  double radius = 0.0;
  // Line: heading of travel (equals start.heading).
  double angle = 0.0;
};

// kNone: no path (unreachable, or invalid input). LS/RS: arc + line. The rest: Dubins words.
enum class TurnPathType { kNone, kLS, kRS, kLSL, kLSR, kRSL, kRSR, kRLR, kLRL };

// "LS", "RSL", ...; "unreachable" for kNone.
const char* TurnPathTypeName(TurnPathType type);

struct TurnPath {
  static constexpr int kMaxSegments = 4;
  TurnPathType type = TurnPathType::kNone;
  int segment_count = 0;
  std::array<TurnSegment, kMaxSegments> segments{};
  double length = 0.0;
  Pose2 start;
  Pose2 end;  // where the unit rests after the path

  bool ok() const { return type != TurnPathType::kNone; }
};

enum class TurnSide { kLeft, kRight };

// Turn on the circle of `side` until pointing at `to`, then go straight. kNone when `to` lies
// inside that circle. A destination on the circle (within 1e-9·r) is reached by the arc alone; the
// origin itself gives a path of length 0. radius 0 turns in place.
TurnPath ArcLinePathOnSide(glm::dvec2 from, double heading, double radius, glm::dvec2 to,
                           TurnSide side);

// The shorter of the two sides (left on a tie; kNone only for invalid input).
TurnPath ArcLinePath(glm::dvec2 from, double heading, double radius, glm::dvec2 to);

// Lengths of the six Dubins words in the order LSL, LSR, RSL, RSR, RLR, LRL; NaN = infeasible.
std::array<double, 6> DubinsWordLengths(const Pose2& from, const Pose2& to, double radius);

// One Dubins word (type must be one of kLSL..kLRL), or kNone when it is infeasible.
TurnPath DubinsPathOfType(const Pose2& from, const Pose2& to, double radius, TurnPathType type);

// Shortest path from `from` to `to` (final heading required) with turning radius `radius` over
// all six words. Outer arcs within 1e-9 rad of a full turn count as no turn. radius 0 turns in
// place (type by the directions of the two turns).
TurnPath DubinsPath(const Pose2& from, const Pose2& to, double radius);

// Position and heading (in (-π, π]) after travelling `distance` along the path; before the start
// the unit is at the start, beyond the end it rests at the end.
Pose2 SampleTurnPath(const TurnPath& path, double distance);

// Samples one path at many distances (drawing, or several units on one path).
struct TurnPathSampleJob {
  const TurnPath* path = nullptr;
  const double* distances = nullptr;
  std::size_t count = 0;
  Pose2* poses = nullptr;  // count entries, caller-owned

  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage
