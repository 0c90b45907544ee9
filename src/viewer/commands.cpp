// The page's commands (window.md5stage -> md5stage_call) as a table of {name, handler}, each
// handler reading its typed fields through CommandArgs, and the state() snapshot.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/material/decl_lexer.h"
#include "core/path/route_json.h"
#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"
#include "viewer/command_args.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
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

// ---- the page's commands
// -------------------------------------------------------------------------

JsonValue Stage::State() const {
  JsonValue state = JsonValue::MakeObject();
  state.Set("webgl", stats_.gl_version);
  state.Set("frame", static_cast<double>(frame_));
  state.Set("canvas",
            JsonValue(JsonArray{JsonValue(viewport_.width), JsonValue(viewport_.height)}));
  JsonValue camera = JsonValue::MakeObject();
  camera.Set("target", Vec(view_.orbit.target));
  camera.Set("yaw", static_cast<double>(view_.orbit.yaw_degrees));
  camera.Set("pitch", static_cast<double>(view_.orbit.pitch_degrees));
  camera.Set("distance", static_cast<double>(view_.orbit.distance));
  state.Set("camera", std::move(camera));
  state.Set("cinematic", CamerasJson());
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
    JsonArray normal_maps, specular_maps, materials, skins;
    for (const std::string& name : model.normal_files) normal_maps.emplace_back(name);
    for (const std::string& name : model.specular_files) specular_maps.emplace_back(name);
    for (const std::string& name : model.materials) materials.emplace_back(name);
    const int model_index = static_cast<int>(&model - models.data());
    for (const std::string& name : library_->SkinsFor(model_index)) skins.emplace_back(name);
    m.Set("normal_maps", JsonValue(std::move(normal_maps)));
    m.Set("specular_maps", JsonValue(std::move(specular_maps)));
    m.Set("materials", JsonValue(std::move(materials)));
    m.Set("skins", JsonValue(std::move(skins)));
    m.Set("skin", model.skin);
    JsonArray material_warnings;
    for (const std::string& w : model.material_warnings) material_warnings.emplace_back(w);
    m.Set("material_warnings", JsonValue(std::move(material_warnings)));
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
    i.Set("animation",
          character.playback.animation >= 0
              ? JsonValue(model.animation_names[static_cast<size_t>(character.playback.animation)])
              : JsonValue());
    i.Set("time", character.playback.time);
    // An ended "once" clip is not playing, though its play switch is still on.
    i.Set("playing", character.playback.playing && !character.playback.finished);
    i.Set("finished", character.playback.finished);
    i.Set("rate", static_cast<double>(character.playback.rate));
    i.Set("mode", PlayModeName(character.playback.mode));
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
      a.Set("joint_world",
            Vec(glm::vec3(character.pose.models[static_cast<size_t>(attachment.joint)][3])));
      a.Set("node_world", Vec(attachment.node.world_position()));
      if (!attachment.pose.models.empty())
        a.Set("root_world", Vec(glm::vec3(attachment.pose.models[0][3])));
      attachments.push_back(std::move(a));
    }
    i.Set("attachments", JsonValue(std::move(attachments)));
    const Locomotion& locomotion = character.locomotion;
    i.Set("speed", locomotion.speed);
    i.Set("turn_radius", locomotion.turn_radius);
    i.Set("clearance", locomotion.clearance);
    i.Set("plan_message",
          locomotion.plan_message.empty() ? JsonValue() : JsonValue(locomotion.plan_message));
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
  state.Set("panels", options_.panels_visible);
  state.Set("routes", RoutesJson());
  state.Set("obstacles", *ObstaclesToJson(obstacles_.set).Find("obstacles"));
  state.Set("selected_obstacle", selection_.obstacle);
  state.Set("polygon_draft", static_cast<double>(obstacle_tool_.draft().size()));
  const char* const tool_names[] = {"camera", "goto", "route", "obstacle"};
  state.Set("tool", std::string(tool_names[static_cast<int>(tool_)]));
  state.Set("selected", selection_.instance);
  state.Set("selected_joint", selection_.joint);
  state.Set("last_error", report_.error.empty() ? JsonValue() : JsonValue(report_.error));
  JsonArray warnings;
  for (const std::string& w : report_.warnings) warnings.emplace_back(w);
  state.Set("warnings", JsonValue(std::move(warnings)));
  state.Set("status", report_.status);
  JsonValue display = JsonValue::MakeObject();
  for (const DisplayToggleName& toggle : kDisplayToggleNames) {
    display.Set(toggle.name, options_.display.*toggle.member);
  }
  state.Set("display", std::move(display));
  JsonValue light = JsonValue::MakeObject();
  light.Set("azimuth", static_cast<double>(options_.shading.light_azimuth));
  light.Set("elevation", static_cast<double>(options_.shading.light_elevation));
  const glm::vec3 towards = options_.shading.LightDirection();
  light.Set("direction", Vec(towards));
  state.Set("light", std::move(light));
  JsonValue shading = JsonValue::MakeObject();
  shading.Set("normalMaps", options_.shading.normal_maps);
  shading.Set("specular", options_.shading.specular);
  shading.Set("channel",
              std::string(kShadingChannelNames[static_cast<int>(options_.shading.channel)]));
  state.Set("shading", std::move(shading));
  JsonValue items = JsonValue::MakeObject();
  for (const auto& [label, rect] : item_rects_) {
    items.Set(label,
              JsonValue(JsonArray{
                  JsonValue(static_cast<double>(rect.x)), JsonValue(static_cast<double>(rect.y)),
                  JsonValue(static_cast<double>(rect.z)), JsonValue(static_cast<double>(rect.w))}));
  }
  state.Set("ui_items", std::move(items));
  JsonValue stats = JsonValue::MakeObject();
  stats.Set("update_ms", static_cast<double>(stats_.update_ms));
  stats.Set("render_ms", static_cast<double>(stats_.render_ms));
  stats.Set("frame_ms", static_cast<double>(stats_.frame_ms));
  stats.Set("draw_calls", stats_.draw_calls);
  stats.Set("instances", stats_.instances);
  stats.Set("culled", stats_.culled);
  stats.Set("characters", static_cast<double>(characters_.size()));
  stats.Set("gpu_shared_bytes", static_cast<double>(backend_->shared_bytes()));
  stats.Set("gpu_instance_bytes", static_cast<double>(backend_->instance_bytes()));
  state.Set("stats", std::move(stats));
  return state;
}

JsonValue Stage::ClockJson() const {
  JsonValue reply = Reply(true);
  reply.Set("frame", static_cast<double>(frame_));
  reply.Set("scene_time", scene_time_);
  reply.Set("scene_playing", scene_playing_);
  SetClock(MeasureSceneClock(characters_, scene_time_), reply);
  reply.Set("last_error", report_.error.empty() ? JsonValue() : JsonValue(report_.error));
  // The embed's loop for this clock (the timeline slider's end), null without one.
  const std::optional<EmbedLoop> loop = embed_timeline_.LoopRange(MeasureEmbedClock());
  JsonValue range;
  if (loop) {
    range = JsonValue::MakeObject();
    range.Set("start", loop->start);
    range.Set("end", loop->end);
  }
  reply.Set("loop_range", std::move(range));
  return reply;
}

EmbedClock Stage::MeasureEmbedClock() const {
  const SceneClock measured = MeasureSceneClock(characters_, scene_time_);
  EmbedClock clock;
  clock.scene_time = scene_time_;
  clock.finished = measured.finished;
  if (measured.end >= 0.0) clock.scene_end = measured.end;
  clock.scene_repeats = measured.repeats;
  return clock;
}

void Stage::RunEmbedTimeline() {
  const EmbedTimelineStep step = embed_timeline_.Step(MeasureEmbedClock());
  if (step.finished_at && host_) host_->Event("finished", FinishedEventDetail(*step.finished_at));
  if (step.seek_to) {
    scene_time_ = std::max(0.0, *step.seek_to);
    if (host_) host_->Event("seeked", SeekedEventDetail(scene_time_));
  }
}

namespace {
constexpr double kCoordinateLimit = 1e6;  // as in scenes (docs/scene-format.md)
#define MD5STAGE_MODES \
  { "loop", "once", "pingpong" }
}  // namespace

// The handlers: each reads its fields (CommandArgs records the first problem), checks them with
// Finish(), then acts. Per-character commands name their instance; none retargets the selection.
class CommandTable {
 public:
  using Handler = JsonValue (*)(Stage&, CommandArgs&);
  struct Entry {
    const char* name;
    Handler handler;
  };

  static JsonValue Dispatch(Stage& v, const JsonValue& command);
  static const Entry kEntries[];

 private:
  static Character* Instance(Stage& v, CommandArgs& args) {
    const int count = static_cast<int>(v.characters_.size());
    if (count == 0) {
      const JsonValue* value = args.OptionalValue("instance");
      args.Fail("instance", "an instance index (the scene has no characters)",
                value ? DescribeJson(*value) : "nothing (the field is missing)");
      return nullptr;
    }
    const int index = args.Integer("instance", 0, count - 1);
    return args.ok() ? &v.characters_[static_cast<size_t>(index)] : nullptr;
  }
  static int ModelArg(Stage& v, CommandArgs& args, const char* field) {
    const std::string name = args.String(field, 256);
    if (!args.ok()) return -1;
    const int model = v.library_->FindModel(name);
    if (model < 0) {
      std::string names;
      for (const LoadedModel& m : v.library_->models())
        names += (names.empty() ? "" : ", ") + m.name;
      args.Fail(
          field,
          names.empty() ? "a loaded model (none is loaded)" : "a loaded model (" + names + ")",
          DescribeJson(JsonValue(name)));
    }
    return model;
  }
  static int JointArg(Stage& v, CommandArgs& args, const char* field, const Character& character) {
    const std::string name = args.String(field, 256);
    if (!args.ok()) return -1;
    const LoadedModel& model = v.library_->models()[static_cast<size_t>(character.model)];
    const int joint = model.model->skeleton().FindJoint(name);
    if (joint < 0) {
      args.Fail(field, "a joint of '" + model.name + "'", DescribeJson(JsonValue(name)));
    }
    return joint;
  }
  static PlayMode Mode(int index) { return static_cast<PlayMode>(index); }
  static JsonValue Done(Stage& v, Character* character) {
    if (character) PoseCharacter(*character, v.library_->models());
    return Reply(true);
  }
  static JsonValue Fail(const CommandArgs& args) { return Failure(args.error()); }

  // ---- whole viewer ----
  static JsonValue State(Stage& v, CommandArgs& a) { return a.Finish() ? v.State() : Fail(a); }
  static JsonValue Clock(Stage& v, CommandArgs& a) { return a.Finish() ? v.ClockJson() : Fail(a); }
  static JsonValue LoadQueued(Stage& v, CommandArgs& a) {
    return a.Finish() ? v.LoadQueuedFiles() : Fail(a);
  }
  static JsonValue ReportError(Stage& v, CommandArgs& a) {
    const std::string message = a.String("message", 1 << 16);
    if (!a.Finish()) return Fail(a);
    v.SetError(message);
    return Reply(true);
  }
  static JsonValue SceneJson(Stage& v, CommandArgs& a) {
    return a.Finish() ? SceneToJson(v.CurrentScene()) : Fail(a);
  }
  static JsonValue PrepareScene(Stage& v, CommandArgs& a) {
    const JsonValue& scene = a.Value("scene");
    return a.Finish() ? v.PrepareScene(scene) : Fail(a);
  }
  // The opening protocol (stage_opening.cpp): each starts an opening and answers with its id;
  // the "sceneOpened" event {id, ok, error, warnings} ends it.
  static JsonValue Opened(int id) {
    JsonValue reply = Reply(true);
    reply.Set("opening", id);
    return reply;
  }
  static JsonValue OpenScene(Stage& v, CommandArgs& a) {
    const JsonValue& scene = a.Value("scene");
    // Commands may be larger than a scene (a page location holds a whole link): bounded here.
    const size_t bytes = a.ok() ? WriteJson(scene).size() : 0;
    if (bytes > kMaxSceneJsonBytes) {
      a.Fail("scene", "a scene of at most " + std::to_string(kMaxSceneJsonBytes) + " bytes",
             "one of " + std::to_string(bytes));
    }
    return a.Finish() ? Opened(v.OpenScene(scene)) : Fail(a);
  }
  static JsonValue OpenDemo(Stage& v, CommandArgs& a) {
    const std::string name = a.String("name", 256);
    return a.Finish() ? Opened(v.OpenDemo(name)) : Fail(a);
  }
  static JsonValue OpenLink(Stage& v, CommandArgs& a) {
    const std::string payload = a.String("payload", kMaxEmbedUrlChars);
    return a.Finish() ? Opened(v.OpenLink(payload)) : Fail(a);
  }
  static JsonValue OpenModel(Stage& v, CommandArgs& a) {
    const std::string mesh = a.String("mesh", 4096);
    std::vector<std::string> anims;
    if (const JsonValue* list = a.OptionalValue("anims")) {
      if (!list->is_array() || list->as_array().size() > kMaxModelAnims) {
        a.Fail("anims", "an array of at most " + std::to_string(kMaxModelAnims) + " URLs",
               DescribeJson(*list));
      } else {
        for (const JsonValue& anim : list->as_array()) {
          if (!anim.is_string() || anim.as_string().size() > 4096) {
            a.Fail("anims", "URLs of at most 4096 characters", DescribeJson(anim));
            break;
          }
          anims.push_back(anim.as_string());
        }
      }
    }
    return a.Finish() ? Opened(v.OpenModel(mesh, anims)) : Fail(a);
  }
  static JsonValue OpenLocation(Stage& v, CommandArgs& a) {
    const std::string query = a.OptionalString("query", kMaxEmbedUrlChars).value_or("");
    const std::string fragment = a.OptionalString("fragment", kMaxEmbedUrlChars).value_or("");
    return a.Finish() ? Opened(v.OpenLocation(query, fragment)) : Fail(a);
  }
  static JsonValue ApplyScene(Stage& v, CommandArgs& a) {
    return a.Finish() ? v.ApplyPendingScene() : Fail(a);
  }
  static JsonValue CancelScene(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.CancelPendingScene();
    return Reply(true);
  }
  static JsonValue ShareLink(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    std::vector<std::string> dropped;
    const Scene scene = WithoutLocalModels(v.CurrentScene(), &dropped);
    auto payload = EncodeSceneLink(scene);
    if (!payload.ok()) return Failure(payload.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("payload", payload.value());
    JsonArray left_out;
    for (const std::string& model : dropped) left_out.emplace_back(model);
    reply.Set("left_out", JsonValue(std::move(left_out)));
    return reply;
  }
  static JsonValue DecodeLink(Stage& v, CommandArgs& a) {
    const std::string payload = a.String("payload", kMaxSceneLinkChars);
    if (!a.Finish()) return Fail(a);
    auto scene = DecodeSceneLink(payload);
    if (!scene.ok()) {
      v.SetError(scene.error().ToString());
      return Failure(scene.error().ToString());
    }
    JsonValue reply = Reply(true);
    reply.Set("scene", SceneToJson(scene.value()));
    return reply;
  }
  static JsonValue SetRoute(Stage& v, CommandArgs& a) {
    const int count = static_cast<int>(v.routes_.size());
    const int index =
        a.OptionalInteger("index", 0, std::min(count, static_cast<int>(kMaxSceneRoutes) - 1))
            .value_or(count);
    const JsonValue& route = a.Value("route");
    const std::string name = a.OptionalString("name", kMaxSceneNameLength).value_or("");
    if (!a.Finish()) return Fail(a);
    auto description = RouteDescriptionFromJson("setRoute.route", route);
    if (!description.ok()) return Failure(description.error().ToString());
    Status status = v.SetRoute(index, std::move(description.value().segments),
                               description.value().closed, name);
    if (!status.ok()) return Failure(status.error().ToString());
    if (index == v.route_tool_.edited_route()) v.StartEditingRoute(index);
    JsonValue reply = Reply(true);
    reply.Set("index", index);
    return reply;
  }
  static JsonValue GetRoutes(Stage& v, CommandArgs& a) {
    return a.Finish() ? v.RoutesJson() : Fail(a);
  }
  static JsonValue SetCrowdSize(Stage& v, CommandArgs& a) {
    const int count = a.Integer("count", 1, 5000);
    if (!a.Finish()) return Fail(a);
    v.SetCrowdSize(count);
    JsonValue reply = Reply(true);
    reply.Set("characters", static_cast<double>(v.characters_.size()));
    return reply;
  }
  static JsonValue UpdateSteps(Stage& v, CommandArgs& a) {
    // The frame's engine update (locomotion, playback, poses, palettes) run `count` times in a
    // row, each timed: the benchmark's update medians without waiting for frames, which software
    // WebGL draws slowly at thousands of characters. The scene clock advances by count x dt.
    const int count = a.OptionalInteger("count", 1, 1000).value_or(300);
    const double dt = a.OptionalNumber("dt", 0.0, 0.25).value_or(1.0 / 60.0);
    if (!a.Finish()) return Fail(a);
    JsonValue times = JsonValue::MakeArray();
    for (int i = 0; i < count; ++i) {
      const auto start = std::chrono::steady_clock::now();
      v.Update(dt, false);
      times.Append(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    JsonValue reply = Reply(true);
    reply.Set("update_ms", std::move(times));
    reply.Set("characters", static_cast<double>(v.characters_.size()));
    return reply;
  }
  static JsonValue Stats(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    // Cheap (no per-instance data): what benchmarks poll every frame.
    JsonValue stats = Reply(true);
    stats.Set("frame", static_cast<double>(v.frame_));
    stats.Set("update_ms", static_cast<double>(v.stats_.update_ms));
    stats.Set("render_ms", static_cast<double>(v.stats_.render_ms));
    stats.Set("frame_ms", static_cast<double>(v.stats_.frame_ms));
    stats.Set("draw_calls", v.stats_.draw_calls);
    stats.Set("instances", v.stats_.instances);
    stats.Set("culled", v.stats_.culled);
    stats.Set("characters", static_cast<double>(v.characters_.size()));
    return stats;
  }
  static JsonValue GroundAt(Stage& v, CommandArgs& a) {
    // The ground point under a framebuffer pixel: what a click there would hit.
    const double x = a.Number("x", -1e6, 1e6);
    const double y = a.Number("y", -1e6, 1e6);
    if (!a.Finish()) return Fail(a);
    const auto ground = v.GroundUnderCursor(x, y);
    if (!ground) return Failure("groundAt: no ground under that pixel");
    JsonValue reply = Reply(true);
    reply.Set("point",
              JsonValue(JsonArray{static_cast<double>(ground->x), static_cast<double>(ground->y)}));
    return reply;
  }
  static JsonValue ScreenAt(Stage& v, CommandArgs& a) {
    // Where a world point shows in framebuffer pixels (what tests look at).
    const glm::vec3 point = a.Vec3("point", kCoordinateLimit);
    if (!a.Finish()) return Fail(a);
    glm::dvec2 screen;
    if (!v.ProjectToScreen(point, &screen))
      return Failure("screenAt: the point is behind the camera");
    JsonValue reply = Reply(true);
    reply.Set("pixel", JsonValue(JsonArray{screen.x, screen.y}));
    return reply;
  }
  static JsonValue SampleRoute(Stage& v, CommandArgs& a) {
    const int route = a.Integer("route", 0, static_cast<int>(v.routes_.size()) - 1);
    const double distance = a.Number("distance", -1e15, 1e15);
    if (!a.Finish()) return Fail(a);
    if (!v.routes_[static_cast<size_t>(route)].route) {
      return Failure("sampleRoute.route: route " + std::to_string(route) + " is not valid");
    }
    const Pose2 pose = v.routes_[static_cast<size_t>(route)].route->Sample(distance);
    JsonValue reply = Reply(true);
    reply.Set("position", JsonValue(JsonArray{pose.position.x, pose.position.y}));
    reply.Set("heading", pose.heading);
    return reply;
  }
  static JsonValue Tool(Stage& v, CommandArgs& a) {
    const int tool = a.Choice("tool", {"camera", "goto", "route", "obstacle"});
    const std::optional<int> shape = a.OptionalChoice("shape", {"circle", "polygon"});
    const std::optional<int> route =
        a.OptionalInteger("route", -1, static_cast<int>(v.routes_.size()) - 1);
    const std::optional<bool> round = a.OptionalBool("round");
    const std::optional<bool> close = a.OptionalBool("close");
    if (!a.Finish()) return Fail(a);
    ui::ViewerRequests request;
    request.set_tool = static_cast<ui::Tool>(tool);
    if (route) request.edit_route = *route;
    if (round) request.auto_round_corners = *round;
    request.close_route = close.value_or(false) && tool == static_cast<int>(ui::Tool::kRoute);
    request.close_polygon = close.value_or(false) && tool == static_cast<int>(ui::Tool::kObstacle);
    if (shape) request.obstacle_polygon_shape = *shape == 1;
    v.ApplyRequests(request);
    JsonValue reply = Reply(true);
    reply.Set("edited_route", v.route_tool_.edited_route());
    reply.Set("anchors", static_cast<double>(v.route_tool_.editor().anchor_count()));
    return reply;
  }
  // What the Scene panel's "Screenshot" does: the frame as a PNG download.
  static JsonValue Screenshot(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.Screenshot();
    return Reply(true);
  }
  static JsonValue Ui(Stage& v, CommandArgs& a) {
    const bool panels = a.Bool("panels");
    if (!a.Finish()) return Fail(a);
    v.SetPanelsVisible(panels);
    return Reply(true);
  }
  static JsonValue SetSceneTime(Stage& v, CommandArgs& a) {
    const double time = a.Number("time", 0.0, kMaxSceneTime);
    if (!a.Finish()) return Fail(a);
    v.SetSceneTime(time);
    return Reply(true);
  }
  static JsonValue PlayScene(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.SetScenePlaying(a.name() == "playScene");
    return Reply(true);
  }
  static JsonValue Display(Stage& v, CommandArgs& a) {
    DisplayToggles display = v.options_.display;
    for (const DisplayToggleName& toggle : kDisplayToggleNames) {
      if (const std::optional<bool> value = a.OptionalBool(toggle.name)) {
        display.*toggle.member = *value;
      }
    }
    if (!a.Finish()) return Fail(a);
    v.SetDisplay(display);
    return Reply(true);
  }
  // The key light: {"azimuth": degrees, "elevation": degrees}, either may be left out.
  static JsonValue SetLight(Stage& v, CommandArgs& a) {
    ShadingOptions shading = v.options_.shading;
    if (const std::optional<double> azimuth = a.OptionalNumber("azimuth", -360.0, 360.0))
      shading.light_azimuth = static_cast<float>(*azimuth);
    const float limit = ShadingOptions::kMaxElevation;
    if (const std::optional<double> elevation = a.OptionalNumber("elevation", -limit, limit))
      shading.light_elevation = static_cast<float>(*elevation);
    if (!a.Finish()) return Fail(a);
    v.SetShading(shading);
    return Reply(true);
  }
  // {"normalMaps": bool, "specular": bool, "channel": "lit|diffuse|normals|specular"}.
  static JsonValue SetShading(Stage& v, CommandArgs& a) {
    ShadingOptions shading = v.options_.shading;
    if (const std::optional<bool> on = a.OptionalBool("normalMaps")) shading.normal_maps = *on;
    if (const std::optional<bool> on = a.OptionalBool("specular")) shading.specular = *on;
    if (const std::optional<int> channel =
            a.OptionalChoice("channel", {"lit", "diffuse", "normals", "specular"})) {
      shading.channel = static_cast<ShadingChannel>(*channel);
    }
    if (!a.Finish()) return Fail(a);
    v.SetShading(shading);
    return Reply(true);
  }
  static JsonValue Camera(Stage& v, CommandArgs& a) {
    OrbitCamera camera = v.view_.orbit;
    camera.target = a.OptionalVec3("target", kCoordinateLimit).value_or(camera.target);
    camera.yaw_degrees =
        static_cast<float>(a.OptionalNumber("yaw", -1e6, 1e6).value_or(camera.yaw_degrees));
    camera.pitch_degrees =
        static_cast<float>(a.OptionalNumber("pitch", OrbitCamera::kMinPitch, OrbitCamera::kMaxPitch)
                               .value_or(camera.pitch_degrees));
    camera.distance = static_cast<float>(
        a.OptionalNumber("distance", OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance)
            .value_or(camera.distance));
    if (!a.Finish()) return Fail(a);
    v.SetCamera(camera);
    return Reply(true);
  }
  static JsonValue Frame(Stage& v, CommandArgs& a) {
    // With an instance: select it and frame it; without: frame the selection.
    std::optional<int> instance;
    if (a.OptionalValue("instance") != nullptr) {
      Character* character = Instance(v, a);
      if (character) instance = static_cast<int>(character - v.characters_.data());
    }
    if (!a.Finish()) return Fail(a);
    if (instance) v.Select(*instance, -1);
    v.FrameSelection();
    return Reply(true);
  }
  static JsonValue Embed(Stage& v, CommandArgs& a) {
    // The embed's URL options (embed_options.h); with apply_to_scene they act on the open scene.
    const std::string query = a.OptionalString("query", kMaxEmbedUrlChars).value_or("");
    const std::string fragment = a.OptionalString("fragment", kMaxEmbedUrlChars).value_or("");
    const bool reduced_motion = a.OptionalBool("reduced_motion").value_or(false);
    const bool apply = a.OptionalBool("apply_to_scene").value_or(true);
    if (!a.Finish()) return Fail(a);
    auto parsed = ParseEmbedOptions(query, fragment);
    if (!parsed.ok()) return Failure(parsed.error().ToString());
    const EmbedOptions& options = parsed.value();
    v.embed_timeline_.SetLoop(options.loop);
    if (apply) {
      v.options_.display = options.display.AppliedTo(v.options_.display);
      if (options.camera) {
        OrbitCamera& camera = v.view_.orbit;
        camera.yaw_degrees = static_cast<float>(options.camera->yaw_degrees);
        camera.pitch_degrees = std::clamp(static_cast<float>(options.camera->pitch_degrees),
                                          OrbitCamera::kMinPitch, OrbitCamera::kMaxPitch);
        camera.distance = std::clamp(static_cast<float>(options.camera->distance),
                                     OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance);
        if (options.camera->target) camera.target = glm::vec3(*options.camera->target);
        v.view_.follow_selected = false;
      }
      if (const std::optional<bool> playing = EmbedStartsPlaying(options, reduced_motion)) {
        v.SetScenePlaying(*playing);
      }
      if (const std::optional<double> time = EmbedStartTime(options)) v.scene_time_ = *time;
      v.embed_timeline_.Restart(v.MeasureEmbedClock().finished);
    }
    return EmbedReplyJson(options);
  }
  static JsonValue EmbedScrub(Stage& v, CommandArgs& a) {
    const bool active = a.Bool("active");
    if (!a.Finish()) return Fail(a);
    v.embed_timeline_.SetScrubbing(active);
    return Reply(true);
  }
  static JsonValue RemoveModel(Stage& v, CommandArgs& a) {
    const int model = ModelArg(v, a, "model");
    if (!a.Finish()) return Fail(a);
    v.RemoveModel(model);
    return Reply(true);
  }
  // The model with its animations as a .glb, handed to the page as a download.
  static JsonValue ExportGltf(Stage& v, CommandArgs& a) {
    const int model = ModelArg(v, a, "model");
    if (!a.Finish()) return Fail(a);
    return v.DownloadGltf(model);
  }
  // The model's md5mesh and each md5anim, handed to the page as separate downloads.
  static JsonValue ExportMd5(Stage& v, CommandArgs& a) {
    const int model = ModelArg(v, a, "model");
    if (!a.Finish()) return Fail(a);
    return v.DownloadMd5(model);
  }
  // {"cmd":"setSkin","model":NAME,"skin":SKIN} shows the model under a loaded skin ("": none).
  static JsonValue SetSkin(Stage& v, CommandArgs& a) {
    const int model = ModelArg(v, a, "model");
    const std::string skin = a.String("skin", 256);
    if (model >= 0 && a.ok() && !skin.empty()) {
      const std::vector<std::string> skins = v.library_->SkinsFor(model);
      bool known = false;
      for (const std::string& name : skins) known = known || material::EqualsIgnoreCase(name, skin);
      if (!known) {
        std::string names;
        for (const std::string& name : skins) names += (names.empty() ? "" : ", ") + name;
        a.Fail("skin",
               names.empty() ? "\"\" (no skin for this model is loaded)"
                             : "\"\" or a skin loaded for this model (" + names + ")",
               DescribeJson(JsonValue(skin)));
      }
    }
    if (!a.Finish()) return Fail(a);
    return v.SetModelSkin(model, skin);
  }
  static JsonValue AddInstance(Stage& v, CommandArgs& a) {
    const int model = ModelArg(v, a, "model");
    const std::optional<glm::vec3> at = a.OptionalVec3("position", kCoordinateLimit);
    const double heading = a.OptionalNumber("heading", -1e3, 1e3).value_or(0.0);
    if (!a.Finish()) return Fail(a);
    const int instance =
        v.AddInstance(model, at ? std::optional<glm::vec2>(glm::vec2(*at)) : std::nullopt,
                      static_cast<float>(heading));
    JsonValue reply = Reply(true);
    reply.Set("instance", instance);
    return reply;
  }

  // ---- one character ----
  static JsonValue Select(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    int joint = -1;
    if (character && a.OptionalValue("joint") != nullptr)
      joint = JointArg(v, a, "joint", *character);
    if (!a.Finish()) return Fail(a);
    v.Select(static_cast<int>(character - v.characters_.data()), joint);
    return Reply(true);
  }
  static JsonValue SetAnimation(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    int animation = -1;
    if (character) {
      const JsonValue& name = a.Value("name");
      const LoadedModel& model = v.library_->models()[static_cast<size_t>(character->model)];
      if (name.is_string()) {
        animation = model.FindAnimation(name.as_string());
        if (animation < 0) {
          std::string names;
          for (const std::string& n : model.animation_names)
            names += (names.empty() ? "" : ", ") + n;
          a.Fail("name",
                 "an animation of '" + model.name + "' (" + (names.empty() ? "none" : names) +
                     ") or null for the bind pose",
                 DescribeJson(name));
        }
      } else if (!name.is_null() && a.ok()) {
        a.Fail("name", "an animation name, or null for the bind pose", DescribeJson(name));
      }
    }
    const std::optional<double> crossfade = a.OptionalNumber("crossfade", 0.0, 60.0);
    if (!a.Finish()) return Fail(a);
    if (crossfade) character->playback.crossfade_seconds = static_cast<float>(*crossfade);
    v.SetAnimation(*character, animation);
    return Done(v, character);
  }
  static JsonValue SetTime(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double time = a.Number("time", 0.0, kMaxSceneTime);
    if (!a.Finish()) return Fail(a);
    anim::SetClockTime(character->playback, time);
    return Done(v, character);
  }
  static JsonValue Play(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    if (!a.Finish()) return Fail(a);
    const int index = static_cast<int>(character - v.characters_.data());
    if (a.name() == "play") {
      v.Play(index);
    } else {
      v.Pause(index);
    }
    return Reply(true);
  }
  static JsonValue SetRate(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double rate = a.Number("rate", -kMaxRate, kMaxRate);
    if (!a.Finish()) return Fail(a);
    character->playback.rate = static_cast<float>(rate);
    return Done(v, character);
  }
  static JsonValue SetMode(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const int mode = a.Choice("mode", MD5STAGE_MODES);
    if (!a.Finish()) return Fail(a);
    anim::SetClockMode(character->playback, Mode(mode));
    return Done(v, character);
  }
  static JsonValue Step(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const int frames = a.OptionalInteger("frames", -1000000, 1000000).value_or(1);
    if (!a.Finish()) return Fail(a);
    v.StepFrames(static_cast<int>(character - v.characters_.data()), frames);
    return Reply(true);
  }
  static JsonValue SetPlacement(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const std::optional<glm::vec3> at = a.OptionalVec3("position", kCoordinateLimit);
    const std::optional<double> heading = a.OptionalNumber("heading", -1e3, 1e3);
    if (!a.Finish()) return Fail(a);
    if (at) character->position = glm::vec2(*at);
    if (heading) character->heading = static_cast<float>(*heading);
    Locomotion& locomotion = character->locomotion;
    if (locomotion.enabled && (at || heading)) {
      // Placed by hand: the plan it was following ends, and it stands where it was put.
      locomotion.follower = Follower(Pose2{glm::dvec2(character->position), character->heading},
                                     locomotion.turn_radius, locomotion.speed, v.scene_time_);
      locomotion.route = -1;
      locomotion.has_target = false;
      locomotion.start_delay = 0.0;
      locomotion.plan_start = v.scene_time_;
    }
    return Done(v, character);
  }
  static JsonValue Attach(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const int model = ModelArg(v, a, "model");
    const int joint = character ? JointArg(v, a, "joint", *character) : -1;
    const glm::vec3 offset = a.OptionalVec3("offset", kCoordinateLimit).value_or(glm::vec3(0.0f));
    const glm::vec3 rotation = a.OptionalVec3("rotation", 1e5).value_or(glm::vec3(0.0f));
    if (!a.Finish()) return Fail(a);
    v.Attach(*character, model, joint, offset, rotation);
    return Done(v, character);
  }
  static JsonValue AssignRoute(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const int route = a.Integer("route", -1, static_cast<int>(v.routes_.size()) - 1);
    const int mode = a.OptionalChoice("mode", MD5STAGE_MODES).value_or(0);
    if (!a.Finish()) return Fail(a);
    Status status = v.AssignRoute(*character, route, Mode(mode));
    if (!status.ok()) return Failure(status.error().ToString());
    v.EnsureLocomotionAnimations(*character);
    return Reply(true);
  }
  static JsonValue GoTo(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double x = a.Number("x", -kCoordinateLimit, kCoordinateLimit);
    const double y = a.Number("y", -kCoordinateLimit, kCoordinateLimit);
    const std::optional<double> heading = a.OptionalNumber("heading", -1e3, 1e3);
    if (!a.Finish()) return Fail(a);
    v.EnsureLocomotionAnimations(*character);
    const double heading_value = heading.value_or(0.0);
    Status status = v.GoTo(*character, glm::dvec2(x, y), heading ? &heading_value : nullptr);
    if (!status.ok()) return Failure(status.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("path", v.PathJson(*character));
    return reply;
  }
  static JsonValue SetSpeed(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double speed = a.Number("speed", 0.0, kMaxSpeed);
    if (!a.Finish()) return Fail(a);
    v.SetSpeed(*character, speed);
    return Reply(true);
  }
  static JsonValue SetTurnRadius(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double radius = a.Number("radius", 0.0, kMaxSpeed);
    if (!a.Finish()) return Fail(a);
    v.SetTurnRadius(*character, radius);
    return Reply(true);
  }
  // ---- obstacles (refused edits change nothing; walkers replan after each accepted one) ----
  static JsonValue AddObstacle(Stage& v, CommandArgs& a) {
    const JsonValue& obstacle = a.Value("obstacle");
    if (!a.Finish()) return Fail(a);
    if (v.obstacles_.set.size() >= kMaxObstacles) {
      return Failure("addObstacle.obstacle: the scene already has " +
                     std::to_string(kMaxObstacles) + " obstacles, the most it can hold");
    }
    // The scene's reader checks it, so messages are the scene's ("obstacles[0].circle.radius"),
    // named here after the field.
    JsonValue wrapped = JsonValue::MakeObject();
    wrapped.Set("obstacles", JsonValue(JsonArray{obstacle}));
    auto parsed = ObstaclesFromJson("addObstacle", wrapped);
    if (!parsed.ok()) {
      std::string message = parsed.error().message;
      const std::string from = "obstacles[0]";
      for (size_t at = message.find(from); at != std::string::npos; at = message.find(from))
        message.replace(at, from.size(), "addObstacle.obstacle");
      return Failure(message);
    }
    std::vector<Obstacle> list = v.obstacles_.set.obstacles();
    list.push_back(parsed.value().obstacles().front());
    Status status = v.SetObstacles(std::move(list));
    if (!status.ok()) return Failure(status.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("index", static_cast<int>(v.obstacles_.set.size()) - 1);
    return reply;
  }
  // The "index" field of an obstacle edit, or -1 (with the failure recorded in `a`) when the
  // scene has no obstacles to name.
  static int ObstacleIndex(const Stage& v, CommandArgs& a) {
    const int count = static_cast<int>(v.obstacles_.set.size());
    if (count == 0) {
      a.Fail("index", "an obstacle index (the scene has no obstacles)",
             DescribeJson(a.OptionalValue("index")));
      return -1;
    }
    return a.Integer("index", 0, count - 1);
  }
  static JsonValue RemoveObstacle(Stage& v, CommandArgs& a) {
    const int index = ObstacleIndex(v, a);
    if (index < 0) return Fail(a);
    if (!a.Finish()) return Fail(a);
    Status status = v.RemoveObstacle(index);
    if (!status.ok()) return Failure(status.error().ToString());
    return Reply(true);
  }
  static JsonValue MoveObstacle(Stage& v, CommandArgs& a) {
    const int index = ObstacleIndex(v, a);
    if (index < 0) return Fail(a);
    const double dx = a.Number("dx", -kCoordinateLimit, kCoordinateLimit);
    const double dy = a.Number("dy", -kCoordinateLimit, kCoordinateLimit);
    if (!a.Finish()) return Fail(a);
    std::vector<Obstacle> list = v.obstacles_.set.obstacles();
    Obstacle& moved = list[static_cast<size_t>(index)];
    moved.centre += glm::dvec2(dx, dy);
    for (glm::dvec2& p : moved.vertices) p += glm::dvec2(dx, dy);
    Status status = v.SetObstacles(std::move(list));
    if (!status.ok()) return Failure("moveObstacle: " + status.error().message);
    return Reply(true);
  }
  static JsonValue ClearObstacles(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    Status status = v.ClearObstacles();
    if (!status.ok()) return Failure(status.error().ToString());
    return Reply(true);
  }
  static JsonValue SetClearance(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const double clearance = a.Number("clearance", 0.0, kCoordinateLimit);
    if (!a.Finish()) return Fail(a);
    v.SetClearance(*character, clearance);
    return Reply(true);
  }
  static JsonValue RouteAround(Stage& v, CommandArgs& a) {
    // With an instance: its turning radius and clearance; without: the route's characters'.
    const int route = a.Integer("route", 0, static_cast<int>(v.routes_.size()) - 1);
    const Character* character = a.OptionalValue("instance") ? Instance(v, a) : nullptr;
    if (!a.Finish()) return Fail(a);
    const double radius = character ? character->locomotion.turn_radius : v.RoundingRadius(route);
    const double clearance = character ? character->locomotion.clearance : v.RouteClearance(route);
    Status status = v.RouteAround(route, radius, clearance);
    if (!status.ok()) return Failure(status.error().message);
    JsonValue reply = Reply(true);
    reply.Set("segments",
              static_cast<double>(v.routes_[static_cast<size_t>(route)].segments.size()));
    return reply;
  }
  static JsonValue GpuSkinCheck(Stage& v, CommandArgs& a);
  static JsonValue PlayCamera(Stage& v, CommandArgs& a);
  static JsonValue ScreenBounds(Stage& v, CommandArgs& a);
  static JsonValue JointWorld(Stage& v, CommandArgs& a) {
    Character* character = Instance(v, a);
    const int joint = character ? JointArg(v, a, "joint", *character) : -1;
    if (!a.Finish()) return Fail(a);
    PoseCharacter(*character, v.library_->models());
    JsonValue reply = Reply(true);
    JsonArray matrix;
    const glm::mat4& m = character->pose.models[static_cast<size_t>(joint)];
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) matrix.emplace_back(static_cast<double>(m[c][r]));
    }
    reply.Set("matrix", JsonValue(std::move(matrix)));
    return reply;
  }
};

JsonValue CommandTable::GpuSkinCheck(Stage& v, CommandArgs& a) {
  // GPU skinning (transform feedback of the real shader) against the core's CPU reference
  // skinning with every weight, for this instance's current pose.
  Character* character = Instance(v, a);
  if (!a.Finish()) return Fail(a);
  const LoadedModel& model = v.library_->models()[static_cast<size_t>(character->model)];
  PoseCharacter(*character, v.library_->models());
  std::vector<glm::vec3> gpu;
  std::vector<glm::vec4> gpu_tangents;
  if (!v.backend_->CaptureSkinnedPositions(model.gpu_mesh, character->pose.palette.data(), &gpu,
                                           &gpu_tangents)) {
    return Failure("gpuSkinCheck: the renderer cannot read skinned positions back");
  }
  const anim::Model& core = *model.model;
  std::vector<glm::vec3> cpu;
  std::vector<glm::vec4> cpu_tangents;
  size_t offset = 0;
  double max_error = 0.0;
  // Tangents: the angle-like distance between the unit directions, and sign disagreements.
  double max_tangent_error = 0.0;
  int tangent_sign_mismatches = 0;
  const anim::Span<const glm::mat4> joints(character->pose.models.data(),
                                           character->pose.models.size());
  for (int m = 0; m < core.mesh_count(); ++m) {
    const size_t count = core.mesh(m).vertices.size();
    cpu.resize(count);
    cpu_tangents.resize(count);
    anim::SkinningJob skin;
    skin.model = &core;
    skin.mesh_index = m;
    skin.joint_matrices = joints;
    skin.normalize_weights = true;
    skin.positions = anim::Span<glm::vec3>(cpu.data(), cpu.size());
    skin.tangents = anim::Span<glm::vec4>(cpu_tangents.data(), cpu_tangents.size());
    if (!skin.Run() || offset + count > gpu.size() || offset + count > gpu_tangents.size())
      return Failure("gpuSkinCheck: CPU skinning failed");
    const std::vector<anim::GpuVertex>& vertices = core.gpu().vertices;
    for (size_t i = 0; i < count; ++i) {
      max_error = std::max(max_error, static_cast<double>(glm::length(gpu[offset + i] - cpu[i])));
      if (vertices[offset + i].normal == glm::vec3(0.0f)) continue;  // on no triangle
      const glm::vec4& t = gpu_tangents[offset + i];
      const float length = glm::length(glm::vec3(t));
      const glm::vec3 direction = length > 0.0f ? glm::vec3(t) / length : glm::vec3(0.0f);
      max_tangent_error =
          std::max(max_tangent_error,
                   static_cast<double>(glm::length(direction - glm::vec3(cpu_tangents[i]))));
      tangent_sign_mismatches += (t.w < 0.0f) != (cpu_tangents[i].w < 0.0f);
    }
    offset += count;
  }
  const anim::SkinningError top4 = anim::MeasureGpuSkinningError(core, joints);
  JsonValue reply = Reply(true);
  reply.Set("vertices", static_cast<double>(gpu.size()));
  reply.Set("max_error", max_error);
  reply.Set("max_tangent_error", max_tangent_error);
  reply.Set("tangent_sign_mismatches", tangent_sign_mismatches);
  reply.Set("extent", static_cast<double>(glm::length(model.bind_max - model.bind_min)));
  reply.Set("top4_error", static_cast<double>(top4.distance));
  reply.Set("max_weights_per_vertex", core.source().max_weights_per_vertex());
  return reply;
}

JsonValue CommandTable::ScreenBounds(Stage& v, CommandArgs& a) {
  // The character's bind-pose box on screen, in framebuffer pixels [x0, y0, x1, y1].
  Character* character = Instance(v, a);
  if (!a.Finish()) return Fail(a);
  const LoadedModel& model = v.library_->models()[static_cast<size_t>(character->model)];
  const glm::mat4 view_projection = v.ViewProjection();
  const glm::mat4 root = character->RootMatrix();
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? model.bind_max.x : model.bind_min.x,
                           (i & 2) ? model.bind_max.y : model.bind_min.y,
                           (i & 4) ? model.bind_max.z : model.bind_min.z);
    const glm::vec4 clip = view_projection * root * glm::vec4(corner, 1.0f);
    if (clip.w <= 1e-6f) continue;
    const float x = (clip.x / clip.w * 0.5f + 0.5f) * static_cast<float>(v.viewport_.width);
    const float y = (0.5f - clip.y / clip.w * 0.5f) * static_cast<float>(v.viewport_.height);
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  }
  JsonValue reply = Reply(x1 > x0);
  reply.Set("rect", JsonValue(JsonArray{JsonValue(std::floor(x0)), JsonValue(std::floor(y0)),
                                        JsonValue(std::ceil(x1)), JsonValue(std::ceil(y1))}));
  return reply;
}

const CommandTable::Entry CommandTable::kEntries[] = {
    {"state", &CommandTable::State},
    {"clock", &CommandTable::Clock},
    {"stats", &CommandTable::Stats},
    {"loadQueued", &CommandTable::LoadQueued},
    {"reportError", &CommandTable::ReportError},
    {"sceneJson", &CommandTable::SceneJson},
    {"prepareScene", &CommandTable::PrepareScene},
    {"applyScene", &CommandTable::ApplyScene},
    {"cancelScene", &CommandTable::CancelScene},
    {"openScene", &CommandTable::OpenScene},
    {"openDemo", &CommandTable::OpenDemo},
    {"openLink", &CommandTable::OpenLink},
    {"openModel", &CommandTable::OpenModel},
    {"openLocation", &CommandTable::OpenLocation},
    {"shareLink", &CommandTable::ShareLink},
    {"decodeLink", &CommandTable::DecodeLink},
    {"setRoute", &CommandTable::SetRoute},
    {"getRoutes", &CommandTable::GetRoutes},
    {"sampleRoute", &CommandTable::SampleRoute},
    {"setCrowdSize", &CommandTable::SetCrowdSize},
    {"updateSteps", &CommandTable::UpdateSteps},
    {"groundAt", &CommandTable::GroundAt},
    {"screenAt", &CommandTable::ScreenAt},
    {"tool", &CommandTable::Tool},
    {"ui", &CommandTable::Ui},
    {"screenshot", &CommandTable::Screenshot},
    {"setSceneTime", &CommandTable::SetSceneTime},
    {"playScene", &CommandTable::PlayScene},
    {"pauseScene", &CommandTable::PlayScene},
    {"display", &CommandTable::Display},
    {"camera", &CommandTable::Camera},
    {"frame", &CommandTable::Frame},
    {"embed", &CommandTable::Embed},
    {"embedScrub", &CommandTable::EmbedScrub},
    {"removeModel", &CommandTable::RemoveModel},
    {"setSkin", &CommandTable::SetSkin},
    {"addInstance", &CommandTable::AddInstance},
    {"select", &CommandTable::Select},
    {"setAnimation", &CommandTable::SetAnimation},
    {"setTime", &CommandTable::SetTime},
    {"play", &CommandTable::Play},
    {"pause", &CommandTable::Play},
    {"setRate", &CommandTable::SetRate},
    {"setMode", &CommandTable::SetMode},
    {"step", &CommandTable::Step},
    {"setPlacement", &CommandTable::SetPlacement},
    {"attach", &CommandTable::Attach},
    {"assignRoute", &CommandTable::AssignRoute},
    {"goTo", &CommandTable::GoTo},
    {"setSpeed", &CommandTable::SetSpeed},
    {"setTurnRadius", &CommandTable::SetTurnRadius},
    {"gpuSkinCheck", &CommandTable::GpuSkinCheck},
    {"screenBounds", &CommandTable::ScreenBounds},
    {"jointWorld", &CommandTable::JointWorld},
    {"addObstacle", &CommandTable::AddObstacle},
    {"removeObstacle", &CommandTable::RemoveObstacle},
    {"moveObstacle", &CommandTable::MoveObstacle},
    {"clearObstacles", &CommandTable::ClearObstacles},
    {"setClearance", &CommandTable::SetClearance},
    {"routeAround", &CommandTable::RouteAround},
    {"exportGltf", &CommandTable::ExportGltf},
    {"setLight", &CommandTable::SetLight},
    {"setShading", &CommandTable::SetShading},
    {"playCamera", &CommandTable::PlayCamera},
    {"exportMd5", &CommandTable::ExportMd5},
};

// {"camera": NAME} follows a loaded .md5camera on the scene clock; "" goes back to the orbit
// camera.
JsonValue CommandTable::PlayCamera(Stage& v, CommandArgs& a) {
  const std::string name = a.String("camera", kMaxSceneNameLength);
  if (!a.Finish()) return Fail(a);
  const int index = name.empty() ? -1 : v.FindCamera(name);
  if (!name.empty() && index < 0) {
    std::string names;
    for (const CinematicCamera& camera : v.view_.cinematics) {
      names += (names.empty() ? "" : ", ") + camera.name;
    }
    a.Fail("camera",
           names.empty() ? std::string("\"\" (no camera is loaded)")
                         : "a loaded camera (" + names + ") or \"\" for the orbit camera",
           DescribeJson(JsonValue(name)));
    return Fail(a);
  }
  if (index < 0) {
    v.LeaveCinematicCamera();
  } else {
    v.PlayCamera(index);
  }
  return Reply(true);
}

JsonValue CommandTable::Dispatch(Stage& v, const JsonValue& command) {
  if (!command.is_object()) {
    return Failure("command: expected an object {\"cmd\": NAME, ...}, found " +
                   DescribeJson(command));
  }
  const JsonValue* name = command.Find("cmd");
  if (name == nullptr || !name->is_string()) {
    return Failure("command.cmd: expected a command name, found " +
                   (name ? DescribeJson(*name) : std::string("nothing (the field is missing)")));
  }
  for (const Entry& entry : kEntries) {
    if (name->as_string() == entry.name) {
      CommandArgs args(entry.name, command);
      return entry.handler(v, args);
    }
  }
  return Failure("command.cmd: expected a known command, found " + DescribeJson(*name));
}

JsonValue Stage::Call(const JsonValue& command) { return CommandTable::Dispatch(*this, command); }

std::vector<std::string> CommandNames() {
  std::vector<std::string> names;
  for (const auto& entry : CommandTable::kEntries) names.push_back(entry.name);
  return names;
}

}  // namespace md5stage::viewer
