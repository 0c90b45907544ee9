#include "core/anim/character_pose_job.h"

#include <algorithm>

namespace md5stage::anim {

bool CharacterPoseJob::Validate() const {
  if (model == nullptr || pose == nullptr) return false;
  const int joints = model->skeleton().joint_count();
  const std::size_t n = static_cast<std::size_t>(joints);
  if (pose->locals.size() < n || pose->scratch.size() < n || pose->models.size() < n ||
      pose->palette.size() < n) {
    return false;
  }
  if (animation != nullptr && animation->joint_count() != joints) return false;
  if (fade_from != nullptr && (animation == nullptr || fade_from->joint_count() != joints)) {
    return false;
  }
  return true;
}

bool CharacterPoseJob::Run() const {
  if (!Validate()) return false;
  const Skeleton& skeleton = model->skeleton();
  if (animation == nullptr) {
    std::copy(skeleton.bind_locals().begin(), skeleton.bind_locals().end(), pose->locals.begin());
  } else {
    SampleJob sample;
    sample.animation = animation;
    sample.time = time;
    sample.mode = mode;
    sample.root_motion = root_motion;
    sample.output = pose->locals;
    if (!sample.Run()) return false;
    if (fade_from != nullptr && fade_weight < 1.0f) {
      SampleJob previous;
      previous.animation = fade_from;
      previous.time = fade_from_time;
      previous.mode = fade_from_mode;
      previous.root_motion = root_motion;
      previous.output = pose->scratch;
      BlendJob blend;
      blend.from = Span<const JointTransform>(pose->scratch.data(), pose->scratch.size());
      blend.to = Span<const JointTransform>(pose->locals.data(), pose->locals.size());
      blend.weight = fade_weight;
      blend.output = pose->locals;
      if (!previous.Run() || !blend.Run()) return false;
    }
  }
  LocalToModelJob to_world;
  to_world.skeleton = &skeleton;
  to_world.locals = pose->locals;
  to_world.root = world;
  to_world.models = pose->models;
  SkinningPaletteJob palette;
  palette.joint_matrices = pose->models;
  palette.inverse_bind_matrices = skeleton.inverse_bind_matrices();
  palette.palette = pose->palette;
  return to_world.Run() && palette.Run();
}

}  // namespace md5stage::anim
