// A joint's rigid transform (translation + unit quaternion, no scale: MD5 has none) and the
// small affine helpers the jobs share.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace md5stage::anim {

struct JointTransform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order: (w, x, y, z)
};

inline glm::mat4 ToMatrix(const glm::vec3& translation, const glm::quat& rotation) {
  glm::mat4 m = glm::mat4_cast(rotation);
  m[3] = glm::vec4(translation, 1.0f);
  return m;
}

inline glm::mat4 ToMatrix(const JointTransform& transform) {
  return ToMatrix(transform.translation, transform.rotation);
}

// a * b for matrices whose last row is (0, 0, 0, 1): 36 multiplies instead of 64.
inline glm::mat4 MultiplyAffine(const glm::mat4& a, const glm::mat4& b) {
  glm::mat4 r;
  r[0] = a[0] * b[0].x + a[1] * b[0].y + a[2] * b[0].z;
  r[1] = a[0] * b[1].x + a[1] * b[1].y + a[2] * b[1].z;
  r[2] = a[0] * b[2].x + a[1] * b[2].y + a[2] * b[2].z;
  r[3] = a[0] * b[3].x + a[1] * b[3].y + a[2] * b[3].z + a[3];
  return r;
}

// Inverse of a rotation + translation matrix (transpose the rotation).
inline glm::mat4 InverseRigid(const glm::mat4& m) {
  glm::mat4 r(1.0f);
  for (int c = 0; c < 3; ++c) {
    for (int row = 0; row < 3; ++row) r[c][row] = m[row][c];
  }
  const glm::vec3 t(m[3]);
  r[3] = glm::vec4(-(glm::vec3(r[0]) * t.x + glm::vec3(r[1]) * t.y + glm::vec3(r[2]) * t.z), 1.0f);
  return r;
}

inline glm::vec3 TransformPoint(const glm::mat4& m, const glm::vec3& p) {
  return glm::vec3(m[0]) * p.x + glm::vec3(m[1]) * p.y + glm::vec3(m[2]) * p.z + glm::vec3(m[3]);
}

inline glm::vec3 TransformVector(const glm::mat4& m, const glm::vec3& v) {
  return glm::vec3(m[0]) * v.x + glm::vec3(m[1]) * v.y + glm::vec3(m[2]) * v.z;
}

}  // namespace md5stage::anim
