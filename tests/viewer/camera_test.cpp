// Cinematic cameras in the viewer: a .md5camera exported for a known eye and target shows the
// target in the middle of the view the renderer gets; playing, cuts, leaving, and the command.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

JsonValue Command(const std::string& json) {
  auto parsed = ParseJson("test", json);
  EXPECT_TRUE(parsed.ok()) << json;
  return parsed.ok() ? parsed.value() : JsonValue();
}

// The (x, y, z) Doom 3 writes for a camera at `eye` looking at `target` with +Z up: idCameraAnim
// uses q.ToMat3() (w = +sqrt(1 - x^2 - y^2 - z^2)) as renderView.viewaxis, whose rows are the
// forward, left and up axes; ToMat3 is the textbook rotation matrix of q, so q is the
// quaternion of the matrix with those rows. Derived from Doom's code, not from the viewer's.
glm::vec3 DoomCameraXyz(const glm::vec3& eye, const glm::vec3& target) {
  const glm::vec3 forward = glm::normalize(target - eye);
  const glm::vec3 left = glm::normalize(glm::cross(glm::vec3(0, 0, 1), forward));
  const glm::vec3 up = glm::cross(forward, left);
  glm::mat3 rows;  // glm is column-major: rows[c][r]
  for (int c = 0; c < 3; ++c) {
    rows[c][0] = forward[c];
    rows[c][1] = left[c];
    rows[c][2] = up[c];
  }
  glm::quat q = glm::quat_cast(rows);
  if (q.w < 0.0f) q = -q;
  return {q.x, q.y, q.z};
}

std::string CameraText(const glm::vec3& eye, const glm::vec3& xyz, float fov, int frames,
                       const char* cuts) {
  std::string text = "MD5Version 10\ncommandline \"\"\nnumFrames " + std::to_string(frames) +
                     "\nframeRate 10\nnumCuts " + (cuts[0] ? "1" : "0") + "\ncuts {\n" + cuts +
                     "\n}\ncamera {\n";
  char line[256];
  for (int f = 0; f < frames; ++f) {
    std::snprintf(line, sizeof line, "( %.9g %.9g %.9g ) ( %.9g %.9g %.9g ) %g\n", eye.x,
                  eye.y + 10.0f * f, eye.z, xyz.x, xyz.y, xyz.z, fov);
    text += line;
  }
  return text + "}\n";
}

class CameraTest : public ::testing::Test {
 protected:
  CameraTest() : viewer_(&backend_, nullptr) { viewer_.SetViewport(1280, 720, 1.0f); }

  JsonValue LoadCamera(const std::string& name, const std::string& text) {
    InputFile file;
    file.name = name;
    file.source = "local";
    file.bytes = text;
    viewer_.QueueFile(std::move(file));
    return viewer_.LoadQueuedFiles();
  }
  JsonValue Call(const std::string& json) { return viewer_.Call(Command(json)); }
  static bool Ok(const JsonValue& reply) { return reply.Find("ok") && reply.Find("ok")->as_bool(); }
  glm::vec3 Ndc(const glm::vec3& world) {
    DrawList list;
    viewer_.BuildDrawList(&list);
    const glm::vec4 clip = list.view_projection * glm::vec4(world, 1.0f);
    EXPECT_GT(clip.w, 0.0f);
    return glm::vec3(clip) / clip.w;
  }
  std::string Playing() { return viewer_.State().Find("cinematic")->Find("playing")->as_string(); }

  NullRenderBackend backend_;
  Stage viewer_;
};

TEST_F(CameraTest, ACameraLookingAtATargetSeesItInTheMiddle) {
  const glm::vec3 eye(300, -200, 120), target(10, 20, 40);
  const glm::vec3 xyz = DoomCameraXyz(eye, target);
  ASSERT_TRUE(Ok(LoadCamera("look.md5camera", CameraText(eye, xyz, 90, 1, ""))));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":"look"})")));
  const glm::vec3 centre = Ndc(target);
  EXPECT_NEAR(centre.x, 0.0f, 1e-4f);
  EXPECT_NEAR(centre.y, 0.0f, 1e-4f);
  EXPECT_GT(centre.z, -1.0f);
  EXPECT_LT(centre.z, 1.0f);
  // The camera's left (+Y of its axes) is the screen's left, its up the screen's up.
  const glm::vec3 forward = glm::normalize(target - eye);
  const glm::vec3 left = glm::normalize(glm::cross(glm::vec3(0, 0, 1), forward));
  EXPECT_LT(Ndc(target + 20.0f * left).x, -0.01f);
  EXPECT_GT(Ndc(target + glm::vec3(0, 0, 20)).y, 0.01f);
  // fov_x 90 at 4:3 (Doom's CalcFov) keeps fov_y = 2 atan(0.75): a point that far up sits at
  // the top edge whatever the canvas's aspect.
  const float distance = glm::length(target - eye);
  const glm::vec3 up = glm::cross(forward, left);
  EXPECT_NEAR(Ndc(target + 0.75f * distance * up).y, 1.0f, 1e-3f);
}

TEST_F(CameraTest, PlaysOnTheSceneClockCutsJumpAndEscapeLeaves) {
  const glm::vec3 eye(300, 0, 50);
  const glm::vec3 xyz = DoomCameraXyz(eye, glm::vec3(0, 0, 50));
  // Frames step 10 units in y; the cut at frame 2 skips the interval 2-3.
  ASSERT_TRUE(Ok(LoadCamera("shots.md5camera", CameraText(eye, xyz, 70, 5, "2"))));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":"shots"})")));
  auto y_at = [&](double t) {
    EXPECT_TRUE(Ok(Call(R"({"cmd":"setSceneTime","time":)" + std::to_string(t) + "}")));
    return viewer_.State().Find("cinematic")->Find("position")->as_array()[1].as_number();
  };
  EXPECT_NEAR(y_at(0.05), 5.0, 1e-4);
  EXPECT_NEAR(y_at(0.1999), 19.99, 1e-2);
  EXPECT_NEAR(y_at(0.2), 30.0, 1e-4);  // the jump: frame 2 (y 20) straight to frame 3 (y 30)
  const JsonValue state = viewer_.State();
  EXPECT_EQ(state.Find("cinematic")->Find("shot")->as_number(), 1.0);
  viewer_.OnKeyDown(Key::kEscape);
  viewer_.OnKeyUp(Key::kEscape);
  viewer_.Update(0.0);
  EXPECT_EQ(Playing(), "");
}

TEST_F(CameraTest, AnOrbitDragLeavesAndTheOrbitCameraIsAsItWas) {
  ASSERT_TRUE(Ok(LoadCamera("a.md5camera", CameraText({100, 0, 0}, {0, 0, 0}, 90, 2, ""))));
  const JsonValue before = *viewer_.State().Find("camera");
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":"a"})")));
  EXPECT_EQ(Playing(), "a");
  viewer_.OnCursor(600, 300);
  viewer_.OnMouseButton(MouseButton::kLeft, true);
  EXPECT_EQ(Playing(), "");
  viewer_.OnMouseButton(MouseButton::kLeft, false);
  EXPECT_EQ(WriteJson(*viewer_.State().Find("camera")), WriteJson(before));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":"a"})")));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":""})")));
  EXPECT_EQ(Playing(), "");
}

TEST_F(CameraTest, BadCamerasAndCommandsNameTheProblem) {
  JsonValue reply = LoadCamera("bad.md5camera", CameraText({0, 0, 0}, {0, 0, 0}, 90, 3, "7"));
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(reply.Find("errors")->as_array()[0].as_string(),
            "bad.md5camera:7:1: error: expected a cut frame from 1 to 2, found '7'");
  reply = Call(R"({"cmd":"playCamera","camera":"bad"})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(reply.Find("error")->as_string(),
            "playCamera.camera: expected \"\" (no camera is loaded), found \"bad\"");
  ASSERT_TRUE(Ok(LoadCamera("a.md5camera", CameraText({100, 0, 0}, {0, 0, 0}, 90, 2, ""))));
  reply = Call(R"({"cmd":"playCamera","camera":"b"})");
  EXPECT_EQ(reply.Find("error")->as_string(),
            "playCamera.camera: expected a loaded camera (a) or \"\" for the orbit camera, found "
            "\"b\"");
  reply = Call(R"({"cmd":"playCamera","camera":3})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_NE(reply.Find("error")->as_string().find("playCamera.camera"), std::string::npos);
  reply = Call(R"({"cmd":"playCamera","camera":"a","speed":2})");
  EXPECT_FALSE(Ok(reply));
  EXPECT_NE(reply.Find("error")->as_string().find("speed"), std::string::npos);
  EXPECT_EQ(Playing(), "");
}

}  // namespace
}  // namespace md5stage::viewer

namespace md5stage::viewer {
namespace {

std::string AssetBytes(const std::string& source) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/assets/" + source, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// assets/scenes/camera.json as the page opens it: the camera is among the files to fetch, plays
// once applied, and is written back into the scene (and so into its share link).
TEST_F(CameraTest, TheCameraDemoSceneFetchesPlaysAndSavesItsCamera) {
  auto scene = ParseJson("camera.json", AssetBytes("scenes/camera.json"));
  ASSERT_TRUE(scene.ok());
  JsonValue command = JsonValue::MakeObject();
  command.Set("cmd", "prepareScene");
  command.Set("scene", scene.value());
  const JsonValue prepared = viewer_.Call(command);
  ASSERT_TRUE(Ok(prepared)) << WriteJson(prepared);
  bool camera_fetched = false;
  for (const JsonValue& file : prepared.Find("files")->as_array()) {
    InputFile input;
    input.source = file.Find("source")->as_string();
    input.name = input.source.substr(input.source.find_last_of('/') + 1);
    input.bytes = AssetBytes(input.source);
    camera_fetched |= input.source == "cameras/walker_orbit.md5camera";
    viewer_.QueueFile(std::move(input));
  }
  EXPECT_TRUE(camera_fetched);
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"applyScene"})")));
  EXPECT_EQ(Playing(), "walker_orbit");
  const JsonValue saved = Call(R"({"cmd":"sceneJson"})");
  EXPECT_EQ(saved.Find("camera")->Find("cinematic")->as_string(), "cameras/walker_orbit.md5camera");
  // The walker (at the origin) is in view through the camera at 1 s and after the cut.
  // Each shot looks at its own aim point (shot 1: z 40, shot 2: z 45).
  for (const auto& [t, z] : {std::pair{1.0, 40.0f}, std::pair{7.0, 45.0f}}) {
    ASSERT_TRUE(Ok(Call(R"({"cmd":"setSceneTime","time":)" + std::to_string(t) + "}")));
    const glm::vec3 aim = Ndc({0, 0, z});
    EXPECT_NEAR(aim.x, 0.0f, 1e-3f) << t;
    EXPECT_NEAR(aim.y, 0.0f, 1e-3f) << t;
  }
  // Leaving: the saved scene has no cinematic camera.
  ASSERT_TRUE(Ok(Call(R"({"cmd":"playCamera","camera":""})")));
  EXPECT_EQ(Call(R"({"cmd":"sceneJson"})").Find("camera")->Find("cinematic"), nullptr);
}

}  // namespace
}  // namespace md5stage::viewer
