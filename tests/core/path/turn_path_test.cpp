// Turn paths: edge tables with values known in closed form (straight ahead/behind, on the
// circle, at the origin, exactly 2r and 4r apart, angle wrap-around, radius 0), symmetry
// properties, and continuity of position and heading along every path.
#include "core/path/turn_path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/path/fast_atan2.h"

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

// ---- Arc + line --------------------------------------------------------------------------------

struct ArcLineCase {
  const char* name;
  glm::dvec2 from;
  double heading;
  double radius;
  glm::dvec2 to;
  double left_length;   // NaN: unreachable on that side; -1: reachable, not checked
  double right_length;  // NaN: unreachable on that side; -1: reachable, not checked
  double best_length;
};

// Straight behind at distance D: the arc turns the unit round until its tangent passes through the
// destination, 2π - 2·atan(D/r) radians on either side, then D straight.
double BehindLength(double r, double d) { return r * (kTwoPi - 2.0 * std::atan(d / r)); }

const ArcLineCase kArcLineCases[] = {
    {"straight_ahead", {0, 0}, 0.0, 5.0, {10, 0}, 10.0, 10.0, 10.0},
    {"straight_ahead_diagonal",
     {1, 1},
     kPi / 4,
     3.0,
     {4, 4},
     std::sqrt(18.0),
     std::sqrt(18.0),
     std::sqrt(18.0)},
    {"straight_behind",
     {0, 0},
     0.0,
     2.0,
     {-10, 0},
     BehindLength(2, 10) + 10,
     BehindLength(2, 10) + 10,
     BehindLength(2, 10) + 10},
    {"on_circle_quarter_left", {0, 0}, 0.0, 2.0, {2, 2}, kPi, -1, kPi},
    {"on_circle_half_left", {0, 0}, 0.0, 2.0, {0, 4}, 2 * kPi, -1, 2 * kPi},
    {"on_circle_half_right", {0, 0}, 0.0, 4.0, {0, -8}, -1, 4 * kPi, 4 * kPi},
    // Heading +y, right circle centred (1, 0): (1, -1) is three quarters round it.
    {"on_circle_three_quarters_right", {0, 0}, kPi / 2, 1.0, {1, -1}, -1, 1.5 * kPi, -1},
    {"at_origin", {3, -2}, 1.0, 2.0, {3, -2}, 0.0, 0.0, 0.0},
    // (0, 1) is inside the left circle (centre (0, 2)); the right circle's centre (0, -2) is 3
    // away: tangent √5, after turning right by π - atan2(√5, 2)... checked by the path's end.
    {"inside_left_circle", {0, 0}, 0.0, 2.0, {0, 1}, kNaN, -1, -1},
    {"inside_right_circle", {0, 0}, 0.0, 2.0, {0, -1}, -1, kNaN, -1},
    {"radius_zero_left", {0, 0}, 0.0, 0.0, {0, 5}, 5.0, 5.0, 5.0},
};

TEST(ArcLinePath, EdgeTable) {
  for (const ArcLineCase& c : kArcLineCases) {
    SCOPED_TRACE(c.name);
    const TurnPath left = ArcLinePathOnSide(c.from, c.heading, c.radius, c.to, TurnSide::kLeft);
    const TurnPath right = ArcLinePathOnSide(c.from, c.heading, c.radius, c.to, TurnSide::kRight);
    const TurnPath* sides[2] = {&left, &right};
    const double expected[2] = {c.left_length, c.right_length};
    for (int s = 0; s < 2; ++s) {
      if (std::isnan(expected[s])) {
        EXPECT_FALSE(sides[s]->ok()) << "side " << s;
        continue;
      }
      ASSERT_TRUE(sides[s]->ok()) << "side " << s;
      if (expected[s] >= 0) {
        EXPECT_NEAR(sides[s]->length, expected[s], 1e-12 * (1 + expected[s])) << "side " << s;
      }
      EXPECT_NEAR(sides[s]->end.position.x, c.to.x, 1e-12 * (1 + sides[s]->length));
      EXPECT_NEAR(sides[s]->end.position.y, c.to.y, 1e-12 * (1 + sides[s]->length));
    }
    const TurnPath best = ArcLinePath(c.from, c.heading, c.radius, c.to);
    ASSERT_TRUE(best.ok());
    if (c.best_length >= 0) {
      EXPECT_NEAR(best.length, c.best_length, 1e-12 * (1 + c.best_length));
    }
    EXPECT_NEAR(best.end.position.x, c.to.x, 1e-12 * (1 + best.length));
    EXPECT_NEAR(best.end.position.y, c.to.y, 1e-12 * (1 + best.length));
  }
}

TEST(ArcLinePath, InsideOneCircleOnlyThatSideIsUnreachable) {
  const TurnPath inside_left_l = ArcLinePathOnSide({0, 0}, 0.0, 2.0, {0, 1}, TurnSide::kLeft);
  const TurnPath inside_left_r = ArcLinePathOnSide({0, 0}, 0.0, 2.0, {0, 1}, TurnSide::kRight);
  EXPECT_FALSE(inside_left_l.ok());
  ASSERT_TRUE(inside_left_r.ok());
  EXPECT_EQ(ArcLinePath({0, 0}, 0.0, 2.0, {0, 1}).type, TurnPathType::kRS);
  EXPECT_EQ(ArcLinePath({0, 0}, 0.0, 2.0, {0, -1}).type, TurnPathType::kLS);
  EXPECT_STREQ(TurnPathTypeName(inside_left_l.type), "unreachable");
}

TEST(ArcLinePath, OnTheCircleWithinToleranceIsTheArcAlone) {
  // A destination on the left circle by construction, off by rounding either way.
  const double r = 7.0;
  for (double angle : {0.3, 1.0, 2.5, 4.0, 6.0}) {
    const glm::dvec2 centre(0, r);
    for (double wobble : {-1e-13, 0.0, 1e-13}) {
      const glm::dvec2 to = centre + (r + wobble) * glm::dvec2(std::cos(angle), std::sin(angle));
      const TurnPath path = ArcLinePathOnSide({0, 0}, 0.0, r, to, TurnSide::kLeft);
      ASSERT_TRUE(path.ok()) << angle << " " << wobble;
      const double expected_arc = WrapTwoPi(angle + kPi / 2);
      EXPECT_NEAR(path.segments[0].sweep, expected_arc, 1e-6);
      EXPECT_NEAR(path.segments[1].length, 0.0, 1e-5);
    }
  }
}

TEST(ArcLinePath, DestinationAtTheOriginIsLengthZeroNotAFullCircle) {
  for (double heading : {0.0, 1.0, -2.0, 3.0}) {
    for (double r : {0.0, 0.5, 10.0}) {
      const TurnPath path = ArcLinePath({5, 6}, heading, r, {5, 6});
      ASSERT_TRUE(path.ok());
      EXPECT_EQ(path.length, 0.0);
      EXPECT_NEAR(AngleGap(path.end.heading, heading), 0.0, 1e-15);
    }
  }
}

TEST(ArcLinePath, StraightAheadHasNoArcOnEitherSide) {
  for (double heading : {0.0, 0.7, -2.2, kPi}) {
    const glm::dvec2 to = glm::dvec2(1, 2) + 13.0 * Direction(heading);
    for (TurnSide side : {TurnSide::kLeft, TurnSide::kRight}) {
      const TurnPath path = ArcLinePathOnSide({1, 2}, heading, 4.0, to, side);
      ASSERT_TRUE(path.ok());
      EXPECT_NEAR(path.segments[0].sweep, 0.0, 1e-9);
      EXPECT_NEAR(path.length, 13.0, 1e-9);
    }
  }
}

TEST(ArcLinePath, HeadingWrapAroundGivesTheSamePath) {
  const TurnPath base = ArcLinePath({1, 1}, 0.4, 3.0, {-5, 7});
  for (int k = -3; k <= 3; ++k) {
    const TurnPath wrapped = ArcLinePath({1, 1}, 0.4 + k * kTwoPi, 3.0, {-5, 7});
    EXPECT_EQ(wrapped.type, base.type) << k;
    EXPECT_NEAR(wrapped.length, base.length, 1e-12) << k;
  }
}

TEST(ArcLinePath, RadiusZeroTurnsInPlaceByTheSmallerRotation) {
  const TurnPath left = ArcLinePath({0, 0}, 0.0, 0.0, {0, 5});
  EXPECT_EQ(left.type, TurnPathType::kLS);
  EXPECT_NEAR(left.segments[0].sweep, kPi / 2, 1e-15);
  const TurnPath right = ArcLinePath({0, 0}, 0.0, 0.0, {0, -5});
  EXPECT_EQ(right.type, TurnPathType::kRS);
  EXPECT_NEAR(right.segments[0].sweep, -kPi / 2, 1e-15);
  EXPECT_NEAR(right.length, 5.0, 1e-15);
}

TEST(ArcLinePath, InvalidInputHasNoPath) {
  EXPECT_FALSE(ArcLinePath({0, 0}, 0.0, -1.0, {5, 5}).ok());
  EXPECT_FALSE(ArcLinePath({0, 0}, kNaN, 1.0, {5, 5}).ok());
  EXPECT_FALSE(ArcLinePath({0, kNaN}, 0.0, 1.0, {5, 5}).ok());
  EXPECT_FALSE(ArcLinePath({0, 0}, 0.0, std::numeric_limits<double>::infinity(), {5, 5}).ok());
}

// ---- Dubins ------------------------------------------------------------------------------------

struct DubinsCase {
  const char* name;
  Pose2 from;
  Pose2 to;
  double radius;
  double length;
};

const DubinsCase kDubinsCases[] = {
    {"same_pose", {{3, 4}, 1.0}, {{3, 4}, 1.0}, 2.0, 0.0},
    {"straight_ahead", {{0, 0}, 0.0}, {{10, 0}, 0.0}, 1.5, 10.0},
    {"straight_ahead_diagonal", {{0, 0}, kPi / 4}, {{3, 3}, kPi / 4}, 1.0, std::sqrt(18.0)},
    // Exactly 2r apart sideways: one half circle.
    {"half_circle_left_2r", {{0, 0}, 0.0}, {{0, 4}, kPi}, 2.0, 2 * kPi},
    {"half_circle_right_2r", {{0, 0}, 0.0}, {{0, -4}, kPi}, 2.0, 2 * kPi},
    // Turning round on the spot: three arcs of 60°, 300°, 60° (centres on an equilateral
    // triangle), 7π/3·r.
    {"reverse_in_place", {{0, 0}, 0.0}, {{0, 0}, kPi}, 1.5, 1.5 * 7 * kPi / 3},
    // Exactly 4r apart, heading along the line: straight.
    {"straight_4r", {{0, 0}, 0.0}, {{8, 0}, 0.0}, 2.0, 8.0},
    // 4r apart, up then down: quarter right, 2r straight, quarter right.
    {"over_the_top_4r", {{0, 0}, kPi / 2}, {{8, 0}, -kPi / 2}, 2.0, 2 * kPi + 4.0},
};

TEST(DubinsPath, EdgeTable) {
  for (const DubinsCase& c : kDubinsCases) {
    SCOPED_TRACE(c.name);
    const TurnPath path = DubinsPath(c.from, c.to, c.radius);
    ASSERT_TRUE(path.ok());
    EXPECT_NEAR(path.length, c.length, 1e-9 * (1 + c.length));
    EXPECT_NEAR(path.end.position.x, c.to.position.x, 1e-9);
    EXPECT_NEAR(path.end.position.y, c.to.position.y, 1e-9);
    EXPECT_LE(AngleGap(path.end.heading, c.to.heading), 1e-9);
  }
}

TEST(DubinsPath, ThreeArcWordsAreFeasibleExactlyAt4r) {
  // Outer right circles centred 4r apart: RLR's middle circle touches both at one point, a
  // quarter, a half and a quarter turn: 2πr. LRL likewise on the left circles.
  const double r = 2.0;
  const std::array<double, 6> lengths = DubinsWordLengths({{0, 0}, 0.0}, {{4 * r, 0}, 0.0}, r);
  EXPECT_NEAR(lengths[4], kTwoPi * r, 1e-9);  // RLR
  EXPECT_NEAR(lengths[5], kTwoPi * r, 1e-9);  // LRL
  // A little further apart they cannot connect.
  const std::array<double, 6> apart = DubinsWordLengths({{0, 0}, 0.0}, {{4 * r + 1e-6, 0}, 0.0}, r);
  EXPECT_TRUE(std::isnan(apart[4]));
  EXPECT_TRUE(std::isnan(apart[5]));
}

TEST(DubinsPath, CrossTangentWordsAreFeasibleExactlyAt2r) {
  // The left circle of the start and the right circle of the end touch: LSR is an S of two
  // quarter turns with no straight piece.
  const double r = 3.0;
  const TurnPath path =
      DubinsPathOfType({{0, 0}, 0.0}, {{2 * r, 2 * r}, 0.0}, r, TurnPathType::kLSR);
  ASSERT_TRUE(path.ok());
  EXPECT_NEAR(path.length, kPi * r, 1e-9);
  EXPECT_NEAR(path.segments[1].length, 0.0, 1e-9);
  EXPECT_NEAR(path.end.position.x, 2 * r, 1e-9);
  EXPECT_NEAR(path.end.position.y, 2 * r, 1e-9);
  // Closer, the circles overlap and the cross tangent does not exist.
  EXPECT_FALSE(
      DubinsPathOfType({{0, 0}, 0.0}, {{2 * r - 0.1, 2 * r - 0.1}, 0.0}, r, TurnPathType::kLSR)
          .ok());
}

TEST(DubinsPath, AngleWrapAroundGivesTheSameLength) {
  const Pose2 from{{2, -3}, 0.8};
  const Pose2 to{{-4, 6}, -2.4};
  const TurnPath base = DubinsPath(from, to, 1.7);
  for (int k0 = -2; k0 <= 2; ++k0) {
    for (int k1 = -2; k1 <= 2; ++k1) {
      const TurnPath wrapped = DubinsPath({from.position, from.heading + k0 * kTwoPi},
                                          {to.position, to.heading + k1 * kTwoPi}, 1.7);
      EXPECT_EQ(wrapped.type, base.type);
      EXPECT_NEAR(wrapped.length, base.length, 1e-9);
    }
  }
}

// Any finite angle wraps into range: far ones (2π·floor(a / 2π) rounds: 5.97e290 gave -6.9e274;
// fuzz: an int cast of such a heading bin overflowed), and those one rounding from the ends.
TEST(WrapAngles, AnyFiniteAngleLandsInRange) {
  const double angles[] = {0.0,
                           -0.0,
                           1e-300,
                           -1e-300,
                           kPi,
                           -kPi,
                           kTwoPi,
                           -kTwoPi,
                           1e-17 - kTwoPi,
                           -490.1960784313726,
                           3e6,
                           -7.5e15,
                           1e300,
                           -1e300,
                           -1.2292668812335573e+263,
                           3.0320103883844265e+156,
                           5.969600955258696e+290,
                           1.7976931348623157e308,
                           -1.7976931348623157e308};
  for (double a : angles) {
    SCOPED_TRACE(a);
    const double two_pi = WrapTwoPi(a), pi = WrapPi(a);
    EXPECT_GE(two_pi, 0.0);
    EXPECT_LT(two_pi, kTwoPi);
    EXPECT_GT(pi, -kPi);
    EXPECT_LE(pi, kPi);
    // The same direction: the remainder is exact, so only the last wrap rounds.
    EXPECT_NEAR(std::sin(pi), std::sin(two_pi), 1e-15);
    EXPECT_NEAR(std::cos(pi), std::cos(two_pi), 1e-15);
  }
  EXPECT_EQ(WrapTwoPi(3.0 * kTwoPi + 0.25), std::fmod(3.0 * kTwoPi + 0.25, kTwoPi));
  EXPECT_NEAR(WrapPi(-490.1960784313726), -490.1960784313726 + 78 * kTwoPi, 1e-12);
}

TEST(DubinsPath, InvariantUnderRigidMotionAndMirroredByReflection) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coordinate(-50, 50), angle(-kPi, kPi), radius(0.3, 15);
  auto swap_sides = [](TurnPathType type) {
    switch (type) {
      case TurnPathType::kLSL:
        return TurnPathType::kRSR;
      case TurnPathType::kRSR:
        return TurnPathType::kLSL;
      case TurnPathType::kLSR:
        return TurnPathType::kRSL;
      case TurnPathType::kRSL:
        return TurnPathType::kLSR;
      case TurnPathType::kRLR:
        return TurnPathType::kLRL;
      case TurnPathType::kLRL:
        return TurnPathType::kRLR;
      default:
        return type;
    }
  };
  for (int i = 0; i < 500; ++i) {
    const Pose2 from{{coordinate(rng), coordinate(rng)}, angle(rng)};
    const Pose2 to{{coordinate(rng), coordinate(rng)}, angle(rng)};
    const double r = radius(rng);
    const TurnPath base = DubinsPath(from, to, r);
    ASSERT_TRUE(base.ok());
    // Rotate by phi about the origin and shift.
    const double phi = angle(rng);
    const glm::dvec2 shift(coordinate(rng), coordinate(rng));
    auto move = [&](const Pose2& p) {
      const glm::dvec2 q(p.position.x * std::cos(phi) - p.position.y * std::sin(phi),
                         p.position.x * std::sin(phi) + p.position.y * std::cos(phi));
      return Pose2{q + shift, p.heading + phi};
    };
    EXPECT_NEAR(DubinsPath(move(from), move(to), r).length, base.length, 1e-8 * base.length);
    // Reflect y → -y: lengths equal, left and right swap (unless two words tie).
    const TurnPath mirrored = DubinsPath({{from.position.x, -from.position.y}, -from.heading},
                                         {{to.position.x, -to.position.y}, -to.heading}, r);
    EXPECT_NEAR(mirrored.length, base.length, 1e-8 * base.length);
    const std::array<double, 6> words = DubinsWordLengths(from, to, r);
    int tied = 0;
    for (double w : words) tied += !std::isnan(w) && std::abs(w - base.length) < 1e-7 * base.length;
    if (tied == 1) {
      EXPECT_EQ(mirrored.type, swap_sides(base.type));
    }
  }
}

TEST(DubinsPath, RadiusZeroTurnsInPlace) {
  const TurnPath path = DubinsPath({{0, 0}, 0.0}, {{10, 0}, kPi / 2}, 0.0);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path.type, TurnPathType::kLSL);
  EXPECT_NEAR(path.length, 10.0, 1e-12);
  EXPECT_NEAR(path.segments[2].sweep, kPi / 2, 1e-12);
  const TurnPath right = DubinsPath({{0, 0}, 0.0}, {{0, -10}, kPi}, 0.0);
  EXPECT_EQ(right.type, TurnPathType::kRSR);
  EXPECT_NEAR(right.segments[0].sweep, -kPi / 2, 1e-12);
  EXPECT_NEAR(right.segments[2].sweep, -kPi / 2, 1e-12);
}

TEST(DubinsPath, InvalidInputHasNoPath) {
  EXPECT_FALSE(DubinsPath({{0, 0}, 0}, {{5, 5}, 0}, -1.0).ok());
  EXPECT_FALSE(DubinsPath({{0, 0}, kNaN}, {{5, 5}, 0}, 1.0).ok());
  EXPECT_FALSE(DubinsPath({{0, 0}, 0}, {{kNaN, 5}, 0}, 1.0).ok());
  EXPECT_FALSE(DubinsPathOfType({{0, 0}, 0}, {{5, 5}, 0}, 1.0, TurnPathType::kLS).ok());
  EXPECT_TRUE(std::isnan(DubinsWordLengths({{0, 0}, 0}, {{5, 5}, 0}, 0.0)[0]));
}

// ---- Sampling and continuity -------------------------------------------------------------------

// Walks the path in small steps: each step moves by at most the step and, on an arc of radius r,
// by at least its chord 2r·sin(h/2r); the heading turns by at most h/r. So there is no jump and
// the speed is constant, across segment joins too.
void ExpectContinuous(const TurnPath& path, double radius) {
  const int steps = 4000;
  const double h = path.length / steps;
  if (!(h > 0)) return;
  Pose2 previous = SampleTurnPath(path, 0.0);
  EXPECT_NEAR(previous.position.x, path.start.position.x, 1e-12);
  EXPECT_NEAR(previous.position.y, path.start.position.y, 1e-12);
  const double min_chord =
      radius > 0 ? 2 * radius * std::sin(std::min(h / (2 * radius), kPi / 2)) : h;
  for (int i = 1; i <= steps; ++i) {
    const Pose2 pose = SampleTurnPath(path, i * h);
    const double moved = glm::length(pose.position - previous.position);
    ASSERT_LE(moved, h * (1 + 1e-9) + 1e-12) << "step " << i;
    ASSERT_GE(moved, min_chord * (1 - 1e-9) - 1e-12) << "step " << i;
    if (radius > 0) {
      ASSERT_LE(AngleGap(pose.heading, previous.heading), h / radius * (1 + 1e-9) + 1e-12);
    }
    previous = pose;
  }
  // The last sample is the end, and the unit rests there.
  EXPECT_NEAR(previous.position.x, path.end.position.x, 1e-9 * (1 + path.length));
  EXPECT_NEAR(previous.position.y, path.end.position.y, 1e-9 * (1 + path.length));
  const Pose2 beyond = SampleTurnPath(path, path.length + 100.0);
  EXPECT_EQ(beyond.position, path.end.position);
  EXPECT_EQ(beyond.heading, path.end.heading);
  const Pose2 before = SampleTurnPath(path, -1.0);
  EXPECT_EQ(before.position, path.start.position);
}

// Each segment starts where the previous one ends (position and heading).
void ExpectJoinsMatch(const TurnPath& path) {
  double at = 0.0;
  for (int i = 0; i + 1 < path.segment_count; ++i) {
    at += path.segments[i].length;
    const TurnSegment& next = path.segments[i + 1];
    const Pose2 just_before = SampleTurnPath(path, at - 1e-9);
    EXPECT_NEAR(just_before.position.x, next.start.position.x, 1e-8) << "join " << i;
    EXPECT_NEAR(just_before.position.y, next.start.position.y, 1e-8) << "join " << i;
    EXPECT_LE(AngleGap(just_before.heading, next.start.heading), 1e-8) << "join " << i;
  }
}

TEST(SampleTurnPath, DubinsPathsAreContinuousAcrossJoins) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> coordinate(-30, 30), angle(-kPi, kPi), radius(0.5, 8);
  for (int i = 0; i < 150; ++i) {
    const Pose2 from{{coordinate(rng), coordinate(rng)}, angle(rng)};
    const Pose2 to{{coordinate(rng) * (i % 3 == 0 ? 0.05 : 1.0), coordinate(rng)}, angle(rng)};
    const double r = radius(rng);
    const TurnPath path = DubinsPath(from, to, r);
    SCOPED_TRACE(std::string(TurnPathTypeName(path.type)) + " case " + std::to_string(i));
    ASSERT_TRUE(path.ok());
    ExpectJoinsMatch(path);
    ExpectContinuous(path, r);
    EXPECT_NEAR(path.end.position.x, to.position.x, 1e-9 * (1 + path.length));
    EXPECT_NEAR(path.end.position.y, to.position.y, 1e-9 * (1 + path.length));
    EXPECT_LE(AngleGap(path.end.heading, to.heading), 1e-9);
  }
}

TEST(SampleTurnPath, ArcLinePathsAreContinuousAndEndPointingAtTheDestination) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> coordinate(-30, 30), angle(-kPi, kPi), radius(0.5, 8);
  for (int i = 0; i < 150; ++i) {
    const glm::dvec2 from(coordinate(rng), coordinate(rng));
    const double heading = angle(rng);
    const glm::dvec2 to(coordinate(rng), coordinate(rng));
    const double r = radius(rng);
    const TurnPath path = ArcLinePath(from, heading, r, to);
    SCOPED_TRACE("case " + std::to_string(i));
    ASSERT_TRUE(path.ok());
    ExpectJoinsMatch(path);
    ExpectContinuous(path, r);
    if (path.segments[1].length > 1e-6) {
      const glm::dvec2 toward = to - path.segments[1].start.position;
      EXPECT_LE(AngleGap(std::atan2(toward.y, toward.x), path.end.heading), 1e-9);
    }
  }
}

TEST(SampleTurnPath, KnownPointsOnAQuarterTurn) {
  // Quarter left of radius 2 from the origin to (2, 2): halfway is at 45° around (0, 2).
  const TurnPath path = ArcLinePath({0, 0}, 0.0, 2.0, {2, 2});
  const Pose2 mid = SampleTurnPath(path, path.length / 2);
  EXPECT_NEAR(mid.position.x, 2 * std::sin(kPi / 4), 1e-12);
  EXPECT_NEAR(mid.position.y, 2 - 2 * std::cos(kPi / 4), 1e-12);
  EXPECT_NEAR(mid.heading, kPi / 4, 1e-12);
}

TEST(TurnPathSampleJob, ValidatesAndFillsTheOutput) {
  const TurnPath path = DubinsPath({{0, 0}, 0}, {{5, 5}, 1}, 1.0);
  const double distances[3] = {0.0, path.length / 2, path.length * 2};
  Pose2 poses[3];
  TurnPathSampleJob job{&path, distances, 3, poses};
  ASSERT_TRUE(job.Run());
  for (int i = 0; i < 3; ++i) {
    const Pose2 expected = SampleTurnPath(path, distances[i]);
    EXPECT_EQ(poses[i].position, expected.position);
    EXPECT_EQ(poses[i].heading, expected.heading);
  }
  EXPECT_FALSE((TurnPathSampleJob{nullptr, distances, 3, poses}.Run()));
  EXPECT_FALSE((TurnPathSampleJob{&path, nullptr, 3, poses}.Validate()));
  EXPECT_TRUE((TurnPathSampleJob{&path, nullptr, 0, nullptr}.Validate()));
}

// ---- FastAtan2 ---------------------------------------------------------------------------------

TEST(FastAtan2, MatchesTheLibraryEverywhere) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_real_distribution<double> exponent(-300, 300);
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const double y = unit(rng) * std::pow(10.0, i % 2 ? exponent(rng) * 0.01 : 0.0);
    const double x = unit(rng) * std::pow(10.0, i % 3 ? exponent(rng) * 0.01 : 0.0);
    worst = std::max(worst, std::abs(FastAtan2(y, x) - std::atan2(y, x)));
  }
  EXPECT_LE(worst, 1e-15);
  const double specials[][2] = {{0, 1},   {0, -1},     {-0.0, -1},  {1, 0}, {-1, 0}, {1, 1},
                                {-1, -1}, {1e-300, 1}, {1, 1e-300}, {0, 0}, {3, -3}, {-3, 3}};
  for (const auto& s : specials) {
    EXPECT_NEAR(FastAtan2(s[0], s[1]), std::atan2(s[0], s[1]), 1e-15) << s[0] << "," << s[1];
  }
  EXPECT_TRUE(std::isnan(FastAtan2(kNaN, 1.0)));
}

// The pair must give FastAtan2's bits in both lanes, whatever the other lane holds (Dubins
// results, reference rows included, depend on them).
TEST(FastAtan2, PairGivesTheSameBitsAsTwoCalls) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_real_distribution<double> exponent(-300, 300);
  const double specials[] = {0.0,    -0.0,   1.0,     -1.0,
                             1e-300, -1e300, 1e301,   std::numeric_limits<double>::infinity(),
                             kNaN,   0.0625, 1.0 / 32};
  auto value = [&](int i) {
    if (i % 7 == 0) return specials[rng() % (sizeof specials / sizeof specials[0])];
    return unit(rng) * std::pow(10.0, i % 2 ? exponent(rng) * 0.01 : 0.0);
  };
  auto bits = [](double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  };
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    const double y0 = value(i), x0 = value(i + 1), y1 = value(i + 2), x1 = value(i + 3);
    double a0 = 0.0, a1 = 0.0;
    FastAtan2Pair(y0, x0, y1, x1, &a0, &a1);
    const double e0 = FastAtan2(y0, x0), e1 = FastAtan2(y1, x1);
    const bool same0 = bits(a0) == bits(e0) || (std::isnan(a0) && std::isnan(e0));
    const bool same1 = bits(a1) == bits(e1) || (std::isnan(a1) && std::isnan(e1));
    if ((!same0 || !same1) && ++mismatches <= 5) {
      ADD_FAILURE() << "(" << y0 << ", " << x0 << ") (" << y1 << ", " << x1 << ") pair " << a0
                    << " " << a1 << " single " << e0 << " " << e1;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace md5stage
