#include "app/character.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace md5stage::app {
namespace {

anim::Span<const glm::mat4> ConstSpan(const std::vector<glm::mat4>& v) {
  return anim::Span<const glm::mat4>(v.data(), v.size());
}

void SampleInto(const anim::Animation& animation, double time, anim::RootMotion root_motion,
                std::vector<anim::JointTransform>& output) {
  anim::SampleJob sample;
  sample.animation = &animation;
  sample.time = static_cast<float>(time);
  sample.mode = anim::PlaybackMode::kClamp;  // AdvancePlayback already wrapped the time
  sample.root_motion = root_motion;
  sample.output = anim::Span<anim::JointTransform>(output.data(), output.size());
  sample.Run();
}

void SkinPose(const anim::Model& model, const glm::mat4& root, anim::Pose& pose) {
  anim::LocalToModelJob to_model;
  to_model.skeleton = &model.skeleton();
  to_model.locals = anim::Span<const anim::JointTransform>(pose.locals.data(), pose.locals.size());
  to_model.root = root;
  to_model.models = anim::Span<glm::mat4>(pose.models.data(), pose.models.size());
  to_model.Run();
  anim::SkinningPaletteJob palette;
  palette.joint_matrices = ConstSpan(pose.models);
  palette.inverse_bind_matrices = ConstSpan(model.gpu().inverse_bind_matrices);
  palette.palette = anim::Span<glm::mat4>(pose.palette.data(), pose.palette.size());
  palette.Run();
}

glm::quat EulerDegrees(const glm::vec3& degrees) { return glm::quat(glm::radians(degrees)); }

}  // namespace

glm::mat4 Character::RootMatrix() const {
  glm::mat4 root = glm::translate(glm::mat4(1.0f), glm::vec3(position, 0.0f));
  return glm::rotate(root, heading, glm::vec3(0.0f, 0.0f, 1.0f));
}

void AdvancePlayback(Playback& playback, float duration, double dt) {
  if (duration <= 0.0f) {
    playback.time = 0.0;
    return;
  }
  const double d = duration;
  if (playback.playing) playback.time += dt * playback.rate * playback.direction;
  switch (playback.mode) {
    case ui::PlayMode::kLoop:
      playback.time = std::fmod(playback.time, d);
      if (playback.time < 0.0) playback.time += d;
      break;
    case ui::PlayMode::kOnce:
      if (playback.time >= d || playback.time <= 0.0) {
        const bool at_end = playback.rate >= 0.0f ? playback.time >= d : playback.time <= 0.0;
        playback.time = std::clamp(playback.time, 0.0, d);
        if (at_end && playback.playing && dt > 0.0) playback.playing = false;
      }
      break;
    case ui::PlayMode::kPingPong:
      // Reflect at either end, as many times as a long step needs.
      for (int guard = 0; guard < 8 && (playback.time > d || playback.time < 0.0); ++guard) {
        if (playback.time > d) playback.time = 2.0 * d - playback.time;
        if (playback.time < 0.0) playback.time = -playback.time;
        playback.direction = -playback.direction;
      }
      playback.time = std::clamp(playback.time, 0.0, d);
      break;
  }
  if (playback.fade_from >= 0) {
    playback.fade_elapsed += static_cast<float>(std::abs(dt));
    if (playback.fade_elapsed >= playback.fade_duration) playback.fade_from = -1;
  }
}

void SwitchAnimation(Playback& playback, int animation) {
  if (animation == playback.animation) return;
  if (playback.animation >= 0 && animation >= 0 && playback.crossfade_seconds > 0.0f) {
    playback.fade_from = playback.animation;
    playback.fade_from_time = playback.time;
    playback.fade_elapsed = 0.0f;
    playback.fade_duration = playback.crossfade_seconds;
  } else {
    playback.fade_from = -1;
  }
  playback.animation = animation;
  playback.time = 0.0;
  playback.direction = 1;
  playback.playing = true;
}

void PoseCharacter(Character& character, const std::vector<LoadedModel>& models) {
  if (character.model < 0 || character.model >= static_cast<int>(models.size())) return;
  const LoadedModel& loaded = models[static_cast<size_t>(character.model)];
  const anim::Skeleton& skeleton = loaded.model->skeleton();
  anim::Pose& pose = character.pose;
  if (static_cast<int>(pose.locals.size()) != skeleton.joint_count()) {
    pose.Resize(skeleton.joint_count());
  }
  Playback& playback = character.playback;
  const int animation_count = static_cast<int>(loaded.animations.size());
  if (playback.animation >= 0 && playback.animation < animation_count) {
    SampleInto(*loaded.animations[static_cast<size_t>(playback.animation)], playback.time,
               character.root_motion, pose.locals);
    if (playback.fade_from >= 0 && playback.fade_from < animation_count &&
        playback.fade_duration > 0.0f) {
      const anim::Animation& from = *loaded.animations[static_cast<size_t>(playback.fade_from)];
      const double from_time = std::fmod(std::max(playback.fade_from_time, 0.0) +
                                             playback.fade_elapsed * playback.rate,
                                         std::max(from.duration(), 1e-6f));
      SampleInto(from, from_time, character.root_motion, pose.scratch);
      anim::BlendJob blend;
      blend.from = anim::Span<const anim::JointTransform>(pose.scratch.data(), pose.scratch.size());
      blend.to = anim::Span<const anim::JointTransform>(pose.locals.data(), pose.locals.size());
      blend.weight = std::clamp(playback.fade_elapsed / playback.fade_duration, 0.0f, 1.0f);
      blend.output = anim::Span<anim::JointTransform>(pose.locals.data(), pose.locals.size());
      blend.Run();
    }
  } else {
    std::copy(skeleton.bind_locals().begin(), skeleton.bind_locals().end(), pose.locals.begin());
  }
  SkinPose(*loaded.model, character.RootMatrix(), pose);

  for (Attachment& attachment : character.attachments) {
    if (attachment.model < 0 || attachment.model >= static_cast<int>(models.size())) continue;
    const LoadedModel& prop = models[static_cast<size_t>(attachment.model)];
    attachment.node.SetParentJoint(ConstSpan(pose.models), attachment.joint);
    attachment.node.SetLocal(attachment.offset, EulerDegrees(attachment.rotation_degrees));
    attachment.node.UpdateWorld();
    const anim::Skeleton& prop_skeleton = prop.model->skeleton();
    if (static_cast<int>(attachment.pose.locals.size()) != prop_skeleton.joint_count()) {
      attachment.pose.Resize(prop_skeleton.joint_count());
    }
    std::copy(prop_skeleton.bind_locals().begin(), prop_skeleton.bind_locals().end(),
              attachment.pose.locals.begin());
    SkinPose(*prop.model, attachment.node.world_matrix(), attachment.pose);
  }
}

}  // namespace md5stage::app
