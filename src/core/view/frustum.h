// View-frustum culling: the six planes of a view-projection matrix and box/sphere tests, so the
// renderer only submits characters the camera can see.
#pragma once

#include <array>
#include <glm/glm.hpp>

namespace md5stage {

class Frustum {
 public:
  // Planes (a, b, c, d) with a·x + b·y + c·z + d >= 0 inside, normalized, from an OpenGL-style
  // clip matrix (Gribb-Hartmann extraction).
  static Frustum FromViewProjection(const glm::mat4& view_projection);

  bool IntersectsSphere(const glm::vec3& centre, float radius) const;
  // Conservative: true when the box may be visible (it is outside only if wholly behind a plane).
  bool IntersectsBox(const glm::vec3& box_min, const glm::vec3& box_max) const;

  const std::array<glm::vec4, 6>& planes() const { return planes_; }

 private:
  std::array<glm::vec4, 6> planes_{};
};

}  // namespace md5stage
