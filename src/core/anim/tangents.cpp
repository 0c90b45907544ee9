#include "core/anim/tangents.h"

#include <cmath>
#include <glm/geometric.hpp>

namespace md5stage::anim {
namespace {

// Below this UV area (in UV units squared) a triangle has no usable texture directions; Doom 3
// uses 1e-20 too.
constexpr float kDegenerateUvArea = 1e-20f;

glm::vec3 NormalizeOrZero(const glm::vec3& v) {
  const float length = glm::length(v);
  return length > 0.0f && std::isfinite(length) ? v / length : glm::vec3(0.0f);
}

}  // namespace

glm::vec3 AnyOrthogonal(const glm::vec3& normal) {
  if (glm::dot(normal, normal) == 0.0f) return glm::vec3(1.0f, 0.0f, 0.0f);
  // Cross with the axis least aligned with the normal: never near parallel.
  const glm::vec3 a = glm::abs(normal);
  const glm::vec3 axis = a.x <= a.y && a.x <= a.z ? glm::vec3(1, 0, 0)
                         : a.y <= a.z             ? glm::vec3(0, 1, 0)
                                                  : glm::vec3(0, 0, 1);
  return glm::normalize(glm::cross(normal, axis));
}

bool TangentJob::Validate() const {
  const std::size_t n = positions.size;
  if (normals.size != n || uvs.size != n || tangents.size != n || scratch.size != n) return false;
  for (const md5::MeshTriangle& triangle : triangles) {
    for (std::uint32_t corner : triangle.vertices) {
      if (corner >= n) return false;
    }
  }
  return true;
}

bool TangentJob::Run() const {
  if (!Validate()) return false;
  for (TangentSums& sums : scratch) sums = TangentSums{};
  for (const md5::MeshTriangle& triangle : triangles) {
    const std::uint32_t ia = triangle.vertices[0], ib = triangle.vertices[1],
                        ic = triangle.vertices[2];
    const glm::vec3 d0 = positions[ib] - positions[ia];
    const glm::vec3 d1 = positions[ic] - positions[ia];
    const glm::vec2 t0 = uvs[ib] - uvs[ia];
    const glm::vec2 t1 = uvs[ic] - uvs[ia];
    const float area = t0.x * t1.y - t0.y * t1.x;
    if (!(std::fabs(area) >= kDegenerateUvArea)) continue;  // also skips NaN UVs
    // dP/du and dP/dv up to the positive factor 1/|area|: the winding of the triangle cancels.
    const float sign = area > 0.0f ? 1.0f : -1.0f;
    const glm::vec3 s = NormalizeOrZero((d0 * t1.y - d1 * t0.y) * sign);
    const glm::vec3 t = NormalizeOrZero((d1 * t0.x - d0 * t1.x) * sign);
    const int polarity = area > 0.0f ? 0 : 1;
    for (std::uint32_t corner : triangle.vertices) {
      TangentSums& sums = scratch[corner];
      sums.s[polarity] += s;
      sums.t[polarity] += t;
      sums.area[polarity] += std::fabs(area);
    }
  }
  for (std::size_t v = 0; v < positions.size; ++v) {
    const TangentSums& sums = scratch[v];
    const int polarity = sums.area[1] > sums.area[0] ? 1 : 0;
    const glm::vec3& n = normals[v];
    // Gram-Schmidt: S projected onto the normal's plane.
    glm::vec3 s = NormalizeOrZero(sums.s[polarity] - glm::dot(sums.s[polarity], n) * n);
    if (s == glm::vec3(0.0f)) {
      // S vanished (no UV area, or S along the normal): the T direction turned by a quarter,
      // else any direction in the plane.
      const glm::vec3 t = NormalizeOrZero(sums.t[polarity] - glm::dot(sums.t[polarity], n) * n);
      const float mirror = polarity == 1 ? -1.0f : 1.0f;
      s = t != glm::vec3(0.0f) ? NormalizeOrZero(glm::cross(t, n) * mirror) : glm::vec3(0.0f);
      if (s == glm::vec3(0.0f)) s = AnyOrthogonal(n);
    }
    // The bitangent sign: does the summed T lie along cross(N, S) or against it?
    const float handedness = glm::dot(glm::cross(n, s), sums.t[polarity]);
    const float w = sums.area[polarity] > 0.0f && handedness < 0.0f ? -1.0f : 1.0f;
    tangents[v] = glm::vec4(s, w);
  }
  return true;
}

}  // namespace md5stage::anim
