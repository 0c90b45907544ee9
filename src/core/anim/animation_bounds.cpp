#include "core/anim/animation_bounds.h"

#include <algorithm>

namespace md5stage::anim {

Bounds3 UnionOfFrameBounds(const Animation& animation, RootMotion root_motion) {
  Bounds3 result;
  const auto& bounds = animation.bounds();
  const int frames = std::min(static_cast<int>(bounds.size()), animation.frame_count());
  const bool strip = root_motion == RootMotion::kStripHorizontal &&
                     !animation.root_joints().empty() && !animation.root_anchors().empty();
  for (int f = 0; f < frames; ++f) {
    glm::vec3 lo = bounds[static_cast<size_t>(f)].min;
    glm::vec3 hi = bounds[static_cast<size_t>(f)].max;
    if (strip) {
      // Stripped playback holds the root at its frame-0 x and y: move the box back with it.
      const int root = animation.root_joints()[0];
      const glm::vec3 moved = animation.frame(f)[root].translation - animation.root_anchors()[0];
      lo.x -= moved.x;
      hi.x -= moved.x;
      lo.y -= moved.y;
      hi.y -= moved.y;
    }
    if (!result.valid) {
      result.min = lo;
      result.max = hi;
      result.valid = true;
    } else {
      result.min = glm::min(result.min, lo);
      result.max = glm::max(result.max, hi);
    }
  }
  return result;
}

}  // namespace md5stage::anim
