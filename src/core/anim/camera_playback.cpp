#include "core/anim/camera_playback.h"

#include <cmath>

#include "core/md5/md5_types.h"

namespace md5stage::anim {

bool CameraSampleJob::Validate() const {
  return camera != nullptr && output != nullptr && !camera->frames.empty() &&
         camera->frame_rate > 0.0f && std::isfinite(time);
}

bool CameraSampleJob::Run() const {
  if (!Validate()) return false;
  const md5::CameraFile& cam = *camera;
  const int intervals = cam.played_intervals();
  const double duration = cam.duration();
  // Where in [0, duration] the camera is.
  double t = time;
  if (intervals == 0 || duration <= 0.0) {
    t = 0.0;
  } else if (mode == PlayMode::kLoop) {
    t = std::fmod(t, duration);
    if (t < 0.0) t += duration;
  } else if (mode == PlayMode::kPingPong) {
    double phase = std::fmod(t, 2.0 * duration);
    if (phase < 0.0) phase += 2.0 * duration;
    t = phase <= duration ? phase : 2.0 * duration - phase;
  } else {
    t = std::fmin(std::fmax(t, 0.0), duration);
  }
  const double u = t * static_cast<double>(cam.frame_rate);
  int play = static_cast<int>(std::floor(u));
  float lerp = static_cast<float>(u - play);
  if (play >= intervals) {  // the end itself: the last interval's far frame
    play = intervals > 0 ? intervals - 1 : 0;
    lerp = intervals > 0 ? 1.0f : 0.0f;
  }
  // The play index's frame: skip each cut frame at or before it (cuts increase).
  int frame = play;
  int shot = 0;
  for (int cut : cam.cuts) {
    if (frame < cut) break;
    ++frame;
    ++shot;
  }
  const int last = static_cast<int>(cam.frames.size()) - 1;
  if (frame > last) frame = last;
  const md5::CameraFrame& a = cam.frames[static_cast<std::size_t>(frame)];
  const md5::CameraFrame& b = cam.frames[static_cast<std::size_t>(frame < last ? frame + 1 : last)];
  CameraView& out = *output;
  out.position = a.position + (b.position - a.position) * lerp;
  out.fov_x_degrees = a.fov_x_degrees + (b.fov_x_degrees - a.fov_x_degrees) * lerp;
  // glm::slerp takes the short way round, as idQuat::Slerp.
  out.orientation = glm::normalize(
      glm::slerp(md5::QuatFromXyz(a.orientation_xyz), md5::QuatFromXyz(b.orientation_xyz), lerp));
  out.frame = frame;
  out.shot = shot;
  return true;
}

}  // namespace md5stage::anim
