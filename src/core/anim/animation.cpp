#include "core/anim/animation.h"

#include <cmath>
#include <utility>

namespace md5stage::anim {

Animation Animation::FromAnimFile(std::shared_ptr<const md5::AnimFile> file) {
  Animation animation;
  const md5::AnimFile& source = *file;
  animation.source_ = std::move(file);
  const int joints = source.joint_count;
  const int frames = source.frame_count;
  animation.joint_count_ = joints;
  animation.frame_count_ = frames;
  animation.frame_rate_ = source.frame_rate;
  animation.duration_ = source.duration();
  animation.joint_names_.reserve(joints);
  animation.parents_.reserve(joints);
  for (int j = 0; j < joints; ++j) {
    animation.joint_names_.push_back(source.hierarchy[j].name);
    animation.parents_.push_back(source.hierarchy[j].parent);
    if (source.hierarchy[j].parent < 0) animation.root_joints_.push_back(j);
  }
  animation.frames_.resize(static_cast<std::size_t>(joints) * frames);
  for (int f = 0; f < frames; ++f) {
    const float* components = source.frame(f);
    JointTransform* out = animation.frames_.data() + static_cast<std::size_t>(f) * joints;
    for (int j = 0; j < joints; ++j) {
      const md5::AnimJoint& joint = source.hierarchy[j];
      glm::vec3 position = source.baseframe[j].position;
      glm::vec3 orientation = source.baseframe[j].orientation_xyz;
      const float* value = components + joint.start_index;
      if (joint.flags & md5::kAnimTx) position.x = *value++;
      if (joint.flags & md5::kAnimTy) position.y = *value++;
      if (joint.flags & md5::kAnimTz) position.z = *value++;
      if (joint.flags & md5::kAnimQx) orientation.x = *value++;
      if (joint.flags & md5::kAnimQy) orientation.y = *value++;
      if (joint.flags & md5::kAnimQz) orientation.z = *value++;
      glm::quat rotation = md5::QuatFromXyz(orientation);
      if (f > 0 && glm::dot(rotation, out[j - joints].rotation) < 0.0f) rotation = -rotation;
      out[j].translation = position;
      out[j].rotation = rotation;
    }
  }
  for (int root : animation.root_joints_) {
    animation.root_anchors_.push_back(animation.frames_[root].translation);
  }
  if (joints > 0 && frames > 0) {
    animation.root_start_ = animation.frame(0)[0].translation;
    animation.root_displacement_ =
        animation.frame(frames - 1)[0].translation - animation.root_start_;
    if (animation.duration_ > 0.0f) {
      animation.average_ground_speed_ =
          std::sqrt(animation.root_displacement_.x * animation.root_displacement_.x +
                    animation.root_displacement_.y * animation.root_displacement_.y) /
          animation.duration_;
    }
  }
  return animation;
}

FramePosition Animation::Locate(float time, PlaybackMode mode) const {
  FramePosition position;
  if (frame_count_ <= 1 || !(duration_ > 0.0f) || !std::isfinite(time)) return position;
  float t = time;
  if (mode == PlaybackMode::kLoop) {
    t = std::fmod(t, duration_);
    if (t < 0.0f) t += duration_;
    if (t >= duration_) t = 0.0f;  // -tiny + duration rounds up to duration
  } else {
    t = t < 0.0f ? 0.0f : (t > duration_ ? duration_ : t);
  }
  const float frame = t * frame_rate_;
  int frame0 = static_cast<int>(frame);
  if (frame0 > frame_count_ - 2) frame0 = frame_count_ - 2;
  float alpha = frame - static_cast<float>(frame0);
  alpha = alpha < 0.0f ? 0.0f : (alpha > 1.0f ? 1.0f : alpha);
  position.frame0 = frame0;
  position.frame1 = frame0 + 1;
  position.alpha = alpha;
  return position;
}

}  // namespace md5stage::anim
