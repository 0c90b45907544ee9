#include "core/view/orbit_camera.h"

#include <gtest/gtest.h>

#include <cmath>

namespace md5stage {
namespace {

constexpr float kWidth = 800.0f;
constexpr float kHeight = 600.0f;

TEST(OrbitCameraTest, EyeSitsAtDistanceInTheYawPitchDirection) {
  struct Case {
    float yaw, pitch;
    glm::vec3 expected_direction;
  };
  const Case cases[] = {
      {0, 0, {1, 0, 0}},
      {90, 0, {0, 1, 0}},
      {180, 0, {-1, 0, 0}},
      {0, 89, {std::cos(glm::radians(89.0f)), 0, std::sin(glm::radians(89.0f))}},
  };
  for (const Case& c : cases) {
    OrbitCamera camera;
    camera.target = {10, 20, 30};
    camera.distance = 50;
    camera.yaw_degrees = c.yaw;
    camera.pitch_degrees = c.pitch;
    const glm::vec3 offset = camera.EyePosition() - camera.target;
    EXPECT_NEAR(glm::length(offset), 50.0f, 1e-3f);
    const glm::vec3 direction = glm::normalize(offset);
    EXPECT_NEAR(direction.x, c.expected_direction.x, 1e-5f) << c.yaw << "," << c.pitch;
    EXPECT_NEAR(direction.y, c.expected_direction.y, 1e-5f) << c.yaw << "," << c.pitch;
    EXPECT_NEAR(direction.z, c.expected_direction.z, 1e-5f) << c.yaw << "," << c.pitch;
  }
}

TEST(OrbitCameraTest, CentreRayHitsTheTarget) {
  OrbitCamera camera;
  camera.target = {5, -7, 0};
  camera.pitch_degrees = 35;
  const Ray ray = camera.ScreenRay(kWidth / 2, kHeight / 2, kWidth, kHeight);
  const auto hit = IntersectGround(ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->x, 5.0f, 1e-2f);
  EXPECT_NEAR(hit->y, -7.0f, 1e-2f);
}

TEST(OrbitCameraTest, PickedGroundPointProjectsBackToThePixel) {
  OrbitCamera camera;
  camera.target = {0, 0, 0};
  camera.pitch_degrees = 40;
  camera.yaw_degrees = -60;
  const glm::mat4 view_projection = camera.ProjectionMatrix(kWidth / kHeight) * camera.ViewMatrix();
  const float pixels[][2] = {{100, 400}, {400, 300}, {700, 550}, {10, 590}};
  for (const auto& p : pixels) {
    const auto hit = IntersectGround(camera.ScreenRay(p[0], p[1], kWidth, kHeight));
    ASSERT_TRUE(hit.has_value()) << p[0] << "," << p[1];
    glm::vec4 clip = view_projection * glm::vec4(*hit, 1.0f);
    clip /= clip.w;
    EXPECT_NEAR((clip.x + 1) * 0.5f * kWidth, p[0], 0.05f);
    EXPECT_NEAR((1 - clip.y) * 0.5f * kHeight, p[1], 0.05f);
  }
}

TEST(OrbitCameraTest, RayPointingAwayFromGroundMisses) {
  const Ray up{{0, 0, 10}, {0, 0, 1}};
  EXPECT_FALSE(IntersectGround(up).has_value());
  const Ray level{{0, 0, 10}, {1, 0, 0}};
  EXPECT_FALSE(IntersectGround(level).has_value());
  const Ray down{{0, 0, 10}, {0, 0, -1}};
  ASSERT_TRUE(IntersectGround(down).has_value());
  EXPECT_FLOAT_EQ(IntersectGround(down)->z, 0.0f);
}

TEST(OrbitCameraTest, GesturesStayInRange) {
  OrbitCamera camera;
  camera.Orbit(0, 100000);
  EXPECT_FLOAT_EQ(camera.pitch_degrees, OrbitCamera::kMaxPitch);
  camera.Orbit(0, -100000);
  EXPECT_FLOAT_EQ(camera.pitch_degrees, OrbitCamera::kMinPitch);
  camera.Zoom(1000);
  EXPECT_FLOAT_EQ(camera.distance, OrbitCamera::kMinDistance);
  camera.Zoom(-1000);
  EXPECT_FLOAT_EQ(camera.distance, OrbitCamera::kMaxDistance);
  OrbitCamera zoomed;
  const float before = zoomed.distance;
  zoomed.Zoom(1);
  EXPECT_LT(zoomed.distance, before);
}

TEST(OrbitCameraTest, PanKeepsTheGroundPointUnderTheCursor) {
  OrbitCamera camera;
  camera.target = {0, 0, 0};
  camera.pitch_degrees = 89;  // looking almost straight down: pan moves the target on the ground
  const auto before = IntersectGround(camera.ScreenRay(300, 300, kWidth, kHeight));
  camera.Pan(50, 0, kHeight);
  const auto after = IntersectGround(camera.ScreenRay(350, 300, kWidth, kHeight));
  ASSERT_TRUE(before && after);
  EXPECT_NEAR(before->x, after->x, 0.5f);
  EXPECT_NEAR(before->y, after->y, 0.5f);
}

TEST(OrbitCameraTest, FrameFitsTheBox) {
  OrbitCamera camera;
  camera.Frame({-10, -10, 0}, {10, 10, 70});
  EXPECT_FLOAT_EQ(camera.target.z, 35.0f);
  // Every corner of the box is inside the view frustum.
  const glm::mat4 view_projection = camera.ProjectionMatrix(1.0f) * camera.ViewMatrix();
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner{(i & 1) ? 10 : -10, (i & 2) ? 10 : -10, (i & 4) ? 70 : 0};
    glm::vec4 clip = view_projection * glm::vec4(corner, 1.0f);
    EXPECT_LT(std::abs(clip.x / clip.w), 1.0f);
    EXPECT_LT(std::abs(clip.y / clip.w), 1.0f);
  }
}

}  // namespace
}  // namespace md5stage
