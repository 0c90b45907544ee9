// Inputs the fuzzers (tests/fuzz) found to crash, hang or give NaN: each stays fixed. The raw
// fuzzer inputs are in tests/core/path/regressions/ (also seeds for tests/fuzz/run.sh).
// bezier_beyond_coordinate_contract_*.paths were findings against the harness, not the core: it
// demanded finite samples from curves with coordinates beyond kMaxRouteCoordinate, which routes
// refuse (HugeRouteCoordinatesAreRejectedQuickly); they stay as seeds so the harness keeps to it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/path/cubic_bezier.h"
#include "core/path/follower.h"
#include "core/path/route.h"
#include "core/path/route_json.h"
#include "core/path/turn_path.h"

namespace md5stage {
namespace {

std::string ReadRegression(const std::string& name) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/path/regressions/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool PoseIsFinite(const Pose2& pose) {
  return IsFinite(pose.position) && std::isfinite(pose.heading);
}

// fuzz_paths crash (arc_line_tiny_distance.paths): points 1e-300 apart made the squared distance
// underflow to 0 and the arc NaN.
struct ArcLineCase {
  const char* name;
  glm::dvec2 from;
  double heading;
  double radius;
  glm::dvec2 to;
  double expected_length;
};

TEST(PathRegression, ArcLineIsFiniteForTinyAndHugeDistances) {
  const ArcLineCase cases[] = {
      {"tiny_gap_radius_0", {1e-300, 0.0}, 0.0, 0.0, {0.0, 0.0}, 1e-300},
      // arc_line_denormal_distance.paths: scaling by 2^1073 at once overflowed to infinity.
      {"denormal_gap_radius_0",
       {std::numeric_limits<double>::denorm_min(), -0.0},
       -274.0,
       0.0,
       {0.0, 0.0},
       std::numeric_limits<double>::denorm_min()},
      {"tiny_gap_tiny_radius", {0.0, 0.0}, 0.0, 1e-301, {0.0, 1e-300}, -1.0},
      {"huge_gap", {1e300, 0.0}, kPi, 1.0, {-1e300, 0.0}, 2e300},
      {"huge_radius_behind", {0.0, 0.0}, 0.0, 1e300, {-3e300, 0.0}, -1.0},
  };
  for (const ArcLineCase& c : cases) {
    SCOPED_TRACE(c.name);
    for (TurnSide side : {TurnSide::kLeft, TurnSide::kRight}) {
      const TurnPath path = ArcLinePathOnSide(c.from, c.heading, c.radius, c.to, side);
      ASSERT_TRUE(path.ok());
      EXPECT_TRUE(std::isfinite(path.length)) << path.length;
      if (c.expected_length >= 0.0) {
        EXPECT_NEAR(path.length, c.expected_length, 1e-9 * c.expected_length);
        EXPECT_GT(path.length, 0.0);
      }
      for (double distance : {0.0, 0.5 * path.length, path.length}) {
        EXPECT_TRUE(PoseIsFinite(SampleTurnPath(path, distance))) << distance;
      }
    }
    const TurnPath best = ArcLinePath(c.from, c.heading, c.radius, c.to);
    ASSERT_TRUE(best.ok());
    EXPECT_TRUE(std::isfinite(best.length));
  }
}

TEST(PathRegression, ArcLineWhoseSizesOverflowIsNoPathNotNaN) {
  const double big = std::numeric_limits<double>::max();
  const TurnPath path = ArcLinePath({big, 0.0}, 0.0, 1.0, {-big, 0.0});
  EXPECT_FALSE(path.ok());
  EXPECT_EQ(path.length, 0.0);
}

// A turning radius so small that distance / radius overflows used to give "no path" (the Dubins
// frame was not finite): the radius is negligible, so the unit turns in place.
TEST(PathRegression, DubinsWithANegligibleRadiusTurnsInPlace) {
  const Pose2 from{{0.0, 0.0}, 0.0};
  const Pose2 to{{1e6, 0.0}, 0.5 * kPi};
  for (double radius : {1e-300, std::numeric_limits<double>::denorm_min()}) {
    SCOPED_TRACE(radius);
    const TurnPath path = DubinsPath(from, to, radius);
    ASSERT_TRUE(path.ok());
    EXPECT_NEAR(path.length, 1e6, 1e-3);
    EXPECT_NEAR(path.end.position.x, 1e6, 1e-6);
    EXPECT_NEAR(path.end.heading, 0.5 * kPi, 1e-12);
  }
  // And a follower with such a radius reaches a pose target.
  Follower follower(Pose2{{0.0, 0.0}, 0.0}, 1e-300, 100.0);
  ASSERT_TRUE(follower.GoToPose(0.0, to).ok());
  EXPECT_TRUE(follower.ArrivedAt(1e4 + 1.0));
  // Points 1e-300 apart with radius 1: the tiny distance is measured, not lost to underflow.
  const TurnPath near = DubinsPath({{0.0, 0.0}, 0.0}, {{1e-300, 0.0}, 0.0}, 1.0);
  ASSERT_TRUE(near.ok());
  EXPECT_TRUE(std::isfinite(near.length));
}

// fuzz_route hang (huge_coordinates.route.json): control points near 1e300 overflowed the Bezier
// arc-length quadrature to NaN, and the table refined every interval to depth 40 (2^40 knots,
// gigabytes, minutes). Routes now stop at 1e15 with a located message.
TEST(PathRegression, HugeRouteCoordinatesAreRejectedQuickly) {
  const Result<Route> route =
      ReadRouteJson("huge.route.json", ReadRegression("huge_coordinates.route.json"));
  ASSERT_FALSE(route.ok());
  EXPECT_EQ(route.error().ToString(),
            "huge.route.json:1:25: error: segments[0].bezier[0]: expected coordinates of at most "
            "1e15 in size, found [-1e+300, 0]");
  const Result<Route> built =
      Route::Build({RouteSegment::Line({0.0, 0.0}, {2e15, 0.0})}, /*closed=*/false);
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.error().message.find("segments[0]: coordinates must be at most 1e15 in size"),
            std::string::npos)
      << built.error().message;
  // The largest accepted coordinates still build and sample to finite poses.
  const Result<Route> edge = Route::Build(
      {RouteSegment::Bezier({-1e15, -1e15}, {1e15, 1e15}, {-1e15, 1e15}, {1e15, -1e15})});
  ASSERT_TRUE(edge.ok()) << edge.error().message;
  EXPECT_TRUE(std::isfinite(edge.value().length()));
  EXPECT_TRUE(PoseIsFinite(edge.value().Sample(0.5 * edge.value().length())));
  // A curve built directly from overflowing points (no Route::Build check) stays small.
  const CubicBezier overflowing({glm::dvec2(-1e300, 0.0), glm::dvec2(1e300, 1e300),
                                 glm::dvec2(1e-300, -1e300), glm::dvec2(0.0, 0.0)});
  // "Quickly": bounded by the knots counted (the hang built 2^40), not timed.
  EXPECT_LE(overflowing.knot_count(), 1000);
}

// fuzz_route (stretch_end_before_start.route.json): a tight stretch ending at the route's end
// started one ulp after it ended, because the Bezier's distance at a parameter just below 1 rounded
// past its length. Distances along a curve now never decrease, and stretches are ordered.
TEST(PathRegression, TightStretchesNeverEndBeforeTheyStart) {
  const Result<Route> route =
      ReadRouteJson("s.route.json", ReadRegression("stretch_end_before_start.route.json"));
  ASSERT_TRUE(route.ok()) << route.error().ToString();
  for (double radius : {0.5, 1.0, 40.0, 1e6}) {
    SCOPED_TRACE(radius);
    const std::vector<TightStretch> stretches = route.value().FindTightStretches(radius);
    ASSERT_FALSE(stretches.empty());
    double previous_end = 0.0;
    for (const TightStretch& stretch : stretches) {
      EXPECT_LE(previous_end, stretch.start_distance);
      EXPECT_LE(stretch.start_distance, stretch.end_distance);
      EXPECT_LE(stretch.start_distance, stretch.min_radius_distance);
      EXPECT_LE(stretch.min_radius_distance, stretch.end_distance);
      EXPECT_LE(stretch.end_distance, route.value().length());
      previous_end = stretch.end_distance;
    }
  }
  // The curve's own distances are monotonic up to its length.
  const CubicBezier* curve = route.value().bezier(1);
  ASSERT_NE(curve, nullptr);
  double previous = 0.0;
  for (double t = 0.999; t < 1.0; t = std::nextafter(t, 2.0) + 1e-6) {
    const double distance = curve->DistanceAtParameter(t);
    EXPECT_LE(previous, distance) << t;
    EXPECT_LE(distance, curve->length()) << t;
    previous = distance;
  }
}

}  // namespace
}  // namespace md5stage
