// libFuzzer harness: .md5camera bytes -> ParseMd5Camera -> CameraSampleJob at ordinary and hostile
// times (negative, huge, infinite, NaN) in every play mode. Invariants: a failure carries a
// located message in the file given; a parsed camera keeps its documented shape (cuts increasing
// within 1..numFrames-1, fields of view in (0, 180)); a sample is finite, on an existing frame,
// with a unit orientation (the viewer renders it as is).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "core/anim/camera_playback.h"
#include "core/md5/md5_camera.h"
#include "fuzz_util.h"

using namespace md5stage;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Result<md5::CameraFile> parsed = md5::ParseMd5Camera("fuzz.md5camera", bytes);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error().file == "fuzz.md5camera");
    FUZZ_CHECK(!parsed.error().message.empty());
    FUZZ_CHECK(parsed.error().line >= 0);
    return 0;
  }
  const md5::CameraFile& camera = parsed.value();
  FUZZ_CHECK(!camera.frames.empty());
  FUZZ_CHECK(camera.frame_rate > 0.0f && std::isfinite(camera.frame_rate));
  const int frames = static_cast<int>(camera.frames.size());
  for (std::size_t i = 0; i < camera.cuts.size(); ++i) {
    FUZZ_CHECK(camera.cuts[i] >= 1 && camera.cuts[i] <= frames - 1);
    if (i > 0) FUZZ_CHECK(camera.cuts[i] > camera.cuts[i - 1]);
  }
  for (const md5::CameraFrame& frame : camera.frames) {
    FUZZ_CHECK(frame.fov_x_degrees > 0.0f && frame.fov_x_degrees < 180.0f);
  }
  FUZZ_CHECK(camera.played_intervals() >= 0);
  const double duration = camera.duration();
  FUZZ_CHECK(std::isfinite(duration) && duration >= 0.0);
  const double times[] = {0.0,
                          duration * 0.37,
                          duration,
                          std::nextafter(duration, 0.0),
                          -duration * 1.5,
                          -1e-7,
                          1e7,
                          -1e30,
                          std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()};
  for (PlayMode mode : {PlayMode::kLoop, PlayMode::kOnce, PlayMode::kPingPong}) {
    for (double time : times) {
      anim::CameraView view;
      anim::CameraSampleJob job;
      job.camera = &camera;
      job.time = time;
      job.mode = mode;
      job.output = &view;
      const bool ran = job.Run();
      FUZZ_CHECK(ran == std::isfinite(time));
      if (!ran) continue;
      FUZZ_CHECK(view.frame >= 0 && view.frame < frames);
      FUZZ_CHECK(view.shot >= 0 && view.shot <= static_cast<int>(camera.cuts.size()));
      FUZZ_CHECK(std::isfinite(view.position.x) && std::isfinite(view.position.y) &&
                 std::isfinite(view.position.z));
      FUZZ_CHECK(view.fov_x_degrees > 0.0f && view.fov_x_degrees < 180.0f);
      const glm::quat& q = view.orientation;
      const float length = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
      FUZZ_CHECK(std::abs(length - 1.0f) < 1e-3f);
    }
  }
  return 0;
}
