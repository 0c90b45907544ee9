// The space an animation can occupy: the union of its per-frame bounds from the .md5anim, with
// the root's horizontal motion removed when playback strips it (route following). Used to cull
// characters the camera cannot see.
#pragma once

#include <glm/vec3.hpp>

#include "core/anim/animation.h"
#include "core/anim/jobs.h"

namespace md5stage::anim {

struct Bounds3 {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
  bool valid = false;  // false when the animation has no frame bounds
};

Bounds3 UnionOfFrameBounds(const Animation& animation, RootMotion root_motion);

}  // namespace md5stage::anim
