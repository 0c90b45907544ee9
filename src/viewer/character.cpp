#include "viewer/character.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace md5stage::viewer {
namespace {

anim::Span<const glm::mat4> ConstSpan(const std::vector<glm::mat4>& v) {
  return anim::Span<const glm::mat4>(v.data(), v.size());
}

void SampleInto(const anim::Animation& animation, double time, anim::RootMotion root_motion,
                std::vector<anim::JointTransform>& output) {
  anim::SampleJob sample;
  sample.animation = &animation;
  sample.time = static_cast<float>(time);
  sample.mode = anim::PlaybackMode::kClamp;  // AdvanceClock already wrapped the time
  sample.root_motion = root_motion;
  sample.output = anim::Span<anim::JointTransform>(output.data(), output.size());
  sample.Run();
}

}  // namespace

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

namespace {

glm::quat EulerDegrees(const glm::vec3& degrees) { return glm::quat(glm::radians(degrees)); }

}  // namespace

glm::mat4 Character::RootMatrix() const {
  glm::mat4 root = glm::translate(glm::mat4(1.0f), glm::vec3(position, 0.0f));
  return glm::rotate(root, heading, glm::vec3(0.0f, 0.0f, 1.0f));
}

void PoseCharacter(Character& character, const std::vector<LoadedModel>& models) {
  if (character.model < 0 || character.model >= static_cast<int>(models.size())) return;
  const LoadedModel& loaded = models[static_cast<size_t>(character.model)];
  const anim::Skeleton& skeleton = loaded.model->skeleton();
  anim::Pose& pose = character.pose;
  if (static_cast<int>(pose.locals.size()) != skeleton.joint_count()) {
    pose.Resize(skeleton.joint_count());
  }
  const anim::PlaybackClock& playback = character.playback;
  const int animation_count = static_cast<int>(loaded.animations.size());
  if (playback.animation >= 0 && playback.animation < animation_count) {
    SampleInto(*loaded.animations[static_cast<size_t>(playback.animation)], playback.time,
               character.root_motion, pose.locals);
    if (playback.fade_from >= 0 && playback.fade_from < animation_count &&
        playback.fade_duration > 0.0f) {
      const anim::Animation& from = *loaded.animations[static_cast<size_t>(playback.fade_from)];
      const double from_time = anim::CrossfadeFromTime(playback, from.duration());
      SampleInto(from, from_time, character.root_motion, pose.scratch);
      anim::BlendJob blend;
      blend.from = anim::Span<const anim::JointTransform>(pose.scratch.data(), pose.scratch.size());
      blend.to = anim::Span<const anim::JointTransform>(pose.locals.data(), pose.locals.size());
      blend.weight = anim::CrossfadeWeight(playback);
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

}  // namespace md5stage::viewer
