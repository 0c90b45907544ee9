// Orbit camera for a Z-up world: yaw/pitch/distance around a target, view and projection matrices,
// and the picking ray through a pixel (what route drawing and click-to-go use to hit the ground).
#pragma once

#include <glm/glm.hpp>
#include <optional>

namespace md5stage {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit length
};

// Where a ray meets the ground plane z = height, if it does so in front of its origin.
std::optional<glm::vec3> IntersectGround(const Ray& ray, float height = 0.0f);

struct OrbitCamera {
  glm::vec3 target{0.0f, 0.0f, 35.0f};
  float yaw_degrees = 30.0f;    // around +Z; 0 = the eye sits on the +X side of the target
  float pitch_degrees = 20.0f;  // elevation of the eye above the target's horizontal plane
  float distance = 300.0f;
  float fov_y_degrees = 45.0f;

  static constexpr float kMinPitch = -89.0f;
  static constexpr float kMaxPitch = 89.0f;
  static constexpr float kMinDistance = 1.0f;
  static constexpr float kMaxDistance = 100000.0f;

  glm::vec3 EyePosition() const;
  glm::mat4 ViewMatrix() const;
  // Near and far planes follow the distance so depth precision suits the scale being viewed.
  glm::mat4 ProjectionMatrix(float aspect) const;

  // Mouse gestures, in pixels of a viewport `viewport_height` pixels tall.
  void Orbit(float dx_pixels, float dy_pixels);
  void Zoom(float wheel_steps);  // positive steps move closer
  void Pan(float dx_pixels, float dy_pixels, float viewport_height);

  // Places target and distance so a box fits the view with a margin, in both directions of a
  // viewport of this aspect ratio (width / height).
  void Frame(const glm::vec3& box_min, const glm::vec3& box_max, float aspect = 16.0f / 9.0f);

  // The ray from the eye through a pixel; (0, 0) is the top-left corner.
  Ray ScreenRay(float px, float py, float viewport_width, float viewport_height) const;
};

}  // namespace md5stage
