// A crowd of characters of one model updated as a whole each frame, structure-of-arrays: route
// followers -> root poses, then per character sample, local-to-world and skinning palette into
// contiguous buffers sized once (no allocation per frame). What the 1,000-character benchmark
// measures.
#pragma once

#include <cstddef>
#include <glm/mat4x4.hpp>
#include <memory>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/joint_transform.h"
#include "core/anim/model.h"
#include "core/path/follower.h"
#include "core/path/pose.h"
#include "core/path/route.h"

namespace md5stage::bench {

class Crowd {
 public:
  // `count` characters of `model`, alternating over `animations`, spread along `route_count`
  // closed loops (Bezier ellipses laid out on a grid) at the animations' ground speeds.
  Crowd(std::shared_ptr<const anim::Model> model,
        std::vector<std::shared_ptr<const anim::Animation>> animations, int count, int route_count);

  // One frame at `time` (seconds): fills roots, locals, world joint matrices and palettes.
  bool Update(double time);

  int size() const { return count_; }
  int joint_count() const { return joints_; }
  const glm::mat4* palette(int character) const {
    return palettes_.data() + static_cast<std::size_t>(character) * joints_;
  }
  const Pose2& root(int character) const { return roots_[character]; }

 private:
  std::shared_ptr<const anim::Model> model_;
  std::vector<std::shared_ptr<const anim::Animation>> animations_;
  std::vector<std::shared_ptr<const Route>> routes_;
  int count_ = 0;
  int joints_ = 0;
  // Per character.
  std::vector<Follower> followers_;
  std::vector<const anim::Animation*> animation_of_;
  std::vector<float> time_offsets_;
  std::vector<Pose2> roots_;
  // Per character x joint, character-major.
  std::vector<anim::JointTransform> locals_;
  std::vector<glm::mat4> world_joints_;
  std::vector<glm::mat4> palettes_;
};

}  // namespace md5stage::bench
