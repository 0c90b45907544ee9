#include "core/path/follower.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <utility>

namespace md5stage {
namespace {

double NonNegativeOrZero(double value) { return std::isfinite(value) && value > 0.0 ? value : 0.0; }

TurnPath RestAt(const Pose2& pose) {
  TurnPath path;
  path.start = {pose.position, WrapPi(pose.heading)};
  path.end = path.start;
  return path;
}

bool SamePlace(glm::dvec2 a, glm::dvec2 b) {
  const double size = std::max({1.0, std::abs(a.x), std::abs(a.y), std::abs(b.x), std::abs(b.y)});
  return glm::length(a - b) <= 1e-9 * size;
}

Pose2 Reversed(Pose2 pose) {
  pose.heading = WrapPi(pose.heading + kPi);
  return pose;
}

}  // namespace

Follower::Follower(const Pose2& pose, double turning_radius, double speed, double time)
    : turning_radius_(NonNegativeOrZero(turning_radius)),
      speed_(NonNegativeOrZero(speed)),
      anchor_time_(std::isfinite(time) ? time : 0.0),
      approach_(RestAt(pose)) {}

void Follower::StartPlan(double time) {
  anchor_time_ = time;
  anchor_distance_ = 0.0;
  planned_.reset();
  route_.reset();
  mode_ = PlayMode::kOnce;
  loop_back_ = TurnPath();
  turn_at_end_ = TurnPath();
  turn_at_start_ = TurnPath();
}

Status Follower::GoToPoint(double time, glm::dvec2 point) {
  if (!std::isfinite(time) || !IsFinite(point)) {
    return MakeError("", 0, 0, "GoToPoint: time and point must be finite");
  }
  const Pose2 now = PoseAt(time);
  TurnPath path = ArcLinePath(now.position, now.heading, turning_radius_, point);
  if (!path.ok()) return MakeError("", 0, 0, "GoToPoint: no arc + line path to the point");
  StartPlan(time);
  approach_ = path;
  return {};
}

Status Follower::GoToPose(double time, const Pose2& target) {
  if (!std::isfinite(time) || !IsFinite(target.position) || !std::isfinite(target.heading)) {
    return MakeError("", 0, 0, "GoToPose: time and target must be finite");
  }
  const Pose2 now = PoseAt(time);
  TurnPath path = DubinsPath(now, target, turning_radius_);
  if (!path.ok()) return MakeError("", 0, 0, "GoToPose: no path to the pose");
  StartPlan(time);
  approach_ = path;
  return {};
}

Status Follower::GoToPlanned(double time, PlannedPath path) {
  if (!std::isfinite(time)) return MakeError("", 0, 0, "GoToPlanned: time must be finite");
  if (!IsFinite(path.start.position) || !std::isfinite(path.start.heading) ||
      !IsFinite(path.end.position) || !std::isfinite(path.end.heading) ||
      !std::isfinite(path.length) || path.length < 0.0) {
    return MakeError("", 0, 0, "GoToPlanned: the path's start, end and length must be finite");
  }
  for (const TurnSegment& s : path.segments) {
    if (!std::isfinite(s.length) || s.length < 0.0 || !IsFinite(s.start.position) ||
        !std::isfinite(s.start.heading) || !IsFinite(s.centre) || !std::isfinite(s.start_angle) ||
        !std::isfinite(s.sweep) || !std::isfinite(s.radius) || !std::isfinite(s.angle)) {
      return MakeError("", 0, 0, "GoToPlanned: a segment has a non-finite value");
    }
  }
  const Pose2 now = PoseAt(time);
  const double size =
      std::max({1.0, std::abs(now.position.x), std::abs(now.position.y), path.length});
  if (glm::length(path.start.position - now.position) > 1e-6 * size ||
      std::abs(WrapPi(path.start.heading - now.heading)) > 1e-6) {
    return MakeError("", 0, 0, "GoToPlanned: the path does not start where the unit is");
  }
  StartPlan(time);
  approach_ = RestAt(now);
  planned_ = std::make_shared<const PlannedPath>(std::move(path));
  return {};
}

Status Follower::FollowRoute(double time, std::shared_ptr<const Route> route, PlayMode mode) {
  if (!std::isfinite(time)) return MakeError("", 0, 0, "FollowRoute: time must be finite");
  if (route == nullptr || route->segments().empty()) {
    return MakeError("", 0, 0, "FollowRoute: no route");
  }
  const Pose2 now = PoseAt(time);
  const Pose2 start = route->Sample(0.0);
  const Pose2 end = route->Sample(route->length());
  TurnPath approach = DubinsPath(now, start, turning_radius_);
  if (!approach.ok()) return MakeError("", 0, 0, "FollowRoute: no path to the route's start");
  StartPlan(time);
  approach_ = approach;
  route_ = std::move(route);
  mode_ = mode;
  if (mode == PlayMode::kLoop) {
    // A route that ends where it starts repeats directly (a heading mismatch there is a kink of
    // the route, like any other); an open one drives back to its start.
    loop_back_ = SamePlace(end.position, start.position) ? RestAt(end)
                                                         : DubinsPath(end, start, turning_radius_);
  } else if (mode == PlayMode::kPingPong) {
    turn_at_end_ = DubinsPath(end, Reversed(end), turning_radius_);
    turn_at_start_ = DubinsPath(Reversed(start), start, turning_radius_);
  }
  return {};
}

void Follower::Stop(double time) {
  if (!std::isfinite(time)) return;
  const Pose2 now = PoseAt(time);
  StartPlan(time);
  approach_ = RestAt(now);
}

Status Follower::SetSpeed(double time, double speed) {
  if (!std::isfinite(time) || !std::isfinite(speed) || speed < 0.0) {
    return MakeError("", 0, 0, "SetSpeed: speed must be a finite number >= 0");
  }
  anchor_distance_ = DistanceAt(time);
  anchor_time_ = time;
  speed_ = speed;
  return {};
}

Status Follower::SetTurningRadius(double turning_radius) {
  if (!std::isfinite(turning_radius) || turning_radius < 0.0) {
    return MakeError("", 0, 0, "SetTurningRadius: radius must be a finite number >= 0");
  }
  turning_radius_ = turning_radius;
  return {};
}

double Follower::DistanceAt(double time) const {
  const double distance = anchor_distance_ + speed_ * (time - anchor_time_);
  return distance > 0.0 ? distance : 0.0;  // NaN time: the plan's start
}

double Follower::PlanLength() const {
  if (planned_ != nullptr) return planned_->length;
  if (route_ == nullptr) return approach_.length;
  if (mode_ != PlayMode::kOnce) return std::numeric_limits<double>::infinity();
  return approach_.length + route_->length();
}

bool Follower::ArrivedAt(double time) const {
  const double length = PlanLength();
  return DistanceAt(time) >= length - 1e-12 * std::max(1.0, length);  // speed·(length/speed)
}

FollowerPlace Follower::PlaceOnRoute(double distance) const {
  const double length = route_->length();
  switch (mode_) {
    case PlayMode::kOnce:
      return {FollowerStage::kRoute, std::min(distance, length)};
    case PlayMode::kLoop: {
      const double period = length + loop_back_.length;
      if (!(period > 0.0)) return {FollowerStage::kRoute, 0.0};
      distance = std::fmod(distance, period);
      if (distance < length) return {FollowerStage::kRoute, distance};
      return {FollowerStage::kLoopBack, distance - length};
    }
    case PlayMode::kPingPong: {
      const double period = 2.0 * length + turn_at_end_.length + turn_at_start_.length;
      if (!(period > 0.0)) return {FollowerStage::kRoute, 0.0};
      distance = std::fmod(distance, period);
      if (distance < length) return {FollowerStage::kRoute, distance};
      distance -= length;
      if (distance < turn_at_end_.length) return {FollowerStage::kTurnAtEnd, distance};
      distance -= turn_at_end_.length;
      if (distance < length) return {FollowerStage::kRouteBackwards, length - distance};
      return {FollowerStage::kTurnAtStart, distance - length};
    }
  }
  return {FollowerStage::kRoute, 0.0};
}

FollowerPlace Follower::PlaceAt(double distance) const {
  if (planned_ != nullptr) return {FollowerStage::kPlanned, distance};
  if (distance < approach_.length) return {FollowerStage::kApproach, distance};
  if (route_ == nullptr) return {FollowerStage::kAtEnd, 0.0};
  return PlaceOnRoute(distance - approach_.length);
}

const TurnPath* Follower::StageTurnPath(FollowerStage stage) const {
  switch (stage) {
    case FollowerStage::kApproach:
    case FollowerStage::kAtEnd:
      return &approach_;
    case FollowerStage::kLoopBack:
      return &loop_back_;
    case FollowerStage::kTurnAtEnd:
      return &turn_at_end_;
    case FollowerStage::kTurnAtStart:
      return &turn_at_start_;
    case FollowerStage::kPlanned:
    case FollowerStage::kRoute:
    case FollowerStage::kRouteBackwards:
      break;
  }
  return nullptr;
}

Pose2 Follower::PoseAtPlace(const FollowerPlace& place) const {
  switch (place.stage) {
    case FollowerStage::kPlanned:
      return SamplePlannedPath(*planned_, place.distance);
    case FollowerStage::kAtEnd:
      return approach_.end;
    case FollowerStage::kRoute:
      return route_->Sample(place.distance);
    case FollowerStage::kRouteBackwards:
      return Reversed(route_->Sample(place.distance));
    case FollowerStage::kApproach:
    case FollowerStage::kLoopBack:
    case FollowerStage::kTurnAtEnd:
    case FollowerStage::kTurnAtStart:
      break;
  }
  return SampleTurnPath(*StageTurnPath(place.stage), place.distance);
}

Pose2 Follower::PoseAt(double time) const { return PoseAtPlace(PlaceAt(DistanceAt(time))); }

bool FollowerPoseJob::Validate() const {
  return count == 0 || (followers != nullptr && poses != nullptr);
}

bool FollowerPoseJob::Run() const {
  if (!Validate()) return false;
  for (std::size_t i = 0; i < count; ++i) poses[i] = followers[i].PoseAt(time);
  return true;
}

}  // namespace md5stage
