#include "core/path/turn_construction.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/path/route.h"

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string Num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

bool InRange(double value) { return std::abs(value) <= kMaxRouteCoordinate; }

Diagnostic Error(const std::string& message) {
  return MakeError("", 0, 0, "turn construction: " + message);
}

void FillSide(const TurnConstructionJob& job, TurnSide side, const ArcLineSideSolution& solution,
              ArcLineConstructionSide* out) {
  const double r = job.radius;
  out->side = side;
  out->centre = solution.centre;
  out->h = solution.centre_distance;
  const glm::dvec2 to_destination = job.destination - solution.centre;
  out->phi = std::atan2(to_destination.y, to_destination.x);
  out->reachable = solution.reachable;
  out->chosen = false;
  out->path = BuildArcLinePath(job.origin.position, job.origin.heading, r, side, solution);
  if (!solution.reachable) {
    out->d = out->theta = out->leave_angle = kNaN;
    out->arc_angle = out->arc_length = out->length = kNaN;
    out->leave = {kNaN, kNaN};
    return;
  }
  out->d = solution.line;
  // arccos(r / h) as the angle of (r, d): the same angle, but acos loses half the digits as h
  // approaches r, and d is what the path was built with (0 on the circle within 1e-9·r).
  out->theta = std::atan2(solution.line, r);
  // Q as the path has it (the line's start, bit for bit), not re-derived from phi ∓ theta.
  out->leave = solution.centre + r * solution.leave_direction;
  out->leave_angle = std::atan2(solution.leave_direction.y, solution.leave_direction.x);
  out->arc_angle = solution.arc;
  out->arc_length = r * solution.arc;
  out->length = out->arc_length + solution.line;
}

void CopyWalkSegments(const TurnPath& path, FollowerWalk* out) {
  out->segment_count = path.segment_count;
  double start = 0.0;
  for (int i = 0; i < path.segment_count; ++i) {
    const TurnSegment& from = path.segments[i];
    WalkSegment& to = out->segments[i];
    to.kind = from.kind;
    to.length = from.length;
    to.start_distance = start;
    to.start = from.start;
    const bool arc = from.kind == TurnSegment::Kind::kArc;
    to.centre = arc ? from.centre : glm::dvec2(0.0, 0.0);
    to.radius = arc ? from.radius : 0.0;
    to.sweep = arc ? from.sweep : 0.0;
    start += from.length;
  }
}

}  // namespace

Status TurnConstructionJob::Validate() const {
  if (out == nullptr) return Error("out: an output construction is required");
  if (!IsFinite(origin.position) || !std::isfinite(origin.heading)) {
    return Error("origin: expected a finite position and heading");
  }
  if (!IsFinite(destination)) return Error("destination: expected a finite point");
  if (has_final_heading && !std::isfinite(final_heading)) {
    return Error("final_heading: expected a finite angle, found " + Num(final_heading));
  }
  if (!(radius >= 0.0) || !InRange(radius)) {
    return Error("radius: expected a number >= 0 and <= 1e15, found " + Num(radius));
  }
  if (!InRange(origin.position.x) || !InRange(origin.position.y)) {
    return Error("origin: expected coordinates within 1e15");
  }
  if (!InRange(destination.x) || !InRange(destination.y)) {
    return Error("destination: expected coordinates within 1e15");
  }
  return {};
}

Status TurnConstructionJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  TurnConstruction& c = *out;
  const glm::dvec2 from = origin.position;
  const ArcLineSideSolution left =
      SolveArcLineSide(from, origin.heading, radius, destination, TurnSide::kLeft);
  const ArcLineSideSolution right =
      SolveArcLineSide(from, origin.heading, radius, destination, TurnSide::kRight);
  FillSide(*this, TurnSide::kLeft, left, &c.sides[0]);
  FillSide(*this, TurnSide::kRight, right, &c.sides[1]);
  c.chosen_side = -1;
  if (left.reachable || right.reachable) {
    c.chosen_side = ChooseArcLineSide(left, right, radius) == TurnSide::kLeft ? 0 : 1;
    c.sides[c.chosen_side].chosen = true;
  }
  c.arc_line = ArcLinePath(from, origin.heading, radius, destination);

  c.has_final_heading = has_final_heading;
  c.shortest_dubins = -1;
  c.dubins_path = TurnPath();
  constexpr TurnPathType kWords[TurnConstruction::kDubinsWords] = {
      TurnPathType::kLSL, TurnPathType::kLSR, TurnPathType::kRSL,
      TurnPathType::kRSR, TurnPathType::kRLR, TurnPathType::kLRL};
  for (int w = 0; w < TurnConstruction::kDubinsWords; ++w) {
    DubinsCandidate& candidate = c.dubins[w];
    candidate.type = kWords[w];
    candidate.exists = false;
    candidate.shortest = false;
    candidate.path = TurnPath();
  }
  if (!has_final_heading) return {};
  const Pose2 target = {destination, final_heading};
  for (int w = 0; w < TurnConstruction::kDubinsWords; ++w) {
    DubinsCandidate& candidate = c.dubins[w];
    candidate.path = DubinsPathOfType(origin, target, radius, kWords[w]);
    candidate.exists = candidate.path.ok();
  }
  c.dubins_path = DubinsPath(origin, target, radius);
  for (int w = 0; w < TurnConstruction::kDubinsWords && c.dubins_path.ok(); ++w) {
    DubinsCandidate& candidate = c.dubins[w];
    if (candidate.type != c.dubins_path.type) continue;
    // Radius 0 (or one negligible against the distance) has no Dubins frame: DubinsPath turns in
    // place instead, and that path is the one candidate.
    if (!candidate.exists) {
      candidate.path = c.dubins_path;
      candidate.exists = true;
    }
    candidate.shortest = true;
    c.shortest_dubins = w;
  }
  return {};
}

Status FollowerWalkJob::Validate() const {
  if (follower == nullptr) return MakeError("", 0, 0, "follower walk: follower: required");
  if (out == nullptr) return MakeError("", 0, 0, "follower walk: out: an output walk is required");
  if (!std::isfinite(time)) {
    return MakeError("", 0, 0, "follower walk: time: expected a finite number, found " + Num(time));
  }
  return {};
}

Status FollowerWalkJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  FollowerWalk& walk = *out;
  walk.plan_distance = follower->DistanceAt(time);
  const FollowerPlace place = follower->PlaceAt(walk.plan_distance);
  walk.stage = place.stage;
  walk.stage_distance = place.distance;
  walk.pose = follower->PoseAt(time);
  walk.arrived = follower->ArrivedAt(time);
  walk.segment_count = 0;
  walk.current_segment = -1;
  walk.distance_into_segment = 0.0;
  const TurnPath* path = follower->StageTurnPath(place.stage);
  if (path == nullptr) return {};
  CopyWalkSegments(*path, &walk);
  if (place.stage == FollowerStage::kAtEnd) {
    walk.current_segment = path->segment_count;
    return {};
  }
  const TurnPathPlace on_path = LocateOnTurnPath(*path, place.distance);
  walk.current_segment = on_path.segment;
  walk.distance_into_segment = on_path.distance;
  return {};
}

}  // namespace md5stage
