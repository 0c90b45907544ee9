#include "core/view/frustum.h"

#include <gtest/gtest.h>

#include "core/view/orbit_camera.h"

namespace md5stage {
namespace {

Frustum CameraFrustum() {
  OrbitCamera camera;
  camera.target = {0, 0, 0};
  camera.yaw_degrees = 0;  // eye on +x, looking towards -x
  camera.pitch_degrees = 0;
  camera.distance = 100;
  return Frustum::FromViewProjection(camera.ProjectionMatrix(16.0f / 9.0f) * camera.ViewMatrix());
}

TEST(FrustumTest, SpheresInsideOutsideAndStraddling) {
  const Frustum frustum = CameraFrustum();
  struct Case {
    glm::vec3 centre;
    float radius;
    bool visible;
  };
  const Case cases[] = {
      {{0, 0, 0}, 1, true},          // the target
      {{200, 0, 0}, 1, false},       // behind the eye
      {{0, 500, 0}, 1, false},       // far to the side
      {{0, 500, 0}, 480, true},      // big enough to reach into view
      {{-1e6, 0, 0}, 1, false},      // beyond the far plane
      {{0, 0, 300}, 1, false},       // far above
      {{99.2f, 0, 0}, 0.5f, true},   // straddles the near plane (1 unit in front of the eye)
      {{99.7f, 0, 0}, 0.2f, false},  // wholly between the eye and the near plane
  };
  for (const Case& c : cases) {
    EXPECT_EQ(frustum.IntersectsSphere(c.centre, c.radius), c.visible)
        << c.centre.x << "," << c.centre.y << "," << c.centre.z << " r=" << c.radius;
  }
}

TEST(FrustumTest, BoxesAgreeWithSpheresOnClearCases) {
  const Frustum frustum = CameraFrustum();
  EXPECT_TRUE(frustum.IntersectsBox({-10, -10, 0}, {10, 10, 70}));
  EXPECT_FALSE(frustum.IntersectsBox({150, -10, 0}, {170, 10, 70}));
  EXPECT_FALSE(frustum.IntersectsBox({-10, 400, 0}, {10, 420, 70}));
  // A long box crossing the view with all corners outside is still visible.
  EXPECT_TRUE(frustum.IntersectsBox({-1, -1000, -1}, {1, 1000, 1}));
}

TEST(FrustumTest, PlanesAreNormalized) {
  const Frustum frustum = CameraFrustum();
  for (const glm::vec4& plane : frustum.planes()) {
    EXPECT_NEAR(glm::length(glm::vec3(plane)), 1.0f, 1e-5f);
  }
}

}  // namespace
}  // namespace md5stage
