// The immutable runtime animation: frames converted at load time to per-frame arrays of joint
// local transforms (parent-relative; roots model-relative), so sampling is one tight loop.
#pragma once

#include <glm/vec3.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/joint_transform.h"
#include "core/md5/md5_types.h"

namespace md5stage::anim {

enum class PlaybackMode {
  kLoop,   // time wraps over duration(); the last frame closes the loop onto the first
  kClamp,  // time is held in [0, duration()]
};

// Where a time falls: blend frame0 and frame1 by alpha (0 = frame0).
struct FramePosition {
  int frame0 = 0;
  int frame1 = 0;
  float alpha = 0.0f;
};

class Animation {
 public:
  Animation() = default;
  static Animation FromAnimFile(std::shared_ptr<const md5::AnimFile> file);

  // The file name it was loaded from.
  const std::string& name() const { return source_->file_name; }
  int joint_count() const { return joint_count_; }
  int frame_count() const { return frame_count_; }
  float frame_rate() const { return frame_rate_; }
  // Loop length: (frame_count - 1) / frame_rate; 0 for a single frame.
  float duration() const { return duration_; }

  // joint_count() parent-relative transforms of one frame. Rotations of consecutive frames lie in
  // the same hemisphere (sign-aligned at load), so interpolation needs no dot-product test.
  const JointTransform* frame(int index) const {
    return frames_.data() + static_cast<std::size_t>(index) * joint_count_;
  }
  const std::vector<std::string>& joint_names() const { return joint_names_; }
  const std::vector<int>& parents() const { return parents_; }
  const std::vector<int>& root_joints() const { return root_joints_; }
  const std::vector<md5::AnimBounds>& bounds() const { return source_->bounds; }
  const md5::AnimFile& source() const { return *source_; }

  FramePosition Locate(float time, PlaybackMode mode) const;

  // Root motion of the first root (joint 0): its translation at frame 0, its displacement from
  // frame 0 to the last frame, and the horizontal (x, y) part of that over duration().
  glm::vec3 root_start() const { return root_start_; }
  glm::vec3 root_displacement() const { return root_displacement_; }
  float average_ground_speed() const { return average_ground_speed_; }
  // Frame-0 translation of each root (same order as root_joints()): what stripped playback holds
  // the roots' x and y at.
  const std::vector<glm::vec3>& root_anchors() const { return root_anchors_; }

 private:
  std::shared_ptr<const md5::AnimFile> source_;
  int joint_count_ = 0;
  int frame_count_ = 0;
  float frame_rate_ = 0.0f;
  float duration_ = 0.0f;
  std::vector<JointTransform> frames_;  // frame-major
  std::vector<std::string> joint_names_;
  std::vector<int> parents_;
  std::vector<int> root_joints_;
  std::vector<glm::vec3> root_anchors_;
  glm::vec3 root_start_{0.0f};
  glm::vec3 root_displacement_{0.0f};
  float average_ground_speed_ = 0.0f;
};

}  // namespace md5stage::anim
