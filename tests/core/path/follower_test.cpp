// The follower: arrival at point and pose targets, route modes, and no jump in position or
// heading when a target or the speed changes while moving.
#include "core/path/follower.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "core/path/route_json.h"

namespace md5stage {
namespace {

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

std::shared_ptr<const Route> MakeRoute(std::vector<RouteSegment> segments, bool closed = false) {
  Result<Route> route = Route::Build(std::move(segments), closed);
  EXPECT_TRUE(route.ok());
  return std::make_shared<const Route>(std::move(route).value());
}

// A smooth open S-curve: line, Bezier, line with matching tangents.
std::shared_ptr<const Route> SmoothOpenRoute() {
  return MakeRoute({RouteSegment::Line({0, 0}, {100, 0}),
                    RouteSegment::Bezier({100, 0}, {160, 0}, {140, 80}, {200, 80}),
                    RouteSegment::Line({200, 80}, {300, 80})});
}

// Walks the follower from t0 to t1: every step moves at most speed·dt, and the heading turns at
// most dt·speed/radius (plus `kink_allowance` where the route itself has kinks).
void ExpectNoJumps(const Follower& follower, double t0, double t1, double radius,
                   int steps = 20000) {
  const double dt = (t1 - t0) / steps;
  Pose2 previous = follower.PoseAt(t0);
  for (int i = 1; i <= steps; ++i) {
    const Pose2 pose = follower.PoseAt(t0 + i * dt);
    const double step = follower.speed() * dt;
    ASSERT_LE(glm::length(pose.position - previous.position), step * (1 + 1e-6) + 1e-7)
        << "at t = " << t0 + i * dt;
    if (radius > 0) {
      ASSERT_LE(AngleGap(pose.heading, previous.heading), step / radius * (1 + 1e-6) + 1e-6)
          << "at t = " << t0 + i * dt;
    }
    previous = pose;
  }
}

// A planned path of two Dubins paths end to end (three segments each, six in all): the form the
// obstacle planner returns.
PlannedPath SixSegmentPath(const Pose2& a, const Pose2& b, const Pose2& c, double radius) {
  PlannedPath path;
  path.start = a;
  for (const TurnPath& part : {DubinsPath(a, b, radius), DubinsPath(b, c, radius)}) {
    EXPECT_EQ(part.segment_count, 3);
    for (int i = 0; i < part.segment_count; ++i) path.segments.push_back(part.segments[i]);
    path.length += part.length;
    path.end = part.end;
  }
  return path;
}

TEST(Follower, StandsStillUntilGivenATarget) {
  const Follower follower({{3, 4}, 1.0}, 10.0, 50.0);
  const Pose2 pose = follower.PoseAt(100.0);
  EXPECT_EQ(pose.position, glm::dvec2(3, 4));
  EXPECT_EQ(pose.heading, 1.0);
  EXPECT_TRUE(follower.ArrivedAt(0.0));
}

TEST(Follower, GoesToAPointAlongTheArcLinePathAndRestsThere) {
  Follower follower({{0, 0}, 0.0}, 20.0, 10.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, {0, 200}).ok());
  const TurnPath expected = ArcLinePath({0, 0}, 0.0, 20.0, {0, 200});
  EXPECT_NEAR(follower.approach().length, expected.length, 1e-12);
  const double arrival = expected.length / 10.0;
  for (double t : {0.0, 0.3 * arrival, 0.7 * arrival}) {
    const Pose2 a = follower.PoseAt(t);
    const Pose2 b = SampleTurnPath(expected, 10.0 * t);
    EXPECT_NEAR(glm::length(a.position - b.position), 0.0, 1e-9);
    EXPECT_NEAR(AngleGap(a.heading, b.heading), 0.0, 1e-12);
  }
  EXPECT_FALSE(follower.ArrivedAt(0.9 * arrival));
  EXPECT_TRUE(follower.ArrivedAt(arrival));
  const Pose2 rest = follower.PoseAt(arrival + 50.0);
  EXPECT_NEAR(rest.position.x, 0.0, 1e-9);
  EXPECT_NEAR(rest.position.y, 200.0, 1e-9);
  EXPECT_NEAR(AngleGap(rest.heading, expected.end.heading), 0.0, 1e-12);  // along the line
  ExpectNoJumps(follower, 0.0, arrival * 1.1, 20.0);
}

TEST(Follower, GoesToAPoseWithTheRequiredHeading) {
  Follower follower({{0, 0}, 0.0}, 5.0, 2.0);
  ASSERT_TRUE(follower.GoToPose(1.0, {{-30, 10}, -kPi / 2}).ok());
  const double arrival = 1.0 + follower.approach().length / 2.0;
  const Pose2 end = follower.PoseAt(arrival);
  EXPECT_NEAR(end.position.x, -30.0, 1e-9);
  EXPECT_NEAR(end.position.y, 10.0, 1e-9);
  EXPECT_NEAR(AngleGap(end.heading, -kPi / 2), 0.0, 1e-9);
  // Before the target was given (t < 1) the plan's start holds.
  EXPECT_EQ(follower.PoseAt(0.5).position, glm::dvec2(0, 0));
  ExpectNoJumps(follower, 1.0, arrival + 1.0, 5.0);
}

TEST(Follower, RetargetingWhileMovingIsContinuous) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> coordinate(-100, 100), angle(-kPi, kPi);
  Follower follower({{0, 0}, 0.0}, 8.0, 15.0);
  double time = 0.0;
  for (int i = 0; i < 60; ++i) {
    const Pose2 before = follower.PoseAt(time);
    Status status;
    switch (i % 3) {
      case 0:
        status = follower.GoToPoint(time, {coordinate(rng), coordinate(rng)});
        break;
      case 1:
        status = follower.GoToPose(time, {{coordinate(rng), coordinate(rng)}, angle(rng)});
        break;
      default:
        status = follower.SetSpeed(time, 5.0 + i % 7);
        break;
    }
    ASSERT_TRUE(status.ok());
    const Pose2 after = follower.PoseAt(time);
    ASSERT_NEAR(glm::length(after.position - before.position), 0.0, 1e-9) << "retarget " << i;
    ASSERT_NEAR(AngleGap(after.heading, before.heading), 0.0, 1e-9) << "retarget " << i;
    const double next = time + 0.2 + 0.1 * (i % 5);
    ExpectNoJumps(follower, time, next, 8.0, 500);
    time = next;
  }
}

TEST(Follower, RouteOnceApproachesThenFollowsAndStopsAtTheEnd) {
  const auto route = SmoothOpenRoute();
  // Already at the start with the start heading: no approach.
  Follower on_start({{0, 0}, 0.0}, 10.0, 20.0);
  ASSERT_TRUE(on_start.FollowRoute(0.0, route, PlayMode::kOnce).ok());
  EXPECT_NEAR(on_start.approach().length, 0.0, 1e-9);
  for (double t : {1.0, 7.0, 12.5}) {
    const Pose2 a = on_start.PoseAt(t);
    const Pose2 b = route->Sample(20.0 * t);
    EXPECT_NEAR(glm::length(a.position - b.position), 0.0, 1e-9);
    EXPECT_NEAR(AngleGap(a.heading, b.heading), 0.0, 1e-12);
  }
  const double end_time = route->length() / 20.0;
  EXPECT_TRUE(on_start.ArrivedAt(end_time));
  EXPECT_NEAR(glm::length(on_start.PoseAt(end_time + 10).position - glm::dvec2(300, 80)), 0.0,
              1e-9);
  // From elsewhere: a Dubins approach to the start pose first, then the route.
  Follower away({{-50, 40}, kPi}, 10.0, 20.0);
  ASSERT_TRUE(away.FollowRoute(0.0, route, PlayMode::kOnce).ok());
  const double approach_time = away.approach().length / 20.0;
  EXPECT_GT(approach_time, 0.0);
  EXPECT_NEAR(glm::length(away.PoseAt(approach_time).position), 0.0, 1e-9);
  EXPECT_NEAR(away.PlanLength(), away.approach().length + route->length(), 1e-9);
  ExpectNoJumps(away, 0.0, approach_time + end_time + 1.0, 10.0);
}

TEST(Follower, LoopOnAClosedRouteRepeatsWithItsLength) {
  const double r = 50;
  const double k = 0.5522847498307936 * r;
  // A circle of four quarter Beziers, closed.
  const auto circle = MakeRoute({RouteSegment::Bezier({r, 0}, {r, k}, {k, r}, {0, r}),
                                 RouteSegment::Bezier({0, r}, {-k, r}, {-r, k}, {-r, 0}),
                                 RouteSegment::Bezier({-r, 0}, {-r, -k}, {-k, -r}, {0, -r}),
                                 RouteSegment::Bezier({0, -r}, {k, -r}, {r, -k}, {r, 0})},
                                true);
  Follower follower({{r, 0}, kPi / 2}, 10.0, 25.0);
  ASSERT_TRUE(follower.FollowRoute(0.0, circle, PlayMode::kLoop).ok());
  EXPECT_TRUE(std::isinf(follower.PlanLength()));
  const double period = circle->length() / 25.0;
  for (double t : {0.3, 2.0, 5.5}) {
    const Pose2 a = follower.PoseAt(t);
    const Pose2 b = follower.PoseAt(t + 3 * period);
    EXPECT_NEAR(glm::length(a.position - b.position), 0.0, 1e-6);
    EXPECT_NEAR(AngleGap(a.heading, b.heading), 0.0, 1e-6);
  }
  EXPECT_FALSE(follower.ArrivedAt(100 * period));
  ExpectNoJumps(follower, 0.0, 2.5 * period, 40.0);
}

TEST(Follower, LoopOnAnOpenRouteDrivesBackToTheStart) {
  const auto route = SmoothOpenRoute();
  Follower follower({{0, 0}, 0.0}, 15.0, 30.0);
  ASSERT_TRUE(follower.FollowRoute(0.0, route, PlayMode::kLoop).ok());
  const double route_time = route->length() / 30.0;
  ExpectNoJumps(follower, 0.0, 3 * route_time + 20.0, 15.0, 40000);
  // Some time after the route's end the unit is off the route, coming back.
  const Pose2 coming_back = follower.PoseAt(route_time + 2.0);
  EXPECT_GT(glm::length(coming_back.position - glm::dvec2(300, 80)), 1.0);
}

TEST(Follower, PingPongTurnsRoundAndTravelsTheRouteBackwards) {
  const auto route = SmoothOpenRoute();
  const double speed = 10.0;
  Follower follower({{0, 0}, 0.0}, 12.0, speed);
  ASSERT_TRUE(follower.FollowRoute(0.0, route, PlayMode::kPingPong).ok());
  const double length = route->length();
  ExpectNoJumps(follower, 0.0, 2.5 * (2 * length) / speed, 12.0, 40000);
  // Find the turn at the end: the unit passes the route's end at length/speed, then comes back
  // along the route with reversed heading. Check a point on the way back.
  const double forward_time = length / speed;
  bool checked = false;
  for (double extra = 0.0; extra < 400.0 && !checked; extra += 0.05) {
    const Pose2 pose = follower.PoseAt(forward_time + extra);
    const Pose2 on_route = route->Sample(length - 20.0);
    if (glm::length(pose.position - on_route.position) < 0.5 * speed * 0.05 + 1e-9) {
      EXPECT_NEAR(AngleGap(pose.heading, on_route.heading + kPi), 0.0, 0.05);
      checked = true;
    }
  }
  EXPECT_TRUE(checked);
}

TEST(Follower, FollowsARouteReadFromJson) {
  Result<Route> read =
      ReadRouteJson("r.json", R"({"segments":[{"line":[[0,0],[40,0]]},{"line":[[40,0],[40,0]]},
                               {"bezier":[[40,0],[60,0],[80,20],[80,40]]}]})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  const auto route = std::make_shared<const Route>(std::move(read).value());
  Follower follower({{0, 0}, 0.0}, 10.0, 8.0);
  ASSERT_TRUE(follower.FollowRoute(0.0, route, PlayMode::kLoop).ok());
  EXPECT_GT(follower.loop_back().length, 0.0);  // open route: drives back to its start
  EXPECT_EQ(follower.turn_at_end().segment_count, 0);
  EXPECT_NEAR(follower.PoseAt(2.5).position.x, 20.0, 1e-9);
  ExpectNoJumps(follower, 0.0, 2 * (route->length() + follower.loop_back().length) / 8.0, 10.0);
}

TEST(Follower, StopRestsWhereTheUnitIs) {
  Follower follower({{0, 0}, 0.0}, 5.0, 10.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, {100, 0}).ok());
  follower.Stop(3.0);
  const Pose2 stopped = follower.PoseAt(3.0);
  EXPECT_NEAR(stopped.position.x, 30.0, 1e-9);
  EXPECT_EQ(follower.PoseAt(50.0).position, stopped.position);
  EXPECT_TRUE(follower.ArrivedAt(3.0));
}

TEST(Follower, SpeedChangeKeepsTheDistanceTravelled) {
  Follower follower({{0, 0}, 0.0}, 5.0, 10.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, {1000, 0}).ok());
  ASSERT_TRUE(follower.SetSpeed(2.0, 40.0).ok());
  EXPECT_NEAR(follower.PoseAt(2.0).position.x, 20.0, 1e-9);
  EXPECT_NEAR(follower.PoseAt(3.0).position.x, 60.0, 1e-9);
  ASSERT_TRUE(follower.SetSpeed(3.0, 0.0).ok());
  EXPECT_NEAR(follower.PoseAt(100.0).position.x, 60.0, 1e-9);
}

TEST(Follower, InvalidRequestsFailAndKeepThePlan) {
  Follower follower({{0, 0}, 0.0}, 5.0, 10.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, {100, 0}).ok());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(follower.GoToPoint(1.0, {nan, 0}).ok());
  EXPECT_FALSE(follower.GoToPose(1.0, {{0, 0}, nan}).ok());
  EXPECT_FALSE(follower.FollowRoute(1.0, nullptr, PlayMode::kLoop).ok());
  EXPECT_FALSE(follower.SetSpeed(1.0, -1.0).ok());
  EXPECT_FALSE(follower.SetTurningRadius(nan).ok());
  EXPECT_NEAR(follower.PoseAt(5.0).position.x, 50.0, 1e-9);
  // Invalid construction values fall back to 0 (stand still, turn in place).
  const Follower odd({{0, 0}, 0.0}, -3.0, nan);
  EXPECT_EQ(odd.speed(), 0.0);
  EXPECT_EQ(odd.turning_radius(), 0.0);
}

TEST(Follower, FollowsAPlannedPathAtConstantSpeedAndRestsAtItsEnd) {
  const Pose2 a{{0, 0}, 0.0}, b{{60, 40}, kPi / 2}, c{{-20, 90}, -kPi / 2};
  const double radius = 12.0, speed = 7.0;
  const PlannedPath path = SixSegmentPath(a, b, c, radius);
  ASSERT_EQ(path.segments.size(), 6u);
  Follower follower(a, radius, speed);
  ASSERT_TRUE(follower.GoToPlanned(1.0, path).ok());
  ASSERT_NE(follower.planned(), nullptr);
  EXPECT_EQ(follower.planned()->segments.size(), 6u);
  EXPECT_NEAR(follower.PlanLength(), path.length, 1e-12);
  const double arrival = 1.0 + path.length / speed;
  // Position and heading at any time are the path's at speed·(t - start).
  for (int i = 0; i <= 50; ++i) {
    const double t = 1.0 + (arrival - 1.0) * i / 50.0;
    const Pose2 got = follower.PoseAt(t);
    const Pose2 want = SamplePlannedPath(path, speed * (t - 1.0));
    ASSERT_NEAR(glm::length(got.position - want.position), 0.0, 1e-9) << "t = " << t;
    ASSERT_NEAR(AngleGap(got.heading, want.heading), 0.0, 1e-12) << "t = " << t;
  }
  EXPECT_FALSE(follower.ArrivedAt(arrival - 0.01));
  EXPECT_TRUE(follower.ArrivedAt(arrival));
  const Pose2 rest = follower.PoseAt(arrival + 100.0);
  EXPECT_NEAR(glm::length(rest.position - c.position), 0.0, 1e-9);
  EXPECT_NEAR(AngleGap(rest.heading, c.heading), 0.0, 1e-9);
  EXPECT_EQ(follower.PoseAt(0.5).position, a.position);  // before the plan: its start
  ExpectNoJumps(follower, 1.0, arrival + 1.0, radius);
}

TEST(Follower, PlannedPathIsContinuousAtEverySegmentJoin) {
  const Pose2 a{{5, -3}, 1.0}, b{{-40, 30}, kPi}, c{{50, 70}, 0.3};
  const PlannedPath path = SixSegmentPath(a, b, c, 9.0);
  Follower follower(a, 9.0, 1.0);
  ASSERT_TRUE(follower.GoToPlanned(0.0, path).ok());
  double join = 0.0;
  for (std::size_t i = 0; i + 1 < path.segments.size(); ++i) {
    join += path.segments[i].length;
    const double e = 1e-7;  // speed 1: time = distance
    const Pose2 before = follower.PoseAt(join - e), after = follower.PoseAt(join + e);
    EXPECT_NEAR(glm::length(after.position - before.position), 0.0, 3 * e) << "join " << i;
    EXPECT_NEAR(AngleGap(after.heading, before.heading), 0.0, 3 * e / 9.0 + 1e-12) << "join " << i;
    const Pose2 next = path.segments[i + 1].start;
    EXPECT_NEAR(glm::length(follower.PoseAt(join).position - next.position), 0.0, 1e-9);
  }
}

TEST(Follower, SpeedChangeMidPlannedPathKeepsTheDistance) {
  const Pose2 a{{0, 0}, 0.0}, b{{60, 40}, kPi / 2}, c{{-20, 90}, -kPi / 2};
  const PlannedPath path = SixSegmentPath(a, b, c, 12.0);
  Follower follower(a, 12.0, 10.0);
  ASSERT_TRUE(follower.GoToPlanned(0.0, path).ok());
  const double t1 = 0.4 * path.length / 10.0;
  const Pose2 before = follower.PoseAt(t1);
  ASSERT_TRUE(follower.SetSpeed(t1, 25.0).ok());
  const Pose2 after = follower.PoseAt(t1);
  EXPECT_NEAR(glm::length(after.position - before.position), 0.0, 1e-9);
  const double t2 = t1 + 0.5;
  const Pose2 want = SamplePlannedPath(path, 10.0 * t1 + 25.0 * 0.5);
  EXPECT_NEAR(glm::length(follower.PoseAt(t2).position - want.position), 0.0, 1e-9);
  const double arrival = t1 + (path.length - 10.0 * t1) / 25.0;
  EXPECT_FALSE(follower.ArrivedAt(arrival - 0.01));
  EXPECT_TRUE(follower.ArrivedAt(arrival));
  ExpectNoJumps(follower, 0.0, arrival + 0.5, 12.0);
  // Retargeting mid-path replaces the planned path without a jump.
  const Pose2 mid = follower.PoseAt(t2);
  ASSERT_TRUE(follower.GoToPoint(t2, {200, 0}).ok());
  EXPECT_EQ(follower.planned(), nullptr);
  EXPECT_NEAR(glm::length(follower.PoseAt(t2).position - mid.position), 0.0, 1e-9);
}

TEST(Follower, PlannedPathMustStartWhereTheUnitIs) {
  const Pose2 a{{0, 0}, 0.0}, b{{60, 40}, kPi / 2}, c{{-20, 90}, -kPi / 2};
  PlannedPath path = SixSegmentPath(a, b, c, 12.0);
  Follower follower({{1, 0}, 0.0}, 12.0, 10.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, {100, 0}).ok());
  const Status status = follower.GoToPlanned(0.0, path);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("does not start where the unit is"), std::string::npos);
  EXPECT_EQ(follower.planned(), nullptr);
  EXPECT_NEAR(follower.PoseAt(5.0).position.x, 51.0, 1e-9);  // the old plan holds
  path.segments[2].length = std::numeric_limits<double>::quiet_NaN();
  Follower fresh(a, 12.0, 10.0);
  EXPECT_FALSE(fresh.GoToPlanned(0.0, path).ok());
}

TEST(FollowerPoseJob, PlacesEveryFollower) {
  std::vector<Follower> followers;
  for (int i = 0; i < 5; ++i) {
    followers.emplace_back(Pose2{{i * 10.0, 0}, 0.0}, 5.0, 10.0);
    ASSERT_TRUE(followers.back().GoToPoint(0.0, {i * 10.0, 100}).ok());
  }
  std::vector<Pose2> poses(followers.size());
  FollowerPoseJob job{followers.data(), followers.size(), 3.0, poses.data()};
  ASSERT_TRUE(job.Run());
  for (std::size_t i = 0; i < followers.size(); ++i) {
    EXPECT_EQ(poses[i].position, followers[i].PoseAt(3.0).position);
  }
  EXPECT_FALSE((FollowerPoseJob{nullptr, 2, 0.0, poses.data()}.Validate()));
}

}  // namespace
}  // namespace md5stage
