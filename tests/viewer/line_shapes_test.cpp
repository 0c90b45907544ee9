// The line shapes the renderer keeps on the GPU (the ground grid, the unit circle, arcs and
// segments): their lines, where a shape's vertices are placed, and the draw list entries.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/constants.hpp>
#include <set>
#include <utility>
#include <vector>

#include "viewer/render_interface.h"

namespace md5stage::viewer {
namespace {

TEST(GroundGridLines, MinorMajorAndAxisLinesOneSpacingApart) {
  std::vector<LineVertex> lines;
  GroundGridLines(&lines);
  ASSERT_EQ(lines.size() % 2, 0u);
  // 2 x 50 lines each way off the axes, the two halves of each axis and the short Z axis.
  EXPECT_EQ(lines.size() / 2, 2u * 2 * kGroundGridLines + 5);
  std::set<float> xs;
  int major = 0;
  for (size_t i = 0; i < lines.size(); i += 2) {
    const glm::vec3 a = lines[i].position, b = lines[i + 1].position;
    for (const glm::vec3& p : {a, b}) {
      EXPECT_LE(std::abs(p.x), kGroundGridLines);
      EXPECT_LE(std::abs(p.y), kGroundGridLines);
    }
    EXPECT_EQ(lines[i].color.a, lines[i + 1].color.a);
    if (a.x == b.x && a.z == 0 && b.z == 0 && a.x != 0) {
      xs.insert(a.x);
      EXPECT_EQ(a.x, std::round(a.x)) << "on the spacing";
      major += static_cast<int>(a.x) % 10 == 0;
    }
  }
  EXPECT_EQ(xs.size(), 2u * kGroundGridLines);
  EXPECT_EQ(major, 10);  // -50, -40, ..., 50 without 0
  // The Z axis: one line up from the origin, blue.
  const LineVertex& z_top = lines.back();
  EXPECT_EQ(z_top.position, glm::vec3(0, 0, 10));
  EXPECT_GT(z_top.color.b, z_top.color.r);
}

TEST(UnitCircleLines, AClosedRingOfRadiusOne) {
  std::vector<LineVertex> lines;
  UnitCircleLines(&lines);
  ASSERT_EQ(lines.size(), 2u * kCircleSegments);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NEAR(glm::length(lines[i].position), 1.0f, 1e-6f) << i;
    EXPECT_EQ(lines[i].position.z, 0.0f);
    EXPECT_EQ(lines[i].color.r, 255);
    if (i % 2 == 1 && i + 1 < lines.size()) {
      EXPECT_EQ(lines[i].position, lines[i + 1].position) << "pieces join";
    }
  }
  EXPECT_EQ(lines.front().position, lines.back().position) << "closed";
}

TEST(UnitArcAndSegmentLines, JoinedPiecesFromZeroToOneAlongX) {
  struct Case {
    const char* name;
    void (*lines_of)(std::vector<LineVertex>*);
    size_t pieces;
  };
  const Case cases[] = {{"arc", UnitArcLines, kCircleSegments}, {"segment", UnitSegmentLines, 1}};
  for (const Case& c : cases) {
    std::vector<LineVertex> lines;
    c.lines_of(&lines);
    ASSERT_EQ(lines.size(), 2 * c.pieces) << c.name;
    EXPECT_EQ(lines.front().position, glm::vec3(0.0f)) << c.name;
    EXPECT_EQ(lines.back().position, glm::vec3(1.0f, 0.0f, 0.0f)) << c.name;
    for (size_t i = 0; i < lines.size(); ++i) {
      EXPECT_EQ(lines[i].position.y, 0.0f) << c.name << " " << i;
      EXPECT_EQ(lines[i].position.z, 0.0f) << c.name << " " << i;
      EXPECT_EQ(lines[i].color.g, 255) << c.name << " white";
      if (i % 2 == 1) {
        EXPECT_NEAR(lines[i].position.x - lines[i - 1].position.x, 1.0f / c.pieces, 1e-6f);
        if (i + 1 < lines.size()) {
          EXPECT_EQ(lines[i].position, lines[i + 1].position) << "joined";
        }
      }
    }
  }
}

// Where a vertex of each shape's own lines is drawn (the vertex shader's twin), at the ends, the
// middle, and past them.
TEST(PlaceShapeVertex, EachShapeFromItsInstance) {
  const float pi = glm::pi<float>();
  struct Case {
    const char* name;
    ShapeInstance shape;
    glm::vec3 local;
    glm::vec3 world;
  };
  const Rgba8 white{255, 255, 255, 255};
  const LineDepth top = LineDepth::kOnTop;
  const Case cases[] = {
      {"grid corner", {LineShape::kGroundGrid, {1, 2, 0}, 10.0f}, {50, -50, 0}, {501, -498, 0}},
      {"circle's east", {LineShape::kCircle, {3, 4, 0.05f}, 25.0f}, {1, 0, 0}, {28, 4, 0.05f}},
      {"arc start", ArcShape({0, 0, 1}, 2.0f, pi / 2, pi, white, top), {0, 0, 0}, {0, 2, 1}},
      {"arc middle, left",
       ArcShape({0, 0, 1}, 2.0f, pi / 2, pi, white, top),
       {0.5f, 0, 0},
       {-2, 0, 1}},
      {"arc end, left", ArcShape({0, 0, 1}, 2.0f, pi / 2, pi, white, top), {1, 0, 0}, {0, -2, 1}},
      {"arc middle, right",
       ArcShape({10, 0, 0}, 5.0f, 0.0f, -pi / 2, white, top),
       {0.5f, 0, 0},
       {10 + 5 * std::cos(-pi / 4), 5 * std::sin(-pi / 4), 0}},
      {"arc of no sweep", ArcShape({0, 0, 0}, 3.0f, pi, 0.0f, white, top), {1, 0, 0}, {-3, 0, 0}},
      {"whole turn comes back",
       ArcShape({0, 0, 0}, 1.0f, 0.0f, 2 * pi, white, top),
       {1, 0, 0},
       {1, 0, 0}},
      {"segment start", SegmentShape({1, 2, 3}, {5, -2, 3}, white, top), {0, 0, 0}, {1, 2, 3}},
      {"segment middle", SegmentShape({1, 2, 3}, {5, -2, 3}, white, top), {0.5f, 0, 0}, {3, 0, 3}},
      {"segment end", SegmentShape({1, 2, 3}, {5, -2, 3}, white, top), {1, 0, 0}, {5, -2, 3}},
      {"zero segment", SegmentShape({7, 7, 0}, {7, 7, 0}, white, top), {1, 0, 0}, {7, 7, 0}},
  };
  for (const Case& c : cases) {
    const glm::vec3 world = PlaceShapeVertex(c.shape, c.local);
    EXPECT_NEAR(world.x, c.world.x, 1e-4f) << c.name;
    EXPECT_NEAR(world.y, c.world.y, 1e-4f) << c.name;
    EXPECT_NEAR(world.z, c.world.z, 1e-4f) << c.name;
  }
}

// shadow-intensity's contact shadow: black triangles on a disc just under the ground, darkest
// (intensity x kContactShadowAlpha) at the centre, fading with distance to 0 at the rim.
TEST(AppendContactShadow, ASoftBlackDiscUnderTheGroundFadingToTheRim) {
  struct Case {
    float radius, intensity;
    uint8_t centre_alpha;  // 0: nothing is drawn
  };
  for (const Case& c : std::vector<Case>{{10.0f, 1.0f, 191},
                                         {10.0f, 0.5f, 96},
                                         {10.0f, 3.0f, 191},  // clamped to 1
                                         {10.0f, 0.0f, 0},
                                         {10.0f, -1.0f, 0},
                                         {10.0f, std::nanf(""), 0},
                                         {0.0f, 1.0f, 0}}) {
    SCOPED_TRACE(testing::Message() << c.radius << " " << c.intensity);
    std::vector<LineVertex> triangles;
    const glm::vec2 centre(5.0f, -3.0f);
    AppendContactShadow(centre, c.radius, c.intensity, &triangles);
    if (c.centre_alpha == 0) {
      EXPECT_TRUE(triangles.empty());
      continue;
    }
    ASSERT_EQ(triangles.size(), 9u * kContactShadowSegments);
    for (const LineVertex& v : triangles) {
      EXPECT_FLOAT_EQ(v.position.z, kContactShadowDepth);
      EXPECT_LT(kContactShadowDepth, 0.0f) << "under the grid";
      EXPECT_EQ(v.color.r + v.color.g + v.color.b, 0);
      const float distance = glm::length(glm::vec2(v.position) - centre);
      EXPECT_LE(distance, c.radius * 1.0001f);
      // Alpha falls with distance: full at the centre, 0.6 half way, 0 at the rim.
      const uint8_t expected = distance < 0.01f              ? c.centre_alpha
                               : distance < 0.51f * c.radius ? uint8_t(c.centre_alpha * 0.6f + 0.5f)
                                                             : 0;
      EXPECT_NEAR(v.color.a, expected, 1) << distance;
    }
  }
}

TEST(DrawListShapes, TheGridAndCirclesArePlacedNotDrawnAsLines) {
  DrawList list;
  AddGroundGrid(list, 10.0f);
  list.AddCircle({3, 4, 0.05f}, 25.0f, {1, 2, 3, 4});
  list.AddCircle({0, 0, 0}, 1.0f, {9, 9, 9, 9}, LineDepth::kTested);
  EXPECT_EQ(list.line_count(), 0u);
  ASSERT_EQ(list.shapes.size(), 3u);
  EXPECT_EQ(list.shapes[0].shape, LineShape::kGroundGrid);
  EXPECT_EQ(list.shapes[0].scale, 10.0f);
  EXPECT_EQ(list.shapes[0].depth, LineDepth::kTested);
  EXPECT_EQ(list.shapes[1].shape, LineShape::kCircle);
  EXPECT_EQ(list.shapes[1].centre, glm::vec3(3, 4, 0.05f));
  EXPECT_EQ(list.shapes[1].scale, 25.0f);
  EXPECT_EQ(list.shapes[1].color.a, 4);
  EXPECT_EQ(list.shapes[1].depth, LineDepth::kOnTop);
  EXPECT_EQ(list.shapes[2].depth, LineDepth::kTested);
  list.Clear();
  EXPECT_TRUE(list.shapes.empty());
}

}  // namespace
}  // namespace md5stage::viewer
