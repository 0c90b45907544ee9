// Views of a shared framebuffer: a view's corners land on its rectangle's pixel edges, whatever
// its place and size, and empty views or framebuffers are refused.
#include "viewer/view_placement.h"

#include <gtest/gtest.h>

namespace md5stage::viewer {
namespace {

// A point of the view's NDC square, through the placement, in framebuffer pixels (the GL
// viewport transform of the whole framebuffer). A clip w other than 1 must give the same pixel.
glm::vec2 ToPixels(const ViewPlacement& p, glm::vec2 ndc, float w, glm::vec2 framebuffer) {
  const glm::vec2 clip = ndc * w * p.scale + p.offset * w;
  return (clip / w + 1.0f) * 0.5f * framebuffer;
}

TEST(PlaceView, CornersLandOnTheRectangle) {
  struct Case {
    int x, y, width, height, framebuffer_width, framebuffer_height;
  };
  const Case cases[] = {
      {0, 0, 240, 135, 240, 135},       // the whole framebuffer
      {0, 0, 240, 135, 1000, 600},      // the lower left corner
      {760, 465, 240, 135, 1000, 600},  // the upper right corner
      {240, 0, 160, 90, 4096, 4096},    // the largest canvas, a small view
      {3, 7, 1, 1, 8, 8},               // one pixel
      {-20, 10, 40, 30, 100, 100},      // partly off the left edge: still placed, clipped by GL
  };
  for (const Case& c : cases) {
    ViewPlacement p;
    ASSERT_TRUE(
        PlaceView(c.x, c.y, c.width, c.height, c.framebuffer_width, c.framebuffer_height, &p));
    const glm::vec2 framebuffer(c.framebuffer_width, c.framebuffer_height);
    for (float w : {1.0f, 0.25f, 300.0f}) {
      const glm::vec2 low = ToPixels(p, {-1, -1}, w, framebuffer);
      const glm::vec2 high = ToPixels(p, {1, 1}, w, framebuffer);
      EXPECT_NEAR(low.x, c.x, 1e-3f * c.framebuffer_width) << c.x << "," << c.y << " w " << w;
      EXPECT_NEAR(low.y, c.y, 1e-3f * c.framebuffer_height);
      EXPECT_NEAR(high.x, c.x + c.width, 1e-3f * c.framebuffer_width);
      EXPECT_NEAR(high.y, c.y + c.height, 1e-3f * c.framebuffer_height);
    }
    EXPECT_EQ(p.rect, glm::vec4(c.x, c.y, c.x + c.width, c.y + c.height));
  }
}

TEST(PlaceView, TheWholeFramebufferIsTheIdentity) {
  ViewPlacement p;
  ASSERT_TRUE(PlaceView(0, 0, 640, 480, 640, 480, &p));
  EXPECT_EQ(p.scale, glm::vec2(1.0f));
  EXPECT_EQ(p.offset, glm::vec2(0.0f));
}

TEST(PlaceView, EmptyViewsAndFramebuffersAreRefused) {
  struct Case {
    int width, height, framebuffer_width, framebuffer_height;
  };
  const Case cases[] = {{0, 10, 100, 100}, {10, 0, 100, 100}, {-5, 10, 100, 100},
                        {10, 10, 0, 100},  {10, 10, 100, -1}, {0, 0, 0, 0}};
  for (const Case& c : cases) {
    ViewPlacement p;
    p.scale = glm::vec2(7.0f);
    EXPECT_FALSE(PlaceView(0, 0, c.width, c.height, c.framebuffer_width, c.framebuffer_height, &p));
    EXPECT_EQ(p.scale, glm::vec2(7.0f)) << "left alone";
  }
}

TEST(ViewPlacement, TheDefaultDrawsWhereTheViewportSays) {
  const ViewPlacement p;
  EXPECT_EQ(p.scale, glm::vec2(1.0f));
  EXPECT_EQ(p.offset, glm::vec2(0.0f));
  EXPECT_LT(p.rect.x, -1e6f);
  EXPECT_GT(p.rect.w, 1e6f);
}

}  // namespace
}  // namespace md5stage::viewer
