// Routes: validation errors, constant-speed sampling by true arc length on degenerate curves
// (zero-length segments, coincident control points, straight and reversing Beziers, cusps), and
// the curvature check against a turning radius (including kinks between segments).
#include "core/path/route.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <vector>

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Control-point distance for a cubic approximating a quarter circle.
constexpr double kQuarter = 0.5522847498307936;

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

Route MustBuild(std::vector<RouteSegment> segments, bool closed = false) {
  Result<Route> route = Route::Build(std::move(segments), closed);
  EXPECT_TRUE(route.ok()) << route.error().ToString();
  return route.ok() ? std::move(route).value() : Route();
}

// Quarter circle of radius r around `centre`, counter-clockwise from angle a0.
RouteSegment QuarterArc(glm::dvec2 centre, double r, double a0) {
  const glm::dvec2 p0 = centre + r * Direction(a0);
  const glm::dvec2 p3 = centre + r * Direction(a0 + kPi / 2);
  const glm::dvec2 t0 = Direction(a0 + kPi / 2);
  const glm::dvec2 t3 = Direction(a0 + kPi);
  return RouteSegment::Bezier(p0, p0 + kQuarter * r * t0, p3 - kQuarter * r * t3, p3);
}

// ---- Validation --------------------------------------------------------------------------------

struct BadRouteCase {
  const char* name;
  std::vector<RouteSegment> segments;
  bool closed;
  const char* message_part;
};

TEST(RouteBuild, RejectsBrokenRoutesWithClearMessages) {
  const BadRouteCase cases[] = {
      {"empty", {}, false, "at least one segment"},
      {"gap",
       {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({1.5, 0}, {2, 0})},
       false,
       "segments[1] starts at (1.5, 0) but segments[0] ends at (1, 0)"},
      {"gap_after_bezier",
       {RouteSegment::Bezier({0, 0}, {1, 1}, {2, 1}, {3, 0}),
        RouteSegment::Line({3, 0.001}, {4, 0})},
       false,
       "segments[1] starts at"},
      {"nan_point", {RouteSegment::Line({0, kNaN}, {1, 0})}, false, "segments[0]: coordinates"},
      {"infinite_control",
       {RouteSegment::Bezier({0, 0}, {std::numeric_limits<double>::infinity(), 1}, {2, 1}, {3, 0})},
       false,
       "must be finite"},
      {"closed_but_open",
       {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({1, 0}, {1, 1})},
       true,
       "closed route ends at (1, 1) but starts at (0, 0)"},
  };
  for (const BadRouteCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Result<Route> route = Route::Build(c.segments, c.closed);
    ASSERT_FALSE(route.ok());
    EXPECT_NE(route.error().message.find(c.message_part), std::string::npos)
        << route.error().message;
  }
}

TEST(RouteBuild, AcceptsJoinsWithinRounding) {
  const double x = 0.1 + 0.2;  // 0.30000000000000004
  EXPECT_TRUE(
      Route::Build({RouteSegment::Line({0, 0}, {x, 0}), RouteSegment::Line({0.3, 0}, {1, 0})})
          .ok());
  EXPECT_TRUE(RoutePointsMeet({1e6, 0}, {1e6 + 1e-4, 0}));  // relative to the coordinates
  EXPECT_FALSE(RoutePointsMeet({0, 0}, {1e-6, 0}));
}

// ---- Lengths and sampling ----------------------------------------------------------------------

TEST(RouteSample, LineRouteIsExact) {
  const Route route =
      MustBuild({RouteSegment::Line({0, 0}, {3, 4}), RouteSegment::Line({3, 4}, {3, 10})});
  EXPECT_DOUBLE_EQ(route.length(), 11.0);
  EXPECT_DOUBLE_EQ(route.segment_start_distance(1), 5.0);
  const Pose2 a = route.Sample(2.5);
  EXPECT_NEAR(a.position.x, 1.5, 1e-15);
  EXPECT_NEAR(a.position.y, 2.0, 1e-15);
  EXPECT_NEAR(a.heading, std::atan2(4.0, 3.0), 1e-15);
  const Pose2 b = route.Sample(8.0);
  EXPECT_NEAR(b.position.x, 3.0, 1e-15);
  EXPECT_NEAR(b.position.y, 7.0, 1e-15);
  EXPECT_NEAR(b.heading, kPi / 2, 1e-15);
}

TEST(RouteSample, ClampsBeforeTheStartAndBeyondTheEnd) {
  const Route route = MustBuild({RouteSegment::Bezier({0, 0}, {1, 2}, {3, 2}, {4, 0})});
  const Pose2 start = route.Sample(-10.0);
  EXPECT_EQ(start.position, glm::dvec2(0, 0));
  EXPECT_NEAR(start.heading, std::atan2(2.0, 1.0), 1e-12);
  const Pose2 end = route.Sample(route.length() + 10.0);
  EXPECT_NEAR(end.position.x, 4.0, 1e-12);
  EXPECT_NEAR(end.position.y, 0.0, 1e-12);
  EXPECT_NEAR(end.heading, std::atan2(-2.0, 1.0), 1e-12);
  EXPECT_EQ(route.Sample(kNaN).position, glm::dvec2(0, 0));
}

TEST(RouteSample, StraightBeziersMatchTheirLines) {
  struct Case {
    const char* name;
    std::array<glm::dvec2, 4> points;
  };
  const Case cases[] = {
      {"uniform", {{{0, 0}, {1, 1}, {2, 2}, {3, 3}}}},
      {"uneven", {{{0, 0}, {2.5, 2.5}, {2.9, 2.9}, {3, 3}}}},
      {"coincident_start", {{{0, 0}, {0, 0}, {1, 1}, {3, 3}}}},
      {"coincident_end", {{{0, 0}, {2, 2}, {3, 3}, {3, 3}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Route route =
        MustBuild({RouteSegment::Bezier(c.points[0], c.points[1], c.points[2], c.points[3])});
    EXPECT_NEAR(route.length(), std::sqrt(18.0), 1e-12);
    for (int k = 0; k <= 20; ++k) {
      const double s = route.length() * k / 20;
      const Pose2 pose = route.Sample(s);
      EXPECT_NEAR(pose.position.x, s / std::sqrt(2.0), 1e-9) << k;
      EXPECT_NEAR(pose.position.y, s / std::sqrt(2.0), 1e-9) << k;
      EXPECT_NEAR(pose.heading, kPi / 4, 1e-9) << k;
    }
  }
}

TEST(RouteSample, ReversingStraightBezierWalksItsTotalVariation) {
  // x(t) = 9t(1-t)² - 3t²(1-t) + t³ goes forward, back and forward again on the x axis.
  const Route route = MustBuild({RouteSegment::Bezier({0, 0}, {3, 0}, {-1, 0}, {1, 0})});
  // Turning points: x'(t) = 0, a quadratic; the length is the total variation of x.
  const auto x = [](double t) {
    return 9 * t * (1 - t) * (1 - t) - 3 * t * t * (1 - t) + t * t * t;
  };
  // x'(t) = 3[3(1-t)² - 8t(1-t) + 2t²] = 39t² - 42t + 9.
  const double disc = std::sqrt(42.0 * 42.0 - 4 * 39 * 9);
  const double t1 = (42 - disc) / 78, t2 = (42 + disc) / 78;
  const double expected = std::abs(x(t1)) + std::abs(x(t2) - x(t1)) + std::abs(1 - x(t2));
  EXPECT_NEAR(route.length(), expected, 1e-10);
  // Halfway along the first forward run, and on the way back.
  const Pose2 forward = route.Sample(x(t1) / 2);
  EXPECT_NEAR(forward.position.x, x(t1) / 2, 1e-9);
  EXPECT_NEAR(forward.heading, 0.0, 1e-9);
  const Pose2 back = route.Sample(x(t1) + 0.25 * (x(t1) - x(t2)));
  EXPECT_NEAR(back.position.x, x(t1) - 0.25 * (x(t1) - x(t2)), 1e-9);
  EXPECT_NEAR(AngleGap(back.heading, kPi), 0.0, 1e-9);
}

TEST(RouteSample, ZeroLengthSegmentsAreSkipped) {
  const Route route = MustBuild({
      RouteSegment::Line({0, 0}, {0, 0}),
      RouteSegment::Line({0, 0}, {10, 0}),
      RouteSegment::Bezier({10, 0}, {10, 0}, {10, 0}, {10, 0}),
      RouteSegment::Line({10, 0}, {10, 0}),
      RouteSegment::Line({10, 0}, {10, 5}),
      RouteSegment::Line({10, 5}, {10, 5}),
  });
  EXPECT_DOUBLE_EQ(route.length(), 15.0);
  EXPECT_EQ(route.Sample(0.0).heading, 0.0);                // the first real segment
  EXPECT_NEAR(route.Sample(10.0).heading, kPi / 2, 1e-15);  // the join: next real segment
  EXPECT_NEAR(route.Sample(15.0).heading, kPi / 2, 1e-15);  // the end: last real segment
  EXPECT_EQ(route.Sample(15.0).position, glm::dvec2(10, 5));
  EXPECT_NEAR(route.Sample(9.999).position.x, 9.999, 1e-12);
}

TEST(RouteSample, RouteOfZeroLengthRestsAtItsStart) {
  const Route route = MustBuild({RouteSegment::Bezier({2, 3}, {2, 3}, {2, 3}, {2, 3})});
  EXPECT_EQ(route.length(), 0.0);
  const Pose2 pose = route.Sample(5.0);
  EXPECT_EQ(pose.position, glm::dvec2(2, 3));
  EXPECT_EQ(pose.heading, 0.0);
}

TEST(RouteSample, CoincidentControlPointsGiveTheLimitTangent) {
  // P0 = P1: leaving towards P2. P2 = P3: arriving from P1.
  const Route start = MustBuild({RouteSegment::Bezier({0, 0}, {0, 0}, {0, 5}, {5, 5})});
  EXPECT_NEAR(start.Sample(0.0).heading, kPi / 2, 1e-12);
  const Route end = MustBuild({RouteSegment::Bezier({0, 0}, {5, 0}, {5, 5}, {5, 5})});
  EXPECT_NEAR(end.Sample(end.length()).heading, kPi / 2, 1e-12);
  EXPECT_NEAR(end.Sample(end.length() * (1 - 1e-13)).heading, kPi / 2, 1e-6);
}

TEST(RouteSample, ConstantSpeedAndContinuousAcrossJoins) {
  const Route route = MustBuild({
      RouteSegment::Line({0, 0}, {50, 0}),
      RouteSegment::Bezier({50, 0}, {120, 0}, {40, 80}, {100, 100}),
      // Coincident start: it leaves towards P2, along the previous end tangent (60, 20).
      RouteSegment::Bezier({100, 100}, {100, 100}, {190, 130}, {200, 60}),
      RouteSegment::Line({200, 60}, {230, -150}),
  });
  // Tangents match at every join, so the only radius below 1e-3 is where the curvature of the
  // coincident-start Bezier really diverges (like y = x^1.5), right at its start.
  for (const TightStretch& s : route.FindTightStretches(1e-3)) {
    EXPECT_NEAR(s.start_distance, route.segment_start_distance(2), 1e-6);
    EXPECT_NEAR(s.end_distance, route.segment_start_distance(2), 1e-6);
  }
  // A fine polyline from the curve parameter (no arc length involved) bounds the length from
  // below and converges to it.
  double polyline = 50.0 + std::hypot(30.0, 210.0);
  for (std::size_t i : {1u, 2u}) {
    const CubicBezier* curve = route.bezier(i);
    ASSERT_NE(curve, nullptr);
    glm::dvec2 previous = curve->Position(0.0);
    for (int k = 1; k <= 200000; ++k) {
      const glm::dvec2 p = curve->Position(k / 200000.0);
      polyline += glm::length(p - previous);
      previous = p;
    }
  }
  EXPECT_LE(polyline, route.length() * (1 + 1e-12));
  EXPECT_NEAR(polyline, route.length(), 1e-7 * route.length());

  // Equal steps in distance are equal steps along the curve: the chord never exceeds the step
  // (beyond the inverse's 1e-10 of the control polygon) and falls short of it only by the
  // curvature.
  const int steps = 20000;
  const double h = route.length() / steps;
  Pose2 previous = route.Sample(0.0);
  for (int k = 1; k <= steps; ++k) {
    const Pose2 pose = route.Sample(k * h);
    const double chord = glm::length(pose.position - previous.position);
    ASSERT_LE(chord, h + 1e-7) << k;
    ASSERT_GE(chord, h * 0.99) << k;
    previous = pose;
  }
  // The inverse map is the inverse of the forward map.
  for (std::size_t i : {1u, 2u}) {
    const CubicBezier* curve = route.bezier(i);
    for (int k = 0; k <= 100; ++k) {
      const double s = curve->length() * k / 100;
      EXPECT_NEAR(curve->DistanceAtParameter(curve->ParameterAtDistance(s)), s,
                  1e-9 * curve->length());
    }
  }
}

// ---- Curvature check ---------------------------------------------------------------------------

TEST(TightStretches, QuarterCircleIsTightOnlyForLargerRadii) {
  const double r = 100.0;
  const Route route =
      MustBuild({RouteSegment::Line({0, -50}, {100, -50}), QuarterArc({100, 50}, r, -kPi / 2),
                 RouteSegment::Line({200, 50}, {200, 150})});
  const std::vector<TightStretch> tight = route.FindTightStretches(120.0);
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_NEAR(tight[0].start_distance, 100.0, 1e-6);
  EXPECT_NEAR(tight[0].end_distance, route.segment_start_distance(2), 1e-6);
  EXPECT_NEAR(tight[0].min_radius, r, 0.02 * r);  // the cubic is within ~1% of the circle
  // The reported minimum is the curvature there.
  const CubicBezier* curve = route.bezier(1);
  const double t = curve->ParameterAtDistance(tight[0].min_radius_distance - 100.0);
  EXPECT_NEAR(1.0 / std::abs(curve->Curvature(t)), tight[0].min_radius, 1e-6 * r);
  EXPECT_TRUE(route.FindTightStretches(95.0).empty());
  EXPECT_TRUE(route.FindTightStretches(0.0).empty());
}

TEST(TightStretches, KinksBetweenSegmentsHaveRadiusZero) {
  const Route corner =
      MustBuild({RouteSegment::Line({0, 0}, {10, 0}), RouteSegment::Line({10, 0}, {10, 10})});
  const std::vector<TightStretch> tight = corner.FindTightStretches(0.001);
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_EQ(tight[0].start_distance, 10.0);
  EXPECT_EQ(tight[0].end_distance, 10.0);
  EXPECT_EQ(tight[0].min_radius, 0.0);
  const Route straight =
      MustBuild({RouteSegment::Line({0, 0}, {10, 0}), RouteSegment::Line({10, 0}, {30, 0})});
  EXPECT_TRUE(straight.FindTightStretches(1e6).empty());
  // A Bezier leaving the line at an angle is a kink too; leaving along it is not.
  const Route bent = MustBuild({RouteSegment::Line({0, 0}, {10, 0}),
                                RouteSegment::Bezier({10, 0}, {11, 1}, {20, 1}, {30, 0})});
  ASSERT_FALSE(bent.FindTightStretches(0.001).empty());
  EXPECT_EQ(bent.FindTightStretches(0.001)[0].start_distance, 10.0);
  const Route smooth = MustBuild({RouteSegment::Line({0, 0}, {10, 0}),
                                  RouteSegment::Bezier({10, 0}, {20, 0}, {30, 0}, {40, 10})});
  for (const TightStretch& s : smooth.FindTightStretches(1.0)) EXPECT_GT(s.start_distance, 10.0);
}

TEST(TightStretches, ClosedSquareHasFourCornersOpenHasThree) {
  std::vector<RouteSegment> square = {
      RouteSegment::Line({0, 0}, {10, 0}), RouteSegment::Line({10, 0}, {10, 10}),
      RouteSegment::Line({10, 10}, {0, 10}), RouteSegment::Line({0, 10}, {0, 0})};
  EXPECT_EQ(MustBuild(square, false).FindTightStretches(1.0).size(), 3u);
  const std::vector<TightStretch> closed = MustBuild(square, true).FindTightStretches(1.0);
  ASSERT_EQ(closed.size(), 4u);
  EXPECT_EQ(closed[3].start_distance, 40.0);
}

TEST(TightStretches, TouchingStretchesMerge) {
  // Two quarter circles in a row (a half circle): one stretch across the join, which is smooth.
  const Route route = MustBuild({QuarterArc({0, 0}, 10, 0.0), QuarterArc({0, 0}, 10, kPi / 2)});
  const std::vector<TightStretch> tight = route.FindTightStretches(20.0);
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_NEAR(tight[0].start_distance, 0.0, 1e-9);
  EXPECT_NEAR(tight[0].end_distance, route.length(), 1e-9);
}

TEST(TightStretches, CuspsAndReversalsHaveRadiusZero) {
  // B'(1/2) = 0 for this symmetric curve: a cusp in the middle.
  const Route cusp = MustBuild({RouteSegment::Bezier({0, 0}, {100, 100}, {0, 100}, {100, 0})});
  const std::vector<TightStretch> tight = cusp.FindTightStretches(1.0);
  ASSERT_FALSE(tight.empty());
  const double middle = cusp.length() / 2;
  bool found = false;
  for (const TightStretch& s : tight) {
    if (s.start_distance <= middle + 1e-6 && s.end_distance >= middle - 1e-6) {
      found = true;
      EXPECT_LT(s.min_radius, 1e-6);
      EXPECT_NEAR(s.min_radius_distance, middle, 1e-3);
    }
  }
  EXPECT_TRUE(found);
  // A straight Bezier that turns back has no curvature but a 180° turn: radius 0 there.
  const Route reverse = MustBuild({RouteSegment::Bezier({0, 0}, {3, 0}, {-1, 0}, {1, 0})});
  const std::vector<TightStretch> reversals = reverse.FindTightStretches(0.01);
  ASSERT_EQ(reversals.size(), 2u);
  for (const TightStretch& s : reversals) EXPECT_LT(s.min_radius, 1e-6);
}

TEST(RouteSampleJob, ValidatesAndFillsTheOutput) {
  const Route route = MustBuild({RouteSegment::Bezier({0, 0}, {1, 2}, {3, 2}, {4, 0})});
  const double distances[4] = {-1.0, 0.5, 2.0, 100.0};
  Pose2 poses[4];
  RouteSampleJob job{&route, distances, 4, poses};
  ASSERT_TRUE(job.Run());
  for (int i = 0; i < 4; ++i) {
    const Pose2 expected = route.Sample(distances[i]);
    EXPECT_EQ(poses[i].position, expected.position);
    EXPECT_EQ(poses[i].heading, expected.heading);
  }
  EXPECT_FALSE((RouteSampleJob{nullptr, distances, 4, poses}.Run()));
  EXPECT_FALSE((RouteSampleJob{&route, distances, 4, nullptr}.Validate()));
}

}  // namespace
}  // namespace md5stage
