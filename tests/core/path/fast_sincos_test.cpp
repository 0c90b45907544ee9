// The path hot loops' own trig and look-up tables: FastSinCos against the library over ranges of
// magnitudes and at special values, and Route/CubicBezier sampling through the uniform look-up
// cells against a plain search, where cells hold many segments and at every boundary.
#include "core/path/fast_sincos.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/path/route.h"

namespace md5stage {
namespace {

// Distance in units in the last place (both finite, same sign or zero).
std::int64_t UlpDistance(double a, double b) {
  if (a == b) return 0;
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if ((ia < 0) != (ib < 0)) return std::numeric_limits<std::int64_t>::max();
  return ia > ib ? ia - ib : ib - ia;
}

struct SinCosRange {
  const char* name;
  double extent;  // angles uniform in [-extent, extent]
  std::int64_t max_ulps;
};

TEST(FastSinCos, WithinTwoUlpOfTheLibrary) {
  const SinCosRange ranges[] = {
      {"tiny", 1e-6, 1},         {"quarter turn", kPi / 4, 1}, {"heading", kPi, 2},
      {"few turns", 4 * kPi, 2}, {"hundreds", 500.0, 2},       {"near the limit", 9e5, 2},
  };
  for (const SinCosRange& range : ranges) {
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> angle(-range.extent, range.extent);
    std::int64_t worst = 0;
    for (int i = 0; i < 100000; ++i) {
      const double x = angle(rng);
      const SinCos sc = FastSinCos(x);
      const double s = std::sin(x), c = std::cos(x);
      // Near a zero the relative (ulp) measure is meaningless: check the absolute error there.
      if (std::abs(s) > 1e-3)
        worst = std::max(worst, UlpDistance(sc.s, s));
      else
        EXPECT_NEAR(sc.s, s, 2e-16) << range.name << " x=" << x;
      if (std::abs(c) > 1e-3)
        worst = std::max(worst, UlpDistance(sc.c, c));
      else
        EXPECT_NEAR(sc.c, c, 2e-16) << range.name << " x=" << x;
    }
    EXPECT_LE(worst, range.max_ulps) << range.name;
  }
}

TEST(FastSinCos, SpecialValues) {
  // Zero gives exactly (0, 1); the sign of a negative zero is not kept (no caller needs it).
  for (double zero : {0.0, -0.0}) {
    const SinCos sc = FastSinCos(zero);
    EXPECT_EQ(sc.s, 0.0);
    EXPECT_EQ(sc.c, 1.0);
  }
  for (double x : {kPi / 2, kPi, -kPi / 2, 3 * kPi / 2, kTwoPi, 1e6, -3e7, 1e300}) {
    const SinCos sc = FastSinCos(x);
    EXPECT_NEAR(sc.s, std::sin(x), 1e-15) << x;
    EXPECT_NEAR(sc.c, std::cos(x), 1e-15) << x;
  }
  for (double x :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const SinCos sc = FastSinCos(x);
    EXPECT_TRUE(std::isnan(sc.s) && std::isnan(sc.c)) << x;
  }
}

// ---- look-up cells -------------------------------------------------------------------------

// The segment a distance falls on by a plain scan: the last one starting at or before it, then
// back over zero-length segments.
std::size_t ScanSegment(const Route& route, double distance) {
  const std::size_t n = route.segments().size();
  std::size_t i = 0;
  while (i + 1 < n && route.segment_start_distance(i + 1) <= distance) ++i;
  while (i > 0 && !(route.segment_start_distance(i + 1) > route.segment_start_distance(i))) --i;
  return i;
}

Pose2 ScanSample(const Route& route, double distance) {
  const std::size_t i = ScanSegment(route, distance);
  const double local = distance - route.segment_start_distance(i);
  if (const CubicBezier* curve = route.bezier(i)) return curve->Sample(local);
  const RouteSegment& s = route.segments()[i];
  const glm::dvec2 delta = s.points[1] - s.points[0];
  const double length = std::sqrt(delta.x * delta.x + delta.y * delta.y);
  const glm::dvec2 direction = length > 0.0 ? delta / length : glm::dvec2(1.0, 0.0);
  return {s.points[0] + local * direction, length > 0.0 ? std::atan2(delta.y, delta.x) : 0.0};
}

struct LookupCase {
  const char* name;
  std::vector<RouteSegment> segments;
};

std::vector<LookupCase> LookupCases() {
  std::vector<LookupCase> cases;
  // One long line, then 40 tiny ones (many per cell), a zero-length one, a curve, another
  // zero-length one at the very end.
  std::vector<RouteSegment> crowded;
  crowded.push_back(RouteSegment::Line({0, 0}, {1000, 0}));
  for (int i = 0; i < 40; ++i) {
    crowded.push_back(RouteSegment::Line({1000 + i * 0.01, 0}, {1000 + (i + 1) * 0.01, 0}));
  }
  crowded.push_back(RouteSegment::Line({1000.4, 0}, {1000.4, 0}));
  crowded.push_back(RouteSegment::Bezier({1000.4, 0}, {1100, 0}, {1100, 100}, {1100, 200}));
  crowded.push_back(RouteSegment::Line({1100, 200}, {1100, 200}));
  cases.push_back({"crowded cells", crowded});
  // Curves of very different lengths (their knot cells differ in size too).
  cases.push_back({"mixed curves",
                   {RouteSegment::Bezier({0, 0}, {0.1, 0}, {0.1, 0.1}, {0.2, 0.1}),
                    RouteSegment::Bezier({0.2, 0.1}, {50, 0}, {80, 90}, {3, 300}),
                    RouteSegment::Bezier({3, 300}, {3, 300}, {3, 300}, {4, 301})}});
  return cases;
}

TEST(RouteLookup, AgreesWithAPlainSearchEverywhere) {
  for (const LookupCase& c : LookupCases()) {
    Result<Route> built = Route::Build(c.segments);
    ASSERT_TRUE(built.ok()) << c.name;
    const Route& route = built.value();
    std::vector<double> distances;
    for (std::size_t i = 0; i <= route.segments().size(); ++i) {
      const double at = route.segment_start_distance(i);
      distances.insert(distances.end(), {at, std::nextafter(at, 0.0), std::nextafter(at, 1e300)});
    }
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> along(0.0, route.length());
    for (int i = 0; i < 20000; ++i) distances.push_back(along(rng));
    for (int k = 0; k <= 4096; ++k) distances.push_back(route.length() * k / 4096.0);
    for (double d : distances) {
      if (!(d >= 0.0 && d <= route.length())) continue;
      const Pose2 fast = route.Sample(d);
      const Pose2 plain = ScanSample(route, d);
      EXPECT_NEAR(fast.position.x, plain.position.x, 1e-9) << c.name << " d=" << d;
      EXPECT_NEAR(fast.position.y, plain.position.y, 1e-9) << c.name << " d=" << d;
      EXPECT_NEAR(std::abs(WrapPi(fast.heading - plain.heading)), 0.0, 1e-9)
          << c.name << " d=" << d;
    }
  }
}

TEST(BezierLookup, InverseMatchesTheArcLengthAtEveryKnotAndCellBoundary) {
  const CubicBezier curves[] = {
      CubicBezier({glm::dvec2(0, 0), glm::dvec2(10, 30), glm::dvec2(40, -20), glm::dvec2(50, 5)}),
      // A cusp: the speed vanishes inside.
      CubicBezier({glm::dvec2(0, 0), glm::dvec2(10, 10), glm::dvec2(0, 10), glm::dvec2(10, 0)}),
  };
  for (const CubicBezier& curve : curves) {
    const double length = curve.length();
    const double tolerance = 1e-9 * length;
    for (int k = 0; k <= 1000; ++k) {
      for (double d : {length * k / 1000.0, std::nextafter(length * k / 1000.0, 0.0)}) {
        const double t = curve.ParameterAtDistance(d);
        EXPECT_NEAR(curve.DistanceAtParameter(t), std::min(std::max(d, 0.0), length), tolerance)
            << "d=" << d;
      }
    }
  }
}

}  // namespace
}  // namespace md5stage
