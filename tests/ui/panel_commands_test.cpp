// The panels' vocabulary (ui/panel_commands.h): a table of every panel action, each with the
// command its widget makes from what the panel shows, and what that command, run on the stage as
// the app runs it after the UI pass, must have done. The stage is the walker with its idle and
// walk clips, a cinematic camera, a route and a host that records what reaches the page.
#include "ui/panel_commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "../tga_writer.h"
#include "../viewer/folder_host.h"
#include "../viewer/viewer_test_support.h"
#include "viewer/stage.h"

namespace md5stage::ui {
namespace {

using viewer::InputFile;
using viewer::MouseButton;
using viewer::NullRenderBackend;
using viewer::Stage;
using viewer::test::Command;
using viewer::test::Ok;
using viewer::test::ReadBytes;

// What reaches the page: the file picker, page actions, screenshots and downloads.
class PageHost : public viewer::test::RecordingHost {
 public:
  void OpenFilePicker() override { ++file_pickers; }
  void PageAction(const std::string& action) override { page_actions.push_back(action); }
  void DownloadScreenshot() override { ++screenshots; }
  int file_pickers = 0;
  std::vector<std::string> page_actions;
  int screenshots = 0;
};

// The walker ("m1", its character "c1"), the walker_orbit camera and route "r1", an L of two
// lines from (0, 0) by (100, 0) to (100, 80).
struct PanelStage {
  PanelStage() : stage(&backend, &host) {
    stage.SetViewport(1280, 720, 1.0f);
    const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/";
    for (const char* name : {"models/walker/walker.md5mesh", "models/walker/idle.md5anim",
                             "models/walker/walk.md5anim", "cameras/walker_orbit.md5camera"}) {
      Queue(std::string(name).substr(std::string(name).find_last_of('/') + 1),
            ReadBytes(dir + name));
    }
    EXPECT_TRUE(Ok(stage.LoadQueuedFiles()));
    EXPECT_TRUE(Ok(Run(R"({"cmd":"setRoute","name":"L","route":{"segments":[)"
                       R"({"line":[[0,0],[100,0]]},{"line":[[100,0],[100,80]]}]}})")));
    stage.Update(0.0);
  }
  void Queue(const std::string& name, std::string bytes) {
    InputFile file;
    file.name = name;
    file.source = "local";
    file.bytes = std::move(bytes);
    stage.QueueFile(std::move(file));
  }
  JsonValue Run(const std::string& json) { return stage.Call(Command(json)); }
  JsonValue State() const { return stage.State(); }
  const JsonValue& Instance0() {
    state_ = stage.State();
    return state_.Find("instances")->as_array()[0];
  }
  // Clicks the ground at (x, y) with the left button, where it shows on the canvas.
  void ClickGround(double x, double y) {
    const JsonValue pixel = Run("{\"cmd\":\"screenAt\",\"point\":[" + std::to_string(x) + "," +
                                std::to_string(y) + ",0]}");
    ASSERT_TRUE(Ok(pixel));
    const JsonArray& p = pixel.Find("pixel")->as_array();
    stage.OnCursor(p[0].as_number(), p[1].as_number());
    stage.OnMouseButton(MouseButton::kLeft, true);
    stage.OnMouseButton(MouseButton::kLeft, false);
    stage.Update(0.0);
  }

  NullRenderBackend backend;
  PageHost host;
  Stage stage;
  JsonValue state_;
};

struct PanelRow {
  std::string action;                                 // the widget, as the panel labels it
  std::function<void(PanelStage&)> setup;             // what the panel shows before
  std::function<JsonValue(const ViewerModel&)> make;  // what its widget makes
  std::string command;                                // ... which must be this
  std::function<void(PanelStage&)> check;             // and do this
};

double Number(const JsonValue& value, const char* key) { return value.Find(key)->as_number(); }
std::string Text(const JsonValue& value, const char* key) { return value.Find(key)->as_string(); }
bool Flag(const JsonValue& value, const char* key) { return value.Find(key)->as_bool(); }

void Nothing(PanelStage&) {}

std::vector<PanelRow> ModelPanelRows() {
  return {
      {"Model: Open files...", Nothing, [](const ViewerModel&) { return command::OpenFiles(); },
       R"({"cmd":"openFiles"})", [](PanelStage& s) { EXPECT_EQ(s.host.file_pickers, 1); }},
      {"Model: instance list picks the first",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"addInstance","model":"walker"})"))); },
       [](const ViewerModel& m) { return command::SelectInstance(m, 0); },
       R"({"cmd":"select","instance":"c1"})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.State(), "selected"), 0.0); }},
      {"Model: joint tree picks pelvis", Nothing,
       [](const ViewerModel& m) { return command::SelectJoint(m, 1); },
       R"({"cmd":"select","instance":"c1","joint":"pelvis"})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.State(), "selected_joint"), 1.0); }},
      {"Model: skin",
       [](PanelStage& s) {
         s.Queue("red.mtr", "models/walker/red { diffusemap models/walker/red.tga }");
         s.Queue("red.tga", md5stage::testing::WriteTga(2, 2, std::vector<uint8_t>(16, 200)));
         s.Queue("red.skin", "skin skins/walker/red { models/walker/walker models/walker/red }");
         ASSERT_TRUE(Ok(s.stage.LoadQueuedFiles()));
       },
       [](const ViewerModel& m) { return command::SetSkin(m, 0, m.models[0].skins.at(0)); },
       R"({"cmd":"setSkin","model":"m1","skin":"skins/walker/red"})",
       [](PanelStage& s) {
         EXPECT_EQ(Text(s.State().Find("models")->as_array()[0], "skin"), "skins/walker/red");
       }},
      {"Model: Add instance", Nothing,
       [](const ViewerModel& m) { return command::AddInstance(m, 0); },
       R"({"cmd":"addInstance","model":"m1"})",
       [](PanelStage& s) { EXPECT_EQ(s.stage.character_count(), 2); }},
      {"Model: Remove model", Nothing,
       [](const ViewerModel& m) { return command::RemoveModel(m, 0); },
       R"({"cmd":"removeModel","model":"m1"})",
       [](PanelStage& s) {
         EXPECT_TRUE(s.stage.models().empty());
         EXPECT_EQ(s.stage.character_count(), 0);
       }},
      {"Model: Download glTF", Nothing,
       [](const ViewerModel& m) { return command::DownloadGltf(m, 0); },
       R"({"cmd":"exportGltf","model":"m1"})",
       [](PanelStage& s) {
         ASSERT_EQ(s.host.downloads.size(), 1u);
         EXPECT_EQ(s.host.downloads[0].name, "walker.glb");
       }},
      {"Model: Download MD5", Nothing,
       [](const ViewerModel& m) { return command::DownloadMd5(m, 0); },
       R"({"cmd":"exportMd5","model":"m1"})",
       [](PanelStage& s) {
         ASSERT_GE(s.host.downloads.size(), 3u);
         EXPECT_EQ(s.host.downloads[0].name, "walker.md5mesh");
       }},
  };
}

std::vector<PanelRow> AnimationPanelRows() {
  return {
      {"Animation: walk", Nothing, [](const ViewerModel& m) { return command::SetAnimation(m, 1); },
       R"({"cmd":"setAnimation","instance":"c1","name":"walk"})",
       [](PanelStage& s) { EXPECT_EQ(Text(s.Instance0(), "animation"), "walk"); }},
      {"Animation: (bind pose)", Nothing,
       [](const ViewerModel& m) { return command::SetAnimation(m, -1); },
       R"({"cmd":"setAnimation","instance":"c1","name":null})",
       [](PanelStage& s) { EXPECT_TRUE(s.Instance0().Find("animation")->is_null()); }},
      {"Animation: Pause", Nothing,
       [](const ViewerModel& m) { return command::SetPlaying(m, !m.instances[0].playing); },
       R"({"cmd":"pause","instance":"c1"})",
       [](PanelStage& s) { EXPECT_FALSE(Flag(s.Instance0(), "playing")); }},
      {"Animation: Play",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"pause","instance":0})"))); },
       [](const ViewerModel& m) { return command::SetPlaying(m, !m.instances[0].playing); },
       R"({"cmd":"play","instance":"c1"})",
       [](PanelStage& s) { EXPECT_TRUE(Flag(s.Instance0(), "playing")); }},
      {"Animation: >", Nothing, [](const ViewerModel& m) { return command::StepFrames(m, 1); },
       R"({"cmd":"step","instance":"c1","frames":1})",
       [](PanelStage& s) {
         EXPECT_GT(Number(s.Instance0(), "time"), 0.0);
         EXPECT_FALSE(Flag(s.Instance0(), "playing"));
       }},
      {"Animation: mode ping-pong", Nothing,
       [](const ViewerModel& m) { return command::SetPlayMode(m, PlayMode::kPingPong); },
       R"({"cmd":"setMode","instance":"c1","mode":"pingpong"})",
       [](PanelStage& s) { EXPECT_EQ(Text(s.Instance0(), "mode"), "pingpong"); }},
      {"Animation: seconds", Nothing,
       [](const ViewerModel& m) { return command::SetClipTime(m, 0.5f); },
       R"({"cmd":"setTime","instance":"c1","time":0.5})",
       [](PanelStage& s) { EXPECT_DOUBLE_EQ(Number(s.Instance0(), "time"), 0.5); }},
      {"Animation: speed", Nothing, [](const ViewerModel& m) { return command::SetRate(m, -1.5f); },
       R"({"cmd":"setRate","instance":"c1","rate":-1.5})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.Instance0(), "rate"), -1.5); }},
      {"Animation: crossfade", Nothing,
       [](const ViewerModel& m) { return command::SetCrossfade(m, 0.5f); },
       R"({"cmd":"setCrossfade","instance":"c1","crossfade":0.5})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.BuildViewerModel().instances[0].crossfade_seconds, 0.5f);
       }},
      // Typed past the slider's end (Ctrl+click): it stops at zero, as the slider does.
      {"Animation: crossfade typed below zero", Nothing,
       [](const ViewerModel& m) { return command::SetCrossfade(m, -3.0f); },
       R"({"cmd":"setCrossfade","instance":"c1","crossfade":0})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.BuildViewerModel().instances[0].crossfade_seconds, 0.0f);
       }},
      {"Movement: ground speed", Nothing,
       [](const ViewerModel& m) { return command::SetSpeed(m, 120.0f); },
       R"({"cmd":"setSpeed","instance":"c1","speed":120})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.Instance0(), "speed"), 120.0); }},
      {"Movement: turn radius", Nothing,
       [](const ViewerModel& m) { return command::SetTurnRadius(m, 40.0f); },
       R"({"cmd":"setTurnRadius","instance":"c1","radius":40})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.Instance0(), "turn_radius"), 40.0); }},
      {"Movement: clearance", Nothing,
       [](const ViewerModel& m) { return command::SetClearance(m, 30.0f); },
       R"({"cmd":"setClearance","instance":"c1","clearance":30})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.Instance0(), "clearance"), 30.0); }},
      {"Movement: locomotion clip", Nothing,
       [](const ViewerModel& m) { return command::SetLocomotionAnimation(m, 0); },
       R"({"cmd":"setLocomotionAnimation","instance":"c1","name":"idle"})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.BuildViewerModel().instances[0].locomotion_animation, 0);
       }},
      {"Movement: route L, once", Nothing,
       [](const ViewerModel& m) { return command::AssignRoute(m, 0, PlayMode::kOnce); },
       R"({"cmd":"assignRoute","instance":"c1","route":"r1","mode":"once"})",
       [](PanelStage& s) {
         EXPECT_EQ(Number(s.Instance0(), "route"), 0.0);
         EXPECT_EQ(s.stage.BuildViewerModel().instances[0].route_mode, PlayMode::kOnce);
       }},
      {"Movement: route (none)",
       [](PanelStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"assignRoute","instance":0,"route":0})")));
       },
       [](const ViewerModel& m) { return command::AssignRoute(m, -1, PlayMode::kLoop); },
       R"({"cmd":"assignRoute","instance":"c1","route":-1,"mode":"loop"})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.Instance0(), "route"), -1.0); }},
  };
}

std::vector<PanelRow> AttachPanelRows() {
  const auto attach_one = [](PanelStage& s) {
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"attach","instance":0,"model":"walker","joint":"pelvis"})")));
  };
  return {
      {"Attach: Attach", Nothing,
       [](const ViewerModel& m) {
         return command::Attach(m, 0, 1, glm::vec3(0, 0, 1), glm::vec3(0, 90, 0));
       },
       R"({"cmd":"attach","instance":"c1","model":"m1","joint":"pelvis","offset":[0,0,1],)"
       R"("rotation":[0,90,0]})",
       [](PanelStage& s) {
         const AttachmentSummary a = s.stage.BuildViewerModel().instances[0].attachments.at(0);
         EXPECT_EQ(a.joint, "pelvis");
         EXPECT_EQ(a.offset, glm::vec3(0, 0, 1));
         EXPECT_EQ(a.rotation_degrees, glm::vec3(0, 90, 0));
       }},
      {"Attach: offset and rotation of the first", attach_one,
       [](const ViewerModel& m) {
         return command::EditAttachment(m, 0, glm::vec3(1, 2, 3), glm::vec3(0, 0, 45));
       },
       R"({"cmd":"editAttachment","instance":"c1","attachment":0,"offset":[1,2,3],)"
       R"("rotation":[0,0,45]})",
       [](PanelStage& s) {
         const AttachmentSummary a = s.stage.BuildViewerModel().instances[0].attachments.at(0);
         EXPECT_EQ(a.offset, glm::vec3(1, 2, 3));
         EXPECT_EQ(a.rotation_degrees, glm::vec3(0, 0, 45));
       }},
      {"Attach: detach", attach_one, [](const ViewerModel& m) { return command::Detach(m, 0); },
       R"({"cmd":"detach","instance":"c1","attachment":0})",
       [](PanelStage& s) { EXPECT_TRUE(s.Instance0().Find("attachments")->as_array().empty()); }},
  };
}

std::vector<PanelRow> DisplayPanelRows() {
  return {
      {"Display: skeleton", Nothing,
       [](const ViewerModel& m) {
         DisplayToggles display = m.display;
         display.skeleton = !display.skeleton;
         return command::SetDisplay(display);
       },
       R"({"cmd":"display","grid":true,"skeleton":true,"joint_names":false,"bounds":false,)"
       R"("wireframe":false,"normals":false,"routes":true,"turn_circles":true,)"
       R"("construction":false,"clearance":false})",
       [](PanelStage& s) {
         EXPECT_TRUE(Flag(*s.State().Find("display"), "skeleton"));
         EXPECT_TRUE(Flag(*s.State().Find("display"), "grid"));
       }},
      {"Display: clearance", Nothing,
       [](const ViewerModel& m) {
         DisplayToggles display = m.display;
         display.clearance = true;
         return command::SetDisplay(display);
       },
       R"({"cmd":"display","grid":true,"skeleton":false,"joint_names":false,"bounds":false,)"
       R"("wireframe":false,"normals":false,"routes":true,"turn_circles":true,)"
       R"("construction":false,"clearance":true})",
       [](PanelStage& s) {
         EXPECT_TRUE(Flag(*s.State().Find("display"), "clearance"));
         EXPECT_TRUE(s.stage.display().clearance);
       }},
      {"Display: channel normals, no normal maps", Nothing,
       [](const ViewerModel& m) {
         viewer::ShadingOptions shading = m.shading;
         shading.normal_maps = false;
         shading.channel = viewer::ShadingChannel::kNormals;
         return command::SetShading(shading);
       },
       R"({"cmd":"setShading","normalMaps":false,"specular":true,"channel":"normals"})",
       [](PanelStage& s) {
         const JsonValue state = s.State();
         EXPECT_FALSE(Flag(*state.Find("shading"), "normalMaps"));
         EXPECT_EQ(Text(*state.Find("shading"), "channel"), "normals");
       }},
      {"Display: light azimuth and elevation", Nothing,
       [](const ViewerModel& m) {
         viewer::ShadingOptions shading = m.shading;
         shading.light_azimuth = 90.0f;
         shading.light_elevation = -30.0f;
         return command::SetLight(shading);
       },
       R"({"cmd":"setLight","azimuth":90,"elevation":-30})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.shading().light_azimuth, 90.0f);
         EXPECT_EQ(s.stage.shading().light_elevation, -30.0f);
       }},
      {"Display: Frame (F)",
       [](PanelStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"camera","yaw":10,"pitch":5,"distance":5000})")));
       },
       [](const ViewerModel&) { return command::FrameSelection(); }, R"({"cmd":"frame"})",
       [](PanelStage& s) { EXPECT_LT(Number(*s.State().Find("camera"), "distance"), 1000.0); }},
      {"Display: Follow", Nothing, [](const ViewerModel& m) { return command::ToggleFollow(m); },
       R"({"cmd":"follow","on":true})",
       [](PanelStage& s) { EXPECT_TRUE(Flag(s.State(), "follow_selected")); }},
      {"Display: Follow again stops following",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"follow","on":true})"))); },
       [](const ViewerModel& m) { return command::ToggleFollow(m); },
       R"({"cmd":"follow","on":false})",
       [](PanelStage& s) { EXPECT_FALSE(Flag(s.State(), "follow_selected")); }},
      {"Display: Screenshot", Nothing, [](const ViewerModel&) { return command::Screenshot(); },
       R"({"cmd":"screenshot"})", [](PanelStage& s) { EXPECT_EQ(s.host.screenshots, 1); }},
  };
}

std::vector<PanelRow> ScenePanelRows() {
  const auto obstacle = [](PanelStage& s) {
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle"})")));
    ASSERT_TRUE(
        Ok(s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[50,0],"radius":5}}})")));
  };
  return {
      {"Scene: Pause scene", Nothing,
       [](const ViewerModel& m) { return command::SetScenePlaying(!m.scene_playing); },
       R"({"cmd":"pauseScene"})",
       [](PanelStage& s) {
         EXPECT_FALSE(Flag(s.State(), "scene_playing"));
         EXPECT_FALSE(Flag(s.Instance0(), "playing"));
       }},
      {"Scene: time", Nothing, [](const ViewerModel&) { return command::SetSceneTime(2.5f); },
       R"({"cmd":"setSceneTime","time":2.5})",
       [](PanelStage& s) { EXPECT_EQ(Number(s.State(), "scene_time"), 2.5); }},
      {"Scene: characters", Nothing, [](const ViewerModel&) { return command::SetCrowdSize(3); },
       R"({"cmd":"setCrowdSize","count":3})",
       [](PanelStage& s) { EXPECT_EQ(s.stage.character_count(), 3); }},
      // The route pen takes up the last route when it edits none.
      {"Scene: left click draws a route", Nothing,
       [](const ViewerModel&) { return command::SetTool(Tool::kRoute); },
       R"({"cmd":"tool","tool":"route"})",
       [](PanelStage& s) {
         EXPECT_EQ(Text(s.State(), "tool"), "route");
         EXPECT_EQ(s.stage.BuildViewerModel().edited_route, 0);
       }},
      {"Scene: obstacle shape polygon",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle"})"))); },
       [](const ViewerModel&) { return command::SetObstacleShape(true); },
       R"({"cmd":"setObstacleShape","shape":"polygon"})",
       [](PanelStage& s) { EXPECT_TRUE(s.stage.BuildViewerModel().obstacle_polygon_shape); }},
      {"Scene: Close polygon",
       [](PanelStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle","shape":"polygon"})")));
         s.ClickGround(50, 0);
         s.ClickGround(90, 0);
         s.ClickGround(70, 40);
         ASSERT_EQ(Number(s.State(), "polygon_draft"), 3.0);
       },
       [](const ViewerModel&) { return command::ClosePolygon(); }, R"({"cmd":"closePolygon"})",
       [](PanelStage& s) {
         EXPECT_EQ(s.State().Find("obstacles")->as_array().size(), 1u);
         EXPECT_EQ(Number(s.State(), "polygon_draft"), 0.0);
       }},
      {"Scene: Delete obstacle",
       [=](PanelStage& s) {
         obstacle(s);
         s.ClickGround(50, 0);  // selects it
         ASSERT_EQ(Number(s.State(), "selected_obstacle"), 0.0);
       },
       [](const ViewerModel& m) { return command::RemoveObstacle(m, m.selected_obstacle); },
       R"({"cmd":"removeObstacle","index":"o1"})",
       [](PanelStage& s) { EXPECT_TRUE(s.State().Find("obstacles")->as_array().empty()); }},
      {"Scene: Clear obstacles", obstacle,
       [](const ViewerModel&) { return command::ClearObstacles(); }, R"({"cmd":"clearObstacles"})",
       [](PanelStage& s) { EXPECT_TRUE(s.State().Find("obstacles")->as_array().empty()); }},
      {"Scene: editing L", Nothing, [](const ViewerModel& m) { return command::EditRoute(m, 0); },
       R"({"cmd":"editRoute","route":"r1"})",
       [](PanelStage& s) { EXPECT_EQ(s.stage.BuildViewerModel().edited_route, 0); }},
      {"Scene: editing (new route)",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"editRoute","route":0})"))); },
       [](const ViewerModel& m) { return command::EditRoute(m, -1); },
       R"({"cmd":"editRoute","route":-1})",
       [](PanelStage& s) { EXPECT_EQ(s.stage.BuildViewerModel().edited_route, -1); }},
      {"Scene: Close loop",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"route","route":0})"))); },
       [](const ViewerModel&) { return command::ToggleRouteLoop(); },
       R"({"cmd":"toggleRouteLoop"})",
       [](PanelStage& s) { EXPECT_TRUE(s.stage.BuildViewerModel().routes[0].closed); }},
      // The L's far end, clicked with the route pen, is the selected point; deleting it leaves
      // the first line.
      {"Scene: Delete point",
       [](PanelStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"route","route":0})")));
         s.ClickGround(100, 80);
       },
       [](const ViewerModel&) { return command::DeleteRoutePoint(); },
       R"({"cmd":"deleteRoutePoint"})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.BuildViewerModel().routes[0].points, 1);
         EXPECT_DOUBLE_EQ(s.stage.BuildViewerModel().routes[0].length, 100.0);
       }},
      {"Scene: round corners",
       [](PanelStage& s) { ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"route","route":0})"))); },
       [](const ViewerModel&) { return command::SetRoundCorners(true); },
       R"({"cmd":"setRoundCorners","round":true})",
       [](PanelStage& s) { EXPECT_TRUE(s.stage.BuildViewerModel().auto_round_corners); }},
      {"Scene: Route around",
       [=](PanelStage& s) {
         obstacle(s);
         ASSERT_GT(s.stage.BuildViewerModel().routes[0].obstacle_crossings, 0);
       },
       [](const ViewerModel& m) { return command::RouteAround(m, 0); },
       R"({"cmd":"routeAround","route":"r1"})",
       [](PanelStage& s) {
         EXPECT_EQ(s.stage.BuildViewerModel().routes[0].obstacle_crossings, 0);
       }},
      {"Scene: Copy link", Nothing,
       [](const ViewerModel&) { return command::PageAction("copyLink"); },
       R"({"cmd":"pageAction","action":"copyLink"})",
       [](PanelStage& s) { EXPECT_EQ(s.host.page_actions, std::vector<std::string>{"copyLink"}); }},
      {"Scene: camera walker_orbit", Nothing,
       [](const ViewerModel& m) { return command::PlayCamera(m, 0); },
       R"({"cmd":"playCamera","camera":"walker_orbit"})",
       [](PanelStage& s) {
         EXPECT_EQ(Text(*s.State().Find("cinematic"), "playing"), "walker_orbit");
       }},
      {"Scene: Leave camera",
       [](PanelStage& s) {
         ASSERT_TRUE(Ok(s.Run(R"({"cmd":"playCamera","camera":"walker_orbit"})")));
       },
       [](const ViewerModel& m) { return command::PlayCamera(m, -1); },
       R"({"cmd":"playCamera","camera":""})",
       [](PanelStage& s) { EXPECT_EQ(Text(*s.State().Find("cinematic"), "playing"), ""); }},
  };
}

// The demo gallery's buttons, each a page action the page answers by opening the demo.
std::vector<PanelRow> GalleryRows() {
  std::vector<PanelRow> rows;
  for (const GalleryDemo& demo : kDemoGallery) {
    const std::string action = std::string("demo:") + demo.name;
    rows.push_back({"Scene: demo " + std::string(demo.name), Nothing,
                    [action](const ViewerModel&) { return command::PageAction(action); },
                    R"({"cmd":"pageAction","action":")" + action + R"("})",
                    [action](PanelStage& s) {
                      EXPECT_EQ(s.host.page_actions, std::vector<std::string>{action});
                    }});
  }
  return rows;
}

std::vector<PanelRow> PanelRows() {
  std::vector<PanelRow> rows;
  for (auto part : {ModelPanelRows, AnimationPanelRows, AttachPanelRows, DisplayPanelRows,
                    ScenePanelRows, GalleryRows}) {
    for (PanelRow& row : part()) rows.push_back(std::move(row));
  }
  return rows;
}

// Each panel action: the command its widget makes from what the panel shows, and what running
// it on the stage does.
TEST(PanelCommands, EachActionMakesItsCommandAndTheCommandActs) {
  for (const PanelRow& row : PanelRows()) {
    SCOPED_TRACE(row.action);
    PanelStage s;
    ASSERT_NO_FATAL_FAILURE(row.setup(s));
    const JsonValue command = row.make(s.stage.BuildViewerModel());
    EXPECT_EQ(WriteJson(command), row.command);
    const JsonValue reply = s.stage.Call(command);
    ASSERT_FALSE(reply.Find("error")) << WriteJson(reply);
    s.stage.Update(0.0);
    row.check(s);
  }
}

// Every command a panel makes is one of the table's: the panels have no vocabulary of their own.
TEST(PanelCommands, EveryPanelCommandIsInTheTable) {
  const std::vector<std::string> names = viewer::CommandNames();
  for (const PanelRow& row : PanelRows()) {
    SCOPED_TRACE(row.action);
    PanelStage s;
    ASSERT_NO_FATAL_FAILURE(row.setup(s));
    const JsonValue command = row.make(s.stage.BuildViewerModel());
    const std::string name = command.Find("cmd")->as_string();
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << row.action;
  }
}

// A position the panel's list does not hold (a stale frame's) becomes a command the stage
// refuses naming the field, and nothing changes.
TEST(PanelCommands, APositionNotInThePanelsListIsRefusedByTheStage) {
  PanelStage s;
  const ViewerModel model = s.stage.BuildViewerModel();
  for (const JsonValue& command :
       {command::RemoveModel(model, 5), command::SelectInstance(model, 3),
        command::RemoveObstacle(model, 0), command::RouteAround(model, 2)}) {
    SCOPED_TRACE(WriteJson(command));
    const std::string before = WriteJson(s.State());
    const JsonValue reply = s.stage.Call(command);
    EXPECT_FALSE(Ok(reply));
    const std::string error = reply.Find("error") ? reply.Find("error")->as_string() : "";
    EXPECT_NE(error.find(command.Find("cmd")->as_string() + "."), std::string::npos) << error;
    EXPECT_EQ(WriteJson(s.State()), before);
  }
}

// What the page does with a gallery button's "demo:NAME": the openDemo command, answered from
// assets/scenes/NAME.json. Every demo opens with characters; those on the giving-way row are
// scenes with avoidance on.
TEST(PanelCommands, EveryGalleryDemoOpensAndThoseOnTheGivingWayRowGiveWay) {
  int giving_way = 0;
  for (const GalleryDemo& demo : kDemoGallery) {
    SCOPED_TRACE(demo.name);
    NullRenderBackend device;
    viewer::test::FolderHost host(MD5STAGE_SOURCE_DIR);
    Stage stage(&device, &host);
    stage.SetViewport(640, 360, 1.0f);
    const JsonValue reply =
        stage.Call(Command(R"({"cmd":"openDemo","name":")" + std::string(demo.name) + "\"}"));
    ASSERT_FALSE(reply.Find("error")) << WriteJson(reply);
    host.Pump(stage);
    ASSERT_TRUE(Ok(host.LastOpened())) << WriteJson(host.LastOpened());
    EXPECT_GT(stage.character_count(), 0);
    if (demo.gives_way) {
      EXPECT_TRUE(stage.CurrentScene().avoidance);
      ++giving_way;
    }
  }
  EXPECT_EQ(giving_way, 4);  // corridor, swap, crossing, doorway
}

}  // namespace
}  // namespace md5stage::ui
