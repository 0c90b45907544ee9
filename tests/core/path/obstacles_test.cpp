// Obstacle geometry on edge tables (tangents, reflex corners, vertices, grazing arcs), validation
// messages and the obstacles JSON reader.
#include "core/path/obstacles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

// An L-shaped (concave) polygon: the reflex corner is at (1, 1).
Obstacle LShape() { return Obstacle::Polygon({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}); }

Obstacle Valid(Obstacle o) {
  EXPECT_TRUE(ValidateObstacle(&o).ok());
  return o;
}

TEST(ObstacleGeometry, PointDistances) {
  const Obstacle circle = Valid(Obstacle::Circle({0, 0}, 2));
  EXPECT_EQ(DistanceToObstacle(circle, {5, 0}), 3.0);
  EXPECT_EQ(DistanceToObstacle(circle, {1, 1}), 0.0);
  EXPECT_EQ(DistanceToObstacle(circle, {2, 0}), 0.0);  // on the boundary
  EXPECT_TRUE(ObstacleContains(circle, {2, 0}));
  EXPECT_FALSE(ObstacleContains(circle, {2.0000001, 0}));
  const Obstacle l = Valid(LShape());
  struct Row {
    glm::dvec2 p;
    double distance;
  };
  const Row rows[] = {
      {{1.5, 1.5}, 0.5},         // in the notch: both edges at the reflex corner are 0.5
      {{1.5, 1.2}, 0.2},         // in the notch above the lower arm
      {{0.5, 0.5}, 0.0},         // inside
      {{1, 1}, 0.0},             // the reflex corner itself
      {{-3, 0}, 3.0},            // beside a convex corner, on the edge's line
      {{3, 3}, std::sqrt(5.0)},  // the tips (2, 1) and (1, 2) tie
      {{0.5, -1}, 1.0},
  };
  for (const Row& row : rows) {
    EXPECT_NEAR(DistanceToObstacle(l, row.p), row.distance, 1e-15) << row.p.x << "," << row.p.y;
  }
  EXPECT_TRUE(SegmentInsidePolygon(l, {0.5, 0.5}, {0.5, 1.5}));
  EXPECT_FALSE(SegmentInsidePolygon(l, {0.5, 1.5}, {1.5, 0.5}));  // through the notch
  EXPECT_FALSE(SegmentInsidePolygon(l, {0.5, 0.5}, {0.5, 2}));    // ends on the boundary
  EXPECT_FALSE(SegmentInsidePolygon(circle, {0, 0}, {0.5, 0}));   // polygons only
  EXPECT_FALSE(ObstacleContains(l, {1.5, 1.5}));
  EXPECT_TRUE(ObstacleContains(l, {1.5, 1.0}));  // on the notch's edge
}

TEST(ObstacleGeometry, SegmentsAgainstShapes) {
  const Obstacle circle = Valid(Obstacle::Circle({0, 5}, 3));
  // Tangent at distance exactly 2 from the circle: clear at clearance 2 (and within the 1e-9
  // rounding slack), not at 2 + 1e-8.
  EXPECT_EQ(SegmentDistanceToObstacle(circle, {-10, 0}, {10, 0}), 2.0);
  EXPECT_FALSE(SegmentWithinClearance(circle, {-10, 0}, {10, 0}, 2.0));
  EXPECT_TRUE(SegmentWithinClearance(circle, {-10, 0}, {10, 0}, 2.0 + 1e-8));
  // Tangent to the circle itself: touching is never clear, even with clearance 0.
  EXPECT_EQ(SegmentDistanceToObstacle(circle, {-10, 2}, {10, 2}), 0.0);
  EXPECT_TRUE(SegmentWithinClearance(circle, {-10, 2}, {10, 2}, 0.0));
  EXPECT_FALSE(SegmentWithinClearance(circle, {-10, 1.999}, {10, 1.999}, 0.0));
  // A segment ending short of the circle: the end is nearest.
  EXPECT_NEAR(SegmentDistanceToObstacle(circle, {-10, 5}, {-4, 5}), 1.0, 1e-15);

  const Obstacle l = Valid(LShape());
  // Through the notch without touching: nearest the reflex corner.
  // Across the notch: nearest the arms' tips (2, 1) and (1, 2), not the reflex corner.
  EXPECT_NEAR(SegmentDistanceToObstacle(l, {1.2, 2.5}, {2.5, 1.2}), 0.7 / std::sqrt(2.0), 1e-12);
  // Into the notch towards the reflex corner, stopping short of it.
  EXPECT_NEAR(SegmentDistanceToObstacle(l, {3, 3}, {1.5, 1.5}), 0.5, 1e-12);
  EXPECT_EQ(SegmentDistanceToObstacle(l, {3, 3}, {1, 1}), 0.0);  // ending on the reflex corner
  // Touching a vertex exactly.
  EXPECT_EQ(SegmentDistanceToObstacle(l, {2, 1}, {3, 2}), 0.0);
  EXPECT_EQ(SegmentDistanceToObstacle(l, {3, 0}, {2, 1}), 0.0);  // ends on the corner
  // Along an edge, and wholly inside.
  EXPECT_EQ(SegmentDistanceToObstacle(l, {0, -0.0}, {3, 0}), 0.0);
  EXPECT_EQ(SegmentDistanceToObstacle(l, {0.2, 0.2}, {0.4, 0.6}), 0.0);
  // Across the notch's mouth: the segment from (2, 1) to (1, 2) touches both tips.
  EXPECT_EQ(SegmentDistanceToObstacle(l, {2, 1}, {1, 2}), 0.0);
  EXPECT_NEAR(SegmentDistanceToObstacle(l, {2.5, 1}, {1, 2.5}), std::sqrt(0.125), 1e-12);
  EXPECT_NEAR(SegmentDistanceToObstacle(l, {3, 1.5}, {1.5, 3}), 1.5 / std::sqrt(2.0), 1e-12);
}

TEST(ObstacleGeometry, ArcsAgainstShapes) {
  const Obstacle circle = Valid(Obstacle::Circle({10, 0}, 2));
  // Arc of radius 5 round the origin, upper half: the point (5, 0) is 3 from the circle.
  EXPECT_NEAR(ArcDistanceToObstacle(circle, {0, 0}, 5, 0, kPi), 3.0, 1e-15);
  // Grazing: radius 8 round the origin passes through (8, 0), exactly on the circle.
  EXPECT_EQ(ArcDistanceToObstacle(circle, {0, 0}, 8, -0.5, 1.0), 0.0);
  EXPECT_TRUE(ArcWithinClearance(circle, {0, 0}, 8, -0.5, 1.0, 0.0));
  // The same circle arc, but the sweep stops before reaching the obstacle's side.
  const double d = ArcDistanceToObstacle(circle, {0, 0}, 8, 0.5 * kPi, kPi);
  EXPECT_NEAR(d, std::sqrt(100.0 + 64.0) - 2.0, 1e-12);  // from the ends (0, ±8)
  // Clockwise sweep through the circle's direction.
  EXPECT_EQ(ArcDistanceToObstacle(circle, {0, 0}, 8, 0.5, -1.0), 0.0);
  // Tangent at the clearance: radius 5 round (0, 0) is 3 from the circle (10, 0; 2).
  EXPECT_FALSE(ArcWithinClearance(circle, {0, 0}, 5, -1, 2, 3.0));
  EXPECT_TRUE(ArcWithinClearance(circle, {0, 0}, 5, -1, 2, 3.0 + 1e-8));

  const Obstacle square = Valid(Obstacle::Polygon({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}));
  // An arc round the square that clears it: nearest is where it passes the edge's middle.
  EXPECT_NEAR(ArcDistanceToObstacle(square, {0, 5}, 3, -kPi, kPi), 1.0, 1e-15);
  // The same circle's upper half is far away.
  EXPECT_NEAR(ArcDistanceToObstacle(square, {0, 5}, 3, 0, kPi), std::hypot(2.0, 4.0), 1e-12);
  // Crossing an edge, and wholly inside.
  EXPECT_EQ(ArcDistanceToObstacle(square, {0, 5}, 4.5, -kPi, kPi), 0.0);
  EXPECT_EQ(ArcDistanceToObstacle(square, {0, 0}, 0.5, 0, 1), 0.0);
  // Full circle enclosing the square: the nearest points are the corners.
  EXPECT_NEAR(ArcDistanceToObstacle(square, {0, 0}, 3, 0, kTwoPi), 3.0 - std::sqrt(2.0), 1e-12);
  // Grazing a vertex: the corner (1, 1) is sqrt(2) from (2, 2).
  EXPECT_NEAR(ArcDistanceToObstacle(square, {2, 2}, std::sqrt(2.0), -kPi, 0.5 * kPi), 0.0, 1e-12);
  // An arc in the L's notch: the arms' tips (2, 1) and (1, 2) are nearer than the reflex corner.
  const Obstacle l = Valid(LShape());
  EXPECT_NEAR(ArcDistanceToObstacle(l, {2, 2}, 0.5, -kPi, 0.5 * kPi), 0.5, 1e-12);
}

// Which directions an arc holds, on the sweeps where the cross-product test changes form (a point,
// a tiny arc, a quarter and a half turn, just over a half turn, almost and exactly a whole turn),
// both ways round: a small circle at twice the radius in direction phi is |2r - r| - its radius
// away when the arc holds phi, else as far as the nearer end.
TEST(ObstacleGeometry, ArcsHoldTheDirectionsOfTheirSweep) {
  const double sweeps[] = {0.0,
                           1e-12,
                           0.3,
                           0.5 * kPi,
                           0.5 * kPi + 1e-9,
                           kPi - 1e-9,
                           kPi,
                           kPi + 1e-9,
                           1.5 * kPi - 1e-9,
                           1.5 * kPi,
                           5.9,
                           kTwoPi - 1e-9,
                           kTwoPi,
                           7.0};
  const glm::dvec2 centre{3.0, -2.0};
  const double radius = 4.0, small = 0.25, start = 0.7;
  for (double magnitude : sweeps) {
    for (double sign : {1.0, -1.0}) {
      const double sweep = sign * magnitude;
      const glm::dvec2 e0 = centre + radius * glm::dvec2(std::cos(start), std::sin(start));
      const glm::dvec2 e1 =
          centre + radius * glm::dvec2(std::cos(start + sweep), std::sin(start + sweep));
      for (int k = 0; k < 64; ++k) {
        const double phi = start + k * (kTwoPi / 64) + 0.01;
        const double offset =
            sign > 0 ? WrapTwoPi(phi - start) : WrapTwoPi(start - phi);  // along the sweep
        if (std::abs(offset - magnitude) < 1e-6 || offset < 1e-6 || kTwoPi - offset < 1e-6) {
          continue;  // at an end: either answer is right
        }
        const bool holds = magnitude >= kTwoPi || offset <= magnitude;
        const glm::dvec2 p = centre + 2.0 * radius * glm::dvec2(std::cos(phi), std::sin(phi));
        const double expected =
            holds ? radius - small : std::min(glm::length(p - e0), glm::length(p - e1)) - small;
        const Obstacle dot = Valid(Obstacle::Circle(p, small));
        EXPECT_NEAR(ArcDistanceToObstacle(dot, centre, radius, start, sweep), expected, 1e-9)
            << "sweep " << sweep << ", direction " << phi;
      }
    }
  }
}

// An arc of no sweep is its start point: the direction exactly opposite is not in it (its ends'
// directions coincide, so the two half-planes of the cross-product test hold that ray too).
TEST(ObstacleGeometry, ArcOfNoSweepIsItsStartPoint) {
  const Obstacle opposite = Valid(Obstacle::Circle({-8.0, 0.0}, 0.25));
  EXPECT_NEAR(ArcDistanceToObstacle(opposite, {0.0, 0.0}, 4.0, 0.0, 0.0), 12.0 - 0.25, 1e-12);
  EXPECT_NEAR(ArcDistanceToObstacle(opposite, {0.0, 0.0}, 4.0, 0.0, -0.0), 12.0 - 0.25, 1e-12);
  const Obstacle ahead = Valid(Obstacle::Circle({8.0, 0.0}, 0.25));
  EXPECT_NEAR(ArcDistanceToObstacle(ahead, {0.0, 0.0}, 4.0, 0.0, 0.0), 4.0 - 0.25, 1e-12);
}

// Distances by the closed forms agree with dense sampling (an upper bound that converges).
TEST(ObstacleGeometry, ClosedFormsAgreeWithSampling) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-5, 5);
  const Obstacle l = Valid(LShape());
  const Obstacle circle = Valid(Obstacle::Circle({1, -1}, 1.5));
  for (int trial = 0; trial < 200; ++trial) {
    const glm::dvec2 c{u(rng), u(rng)};
    const double radius = 0.5 + std::abs(u(rng));
    const double start = u(rng), sweep = u(rng);
    const glm::dvec2 a{u(rng), u(rng)}, b{u(rng), u(rng)};
    for (const Obstacle* o : {&l, &circle}) {
      double arc_sampled = 1e300, seg_sampled = 1e300;
      constexpr int kSamples = 2000;
      for (int k = 0; k <= kSamples; ++k) {
        const double t = static_cast<double>(k) / kSamples;
        const double angle = start + sweep * t;
        arc_sampled = std::min(
            arc_sampled,
            DistanceToObstacle(*o, c + radius * glm::dvec2(std::cos(angle), std::sin(angle))));
        seg_sampled = std::min(seg_sampled, DistanceToObstacle(*o, a + t * (b - a)));
      }
      const double arc = ArcDistanceToObstacle(*o, c, radius, start, sweep);
      const double seg = SegmentDistanceToObstacle(*o, a, b);
      EXPECT_LE(arc, arc_sampled + 1e-12);
      EXPECT_GE(arc, arc_sampled - 0.02 * radius * std::abs(sweep) / 1.0 - 1e-12);
      EXPECT_LE(seg, seg_sampled + 1e-12);
      EXPECT_GE(seg, seg_sampled - 0.01 * glm::length(b - a) - 1e-12);
    }
  }
}

TEST(ObstacleValidation, RefusesDegenerateShapesNamingTheField) {
  struct Row {
    Obstacle obstacle;
    const char* message;
  };
  const Row rows[] = {
      {Obstacle::Circle({0, 0}, 0), "obstacles[0].circle.radius: expected a number > 0"},
      {Obstacle::Circle({0, 0}, -1), "obstacles[0].circle.radius: expected a number > 0"},
      {Obstacle::Circle({NAN, 0}, 1), "obstacles[0].circle.centre: expected a point"},
      {Obstacle::Polygon({{0, 0}, {1, 0}}), "obstacles[0].polygon: expected 3 to 256 vertices"},
      {Obstacle::Polygon({{0, 0}, {1, 0}, {1, 0}, {0, 1}}),
       "obstacles[0].polygon[2]: expected a point different from polygon[1]"},
      {Obstacle::Polygon({{0, 0}, {1, 0}, {2, 0}}),
       "obstacles[0].polygon: expected a polygon with a non-zero area"},
      {Obstacle::Polygon({{0, 0}, {3, 0}, {0, 2}, {1, 3}}),  // edges 1 and 3 cross
       "obstacles[0].polygon: expected a simple polygon, found edges 1 (polygon[1] to polygon[2]) "
       "and 3 meeting"},
      {Obstacle::Polygon({{0, 0}, {2, 0}, {0, 2}, {2, 2}}),  // a bow tie of zero signed area
       "obstacles[0].polygon: expected a polygon with a non-zero area"},
      {Obstacle::Polygon({{0, 0}, {2, 0}, {1, 0}, {1, 1}}),  // a spike back along an edge
       "obstacles[0].polygon[1]: expected a simple polygon, found edges 0 and 1 folding back"},
      {Obstacle::Polygon({{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}}),  // a vertex on an edge
       "obstacles[0].polygon: expected a simple polygon"},
      {Obstacle::Polygon({{0, 0}, {1e16, 0}, {0, 1}}),
       "obstacles[0].polygon[1]: expected a point [x, y] of two finite numbers of at most 1e15"},
  };
  for (const Row& row : rows) {
    Obstacle o = row.obstacle;
    const Status status = ValidateObstacle(&o, "obstacles[0]");
    ASSERT_FALSE(status.ok()) << row.message;
    EXPECT_EQ(status.error().message.rfind(row.message, 0), 0u) << status.error().message;
  }
  Obstacle clockwise = Obstacle::Polygon({{0, 0}, {0, 1}, {1, 1}, {1, 0}});
  EXPECT_TRUE(ValidateObstacle(&clockwise).ok());
  EXPECT_TRUE(ObstacleContains(clockwise, {0.5, 0.5}));
}

TEST(ObstacleSet, FindsTheFirstObstacleWithinClearance) {
  Result<ObstacleSet> set = ObstacleSet::Build(
      {Obstacle::Circle({0, 0}, 1), Obstacle::Polygon({{5, -1}, {7, -1}, {7, 1}, {5, 1}})});
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set.value().FirstWithin({3, 0}, 1.0), -1);  // 2 from both
  EXPECT_EQ(set.value().FirstWithin({3, 0}, 2.01), 0);
  EXPECT_EQ(set.value().FirstSegmentWithin({-3, 3}, {10, 3}, 1.5), -1);
  EXPECT_EQ(set.value().FirstSegmentWithin({6, 3}, {6, 5}, 2.5), 1);
  TurnSegment arc;
  arc.kind = TurnSegment::Kind::kArc;
  arc.centre = {6, 0};
  arc.radius = 3;
  arc.start_angle = 0;
  arc.sweep = kPi;
  arc.length = 3 * kPi;
  arc.start = {{9, 0}, 0.5 * kPi};
  EXPECT_EQ(set.value().FirstTurnSegmentWithin(arc, 0.5), -1);  // corners at sqrt(2) from centre
  EXPECT_EQ(set.value().FirstTurnSegmentWithin(arc, 3 - std::sqrt(2.0) + 1e-8), 1);
  std::vector<Obstacle> too_many(kMaxObstacles + 1, Obstacle::Circle({0, 0}, 1));
  EXPECT_FALSE(ObstacleSet::Build(too_many).ok());
}

// The bins pick the same obstacle as testing every obstacle in order: the lowest index within
// the clearance. Sets of 1 to 300 obstacles (overlapping, spanning many bins, one long wall),
// queries of every kind and size, inside, across and outside the set's bounds.
TEST(ObstacleSet, BinsFindWhatTestingEveryObstacleFinds) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int count : {1, 2, 7, 40, 300}) {
    std::vector<Obstacle> obstacles;
    for (int i = 0; i < count; ++i) {
      const glm::dvec2 c{1000.0 * u(rng), 600.0 * u(rng)};
      const double size = i == 0 ? 400.0 : 5.0 + 60.0 * u(rng);
      if (i % 3 == 0) {
        const double a = u(rng) * kTwoPi;
        const glm::dvec2 along = size * glm::dvec2(std::cos(a), std::sin(a));
        const glm::dvec2 side = 4.0 * glm::dvec2(-std::sin(a), std::cos(a));
        obstacles.push_back(Obstacle::Polygon(
            {c - along - side, c + along - side, c + along + side, c - along + side}));
      } else {
        obstacles.push_back(Obstacle::Circle(c, 0.5 * size));
      }
    }
    Result<ObstacleSet> built = ObstacleSet::Build(obstacles);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const ObstacleSet& set = built.value();
    auto point = [&] { return glm::dvec2{-200.0 + 1400.0 * u(rng), -200.0 + 1000.0 * u(rng)}; };
    for (int q = 0; q < 400; ++q) {
      const double clearance = q % 4 == 0 ? 0.0 : 30.0 * u(rng);
      const glm::dvec2 p = point();
      int expected = -1;
      for (int i = 0; i < count && expected < 0; ++i) {
        const double d = DistanceToObstacle(set.obstacles()[i], p);
        if (d <= 0.0 || d < clearance - 1e-9 * std::max(1.0, clearance)) expected = i;
      }
      EXPECT_EQ(set.FirstWithin(p, clearance), expected) << count << " obstacles, point " << q;

      const glm::dvec2 b =
          q % 2 ? p + (u(rng) * 60.0) * glm::dvec2(u(rng) - 0.5, u(rng) - 0.5) : point();
      expected = -1;
      for (int i = 0; i < count && expected < 0; ++i) {
        if (SegmentWithinClearance(set.obstacles()[i], p, b, clearance)) expected = i;
      }
      EXPECT_EQ(set.FirstSegmentWithin(p, b, clearance), expected)
          << count << " obstacles, segment " << q;

      TurnSegment arc;
      arc.kind = TurnSegment::Kind::kArc;
      arc.centre = p;
      arc.radius = 5.0 + 200.0 * u(rng);
      arc.start_angle = kTwoPi * u(rng);
      arc.sweep = (u(rng) - 0.5) * 2.0 * kTwoPi;
      arc.length = arc.radius * std::abs(arc.sweep);
      arc.start = {
          p + arc.radius * glm::dvec2(std::cos(arc.start_angle), std::sin(arc.start_angle)),
          arc.start_angle + (arc.sweep >= 0.0 ? 0.5 : -0.5) * kPi};
      expected = -1;
      for (int i = 0; i < count && expected < 0; ++i) {
        if (ArcWithinClearance(set.obstacles()[i], arc.centre, arc.radius, arc.start_angle,
                               arc.sweep, clearance)) {
          expected = i;
        }
      }
      EXPECT_EQ(set.FirstTurnSegmentWithin(arc, clearance), expected)
          << count << " obstacles, arc " << q;
    }
  }
}

TEST(ObstaclesJson, ReadsBothShapesAndWritesThemBack) {
  const char* text = R"({"obstacles": [{"circle": {"centre": [1, 2], "radius": 3}},
    {"polygon": [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]]}]})";
  Result<ObstacleSet> set = ReadObstaclesJson("o.json", text);
  ASSERT_TRUE(set.ok()) << set.error().ToString();
  ASSERT_EQ(set.value().size(), 2u);
  EXPECT_EQ(set.value().obstacles()[0].radius, 3.0);
  EXPECT_EQ(set.value().obstacles()[1].vertices.size(), 5u);
  const std::string written = WriteJson(ObstaclesToJson(set.value()));
  Result<ObstacleSet> again = ReadObstaclesJson("again.json", written);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(WriteJson(ObstaclesToJson(again.value())), written);
  EXPECT_TRUE(ReadObstaclesJson("empty.json", R"({"obstacles": []})").ok());
}

TEST(ObstaclesJson, ErrorsAreLocatedAndNameTheField) {
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
      {"[]", "f.json:1:1: error: obstacles file: expected an object, found an empty array"},
      {"{}", "f.json:1:1: error: obstacles file: expected an \"obstacles\" member, found none"},
      {R"({"obstacles": 3})", "f.json:1:15: error: obstacles: expected an array of at most 1024"},
      {R"({"obstacles": [{"circle": {"centre": [0, 0], "radius": 1}}, {"square": 1}]})",
       "f.json:1:61: error: obstacles[1]: expected a \"circle\" or a \"polygon\" member, found "
       "neither"},
      {R"({"obstacles": [{"circle": {"centre": [0], "radius": 1}}]})",
       "f.json:1:38: error: obstacles[0].circle.centre: expected a point [x, y] of two finite "
       "numbers of at most 1e15 in size, found [0]"},
      {R"({"obstacles": [{"circle": {"centre": [0, 0], "radius": -2}}]})",
       "f.json:1:56: error: obstacles[0].circle.radius: expected a number > 0 and at most 1e15, "
       "found -2"},
      {"{\"obstacles\": [{\"circle\": {\"centre\": [0, 0], \"radius\": 1}},\n"
       "  {\"circle\": {\"centre\": [0, 0], \"radius\": 1}},\n"
       "  {\"polygon\": [[0, 0], \"x\", [1, 1]]}]}",
       "f.json:3:24: error: obstacles[2].polygon[1]: expected a point [x, y] of two finite numbers "
       "of at most 1e15 in size, found \"x\""},
      {R"({"obstacles": [{"polygon": [[0, 0], [1, 0]]}]})",
       "f.json:1:28: error: obstacles[0].polygon: expected an array of 3 to 256 points, found "
       "[[0, 0], [1, 0]]"},
      {R"({"obstacles": [{"polygon": [[0, 0], [1, 0], [1, 0], [0, 1]]}]})",
       "f.json:1:45: error: obstacles[0].polygon[2]: expected a point different from polygon[1], "
       "found [1, 0] again"},
      {R"({"obstacles": [{"polygon": [[0, 0], [3, 0], [0, 2], [1, 3]]}]})",
       "f.json:1:28: error: obstacles[0].polygon: expected a simple polygon, found edges 1"},
  };
  for (const Row& row : rows) {
    Result<ObstacleSet> set = ReadObstaclesJson("f.json", row.text);
    ASSERT_FALSE(set.ok()) << row.text;
    EXPECT_EQ(set.error().ToString().rfind(row.message, 0), 0u)
        << set.error().ToString() << "\nwanted: " << row.message;
  }
  std::string many = R"({"obstacles": [)";
  for (std::size_t i = 0; i <= kMaxObstacles; ++i) {
    many += std::string(i ? "," : "") + R"({"circle": {"centre": [0, 0], "radius": 1}})";
  }
  many += "]}";
  EXPECT_FALSE(ReadObstaclesJson("many.json", many).ok());
}

}  // namespace
}  // namespace md5stage
