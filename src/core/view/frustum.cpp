#include "core/view/frustum.h"

namespace md5stage {

Frustum Frustum::FromViewProjection(const glm::mat4& m) {
  // Rows of the matrix (glm is column-major: m[column][row]).
  const glm::vec4 row0(m[0][0], m[1][0], m[2][0], m[3][0]);
  const glm::vec4 row1(m[0][1], m[1][1], m[2][1], m[3][1]);
  const glm::vec4 row2(m[0][2], m[1][2], m[2][2], m[3][2]);
  const glm::vec4 row3(m[0][3], m[1][3], m[2][3], m[3][3]);
  Frustum frustum;
  frustum.planes_ = {row3 + row0, row3 - row0, row3 + row1, row3 - row1, row3 + row2, row3 - row2};
  for (glm::vec4& plane : frustum.planes_) {
    const float length = glm::length(glm::vec3(plane));
    if (length > 0.0f) plane /= length;
  }
  return frustum;
}

bool Frustum::IntersectsSphere(const glm::vec3& centre, float radius) const {
  for (const glm::vec4& plane : planes_) {
    if (glm::dot(glm::vec3(plane), centre) + plane.w < -radius) return false;
  }
  return true;
}

bool Frustum::IntersectsBox(const glm::vec3& box_min, const glm::vec3& box_max) const {
  for (const glm::vec4& plane : planes_) {
    // The corner furthest along the plane's normal.
    const glm::vec3 corner(plane.x >= 0.0f ? box_max.x : box_min.x,
                           plane.y >= 0.0f ? box_max.y : box_min.y,
                           plane.z >= 0.0f ? box_max.z : box_min.z);
    if (glm::dot(glm::vec3(plane), corner) + plane.w < 0.0f) return false;
  }
  return true;
}

}  // namespace md5stage
