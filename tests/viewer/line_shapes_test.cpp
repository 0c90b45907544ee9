// The line shapes the renderer keeps on the GPU (the ground grid, the unit circle): their lines,
// and the draw list entries that place them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

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
