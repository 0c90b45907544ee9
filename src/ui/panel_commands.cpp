// The panels' actions as commands of the stage's table (panel_commands.h).
#include "ui/panel_commands.h"

#include <algorithm>
#include <cmath>

namespace md5stage::ui::command {
namespace {

// {"cmd": name, fields...}, "cmd" first as people write it.
JsonValue Make(const char* name, JsonObject fields = {}) {
  JsonObject command;
  command.reserve(fields.size() + 1);
  command.emplace_back("cmd", name);
  for (JsonMember& field : fields) command.push_back(std::move(field));
  return JsonValue(std::move(command));
}

// The handle of the thing at a position of the panel's list; -1 (refused by the command, which
// names the field) when the position is not in it.
template <typename Summary>
JsonValue IdAt(const std::vector<Summary>& list, int position) {
  if (position < 0 || position >= static_cast<int>(list.size())) return JsonValue(-1);
  return JsonValue(list[static_cast<size_t>(position)].id);
}

JsonValue Selected(const ViewerModel& model) {
  return IdAt(model.instances, model.selected_instance);
}

const InstanceSummary* SelectedInstance(const ViewerModel& model) {
  if (model.selected_instance < 0 ||
      model.selected_instance >= static_cast<int>(model.instances.size())) {
    return nullptr;
  }
  return &model.instances[static_cast<size_t>(model.selected_instance)];
}

// A name from the selected character's model's list (animations or joints), or null.
JsonValue NameOfSelected(const ViewerModel& model, std::vector<std::string> ModelSummary::*names,
                         int index) {
  const InstanceSummary* instance = SelectedInstance(model);
  if (instance == nullptr || instance->model < 0 ||
      instance->model >= static_cast<int>(model.models.size())) {
    return JsonValue();
  }
  const std::vector<std::string>& list = model.models[static_cast<size_t>(instance->model)].*names;
  if (index < 0 || index >= static_cast<int>(list.size())) return JsonValue();
  return JsonValue(list[static_cast<size_t>(index)]);
}

JsonValue Vec(glm::vec3 v) {
  return JsonValue(
      JsonArray{static_cast<double>(v.x), static_cast<double>(v.y), static_cast<double>(v.z)});
}

JsonValue Number(float value) { return JsonValue(static_cast<double>(value)); }
// A slider typed into (Ctrl+click) goes past its ends; lengths and durations stop at zero, as the
// sliders do.
JsonValue NotNegative(float value) { return Number(std::max(0.0f, value)); }

}  // namespace

// ---- Model panel

JsonValue OpenFiles() { return Make("openFiles"); }

JsonValue SelectInstance(const ViewerModel& model, int instance) {
  return Make("select", {{"instance", IdAt(model.instances, instance)}});
}

JsonValue SelectJoint(const ViewerModel& model, int joint) {
  return Make("select", {{"instance", Selected(model)},
                         {"joint", NameOfSelected(model, &ModelSummary::joint_names, joint)}});
}

JsonValue SetSkin(const ViewerModel& model, int model_index, const std::string& skin) {
  return Make("setSkin", {{"model", IdAt(model.models, model_index)}, {"skin", skin}});
}

JsonValue AddInstance(const ViewerModel& model, int model_index) {
  return Make("addInstance", {{"model", IdAt(model.models, model_index)}});
}

JsonValue RemoveModel(const ViewerModel& model, int model_index) {
  return Make("removeModel", {{"model", IdAt(model.models, model_index)}});
}

JsonValue DownloadGltf(const ViewerModel& model, int model_index) {
  return Make("exportGltf", {{"model", IdAt(model.models, model_index)}});
}

JsonValue DownloadMd5(const ViewerModel& model, int model_index) {
  return Make("exportMd5", {{"model", IdAt(model.models, model_index)}});
}

// ---- Animation panel

JsonValue SetAnimation(const ViewerModel& model, int animation) {
  return Make("setAnimation",
              {{"instance", Selected(model)},
               {"name", NameOfSelected(model, &ModelSummary::animations, animation)}});
}

JsonValue SetPlaying(const ViewerModel& model, bool playing) {
  return Make(playing ? "play" : "pause", {{"instance", Selected(model)}});
}

JsonValue StepFrames(const ViewerModel& model, int frames) {
  return Make("step", {{"instance", Selected(model)}, {"frames", frames}});
}

JsonValue SetPlayMode(const ViewerModel& model, PlayMode mode) {
  return Make("setMode", {{"instance", Selected(model)}, {"mode", PlayModeName(mode)}});
}

JsonValue SetClipTime(const ViewerModel& model, float seconds) {
  return Make("setTime", {{"instance", Selected(model)}, {"time", NotNegative(seconds)}});
}

JsonValue SetRate(const ViewerModel& model, float rate) {
  return Make("setRate", {{"instance", Selected(model)}, {"rate", Number(rate)}});
}

JsonValue SetCrossfade(const ViewerModel& model, float seconds) {
  return Make("setCrossfade", {{"instance", Selected(model)}, {"crossfade", NotNegative(seconds)}});
}

JsonValue SetSpeed(const ViewerModel& model, float speed) {
  return Make("setSpeed", {{"instance", Selected(model)}, {"speed", NotNegative(speed)}});
}

JsonValue SetTurnRadius(const ViewerModel& model, float radius) {
  return Make("setTurnRadius", {{"instance", Selected(model)}, {"radius", NotNegative(radius)}});
}

JsonValue SetClearance(const ViewerModel& model, float clearance) {
  return Make("setClearance",
              {{"instance", Selected(model)}, {"clearance", NotNegative(clearance)}});
}

JsonValue SetLocomotionAnimation(const ViewerModel& model, int animation) {
  return Make("setLocomotionAnimation",
              {{"instance", Selected(model)},
               {"name", NameOfSelected(model, &ModelSummary::animations, animation)}});
}

JsonValue AssignRoute(const ViewerModel& model, int route, PlayMode mode) {
  return Make("assignRoute", {{"instance", Selected(model)},
                              {"route", route < 0 ? JsonValue(-1) : IdAt(model.routes, route)},
                              {"mode", PlayModeName(mode)}});
}

// ---- Attach panel

JsonValue Attach(const ViewerModel& model, int model_index, int joint, glm::vec3 offset,
                 glm::vec3 rotation_degrees) {
  return Make("attach", {{"instance", Selected(model)},
                         {"model", IdAt(model.models, model_index)},
                         {"joint", NameOfSelected(model, &ModelSummary::joint_names, joint)},
                         {"offset", Vec(offset)},
                         {"rotation", Vec(rotation_degrees)}});
}

JsonValue EditAttachment(const ViewerModel& model, int attachment, glm::vec3 offset,
                         glm::vec3 rotation_degrees) {
  return Make("editAttachment", {{"instance", Selected(model)},
                                 {"attachment", attachment},
                                 {"offset", Vec(offset)},
                                 {"rotation", Vec(rotation_degrees)}});
}

JsonValue Detach(const ViewerModel& model, int attachment) {
  return Make("detach", {{"instance", Selected(model)}, {"attachment", attachment}});
}

// ---- Display panel

JsonValue SetDisplay(const DisplayToggles& display) {
  JsonObject fields;
  for (const DisplayToggleName& toggle : kDisplayToggleNames)
    fields.emplace_back(toggle.name, display.*toggle.member);
  return Make("display", std::move(fields));
}

JsonValue SetShading(const viewer::ShadingOptions& shading) {
  return Make("setShading",
              {{"normalMaps", shading.normal_maps},
               {"specular", shading.specular},
               {"channel", viewer::kShadingChannelNames[static_cast<int>(shading.channel)]}});
}

JsonValue SetLight(const viewer::ShadingOptions& shading) {
  // A typed-in value wraps round (azimuth) or stops at straight up or down (elevation), as a drag
  // of the light does.
  const float limit = viewer::ShadingOptions::kMaxElevation;
  float azimuth = std::fmod(shading.light_azimuth, 360.0f);
  if (azimuth < 0.0f) azimuth += 360.0f;
  return Make("setLight",
              {{"azimuth", Number(azimuth)},
               {"elevation", Number(std::clamp(shading.light_elevation, -limit, limit))}});
}

JsonValue FrameSelection() { return Make("frame"); }

JsonValue ToggleFollow(const ViewerModel& model) {
  return Make("follow", {{"on", !model.following}});
}

JsonValue Screenshot() { return Make("screenshot"); }

// ---- Scene panel

JsonValue SetScenePlaying(bool playing) { return Make(playing ? "playScene" : "pauseScene"); }

JsonValue SetSceneTime(float seconds) {
  return Make("setSceneTime", {{"time", NotNegative(seconds)}});
}

JsonValue SetCrowdSize(int count) { return Make("setCrowdSize", {{"count", count}}); }

JsonValue SetTool(Tool tool) {
  static const char* const kNames[] = {"camera", "goto", "route", "obstacle"};
  return Make("tool", {{"tool", kNames[static_cast<int>(tool)]}});
}

JsonValue SetObstacleShape(bool polygon) {
  return Make("setObstacleShape", {{"shape", polygon ? "polygon" : "circle"}});
}

JsonValue ClosePolygon() { return Make("closePolygon"); }

JsonValue RemoveObstacle(const ViewerModel& model, int obstacle) {
  return Make("removeObstacle", {{"index", IdAt(model.obstacles, obstacle)}});
}

JsonValue ClearObstacles() { return Make("clearObstacles"); }

JsonValue EditRoute(const ViewerModel& model, int route) {
  return Make("editRoute", {{"route", route < 0 ? JsonValue(-1) : IdAt(model.routes, route)}});
}

JsonValue ToggleRouteLoop() { return Make("toggleRouteLoop"); }

JsonValue DeleteRoutePoint() { return Make("deleteRoutePoint"); }

JsonValue SetRoundCorners(bool round) { return Make("setRoundCorners", {{"round", round}}); }

JsonValue RouteAround(const ViewerModel& model, int route) {
  return Make("routeAround", {{"route", IdAt(model.routes, route)}});
}

JsonValue PageAction(const std::string& action) { return Make("pageAction", {{"action", action}}); }

JsonValue PlayCamera(const ViewerModel& model, int camera) {
  const bool orbit = camera < 0 || camera >= static_cast<int>(model.cameras.size());
  return Make("playCamera",
              {{"camera", orbit ? std::string() : model.cameras[static_cast<size_t>(camera)]}});
}

}  // namespace md5stage::ui::command
