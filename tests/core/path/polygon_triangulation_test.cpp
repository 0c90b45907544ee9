// Ear clipping: n - 2 counter-clockwise triangles whose areas add up to the polygon's, for convex
// and concave polygons of either winding; refusals for fewer than 3 vertices.
#include "core/path/polygon_triangulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace md5stage {
namespace {

double SignedArea(const std::vector<glm::dvec2>& v) {
  double a = 0.0;
  for (size_t i = 0; i < v.size(); ++i) {
    const glm::dvec2 p = v[i], q = v[(i + 1) % v.size()];
    a += p.x * q.y - p.y * q.x;
  }
  return 0.5 * a;
}

struct Case {
  std::string name;
  std::vector<glm::dvec2> vertices;
};

std::vector<glm::dvec2> Reversed(std::vector<glm::dvec2> v) { return {v.rbegin(), v.rend()}; }

TEST(PolygonTriangulationTest, CoversThePolygonExactly) {
  std::vector<glm::dvec2> star;
  for (int i = 0; i < 10; ++i) {
    const double a = 2.0 * 3.14159265358979 * i / 10, r = i % 2 ? 40.0 : 100.0;
    star.push_back({r * std::cos(a), r * std::sin(a)});
  }
  const std::vector<glm::dvec2> comb = {{0, 0},   {100, 0}, {100, 50}, {80, 50}, {80, 10}, {60, 10},
                                        {60, 50}, {40, 50}, {40, 10},  {20, 10}, {20, 50}, {0, 50}};
  const std::vector<Case> cases = {
      {"triangle", {{0, 0}, {10, 0}, {0, 10}}},
      {"square", {{0, 0}, {10, 0}, {10, 10}, {0, 10}}},
      {"L (reflex corner)", {{0, 0}, {20, 0}, {20, 5}, {5, 5}, {5, 20}, {0, 20}}},
      {"collinear corner", {{0, 0}, {5, 0}, {10, 0}, {10, 10}, {0, 10}}},
      {"star", star},
      {"comb", comb},
      {"comb clockwise", Reversed(comb)},
      {"star clockwise", Reversed(star)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::array<int, 3>> triangles;
    std::vector<int> scratch;
    ASSERT_TRUE(TriangulatePolygon(c.vertices, &triangles, &scratch));
    ASSERT_EQ(triangles.size(), c.vertices.size() - 2);
    double area = 0.0;
    for (const auto& t : triangles) {
      const glm::dvec2 a = c.vertices[t[0]], b = c.vertices[t[1]], d = c.vertices[t[2]];
      const double ta = 0.5 * ((b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x));
      EXPECT_GE(ta, 0.0);  // counter-clockwise (or empty, for a collinear corner)
      area += ta;
    }
    EXPECT_NEAR(area, std::abs(SignedArea(c.vertices)), 1e-9);
    // Appends: a second run adds as many again, and reuses the scratch.
    const size_t capacity = scratch.capacity();
    ASSERT_TRUE(TriangulatePolygon(c.vertices, &triangles, &scratch));
    EXPECT_EQ(triangles.size(), 2 * (c.vertices.size() - 2));
    EXPECT_EQ(scratch.capacity(), capacity);
  }
}

TEST(PolygonTriangulationTest, RefusesTooFewVertices) {
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> scratch;
  EXPECT_FALSE(TriangulatePolygon({}, &triangles, &scratch));
  EXPECT_FALSE(TriangulatePolygon({{0, 0}, {1, 1}}, &triangles, &scratch));
  EXPECT_TRUE(triangles.empty());
}

}  // namespace
}  // namespace md5stage
