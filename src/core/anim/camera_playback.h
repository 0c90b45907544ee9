// Playback of a cinematic camera (.md5camera) at a time, as Doom 3's idCameraAnim::GetViewParms:
// position and field of view interpolated, orientation slerped, no interpolation across a cut.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/common/play_mode.h"
#include "core/md5/md5_camera.h"

namespace md5stage::anim {

// One sampled camera. Doom 3's view axes are the camera's own: it looks down its +X, +Y is its
// left and +Z its up (idCameraAnim sets renderView.viewaxis = q.ToMat3(), whose rows are the
// axes; the w sign of QuatFromXyz turns Doom's row-vector matrix into glm's column form).
struct CameraView {
  glm::vec3 position{0.0f};
  glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
  float fov_x_degrees = 90.0f;
  int frame = 0;  // the file frame the interval starts at (for the panel)
  int shot = 0;   // cuts passed so far

  glm::vec3 forward() const { return orientation * glm::vec3(1.0f, 0.0f, 0.0f); }
  glm::vec3 left() const { return orientation * glm::vec3(0.0f, 1.0f, 0.0f); }
  glm::vec3 up() const { return orientation * glm::vec3(0.0f, 0.0f, 1.0f); }
};

// time in seconds from the camera's start. kLoop wraps at CameraFile::duration(); kOnce holds
// the first frame before 0 and the last after the end; kPingPong runs back at the end (it is no
// Doom 3 mode, but every clip of the viewer has it). Frames advance as in idCameraAnim: play
// index p = floor(time x frameRate) is the p-th frame that is not a cut, and the camera lerps from
// it to the next file frame, so at a cut c it shows frame c and then jumps to c + 1.
struct CameraSampleJob {
  const md5::CameraFile* camera = nullptr;
  double time = 0.0;
  PlayMode mode = PlayMode::kLoop;
  CameraView* output = nullptr;

  // A camera with at least one frame and a positive frame rate, a finite time, an output.
  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage::anim
