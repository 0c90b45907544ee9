// The viewer core without a browser: loading, keys, framing, the draw list and the null backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../shared_data.h"
#include "core/anim/jobs.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

JsonValue Command(const std::string& json) {
  auto parsed = ParseJson("test", json);
  EXPECT_TRUE(parsed.ok()) << json;
  return parsed.ok() ? parsed.value() : JsonValue();
}

class ViewerTest : public ::testing::Test {
 protected:
  ViewerTest() : viewer_(&backend_, nullptr) { viewer_.SetViewport(1280, 720, 1.0f); }

  JsonValue Load(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) {
      InputFile file;
      file.name = path.substr(path.find_last_of('/') + 1);
      file.source = "local";
      file.bytes = ReadBytes(path);
      viewer_.QueueFile(std::move(file));
    }
    return viewer_.LoadQueuedFiles();
  }
  void LoadWalker() {
    const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";
    const JsonValue reply = Load(
        {dir + "walker.md5mesh", dir + "idle.md5anim", dir + "walk.md5anim", dir + "walker.png"});
    ASSERT_TRUE(reply.Find("ok")->as_bool()) << WriteJson(reply);
    ASSERT_EQ(viewer_.character_count(), 1);
  }
  JsonValue Call(const std::string& json) { return viewer_.Call(Command(json)); }
  static bool Ok(const JsonValue& reply) { return reply.Find("ok") && reply.Find("ok")->as_bool(); }
  static std::string Error(const JsonValue& reply) {
    const JsonValue* error = reply.Find("error");
    return error && error->is_string() ? error->as_string() : "";
  }

  NullRenderBackend backend_;
  Stage viewer_;
};

TEST_F(ViewerTest, LoadsAModelAndDrawsIt) {
  LoadWalker();
  viewer_.Update(1.0 / 30.0);
  DrawList list;
  viewer_.BuildDrawList(&list);
  ASSERT_EQ(list.instances.size(), 1u);
  EXPECT_TRUE(list.instances[0].mesh.valid());
  EXPECT_NE(list.instances[0].palette, nullptr);
  EXPECT_EQ(backend_.live_meshes(), 1);
  EXPECT_EQ(backend_.live_textures(), 1);
}

TEST_F(ViewerTest, ABadFileChangesNothing) {
  LoadWalker();
  const JsonValue reply =
      Load({std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/walker.png"});
  InputFile broken;
  broken.name = "broken.md5mesh";
  broken.bytes = "MD5Version 10\ncommandline \"\"\nnumJoints 1\n";
  broken.source = "local";
  viewer_.QueueFile(broken);
  const JsonValue failed = viewer_.LoadQueuedFiles();
  EXPECT_FALSE(Ok(failed));
  EXPECT_EQ(viewer_.character_count(), 1);
  EXPECT_EQ(viewer_.models().size(), 1u);
  EXPECT_NE(viewer_.last_error().find("broken.md5mesh:"), std::string::npos)
      << viewer_.last_error();
}

TEST_F(ViewerTest, RemovingAModelReleasesItsMeshAndTexturesOnce) {
  LoadWalker();
  ASSERT_TRUE(Ok(Call(R"({"cmd":"removeModel","model":"walker"})")));
  EXPECT_EQ(backend_.live_meshes(), 0);
  EXPECT_EQ(backend_.live_textures(), 0);
  EXPECT_EQ(backend_.bad_destroys(), 0);
  EXPECT_EQ(viewer_.character_count(), 0);
}

// ---- keys: one toggle per press at any frame rate -------------------------------------------

TEST_F(ViewerTest, ATapBetweenTwoFramesCounts) {
  LoadWalker();
  viewer_.OnKeyDown(Key::kK);
  viewer_.OnKeyUp(Key::kK);
  viewer_.Update(0.1);
  EXPECT_TRUE(viewer_.display().skeleton);
  viewer_.OnKeyDown(Key::kW);
  viewer_.OnKeyUp(Key::kW);
  viewer_.Update(0.1);
  EXPECT_TRUE(viewer_.display().wireframe);
}

TEST_F(ViewerTest, TwoTapsBetweenTwoFramesCountTwice) {
  LoadWalker();
  for (int i = 0; i < 2; ++i) {
    viewer_.OnKeyDown(Key::kK);
    viewer_.OnKeyUp(Key::kK);
  }
  viewer_.Update(0.1);
  EXPECT_FALSE(viewer_.display().skeleton);
}

TEST_F(ViewerTest, AHeldKeyDoesNotRepeat) {
  LoadWalker();
  viewer_.OnKeyDown(Key::kK);
  for (int frame = 0; frame < 30; ++frame) {
    viewer_.OnKeyDown(Key::kK);  // the browser's auto-repeat
    viewer_.Update(1.0 / 60.0);
  }
  viewer_.OnKeyUp(Key::kK);
  viewer_.Update(1.0 / 60.0);
  EXPECT_TRUE(viewer_.display().skeleton);
  viewer_.OnKeyDown(Key::kK);
  viewer_.OnKeyUp(Key::kK);
  viewer_.Update(1.0 / 60.0);
  EXPECT_FALSE(viewer_.display().skeleton);
}

TEST_F(ViewerTest, SpacePausesAndPlaysTheScene) {
  LoadWalker();
  ASSERT_TRUE(viewer_.characters()[0].playback.playing);
  viewer_.OnKeyDown(Key::kSpace);
  viewer_.OnKeyUp(Key::kSpace);
  viewer_.Update(0.1);
  EXPECT_FALSE(viewer_.characters()[0].playback.playing);
  const double paused_at = viewer_.characters()[0].playback.time;
  viewer_.Update(0.5);
  EXPECT_EQ(viewer_.characters()[0].playback.time, paused_at);
  viewer_.OnKeyDown(Key::kSpace);
  viewer_.OnKeyUp(Key::kSpace);
  viewer_.Update(0.1);
  EXPECT_TRUE(viewer_.characters()[0].playback.playing);
}

TEST_F(ViewerTest, KeysGoToTheUiWhenItHasTheKeyboard) {
  LoadWalker();
  viewer_.SetUiCapture(false, true);
  viewer_.OnKeyDown(Key::kK);
  viewer_.OnKeyUp(Key::kK);
  viewer_.Update(0.1);
  EXPECT_FALSE(viewer_.display().skeleton);
}

TEST_F(ViewerTest, StepKeysMoveOneFrameAndWrap) {
  LoadWalker();
  viewer_.OnKeyDown(Key::kComma);
  viewer_.OnKeyUp(Key::kComma);
  viewer_.Update(0.0);
  const Character& character = viewer_.characters()[0];
  const anim::Animation& clip =
      *viewer_.models()[0].animations[static_cast<size_t>(character.playback.animation)];
  EXPECT_FALSE(character.playback.playing);
  // A looping clip's last frame is its first again, so one step back from 0 is the one before.
  EXPECT_NEAR(character.playback.time * clip.frame_rate(), clip.frame_count() - 2, 1e-3);
  viewer_.OnKeyDown(Key::kPeriod);
  viewer_.OnKeyUp(Key::kPeriod);
  viewer_.Update(0.0);
  EXPECT_NEAR(character.playback.time, 0.0, 1e-9);
}

// ---- framing: the whole animation in view ---------------------------------------------------

// Every vertex of the character at every frame of its animation, projected with the camera.
void ExpectWholeAnimationInView(const Stage& viewer, int width, int height) {
  const Character& character = viewer.characters()[0];
  const LoadedModel& model = viewer.ModelOf(character);
  ASSERT_GE(character.playback.animation, 0);
  const anim::Animation& clip =
      *model.animations[static_cast<size_t>(character.playback.animation)];
  const OrbitCamera& camera = viewer.camera();
  const glm::mat4 view_projection =
      camera.ProjectionMatrix(static_cast<float>(width) / height) * camera.ViewMatrix();
  anim::Pose pose(model.model->skeleton().joint_count());
  std::vector<glm::vec3> positions(model.model->gpu().vertices.size());
  float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
  for (int frame = 0; frame < clip.frame_count(); ++frame) {
    anim::SampleJob sample;
    sample.animation = &clip;
    sample.time = frame / clip.frame_rate();
    sample.mode = anim::PlaybackMode::kClamp;
    sample.root_motion = character.root_motion;
    sample.output = anim::Span<anim::JointTransform>(pose.locals.data(), pose.locals.size());
    ASSERT_TRUE(sample.Run());
    SkinPose(*model.model, character.RootMatrix(), pose);
    anim::PaletteSkinningJob skin;
    skin.model = model.model.get();
    skin.palette = anim::Span<const glm::mat4>(pose.palette.data(), pose.palette.size());
    skin.positions = anim::Span<glm::vec3>(positions.data(), positions.size());
    ASSERT_TRUE(skin.Run());
    for (const glm::vec3& p : positions) {
      const glm::vec4 clip_space = view_projection * glm::vec4(p, 1.0f);
      ASSERT_GT(clip_space.w, 0.0f);
      const float x = (clip_space.x / clip_space.w * 0.5f + 0.5f) * width;
      const float y = (0.5f - clip_space.y / clip_space.w * 0.5f) * height;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  }
  // Inside, with a margin, and not lost in the distance.
  EXPECT_GT(x0, 0.02f * width);
  EXPECT_LT(x1, 0.98f * width);
  EXPECT_GT(y0, 0.02f * height);
  EXPECT_LT(y1, 0.98f * height);
  EXPECT_GT(std::max((x1 - x0) / width, (y1 - y0) / height), 0.3f);
}

TEST_F(ViewerTest, FramingFitsTheWholeAnimationLandscapeAndPortrait) {
  LoadWalker();
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":0})")));
  for (const auto& [width, height] : std::vector<std::pair<int, int>>{{1280, 720}, {400, 900}}) {
    viewer_.SetViewport(width, height, 1.0f);
    viewer_.OnKeyDown(Key::kF);
    viewer_.OnKeyUp(Key::kF);
    viewer_.Update(0.0);
    ExpectWholeAnimationInView(viewer_, width, height);
  }
}

TEST_F(ViewerTest, ADroppedCrouchingModelIsFramedWhole) {
  const std::string dir = std::string(MD5STAGE_SHARED_DIR) + "/md5/imprimis_bones/";
  MD5STAGE_SKIP_WITHOUT_SHARED(Exists(dir + "model.md5mesh"));
  // The crouch animation alone, so it is what the new character plays when it appears.
  const JsonValue reply = Load({dir + "model.md5mesh", dir + "animation/crouch.md5anim"});
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  ASSERT_EQ(viewer_.characters()[0].playback.animation, 0);
  ExpectWholeAnimationInView(viewer_, 1280, 720);
}

// ---- playback through the core ------------------------------------------------------------

// Halfway through a crossfade the character's local pose is the BlendJob of the two clips at the
// clock's times with the clock's weight: the viewer poses through the core's jobs.
TEST_F(ViewerTest, ACrossfadeIsTheCoreBlendAtTheClocksWeight) {
  LoadWalker();
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setAnimation","instance":0,"name":"idle","crossfade":0})")));
  viewer_.Update(0.3);
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":1})")));
  viewer_.Update(0.5);
  const Character& character = viewer_.characters()[0];
  const anim::PlaybackClock& clock = character.playback;
  ASSERT_GE(clock.fade_from, 0);
  const float weight = anim::CrossfadeWeight(clock);
  EXPECT_NEAR(weight, 0.5f, 1e-6f);
  const LoadedModel& model = viewer_.models()[0];
  const anim::Animation& from = *model.animations[static_cast<size_t>(clock.fade_from)];
  const anim::Animation& to = *model.animations[static_cast<size_t>(clock.animation)];
  const int joints = model.model->skeleton().joint_count();
  std::vector<anim::JointTransform> a(static_cast<size_t>(joints)), b(a.size()), blended(a.size());
  anim::SampleJob sample_from;
  sample_from.animation = &from;
  sample_from.time = static_cast<float>(anim::CrossfadeFromTime(clock, from.duration()));
  sample_from.mode = anim::PlaybackMode::kClamp;
  sample_from.root_motion = character.root_motion;
  sample_from.output = anim::Span<anim::JointTransform>(a.data(), a.size());
  ASSERT_TRUE(sample_from.Run());
  anim::SampleJob sample_to = sample_from;
  sample_to.animation = &to;
  sample_to.time = static_cast<float>(clock.time);
  sample_to.output = anim::Span<anim::JointTransform>(b.data(), b.size());
  ASSERT_TRUE(sample_to.Run());
  anim::BlendJob blend;
  blend.from = anim::Span<const anim::JointTransform>(a.data(), a.size());
  blend.to = anim::Span<const anim::JointTransform>(b.data(), b.size());
  blend.weight = weight;
  blend.output = anim::Span<anim::JointTransform>(blended.data(), blended.size());
  ASSERT_TRUE(blend.Run());
  for (int j = 0; j < joints; ++j) {
    const anim::JointTransform& got = character.pose.locals[static_cast<size_t>(j)];
    const anim::JointTransform& want = blended[static_cast<size_t>(j)];
    EXPECT_NEAR(glm::length(got.translation - want.translation), 0.0f, 1e-5f) << "joint " << j;
    EXPECT_NEAR(std::abs(glm::dot(got.rotation, want.rotation)), 1.0f, 1e-5f) << "joint " << j;
  }
  // And not simply one of the two clips.
  float differs = 0.0f;
  for (int j = 0; j < joints; ++j) {
    differs = std::max(differs, glm::length(a[static_cast<size_t>(j)].translation -
                                            b[static_cast<size_t>(j)].translation));
  }
  EXPECT_GT(differs, 1e-3f);
}

// ---- scenes ---------------------------------------------------------------------------------

// A scene's obstacles stay with the viewer and are written back, so a link made from it keeps
// them (the viewer does not plan around them yet).
TEST_F(ViewerTest, ASceneKeepsItsObstacles) {
  const JsonValue prepared = Call(R"({"cmd":"prepareScene","scene":{"version":1,
      "models":[{"name":"walker","mesh":"models/walker/walker.md5mesh",
                 "anims":["models/walker/idle.md5anim"]}],
      "instances":[{"model":"walker"}],
      "obstacles":[{"circle":{"centre":[100,0],"radius":30}}]}})");
  ASSERT_TRUE(Ok(prepared)) << WriteJson(prepared);
  for (const JsonValue& file : prepared.Find("files")->as_array()) {
    InputFile input;
    input.source = file.Find("source")->as_string();
    input.name = input.source.substr(input.source.find_last_of('/') + 1);
    input.bytes = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/assets/" + input.source);
    viewer_.QueueFile(std::move(input));
  }
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"applyScene"})")));
  const JsonValue scene = Call(R"({"cmd":"sceneJson"})");
  const JsonValue* obstacles = scene.Find("obstacles");
  ASSERT_NE(obstacles, nullptr) << WriteJson(scene);
  EXPECT_EQ(WriteJson(*obstacles), R"([{"circle":{"centre":[100,0],"radius":30}}])");
}

// A clearance set by hand travels with the scene (and so in links); the default one does not, so
// a scene opened with another model gets that model's own.
TEST_F(ViewerTest, ASceneKeepsAClearanceSetByHandOnly) {
  LoadWalker();
  EXPECT_EQ(WriteJson(Call(R"({"cmd":"sceneJson"})")).find("clearance"), std::string::npos);
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setClearance","instance":0,"clearance":33.5})")));
  const JsonValue scene = Call(R"({"cmd":"sceneJson"})");
  const JsonValue* instances = scene.Find("instances");
  ASSERT_NE(instances, nullptr) << WriteJson(scene);
  ASSERT_EQ(instances->as_array().size(), 1u);
  const JsonValue* clearance = instances->as_array()[0].Find("clearance");
  ASSERT_NE(clearance, nullptr) << WriteJson(scene);
  EXPECT_EQ(clearance->as_number(), 33.5);

  const JsonValue prepared = Call(R"({"cmd":"prepareScene","scene":{"version":1,
      "models":[{"name":"walker","mesh":"models/walker/walker.md5mesh",
                 "anims":["models/walker/idle.md5anim"]}],
      "instances":[{"model":"walker","clearance":7},{"model":"walker"}]}})");
  ASSERT_TRUE(Ok(prepared)) << WriteJson(prepared);
  for (const JsonValue& file : prepared.Find("files")->as_array()) {
    InputFile input;
    input.source = file.Find("source")->as_string();
    input.name = input.source.substr(input.source.find_last_of('/') + 1);
    input.bytes = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/assets/" + input.source);
    viewer_.QueueFile(std::move(input));
  }
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"applyScene"})")));
  ASSERT_EQ(viewer_.character_count(), 2);
  EXPECT_EQ(viewer_.characters()[0].locomotion.clearance, 7.0);
  // The second keeps the default from the walker's bounds.
  const LoadedModel& model = viewer_.models()[0];
  const double width =
      std::max(model.bind_max.x - model.bind_min.x, model.bind_max.y - model.bind_min.y);
  EXPECT_NEAR(viewer_.characters()[1].locomotion.clearance, 0.5 * width, 1e-6);
}

TEST(CharacterTest, RootMatrixIsTranslateTimesRotateAboutZ) {
  const struct {
    glm::vec2 position;
    float heading;
  } cases[] = {{{0, 0}, 0},          {{10, -20}, 0.5f}, {{-3, 4}, -2.0f},
               {{1e4f, 1e4f}, 3.1f}, {{0, 0}, 6.2f},    {{5, 5}, -6.3f}};
  for (const auto& c : cases) {
    Character character;
    character.position = c.position;
    character.heading = c.heading;
    const glm::mat4 expected =
        glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(c.position, 0.0f)), c.heading,
                    glm::vec3(0.0f, 0.0f, 1.0f));
    const glm::mat4 root = character.RootMatrix();
    for (int col = 0; col < 4; ++col)
      for (int row = 0; row < 4; ++row)
        EXPECT_NEAR(root[col][row], expected[col][row],
                    1e-6f * (1.0f + std::abs(expected[col][row])))
            << c.heading << " [" << col << "][" << row << "]";
  }
}

// ---- the draw list ----------------------------------------------------------------------------

TEST_F(ViewerTest, DisplayTogglesChangeTheDrawList) {
  LoadWalker();
  viewer_.Update(0.0);
  DrawList list;
  viewer_.BuildDrawList(&list);
  const auto grids = [](const DrawList& l) {
    return std::count_if(l.shapes.begin(), l.shapes.end(), [](const ShapeInstance& shape) {
      return shape.shape == LineShape::kGroundGrid && shape.depth == LineDepth::kTested;
    });
  };
  EXPECT_EQ(grids(list), 1);
  const size_t overlays = list.lines_on_top.size();
  ASSERT_TRUE(Ok(Call(R"({"cmd":"display","grid":false,"skeleton":true})")));
  viewer_.BuildDrawList(&list);
  EXPECT_EQ(grids(list), 0);
  // A cross per joint and a line per bone.
  const int joints = viewer_.models()[0].model->skeleton().joint_count();
  EXPECT_EQ(list.lines_on_top.size(), overlays + 2u * (3 * joints + joints - 1));
  EXPECT_FALSE(list.wireframe);
  ASSERT_TRUE(Ok(Call(R"({"cmd":"display","wireframe":true})")));
  viewer_.BuildDrawList(&list);
  EXPECT_TRUE(list.wireframe);
}

TEST_F(ViewerTest, CharactersOutsideTheViewAreCulled) {
  LoadWalker();
  ASSERT_TRUE(Ok(Call(R"({"cmd":"camera","target":[100000,100000,0],"distance":10})")));
  viewer_.Update(0.0);
  DrawList list;
  viewer_.BuildDrawList(&list);
  EXPECT_TRUE(list.instances.empty());
  EXPECT_EQ(viewer_.stats().culled, 1);
}

}  // namespace
}  // namespace md5stage::viewer
