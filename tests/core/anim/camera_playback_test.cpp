// Cinematic camera playback: interpolation, cuts, loop/once/pingpong, slerp, Doom 3's view axes
// and the job's validity table.
#include "core/anim/camera_playback.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace md5stage::anim {
namespace {

constexpr float kEps = 1e-4f;

md5::CameraFile Parse(const std::string& text) {
  Result<md5::CameraFile> result = md5::ParseMd5Camera("t.md5camera", text);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().ToString());
  return result.ok() ? result.value() : md5::CameraFile();
}

// 5 frames at 10 fps, a cut at frame 2: frames 0-1-2 are one shot, 3-4 the next (0.3 s).
const char kCutCamera[] =
    "MD5Version 10\ncommandline \"\"\nnumFrames 5\nframeRate 10\nnumCuts 1\ncuts {\n2\n}\n"
    "camera {\n"
    "( 0 0 10 ) ( 0 0 0 ) 90\n"
    "( 10 0 10 ) ( 0 0 0 ) 80\n"
    "( 20 0 10 ) ( 0 0 0 ) 70\n"
    "( -50 0 10 ) ( 0 0 0 ) 60\n"
    "( -50 10 10 ) ( 0 0 0 ) 60\n"
    "}\n";

CameraView Sample(const md5::CameraFile& camera, double time, PlayMode mode = PlayMode::kLoop) {
  CameraView view;
  CameraSampleJob job;
  job.camera = &camera;
  job.time = time;
  job.mode = mode;
  job.output = &view;
  EXPECT_TRUE(job.Run());
  return view;
}

void ExpectNear(const glm::vec3& a, const glm::vec3& b) {
  EXPECT_NEAR(a.x, b.x, kEps);
  EXPECT_NEAR(a.y, b.y, kEps);
  EXPECT_NEAR(a.z, b.z, kEps);
}

TEST(CameraPlayback, InterpolatesPositionAndFieldOfViewWithinAShot) {
  const md5::CameraFile camera = Parse(kCutCamera);
  const CameraView view = Sample(camera, 0.05);
  ExpectNear(view.position, {5, 0, 10});
  EXPECT_NEAR(view.fov_x_degrees, 85.0f, kEps);
  EXPECT_EQ(view.frame, 0);
  EXPECT_EQ(view.shot, 0);
  ExpectNear(Sample(camera, 0.15).position, {15, 0, 10});
}

// fuzz_md5camera finding 1: fields of view 1e-3 and 1.79e-43 met at 0 (a degenerate projection),
// and coordinates of opposite signs near the float limit interpolated to infinity.
TEST(CameraPlayback, InterpolationStaysBetweenTheFramesAtTheFloatLimits) {
  const md5::CameraFile camera = Parse(
      "MD5Version 10\ncommandline \"\"\nnumFrames 3\nframeRate 10\nnumCuts 0\ncuts {\n}\n"
      "camera {\n"
      "( 0 0 0 ) ( 0 0 0 ) 1e-3\n"
      "( 0 0 0 ) ( 0 0 0 ) 1.79e-43\n"
      "( -3.4e38 3.4e38 1 ) ( 0 0 0 ) 90\n"
      "}\n");
  for (double time : {0.0, 0.05, 0.0999, 0.1, 0.15, 0.1999, 0.2}) {
    const CameraView view = Sample(camera, time, PlayMode::kOnce);
    EXPECT_GT(view.fov_x_degrees, 0.0f) << time;
    EXPECT_LT(view.fov_x_degrees, 180.0f) << time;
    EXPECT_TRUE(std::isfinite(view.position.x) && std::isfinite(view.position.y)) << time;
  }
  EXPECT_FLOAT_EQ(Sample(camera, 0.1, PlayMode::kOnce).fov_x_degrees, 1.79e-43f);
  EXPECT_FLOAT_EQ(Sample(camera, 0.2, PlayMode::kOnce).position.x, -3.4e38f);
}

TEST(CameraPlayback, ACutJumpsInsteadOfInterpolating) {
  const md5::CameraFile camera = Parse(kCutCamera);
  // Just before the cut the camera reaches frame 2; at the cut it is on frame 3, never between.
  const CameraView before = Sample(camera, 0.2 - 1e-6);
  ExpectNear(before.position, {20, 0, 10});
  EXPECT_EQ(before.shot, 0);
  const CameraView after = Sample(camera, 0.2);
  ExpectNear(after.position, {-50, 0, 10});
  EXPECT_EQ(after.frame, 3);
  EXPECT_EQ(after.shot, 1);
  ExpectNear(Sample(camera, 0.25).position, {-50, 5, 10});
  for (double t = 0.0; t < 0.3; t += 0.001) {
    const float x = Sample(camera, t).position.x;
    EXPECT_TRUE(x >= -50.0f - kEps && (x <= -50.0f + kEps || x >= -kEps)) << t << " " << x;
  }
}

TEST(CameraPlayback, LoopOncePingPong) {
  const md5::CameraFile camera = Parse(kCutCamera);
  EXPECT_DOUBLE_EQ(camera.duration(), 0.3);
  ExpectNear(Sample(camera, 0.35).position, {5, 0, 10});
  ExpectNear(Sample(camera, -0.25).position, {5, 0, 10});
  ExpectNear(Sample(camera, 7.0, PlayMode::kOnce).position, {-50, 10, 10});
  ExpectNear(Sample(camera, 0.3, PlayMode::kOnce).position, {-50, 10, 10});
  ExpectNear(Sample(camera, -1.0, PlayMode::kOnce).position, {0, 0, 10});
  ExpectNear(Sample(camera, 0.55, PlayMode::kPingPong).position, {5, 0, 10});
}

TEST(CameraPlayback, OneFrameCameraHoldsStill) {
  const md5::CameraFile camera = Parse(
      "MD5Version 10\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\n"
      "camera {\n( 1 2 3 ) ( 0 0 0 ) 75\n}\n");
  for (double t : {0.0, 0.5, 100.0}) {
    const CameraView view = Sample(camera, t);
    ExpectNear(view.position, {1, 2, 3});
    EXPECT_EQ(view.fov_x_degrees, 75.0f);
  }
}

TEST(CameraPlayback, OrientationIsSlerpedTheShortWay) {
  // 0 and 90 degrees of yaw (see DoomAxes for the sign); halfway is 45 degrees.
  const md5::CameraFile camera = Parse(
      "MD5Version 10\nnumFrames 2\nframeRate 1\nnumCuts 0\ncuts {\n}\ncamera {\n"
      "( 0 0 0 ) ( 0 0 0 ) 90\n( 0 0 0 ) ( 0 0 -0.70710678 ) 90\n}\n");
  const float h = std::sqrt(0.5f);
  ExpectNear(Sample(camera, 0.5, PlayMode::kOnce).forward(), {h, h, 0});
  ExpectNear(Sample(camera, 0.25, PlayMode::kOnce).forward(),
             {std::cos(glm::radians(22.5f)), std::sin(glm::radians(22.5f)), 0});
}

// The (x, y, z) a Doom 3 exporter writes for a view, worked out by hand with idQuat::ToMat3 (w =
// +sqrt(1 - x^2 - y^2 - z^2); the rows of the matrix are the view axes, row 0 =
// (1 - 2(y^2 + z^2), 2(xy - wz), 2(xz + wy)) is where the camera looks):
//   (0, 0, -0.7071): row 0 = (0, -2 w z, 0) = (0, 1, 0): looks down +Y, left = -X.
//   (0, -0.7071, 0): row 0 = (0, 0, 2 w y) = (0, 0, -1): looks straight down, up = +X.
TEST(CameraPlayback, DoomAxes) {
  const md5::CameraFile camera = Parse(
      "MD5Version 10\nnumFrames 3\nframeRate 1\nnumCuts 0\ncuts {\n}\ncamera {\n"
      "( 0 0 0 ) ( 0 0 0 ) 90\n( 0 0 0 ) ( 0 0 -0.70710678 ) 90\n"
      "( 0 0 0 ) ( 0 -0.70710678 0 ) 90\n}\n");
  const CameraView identity = Sample(camera, 0.0, PlayMode::kOnce);
  ExpectNear(identity.forward(), {1, 0, 0});
  ExpectNear(identity.left(), {0, 1, 0});
  ExpectNear(identity.up(), {0, 0, 1});
  const CameraView yawed = Sample(camera, 1.0, PlayMode::kOnce);
  ExpectNear(yawed.forward(), {0, 1, 0});
  ExpectNear(yawed.left(), {-1, 0, 0});
  ExpectNear(yawed.up(), {0, 0, 1});
  const CameraView down = Sample(camera, 2.0, PlayMode::kOnce);
  ExpectNear(down.forward(), {0, 0, -1});
  ExpectNear(down.up(), {1, 0, 0});
}

TEST(CameraSampleJob, ValidityTable) {
  const md5::CameraFile good = Parse(kCutCamera);
  md5::CameraFile no_frames = good;
  no_frames.frames.clear();
  md5::CameraFile no_rate = good;
  no_rate.frame_rate = 0.0f;
  CameraView view;
  struct Case {
    const char* name;
    const md5::CameraFile* camera;
    double time;
    CameraView* output;
    bool valid;
  } cases[] = {
      {"good", &good, 0.1, &view, true},
      {"no camera", nullptr, 0.1, &view, false},
      {"no output", &good, 0.1, nullptr, false},
      {"no frames", &no_frames, 0.1, &view, false},
      {"no frame rate", &no_rate, 0.1, &view, false},
      {"nan time", &good, std::nan(""), &view, false},
      {"infinite time", &good, INFINITY, &view, false},
      {"huge time", &good, 1e300, &view, true},
  };
  for (const Case& c : cases) {
    CameraSampleJob job;
    job.camera = c.camera;
    job.time = c.time;
    job.output = c.output;
    EXPECT_EQ(job.Validate(), c.valid) << c.name;
    EXPECT_EQ(job.Run(), c.valid) << c.name;
  }
}

}  // namespace
}  // namespace md5stage::anim
