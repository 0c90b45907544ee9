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

// One side's arc + line construction (Pinter, "Toward More Realistic Pathfinding", Figure 6):
// what ArcLinePathOnSide and ArcLinePath build their paths from, so that a figure of the
// construction (turn_construction.h) shows the very numbers the path was made of.
struct ArcLineSideSolution {
  bool reachable = false;        // false also for invalid input
  glm::dvec2 centre{0.0, 0.0};   // P, the turning circle's centre (set unless the input is invalid)
  double centre_distance = 0.0;  // h = |to - P|; exactly r when `to` is the origin
  // d, the straight length: 0 for a destination on the circle (within 1e-9·r), where the arc
  // alone reaches it.
  double line = 0.0;
  glm::dvec2 leave_direction{0.0, 0.0};  // unit vector from P to Q, where the line begins
  double arc = 0.0;                      // radians turned before leaving, in [0, 2π)
};

// Both inputs must be finite and radius >= 0, else nothing is reachable.
ArcLineSideSolution SolveArcLineSide(glm::dvec2 from, double heading, double radius, glm::dvec2 to,
                                     TurnSide side);
// The side ArcLinePath takes: the shorter reachable one; on equal lengths (1e-9 relative) the
// smaller turn, then left.
TurnSide ChooseArcLineSide(const ArcLineSideSolution& left, const ArcLineSideSolution& right,
                           double radius);
// The path of one side's solution (what ArcLinePathOnSide returns); kNone when unreachable.
TurnPath BuildArcLinePath(glm::dvec2 from, double heading, double radius, TurnSide side,
                          const ArcLineSideSolution& solution);

// Lengths of the six Dubins words in the order LSL, LSR, RSL, RSR, RLR, LRL; NaN = infeasible.
std::array<double, 6> DubinsWordLengths(const Pose2& from, const Pose2& to, double radius);

// One Dubins word (type must be one of kLSL..kLRL), or kNone when it is infeasible.
TurnPath DubinsPathOfType(const Pose2& from, const Pose2& to, double radius, TurnPathType type);

// The length of DubinsPath(from, to, radius) for radius > 0 (infinity when there is none),
// without building it: the planner's heuristic asks for it at every state it reaches.
double ShortestDubinsLength(const Pose2& from, const Pose2& to, double radius);

// The shortest Dubins word (radius > 0) of at most `max_length` that `accept` takes, trying the
// words shortest first (equal lengths in the order of DubinsWordLengths), or kNone. Each word
// is solved once for all (DubinsWordLengths then DubinsPathOfType would solve the tried ones
// twice) and built only when tried: the same paths as DubinsPathOfType.
TurnPath FirstDubinsWord(const Pose2& from, const Pose2& to, double radius, double max_length,
                         bool (*accept)(const TurnPath& word, void* context), void* context);

// Shortest path from `from` to `to` (final heading required) with turning radius `radius` over
// all six words. Outer arcs within 1e-9 rad of a full turn count as no turn. radius 0 turns in
// place (type by the directions of the two turns).
TurnPath DubinsPath(const Pose2& from, const Pose2& to, double radius);

// Position and heading (in (-π, π]) after travelling `distance` along the path; before the start
// the unit is at the start, beyond the end it rests at the end.
Pose2 SampleTurnPath(const TurnPath& path, double distance);

// Where `distance` along a path falls: the segment SampleTurnPath samples and the distance into
// it. Distances <= 0 (and NaN) count as 0; zero-length segments are skipped; segment ==
// segment_count once the path is walked (the unit rests at its end).
struct TurnPathPlace {
  int segment = 0;
  double distance = 0.0;
};
TurnPathPlace LocateOnTurnPath(const TurnPath& path, double distance);

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
