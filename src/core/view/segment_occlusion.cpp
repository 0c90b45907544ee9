#include "core/view/segment_occlusion.h"

#include <cmath>
#include <string>

namespace md5stage {
namespace {

Diagnostic Error(const std::string& message) {
  return MakeError("", 0, 0, "segment occlusion: " + message);
}

// Möller-Trumbore: the distance along `direction` (a unit vector) at which the segment's line
// crosses the triangle, or a negative number when it misses (or runs parallel to it).
float CrossingDistance(const glm::vec3& origin, const glm::vec3& direction, const glm::vec3& a,
                       const glm::vec3& b, const glm::vec3& c) {
  const glm::vec3 ab = b - a, ac = c - a;
  const glm::vec3 p = glm::cross(direction, ac);
  const float determinant = glm::dot(ab, p);
  if (std::abs(determinant) < 1e-12f) return -1.0f;
  const float inverse = 1.0f / determinant;
  const glm::vec3 s = origin - a;
  const float u = glm::dot(s, p) * inverse;
  if (u < 0.0f || u > 1.0f) return -1.0f;
  const glm::vec3 q = glm::cross(s, ab);
  const float v = glm::dot(direction, q) * inverse;
  if (v < 0.0f || u + v > 1.0f) return -1.0f;
  return glm::dot(ac, q) * inverse;
}

}  // namespace

Status SegmentOcclusionJob::Validate() const {
  if (occluded == nullptr) return Error("occluded: an output flag is required");
  if (position_count > 0 && positions == nullptr) return Error("positions: missing");
  if (index_count > 0 && indices == nullptr) return Error("indices: missing");
  if (index_count % 3 != 0) {
    return Error("indices: expected whole triangles, found " + std::to_string(index_count) +
                 " indices");
  }
  for (size_t i = 0; i < index_count; ++i) {
    if (indices[i] >= position_count) {
      return Error("indices[" + std::to_string(i) + "]: expected a vertex below " +
                   std::to_string(position_count) + ", found " + std::to_string(indices[i]));
    }
  }
  return sight.Validate("segment occlusion");
}

Status SegmentOcclusionJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  *occluded = false;
  const float reach = sight.Reach();
  if (!(reach > 0.0f)) return valid;
  const glm::vec3 along = sight.to - sight.from;
  const glm::vec3 direction = along / glm::length(along);
  for (size_t i = 0; i < index_count; i += 3) {
    const float distance = CrossingDistance(sight.from, direction, positions[indices[i]],
                                            positions[indices[i + 1]], positions[indices[i + 2]]);
    if (distance > 0.0f && distance < reach) {
      *occluded = true;
      return valid;
    }
  }
  return valid;
}

}  // namespace md5stage
