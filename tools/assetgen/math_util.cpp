#include "math_util.h"

#include <glm/gtc/matrix_access.hpp>

namespace md5stage::assetgen {

Vec3 OrthogonalUnit(const Vec3& v, const Vec3& axis) {
  return glm::normalize(v - axis * glm::dot(v, axis));
}

Quat FrameRotation(const Vec3& dir0, const Vec3& side_hint0, const Vec3& dir1,
                   const Vec3& side_hint1) {
  Vec3 d0 = glm::normalize(dir0);
  Vec3 s0 = OrthogonalUnit(side_hint0, d0);
  Vec3 d1 = glm::normalize(dir1);
  Vec3 s1 = OrthogonalUnit(side_hint1, d1);
  Mat3 from(d0, s0, glm::cross(d0, s0));  // columns
  Mat3 to(d1, s1, glm::cross(d1, s1));
  return glm::normalize(glm::quat_cast(to * glm::transpose(from)));
}

}  // namespace md5stage::assetgen
