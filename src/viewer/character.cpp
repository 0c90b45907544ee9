#include "viewer/character.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "core/anim/character_pose_job.h"

namespace md5stage::viewer {
namespace {

anim::Span<const glm::mat4> ConstSpan(const std::vector<glm::mat4>& v) {
  return anim::Span<const glm::mat4>(v.data(), v.size());
}

}  // namespace

ShapeInstance TurnSegmentShape(const TurnSegment& segment, float lift, Rgba8 color) {
  if (segment.kind == TurnSegment::Kind::kArc) {
    return ArcShape(glm::vec3(glm::vec2(segment.centre), lift), static_cast<float>(segment.radius),
                    static_cast<float>(segment.start_angle), static_cast<float>(segment.sweep),
                    color, LineDepth::kOnTop);
  }
  const glm::dvec2 end = TurnSegmentEnd(segment).position;
  return SegmentShape(glm::vec3(glm::vec2(segment.start.position), lift),
                      glm::vec3(glm::vec2(end), lift), color, LineDepth::kOnTop);
}

void AddTurnPathShapes(const TurnSegment* segments, size_t count, bool routes, bool circles,
                       Rgba8 circle_color, std::vector<ShapeInstance>* shapes) {
  const float lift = 0.05f;
  if (circles) {
    for (size_t s = 0; s < count; ++s) {
      const TurnSegment& segment = segments[s];
      if (segment.kind != TurnSegment::Kind::kArc || !(segment.radius > 0.0)) continue;
      shapes->push_back({LineShape::kCircle, glm::vec3(glm::vec2(segment.centre), lift),
                         static_cast<float>(segment.radius), circle_color, LineDepth::kOnTop});
    }
  }
  if (routes) {
    for (size_t s = 0; s < count; ++s) {
      if (segments[s].length > 0.0) {
        shapes->push_back(TurnSegmentShape(segments[s], lift, {120, 220, 255, 255}));
      }
    }
  }
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

namespace {

glm::quat EulerDegrees(const glm::vec3& degrees) { return glm::quat(glm::radians(degrees)); }

}  // namespace

glm::mat4 Character::RootMatrix() const {
  // translate(position) x rotate(heading about +z), written out: it runs for every character
  // a frame (glm::rotate's general axis-angle form was 2% of a page of figures' frame).
  const float c = std::cos(heading), s = std::sin(heading);
  glm::mat4 root(1.0f);
  root[0] = glm::vec4(c, s, 0.0f, 0.0f);
  root[1] = glm::vec4(-s, c, 0.0f, 0.0f);
  root[3] = glm::vec4(position, 0.0f, 1.0f);
  return root;
}

bool PoseCharacter(Character& character, const std::vector<LoadedModel>& models) {
  const LoadedModel* found = FindLoadedModel(models, character.model);
  if (found == nullptr) return false;
  const LoadedModel& loaded = *found;
  anim::Pose& pose = character.pose;
  if (static_cast<int>(pose.locals.size()) != loaded.model->skeleton().joint_count()) {
    pose.Resize(loaded.model->skeleton().joint_count());
  }
  // The core's job does sampling, the crossfade, local-to-world and the palette; the clock has
  // already wrapped or clamped both times, so both are sampled clamped.
  const anim::PlaybackClock& playback = character.playback;
  const int animation_count = static_cast<int>(loaded.animations.size());
  anim::CharacterPoseJob job;
  job.model = loaded.model.get();
  if (playback.animation >= 0 && playback.animation < animation_count) {
    job.animation = loaded.animations[static_cast<size_t>(playback.animation)].get();
    job.time = static_cast<float>(playback.time);
    job.mode = anim::PlaybackMode::kClamp;
    if (playback.fade_from >= 0 && playback.fade_from < animation_count &&
        playback.fade_duration > 0.0f) {
      const anim::Animation& from = *loaded.animations[static_cast<size_t>(playback.fade_from)];
      job.fade_from = &from;
      job.fade_from_time = static_cast<float>(anim::CrossfadeFromTime(playback, from.duration()));
      job.fade_from_mode = anim::PlaybackMode::kClamp;
      job.fade_weight = anim::CrossfadeWeight(playback);
    }
  }
  job.root_motion = character.root_motion;
  job.world = character.RootMatrix();
  job.pose = &pose;
  bool ok = job.Run();

  for (Attachment& attachment : character.attachments) {
    const LoadedModel* found_prop = FindLoadedModel(models, attachment.model);
    if (found_prop == nullptr) continue;
    const LoadedModel& prop = *found_prop;
    attachment.node.SetParentJoint(ConstSpan(pose.models), attachment.joint);
    attachment.node.SetLocal(attachment.offset, EulerDegrees(attachment.rotation_degrees));
    attachment.node.UpdateWorld();
    if (static_cast<int>(attachment.pose.locals.size()) != prop.model->skeleton().joint_count()) {
      attachment.pose.Resize(prop.model->skeleton().joint_count());
    }
    anim::CharacterPoseJob prop_job;  // the prop in its bind pose, hanging from the joint
    prop_job.model = prop.model.get();
    prop_job.world = attachment.node.world_matrix();
    prop_job.pose = &attachment.pose;
    ok = prop_job.Run() && ok;
  }
  return ok;
}

}  // namespace md5stage::viewer
