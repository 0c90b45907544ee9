#include "core/anim/camera_playback.h"

#include <cmath>

#include "core/md5/md5_types.h"

namespace md5stage::anim {
namespace {

// Between a and b, never past either: a + (b - a) * t overflows for coordinates of opposite
// signs near the float limit, and rounds a tiny field of view to 0 (fuzz_md5camera finding 1).
float Between(float a, float b, float t) {
  const float value = a * (1.0f - t) + b * t;
  return std::fmin(std::fmax(value, std::fmin(a, b)), std::fmax(a, b));
}

glm::vec3 Between(const glm::vec3& a, const glm::vec3& b, float t) {
  return {Between(a.x, b.x, t), Between(a.y, b.y, t), Between(a.z, b.z, t)};
}

}  // namespace

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
  out.position = Between(a.position, b.position, lerp);
  out.fov_x_degrees = Between(a.fov_x_degrees, b.fov_x_degrees, lerp);
  // glm::slerp takes the short way round, as idQuat::Slerp.
  out.orientation = glm::normalize(
      glm::slerp(md5::QuatFromXyz(a.orientation_xyz), md5::QuatFromXyz(b.orientation_xyz), lerp));
  out.frame = frame;
  out.shot = shot;
  return true;
}

}  // namespace md5stage::anim
