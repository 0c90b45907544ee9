#include "core/common/line_of_sight.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>
#include <utility>

namespace md5stage {
namespace {

bool IsFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

Diagnostic Error(const char* job, const char* message) {
  return MakeError("", 0, 0, std::string(job) + ": " + message);
}

}  // namespace

Status LineOfSight::Validate(const char* job) const {
  if (!IsFinite(from)) return Error(job, "from: expected a finite point");
  if (!IsFinite(to)) return Error(job, "to: expected a finite point");
  if (!(surface_depth >= 0.0f) || !std::isfinite(surface_depth)) {
    return Error(job, "surface_depth: expected a finite distance >= 0");
  }
  return Status();
}

float LineOfSight::Reach() const { return glm::length(to - from) - surface_depth; }

bool LineOfSight::CanMeetBox(const glm::vec3& lo, const glm::vec3& hi) const {
  const float length = glm::length(to - from);
  const float reach = length - surface_depth;
  if (!(reach > 0.0f)) return false;
  // Slabs (Kay and Kajiya) over the segment from + t (to - from), t in [0, reach / length].
  const glm::vec3 direction = to - from;
  float t0 = 0.0f, t1 = reach / length;
  for (int axis = 0; axis < 3; ++axis) {
    if (direction[axis] == 0.0f) {
      if (from[axis] < lo[axis] || from[axis] > hi[axis]) return false;
      continue;
    }
    float enter = (lo[axis] - from[axis]) / direction[axis];
    float leave = (hi[axis] - from[axis]) / direction[axis];
    if (enter > leave) std::swap(enter, leave);
    t0 = std::max(t0, enter);
    t1 = std::min(t1, leave);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace md5stage
