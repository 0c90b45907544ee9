#include "core/common/line_of_sight.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <string>

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

}  // namespace md5stage
