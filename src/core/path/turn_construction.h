// The numbers behind a turning-radius path, for figures and `turn --explain`: Pinter's arc + line
// construction on both circles, the Dubins candidates, and the segments a follower walks.
#pragma once

#include <array>

#include "core/common/result.h"
#include "core/path/follower.h"
#include "core/path/pose.h"
#include "core/path/turn_path.h"

namespace md5stage {

// One turning circle of the arc + line construction ("Toward More Realistic Pathfinding",
// Figures 5 and 6). Taken from SolveArcLineSide, the very solution ArcLinePath builds from, so
// a figure cannot disagree with the path the unit walks.
struct ArcLineConstructionSide {
  TurnSide side = TurnSide::kLeft;
  glm::dvec2 centre{0.0, 0.0};  // P: at distance r from the origin, a quarter turn off the heading
  double h = 0.0;               // |destination - P|
  double phi = 0.0;             // angle from P to the destination, (-π, π]
  // h >= r; within the path code's 1e-9·r of the circle the destination counts as on it (d = 0).
  bool reachable = false;
  // When reachable (NaN otherwise):
  double d = 0.0;      // sqrt(h² - r²): the straight part
  double theta = 0.0;  // arccos(r / h), the angle at P between the destination and Q
  // Q = P + r·(cos(phi ∓ theta), sin(phi ∓ theta)), − on the left circle, + on the right: where
  // the arc ends and the line begins.
  glm::dvec2 leave{0.0, 0.0};
  double leave_angle = 0.0;  // phi ∓ theta, the angle from P to Q, (-π, π]
  double arc_angle = 0.0;    // radians turned on the circle, [0, 2π)
  double arc_length = 0.0;   // r·arc_angle
  double length = 0.0;       // arc_length + d
  bool chosen = false;       // this side is the path ArcLinePath returns
  TurnPath path;             // this side's path (kNone when unreachable): for drawing
};

// One Dubins word between the origin pose and the destination with the final heading.
struct DubinsCandidate {
  TurnPathType type = TurnPathType::kNone;  // the word, set even when it does not exist
  bool exists = false;
  bool shortest = false;  // the path DubinsPath returns
  TurnPath path;          // length, segments and their lengths; kNone when it does not exist
};

struct TurnConstruction {
  static constexpr int kDubinsWords = 6;
  std::array<ArcLineConstructionSide, 2> sides{};  // [0] left, [1] right
  int chosen_side = -1;                            // index into sides; -1: both unreachable
  TurnPath arc_line;                               // ArcLinePath's answer
  bool has_final_heading = false;
  // In DubinsWordLengths' order: LSL, LSR, RSL, RSR, RLR, LRL. Radius 0 turns in place: then
  // the one candidate is DubinsPath's turn-straight-turn path.
  std::array<DubinsCandidate, kDubinsWords> dubins{};
  int shortest_dubins = -1;  // index into dubins; -1 without a final heading
  TurnPath dubins_path;      // DubinsPath's answer
};

// The construction for an origin pose, a turning radius and a destination (with a final heading:
// the Dubins candidates too).
struct TurnConstructionJob {
  Pose2 origin;
  double radius = 1.0;  // >= 0 (0 turns in place)
  glm::dvec2 destination{0.0, 0.0};
  bool has_final_heading = false;
  double final_heading = 0.0;
  TurnConstruction* out = nullptr;  // caller-owned, overwritten

  // Errors name the field: out missing, origin / destination / final_heading not finite,
  // radius not a number in [0, 1e15], coordinates beyond 1e15 (kMaxRouteCoordinate, as routes).
  Status Validate() const;
  Status Run() const;  // validates first; no allocation
};

// One segment of the turn path a follower is walking.
struct WalkSegment {
  TurnSegment::Kind kind = TurnSegment::Kind::kLine;
  double length = 0.0;
  double start_distance = 0.0;  // along the turn path
  Pose2 start;
  glm::dvec2 centre{0.0, 0.0};  // arcs
  double radius = 0.0;          // arcs
  double sweep = 0.0;           // arcs: radians, > 0 left
};

// Where a follower is at a time, as Follower::PoseAt finds it.
struct FollowerWalk {
  FollowerStage stage = FollowerStage::kApproach;
  double plan_distance = 0.0;   // Follower::DistanceAt
  double stage_distance = 0.0;  // FollowerPlace::distance: into the stage
  // The stage's turn path (at most TurnPath::kMaxSegments segments). On a planned path or the
  // route itself there is none: segment_count 0.
  int segment_count = 0;
  std::array<WalkSegment, TurnPath::kMaxSegments> segments{};
  // Index of the segment the unit is on and the distance into it (LocateOnTurnPath);
  // current_segment == segment_count once the path is walked, -1 without a turn path.
  int current_segment = -1;
  double distance_into_segment = 0.0;
  Pose2 pose;  // Follower::PoseAt(time)
  bool arrived = false;
};

struct FollowerWalkJob {
  const Follower* follower = nullptr;
  double time = 0.0;
  FollowerWalk* out = nullptr;  // caller-owned, overwritten

  Status Validate() const;  // follower and out required, time finite
  Status Run() const;       // validates first; no allocation
};

}  // namespace md5stage
