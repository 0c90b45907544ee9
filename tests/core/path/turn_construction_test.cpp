// The construction job against the path core: every value of both turning circles, every Dubins
// candidate and every walked segment equals what the paths themselves hold (<= 1e-9), over
// tables of cases including the destination on a circle, inside one, ahead, behind and aside.
#include "core/path/turn_construction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

void ExpectPathsEqual(const TurnPath& a, const TurnPath& b, double tolerance) {
  ASSERT_EQ(a.type, b.type);
  ASSERT_EQ(a.segment_count, b.segment_count);
  EXPECT_NEAR(a.length, b.length, tolerance);
  EXPECT_NEAR(glm::length(a.end.position - b.end.position), 0.0, tolerance);
  for (int i = 0; i < a.segment_count; ++i) {
    EXPECT_EQ(a.segments[i].kind, b.segments[i].kind) << "segment " << i;
    EXPECT_NEAR(a.segments[i].length, b.segments[i].length, tolerance) << "segment " << i;
    EXPECT_NEAR(glm::length(a.segments[i].centre - b.segments[i].centre), 0.0, tolerance);
    EXPECT_NEAR(a.segments[i].sweep, b.segments[i].sweep, 1e-9) << "segment " << i;
  }
}

// ---- Arc + line: both circles ------------------------------------------------------------------

enum class Reach { kBoth, kLeftOnly, kRightOnly };

struct ConstructionCase {
  const char* name;
  Pose2 origin;
  double radius;
  glm::dvec2 destination;
  Reach reach;
  int chosen;          // 0 left, 1 right
  int on_circle = -1;  // a side whose circle holds the destination exactly (h == r): d = 0
};

const ConstructionCase kConstructionCases[] = {
    {"straight_ahead", {{0, 0}, 0}, 2, {10, 0}, Reach::kBoth, 0},
    {"straight_behind", {{0, 0}, 0}, 2, {-10, 0}, Reach::kBoth, 0},
    {"on_the_left", {{0, 0}, 0}, 2, {1, 9}, Reach::kBoth, 0},
    {"on_the_right", {{0, 0}, 0}, 2, {3, -8}, Reach::kBoth, 1},
    {"h_equals_r_left_quarter", {{0, 0}, 0}, 2, {2, 2}, Reach::kBoth, 0, 0},
    {"h_equals_r_left_half", {{0, 0}, 0}, 2, {0, 4}, Reach::kBoth, 0, 0},
    {"h_equals_r_right", {{0, 0}, 0}, 2, {2, -2}, Reach::kBoth, 1, 1},
    {"inside_left_circle", {{0, 0}, 0}, 2, {1, 1.5}, Reach::kRightOnly, 1},
    {"inside_right_circle", {{0, 0}, 0}, 2, {-1, -2.5}, Reach::kLeftOnly, 0},
    {"inside_left_turned_origin", {{5, -3}, 2.1}, 4, {2, -2}, Reach::kRightOnly, 1},
    {"behind_and_left", {{1, 2}, 0.7}, 1.5, {-6, 4}, Reach::kBoth, 0},
    {"at_the_origin", {{3, 4}, 1}, 2, {3, 4}, Reach::kBoth, 0},
    {"radius_zero", {{0, 0}, 0.5}, 0, {-3, 7}, Reach::kBoth, 0},
    {"large_scale", {{1e12, -2e12}, -2.5}, 3e11, {-4e12, 5e11}, Reach::kBoth, 1},
    {"tiny_scale", {{0, 0}, 0}, 1e-140, {1e-140, -3e-140}, Reach::kBoth, 1},
};

// P from the definition: a quarter turn off the heading, at distance r.
glm::dvec2 ExpectedCentre(const Pose2& origin, double radius, TurnSide side) {
  const double sign = side == TurnSide::kLeft ? 1.0 : -1.0;
  return origin.position +
         sign * radius * glm::dvec2(-std::sin(origin.heading), std::cos(origin.heading));
}

void PrintTo(const ConstructionCase& c, std::ostream* os) { *os << c.name; }

class ConstructionTable : public ::testing::TestWithParam<ConstructionCase> {};

TEST_P(ConstructionTable, EveryValueEqualsTheCoresPaths) {
  const ConstructionCase& c = GetParam();
  const double r = c.radius;
  const double scale = std::max({std::abs(c.origin.position.x), std::abs(c.origin.position.y),
                                 std::abs(c.destination.x), std::abs(c.destination.y), r, 1e-300});
  const double tolerance = 1e-9 * std::max(1.0, scale);
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = c.origin;
  job.radius = r;
  job.destination = c.destination;
  job.out = &out;
  ASSERT_TRUE(job.Run().ok()) << job.Validate().error().message;

  const TurnPath chosen_path = ArcLinePath(c.origin.position, c.origin.heading, r, c.destination);
  ASSERT_TRUE(chosen_path.ok());
  ExpectPathsEqual(out.arc_line, chosen_path, tolerance);
  ASSERT_EQ(out.chosen_side, c.chosen);
  EXPECT_EQ(out.sides[c.chosen].path.type, chosen_path.type);
  EXPECT_NEAR(out.sides[c.chosen].length, chosen_path.length, tolerance);
  EXPECT_TRUE(out.sides[c.chosen].chosen);
  EXPECT_FALSE(out.sides[1 - c.chosen].chosen);

  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i == 0 ? "left" : "right");
    const TurnSide side = i == 0 ? TurnSide::kLeft : TurnSide::kRight;
    const double sign = i == 0 ? 1.0 : -1.0;
    const ArcLineConstructionSide& s = out.sides[i];
    const TurnPath path =
        ArcLinePathOnSide(c.origin.position, c.origin.heading, r, c.destination, side);
    EXPECT_EQ(s.side, side);
    const glm::dvec2 centre = ExpectedCentre(c.origin, r, side);
    EXPECT_NEAR(glm::length(s.centre - centre), 0.0, tolerance);
    const glm::dvec2 to_destination = c.destination - s.centre;
    const double h = std::hypot(to_destination.x, to_destination.y);
    if (c.destination == c.origin.position) {
      EXPECT_EQ(s.h, r);  // the origin lies on both circles
    } else {
      EXPECT_NEAR(s.h, h, tolerance);
    }
    if (h > 0) {
      EXPECT_NEAR(s.phi, std::atan2(to_destination.y, to_destination.x), 1e-9);
    }
    const bool expect_reachable =
        c.reach == Reach::kBoth || (c.reach == Reach::kLeftOnly) == (side == TurnSide::kLeft);
    ASSERT_EQ(s.reachable, expect_reachable);
    ASSERT_EQ(s.reachable, path.ok());
    EXPECT_EQ(s.reachable, s.h >= r * (1 - 1e-9));
    if (!s.reachable) {
      EXPECT_LT(s.h, r);
      EXPECT_TRUE(std::isnan(s.d) && std::isnan(s.theta) && std::isnan(s.leave.x) &&
                  std::isnan(s.length));
      EXPECT_FALSE(s.path.ok());
      EXPECT_FALSE(s.chosen);
      continue;
    }
    ExpectPathsEqual(s.path, path, tolerance);
    ASSERT_EQ(path.segment_count, 2);
    const TurnSegment& arc = path.segments[0];
    const TurnSegment& line = path.segments[1];
    // The circle the path turns on is P's (radius 0: the arc turns in place at P).
    EXPECT_NEAR(glm::length(arc.centre - s.centre), 0.0, tolerance);
    // d: Pinter's formula, the path's straight part; 0 on the circle.
    EXPECT_NEAR(s.d, line.length, tolerance);
    if (c.on_circle == i) {
      EXPECT_EQ(s.h, r);
      EXPECT_EQ(s.d, 0.0);
      EXPECT_EQ(s.theta, 0.0);
    } else if (c.destination != c.origin.position) {
      EXPECT_NEAR(s.d, std::sqrt(h * h - r * r), tolerance);
      EXPECT_NEAR(s.theta, std::acos(r / h), 1e-9);
    }
    // Q: the formula, the path's line start, and the point the arc ends at.
    const double q_angle = s.phi - sign * s.theta;
    const glm::dvec2 q_formula = s.centre + r * glm::dvec2(std::cos(q_angle), std::sin(q_angle));
    EXPECT_NEAR(glm::length(s.leave - q_formula), 0.0, tolerance);
    EXPECT_NEAR(glm::length(s.leave - line.start.position), 0.0, tolerance);
    EXPECT_NEAR(glm::length(s.leave - SampleTurnPath(path, arc.length).position), 0.0, tolerance);
    EXPECT_LE(AngleGap(s.leave_angle, q_angle), 1e-9);
    // The line from Q meets the destination; it is tangent to the circle (at right angles to PQ).
    EXPECT_NEAR(glm::length(path.end.position - c.destination), 0.0, tolerance);
    if (s.d > 0 && r > 0) {
      const glm::dvec2 pq = (s.leave - s.centre) / r;
      const glm::dvec2 qd = (c.destination - s.leave) / s.d;
      EXPECT_NEAR(glm::dot(pq, qd), 0.0, 1e-9);
      EXPECT_NEAR(Cross(pq, qd), sign, 1e-9);  // travel turns the way the circle does
    }
    EXPECT_NEAR(s.arc_angle, std::abs(arc.sweep), 1e-9);
    EXPECT_NEAR(s.arc_length, arc.length, tolerance);
    EXPECT_NEAR(s.length, path.length, tolerance);
    EXPECT_NEAR(s.length, s.arc_length + s.d, tolerance);
    // The other side, when reachable, is no shorter than the chosen one.
    if (s.chosen && out.sides[1 - i].reachable) {
      EXPECT_LE(s.length, out.sides[1 - i].length + tolerance);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ConstructionTable, ::testing::ValuesIn(kConstructionCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The two circles touch only at the origin, so a destination is never inside both: some side is
// always reachable and chosen, also for destinations just off the touching point.
TEST(TurnConstruction, SomeSideIsAlwaysReachable) {
  const double r = 3;
  for (int ix = -40; ix <= 40; ++ix) {
    for (int iy = -40; iy <= 40; ++iy) {
      for (double nudge : {0.0, 1e-12}) {
        TurnConstruction out;
        TurnConstructionJob job;
        job.origin = {{0.5, -0.25}, 0.3};
        job.radius = r;
        job.destination = {0.5 + ix * 0.2 + nudge, -0.25 + iy * 0.2};
        job.out = &out;
        ASSERT_TRUE(job.Run().ok());
        ASSERT_GE(out.chosen_side, 0);
        ASSERT_TRUE(out.sides[0].reachable || out.sides[1].reachable);
        const TurnPath path =
            ArcLinePath(job.origin.position, job.origin.heading, r, job.destination);
        ASSERT_EQ(out.sides[out.chosen_side].path.type, path.type);
        ASSERT_NEAR(out.sides[out.chosen_side].length, path.length, 1e-9);
      }
    }
  }
}

// ---- Dubins candidates -------------------------------------------------------------------------

struct DubinsCase {
  const char* name;
  Pose2 origin;
  double radius;
  Pose2 target;
  TurnPathType shortest;
  int words_that_exist;
};

const DubinsCase kDubinsCases[] = {
    {"far_ahead_same_heading", {{0, 0}, 0}, 1, {{20, 0}, 0}, TurnPathType::kLSL, 4},
    {"far_left_facing_back", {{0, 0}, 0}, 1, {{3, 8}, kPi}, TurnPathType::kLSL, 4},
    {"far_right_facing_down", {{0, 0}, 0}, 1, {{4, -9}, -0.5 * kPi}, TurnPathType::kRSR, 4},
    {"close_behind_turned_round", {{0, 0}, 0}, 1, {{0.5, 0}, kPi}, TurnPathType::kRLR, 4},
    {"close_ahead_turned_round", {{0, 0}, 0}, 1, {{1, 0}, kPi}, TurnPathType::kLRL, 4},
    {"close_same_heading_aside", {{0, 0}, 0}, 1, {{0, 1}, 0}, TurnPathType::kLSL, 5},
    {"turn_round_on_the_spot", {{0, 0}, 0}, 1, {{0, 0}, kPi}, TurnPathType::kRLR, 4},
    {"cross_left_then_right", {{1, 2}, 0.5}, 1.5, {{-7, 3}, 2.5}, TurnPathType::kLSR, 4},
    {"radius_zero_turns_in_place", {{0, 0}, 0}, 0, {{3, 4}, -1}, TurnPathType::kLSR, 1},
};

void PrintTo(const DubinsCase& c, std::ostream* os) { *os << c.name; }

class DubinsTable : public ::testing::TestWithParam<DubinsCase> {};

TEST_P(DubinsTable, CandidatesAreTheCoresWords) {
  const DubinsCase& c = GetParam();
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = c.origin;
  job.radius = c.radius;
  job.destination = c.target.position;
  job.has_final_heading = true;
  job.final_heading = c.target.heading;
  job.out = &out;
  ASSERT_TRUE(job.Run().ok());
  ASSERT_TRUE(out.has_final_heading);

  const TurnPath best = DubinsPath(c.origin, c.target, c.radius);
  ASSERT_TRUE(best.ok());
  EXPECT_EQ(best.type, c.shortest);
  ExpectPathsEqual(out.dubins_path, best, 1e-9);
  ASSERT_GE(out.shortest_dubins, 0);
  const DubinsCandidate& shortest = out.dubins[out.shortest_dubins];
  EXPECT_EQ(shortest.type, best.type);
  EXPECT_TRUE(shortest.shortest);
  ExpectPathsEqual(shortest.path, best, 1e-9);

  const std::array<double, 6> lengths = DubinsWordLengths(c.origin, c.target, c.radius);
  const TurnPathType order[6] = {TurnPathType::kLSL, TurnPathType::kLSR, TurnPathType::kRSL,
                                 TurnPathType::kRSR, TurnPathType::kRLR, TurnPathType::kLRL};
  int existing = 0, marked = 0;
  for (int w = 0; w < 6; ++w) {
    const DubinsCandidate& candidate = out.dubins[w];
    SCOPED_TRACE(TurnPathTypeName(order[w]));
    EXPECT_EQ(candidate.type, order[w]);
    existing += candidate.exists;
    marked += candidate.shortest;
    EXPECT_EQ(candidate.shortest, w == out.shortest_dubins);
    if (!candidate.exists) {
      EXPECT_TRUE(std::isnan(lengths[w]));
      EXPECT_FALSE(candidate.path.ok());
      continue;
    }
    EXPECT_EQ(candidate.path.type, order[w]);
    // Three pieces whose lengths add up to the word's; it ends at the target pose.
    ASSERT_EQ(candidate.path.segment_count, 3);
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += candidate.path.segments[i].length;
    EXPECT_NEAR(sum, candidate.path.length, 1e-9);
    EXPECT_NEAR(glm::length(candidate.path.end.position - c.target.position), 0.0, 1e-9);
    EXPECT_LE(AngleGap(candidate.path.end.heading, c.target.heading), 1e-9);
    EXPECT_GE(candidate.path.length, best.length - 1e-9);
    if (c.radius > 0) {
      EXPECT_NEAR(candidate.path.length, lengths[w], 1e-9);
      ExpectPathsEqual(candidate.path,
                       DubinsPathOfType(c.origin, c.target, c.radius, candidate.type), 1e-9);
    }
  }
  EXPECT_EQ(existing, c.words_that_exist);
  EXPECT_EQ(marked, 1);
}

INSTANTIATE_TEST_SUITE_P(Cases, DubinsTable, ::testing::ValuesIn(kDubinsCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(TurnConstruction, NoFinalHeadingNoCandidates) {
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = {{0, 0}, 0};
  job.radius = 1;
  job.destination = {5, 5};
  job.out = &out;
  job.has_final_heading = true;  // a previous run's candidates are cleared by the next
  ASSERT_TRUE(job.Run().ok());
  ASSERT_GE(out.shortest_dubins, 0);
  job.has_final_heading = false;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_FALSE(out.has_final_heading);
  EXPECT_EQ(out.shortest_dubins, -1);
  EXPECT_FALSE(out.dubins_path.ok());
  for (const DubinsCandidate& candidate : out.dubins) {
    EXPECT_FALSE(candidate.exists);
    EXPECT_FALSE(candidate.shortest);
  }
}

// ---- Validity ----------------------------------------------------------------------------------

struct ValidityCase {
  const char* name;
  Pose2 origin;
  double radius;
  glm::dvec2 destination;
  bool has_final_heading;
  double final_heading;
  bool has_out;
  const char* error;  // nullptr: valid
};

const ValidityCase kValidityCases[] = {
    {"valid", {{0, 0}, 0}, 1, {1, 1}, false, 0, true, nullptr},
    {"valid_radius_zero", {{0, 0}, 0}, 0, {1, 1}, true, 1, true, nullptr},
    {"nan_final_heading_unused", {{0, 0}, 0}, 1, {1, 1}, false, kNaN, true, nullptr},
    {"no_output", {{0, 0}, 0}, 1, {1, 1}, false, 0, false, "out: "},
    {"origin_nan", {{kNaN, 0}, 0}, 1, {1, 1}, false, 0, true, "origin: expected a finite"},
    {"origin_heading_inf", {{0, 0}, kInf}, 1, {1, 1}, false, 0, true, "origin: expected a finite"},
    {"destination_inf", {{0, 0}, 0}, 1, {1, -kInf}, false, 0, true, "destination: expected a"},
    {"final_heading_nan", {{0, 0}, 0}, 1, {1, 1}, true, kNaN, true, "final_heading: expected"},
    {"radius_negative", {{0, 0}, 0}, -1, {1, 1}, false, 0, true, "radius: expected a number >= 0"},
    {"radius_nan", {{0, 0}, 0}, kNaN, {1, 1}, false, 0, true, "radius: expected a number >= 0"},
    {"radius_inf", {{0, 0}, 0}, kInf, {1, 1}, false, 0, true, "radius: expected a number >= 0"},
    {"radius_too_large", {{0, 0}, 0}, 2e15, {1, 1}, false, 0, true, "radius: expected"},
    {"origin_too_far", {{2e15, 0}, 0}, 1, {1, 1}, false, 0, true, "origin: expected coordinates"},
    {"destination_too_far", {{0, 0}, 0}, 1, {0, -3e15}, false, 0, true, "destination: expected"},
};

void PrintTo(const ValidityCase& c, std::ostream* os) { *os << c.name; }

class ConstructionValidity : public ::testing::TestWithParam<ValidityCase> {};

TEST_P(ConstructionValidity, NamesTheField) {
  const ValidityCase& c = GetParam();
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = c.origin;
  job.radius = c.radius;
  job.destination = c.destination;
  job.has_final_heading = c.has_final_heading;
  job.final_heading = c.final_heading;
  job.out = c.has_out ? &out : nullptr;
  const Status validate = job.Validate();
  const Status run = job.Run();
  if (c.error == nullptr) {
    EXPECT_TRUE(validate.ok()) << validate.error().message;
    EXPECT_TRUE(run.ok());
    return;
  }
  ASSERT_FALSE(validate.ok());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message, validate.error().message);
  EXPECT_EQ(validate.error().message.rfind("turn construction: ", 0), 0u)
      << validate.error().message;
  EXPECT_NE(validate.error().message.find(c.error), std::string::npos) << validate.error().message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ConstructionValidity, ::testing::ValuesIn(kValidityCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(FollowerWalkJob, ValidityNamesTheField) {
  Follower follower({{0, 0}, 0}, 1, 1);
  FollowerWalk walk;
  FollowerWalkJob job;
  EXPECT_NE(job.Validate().error().message.find("follower: required"), std::string::npos);
  job.follower = &follower;
  EXPECT_NE(job.Run().error().message.find("out: "), std::string::npos);
  job.out = &walk;
  job.time = kNaN;
  EXPECT_NE(job.Run().error().message.find("time: expected a finite number"), std::string::npos);
  job.time = 0;
  EXPECT_TRUE(job.Run().ok());
}

// ---- Follower walk -----------------------------------------------------------------------------

std::shared_ptr<const Route> OpenRoute() {
  Result<Route> route = Route::Build({RouteSegment::Line({10, 0}, {40, 0}),
                                      RouteSegment::Bezier({40, 0}, {55, 0}, {60, 10}, {60, 25})});
  EXPECT_TRUE(route.ok());
  return std::make_shared<const Route>(std::move(route).value());
}

enum class Plan { kPoint, kPose, kRouteOnce, kRouteLoop, kRoutePingPong, kPlanned };

struct WalkCase {
  const char* name;
  Plan plan;
  double time;
  FollowerStage stage;
  int current_segment;  // -2: not checked
};

Follower MakeFollower(Plan plan) {
  Follower follower({{0, 0}, 0.3}, 4, 2);
  switch (plan) {
    case Plan::kPoint:
      EXPECT_TRUE(follower.GoToPoint(0, {-6, 9}).ok());
      break;
    case Plan::kPose:
      EXPECT_TRUE(follower.GoToPose(0, {{20, -5}, 2}).ok());
      break;
    case Plan::kRouteOnce:
      EXPECT_TRUE(follower.FollowRoute(0, OpenRoute(), PlayMode::kOnce).ok());
      break;
    case Plan::kRouteLoop:
      EXPECT_TRUE(follower.FollowRoute(0, OpenRoute(), PlayMode::kLoop).ok());
      break;
    case Plan::kRoutePingPong:
      EXPECT_TRUE(follower.FollowRoute(0, OpenRoute(), PlayMode::kPingPong).ok());
      break;
    case Plan::kPlanned: {
      const TurnPath path = DubinsPath({{0, 0}, 0.3}, {{10, 10}, 1}, 4);
      PlannedPath planned;
      planned.start = path.start;
      planned.end = path.end;
      planned.length = path.length;
      for (int i = 0; i < path.segment_count; ++i) planned.segments.push_back(path.segments[i]);
      EXPECT_TRUE(follower.GoToPlanned(0, planned).ok());
      break;
    }
  }
  return follower;
}

// Times picked from the plans' lengths (speed 2): the point path is an arc of 10.5 then a line of
// 5.8; the pose path RSL 4.1, 13.2, 10.9; the route's approach RSL 1.3, 8.7, 0.1, the route 66.7,
// driving back 69.4, each ping-pong turn 29.3.
const WalkCase kWalkCases[] = {
    {"point_at_start", Plan::kPoint, 0, FollowerStage::kApproach, 0},
    {"point_before_start", Plan::kPoint, -3, FollowerStage::kApproach, 0},
    {"point_on_the_arc", Plan::kPoint, 1, FollowerStage::kApproach, 0},
    {"point_end_of_the_arc", Plan::kPoint, 5, FollowerStage::kApproach, 0},
    {"point_on_the_line", Plan::kPoint, 7, FollowerStage::kApproach, 1},
    {"point_arrived", Plan::kPoint, 100, FollowerStage::kAtEnd, 2},
    {"pose_first_arc", Plan::kPose, 0.5, FollowerStage::kApproach, 0},
    {"pose_on_the_line", Plan::kPose, 4, FollowerStage::kApproach, 1},
    {"pose_last_arc", Plan::kPose, 9, FollowerStage::kApproach, 2},
    {"pose_arrived", Plan::kPose, 1000, FollowerStage::kAtEnd, 3},
    {"route_approach", Plan::kRouteOnce, 1, FollowerStage::kApproach, 1},
    {"route_on_route", Plan::kRouteOnce, 20, FollowerStage::kRoute, -1},
    {"route_done", Plan::kRouteOnce, 500, FollowerStage::kRoute, -1},
    {"loop_on_route", Plan::kRouteLoop, 15, FollowerStage::kRoute, -1},
    {"loop_driving_back", Plan::kRouteLoop, 55, FollowerStage::kLoopBack, -2},
    {"ping_pong_forwards", Plan::kRoutePingPong, 15, FollowerStage::kRoute, -1},
    {"ping_pong_turning_at_end", Plan::kRoutePingPong, 45, FollowerStage::kTurnAtEnd, -2},
    {"ping_pong_backwards", Plan::kRoutePingPong, 65, FollowerStage::kRouteBackwards, -1},
    {"ping_pong_turning_at_start", Plan::kRoutePingPong, 90, FollowerStage::kTurnAtStart, -2},
    {"planned_path", Plan::kPlanned, 3, FollowerStage::kPlanned, -1},
};

void PrintTo(const WalkCase& c, std::ostream* os) { *os << c.name; }

class WalkTable : public ::testing::TestWithParam<WalkCase> {};

TEST_P(WalkTable, SegmentsAndPoseAreTheFollowers) {
  const WalkCase& c = GetParam();
  const Follower follower = MakeFollower(c.plan);
  FollowerWalk walk;
  FollowerWalkJob job;
  job.follower = &follower;
  job.time = c.time;
  job.out = &walk;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(walk.stage, c.stage);
  const Pose2 pose = follower.PoseAt(c.time);
  EXPECT_EQ(walk.pose.position, pose.position);
  EXPECT_EQ(walk.pose.heading, pose.heading);
  EXPECT_EQ(walk.plan_distance, follower.DistanceAt(c.time));
  EXPECT_EQ(walk.arrived, follower.ArrivedAt(c.time));
  if (c.current_segment != -2) {
    EXPECT_EQ(walk.current_segment, c.current_segment);
  }

  const TurnPath* path = follower.StageTurnPath(walk.stage);
  if (path == nullptr) {
    EXPECT_EQ(walk.segment_count, 0);
    EXPECT_EQ(walk.current_segment, -1);
    return;
  }
  ASSERT_LE(walk.segment_count, TurnPath::kMaxSegments);
  ASSERT_EQ(walk.segment_count, path->segment_count);
  double start = 0;
  for (int i = 0; i < walk.segment_count; ++i) {
    const WalkSegment& s = walk.segments[i];
    const TurnSegment& t = path->segments[i];
    EXPECT_EQ(s.kind, t.kind);
    EXPECT_NEAR(s.length, t.length, 1e-9);
    EXPECT_NEAR(s.start_distance, start, 1e-9);
    EXPECT_NEAR(glm::length(s.start.position - SampleTurnPath(*path, start).position), 0.0, 1e-9);
    if (s.kind == TurnSegment::Kind::kArc) {
      EXPECT_NEAR(glm::length(s.centre - t.centre), 0.0, 1e-9);
      EXPECT_EQ(s.radius, follower.turning_radius());
      EXPECT_NEAR(s.sweep, t.sweep, 1e-9);
    }
    start += t.length;
  }
  EXPECT_NEAR(start, path->length, 1e-9);
  if (walk.stage == FollowerStage::kAtEnd) {
    EXPECT_EQ(walk.current_segment, walk.segment_count);
    EXPECT_NEAR(glm::length(pose.position - path->end.position), 0.0, 1e-9);
    return;
  }
  ASSERT_GE(walk.current_segment, 0);
  ASSERT_LT(walk.current_segment, walk.segment_count);
  const WalkSegment& on = walk.segments[walk.current_segment];
  EXPECT_GE(walk.distance_into_segment, 0.0);
  EXPECT_LT(walk.distance_into_segment, on.length);
  EXPECT_NEAR(on.start_distance + walk.distance_into_segment, std::max(0.0, walk.stage_distance),
              1e-9);
  // The pose from the current segment alone, as a figure would place the unit.
  glm::dvec2 position;
  if (on.kind == TurnSegment::Kind::kLine) {
    position = on.start.position + walk.distance_into_segment * Direction(on.start.heading);
  } else {
    const double turned = on.sweep * walk.distance_into_segment / on.length;
    const glm::dvec2 spoke = on.start.position - on.centre;
    position = on.centre + glm::dvec2(spoke.x * std::cos(turned) - spoke.y * std::sin(turned),
                                      spoke.x * std::sin(turned) + spoke.y * std::cos(turned));
  }
  EXPECT_NEAR(glm::length(position - pose.position), 0.0, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Cases, WalkTable, ::testing::ValuesIn(kWalkCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Sweeping the time over a ping-pong round: every stage shows up, and the walk always agrees.
TEST(FollowerWalkJob, PingPongRoundVisitsEveryStage) {
  const Follower follower = MakeFollower(Plan::kRoutePingPong);
  bool seen[8] = {};
  for (int i = 0; i <= 2000; ++i) {
    FollowerWalk walk;
    FollowerWalkJob job{&follower, i * 0.08, &walk};
    ASSERT_TRUE(job.Run().ok());
    seen[static_cast<int>(walk.stage)] = true;
    const Pose2 pose = follower.PoseAt(job.time);
    ASSERT_EQ(walk.pose.position, pose.position);
    if (const TurnPath* path = follower.StageTurnPath(walk.stage)) {
      ASSERT_NEAR(glm::length(SampleTurnPath(*path, walk.stage_distance).position - pose.position),
                  0.0, 1e-9);
    }
  }
  for (FollowerStage stage :
       {FollowerStage::kApproach, FollowerStage::kRoute, FollowerStage::kTurnAtEnd,
        FollowerStage::kRouteBackwards, FollowerStage::kTurnAtStart}) {
    EXPECT_TRUE(seen[static_cast<int>(stage)]) << static_cast<int>(stage);
  }
}

}  // namespace
}  // namespace md5stage
