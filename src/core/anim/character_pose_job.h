// One character instance's per-frame pose in a single job: sample (optionally crossfading from a
// second animation), local-to-world with the character's transform, and the skinning palette.
#pragma once

#include <glm/mat4x4.hpp>

#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/anim/pose.h"

namespace md5stage::anim {

struct CharacterPoseJob {
  const Model* model = nullptr;
  // Null: the bind pose. Otherwise it must have the model's joint count (bind by index; check
  // names and parents once with CheckAnimationFitsModel when pairing them).
  const Animation* animation = nullptr;
  float time = 0.0f;
  PlaybackMode mode = PlaybackMode::kLoop;
  RootMotion root_motion = RootMotion::kKeep;
  // Optional crossfade: the pose blends from `fade_from` (at fade_from_time) to `animation` by
  // fade_weight (0 = all fade_from, 1 = all animation).
  const Animation* fade_from = nullptr;
  float fade_from_time = 0.0f;
  PlaybackMode fade_from_mode = PlaybackMode::kLoop;
  float fade_weight = 1.0f;
  // The character's world transform (or the world matrix of the joint/node it hangs from).
  glm::mat4 world{1.0f};
  Pose* pose = nullptr;  // sized for the model's skeleton; receives locals, models, palette

  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage::anim
