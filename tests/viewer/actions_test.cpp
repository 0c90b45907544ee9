// One action, three ways in: the key, the command the panel's widget makes (ui/panel_commands.h)
// and the page's command for the same action leave the stage in the same state (and the panel's
// label agrees with state()).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ui/panel_commands.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::Command;
using test::Ok;
using test::ReadBytes;

class ScreenshotHost : public StageHost {
 public:
  void DownloadScreenshot() override { ++screenshots; }
  int screenshots = 0;
};

// The walker (idle, walk, run, wave) on a fresh stage, with the orbit camera.
struct ActionStage {
  ActionStage() : stage(&backend, &host) {
    stage.SetViewport(1280, 720, 1.0f);
    const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/";
    for (const char* name : {"models/walker/walker.md5mesh", "models/walker/idle.md5anim",
                             "models/walker/walk.md5anim", "cameras/walker_orbit.md5camera"}) {
      InputFile file;
      file.name = std::string(name).substr(std::string(name).find_last_of('/') + 1);
      file.source = "local";
      file.bytes = ReadBytes(dir + name);
      stage.QueueFile(std::move(file));
    }
    EXPECT_TRUE(Ok(stage.LoadQueuedFiles()));
    stage.Update(0.0);
  }
  JsonValue Run(const std::string& json) { return stage.Call(Command(json)); }
  // Clicks a framebuffer pixel with the left button.
  void Click(double x, double y) {
    stage.OnCursor(x, y);
    stage.OnMouseButton(MouseButton::kLeft, true);
    stage.OnMouseButton(MouseButton::kLeft, false);
  }
  void ClickGround(double x, double y) {
    const JsonValue pixel = Run("{\"cmd\":\"screenAt\",\"point\":[" + std::to_string(x) + "," +
                                std::to_string(y) + ",0]}");
    ASSERT_TRUE(Ok(pixel));
    const JsonArray& p = pixel.Find("pixel")->as_array();
    Click(p[0].as_number(), p[1].as_number());
  }
  // The state a person and a script see, without timings.
  std::string Comparable() {
    JsonValue state = stage.State();
    JsonValue out = JsonValue::MakeObject();
    for (const JsonMember& m : state.as_object()) {
      if (m.first != "stats" && m.first != "frame") out.Set(m.first, m.second);
    }
    out.Set("screenshots", host.screenshots);
    return WriteJson(out);
  }
  bool StatePlaying() {
    return stage.State().Find("instances")->as_array()[0].Find("playing")->as_bool();
  }
  bool PanelPlaying() { return stage.BuildViewerModel().instances[0].playing; }

  NullRenderBackend backend;
  ScreenshotHost host;
  Stage stage;
};

struct ActionRow {
  std::string action;
  std::function<void(ActionStage&)> setup;
  std::vector<Key> keys;                                   // empty: no key does it
  std::function<JsonValue(const ui::ViewerModel&)> panel;  // the widget's command
  std::string command;
  std::function<void(ActionStage&)> check;  // what the action must have done
};

std::vector<ActionRow> ActionRows() {
  const auto finish_once = [](ActionStage& s) {
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setMode","instance":0,"mode":"once"})")));
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"play","instance":0})")));
    for (int i = 0; i < 200; ++i) s.stage.Update(0.05);
    ASSERT_TRUE(s.stage.State().Find("instances")->as_array()[0].Find("finished")->as_bool());
  };
  const auto instance_time = [](ActionStage& s) {
    return s.stage.State().Find("instances")->as_array()[0].Find("time")->as_number();
  };
  const auto display = [](ActionStage& s, const char* name) {
    return s.stage.State().Find("display")->Find(name)->as_bool();
  };
  return {
      {"Play on a finished once clip rewinds and plays",
       finish_once,
       {},
       [](const ui::ViewerModel& m) {
         // What the button does, as it is labelled.
         return ui::command::SetPlaying(m, !m.instances[0].playing);
       },
       R"({"cmd":"play","instance":0})",
       [=](ActionStage& s) {
         EXPECT_TRUE(s.StatePlaying());
         EXPECT_EQ(instance_time(s), 0.0);
       }},
      {"Pause a playing clip",
       [](ActionStage&) {},
       {},
       [](const ui::ViewerModel& m) { return ui::command::SetPlaying(m, !m.instances[0].playing); },
       R"({"cmd":"pause","instance":0})",
       [](ActionStage& s) { EXPECT_FALSE(s.StatePlaying()); }},
      // Space, in the viewer and in figures: the scene (its clock and every clip) pauses, as the
      // Scene panel's play/pause does.
      {"Space pauses the playing scene",
       [](ActionStage&) {},
       {Key::kSpace},
       [](const ui::ViewerModel& m) { return ui::command::SetScenePlaying(!m.scene_playing); },
       R"({"cmd":"pauseScene"})",
       [](ActionStage& s) {
         EXPECT_FALSE(s.StatePlaying());
         EXPECT_FALSE(s.stage.State().Find("scene_playing")->as_bool());
       }},
      // ... and plays it again, an ended "once" clip from its start, as Play does.
      {"Space plays a paused scene, an ended clip again from its start",
       [=](ActionStage& s) {
         finish_once(s);
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"pauseScene"})")));
       },
       {Key::kSpace},
       [](const ui::ViewerModel& m) { return ui::command::SetScenePlaying(!m.scene_playing); },
       R"({"cmd":"playScene"})",
       [=](ActionStage& s) {
         EXPECT_TRUE(s.stage.State().Find("scene_playing")->as_bool());
         EXPECT_TRUE(s.StatePlaying());
       }},
      {"Step a frame forward",
       [](ActionStage&) {},
       {Key::kPeriod},
       [](const ui::ViewerModel& m) { return ui::command::StepFrames(m, 1); },
       R"({"cmd":"step","instance":0,"frames":1})",
       [=](ActionStage& s) {
         EXPECT_GT(instance_time(s), 0.0);
         EXPECT_FALSE(s.StatePlaying());
       }},
      {"Step a frame back (wraps to the last)",
       [](ActionStage&) {},
       {Key::kComma},
       [](const ui::ViewerModel& m) { return ui::command::StepFrames(m, -1); },
       R"({"cmd":"step","instance":0,"frames":-1})",
       [=](ActionStage& s) { EXPECT_GT(instance_time(s), 0.5); }},
      {"Show the skeleton",
       [](ActionStage&) {},
       {Key::kK},
       [](const ui::ViewerModel& m) {
         DisplayToggles d = m.display;
         d.skeleton = !d.skeleton;
         return ui::command::SetDisplay(d);
       },
       R"({"cmd":"display","skeleton":true})",
       [=](ActionStage& s) { EXPECT_TRUE(display(s, "skeleton")); }},
      {"Wireframe",
       [](ActionStage&) {},
       {Key::kW},
       [](const ui::ViewerModel& m) {
         DisplayToggles d = m.display;
         d.wireframe = !d.wireframe;
         return ui::command::SetDisplay(d);
       },
       R"({"cmd":"display","wireframe":true})",
       [=](ActionStage& s) { EXPECT_TRUE(display(s, "wireframe")); }},
      {"Frame the selection",
       [](ActionStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"camera","yaw":10,"pitch":5,"distance":5000})")));
       },
       {Key::kF},
       [](const ui::ViewerModel&) { return ui::command::FrameSelection(); },
       R"({"cmd":"frame"})",
       [](ActionStage& s) {
         EXPECT_LT(s.stage.State().Find("camera")->Find("distance")->as_number(), 1000.0);
       }},
      {"Delete the selected obstacle",
       [](ActionStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle"})")));
         ASSERT_TRUE(Ok(s.Run(
             R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[60,40],"radius":15}}})")));
         s.ClickGround(60, 40);  // selects it
         s.stage.Update(0.0);
         ASSERT_EQ(s.stage.State().Find("selected_obstacle")->as_number(), 0.0);
       },
       {Key::kDelete},
       [](const ui::ViewerModel& m) { return ui::command::RemoveObstacle(m, m.selected_obstacle); },
       R"({"cmd":"removeObstacle","index":0})",
       [](ActionStage& s) { EXPECT_TRUE(s.stage.State().Find("obstacles")->as_array().empty()); }},
      {"Close the polygon being drawn",
       [](ActionStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle","shape":"polygon"})")));
         s.ClickGround(50, 0);
         s.ClickGround(90, 0);
         s.ClickGround(70, 40);
         s.stage.Update(0.0);
         ASSERT_EQ(s.stage.State().Find("polygon_draft")->as_number(), 3.0);
       },
       {Key::kEnter},
       [](const ui::ViewerModel&) { return ui::command::ClosePolygon(); },
       R"({"cmd":"tool","tool":"obstacle","close":true})",
       [](ActionStage& s) {
         EXPECT_EQ(s.stage.State().Find("obstacles")->as_array().size(), 1u);
         EXPECT_EQ(s.stage.State().Find("polygon_draft")->as_number(), 0.0);
       }},
      {"Leave the cinematic camera",
       [](ActionStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"playCamera","camera":"walker_orbit"})")));
         ASSERT_EQ(s.stage.State().Find("cinematic")->Find("playing")->as_string(), "walker_orbit");
       },
       {Key::kEscape},
       [](const ui::ViewerModel& m) { return ui::command::PlayCamera(m, -1); },
       R"({"cmd":"playCamera","camera":""})",
       [](ActionStage& s) {
         EXPECT_EQ(s.stage.State().Find("cinematic")->Find("playing")->as_string(), "");
       }},
      {"Screenshot",
       [](ActionStage&) {},
       {},
       [](const ui::ViewerModel&) { return ui::command::Screenshot(); },
       R"({"cmd":"screenshot"})",
       [](ActionStage& s) { EXPECT_EQ(s.host.screenshots, 1); }},
  };
}

TEST(StageActions, KeyPanelAndCommandGiveTheSameState) {
  for (const ActionRow& row : ActionRows()) {
    SCOPED_TRACE(row.action);
    std::vector<std::string> results;
    // By key (when one does it).
    if (!row.keys.empty()) {
      ActionStage s;
      row.setup(s);
      for (Key key : row.keys) {
        s.stage.OnKeyDown(key);
        s.stage.OnKeyUp(key);
      }
      s.stage.Update(0.0);
      row.check(s);
      EXPECT_EQ(s.StatePlaying(), s.PanelPlaying());
      results.push_back(s.Comparable());
    }
    // By the panel: the command its widget makes from what it shows.
    {
      ActionStage s;
      row.setup(s);
      const JsonValue command = row.panel(s.stage.BuildViewerModel());
      ASSERT_TRUE(Ok(s.stage.Call(command))) << WriteJson(command);
      s.stage.Update(0.0);
      row.check(s);
      EXPECT_EQ(s.StatePlaying(), s.PanelPlaying());
      results.push_back(s.Comparable());
    }
    // By the page command.
    {
      ActionStage s;
      row.setup(s);
      ASSERT_TRUE(Ok(s.Run(row.command))) << row.command;
      s.stage.Update(0.0);
      row.check(s);
      EXPECT_EQ(s.StatePlaying(), s.PanelPlaying());
      results.push_back(s.Comparable());
    }
    for (size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[i], results[0]) << i;
  }
}

// The panel shows "Play" for a finished clip, as state() says it is not playing.
TEST(StageActions, TheBadgeOfAFinishedClipAgreesWithState) {
  ActionStage s;
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setMode","instance":0,"mode":"once"})")));
  for (int i = 0; i < 200; ++i) s.stage.Update(0.05);
  EXPECT_FALSE(s.StatePlaying());
  EXPECT_FALSE(s.PanelPlaying());
}

}  // namespace
}  // namespace md5stage::viewer
