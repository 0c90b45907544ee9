// A line of sight from an eye to a point, and the part of it where something can hide the point:
// the occlusion jobs (skinned triangles, bone capsules) take one and validate it the same way.
#pragma once

#include <glm/vec3.hpp>

#include "core/common/result.h"

namespace md5stage {

struct LineOfSight {
  glm::vec3 from{0.0f};  // the eye
  glm::vec3 to{0.0f};    // the point looked at
  // Hits at most this far before `to` do not count: the surface the point lies in or on (a
  // joint inside its limb). 0: any hit before the point hides it.
  float surface_depth = 0.0f;

  // Errors name the field after `job`: from / to not finite, surface_depth negative or not
  // finite.
  Status Validate(const char* job) const;
  // How far from `from` a hit hides the point: |to - from| - surface_depth (<= 0: nothing can).
  float Reach() const;
  // Whether the part of the sight that can hide the point (from `from`, Reach() long towards `to`)
  // meets the box [lo, hi]: a cheap test before the exact one (a character's capsules inside
  // their box hide nothing the box does not meet). False when Reach() <= 0.
  bool CanMeetBox(const glm::vec3& lo, const glm::vec3& hi) const;
};

}  // namespace md5stage
