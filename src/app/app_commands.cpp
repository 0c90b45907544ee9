// The page's commands (window.md5stage -> md5stage_call) and the state() snapshot.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/app.h"
#include "app/json_util.h"
#include "core/path/route_json.h"
#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"

namespace md5stage::app {
namespace {

// Where the scene clock stands for its characters with somewhere to go: whether all have arrived
// (never on looping routes), when the last one-way plan ends, and whether any repeats for ever.
// Embeds use it for their timeline, loop range and "finished" event.
struct SceneClock {
  bool finished = false;
  double end = -1.0;  // < 0: no character arrives anywhere
  bool repeats = false;
};

SceneClock MeasureSceneClock(const std::vector<Character>& characters, double time) {
  SceneClock clock;
  bool any_moving_kind = false, all_arrived = true;
  for (const Character& character : characters) {
    const Locomotion& locomotion = character.locomotion;
    if (!locomotion.enabled) continue;
    any_moving_kind = true;
    all_arrived = all_arrived && locomotion.follower.ArrivedAt(time);
    const double length = locomotion.follower.PlanLength();
    if (!std::isfinite(length)) {
      clock.repeats = clock.repeats || locomotion.speed > 0.0;
    } else if (locomotion.speed > 0.0) {
      clock.end = std::max(clock.end, locomotion.plan_start + length / locomotion.speed);
    }
  }
  clock.finished = any_moving_kind && all_arrived;
  return clock;
}

void SetClock(const SceneClock& clock, JsonValue& reply) {
  reply.Set("finished", clock.finished);
  reply.Set("scene_end", clock.end >= 0.0 ? JsonValue(clock.end) : JsonValue());
  reply.Set("scene_repeats", clock.repeats);
}

}  // namespace

// ---- the page's commands -------------------------------------------------------------------------

JsonValue App::State() const {
  JsonValue state = JsonValue::MakeObject();
  state.Set("webgl", stats_.gl_version);
  state.Set("frame", static_cast<double>(frame_));
  state.Set("canvas", JsonValue(JsonArray{JsonValue(width_), JsonValue(height_)}));
  JsonValue camera = JsonValue::MakeObject();
  camera.Set("target", Vec(camera_.target));
  camera.Set("yaw", static_cast<double>(camera_.yaw_degrees));
  camera.Set("pitch", static_cast<double>(camera_.pitch_degrees));
  camera.Set("distance", static_cast<double>(camera_.distance));
  state.Set("camera", std::move(camera));
  const auto& models = library_->models();
  JsonArray model_list;
  for (const LoadedModel& model : models) {
    JsonValue m = JsonValue::MakeObject();
    const md5::MeshFile& file = model.model->source();
    m.Set("name", model.name);
    m.Set("joints", model.model->skeleton().joint_count());
    m.Set("meshes", model.model->mesh_count());
    m.Set("vertices", file.vertex_count());
    m.Set("triangles", file.triangle_count());
    m.Set("weights", file.weight_count());
    m.Set("max_weights_per_vertex", file.max_weights_per_vertex());
    JsonArray animations, textures;
    for (const std::string& name : model.animation_names) animations.emplace_back(name);
    for (const std::string& name : model.texture_files) textures.emplace_back(name);
    m.Set("animations", JsonValue(std::move(animations)));
    m.Set("textures", JsonValue(std::move(textures)));
    m.Set("bounds", JsonValue(JsonArray{Vec(model.bind_min), Vec(model.bind_max)}));
    m.Set("local", model.local);
    m.Set("shared_bytes", static_cast<double>(model.cpu_bytes + model.gpu_bytes));
    model_list.push_back(std::move(m));
  }
  state.Set("models", JsonValue(std::move(model_list)));
  JsonArray instances;
  for (const Character& character : characters_) {
    const LoadedModel& model = models[static_cast<size_t>(character.model)];
    JsonValue i = JsonValue::MakeObject();
    i.Set("label", character.label);
    i.Set("model", model.name);
    i.Set("animation", character.playback.animation >= 0
                           ? JsonValue(model.animation_names[static_cast<size_t>(character.playback.animation)])
                           : JsonValue());
    i.Set("time", character.playback.time);
    i.Set("playing", character.playback.playing);
    i.Set("rate", static_cast<double>(character.playback.rate));
    i.Set("mode", ModeName(character.playback.mode));
    if (character.locomotion.enabled) {
      // Full precision from the path, not the float copy used for rendering.
      const Pose2 pose = character.locomotion.follower.PoseAt(scene_time_);
      i.Set("position", JsonValue(JsonArray{pose.position.x, pose.position.y}));
      i.Set("heading", pose.heading);
    } else {
      i.Set("position", Vec(character.position));
      i.Set("heading", static_cast<double>(character.heading));
    }
    JsonArray attachments;
    for (const Attachment& attachment : character.attachments) {
      JsonValue a = JsonValue::MakeObject();
      a.Set("model", models[static_cast<size_t>(attachment.model)].name);
      a.Set("joint", model.model->skeleton().name(attachment.joint));
      a.Set("joint_world", Vec(glm::vec3(character.pose.models[static_cast<size_t>(attachment.joint)][3])));
      a.Set("node_world", Vec(attachment.node.world_position()));
      if (!attachment.pose.models.empty()) a.Set("root_world", Vec(glm::vec3(attachment.pose.models[0][3])));
      attachments.push_back(std::move(a));
    }
    i.Set("attachments", JsonValue(std::move(attachments)));
    const Locomotion& locomotion = character.locomotion;
    i.Set("speed", locomotion.speed);
    i.Set("turn_radius", locomotion.turn_radius);
    i.Set("route", locomotion.enabled ? locomotion.route : -1);
    i.Set("moving", locomotion.moving);
    if (locomotion.enabled) {
      i.Set("distance", locomotion.follower.DistanceAt(scene_time_));
      i.Set("path", PathJson(character));
    }
    instances.push_back(std::move(i));
  }
  state.Set("instances", JsonValue(std::move(instances)));
  state.Set("scene_time", scene_time_);
  state.Set("scene_playing", scene_playing_);
  // Finished: every character with somewhere to go has arrived (never, on looping routes).
  SetClock(MeasureSceneClock(characters_, scene_time_), state);
  state.Set("panels", panels_visible_);
  state.Set("routes", RoutesJson());
  state.Set("selected", selected_);
  state.Set("selected_joint", selected_joint_);
  state.Set("last_error", last_error_.empty() ? JsonValue() : JsonValue(last_error_));
  JsonArray warnings;
  for (const std::string& w : last_warnings_) warnings.emplace_back(w);
  state.Set("warnings", JsonValue(std::move(warnings)));
  state.Set("status", status_);
  JsonValue display = JsonValue::MakeObject();
  display.Set("grid", display_.grid);
  display.Set("skeleton", display_.skeleton);
  display.Set("joint_names", display_.joint_names);
  display.Set("bounds", display_.bounds);
  display.Set("wireframe", display_.wireframe);
  display.Set("normals", display_.normals);
  display.Set("routes", display_.routes);
  display.Set("turn_circles", display_.turn_circles);
  state.Set("display", std::move(display));
  JsonValue stats = JsonValue::MakeObject();
  stats.Set("update_ms", static_cast<double>(stats_.update_ms));
  stats.Set("render_ms", static_cast<double>(stats_.render_ms));
  stats.Set("frame_ms", static_cast<double>(stats_.frame_ms));
  stats.Set("draw_calls", stats_.draw_calls);
  stats.Set("instances", stats_.instances);
  stats.Set("culled", stats_.culled);
  stats.Set("characters", static_cast<double>(characters_.size()));
  stats.Set("gpu_shared_bytes", static_cast<double>(meshes_->shared_bytes()));
  stats.Set("gpu_instance_bytes", static_cast<double>(meshes_->instance_bytes()));
  state.Set("stats", std::move(stats));
  return state;
}

JsonValue App::Call(const JsonValue& command) {
  const std::string name = StringOr(command, "cmd", "");
  if (name == "state") return State();
  if (name == "clock") {  // the few fields an embed reads every frame, without the whole state
    JsonValue reply = Reply(true);
    reply.Set("frame", static_cast<double>(frame_));
    reply.Set("scene_time", scene_time_);
    reply.Set("scene_playing", scene_playing_);
    SetClock(MeasureSceneClock(characters_, scene_time_), reply);
    reply.Set("last_error", last_error_.empty() ? JsonValue() : JsonValue(last_error_));
    return reply;
  }
  if (name == "loadQueued") return LoadQueuedFiles();
  if (name == "reportError") {
    SetError(StringOr(command, "message", ""));
    return Reply(true);
  }
  const auto& models = library_->models();
  // Commands about one character take "instance" (index; default: the selected one).
  const int index = static_cast<int>(NumberOr(command, "instance", selected_));
  Character* character = index >= 0 && index < static_cast<int>(characters_.size())
                             ? &characters_[static_cast<size_t>(index)]
                             : nullptr;
  ui::ViewerRequests requests;
  if (name == "sceneJson") return SceneToJson(CurrentScene());
  if (name == "prepareScene") {
    const JsonValue* scene = command.Find("scene");
    if (scene == nullptr) return Failure("prepareScene needs a scene");
    return PrepareScene(*scene);
  }
  if (name == "applyScene") return ApplyPendingScene();
  if (name == "cancelScene") {
    // The scene being opened failed: drop it and the models loaded for it (no character uses them).
    pending_scene_.reset();
    for (int m = static_cast<int>(library_->models().size()) - 1; m >= 0; --m) {
      bool used = false;
      for (const Character& character : characters_) {
        used = used || character.model == m;
        for (const Attachment& attachment : character.attachments) used = used || attachment.model == m;
      }
      if (!used) RemoveModel(m);
    }
    return Reply(true);
  }
  if (name == "shareLink") {
    std::vector<std::string> dropped;
    const Scene scene = WithoutLocalModels(CurrentScene(), &dropped);
    auto payload = EncodeSceneLink(scene);
    if (!payload.ok()) return Failure(payload.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("payload", payload.value());
    JsonArray left_out;
    for (const std::string& model : dropped) left_out.emplace_back(model);
    reply.Set("left_out", JsonValue(std::move(left_out)));
    return reply;
  }
  if (name == "decodeLink") {
    auto scene = DecodeSceneLink(StringOr(command, "payload", ""));
    if (!scene.ok()) {
      SetError(scene.error().ToString());
      return Failure(scene.error().ToString());
    }
    JsonValue reply = Reply(true);
    reply.Set("scene", SceneToJson(scene.value()));
    return reply;
  }
  if (name == "setRoute") {
    const JsonValue* route = command.Find("route");
    if (route == nullptr) return Failure("setRoute needs {route: {segments: [...]}}");
    auto description = RouteDescriptionFromJson("route", *route);
    if (!description.ok()) return Failure(description.error().ToString());
    const int route_index = static_cast<int>(NumberOr(command, "index", static_cast<double>(routes_.size())));
    Status status = SetRoute(route_index, std::move(description.value().segments), description.value().closed,
                             StringOr(command, "name", ""));
    if (!status.ok()) return Failure(status.error().ToString());
    if (route_index == edited_route_) StartEditingRoute(route_index);
    JsonValue reply = Reply(true);
    reply.Set("index", route_index);
    return reply;
  }
  if (name == "getRoutes") return RoutesJson();
  if (name == "setCrowdSize") {
    SetCrowdSize(static_cast<int>(NumberOr(command, "count", static_cast<double>(characters_.size()))));
    JsonValue reply = Reply(true);
    reply.Set("characters", static_cast<double>(characters_.size()));
    return reply;
  }
  if (name == "updateSteps") {
    // The frame's engine update (locomotion, playback, poses, palettes) run `count` times in a
    // row, each timed: the benchmark's update medians without waiting for frames, which software
    // WebGL draws slowly at thousands of characters. The scene clock advances by count x dt.
    const int count = std::clamp(static_cast<int>(NumberOr(command, "count", 300)), 1, 1000);
    const double dt = std::clamp(NumberOr(command, "dt", 1.0 / 60.0), 0.0, 0.25);
    JsonValue times = JsonValue::MakeArray();
    for (int i = 0; i < count; ++i) {
      const auto start = std::chrono::steady_clock::now();
      Update(dt);
      times.Append(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    JsonValue reply = Reply(true);
    reply.Set("update_ms", std::move(times));
    reply.Set("characters", static_cast<double>(characters_.size()));
    return reply;
  }
  if (name == "stats") {
    // Cheap (no per-instance data): what benchmarks poll every frame.
    JsonValue stats = Reply(true);
    stats.Set("frame", static_cast<double>(frame_));
    stats.Set("update_ms", static_cast<double>(stats_.update_ms));
    stats.Set("render_ms", static_cast<double>(stats_.render_ms));
    stats.Set("frame_ms", static_cast<double>(stats_.frame_ms));
    stats.Set("draw_calls", stats_.draw_calls);
    stats.Set("instances", stats_.instances);
    stats.Set("culled", stats_.culled);
    stats.Set("characters", static_cast<double>(characters_.size()));
    return stats;
  }
  if (name == "groundAt") {
    // The ground point under a framebuffer pixel: what a click there would hit.
    const auto ground = GroundUnderCursor(NumberOr(command, "x", 0.0), NumberOr(command, "y", 0.0));
    if (!ground) return Failure("no ground under that pixel");
    JsonValue reply = Reply(true);
    reply.Set("point", JsonValue(JsonArray{static_cast<double>(ground->x), static_cast<double>(ground->y)}));
    return reply;
  }
  if (name == "sampleRoute") {
    const int route = static_cast<int>(NumberOr(command, "route", -1));
    if (route < 0 || route >= static_cast<int>(routes_.size()) || !routes_[static_cast<size_t>(route)].route) {
      return Failure("no route " + std::to_string(route));
    }
    const Pose2 pose = routes_[static_cast<size_t>(route)].route->Sample(NumberOr(command, "distance", 0.0));
    JsonValue reply = Reply(true);
    reply.Set("position", JsonValue(JsonArray{pose.position.x, pose.position.y}));
    reply.Set("heading", pose.heading);
    return reply;
  }
  if (name == "tool") {
    const std::string tool = StringOr(command, "tool", "camera");
    ui::ViewerRequests tool_request;
    tool_request.set_tool = tool == "goto" ? ui::Tool::kGoTo : tool == "route" ? ui::Tool::kRoute : ui::Tool::kCamera;
    if (command.Find("route")) tool_request.edit_route = static_cast<int>(NumberOr(command, "route", -1));
    if (command.Find("round")) tool_request.auto_round_corners = command.Find("round")->as_bool();
    if (command.Find("close") && command.Find("close")->as_bool()) tool_request.close_route = true;
    ApplyRequests(tool_request);
    JsonValue reply = Reply(true);
    reply.Set("edited_route", edited_route_);
    reply.Set("anchors", static_cast<double>(editor_.anchor_count()));
    return reply;
  }
  if (name == "ui") {
    const JsonValue* panels = command.Find("panels");
    if (panels != nullptr && panels->is_bool()) panels_visible_ = panels->as_bool();
    return Reply(true);
  }
  if (name == "setSceneTime") {
    scene_time_ = std::max(0.0, NumberOr(command, "time", scene_time_));
    return Reply(true);
  }
  if (name == "playScene" || name == "pauseScene") {
    scene_playing_ = name == "playScene";
    for (Character& c : characters_) c.playback.playing = scene_playing_;
    return Reply(true);
  }
  if (name == "select") {
    if (character == nullptr) return Failure("no instance " + std::to_string(index));
    selected_ = index;
    selected_joint_ = -1;
    const std::string joint = StringOr(command, "joint", "");
    if (!joint.empty()) {
      selected_joint_ = models[static_cast<size_t>(character->model)].model->skeleton().FindJoint(joint);
      if (selected_joint_ < 0) return Failure("no joint named '" + joint + "'");
    }
    return Reply(true);
  }
  if (name == "display") {
    auto flag = [&](const char* key, bool* value) {
      const JsonValue* v = command.Find(key);
      if (v != nullptr && v->is_bool()) *value = v->as_bool();
    };
    flag("grid", &display_.grid);
    flag("skeleton", &display_.skeleton);
    flag("joint_names", &display_.joint_names);
    flag("bounds", &display_.bounds);
    flag("wireframe", &display_.wireframe);
    flag("normals", &display_.normals);
    flag("routes", &display_.routes);
    flag("turn_circles", &display_.turn_circles);
    return Reply(true);
  }
  if (name == "camera") {
    camera_.target = Vec3Or(command, "target", camera_.target);
    camera_.yaw_degrees = static_cast<float>(NumberOr(command, "yaw", camera_.yaw_degrees));
    camera_.pitch_degrees = std::clamp(static_cast<float>(NumberOr(command, "pitch", camera_.pitch_degrees)),
                                       OrbitCamera::kMinPitch, OrbitCamera::kMaxPitch);
    camera_.distance = std::clamp(static_cast<float>(NumberOr(command, "distance", camera_.distance)),
                                  OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance);
    follow_selected_ = false;
    return Reply(true);
  }
  if (name == "frame") {
    if (character != nullptr) selected_ = index;
    FrameSelection();
    return Reply(true);
  }
  if (name == "removeModel") {
    const int model = library_->FindModel(StringOr(command, "model", ""));
    if (model < 0) return Failure("no model named '" + StringOr(command, "model", "") + "'");
    RemoveModel(model);
    return Reply(true);
  }
  if (name == "addInstance") {
    const int model = library_->FindModel(StringOr(command, "model", ""));
    if (model < 0) return Failure("no model named '" + StringOr(command, "model", "") + "'");
    const glm::vec3 at = Vec3Or(command, "position", glm::vec3(0.0f));
    selected_ = AddCharacter(model, glm::vec2(at), static_cast<float>(NumberOr(command, "heading", 0.0)));
    JsonValue reply = Reply(true);
    reply.Set("instance", selected_);
    return reply;
  }
  if (character == nullptr) return Failure("unknown command or no such instance: '" + name + "'");
  const LoadedModel& model = models[static_cast<size_t>(character->model)];
  const int previous = selected_;
  selected_ = index;  // requests apply to the selected character
  if (name == "setAnimation") {
    const JsonValue* animation = command.Find("name");
    if (animation == nullptr || animation->is_null()) {
      requests.set_animation = -1;
    } else {
      const int found = model.FindAnimation(animation->as_string());
      if (found < 0) {
        selected_ = previous;
        return Failure("model '" + model.name + "' has no animation '" + animation->as_string() + "'");
      }
      requests.set_animation = found;
    }
    if (command.Find("crossfade")) character->playback.crossfade_seconds = static_cast<float>(NumberOr(command, "crossfade", 0.25));
  } else if (name == "setTime") {
    requests.set_time = static_cast<float>(NumberOr(command, "time", 0.0));
  } else if (name == "play") {
    requests.set_playing = true;
  } else if (name == "pause") {
    requests.set_playing = false;
  } else if (name == "setRate") {
    requests.set_rate = static_cast<float>(NumberOr(command, "rate", 1.0));
  } else if (name == "setMode") {
    const std::string mode = StringOr(command, "mode", "loop");
    requests.set_mode = mode == "once" ? ui::PlayMode::kOnce
                        : mode == "pingpong" ? ui::PlayMode::kPingPong : ui::PlayMode::kLoop;
  } else if (name == "step") {
    requests.step_frames = static_cast<int>(NumberOr(command, "frames", 1));
  } else if (name == "setPlacement") {
    const glm::vec3 at = Vec3Or(command, "position", glm::vec3(character->position, 0.0f));
    character->position = glm::vec2(at);
    character->heading = static_cast<float>(NumberOr(command, "heading", character->heading));
  } else if (name == "attach") {
    const int attached = library_->FindModel(StringOr(command, "model", ""));
    const int joint = model.model->skeleton().FindJoint(StringOr(command, "joint", ""));
    if (attached < 0 || joint < 0) {
      selected_ = previous;
      return Failure("attach needs a loaded model and a joint of '" + model.name + "'");
    }
    requests.attach = ui::ViewerRequests::Attach{attached, joint, Vec3Or(command, "offset", glm::vec3(0.0f)),
                                                 Vec3Or(command, "rotation", glm::vec3(0.0f))};
  } else if (name == "assignRoute") {
    selected_ = previous;
    const std::string mode = StringOr(command, "mode", "loop");
    Status status = AssignRoute(*character, static_cast<int>(NumberOr(command, "route", -1)),
                                mode == "once" ? RouteMode::kOnce : mode == "pingpong" ? RouteMode::kPingPong : RouteMode::kLoop);
    if (!status.ok()) return Failure(status.error().ToString());
    EnsureLocomotionAnimations(*character);
    return Reply(true);
  } else if (name == "goTo") {
    selected_ = previous;
    const JsonValue* heading = command.Find("heading");
    const double heading_value = heading != nullptr && heading->is_number() ? heading->as_number() : 0.0;
    const glm::dvec2 point(NumberOr(command, "x", 0.0), NumberOr(command, "y", 0.0));
    if (!std::isfinite(point.x) || !std::isfinite(point.y) || !std::isfinite(heading_value)) return Failure("goTo needs finite numbers");
    EnsureLocomotionAnimations(*character);
    Status status = GoTo(*character, point, heading != nullptr && heading->is_number() ? &heading_value : nullptr);
    if (!status.ok()) return Failure(status.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("path", PathJson(*character));
    return reply;
  } else if (name == "setSpeed" || name == "setTurnRadius") {
    selected_ = previous;
    const double value = NumberOr(command, name == "setSpeed" ? "speed" : "radius", -1.0);
    if (!(value >= 0.0) || !std::isfinite(value)) return Failure(name + " needs a number >= 0");
    Locomotion& locomotion = character->locomotion;
    if (name == "setSpeed") {
      locomotion.speed = value;
      if (locomotion.enabled) locomotion.follower.SetSpeed(scene_time_, value);
    } else {
      locomotion.turn_radius = value;
      if (locomotion.enabled) locomotion.follower.SetTurningRadius(value);
    }
    return Reply(true);
  } else if (name == "gpuSkinCheck") {
    // GPU skinning (transform feedback of the real shader) against the core's CPU reference
    // skinning with every weight, for this instance's current pose.
    selected_ = previous;
    PoseCharacter(*character, models);
    std::vector<glm::vec3> gpu;
    if (!meshes_->CaptureSkinnedPositions(model.gpu_mesh, character->pose.palette.data(), &gpu)) {
      return Failure("transform feedback capture failed");
    }
    const anim::Model& core = *model.model;
    std::vector<glm::vec3> cpu;
    size_t offset = 0;
    double max_error = 0.0;
    for (int m = 0; m < core.mesh_count(); ++m) {
      const size_t count = core.mesh(m).vertices.size();
      cpu.resize(count);
      anim::SkinningJob skin;
      skin.model = &core;
      skin.mesh_index = m;
      skin.joint_matrices = anim::Span<const glm::mat4>(character->pose.models.data(), character->pose.models.size());
      skin.normalize_weights = true;
      skin.positions = anim::Span<glm::vec3>(cpu.data(), cpu.size());
      if (!skin.Run() || offset + count > gpu.size()) return Failure("CPU skinning failed");
      for (size_t v = 0; v < count; ++v) {
        max_error = std::max(max_error, static_cast<double>(glm::length(gpu[offset + v] - cpu[v])));
      }
      offset += count;
    }
    const anim::SkinningError top4 = anim::MeasureGpuSkinningError(
        core, anim::Span<const glm::mat4>(character->pose.models.data(), character->pose.models.size()));
    JsonValue reply = Reply(true);
    reply.Set("vertices", static_cast<double>(gpu.size()));
    reply.Set("max_error", max_error);
    reply.Set("extent", static_cast<double>(glm::length(model.bind_max - model.bind_min)));
    reply.Set("top4_error", static_cast<double>(top4.distance));
    reply.Set("max_weights_per_vertex", core.source().max_weights_per_vertex());
    return reply;
  } else if (name == "screenBounds") {
    // The character's bind-pose box on screen, in framebuffer pixels [x0, y0, x1, y1].
    selected_ = previous;
    const float aspect = static_cast<float>(width_) / static_cast<float>(std::max(height_, 1));
    const glm::mat4 view_projection = camera_.ProjectionMatrix(aspect) * camera_.ViewMatrix();
    const glm::mat4 root = character->RootMatrix();
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (int i = 0; i < 8; ++i) {
      const glm::vec3 corner((i & 1) ? model.bind_max.x : model.bind_min.x,
                             (i & 2) ? model.bind_max.y : model.bind_min.y,
                             (i & 4) ? model.bind_max.z : model.bind_min.z);
      const glm::vec4 clip = view_projection * root * glm::vec4(corner, 1.0f);
      if (clip.w <= 1e-6f) continue;
      const float x = (clip.x / clip.w * 0.5f + 0.5f) * static_cast<float>(width_);
      const float y = (0.5f - clip.y / clip.w * 0.5f) * static_cast<float>(height_);
      x0 = std::min(x0, x);
      y0 = std::min(y0, y);
      x1 = std::max(x1, x);
      y1 = std::max(y1, y);
    }
    JsonValue reply = Reply(x1 > x0);
    reply.Set("rect", JsonValue(JsonArray{JsonValue(std::floor(x0)), JsonValue(std::floor(y0)),
                                          JsonValue(std::ceil(x1)), JsonValue(std::ceil(y1))}));
    return reply;
  } else if (name == "jointWorld") {
    const int joint = model.model->skeleton().FindJoint(StringOr(command, "joint", ""));
    selected_ = previous;
    if (joint < 0) return Failure("no joint named '" + StringOr(command, "joint", "") + "'");
    PoseCharacter(*character, models);
    JsonValue reply = Reply(true);
    JsonArray matrix;
    const glm::mat4& m = character->pose.models[static_cast<size_t>(joint)];
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) matrix.emplace_back(static_cast<double>(m[c][r]));
    }
    reply.Set("matrix", JsonValue(std::move(matrix)));
    return reply;
  } else {
    selected_ = previous;
    return Failure("unknown command '" + name + "'");
  }
  ApplyRequests(requests);
  selected_ = previous;
  PoseCharacter(*character, models);
  return Reply(true);
}

}  // namespace md5stage::app
