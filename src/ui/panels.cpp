#include "ui/panels.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/panel_commands.h"
#include "viewer/key_bindings.h"

namespace md5stage::ui {
namespace {

std::string FormatBytes(std::size_t bytes) {
  char buffer[32];
  if (bytes >= 1024u * 1024u) {
    std::snprintf(buffer, sizeof buffer, "%.2f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f KB", static_cast<double>(bytes) / 1024.0);
  }
  return buffer;
}

const InstanceSummary* SelectedInstance(const ViewerModel& model) {
  if (model.selected_instance < 0 ||
      model.selected_instance >= static_cast<int>(model.instances.size())) {
    return nullptr;
  }
  return &model.instances[static_cast<size_t>(model.selected_instance)];
}

const ModelSummary* ModelOf(const ViewerModel& model, const InstanceSummary* instance) {
  if (instance == nullptr || instance->model < 0 ||
      instance->model >= static_cast<int>(model.models.size())) {
    return nullptr;
  }
  return &model.models[static_cast<size_t>(instance->model)];
}

void JointTreeNode(const ViewerModel& model, const ModelSummary& summary,
                   const std::vector<std::vector<int>>& children, int joint, int selected,
                   PanelOutput& out) {
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth |
                             ImGuiTreeNodeFlags_DefaultOpen;
  if (children[static_cast<size_t>(joint)].empty()) flags |= ImGuiTreeNodeFlags_Leaf;
  if (joint == selected) flags |= ImGuiTreeNodeFlags_Selected;
  const bool open =
      ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(joint)), flags, "%d %s",
                        joint, summary.joint_names[static_cast<size_t>(joint)].c_str());
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen())
    out.commands.push_back(command::SelectJoint(model, joint));
  if (open) {
    for (int child : children[static_cast<size_t>(joint)]) {
      JointTreeNode(model, summary, children, child, selected, out);
    }
    ImGui::TreePop();
  }
}

}  // namespace

void DrawModelPanel(const ViewerModel& model, PanelOutput& out) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(10, 170), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(300, std::min(420.0f, viewport->Size.y - 260)),
                           ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);  // the scene first; facts on demand
  if (!ImGui::Begin("Model")) {
    ImGui::End();
    return;
  }
  if (ImGui::Button("Open files...")) out.commands.push_back(command::OpenFiles());
  ImGui::SameLine();
  ImGui::TextDisabled("or drop them on the page");
  if (!model.instances.empty() &&
      ImGui::BeginCombo("instance", SelectedInstance(model) ? SelectedInstance(model)->label.c_str()
                                                            : "(none)")) {
    for (size_t i = 0; i < model.instances.size(); ++i) {
      const bool selected = static_cast<int>(i) == model.selected_instance;
      if (ImGui::Selectable(model.instances[i].label.c_str(), selected)) {
        out.commands.push_back(command::SelectInstance(model, static_cast<int>(i)));
      }
    }
    ImGui::EndCombo();
  }
  for (size_t m = 0; m < model.models.size(); ++m) {
    const ModelSummary& summary = model.models[m];
    ImGui::PushID(static_cast<int>(m));
    if (ImGui::CollapsingHeader(summary.name.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const std::string& file : summary.files) ImGui::BulletText("%s", file.c_str());
      if (summary.local) ImGui::TextDisabled("local files (not in share links)");
      ImGui::Text("joints %d  meshes %d", summary.joints, summary.meshes);
      ImGui::Text("vertices %d  triangles %d", summary.vertices, summary.triangles);
      ImGui::Text("weights %d  max influences %d", summary.weights, summary.max_influences);
      if (summary.max_influences > 4) {
        ImGui::Text("top-4 skinning error %.4g units", summary.top4_error);
      }
      ImGui::Text("%d instance(s) share %s", summary.instances,
                  FormatBytes(summary.shared_bytes).c_str());
      // What each instance owns on top: its pose buffers (locals, blend scratch, matrices,
      // palette).
      for (const InstanceSummary& instance : model.instances) {
        if (instance.model == static_cast<int>(m)) {
          ImGui::Text("each instance owns %s", FormatBytes(instance.instance_bytes).c_str());
          break;
        }
      }
      ImGui::PushTextWrapPos(0.0f);  // material warnings name a file, a material and an image
      for (const std::string& warning : summary.warnings) {
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", warning.c_str());
      }
      ImGui::PopTextWrapPos();
      if (!summary.skins.empty() &&
          ImGui::BeginCombo("skin",
                            summary.skin.empty() ? "(own shaders)" : summary.skin.c_str())) {
        if (ImGui::Selectable("(own shaders)", summary.skin.empty())) {
          out.commands.push_back(command::SetSkin(model, static_cast<int>(m), std::string()));
        }
        for (const std::string& skin : summary.skins) {
          if (ImGui::Selectable(skin.c_str(), skin == summary.skin)) {
            out.commands.push_back(command::SetSkin(model, static_cast<int>(m), skin));
          }
        }
        ImGui::EndCombo();
      }
      if (ImGui::Button("Add instance"))
        out.commands.push_back(command::AddInstance(model, static_cast<int>(m)));
      ImGui::SameLine();
      if (ImGui::Button("Remove model"))
        out.commands.push_back(command::RemoveModel(model, static_cast<int>(m)));
      // The model and every animation bound to it, as one binary glTF file (<model>.glb).
      if (ImGui::Button("Download glTF"))
        out.commands.push_back(command::DownloadGltf(model, static_cast<int>(m)));
      ImGui::SameLine();
      // The md5mesh and each md5anim as separate files, as md5stage writes them.
      if (ImGui::Button("Download MD5"))
        out.commands.push_back(command::DownloadMd5(model, static_cast<int>(m)));
    }
    ImGui::PopID();
  }
  const InstanceSummary* instance = SelectedInstance(model);
  const ModelSummary* summary = ModelOf(model, instance);
  if (summary != nullptr && ImGui::CollapsingHeader("Joints")) {
    std::vector<std::vector<int>> children(summary->joint_names.size());
    for (size_t j = 0; j < summary->parents.size(); ++j) {
      const int parent = summary->parents[j];
      if (parent >= 0 && parent < static_cast<int>(children.size())) {
        children[static_cast<size_t>(parent)].push_back(static_cast<int>(j));
      }
    }
    ImGui::BeginChild("joint_tree", ImVec2(0, 200), true);
    for (size_t j = 0; j < summary->parents.size(); ++j) {
      if (summary->parents[j] < 0) {
        JointTreeNode(model, *summary, children, static_cast<int>(j), model.selected_joint, out);
      }
    }
    ImGui::EndChild();
    const JointDetail& d = model.joint_detail;
    if (d.joint >= 0) {
      ImGui::Text("local  t (%.3f, %.3f, %.3f)", d.local_translation.x, d.local_translation.y,
                  d.local_translation.z);
      ImGui::Text("       q (%.3f, %.3f, %.3f, %.3f)", d.local_rotation.x, d.local_rotation.y,
                  d.local_rotation.z, d.local_rotation.w);
      ImGui::Text("world  t (%.3f, %.3f, %.3f)", d.world_translation.x, d.world_translation.y,
                  d.world_translation.z);
      ImGui::Text("       q (%.3f, %.3f, %.3f, %.3f)", d.world_rotation.x, d.world_rotation.y,
                  d.world_rotation.z, d.world_rotation.w);
    }
  }
  ImGui::End();
}

void DrawAnimationPanel(const ViewerModel& model, PanelOutput& out) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Size.x - 330, 10), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Animation", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const InstanceSummary* instance = SelectedInstance(model);
  const ModelSummary* summary = ModelOf(model, instance);
  if (instance == nullptr || summary == nullptr) {
    ImGui::TextDisabled("no character selected");
    ImGui::End();
    return;
  }
  const char* current =
      instance->animation >= 0 && instance->animation < static_cast<int>(summary->animations.size())
          ? summary->animations[static_cast<size_t>(instance->animation)].c_str()
          : "(bind pose)";
  if (ImGui::BeginCombo("animation", current)) {
    if (ImGui::Selectable("(bind pose)", instance->animation < 0))
      out.commands.push_back(command::SetAnimation(model, -1));
    for (size_t a = 0; a < summary->animations.size(); ++a) {
      if (ImGui::Selectable(summary->animations[a].c_str(),
                            static_cast<int>(a) == instance->animation)) {
        out.commands.push_back(command::SetAnimation(model, static_cast<int>(a)));
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button(instance->playing ? "Pause" : "Play"))
    out.commands.push_back(command::SetPlaying(model, !instance->playing));
  ImGui::SameLine();
  if (ImGui::Button("<")) out.commands.push_back(command::StepFrames(model, -1));
  ImGui::SameLine();
  if (ImGui::Button(">")) out.commands.push_back(command::StepFrames(model, 1));
  ImGui::SameLine();
  int mode = static_cast<int>(instance->mode);
  ImGui::SetNextItemWidth(110);
  if (ImGui::Combo("##mode", &mode, "loop\0once\0ping-pong\0")) {
    out.commands.push_back(command::SetPlayMode(model, static_cast<PlayMode>(mode)));
  }
  float time = instance->time;
  if (ImGui::SliderFloat("seconds", &time, 0.0f, std::max(instance->duration, 1e-3f), "%.3f")) {
    out.commands.push_back(command::SetClipTime(model, time));
  }
  if (instance->frame_count > 0) {
    int frame = static_cast<int>(std::lround(instance->time * instance->frame_rate));
    if (ImGui::SliderInt("frame", &frame, 0, std::max(instance->frame_count - 1, 0))) {
      out.commands.push_back(command::SetClipTime(
          model, instance->frame_rate > 0 ? frame / instance->frame_rate : 0.0f));
    }
  }
  float rate = instance->rate;
  if (ImGui::SliderFloat("speed", &rate, -2.0f, 2.0f, "%.2fx"))
    out.commands.push_back(command::SetRate(model, rate));
  ImGui::SameLine();
  if (ImGui::SmallButton("1x")) out.commands.push_back(command::SetRate(model, 1.0f));
  float crossfade = instance->crossfade_seconds;
  if (ImGui::SliderFloat("crossfade", &crossfade, 0.0f, 2.0f, "%.2f s")) {
    out.commands.push_back(command::SetCrossfade(model, crossfade));
  }
  ImGui::Separator();
  ImGui::TextUnformatted(instance->moving ? "Movement (moving)" : "Movement");
  float speed = instance->speed;
  if (ImGui::SliderFloat("ground speed", &speed, 0.0f, 400.0f, "%.0f u/s"))
    out.commands.push_back(command::SetSpeed(model, speed));
  float radius = instance->turn_radius;
  if (ImGui::SliderFloat("turn radius", &radius, 0.0f, 300.0f, "%.0f u"))
    out.commands.push_back(command::SetTurnRadius(model, radius));
  float clearance = instance->clearance;
  if (ImGui::SliderFloat("clearance", &clearance, 0.0f, 200.0f, "%.0f u"))
    out.commands.push_back(command::SetClearance(model, clearance));
  if (!instance->plan_message.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", instance->plan_message.c_str());
  const char* walk =
      instance->locomotion_animation >= 0 &&
              instance->locomotion_animation < static_cast<int>(summary->animations.size())
          ? summary->animations[static_cast<size_t>(instance->locomotion_animation)].c_str()
          : "(none)";
  if (ImGui::BeginCombo("locomotion", walk)) {
    for (size_t a = 0; a < summary->animations.size(); ++a) {
      if (ImGui::Selectable(summary->animations[a].c_str(),
                            static_cast<int>(a) == instance->locomotion_animation)) {
        out.commands.push_back(command::SetLocomotionAnimation(model, static_cast<int>(a)));
      }
    }
    ImGui::EndCombo();
  }
  const std::string route_label =
      instance->route >= 0 && instance->route < static_cast<int>(model.routes.size())
          ? model.routes[static_cast<size_t>(instance->route)].name
          : std::string("(none)");
  int route_mode = static_cast<int>(instance->route_mode);
  if (ImGui::BeginCombo("route", route_label.c_str())) {
    if (ImGui::Selectable("(none)", instance->route < 0))
      out.commands.push_back(command::AssignRoute(model, -1, instance->route_mode));
    for (size_t r = 0; r < model.routes.size(); ++r) {
      if (ImGui::Selectable(model.routes[r].name.c_str(), static_cast<int>(r) == instance->route)) {
        out.commands.push_back(
            command::AssignRoute(model, static_cast<int>(r), instance->route_mode));
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::Combo("along route", &route_mode, "loop\0once\0ping-pong\0") && instance->route >= 0) {
    out.commands.push_back(
        command::AssignRoute(model, instance->route, static_cast<PlayMode>(route_mode)));
  }
  ImGui::End();
}

void DrawAttachPanel(const ViewerModel& model, PanelOutput& out) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(10, viewport->Size.y - 40), ImGuiCond_FirstUseEver,
                          ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Attach", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const InstanceSummary* instance = SelectedInstance(model);
  const ModelSummary* summary = ModelOf(model, instance);
  if (instance == nullptr || summary == nullptr) {
    ImGui::TextDisabled("no character selected");
    ImGui::End();
    return;
  }
  static int model_choice = 0;
  static int joint_choice = 0;
  static float offset[3] = {0, 0, 0};
  static float rotation[3] = {0, 0, 0};
  model_choice =
      std::clamp(model_choice, 0, std::max(0, static_cast<int>(model.models.size()) - 1));
  joint_choice = std::clamp(joint_choice, 0, std::max(0, summary->joints - 1));
  if (ImGui::BeginCombo("model",
                        model.models.empty()
                            ? ""
                            : model.models[static_cast<size_t>(model_choice)].name.c_str())) {
    for (size_t m = 0; m < model.models.size(); ++m) {
      if (ImGui::Selectable(model.models[m].name.c_str(), static_cast<int>(m) == model_choice)) {
        model_choice = static_cast<int>(m);
      }
    }
    ImGui::EndCombo();
  }
  if (model.selected_joint >= 0 && model.selected_joint < summary->joints &&
      ImGui::SmallButton("use selected joint")) {
    joint_choice = model.selected_joint;
  }
  if (ImGui::BeginCombo("joint",
                        summary->joint_names.empty()
                            ? ""
                            : summary->joint_names[static_cast<size_t>(joint_choice)].c_str())) {
    for (size_t j = 0; j < summary->joint_names.size(); ++j) {
      if (ImGui::Selectable(summary->joint_names[j].c_str(), static_cast<int>(j) == joint_choice)) {
        joint_choice = static_cast<int>(j);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::DragFloat3("offset", offset, 0.1f);
  ImGui::DragFloat3("rotation", rotation, 1.0f, -180.0f, 180.0f, "%.0f deg");
  if (ImGui::Button("Attach") && !model.models.empty()) {
    out.commands.push_back(command::Attach(model, model_choice, joint_choice,
                                           glm::vec3(offset[0], offset[1], offset[2]),
                                           glm::vec3(rotation[0], rotation[1], rotation[2])));
  }
  for (size_t a = 0; a < instance->attachments.size(); ++a) {
    const AttachmentSummary& attachment = instance->attachments[a];
    ImGui::PushID(static_cast<int>(a));
    ImGui::Separator();
    const char* name =
        attachment.model >= 0 && attachment.model < static_cast<int>(model.models.size())
            ? model.models[static_cast<size_t>(attachment.model)].name.c_str()
            : "?";
    ImGui::Text("%s on %s", name, attachment.joint.c_str());
    AttachmentSummary edited = attachment;
    bool changed = ImGui::DragFloat3("offset", &edited.offset.x, 0.1f);
    changed |= ImGui::DragFloat3("rotation", &edited.rotation_degrees.x, 1.0f, -180.0f, 180.0f,
                                 "%.0f deg");
    if (changed) {
      out.commands.push_back(command::EditAttachment(model, static_cast<int>(a), edited.offset,
                                                     edited.rotation_degrees));
    }
    if (ImGui::SmallButton("detach"))
      out.commands.push_back(command::Detach(model, static_cast<int>(a)));
    ImGui::PopID();
  }
  ImGui::End();
}

void DrawDisplayPanel(const ViewerModel& model, PanelOutput& out) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Size.x - 10, viewport->Size.y - 40),
                          ImGuiCond_FirstUseEver, ImVec2(1.0f, 1.0f));
  if (!ImGui::Begin("Display", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  DisplayToggles display = model.display;
  bool changed = false;
  changed |= ImGui::Checkbox("skeleton", &display.skeleton);
  ImGui::SameLine(160);
  changed |= ImGui::Checkbox("joint names", &display.joint_names);
  changed |= ImGui::Checkbox("bounds", &display.bounds);
  ImGui::SameLine(160);
  changed |= ImGui::Checkbox("wireframe", &display.wireframe);
  changed |= ImGui::Checkbox("normals", &display.normals);
  ImGui::SameLine(160);
  changed |= ImGui::Checkbox("grid", &display.grid);
  changed |= ImGui::Checkbox("routes", &display.routes);
  ImGui::SameLine(160);
  changed |= ImGui::Checkbox("turn circles", &display.turn_circles);
  changed |= ImGui::Checkbox("construction", &display.construction);
  ImGui::SameLine(160);
  changed |= ImGui::Checkbox("clearance", &display.clearance);
  // Where it was drawn, for the browser test that ticks it as a person does (state().ui_items).
  const ImVec2 clearance_lo = ImGui::GetItemRectMin(), clearance_hi = ImGui::GetItemRectMax();
  out.item_rects.emplace_back(
      "clearance", glm::vec4(clearance_lo.x, clearance_lo.y, clearance_hi.x, clearance_hi.y));
  if (changed) out.commands.push_back(command::SetDisplay(display));
  // Shading: the material checks and the key light (also Shift + drag in the view).
  viewer::ShadingOptions shading = model.shading;
  bool shading_changed = false;
  bool light_changed = false;
  const auto record = [&out](const char* label) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    out.item_rects.emplace_back(label, glm::vec4(lo.x, lo.y, hi.x, hi.y));
  };
  shading_changed |= ImGui::Checkbox("normal maps", &shading.normal_maps);
  record("normal maps");
  ImGui::SameLine(160);
  shading_changed |= ImGui::Checkbox("specular", &shading.specular);
  record("specular");
  ImGui::SetNextItemWidth(200);
  light_changed |=
      ImGui::SliderFloat("light azimuth", &shading.light_azimuth, 0.0f, 360.0f, "%.0f deg");
  record("light azimuth");
  ImGui::SetNextItemWidth(200);
  light_changed |=
      ImGui::SliderFloat("light elevation", &shading.light_elevation, -90.0f, 90.0f, "%.0f deg");
  record("light elevation");
  int channel = static_cast<int>(shading.channel);
  ImGui::SetNextItemWidth(200);
  if (ImGui::Combo("channel", &channel, viewer::kShadingChannelNames,
                   IM_ARRAYSIZE(viewer::kShadingChannelNames))) {
    shading.channel = static_cast<viewer::ShadingChannel>(channel);
    shading_changed = true;
  }
  if (shading_changed) out.commands.push_back(command::SetShading(shading));
  if (light_changed) out.commands.push_back(command::SetLight(shading));
  if (ImGui::Button("Frame (F)")) out.commands.push_back(command::FrameSelection());
  ImGui::SameLine();
  if (ImGui::Button("Follow")) out.commands.push_back(command::ToggleFollow(model));
  ImGui::SameLine();
  if (ImGui::Button("Screenshot")) out.commands.push_back(command::Screenshot());
  record("Screenshot");
  ImGui::End();
}

void DrawHelpPanel(bool* open) {
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(330, 10), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Help", open, ImGuiWindowFlags_AlwaysAutoResize)) {
    // The keys come from the table the viewer and the figures share (viewer/key_bindings.h).
    static const std::string text =
        "Mouse\n"
        "  left drag     orbit\n"
        "  right drag    pan\n"
        "  wheel         zoom\n"
        "  touch: one finger orbits, two pan and pinch\n"
        "Keys\n" +
        viewer::KeyHelpText() +
        "Files\n"
        "  drop .md5mesh, .md5anim, .mtr/.shader/.skin and images (.tga .png .jpg) on the page";
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::End();
}

// The Scene panel's "Camera" list: the loaded .md5camera files, the one the view follows, and the
// way back to the orbit camera (Escape and an orbit drag also lead back).
void DrawCameraList(const ViewerModel& model, PanelOutput& out) {
  if (model.cameras.empty()) return;
  ImGui::Separator();
  ImGui::TextUnformatted("Camera");
  if (ImGui::RadioButton("orbit", model.playing_camera < 0))
    out.commands.push_back(command::PlayCamera(model, -1));
  for (size_t i = 0; i < model.cameras.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::RadioButton(model.cameras[i].c_str(), model.playing_camera == static_cast<int>(i))) {
      out.commands.push_back(command::PlayCamera(model, static_cast<int>(i)));
    }
    ImGui::PopID();
  }
  if (model.playing_camera >= 0) {
    ImGui::Text("frame %d, shot %d", model.camera_frame, model.camera_shot + 1);
    ImGui::SameLine();
    if (ImGui::Button("Leave camera")) out.commands.push_back(command::PlayCamera(model, -1));
  }
}

// The Scene panel's parts, top to bottom.
namespace {

// The scene clock (play/pause, scrub) and the crowd's size.
void DrawSceneClock(const ViewerModel& model, PanelOutput& out) {
  if (ImGui::Button(model.scene_playing ? "Pause scene" : "Play scene")) {
    out.commands.push_back(command::SetScenePlaying(!model.scene_playing));
  }
  ImGui::SameLine();
  float time = model.scene_time;
  ImGui::SetNextItemWidth(220);
  if (ImGui::SliderFloat("time", &time, 0.0f, std::max(60.0f, model.scene_time), "%.2f s")) {
    out.commands.push_back(command::SetSceneTime(time));
  }
  if (!model.instances.empty()) {
    int crowd = model.crowd_size;
    ImGui::SetNextItemWidth(220);
    if (ImGui::SliderInt("characters", &crowd, 1, 5000, "%d", ImGuiSliderFlags_Logarithmic)) {
      out.commands.push_back(command::SetCrowdSize(crowd));
    }
  }
}

// What a left click does, and the obstacle tool's shape and edits.
void DrawToolPicker(const ViewerModel& model, PanelOutput& out) {
  int tool = static_cast<int>(model.tool);
  ImGui::TextUnformatted("left click:");
  ImGui::SameLine();
  bool tool_changed = ImGui::RadioButton("camera", &tool, 0);
  ImGui::SameLine();
  tool_changed |= ImGui::RadioButton("go to", &tool, 1);
  ImGui::SameLine();
  tool_changed |= ImGui::RadioButton("draw route", &tool, 2);
  ImGui::SameLine();
  tool_changed |= ImGui::RadioButton("obstacle", &tool, 3);
  if (tool_changed) out.commands.push_back(command::SetTool(static_cast<Tool>(tool)));
  if (model.tool == Tool::kObstacle) {
    int shape = model.obstacle_polygon_shape ? 1 : 0;
    bool shape_changed = ImGui::RadioButton("circle", &shape, 0);
    ImGui::SameLine();
    shape_changed |= ImGui::RadioButton("polygon", &shape, 1);
    if (shape_changed) out.commands.push_back(command::SetObstacleShape(shape == 1));
    ImGui::TextDisabled(shape == 0 ? "drag from the centre: a circle; drag a shape to move it"
                                   : "click corners; click the first (or Enter) to close");
    if (model.polygon_draft_corners > 0) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Close polygon")) out.commands.push_back(command::ClosePolygon());
    }
    if (model.selected_obstacle >= 0) {
      if (ImGui::Button("Delete obstacle"))
        out.commands.push_back(command::RemoveObstacle(model, model.selected_obstacle));
      ImGui::SameLine();
    }
    if (!model.obstacles.empty() && ImGui::Button("Clear obstacles"))
      out.commands.push_back(command::ClearObstacles());
  }
  if (!model.obstacles.empty()) {
    ImGui::Text("%d obstacle(s)", static_cast<int>(model.obstacles.size()));
  }
  if (model.tool == Tool::kGoTo) {
    ImGui::TextDisabled("click the ground: go there; drag: also face that way");
  }
}

// The route pen's route and edits.
void DrawRouteEditing(const ViewerModel& model, PanelOutput& out) {
  ImGui::TextDisabled("click: corner, drag: smooth point; drag points and handles to edit");
  std::string current =
      model.edited_route >= 0 && model.edited_route < static_cast<int>(model.routes.size())
          ? model.routes[static_cast<size_t>(model.edited_route)].name
          : std::string("(new route)");
  if (ImGui::BeginCombo("editing", current.c_str())) {
    if (ImGui::Selectable("(new route)", model.edited_route < 0))
      out.commands.push_back(command::EditRoute(model, -1));
    for (size_t r = 0; r < model.routes.size(); ++r) {
      if (ImGui::Selectable(model.routes[r].name.c_str(),
                            static_cast<int>(r) == model.edited_route)) {
        out.commands.push_back(command::EditRoute(model, static_cast<int>(r)));
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button("Close loop")) out.commands.push_back(command::ToggleRouteLoop());
  ImGui::SameLine();
  if (ImGui::Button("Delete point")) out.commands.push_back(command::DeleteRoutePoint());
  ImGui::SameLine();
  bool round = model.auto_round_corners;
  if (ImGui::Checkbox("round corners", &round))
    out.commands.push_back(command::SetRoundCorners(round));
}

// The routes with their checks (a line each, or a count when there are many).
void DrawRouteList(const ViewerModel& model, PanelOutput& out) {
  if (model.routes.size() <= 4) {
    for (size_t r = 0; r < model.routes.size(); ++r) {
      const RouteSummary& route = model.routes[r];
      ImGui::BulletText("%s: %.1f u%s%s%s", route.name.c_str(), route.length,
                        route.closed ? ", loop" : "",
                        route.tight_stretches > 0 ? ", too tight!" : "",
                        route.obstacle_crossings > 0 ? ", crosses obstacles!" : "");
      if (route.obstacle_crossings > 0) {
        ImGui::SameLine();
        ImGui::PushID(static_cast<int>(r));
        if (ImGui::SmallButton("Route around"))
          out.commands.push_back(command::RouteAround(model, static_cast<int>(r)));
        ImGui::PopID();
      }
    }
  } else {
    int tight = 0;
    for (const RouteSummary& route : model.routes) tight += route.tight_stretches > 0 ? 1 : 0;
    ImGui::BulletText("%d routes, %d with stretches too tight",
                      static_cast<int>(model.routes.size()), tight);
  }
}

// Copy link, Embed (the iframe), Figure (the <md5-stage> snippet of what is on screen), Poster
// (a PNG of the view at the figure's size), and the demo gallery.
void DrawShareAndDemos(const ViewerModel& model, PanelOutput& out) {
  if (ImGui::Button("Copy link")) out.commands.push_back(command::PageAction("copyLink"));
  ImGui::SameLine();
  if (ImGui::Button("Embed")) out.commands.push_back(command::PageAction("copyEmbed"));
  ImGui::SameLine();
  if (ImGui::Button("Figure")) out.commands.push_back(command::PageAction("copyFigure"));
  ImGui::SameLine();
  if (ImGui::Button("Poster")) out.commands.push_back(command::PageAction("downloadPoster"));
  // Where it was drawn, so a browser test clicks it as a person does (state().ui_items).
  const ImVec2 poster_lo = ImGui::GetItemRectMin(), poster_hi = ImGui::GetItemRectMax();
  out.item_rects.emplace_back("downloadPoster",
                              glm::vec4(poster_lo.x, poster_lo.y, poster_hi.x, poster_hi.y));
  bool local = false;
  for (const ModelSummary& summary : model.models) local |= summary.local;
  if (local) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "dropped models stay out of links");
  }
  for (const bool gives_way : {false, true}) {
    ImGui::TextUnformatted(gives_way ? "giving way:" : "demos:");
    for (const GalleryDemo& demo : kDemoGallery) {
      if (demo.gives_way != gives_way) continue;
      ImGui::SameLine();
      const std::string action = std::string("demo:") + demo.name;
      if (ImGui::SmallButton(demo.name)) out.commands.push_back(command::PageAction(action));
      // Where it was drawn, so a browser test clicks it as a person does (state().ui_items).
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      out.item_rects.emplace_back(action, glm::vec4(lo.x, lo.y, hi.x, hi.y));
    }
  }
}

}  // namespace

void DrawScenePanel(const ViewerModel& model, PanelOutput& out) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  // Anchored to the bottom centre: it grows upwards as routes are added.
  ImGui::SetNextWindowPos(
      ImVec2(viewport->Size.x * 0.5f, viewport->Size.y - ImGui::GetFrameHeight() - 4),
      ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  if (!ImGui::Begin("Scene", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  DrawSceneClock(model, out);
  DrawToolPicker(model, out);
  if (model.tool == Tool::kRoute) DrawRouteEditing(model, out);
  DrawRouteList(model, out);
  if (!model.hover_text.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", model.hover_text.c_str());
  DrawShareAndDemos(model, out);
  DrawCameraList(model, out);
  ImGui::End();
}

void DrawViewerPanels(const ViewerModel& model, PanelOutput& out, bool* help_open) {
  DrawModelPanel(model, out);
  DrawAnimationPanel(model, out);
  DrawAttachPanel(model, out);
  DrawDisplayPanel(model, out);
  DrawHelpPanel(help_open);
}

}  // namespace md5stage::ui
