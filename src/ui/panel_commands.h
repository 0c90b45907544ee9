// What the panels ask for: each widget's action as a command of the stage's one table
// ({"cmd": NAME, fields...}, viewer/commands.cpp), made from what the panel shows (ViewerModel)
// and the widget's new value. Keys, page scripts, elements and panels so act through the same
// commands; the app runs the panels' after the UI pass (Stage::Call), in the order they were made.
// Things are named by their handles' text ("c7", "m2", "r1", "o3"), as state() names them.
// No ImGui here: the panels call these, and native tests check each against the stage.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/common/json.h"
#include "viewer/viewer_model.h"

namespace md5stage::ui {

// What the panels hand back after their frame.
struct PanelOutput {
  std::vector<JsonValue> commands;  // in the order the widgets made them
  // Where some widgets were drawn (label, [x0, y0, x1, y1] in UI pixels), so that browser tests
  // click them as a person does (state().ui_items).
  std::vector<std::pair<std::string, glm::vec4>> item_rects;
};

// The Scene panel's demo gallery: each button opens assets/scenes/NAME.json through the page
// (command::PageAction("demo:NAME")), in this order; those giving way (the scene's `avoidance`)
// on a row of their own.
struct GalleryDemo {
  const char* name;
  bool gives_way;
};
inline constexpr GalleryDemo kDemoGallery[] = {
    {"default", false}, {"turns", false},  {"attach", false},  {"crowd", false},
    {"maze", false},    {"camera", false}, {"corridor", true}, {"swap", true},
    {"crossing", true}, {"doorway", true}};

// Each panel action's command. Those of the Animation and Attach panels act on the selected
// character (the panels show them only when there is one).
namespace command {

// ---- Model panel
JsonValue OpenFiles();
JsonValue SelectInstance(const ViewerModel& model, int instance);
JsonValue SelectJoint(const ViewerModel& model, int joint);
JsonValue SetSkin(const ViewerModel& model, int model_index, const std::string& skin);
JsonValue AddInstance(const ViewerModel& model, int model_index);
JsonValue RemoveModel(const ViewerModel& model, int model_index);
JsonValue DownloadGltf(const ViewerModel& model, int model_index);
JsonValue DownloadMd5(const ViewerModel& model, int model_index);

// ---- Animation panel
JsonValue SetAnimation(const ViewerModel& model, int animation);  // -1: the bind pose
JsonValue SetPlaying(const ViewerModel& model, bool playing);
JsonValue StepFrames(const ViewerModel& model, int frames);
JsonValue SetPlayMode(const ViewerModel& model, PlayMode mode);
JsonValue SetClipTime(const ViewerModel& model, float seconds);
JsonValue SetRate(const ViewerModel& model, float rate);
JsonValue SetCrossfade(const ViewerModel& model, float seconds);
JsonValue SetSpeed(const ViewerModel& model, float speed);
JsonValue SetTurnRadius(const ViewerModel& model, float radius);
JsonValue SetClearance(const ViewerModel& model, float clearance);
JsonValue SetLocomotionAnimation(const ViewerModel& model, int animation);
JsonValue AssignRoute(const ViewerModel& model, int route, PlayMode mode);  // -1: none

// ---- Attach panel
JsonValue Attach(const ViewerModel& model, int model_index, int joint, glm::vec3 offset,
                 glm::vec3 rotation_degrees);
JsonValue EditAttachment(const ViewerModel& model, int attachment, glm::vec3 offset,
                         glm::vec3 rotation_degrees);
JsonValue Detach(const ViewerModel& model, int attachment);

// ---- Display panel
JsonValue SetDisplay(const DisplayToggles& display);
JsonValue SetShading(const viewer::ShadingOptions& shading);  // normal maps, specular, channel
JsonValue SetLight(const viewer::ShadingOptions& shading);    // azimuth and elevation
JsonValue FrameSelection();
JsonValue ToggleFollow(const ViewerModel& model);
JsonValue Screenshot();

// ---- Scene panel
JsonValue SetScenePlaying(bool playing);
JsonValue SetSceneTime(float seconds);
JsonValue SetCrowdSize(int count);
JsonValue SetTool(Tool tool);
JsonValue SetObstacleShape(bool polygon);
JsonValue ClosePolygon();
JsonValue RemoveObstacle(const ViewerModel& model, int obstacle);
JsonValue ClearObstacles();
JsonValue EditRoute(const ViewerModel& model, int route);  // -1: a new route
JsonValue ToggleRouteLoop();
JsonValue DeleteRoutePoint();
JsonValue SetRoundCorners(bool round);
JsonValue RouteAround(const ViewerModel& model, int route);
// "copyLink", "copyEmbed", "copyFigure", "downloadPoster", "demo:NAME"
JsonValue PageAction(const std::string& action);
JsonValue PlayCamera(const ViewerModel& model, int camera);  // -1: the orbit camera

}  // namespace command
}  // namespace md5stage::ui
