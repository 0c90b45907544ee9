// Corner rounding: fillets of the turning radius on polylines and curves (tangent, the right
// radius, the right place), shrinking where they do not fit, U-turns, and an honest report: the
// path core finds nothing tight that the result does not list.
#include "core/path/corner_rounding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/path/cubic_bezier.h"
#include "core/path/route_editor.h"

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

std::vector<RouteSegment> Polyline(const std::vector<glm::dvec2>& points, bool closed) {
  std::vector<RouteSegment> segments;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    segments.push_back(RouteSegment::Line(points[i], points[i + 1]));
  }
  if (closed) segments.push_back(RouteSegment::Line(points.back(), points.front()));
  return segments;
}

std::vector<glm::dvec2> Shifted(std::vector<glm::dvec2> points, glm::dvec2 by) {
  for (glm::dvec2& p : points) p += by;
  return points;
}

std::vector<glm::dvec2> RegularPolygon(int sides, double circumradius, int step = 1) {
  std::vector<glm::dvec2> points;
  for (int i = 0; i < sides; ++i) {
    points.push_back(circumradius * Direction(kTwoPi * step * i / sides));
  }
  return points;
}

RoundedRoute MustRound(const std::vector<RouteSegment>& segments, bool closed, double radius) {
  Result<RoundedRoute> rounded = RoundCorners(segments, closed, radius);
  EXPECT_TRUE(rounded.ok()) << rounded.error().ToString();
  return rounded.ok() ? std::move(rounded).value() : RoundedRoute();
}

Route MustBuild(const std::vector<RouteSegment>& segments, bool closed) {
  Result<Route> route = Route::Build(segments, closed);
  EXPECT_TRUE(route.ok()) << route.error().ToString();
  return route.ok() ? std::move(route).value() : Route();
}

// The fillet's pieces have a radius of curvature within `tolerance` (relative) of its circle's.
void ExpectArcPieces(const RoundedRoute& rounded, const RoundedCorner& corner,
                     double tolerance = 1e-3) {
  ASSERT_GT(corner.output_segment_count, 0u);
  for (std::size_t i = corner.first_output_segment;
       i < corner.first_output_segment + corner.output_segment_count; ++i) {
    ASSERT_EQ(rounded.source[i], -1);
    ASSERT_EQ(rounded.segments[i].kind, RouteSegment::Kind::kBezier);
    const CubicBezier arc(rounded.segments[i].points);
    for (int j = 0; j <= 64; ++j) {
      const double curvature = std::abs(arc.Curvature(j / 64.0));
      EXPECT_NEAR(1.0 / curvature / corner.radius, 1.0, tolerance) << "piece " << i << " t " << j;
    }
  }
}

// Whatever the path core finds tighter than the radius lies at a corner reported tight or in a
// reported tight curve.
void ExpectHonestReport(const RoundedRoute& rounded, double radius) {
  const Route route = MustBuild(rounded.segments, rounded.closed);
  const double slack = 1e-9 * std::max(1.0, route.length());
  for (const TightStretch& stretch : route.FindTightStretches(radius * (1.0 - 1e-9))) {
    bool listed = false;
    for (const RoundedCorner& corner : rounded.corners) {
      listed = listed || (corner.tight && stretch.start_distance <= corner.end_distance + slack &&
                          stretch.end_distance >= corner.start_distance - slack);
    }
    for (const TightCurve& curve : rounded.tight_curves) {
      listed = listed || (stretch.start_distance <= curve.stretch.end_distance + slack &&
                          stretch.end_distance >= curve.stretch.start_distance - slack);
    }
    EXPECT_TRUE(listed) << "unreported stretch [" << stretch.start_distance << ", "
                        << stretch.end_distance << "] radius " << stretch.min_radius;
  }
}

// ---- Polylines whose corners fit ---------------------------------------------------------------

struct FitCase {
  const char* name;
  std::vector<glm::dvec2> points;
  bool closed;
  double radius;
  std::size_t corners;
};

TEST(RoundCorners, FittingPolylineCornersBecomeArcsOfTheRadius) {
  const std::vector<glm::dvec2> square = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const FitCase cases[] = {
      {"square_open", square, false, 1.0, 2},
      {"square_closed", square, true, 1.0, 4},
      {"square_clockwise", {{0, 0}, {0, 10}, {10, 10}, {10, 0}}, true, 1.0, 4},
      {"square_far_from_the_origin", Shifted(square, {5000, -3000}), true, 1.0, 4},
      {"square_just_fitting", {{0, 0}, {2.0004, 0}, {2.0004, 2.0004}, {0, 2.0004}}, true, 1.0, 4},
      {"zigzag", {{0, 0}, {5, 3}, {10, 0}, {15, 3}, {20, 0}, {25, 3}}, false, 1.0, 4},
      {"acute_174_degrees", {{0, 0}, {10, 0}, {0, 1}}, false, 0.2, 1},
      {"acute_closed_sliver", {{0, 0}, {30, 0}, {0, 3}}, true, 0.1, 3},
      {"obtuse_and_right", {{0, 0}, {10, 0}, {20, 5}, {20, 15}}, false, 2.0, 2},
      {"closed_triangle", {{0, 0}, {20, 0}, {10, 15}}, true, 1.0, 3},
      {"closed_hexagon", RegularPolygon(6, 10), true, 2.0, 6},
      {"closed_pentagram", RegularPolygon(5, 10, 2), true, 2.0, 5},
      {"nearly_straight_1e-2", {{0, 0}, {10, 0}, {20, 0.1}}, false, 1.0, 1},
      {"nearly_straight_1e-3", {{0, 0}, {10, 0}, {20, 0.01}}, false, 1.0, 1},
      {"nearly_straight_1e-5", {{0, 0}, {10, 0}, {20, 1e-4}}, false, 1.0, 1},
      {"nearly_straight_1e-6_far_away", Shifted({{0, 0}, {10, 0}, {20, 1e-5}}, {900, 900}), false,
       1.0, 1},
      {"nearly_straight_2e-7", {{0, 0}, {10, 0}, {20, 2e-6}}, false, 1.0, 1},
      {"collinear_points", {{0, 0}, {5, 0}, {10, 0}, {15, 0}}, false, 1.0, 0},
      {"huge_radius_straight", {{0, 0}, {10, 0}}, false, 1e6, 0},
  };
  for (const FitCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<RouteSegment> input = Polyline(c.points, c.closed);
    const RoundedRoute rounded = MustRound(input, c.closed, c.radius);
    ASSERT_EQ(rounded.corners.size(), c.corners);
    EXPECT_TRUE(rounded.clear());
    EXPECT_TRUE(rounded.tight_curves.empty());
    const Route route = MustBuild(rounded.segments, rounded.closed);
    EXPECT_EQ(rounded.route.segments(), rounded.segments);
    EXPECT_EQ(rounded.route.closed(), c.closed);
    EXPECT_TRUE(route.FindTightStretches(c.radius * 0.999).empty());
    EXPECT_TRUE(route.FindTightStretches(c.radius).empty());  // the margin covers the cubic's dip

    // Where each fillet must be: tangent length R·tan(θ/2) from the corner along both legs, and
    // its middle R·(1/cos(θ/2) - 1) from the corner.
    const Route original = MustBuild(input, c.closed);
    double expected_length = original.length();
    for (const RoundedCorner& corner : rounded.corners) {
      SCOPED_TRACE(corner.segment);
      EXPECT_FALSE(corner.tight);
      EXPECT_GE(corner.min_radius, c.radius);
      EXPECT_GE(corner.radius, c.radius);
      if (std::abs(corner.turn) > 1e-2) {
        EXPECT_LE(corner.radius, 1.001 * c.radius);
      }
      ExpectArcPieces(rounded, corner);
      const std::size_t next = (corner.segment + 1) % input.size();
      const glm::dvec2 in_direction =
          glm::normalize(input[corner.segment].end() - input[corner.segment].start());
      const glm::dvec2 out_direction = glm::normalize(input[next].end() - input[next].start());
      EXPECT_NEAR(corner.turn,
                  WrapPi(std::atan2(Cross(in_direction, out_direction),
                                    glm::dot(in_direction, out_direction))),
                  1e-12);
      const double half = 0.5 * std::abs(corner.turn);
      const double tangent = corner.radius * std::tan(half);
      const double scale = 1e-9 * std::max(1.0, glm::length(corner.point));
      const RouteSegment& first = rounded.segments[corner.first_output_segment];
      const RouteSegment& last =
          rounded.segments[corner.first_output_segment + corner.output_segment_count - 1];
      EXPECT_LT(glm::length(first.start() - (corner.point - tangent * in_direction)),
                scale * std::max(1.0, tangent));
      EXPECT_LT(glm::length(last.end() - (corner.point + tangent * out_direction)),
                scale * std::max(1.0, tangent));
      const glm::dvec2 middle =
          route.Sample(0.5 * (corner.start_distance + corner.end_distance)).position;
      EXPECT_NEAR(glm::length(middle - corner.point), corner.radius * (1.0 / std::cos(half) - 1.0),
                  1e-6 * corner.radius + scale);
      EXPECT_NEAR(corner.end_distance - corner.start_distance, corner.radius * 2.0 * half,
                  1e-5 * corner.radius * half + scale);
      expected_length -= 2.0 * tangent - corner.radius * 2.0 * half;
    }
    EXPECT_NEAR(route.length(), expected_length, 1e-6 * expected_length);
    ExpectHonestReport(rounded, c.radius);
  }
}

// ---- Corners that do not fit -------------------------------------------------------------------

struct TightCase {
  const char* name;
  std::vector<glm::dvec2> points;
  bool closed;
  double radius;
  std::size_t corners;
  std::size_t sharp;       // corners left as kinks (U-turns)
  double expected_fillet;  // radius of the shrunk fillets, when they are all the same (or 0)
};

TEST(RoundCorners, CornersThatDoNotFitShrinkAndAreReported) {
  const TightCase cases[] = {
      {"small_square", {{0, 0}, {1, 0}, {1, 1}, {0, 1}}, true, 1.0, 4, 0, 0.5},
      {"short_zigzag", {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 0}}, false, 5.0, 3, 0, std::sqrt(0.5)},
      {"u_turn", {{0, 0}, {10, 0}, {0, 0}}, false, 1.0, 1, 1, 0.0},
      {"u_turn_onto_a_shorter_leg", {{0, 0}, {10, 0}, {4, 0}}, false, 1.0, 1, 1, 0.0},
      {"closed_with_two_points", {{0, 0}, {10, 0}}, true, 1.0, 2, 2, 0.0},
      {"nearly_u_turn", {{0, 0}, {10, 0}, {0, 0.17}}, false, 1.0, 1, 0, 0.0},
      {"square_a_hair_too_small",
       {{0, 0}, {1.999, 0}, {1.999, 1.999}, {0, 1.999}},
       true,
       1.0,
       4,
       0,
       1.999 / 2},
  };
  for (const TightCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<RouteSegment> input = Polyline(c.points, c.closed);
    const RoundedRoute rounded = MustRound(input, c.closed, c.radius);
    ASSERT_EQ(rounded.corners.size(), c.corners);
    EXPECT_FALSE(rounded.clear());
    std::size_t sharp = 0;
    double smallest = kInf;
    for (const RoundedCorner& corner : rounded.corners) {
      EXPECT_TRUE(corner.tight);
      EXPECT_LT(corner.min_radius, c.radius);
      if (corner.radius == 0.0) {
        ++sharp;
        EXPECT_EQ(corner.output_segment_count, 0u);
        EXPECT_EQ(corner.start_distance, corner.end_distance);
        EXPECT_NEAR(std::abs(corner.turn), kPi, 1e-9);
        continue;
      }
      ExpectArcPieces(rounded, corner);
      smallest = std::min(smallest, corner.min_radius);
      if (c.expected_fillet > 0.0) {
        EXPECT_NEAR(corner.radius, c.expected_fillet, 1e-9);
      }
    }
    EXPECT_EQ(sharp, c.sharp);
    const Route route = MustBuild(rounded.segments, rounded.closed);
    ExpectHonestReport(rounded, c.radius);
    // The shrunk fillets are still clean arcs: nothing is tighter than the smallest of them, and
    // the only kinks are the U-turns.
    const std::vector<TightStretch> left = route.FindTightStretches(smallest * (1.0 - 1e-9));
    EXPECT_EQ(left.size(), c.sharp);
    for (const TightStretch& stretch : left) EXPECT_EQ(stretch.min_radius, 0.0);
  }
}

TEST(RoundCorners, FilletsConsumingWholeLegs) {
  // Side 1 and radius 1: each side is shared by two fillets of tangent length 0.5, nothing of
  // the lines is left, and the route is a chain of arcs of radius 0.5.
  const RoundedRoute square =
      MustRound(Polyline({{0, 0}, {1, 0}, {1, 1}, {0, 1}}, true), true, 1.0);
  for (int source : square.source) EXPECT_EQ(source, -1);
  EXPECT_EQ(square.segments.size(), 4u * 3u);  // 90° in pieces of at most 30°
  const Route route = MustBuild(square.segments, true);
  EXPECT_NEAR(route.length(), kTwoPi * 0.5, 1e-6);
  // One corner, one leg fully used: the route starts with the fillet.
  const RoundedRoute hook = MustRound(Polyline({{0, 0}, {1, 0}, {1, 5}}, false), false, 1.0);
  ASSERT_EQ(hook.corners.size(), 1u);
  EXPECT_NEAR(hook.corners[0].radius, 1.0, 1e-12);
  EXPECT_EQ(hook.source.front(), -1);
  EXPECT_EQ(hook.segments.front().start(), glm::dvec2(0, 0));
  EXPECT_TRUE(hook.corners[0].tight);  // exactly the radius: the cubic dips ~1e-4 below it
  EXPECT_GT(hook.corners[0].min_radius, 0.9998);
}

// ---- Corners between curves --------------------------------------------------------------------

struct CurveCase {
  const char* name;
  std::vector<RouteSegment> segments;
  bool closed;
  double radius;
  std::size_t corners;
};

TEST(RoundCorners, FilletsAreTangentToCurves) {
  const CurveCase cases[] = {
      {"line_into_bezier",
       {RouteSegment::Line({0, 0}, {10, 0}),
        RouteSegment::Bezier({10, 0}, {12, 4}, {16, 6}, {20, 6})},
       false,
       1.0,
       1},
      {"bezier_missing_handle_into_line",
       {RouteSegment::Bezier({0, 0}, {4, 4}, {10, 0}, {10, 0}),
        RouteSegment::Line({10, 0}, {20, 0})},
       false,
       1.0,
       1},
      {"bezier_into_bezier_right_angle",
       {RouteSegment::Bezier({0, 0}, {3, 0}, {7, 2}, {10, 2}),
        RouteSegment::Bezier({10, 2}, {10, 5}, {12, 8}, {15, 8})},
       false,
       1.0,
       1},
      {"bezier_into_bezier_right_turn",
       {RouteSegment::Bezier({0, 0}, {3, 0}, {7, -2}, {10, -2}),
        RouteSegment::Bezier({10, -2}, {10, -5}, {12, -8}, {15, -8})},
       false,
       0.5,
       1},
      {"closed_mixed",
       {RouteSegment::Line({0, 0}, {20, 0}),
        RouteSegment::Bezier({20, 0}, {25, 5}, {25, 15}, {20, 20}),
        RouteSegment::Line({20, 20}, {0, 20}), RouteSegment::Line({0, 20}, {0, 0})},
       true,
       2.0,
       4},
      {"closed_single_bezier_loop",
       {RouteSegment::Bezier({0, 0}, {20, 10}, {20, -10}, {0, 0})},
       true,
       1.0,
       1},
  };
  for (const CurveCase& c : cases) {
    SCOPED_TRACE(c.name);
    const RoundedRoute rounded = MustRound(c.segments, c.closed, c.radius);
    ASSERT_EQ(rounded.corners.size(), c.corners);
    const Route original = MustBuild(c.segments, c.closed);
    const Route route = MustBuild(rounded.segments, rounded.closed);
    for (const RoundedCorner& corner : rounded.corners) {
      SCOPED_TRACE(corner.segment);
      ASSERT_GT(corner.radius, 0.0);
      EXPECT_FALSE(corner.tight);
      ExpectArcPieces(rounded, corner);
      // Both ends of the fillet lie on the original route, heading the way it does there.
      for (double d : {corner.start_distance, corner.end_distance}) {
        const Pose2 on_fillet = route.Sample(d);
        const RouteNearestPoint nearest = NearestPointOnRoute(original, on_fillet.position);
        EXPECT_LT(nearest.gap, 1e-9);
        EXPECT_LT(AngleGap(original.Sample(nearest.distance).heading, on_fillet.heading), 1e-7);
      }
    }
    // No kinks are left, and anything tight is reported.
    for (const TightStretch& stretch : route.FindTightStretches(c.radius)) {
      EXPECT_GT(stretch.end_distance - stretch.start_distance + stretch.min_radius, 0.0);
    }
    ExpectHonestReport(rounded, c.radius);
  }
}

TEST(RoundCorners, GentleCurvesComeOutClear) {
  // A line into a wide arc (radius 20) with a 45° kink, radius 2: nothing is left tight.
  const double k = 0.5522847498307936 * 20;
  const std::vector<RouteSegment> input = {
      RouteSegment::Line({-20, -20}, {0, 0}),
      RouteSegment::Bezier({0, 0}, {k, 0}, {20, 20 - k}, {20, 20})};
  const RoundedRoute rounded = MustRound(input, false, 2.0);
  ASSERT_EQ(rounded.corners.size(), 1u);
  EXPECT_NEAR(rounded.corners[0].turn, -kPi / 4, 1e-12);
  EXPECT_TRUE(rounded.clear());
  EXPECT_TRUE(MustBuild(rounded.segments, false).FindTightStretches(2.0).empty());
}

TEST(RoundCorners, TightBeziersAreReportedAsCurvesNotCorners) {
  // A U-shaped Bezier (radius 3.75 at its middle) joined smoothly to lines, then a right angle.
  const std::vector<RouteSegment> input = {
      RouteSegment::Line({0, 0}, {10, 0}),
      RouteSegment::Bezier({10, 0}, {20, 0}, {20, 10}, {10, 10}),
      RouteSegment::Line({10, 10}, {0, 10}), RouteSegment::Line({0, 10}, {0, 20})};
  const RoundedRoute rounded = MustRound(input, false, 5.0);
  ASSERT_EQ(rounded.corners.size(), 1u);
  EXPECT_EQ(rounded.corners[0].segment, 2u);
  EXPECT_FALSE(rounded.corners[0].tight);
  ASSERT_FALSE(rounded.tight_curves.empty());
  double smallest = kInf;
  for (const TightCurve& curve : rounded.tight_curves) {
    EXPECT_EQ(curve.segment, 1u);
    smallest = std::min(smallest, curve.stretch.min_radius);
  }
  EXPECT_GT(smallest, 0.0);
  EXPECT_LE(smallest, 3.75 + 1e-9);
  EXPECT_FALSE(rounded.clear());
  ExpectHonestReport(rounded, 5.0);
  // The same route without the corner: returned as it is, the curve still reported.
  const std::vector<RouteSegment> smooth(input.begin(), input.begin() + 3);
  const RoundedRoute unchanged = MustRound(smooth, false, 5.0);
  EXPECT_EQ(unchanged.segments, smooth);
  EXPECT_TRUE(unchanged.corners.empty());
  EXPECT_FALSE(unchanged.tight_curves.empty());
}

// ---- Degenerate input --------------------------------------------------------------------------

TEST(RoundCorners, DegenerateInput) {
  const std::vector<RouteSegment> line = {RouteSegment::Line({0, 0}, {10, 0})};
  for (double radius : {0.0, -1.0, kNaN, kInf}) {
    EXPECT_FALSE(RoundCorners(line, false, radius).ok()) << radius;
  }
  EXPECT_FALSE(RoundCorners({}, false, 1.0).ok());
  EXPECT_FALSE(
      RoundCorners({RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({2, 0}, {3, 0})}, false,
                   1.0)
          .ok());
  // One segment, and only zero-length segments: unchanged.
  EXPECT_EQ(MustRound(line, false, 1.0).segments, line);
  const std::vector<RouteSegment> dots = {RouteSegment::Line({1, 1}, {1, 1}),
                                          RouteSegment::Bezier({1, 1}, {1, 1}, {1, 1}, {1, 1})};
  const RoundedRoute still = MustRound(dots, false, 1.0);
  EXPECT_EQ(still.segments, dots);
  EXPECT_EQ(still.source, (std::vector<int>{0, 1}));
  // Coincident points inside a polyline are skipped over: the corner is between their neighbours.
  const RoundedRoute skipped =
      MustRound(Polyline({{0, 0}, {10, 0}, {10, 0}, {10, 0}, {10, 10}}, false), false, 1.0);
  ASSERT_EQ(skipped.corners.size(), 1u);
  EXPECT_NEAR(skipped.corners[0].turn, kPi / 2, 1e-12);
  EXPECT_TRUE(skipped.clear());
  for (int source : skipped.source) EXPECT_TRUE(source == -1 || source == 0 || source == 3);
}

TEST(RoundCorners, AppendArcBeziersStaysOnTheCircle) {
  for (double sweep : {0.01, kPi / 6, kPi / 2, -kPi, 1.5 * kTwoPi}) {
    SCOPED_TRACE(sweep);
    std::vector<RouteSegment> arc;
    AppendArcBeziers({3, -2}, 4.0, 0.3, sweep, &arc);
    const int pieces = static_cast<int>(std::ceil(std::abs(sweep) / kMaxArcPieceAngle - 1e-9));
    ASSERT_EQ(static_cast<int>(arc.size()), pieces);
    const Route route = MustBuild(arc, false);
    EXPECT_NEAR(route.length(), 4.0 * std::abs(sweep), 1e-5 * std::abs(sweep));
    for (int i = 0; i <= 200; ++i) {
      const double d = route.length() * i / 200.0;
      EXPECT_NEAR(glm::length(route.Sample(d).position - glm::dvec2(3, -2)), 4.0, 4e-6);
    }
    EXPECT_TRUE(
        route.FindTightStretches(4.0 * StandardArcMinRadius(kMaxArcPieceAngle) * (1.0 - 1e-9))
            .empty());
  }
  std::vector<RouteSegment> none;
  AppendArcBeziers({0, 0}, 1.0, 0.0, 0.0, &none);
  AppendArcBeziers({0, 0}, 0.0, 0.0, 1.0, &none);
  EXPECT_TRUE(none.empty());
  // The standard cubic's dip below its radius grows like angle^4: 30° stays within 0.02%.
  EXPECT_GT(StandardArcMinRadius(kPi / 6), 0.9998);
  EXPECT_LT(StandardArcMinRadius(kPi / 6), 1.0);
  EXPECT_LT(StandardArcMinRadius(kPi / 2), 0.995);
  EXPECT_GT(StandardArcMinRadius(0.01), 1.0 - 1e-9);
}

// ---- Random routes -----------------------------------------------------------------------------

TEST(RoundCorners, RandomRoutesAreReportedHonestly) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> coordinate(-50.0, 50.0);
  std::uniform_real_distribution<double> radius(0.2, 8.0);
  for (int trial = 0; trial < 120; ++trial) {
    SCOPED_TRACE(trial);
    const bool closed = trial % 2 == 1;
    const bool curves = trial % 3 == 0;
    const int points = 3 + trial % 7;
    std::vector<glm::dvec2> corners;
    for (int i = 0; i < points; ++i) corners.push_back({coordinate(random), coordinate(random)});
    std::vector<RouteSegment> input = Polyline(corners, closed);
    if (curves) {
      for (std::size_t i = 0; i < input.size(); i += 2) {
        const glm::dvec2 a = input[i].start(), b = input[i].end();
        input[i] =
            RouteSegment::Bezier(a, a + glm::dvec2(coordinate(random), coordinate(random)) * 0.2,
                                 b + glm::dvec2(coordinate(random), coordinate(random)) * 0.2, b);
      }
    }
    const double r = radius(random);
    const RoundedRoute rounded = MustRound(input, closed, r);
    const Route route = MustBuild(rounded.segments, closed);
    ExpectHonestReport(rounded, r);
    for (const RoundedCorner& corner : rounded.corners) {
      if (corner.radius > 0.0) ExpectArcPieces(rounded, corner);
      if (!corner.tight) {
        EXPECT_GE(corner.min_radius, r);
      }
    }
    // Kinks are left only at corners left sharp.
    std::size_t sharp = 0;
    for (const RoundedCorner& corner : rounded.corners) sharp += corner.radius == 0.0 ? 1 : 0;
    std::size_t kinks = 0;
    for (const TightStretch& stretch : route.FindTightStretches(r)) {
      kinks += stretch.min_radius == 0.0 && stretch.end_distance == stretch.start_distance ? 1 : 0;
    }
    EXPECT_LE(kinks, sharp);
    // A rounded route is its own fixed point: no corners left to round.
    if (sharp == 0) {
      const RoundedRoute again = MustRound(rounded.segments, closed, r);
      EXPECT_TRUE(again.corners.empty());
    }
  }
}

// ---- With the editor ---------------------------------------------------------------------------

TEST(RoundCorners, ClickedRouteRoundsAndReadsBackIntoTheEditor) {
  RouteEditor editor;
  for (glm::dvec2 p :
       {glm::dvec2(0, 0), glm::dvec2(10.004, 0), glm::dvec2(10, 7.5), glm::dvec2(-3.333, 12)}) {
    editor.AddPoint(p);
  }
  ASSERT_TRUE(editor.Close());
  const Result<Route> drawn = editor.BuildRoute();
  ASSERT_TRUE(drawn.ok());
  EXPECT_EQ(drawn.value().FindTightStretches(1.5).size(), 4u);  // four kinks
  const RoundedRoute rounded = MustRound(editor.Segments(), true, 1.5);
  EXPECT_TRUE(rounded.clear());
  EXPECT_TRUE(MustBuild(rounded.segments, true).FindTightStretches(1.5).empty());
  // The rounded route becomes editable anchors: lines and arcs meet smoothly.
  const Result<RouteEditor> read = RouteEditor::FromSegments(rounded.segments, true);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read.value().Segments(), rounded.segments);
  for (const RouteAnchor& anchor : read.value().anchors()) {
    if (anchor.has_in && anchor.has_out) {
      EXPECT_NE(anchor.kind, AnchorKind::kCorner);
    }
  }
}

}  // namespace
}  // namespace md5stage
