// Moves a unit with a turning radius and a speed towards a target (a point, a point with a
// heading, or a route) and gives its root pose at any time, continuous across retargeting.
#pragma once

#include <cstddef>
#include <memory>

#include "core/common/play_mode.h"
#include "core/common/result.h"
#include "core/path/obstacle_planner.h"
#include "core/path/pose.h"
#include "core/path/route.h"
#include "core/path/turn_path.h"

namespace md5stage {

// Which part of its plan a follower is on: the turn path to the point, the pose or the route's
// start (kApproach), resting at that path's end, a planned path, the route forwards or (ping-pong)
// backwards, or one of the turn paths joining a repeating route's ends.
enum class FollowerStage {
  kApproach,
  kAtEnd,
  kPlanned,
  kRoute,
  kRouteBackwards,
  kLoopBack,
  kTurnAtEnd,
  kTurnAtStart
};

struct FollowerPlace {
  FollowerStage stage = FollowerStage::kApproach;
  // Along that part's turn path or planned path; for kRoute and kRouteBackwards the route distance
  // sampled (backwards: the unit faces the other way); 0 for kAtEnd.
  double distance = 0.0;
};

// TODO(viewer): remove once src/viewer uses PlayMode

// A plan is fixed when a target is given: a turn path from the unit's pose at that moment (so
// position and heading never jump), then for a route the route itself, joined end to start by
// turn paths when it repeats. Queries are const and allocation-free.
class Follower {
 public:
  Follower() = default;
  // Non-finite or negative radius/speed count as 0 (turn in place / stand still).
  Follower(const Pose2& pose, double turning_radius, double speed, double time = 0.0);

  // Targets. Each starts a new plan at `time` from PoseAt(time). On error the plan is unchanged.
  Status GoToPoint(double time, glm::dvec2 point);    // arc + line, no final heading
  Status GoToPose(double time, const Pose2& target);  // shortest Dubins path
  // A path planned elsewhere (the obstacle planner's output, any number of segments). It must
  // start at PoseAt(time) (1e-6 relative, heading 1e-6 rad) so nothing jumps; segments finite.
  Status GoToPlanned(double time, PlannedPath path);
  // At the route's end a unit stops there (kOnce), drives back to the start and goes again (kLoop),
  // or turns round and travels the route backwards, then forwards, and so on (kPingPong).
  Status FollowRoute(double time, std::shared_ptr<const Route> route, PlayMode mode);
  void Stop(double time);  // rest where the unit is at `time`

  // Speed changes keep the distance already travelled (no jump). The turning radius applies
  // from the next target on.
  Status SetSpeed(double time, double speed);
  Status SetTurningRadius(double turning_radius);

  // Root position and heading (radians, (-π, π]) at a time. Before the plan's start: its start.
  Pose2 PoseAt(double time) const;
  // Distance travelled along the current plan at a time (0 at the plan's start).
  double DistanceAt(double time) const;
  // Where a distance along the plan falls; PoseAt samples exactly that place, so a figure of the
  // walk (FollowerWalkJob) shows the part the pose came from.
  FollowerPlace PlaceAt(double distance) const;
  // The turn path of a stage (kAtEnd: the approach); nullptr for the planned path and the route.
  const TurnPath* StageTurnPath(FollowerStage stage) const;
  // True once a point/pose target or a kOnce route is done, or after Stop.
  bool ArrivedAt(double time) const;

  double speed() const { return speed_; }
  double turning_radius() const { return turning_radius_; }
  // The plan's first turn path (to the point, the pose, or the route's start): for drawing.
  // While a planned path is followed it is planned() and approach() is a rest at its start.
  const TurnPath& approach() const { return approach_; }
  const PlannedPath* planned() const { return planned_.get(); }
  const Route* route() const { return route_.get(); }
  PlayMode route_mode() const { return mode_; }
  // The turn paths joining a repeating route's ends (empty paths when unused): kLoop drives from
  // the end back to the start; kPingPong turns round at the end, then at the start.
  const TurnPath& loop_back() const { return loop_back_; }
  const TurnPath& turn_at_end() const { return turn_at_end_; }
  const TurnPath& turn_at_start() const { return turn_at_start_; }
  // Length of a non-repeating plan; infinity for looping and ping-pong routes.
  double PlanLength() const;

 private:
  void StartPlan(double time);
  FollowerPlace PlaceOnRoute(double distance) const;
  Pose2 PoseAtPlace(const FollowerPlace& place) const;

  double turning_radius_ = 0.0;
  double speed_ = 0.0;
  // Distance along the plan is anchor_distance_ + speed_·(time - anchor_time_).
  double anchor_time_ = 0.0;
  double anchor_distance_ = 0.0;
  TurnPath approach_;
  // Shared so that copying a follower (pose jobs, snapshots) never copies the segment list.
  std::shared_ptr<const PlannedPath> planned_;
  std::shared_ptr<const Route> route_;
  PlayMode mode_ = PlayMode::kOnce;
  TurnPath loop_back_;    // kLoop: route end → route start (empty when the route is closed)
  TurnPath turn_at_end_;  // kPingPong: turn round at the end, then at the start
  TurnPath turn_at_start_;
};

// Root poses of many followers at one time (all units of a scene in a frame).
struct FollowerPoseJob {
  const Follower* followers = nullptr;
  std::size_t count = 0;
  double time = 0.0;
  Pose2* poses = nullptr;  // count entries, caller-owned

  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage
