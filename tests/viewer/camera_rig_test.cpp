// The camera feature (viewer/camera_rig.h) alone: the orbit camera and what stops following, the
// cinematic cameras it loads and plays, and its part of a scene.
#include "viewer/camera_rig.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::ReadBytes;

InputFile CameraFile(const std::string& name, std::string bytes, std::string source = "local") {
  InputFile file;
  file.name = name;
  file.bytes = std::move(bytes);
  file.source = std::move(source);
  return file;
}

std::string WalkerOrbit() {
  return ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/assets/cameras/walker_orbit.md5camera");
}

struct FollowRow {
  std::string action;
  std::function<void(CameraRig&)> act;
  bool still_following;
};

TEST(CameraRigTest, WhatStopsFollowing) {
  const std::vector<FollowRow> rows = {
      {"an orbit drag", [](CameraRig& r) { r.DragOrbit(10, 5); }, true},
      {"a zoom", [](CameraRig& r) { r.ZoomBy(2); }, true},
      {"keys' orbit steps", [](CameraRig& r) { r.OrbitBy(15, 0); }, true},
      {"framing",
       [](CameraRig& r) {
         r.Frame({-1, -1, 0}, {1, 1, 2}, 1.5f);
       },
       true},
      {"a pan", [](CameraRig& r) { r.DragPan(10, 5, 720); }, false},
      {"a camera set by hand", [](CameraRig& r) { r.SetOrbit(OrbitCamera()); }, false},
      {"switched off", [](CameraRig& r) { r.SetFollowing(false); }, false},
  };
  for (const FollowRow& row : rows) {
    SCOPED_TRACE(row.action);
    CameraRig rig;
    rig.SetFollowing(true);
    row.act(rig);
    EXPECT_EQ(rig.following(), row.still_following);
    // The frame's step moves the target only while following.
    const glm::vec3 before = rig.orbit().target;
    rig.Follow({123.0f, -45.0f});
    if (row.still_following) {
      EXPECT_EQ(rig.orbit().target, glm::vec3(123.0f, -45.0f, before.z));
    } else {
      EXPECT_EQ(rig.orbit().target, before);
    }
  }
}

TEST(CameraRigTest, OrbitStepsWrapYawAndClampPitch) {
  CameraRig rig;
  OrbitCamera camera;
  camera.yaw_degrees = 350.0f;
  camera.pitch_degrees = 80.0f;
  rig.SetOrbit(camera);
  rig.OrbitBy(20.0f, 30.0f);
  EXPECT_NEAR(rig.orbit().yaw_degrees, 10.0f, 1e-4f);
  EXPECT_EQ(rig.orbit().pitch_degrees, OrbitCamera::kMaxPitch);
  rig.OrbitBy(0.0f, -400.0f);
  EXPECT_EQ(rig.orbit().pitch_degrees, OrbitCamera::kMinPitch);
}

TEST(CameraRigTest, LoadsPlaysAndReplacesCinematicCameras) {
  CameraRig rig;
  std::vector<InputFile> files;
  files.push_back(CameraFile("walker_orbit.md5camera", WalkerOrbit()));
  files.push_back(CameraFile("broken.md5camera", "MD5Version 10\nnonsense"));
  files.push_back(CameraFile("walker.md5mesh", "not a camera"));
  std::vector<std::string> loaded, errors;
  rig.LoadFiles(&files, &loaded, &errors);
  EXPECT_EQ(loaded, std::vector<std::string>{"walker_orbit"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("broken.md5camera:", 0), 0u) << errors[0];
  ASSERT_EQ(files.size(), 1u) << "what is not a camera stays in the batch";
  EXPECT_EQ(files[0].name, "walker.md5mesh");
  ASSERT_EQ(rig.cinematics().size(), 1u);
  const CameraId id = rig.cinematics()[0].id;
  EXPECT_TRUE(id.valid());
  EXPECT_EQ(rig.Find("walker_orbit"), 0);
  EXPECT_EQ(rig.Find("nothing"), -1);

  // Playing it: the view is the camera's, following stops; -1 goes back to the orbit camera.
  rig.SetFollowing(true);
  const glm::mat4 orbit_view = rig.ViewProjection(16.0f / 9.0f, 1.0);
  EXPECT_TRUE(rig.Play(0));
  EXPECT_EQ(rig.playing(), id);
  EXPECT_FALSE(rig.following());
  anim::CameraView view;
  EXPECT_TRUE(rig.Sample(1.0, &view));
  EXPECT_NE(rig.ViewProjection(16.0f / 9.0f, 1.0), orbit_view);
  EXPECT_EQ(rig.CinematicJson(1.0).Find("playing")->as_string(), "walker_orbit");

  // The same name again replaces it in place: same handle, still playing.
  std::vector<InputFile> again;
  again.push_back(CameraFile("cams/walker_orbit.md5camera", WalkerOrbit(), "cameras/x"));
  rig.LoadFiles(&again, &loaded, &errors);
  ASSERT_EQ(rig.cinematics().size(), 1u);
  EXPECT_EQ(rig.cinematics()[0].id, id);
  EXPECT_EQ(rig.cinematics()[0].source, "cameras/x");
  EXPECT_EQ(rig.IndexOf(rig.playing()), 0);

  EXPECT_FALSE(rig.Play(-1));
  EXPECT_FALSE(rig.playing().valid());
  EXPECT_FALSE(rig.Sample(1.0, &view));
  EXPECT_EQ(rig.ViewProjection(16.0f / 9.0f, 1.0), orbit_view);
  EXPECT_FALSE(rig.Play(7)) << "out of range: the orbit camera";
}

TEST(CameraRigTest, ItsPartOfAScene) {
  CameraRig rig;
  std::vector<InputFile> files;
  files.push_back(CameraFile("walker_orbit.md5camera", WalkerOrbit(), "cameras/walker_orbit"));
  std::vector<std::string> loaded, errors;
  rig.LoadFiles(&files, &loaded, &errors);
  ASSERT_TRUE(rig.HasSource("cameras/walker_orbit"));
  EXPECT_FALSE(rig.HasSource("cameras/other"));

  SceneCamera camera;
  camera.target = {10.0, 20.0, 30.0};
  camera.yaw_degrees = 45.0;
  camera.pitch_degrees = 10.0;
  camera.distance = 250.0;
  camera.cinematic = "cameras/walker_orbit";
  rig.SetFollowing(true);
  EXPECT_TRUE(rig.ApplyScene(camera));
  EXPECT_FALSE(rig.following());
  EXPECT_EQ(rig.IndexOf(rig.playing()), 0);
  SceneCamera written;
  rig.WriteScene(&written);
  EXPECT_EQ(written.target, camera.target);
  EXPECT_EQ(written.yaw_degrees, camera.yaw_degrees);
  EXPECT_EQ(written.pitch_degrees, camera.pitch_degrees);
  EXPECT_EQ(written.distance, camera.distance);
  EXPECT_EQ(written.cinematic, camera.cinematic);
  EXPECT_EQ(WriteJson(rig.OrbitJson()),
            R"({"target":[10,20,30],"yaw":45,"pitch":10,"distance":250})");

  // A scene naming a camera that is not loaded: the orbit camera, and false to report it.
  camera.cinematic = "cameras/other";
  EXPECT_FALSE(rig.ApplyScene(camera));
  EXPECT_FALSE(rig.playing().valid());
  rig.WriteScene(&written);
  EXPECT_EQ(written.cinematic, "cameras/walker_orbit") << "unchanged: the scene's field is kept";
}

// Auto-rotate turns the orbit camera by its speed, only after the reader left it alone for
// the delay, never while held or while a cinematic camera plays; each change is reported once,
// with who made it.
TEST(CameraRigTest, AutoRotateWaitsForTheReaderAndReportsWhoMovedTheCamera) {
  struct Row {
    std::string what;
    std::function<void(CameraRig&)> act;
    float yaw_turned;    // degrees, after the act
    const char* source;  // TakeChange's answer
  };
  const auto step = [](CameraRig& r, double seconds, bool held) {
    // Eighths of a second: exact in binary, so the delay ends on a step.
    for (int i = 0; i < static_cast<int>(seconds * 8); ++i) r.StepAutoRotate(0.125, held);
  };
  const std::vector<Row> rows = {
      {"nothing", [](CameraRig&) {}, 0.0f, nullptr},
      {"a second after the delay", [&](CameraRig& r) { step(r, 1.0, false); }, 20.0f, "automatic"},
      {"held: never turns", [&](CameraRig& r) { step(r, 5.0, true); }, 0.0f, nullptr},
      {"the reader drags, then 2 s: within the delay",
       [&](CameraRig& r) {
         r.NoteReaderInput();
         r.DragOrbit(0.0f, 0.0f);
         step(r, 2.0, false);
       },
       0.0f, nullptr},
      {"the reader acts, then 4 s: turns from the step that reaches the delay",
       [&](CameraRig& r) {
         r.NoteReaderInput();
         r.TakeChange();  // the frame of the reader's act reports it
         step(r, 4.0, false);
       },
       22.5f, "automatic"},
      {"the reader orbits",
       [](CameraRig& r) {
         r.NoteReaderInput();
         r.OrbitBy(15.0f, 0.0f);
       },
       15.0f, "user-interaction"},
      {"a command places it",
       [](CameraRig& r) {
         OrbitCamera camera = r.orbit();
         camera.distance += 10.0f;
         r.SetOrbit(camera);
       },
       0.0f, "none"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    CameraRig rig;
    rig.SetAutoRotate({true, 20.0f});
    // Left alone since it was made: the delay has passed.
    EXPECT_TRUE(rig.AutoRotating());
    EXPECT_EQ(rig.TakeChange(), nullptr);
    const float yaw = rig.orbit().yaw_degrees;
    row.act(rig);
    EXPECT_NEAR(rig.orbit().yaw_degrees - yaw, row.yaw_turned, 1e-3f);
    const char* source = rig.TakeChange();
    EXPECT_STREQ(source == nullptr ? "(none)" : source,
                 row.source == nullptr ? "(none)" : row.source);
    EXPECT_EQ(rig.TakeChange(), nullptr);  // reported once
  }
  CameraRig off;
  off.SetAutoRotate({false, 20.0f});
  EXPECT_FALSE(off.AutoRotating());
  off.StepAutoRotate(5.0, false);
  EXPECT_EQ(off.TakeChange(), nullptr);
  CameraRig still;
  still.SetAutoRotate({true, 0.0f});
  EXPECT_FALSE(still.AutoRotating());
}

}  // namespace
}  // namespace md5stage::viewer
