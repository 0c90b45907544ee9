// The page's commands (window.md5stage -> md5stage_call) as a table of {name, handler}: each
// handler reads its typed fields through CommandArgs and calls the stage's public actions and
// queries, so a command does what the key or panel for it does.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <utility>

#include "core/material/decl_lexer.h"
#include "core/path/route_json.h"
#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"
#include "viewer/command_args.h"
#include "viewer/command_spec.h"
#include "viewer/construction_figure.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

namespace {
constexpr double kCoordinateLimit = 1e6;  // as in scenes (docs/scene-format.md)
constexpr size_t kMaxHotspots = 256;      // of one figure
#define MD5STAGE_MODES \
  { "loop", "once", "pingpong" }
}  // namespace

// The handlers: each reads its fields (CommandArgs records the first problem), checks them with
// Finish(), then acts. Per-character commands name their instance; none retargets the selection.
class CommandTable {
 public:
  using Handler = JsonValue (*)(Stage&, CommandArgs&);
  struct Entry {
    Handler handler;
    CommandSpec spec;
  };

  static JsonValue Dispatch(Stage& v, const JsonValue& command);
  static const Entry kEntries[];
  // A command of the page's stage hub, sent to a stage alone (natively, without a hub).
  static JsonValue HubOnly(Stage&, CommandArgs& a) {
    return Failure(a.name() + ": only the page's stage hub answers it");
  }

 private:
  // A thing the page names by its handle's text ("c7") or by its position in state()'s list: its
  // position now, or -1 with the failure recorded. A handle of a removed thing is refused; an
  // integer is a position from `lowest` (-1 where -1 means "none") to count - 1. `thing` is the
  // kind with its article ("an instance"), `things` its plural; with no `thing`, an empty list
  // is the integer range's own message.
  template <HandleKind Kind, typename PositionOf>
  static int Named(CommandArgs& args, const char* field, const char* thing, const char* things,
                   int count, int lowest, PositionOf position_of) {
    const JsonValue* value = args.OptionalValue(field);
    if (value != nullptr && value->is_string()) {
      if (const std::optional<Handle<Kind>> handle = ParseHandle<Kind>(value->as_string())) {
        const int position = position_of(*handle);
        if (position < 0) {
          args.Fail(field, std::string("the id of one of the scene's ") + things,
                    DescribeJson(*value) + " (removed, or never here)");
        }
        return position;
      }
    }
    if (count == 0 && lowest >= 0 && thing != nullptr) {
      args.Fail(field, std::string(thing) + " index (the scene has no " + things + ")",
                value ? DescribeJson(*value) : "nothing (the field is missing)");
      return -1;
    }
    const int index = args.Integer(field, lowest, count - 1);
    return args.ok() ? index : -1;
  }
  // The "instance" field: a character's handle or position; -1 with the failure recorded.
  static int Instance(const Stage& v, CommandArgs& args) {
    return Named<HandleKind::kCharacter>(args, "instance", "an instance", "characters",
                                         v.character_count(), 0,
                                         [&](CharacterId id) { return v.CharacterIndex(id); });
  }
  // A route field: a route's handle or position (from `lowest`: -1 for "none").
  static int RouteArg(const Stage& v, CommandArgs& args, const char* field, int lowest = 0) {
    return Named<HandleKind::kRoute>(args, field, nullptr, "routes",
                                     static_cast<int>(v.routes().size()), lowest,
                                     [&](RouteId id) { return v.RouteIndex(id); });
  }
  static const Character* CharacterOf(const Stage& v, int instance) {
    return instance >= 0 ? &v.characters()[static_cast<size_t>(instance)] : nullptr;
  }
  // A model by name ("walker"), or by its handle's text ("m2") when no model has that name.
  static int ModelArg(const Stage& v, CommandArgs& args, const char* field) {
    const std::string name = args.String(field, 256);
    if (!args.ok()) return -1;
    int model = v.library().FindModel(name);
    if (model < 0) {
      if (const std::optional<ModelId> id = ParseHandle<HandleKind::kModel>(name))
        model = v.library().IndexOf(*id);
    }
    if (model < 0) {
      std::string names;
      for (const LoadedModel& m : v.models()) names += (names.empty() ? "" : ", ") + m.name;
      args.Fail(
          field,
          names.empty() ? "a loaded model (none is loaded)" : "a loaded model (" + names + ")",
          DescribeJson(JsonValue(name)));
    }
    return model;
  }
  static int JointArg(const Stage& v, CommandArgs& args, const char* field, int instance) {
    const std::string name = args.String(field, 256);
    if (!args.ok()) return -1;
    const LoadedModel& model = v.ModelOf(*CharacterOf(v, instance));
    const int joint = model.model->skeleton().FindJoint(name);
    if (joint < 0) {
      args.Fail(field, "a joint of '" + model.name + "'", DescribeJson(JsonValue(name)));
    }
    return joint;
  }
  static PlayMode Mode(int index) { return static_cast<PlayMode>(index); }
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
    v.ReportError(message);
    return Reply(true);
  }
  static JsonValue SceneJson(Stage& v, CommandArgs& a) {
    return a.Finish() ? SceneToJson(v.CurrentScene()) : Fail(a);
  }
  static JsonValue PrepareScene(Stage& v, CommandArgs& a) {
    const JsonValue& scene = a.Value("scene");
    return a.Finish() ? v.PrepareScene(scene) : Fail(a);
  }
  // The opening protocol (scene_opener.h): each starts an opening and answers with its id;
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
  // An optional array field of URLs (`anims`, `materials`), at most `most` of them.
  static std::vector<std::string> UrlList(CommandArgs& a, const char* field, size_t most) {
    std::vector<std::string> urls;
    const JsonValue* list = a.OptionalValue(field);
    if (list == nullptr) return urls;
    if (!list->is_array() || list->as_array().size() > most) {
      a.Fail(field, "an array of at most " + std::to_string(most) + " URLs", DescribeJson(*list));
      return urls;
    }
    for (const JsonValue& url : list->as_array()) {
      if (!url.is_string() || url.as_string().size() > 4096) {
        a.Fail(field, "URLs of at most 4096 characters", DescribeJson(url));
        break;
      }
      urls.push_back(url.as_string());
    }
    return urls;
  }
  static JsonValue OpenModel(Stage& v, CommandArgs& a) {
    const std::string mesh = a.String("mesh", 4096);
    const std::vector<std::string> anims = UrlList(a, "anims", kMaxModelAnims);
    const std::vector<std::string> materials = UrlList(a, "materials", kMaxModelAnims);
    return a.Finish() ? Opened(v.OpenModel(mesh, anims, materials)) : Fail(a);
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
      v.ReportError(scene.error().ToString());
      return Failure(scene.error().ToString());
    }
    JsonValue reply = Reply(true);
    reply.Set("scene", SceneToJson(scene.value()));
    return reply;
  }
  static JsonValue SetRoute(Stage& v, CommandArgs& a) {
    const int count = static_cast<int>(v.routes().size());
    const int index =
        a.OptionalInteger("index", 0, std::min(count, static_cast<int>(kMaxSceneRoutes) - 1))
            .value_or(count);
    const JsonValue& route = a.Value("route");
    const std::string name = a.OptionalString("name", kMaxSceneNameLength).value_or("");
    if (!a.Finish()) return Fail(a);
    // The route as a route file holds it ({segments, closed}), or its segments alone (an array),
    // as md5stage.setRoute(index, segments) has always taken them.
    JsonValue wrapped;
    if (route.is_array()) wrapped = JsonValue(JsonObject{{"segments", route}});
    auto description =
        RouteDescriptionFromJson("setRoute.route", route.is_array() ? wrapped : route);
    if (!description.ok()) return Failure(description.error().ToString());
    Status status = v.SetRoute(index, std::move(description.value().segments),
                               description.value().closed, name);
    if (!status.ok()) return Failure(status.error().ToString());
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
    reply.Set("characters", v.character_count());
    return reply;
  }
  static JsonValue UpdateSteps(Stage& v, CommandArgs& a) {
    // The frame's engine update (locomotion, playback, poses, palettes) run `count` times in a
    // row, each timed: the benchmark's update medians without waiting for frames, which software
    // WebGL draws slowly at thousands of characters. The scene clock advances by count x dt.
    // crowd_ms: the part of each update that was the crowd's steps (a scene with `avoidance`),
    // made first and timed apart.
    const int count = a.OptionalInteger("count", 1, 1000).value_or(300);
    const double dt = a.OptionalNumber("dt", 0.0, 0.25).value_or(1.0 / 60.0);
    if (!a.Finish()) return Fail(a);
    using Clock = std::chrono::steady_clock;
    const auto ms = [](Clock::time_point from, Clock::time_point to) {
      return std::chrono::duration<double, std::milli>(to - from).count();
    };
    JsonValue times = JsonValue::MakeArray();
    JsonValue crowd_times = JsonValue::MakeArray();
    for (int i = 0; i < count; ++i) {
      const Clock::time_point start = Clock::now();
      v.StepCrowdAhead(dt);
      const Clock::time_point stepped = Clock::now();
      v.StepEngine(dt);
      const Clock::time_point end = Clock::now();
      times.Append(ms(start, end));
      crowd_times.Append(ms(start, stepped));
    }
    JsonValue reply = Reply(true);
    reply.Set("update_ms", std::move(times));
    reply.Set("crowd_ms", std::move(crowd_times));
    reply.Set("characters", v.character_count());
    return reply;
  }
  static JsonValue Stats(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    // Cheap (no per-instance data): what benchmarks poll every frame.
    JsonValue stats = Reply(true);
    stats.Set("frame", static_cast<double>(v.frame()));
    v.AddFrameStats(stats);
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
  static JsonValue RemoveRoute(Stage& v, CommandArgs& a) {
    const int route = RouteArg(v, a, "route");
    if (!a.Finish()) return Fail(a);
    const Status status = v.RemoveRoute(route);
    return status.ok() ? Reply(true) : Failure(status.error().message);
  }
  static JsonValue SampleRoute(Stage& v, CommandArgs& a) {
    const int route = RouteArg(v, a, "route");
    const double distance = a.Number("distance", -1e15, 1e15);
    if (!a.Finish()) return Fail(a);
    const ViewerRoute& sampled = v.routes()[static_cast<size_t>(route)];
    if (!sampled.route) {
      return Failure("sampleRoute.route: route " + std::to_string(route) + " is not valid");
    }
    const Pose2 pose = sampled.route->Sample(distance);
    JsonValue reply = Reply(true);
    reply.Set("position", JsonValue(JsonArray{pose.position.x, pose.position.y}));
    reply.Set("heading", pose.heading);
    return reply;
  }
  static JsonValue Tool(Stage& v, CommandArgs& a) {
    const int tool = a.Choice("tool", {"camera", "goto", "route", "obstacle"});
    const std::optional<int> shape = a.OptionalChoice("shape", {"circle", "polygon"});
    const std::optional<int> route =
        a.OptionalValue("route") ? std::optional<int>(RouteArg(v, a, "route", -1)) : std::nullopt;
    const std::optional<bool> round = a.OptionalBool("round");
    const std::optional<bool> close = a.OptionalBool("close");
    if (!a.Finish()) return Fail(a);
    // In the order a person would: the tool, its shape, the polygon closed, the route taken up,
    // its rounding, its loop.
    v.SetTool(static_cast<ui::Tool>(tool));
    if (shape) v.SetObstacleShape(*shape == 1);
    if (close.value_or(false) && tool == static_cast<int>(ui::Tool::kObstacle)) v.ClosePolygon();
    if (route) v.EditRoute(*route);
    if (round) v.SetRoundCorners(*round);
    if (close.value_or(false) && tool == static_cast<int>(ui::Tool::kRoute)) v.ToggleRouteLoop();
    JsonValue reply = Reply(true);
    reply.Set("edited_route", v.RouteIndex(v.route_tool().edited_route()));
    reply.Set("anchors", static_cast<double>(v.route_tool().editor().anchor_count()));
    return reply;
  }
  // The route pen's and the obstacle tool's edits, each on its own (`tool` takes them too).
  static JsonValue EditRoute(Stage& v, CommandArgs& a) {
    const int route = RouteArg(v, a, "route", -1);
    if (!a.Finish()) return Fail(a);
    v.EditRoute(route);
    JsonValue reply = Reply(true);
    reply.Set("edited_route", v.RouteIndex(v.route_tool().edited_route()));
    return reply;
  }
  static JsonValue RouteEdit(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    if (a.name() == "toggleRouteLoop") {
      v.ToggleRouteLoop();
    } else {
      v.DeleteRoutePoint();
    }
    JsonValue reply = Reply(true);
    reply.Set("anchors", static_cast<double>(v.route_tool().editor().anchor_count()));
    reply.Set("closed", v.route_tool().editor().closed());
    return reply;
  }
  static JsonValue SetRoundCorners(Stage& v, CommandArgs& a) {
    const bool round = a.Bool("round");
    if (!a.Finish()) return Fail(a);
    v.SetRoundCorners(round);
    return Reply(true);
  }
  static JsonValue SetObstacleShape(Stage& v, CommandArgs& a) {
    const int shape = a.Choice("shape", {"circle", "polygon"});
    if (!a.Finish()) return Fail(a);
    v.SetObstacleShape(shape == 1);
    return Reply(true);
  }
  static JsonValue ClosePolygon(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.ClosePolygon();
    JsonValue reply = Reply(true);
    reply.Set("obstacles", static_cast<double>(v.obstacles().size()));
    return reply;
  }
  // What only the page does, asked by the panels: its file picker, the clipboard, the gallery.
  static JsonValue OpenFiles(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.OpenFilePicker();
    return Reply(true);
  }
  static JsonValue PageAction(Stage& v, CommandArgs& a) {
    const std::string action = a.String("action", 256);
    const bool known = action == "copyLink" || action == "copyEmbed" || action == "copyFigure" ||
                       action == "downloadPoster" || action.rfind("demo:", 0) == 0;
    if (a.ok() && !known) {
      a.Fail("action", "copyLink, copyEmbed, copyFigure, downloadPoster or demo:NAME",
             DescribeJson(JsonValue(action)));
    }
    if (!a.Finish()) return Fail(a);
    v.RunPageAction(action);
    return Reply(true);
  }
  // What the Scene panel's "Screenshot" does: the frame as a PNG download.
  static JsonValue Screenshot(Stage& v, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
    v.Screenshot();
    return Reply(true);
  }
  static JsonValue Follow(Stage& v, CommandArgs& a) {
    const bool on = a.Bool("on");
    if (!a.Finish()) return Fail(a);
    v.SetFollowSelected(on);
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
    DisplayToggles display = v.display();
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
    ShadingOptions shading = v.shading();
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
    ShadingOptions shading = v.shading();
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
    OrbitCamera camera = v.camera();
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
    if (a.OptionalValue("instance") != nullptr) instance = Instance(v, a);
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
    v.ApplyEmbedOptions(options, reduced_motion, apply);
    return EmbedReplyJson(options);
  }
  static JsonValue EmbedScrub(Stage& v, CommandArgs& a) {
    const bool active = a.Bool("active");
    if (!a.Finish()) return Fail(a);
    v.SetEmbedScrubbing(active);
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
      const std::vector<std::string> skins = v.library().SkinsFor(model);
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
    const int instance = Instance(v, a);
    int joint = -1;
    if (instance >= 0 && a.OptionalValue("joint") != nullptr)
      joint = JointArg(v, a, "joint", instance);
    if (!a.Finish()) return Fail(a);
    v.Select(instance, joint);
    return Reply(true);
  }
  // An animation of the character's model by name, or null (`null_means` says what for): its
  // index, or -1 for null or with the failure recorded.
  static int AnimationArg(const Stage& v, CommandArgs& a, const char* field, int instance,
                          const char* null_means) {
    if (instance < 0) return -1;
    const JsonValue& name = a.Value(field);
    const LoadedModel& model = v.ModelOf(*CharacterOf(v, instance));
    int animation = -1;
    if (name.is_string()) {
      animation = model.FindAnimation(name.as_string());
      if (animation < 0) {
        std::string names;
        for (const std::string& n : model.animation_names) names += (names.empty() ? "" : ", ") + n;
        a.Fail(field,
               "an animation of '" + model.name + "' (" + (names.empty() ? "none" : names) +
                   ") or null for " + null_means,
               DescribeJson(name));
      }
    } else if (!name.is_null() && a.ok()) {
      a.Fail(field, std::string("an animation name, or null for ") + null_means,
             DescribeJson(name));
    }
    return animation;
  }
  static JsonValue SetAnimation(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int animation = AnimationArg(v, a, "name", instance, "the bind pose");
    const std::optional<double> crossfade = a.OptionalNumber("crossfade", 0.0, 60.0);
    if (!a.Finish()) return Fail(a);
    if (crossfade) v.SetCrossfade(instance, static_cast<float>(*crossfade));
    v.SetAnimation(instance, animation);
    return Reply(true);
  }
  // How long a change of clip blends from the one before (the Animation panel's "crossfade").
  static JsonValue SetCrossfade(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double seconds = a.Number("crossfade", 0.0, 60.0);
    if (!a.Finish()) return Fail(a);
    v.SetCrossfade(instance, static_cast<float>(seconds));
    return Reply(true);
  }
  // The clip it walks with (null: none chosen, so "walk" when it next walks).
  static JsonValue SetLocomotionAnimation(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int animation = AnimationArg(v, a, "name", instance, "the model's \"walk\"");
    if (!a.Finish()) return Fail(a);
    v.SetLocomotionAnimation(instance, animation);
    return Reply(true);
  }
  static JsonValue SetTime(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double time = a.Number("time", 0.0, kMaxSceneTime);
    if (!a.Finish()) return Fail(a);
    v.SetClipTime(instance, time);
    return Reply(true);
  }
  static JsonValue Play(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    if (!a.Finish()) return Fail(a);
    if (a.name() == "play") {
      v.Play(instance);
    } else {
      v.Pause(instance);
    }
    return Reply(true);
  }
  static JsonValue SetRate(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double rate = a.Number("rate", -kMaxRate, kMaxRate);
    if (!a.Finish()) return Fail(a);
    v.SetRate(instance, static_cast<float>(rate));
    return Reply(true);
  }
  static JsonValue SetMode(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int mode = a.Choice("mode", MD5STAGE_MODES);
    if (!a.Finish()) return Fail(a);
    v.SetPlayMode(instance, Mode(mode));
    return Reply(true);
  }
  static JsonValue Step(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int frames = a.OptionalInteger("frames", -1000000, 1000000).value_or(1);
    if (!a.Finish()) return Fail(a);
    v.StepFrames(instance, frames);
    return Reply(true);
  }
  static JsonValue SetPlacement(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const std::optional<glm::vec3> at = a.OptionalVec3("position", kCoordinateLimit);
    const std::optional<double> heading = a.OptionalNumber("heading", -1e3, 1e3);
    if (!a.Finish()) return Fail(a);
    v.SetPlacement(instance, at ? std::optional<glm::vec2>(glm::vec2(*at)) : std::nullopt,
                   heading ? std::optional<float>(static_cast<float>(*heading)) : std::nullopt);
    return Reply(true);
  }
  static JsonValue Attach(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int model = ModelArg(v, a, "model");
    const int joint = instance >= 0 ? JointArg(v, a, "joint", instance) : -1;
    const glm::vec3 offset = a.OptionalVec3("offset", kCoordinateLimit).value_or(glm::vec3(0.0f));
    const glm::vec3 rotation = a.OptionalVec3("rotation", 1e5).value_or(glm::vec3(0.0f));
    if (!a.Finish()) return Fail(a);
    v.Attach(instance, model, joint, offset, rotation);
    return Reply(true);
  }
  // The "attachment" field: the position of one of the character's attachments, or -1.
  static int AttachmentArg(const Stage& v, CommandArgs& a, int instance) {
    if (instance < 0) return -1;
    const int count = static_cast<int>(CharacterOf(v, instance)->attachments.size());
    if (count == 0) {
      a.Fail("attachment", "an attachment index (the character carries nothing)",
             a.OptionalValue("attachment") ? DescribeJson(*a.OptionalValue("attachment"))
                                           : "nothing (the field is missing)");
      return -1;
    }
    return a.Integer("attachment", 0, count - 1);
  }
  static JsonValue EditAttachment(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int attachment = AttachmentArg(v, a, instance);
    const std::optional<glm::vec3> offset = a.OptionalVec3("offset", kCoordinateLimit);
    const std::optional<glm::vec3> rotation = a.OptionalVec3("rotation", 1e5);
    if (!a.Finish()) return Fail(a);
    const Attachment& now = CharacterOf(v, instance)->attachments[static_cast<size_t>(attachment)];
    v.EditAttachment(instance, attachment, offset.value_or(now.offset),
                     rotation.value_or(now.rotation_degrees));
    return Reply(true);
  }
  static JsonValue Detach(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int attachment = AttachmentArg(v, a, instance);
    if (!a.Finish()) return Fail(a);
    v.Detach(instance, attachment);
    return Reply(true);
  }
  static JsonValue AssignRoute(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int route = RouteArg(v, a, "route", -1);
    const int mode = a.OptionalChoice("mode", MD5STAGE_MODES).value_or(0);
    if (!a.Finish()) return Fail(a);
    Status status = v.AssignRoute(instance, route, Mode(mode));
    if (!status.ok()) return Failure(status.error().ToString());
    return Reply(true);
  }
  static JsonValue GoTo(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double x = a.Number("x", -kCoordinateLimit, kCoordinateLimit);
    const double y = a.Number("y", -kCoordinateLimit, kCoordinateLimit);
    const std::optional<double> heading = a.OptionalNumber("heading", -1e3, 1e3);
    if (!a.Finish()) return Fail(a);
    Status status = v.GoTo(instance, glm::dvec2(x, y), heading);
    if (!status.ok()) return Failure(status.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("path", v.PathJson(*CharacterOf(v, instance)));
    return reply;
  }
  static JsonValue SetPlanBudget(Stage& v, CommandArgs& a) {
    const std::optional<double> ms = a.OptionalNumber("ms", 0.0, kMaxPlanBudgetMs);
    if (!a.Finish()) return Fail(a);
    Status status = v.SetPlanBudget(ms);
    return status.ok() ? Reply(true) : Failure(status.error().message);
  }
  // The construction view's origin, as its handles drag it: the character goes to its target
  // again from this pose (the heading defaults to the figure's current one).
  static JsonValue SetConstructionOrigin(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double x = a.Number("x", -kCoordinateLimit, kCoordinateLimit);
    const double y = a.Number("y", -kCoordinateLimit, kCoordinateLimit);
    const std::optional<double> heading = a.OptionalNumber("heading", -1e3, 1e3);
    if (!a.Finish()) return Fail(a);
    const Locomotion& locomotion = CharacterOf(v, instance)->locomotion;
    if (!locomotion.enabled || !locomotion.has_target) {
      a.Fail("instance", "a character going to a target (send goTo first)",
             std::to_string(instance) + ", which has none");
      return Fail(a);
    }
    const double current = locomotion.follower.approach().start.heading;
    Status status =
        v.SetConstructionOrigin(instance, Pose2{glm::dvec2(x, y), heading.value_or(current)});
    if (!status.ok()) return Failure("setConstructionOrigin: " + status.error().message);
    JsonValue reply = Reply(true);
    reply.Set("path", v.PathJson(*CharacterOf(v, instance)));
    return reply;
  }
  static JsonValue SetSpeed(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double speed = a.Number("speed", 0.0, kMaxSpeed);
    if (!a.Finish()) return Fail(a);
    v.SetSpeed(instance, speed);
    return Reply(true);
  }
  static JsonValue SetTurnRadius(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const double radius = a.Number("radius", 0.0, kMaxSpeed);
    if (!a.Finish()) return Fail(a);
    v.SetTurnRadius(instance, radius);
    return Reply(true);
  }
  // ---- obstacles (refused edits change nothing; walkers replan after each accepted one) ----
  static JsonValue AddObstacle(Stage& v, CommandArgs& a) {
    const JsonValue& obstacle = a.Value("obstacle");
    if (!a.Finish()) return Fail(a);
    if (v.obstacles().size() >= kMaxObstacles) {
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
    Status status = v.AddObstacle(parsed.value().obstacles().front());
    if (!status.ok()) return Failure(status.error().ToString());
    JsonValue reply = Reply(true);
    reply.Set("index", static_cast<int>(v.obstacles().size()) - 1);
    return reply;
  }
  // The "index" field of an obstacle edit, or -1 (with the failure recorded in `a`) when the
  // scene has no obstacles to name.
  static int ObstacleIndex(const Stage& v, CommandArgs& a) {
    return Named<HandleKind::kObstacle>(a, "index", "an obstacle", "obstacles",
                                        static_cast<int>(v.obstacles().size()), 0,
                                        [&](ObstacleId id) { return v.ObstacleIndex(id); });
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
    Status status = v.MoveObstacle(index, glm::dvec2(dx, dy));
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
    const int instance = Instance(v, a);
    const double clearance = a.Number("clearance", 0.0, kCoordinateLimit);
    if (!a.Finish()) return Fail(a);
    v.SetClearance(instance, clearance);
    return Reply(true);
  }
  static JsonValue RouteAround(Stage& v, CommandArgs& a) {
    // With an instance: its turning radius and clearance; without: the route's characters'.
    const int route = RouteArg(v, a, "route");
    const std::optional<int> instance =
        a.OptionalValue("instance") ? std::optional<int>(Instance(v, a)) : std::nullopt;
    if (!a.Finish()) return Fail(a);
    Status status = v.RouteAround(route, instance);
    if (!status.ok()) return Failure(status.error().message);
    JsonValue reply = Reply(true);
    reply.Set("segments",
              static_cast<double>(v.routes()[static_cast<size_t>(route)].segments.size()));
    return reply;
  }
  // GPU skinning (transform feedback of the real shader) against the core's CPU reference
  // skinning with every weight, for this instance's current pose.
  static JsonValue GpuSkinCheck(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    return a.Finish() ? v.GpuSkinCheck(instance) : Fail(a);
  }
  static JsonValue PlayCamera(Stage& v, CommandArgs& a);
  // The table itself, for the page to make its functions from.
  static JsonValue Commands(Stage&, CommandArgs& a) {
    if (!a.Finish()) return Fail(a);
#ifdef MD5STAGE_LEAN_COMMAND_TABLE
    // The figures' module holds the names alone (see MD5STAGE_COMMAND).
    JsonArray names;
    for (const std::string& name : CommandNames()) names.emplace_back(name);
    JsonValue reply = JsonValue::MakeObject();
    reply.Set("names", JsonValue(std::move(names)));
    return reply;
#else
    return CommandSpecsJson();
#endif
  }
  // The character's bind-pose box on screen, in framebuffer pixels [x0, y0, x1, y1].
  static JsonValue ScreenBounds(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    if (!a.Finish()) return Fail(a);
    glm::vec4 rect;
    const bool shown = v.ScreenBounds(instance, &rect);
    JsonValue reply = Reply(shown);
    reply.Set("rect",
              JsonValue(JsonArray{
                  JsonValue(static_cast<double>(rect.x)), JsonValue(static_cast<double>(rect.y)),
                  JsonValue(static_cast<double>(rect.z)), JsonValue(static_cast<double>(rect.w))}));
    return reply;
  }
  // A character's clip as a controls bar shows it, without the whole state: the clips its model
  // has, the one playing (null: none), where it is, how long it is, whether and how fast it plays.
  static JsonValue Clip(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    if (!a.Finish()) return Fail(a);
    const Character& character = *CharacterOf(v, instance);
    const LoadedModel& model = v.ModelOf(character);
    const int clip = character.playback.animation;
    JsonArray names;
    for (const std::string& name : model.animation_names) names.emplace_back(name);
    JsonValue reply = Reply(true);
    reply.Set("animations", JsonValue(std::move(names)));
    reply.Set("animation", clip >= 0 ? JsonValue(model.animation_names[static_cast<size_t>(clip)])
                                     : JsonValue());
    reply.Set("time", character.playback.time);
    reply.Set("duration", clip >= 0 ? static_cast<double>(
                                          model.animations[static_cast<size_t>(clip)]->duration())
                                    : 0.0);
    reply.Set("playing", character.playback.playing && !character.playback.finished);
    reply.Set("rate", static_cast<double>(character.playback.rate));
    return reply;
  }
  // A figure's hotspot from a command's fields: one of a character's joints (joint, instance),
  // a world point (point), or a point of the turning-radius construction (its label's name, the
  // chosen side's first), which must be shown now.
  static Stage::Hotspot HotspotArg(Stage& v, CommandArgs& a) {
    Stage::Hotspot spot;
    const std::optional<glm::vec3> point = a.OptionalVec3("point", kCoordinateLimit);
    const std::optional<std::string> construction = a.OptionalString("construction", 32);
    const bool joint_given = a.OptionalValue("joint") != nullptr;
    const JsonValue* surface = a.OptionalValue("surface");
    if (joint_given + point.has_value() + construction.has_value() + (surface != nullptr) != 1 &&
        a.ok()) {
      a.Fail("joint", "one of joint, point, construction or surface", "none or several");
    }
    const int instance = (joint_given || surface != nullptr) && a.ok() ? Instance(v, a) : -1;
    spot.joint = instance >= 0 && joint_given ? JointArg(v, a, "joint", instance) : -1;
    if (instance >= 0 && surface != nullptr) {
      spot.surface = SurfaceArg(v.ModelOf(*CharacterOf(v, instance)), *surface, a);
    }
    if (spot.joint >= 0 || spot.surface) spot.character = CharacterOf(v, instance)->id;
    spot.point = point.value_or(glm::vec3(0.0f));
    if (construction && a.ok()) {
      const ConstructionFigure& figure = v.construction_figure();
      std::string names;
      bool found = false;
      const size_t shown = figure.shown ? figure.labels.size() : 0;
      for (size_t i = 0; i < shown; ++i) {
        names += (names.empty() ? "" : ", ") + figure.labels[i].name;
        found = found || figure.labels[i].name == *construction;
      }
      if (!found) {
        a.Fail("construction",
               "a point of the construction shown (" + (names.empty() ? "none" : names) + ")",
               DescribeJson(JsonValue(*construction)));
      }
      spot.construction = *construction;
    }
    return spot;
  }
  // `surface`: [part, triangle, b0, b1, b2], model-viewer's data-surface for an MD5 mesh: the
  // triangle of that mesh part and barycentric weights (>= 0, not all 0; scaled to sum to 1).
  static std::optional<Stage::SurfacePoint> SurfaceArg(const LoadedModel& model,
                                                       const JsonValue& value, CommandArgs& a) {
    const anim::GpuSkinData& gpu = model.model->gpu();
    const auto number = [&](size_t i) {
      const JsonArray& items = value.as_array();
      return items[i].is_number() ? items[i].as_number() : std::nan("");
    };
    const bool five = value.is_array() && value.as_array().size() == 5;
    const double part = five ? number(0) : -1, triangle = five ? number(1) : -1;
    const glm::dvec3 b = five ? glm::dvec3(number(2), number(3), number(4)) : glm::dvec3(-1);
    const bool whole = part == std::floor(part) && triangle == std::floor(triangle);
    const bool in_part = whole && part >= 0 && part < static_cast<double>(gpu.submeshes.size()) &&
                         triangle >= 0 &&
                         triangle < gpu.submeshes[static_cast<size_t>(part)].index_count / 3;
    const double sum = b.x + b.y + b.z;
    if (!in_part || !(b.x >= 0 && b.y >= 0 && b.z >= 0) || !(sum > 0) || !std::isfinite(sum)) {
      a.Fail("surface",
             "[part, triangle, b0, b1, b2]: a triangle of the model's " +
                 std::to_string(gpu.submeshes.size()) +
                 " mesh parts and three weights >= 0, not all 0",
             DescribeJson(value));
      return std::nullopt;
    }
    const anim::GpuSubmesh& mesh = gpu.submeshes[static_cast<size_t>(part)];
    Stage::SurfacePoint surface;
    for (int k = 0; k < 3; ++k) {
      surface.vertices[k] = gpu.indices[mesh.first_index + 3 * static_cast<uint32_t>(triangle) + k];
    }
    surface.weights = glm::vec3(b / sum);
    return surface;
  }
  // Where a hotspot shows now. The reply: the world point, its framebuffer pixel (null behind
  // the camera) and whether it is seen.
  static JsonValue Locate(Stage& v, CommandArgs& a) {
    const Stage::Hotspot spot = HotspotArg(v, a);
    if (!a.Finish()) return Fail(a);
    const int instance = spot.joint >= 0 || spot.surface ? v.CharacterIndex(spot.character) : -1;
    // A joint is posed now (a command may have moved its character since the last frame).
    if (instance >= 0) v.JointWorld(instance, std::max(spot.joint, 0));
    glm::vec3 world;
    glm::dvec2 pixel(0.0);
    const int flags = v.PlaceHotspot(spot, &world, &pixel);
    JsonValue reply = Reply(true);
    reply.Set("world", JsonValue(JsonArray{JsonValue(static_cast<double>(world.x)),
                                           JsonValue(static_cast<double>(world.y)),
                                           JsonValue(static_cast<double>(world.z))}));
    reply.Set("pixel", flags & Stage::kHotspotInFront ? JsonValue(JsonArray{pixel.x, pixel.y})
                                                      : JsonValue());
    reply.Set("visible", (flags & Stage::kHotspotSeen) != 0);
    return reply;
  }
  // A figure's hotspots, placed every frame after this (Stage::PlaceHotspots; the page reads
  // them without a command): `spots` as locate takes one each. A spot naming nothing is kept
  // (never shown) and its problem is in `problems`, null for the others.
  static JsonValue SetHotspots(Stage& v, CommandArgs& a) {
    const JsonValue& spots = a.Value("spots");
    if (a.ok() && (!spots.is_array() || spots.as_array().size() > kMaxHotspots)) {
      a.Fail("spots", "an array of at most " + std::to_string(kMaxHotspots) + " hotspots",
             DescribeJson(spots));
    }
    if (!a.Finish()) return Fail(a);
    std::vector<Stage::Hotspot> hotspots;
    JsonArray problems;
    for (const JsonValue& item : spots.as_array()) {
      const std::string name = "setHotspots.spots[" + std::to_string(hotspots.size()) + "]";
      Stage::Hotspot spot;
      std::string problem;
      if (item.is_object()) {
        CommandArgs spot_args(name, item);
        spot = HotspotArg(v, spot_args);
        if (!spot_args.Finish()) problem = spot_args.error();
      } else {
        problem = name + ": expected an object, found " + DescribeJson(item);
      }
      if (!problem.empty()) {
        spot = Stage::Hotspot();
        spot.names_something = false;
      }
      hotspots.push_back(std::move(spot));
      problems.push_back(problem.empty() ? JsonValue() : JsonValue(problem));
    }
    v.SetHotspots(std::move(hotspots));
    JsonValue reply = Reply(true);
    reply.Set("problems", JsonValue(std::move(problems)));
    return reply;
  }
  static JsonValue JointWorld(Stage& v, CommandArgs& a) {
    const int instance = Instance(v, a);
    const int joint = instance >= 0 ? JointArg(v, a, "joint", instance) : -1;
    if (!a.Finish()) return Fail(a);
    const glm::mat4 m = v.JointWorld(instance, joint);
    JsonValue reply = Reply(true);
    JsonArray matrix;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) matrix.emplace_back(static_cast<double>(m[c][r]));
    }
    reply.Set("matrix", JsonValue(std::move(matrix)));
    return reply;
  }
};

namespace {
// Argument declarations, in the order the page's positional functions take them: constant data
// (CommandArg is a literal type), no code.
[[maybe_unused]] constexpr CommandArg NumArg(const char* name, bool required = true) {
  return {name, ArgType::kNumber, required, {}};
}
[[maybe_unused]] constexpr CommandArg IntArg(const char* name, bool required = true) {
  return {name, ArgType::kInteger, required, {}};
}
[[maybe_unused]] constexpr CommandArg StrArg(const char* name, bool required = true) {
  return {name, ArgType::kString, required, {}};
}
[[maybe_unused]] constexpr CommandArg BoolArg(const char* name, bool required = true) {
  return {name, ArgType::kBoolean, required, {}};
}
[[maybe_unused]] constexpr CommandArg Vec3Arg(const char* name, bool required = true) {
  return {name, ArgType::kVec3, required, {}};
}
[[maybe_unused]] constexpr CommandArg JsonArg(const char* name, bool required = true) {
  return {name, ArgType::kJson, required, {}};
}
[[maybe_unused]] constexpr CommandArg CharacterArg(bool required = true) {
  return {"instance", ArgType::kCharacter, required, {}};
}
[[maybe_unused]] constexpr CommandArg RouteRefArg(const char* name = "route") {
  return {name, ArgType::kRoute, true, {}};
}
[[maybe_unused]] constexpr CommandArg ObstacleRefArg() {
  return {"index", ArgType::kObstacle, true, {}};
}
[[maybe_unused]] constexpr CommandArg ModelRefArg() { return {"model", ArgType::kModel, true, {}}; }
[[maybe_unused]] constexpr CommandArg JointNameArg(bool required = true) {
  return {"joint", ArgType::kJoint, required, {}};
}
[[maybe_unused]] constexpr bool kOptional = false;
constexpr bool kInternal = false;
}  // namespace

// Each entry's spec. The figures' lean module dispatches by name alone and answers `commands`
// with the names only: the argument declarations and summaries (for the TypeScript declaration,
// made natively, and the viewer's page functions) would be bytes before a documentation page's
// first picture.
#ifdef MD5STAGE_LEAN_COMMAND_TABLE
#define MD5STAGE_COMMAND(name, is_public, style, summary, ...) \
  { name, {}, is_public, style, "" }
#else
#define MD5STAGE_COMMAND(name, is_public, style, summary, ...) \
  { name, {__VA_ARGS__}, is_public, style, summary }
#endif

// The table: {handler, MD5STAGE_COMMAND(name, public, style, summary, args...)}, grouped as the
// page's API is.
const CommandTable::Entry CommandTable::kEntries[] = {
    // ---- the whole stage ----
    {&CommandTable::State, MD5STAGE_COMMAND("state", true, ArgStyle::kPositional,
                                            "Everything the stage shows and does, as JSON.")},
    {&CommandTable::Clock,
     MD5STAGE_COMMAND("clock", true, ArgStyle::kPositional,
                      "The scene clock: time, playing, finished, end and repeats.")},
    {&CommandTable::Stats,
     MD5STAGE_COMMAND("stats", true, ArgStyle::kPositional,
                      "Frame statistics: update and render ms, draw calls, instances, culled.")},
    {&CommandTable::LoadQueued, MD5STAGE_COMMAND("loadQueued", kInternal, ArgStyle::kPositional,
                                                 "Loads the files the page queued as one batch.")},
    {&CommandTable::ReportError,
     MD5STAGE_COMMAND("reportError", kInternal, ArgStyle::kPositional,
                      "A message from the page for the status line.", StrArg("message"))},
    {&CommandTable::SceneJson, MD5STAGE_COMMAND("sceneJson", true, ArgStyle::kPositional,
                                                "The open scene in the scene format.")},
    {&CommandTable::PrepareScene,
     MD5STAGE_COMMAND("prepareScene", kInternal, ArgStyle::kPositional,
                      "Validates a scene and lists the files it needs.", JsonArg("scene"))},
    {&CommandTable::ApplyScene,
     MD5STAGE_COMMAND("applyScene", kInternal, ArgStyle::kPositional,
                      "Applies the prepared scene once its files are loaded.")},
    {&CommandTable::CancelScene, MD5STAGE_COMMAND("cancelScene", kInternal, ArgStyle::kPositional,
                                                  "Drops the prepared scene.")},
    {&CommandTable::OpenScene,
     MD5STAGE_COMMAND("openScene", true, ArgStyle::kPositional,
                      "Opens a scene; the sceneOpened event ends it.", JsonArg("scene"))},
    {&CommandTable::OpenDemo,
     MD5STAGE_COMMAND("openDemo", true, ArgStyle::kPositional,
                      "Opens a demo scene by name (assets/scenes/NAME.json).", StrArg("name"))},
    {&CommandTable::OpenLink, MD5STAGE_COMMAND("openLink", true, ArgStyle::kPositional,
                                               "Opens a share link's payload.", StrArg("payload"))},
    {&CommandTable::OpenModel,
     MD5STAGE_COMMAND("openModel", true, ArgStyle::kPositional,
                      "Opens a model by URL, with its animations and material files.",
                      StrArg("mesh"), JsonArg("anims", kOptional),
                      JsonArg("materials", kOptional))},
    {&CommandTable::OpenLocation,
     MD5STAGE_COMMAND("openLocation", kInternal, ArgStyle::kPositional,
                      "Opens what a page URL asks for.", StrArg("query", kOptional),
                      StrArg("fragment", kOptional))},
    {&CommandTable::ShareLink, MD5STAGE_COMMAND("shareLink", kInternal, ArgStyle::kPositional,
                                                "The open scene as a share link's payload.")},
    {&CommandTable::DecodeLink,
     MD5STAGE_COMMAND("decodeLink", true, ArgStyle::kPositional,
                      "The scene a share link's payload holds.", StrArg("payload"))},
    // ---- routes, tools, view ----
    {&CommandTable::SetRoute,
     MD5STAGE_COMMAND("setRoute", true, ArgStyle::kPositional,
                      "Sets the route at a position (the count: a new one).",
                      IntArg("index", kOptional), JsonArg("route"), StrArg("name", kOptional))},
    {&CommandTable::GetRoutes,
     MD5STAGE_COMMAND("getRoutes", true, ArgStyle::kPositional, "The routes with their checks.")},
    {&CommandTable::SampleRoute,
     MD5STAGE_COMMAND("sampleRoute", true, ArgStyle::kPositional,
                      "The pose at a distance along a route.", RouteRefArg(), NumArg("distance"))},
    {&CommandTable::RemoveRoute,
     MD5STAGE_COMMAND("removeRoute", true, ArgStyle::kPositional,
                      "Removes a route; its walkers stop.", RouteRefArg())},
    {&CommandTable::Follow,
     MD5STAGE_COMMAND("follow", true, ArgStyle::kPositional,
                      "Whether the camera follows the selected character.", BoolArg("on"))},
    {&CommandTable::SetCrowdSize,
     MD5STAGE_COMMAND("setCrowdSize", true, ArgStyle::kPositional,
                      "Grows or shrinks the crowd by cloning the scene's characters.",
                      IntArg("count"))},
    {&CommandTable::UpdateSteps,
     MD5STAGE_COMMAND("updateSteps", kInternal, ArgStyle::kPositional,
                      "Runs the engine's update for a number of fixed steps (benchmarks).",
                      IntArg("count", kOptional), NumArg("dt", kOptional))},
    {&CommandTable::GroundAt,
     MD5STAGE_COMMAND("groundAt", true, ArgStyle::kPositional,
                      "The ground point under a framebuffer pixel.", NumArg("x"), NumArg("y"))},
    {&CommandTable::ScreenAt,
     MD5STAGE_COMMAND("screenAt", true, ArgStyle::kPositional,
                      "The framebuffer pixel of a world point.", Vec3Arg("point"))},
    {&CommandTable::Tool,
     MD5STAGE_COMMAND("tool", true, ArgStyle::kPositional,
                      "Picks the mouse tool (and the route it edits, the obstacle shape).",
                      {"tool", ArgType::kChoice, true, {"camera", "goto", "route", "obstacle"}},
                      {"shape", ArgType::kChoice, false, {"circle", "polygon"}},
                      {"route", ArgType::kRoute, false, {}}, BoolArg("round", kOptional),
                      BoolArg("close", kOptional))},
    {&CommandTable::EditRoute, MD5STAGE_COMMAND("editRoute", true, ArgStyle::kPositional,
                                                "The route the route pen edits (-1: a new one).",
                                                {"route", ArgType::kRoute, true, {}})},
    {&CommandTable::RouteEdit,
     MD5STAGE_COMMAND("toggleRouteLoop", true, ArgStyle::kPositional,
                      "Closes the loop of the route being edited, or opens it.")},
    {&CommandTable::RouteEdit,
     MD5STAGE_COMMAND("deleteRoutePoint", true, ArgStyle::kPositional,
                      "Deletes the selected point of the route being edited.")},
    {&CommandTable::SetRoundCorners,
     MD5STAGE_COMMAND("setRoundCorners", true, ArgStyle::kPositional,
                      "Whether the route pen rounds corners to the turning radius.",
                      BoolArg("round"))},
    {&CommandTable::SetObstacleShape,
     MD5STAGE_COMMAND("setObstacleShape", true, ArgStyle::kPositional,
                      "What the obstacle tool draws.",
                      {"shape", ArgType::kChoice, true, {"circle", "polygon"}})},
    {&CommandTable::ClosePolygon,
     MD5STAGE_COMMAND("closePolygon", true, ArgStyle::kPositional,
                      "Closes the polygon being drawn into an obstacle.")},
    {&CommandTable::Ui, MD5STAGE_COMMAND("ui", true, ArgStyle::kPositional,
                                         "Shows or hides the panels.", BoolArg("panels"))},
    {&CommandTable::OpenFiles,
     MD5STAGE_COMMAND("openFiles", kInternal, ArgStyle::kPositional,
                      "Opens the page's file picker (the Model panel's \"Open files...\").")},
    {&CommandTable::PageAction,
     MD5STAGE_COMMAND("pageAction", kInternal, ArgStyle::kPositional,
                      "Asks the page for copyLink, copyEmbed, copyFigure, downloadPoster or "
                      "demo:NAME (the Scene panel).",
                      StrArg("action"))},
    {&CommandTable::Screenshot,
     MD5STAGE_COMMAND("screenshot", true, ArgStyle::kPositional, "Downloads the view as a PNG.")},
    {&CommandTable::SetSceneTime,
     MD5STAGE_COMMAND("setSceneTime", true, ArgStyle::kPositional,
                      "Sets the scene clock (seconds).", NumArg("time"))},
    {&CommandTable::PlayScene, MD5STAGE_COMMAND("playScene", true, ArgStyle::kPositional,
                                                "Runs the scene clock and every clip.")},
    {&CommandTable::PlayScene, MD5STAGE_COMMAND("pauseScene", true, ArgStyle::kPositional,
                                                "Stops the scene clock and every clip.")},
    {&CommandTable::Display,
     MD5STAGE_COMMAND("display", true, ArgStyle::kFields, "Switches what is drawn.",
                      BoolArg("grid", kOptional), BoolArg("skeleton", kOptional),
                      BoolArg("joint_names", kOptional), BoolArg("bounds", kOptional),
                      BoolArg("wireframe", kOptional), BoolArg("normals", kOptional),
                      BoolArg("routes", kOptional), BoolArg("turn_circles", kOptional),
                      BoolArg("construction", kOptional), BoolArg("clearance", kOptional))},
    {&CommandTable::Camera,
     MD5STAGE_COMMAND("camera", true, ArgStyle::kFields, "Places the orbit camera.",
                      Vec3Arg("target", kOptional), NumArg("yaw", kOptional),
                      NumArg("pitch", kOptional), NumArg("distance", kOptional))},
    {&CommandTable::Frame,
     MD5STAGE_COMMAND("frame", true, ArgStyle::kPositional,
                      "Frames a character (the selected one by default) over its whole animation.",
                      CharacterArg(kOptional))},
    {&CommandTable::Embed,
     MD5STAGE_COMMAND("embed", kInternal, ArgStyle::kPositional, "Applies an embed's URL options.",
                      StrArg("query", kOptional), StrArg("fragment", kOptional),
                      BoolArg("reduced_motion", kOptional), BoolArg("apply_to_scene", kOptional))},
    {&CommandTable::EmbedScrub,
     MD5STAGE_COMMAND("embedScrub", kInternal, ArgStyle::kPositional,
                      "Whether the embed's timeline is being dragged.", BoolArg("active"))},
    // ---- models ----
    {&CommandTable::RemoveModel,
     MD5STAGE_COMMAND("removeModel", true, ArgStyle::kPositional,
                      "Removes a model, its characters and what carries it.", ModelRefArg())},
    {&CommandTable::SetSkin,
     MD5STAGE_COMMAND("setSkin", true, ArgStyle::kPositional,
                      "Shows a model under a loaded skin in this stage (\"\": its own shaders).",
                      ModelRefArg(), StrArg("skin"))},
    {&CommandTable::AddInstance,
     MD5STAGE_COMMAND("addInstance", true, ArgStyle::kPositional,
                      "Adds a character of a model; it becomes selected.", ModelRefArg(),
                      Vec3Arg("position", kOptional), NumArg("heading", kOptional))},
    // ---- one character ----
    {&CommandTable::Select,
     MD5STAGE_COMMAND("select", true, ArgStyle::kPositional, "Selects a character (and a joint).",
                      CharacterArg(), JointNameArg(kOptional))},
    {&CommandTable::SetAnimation,
     MD5STAGE_COMMAND("setAnimation", true, ArgStyle::kPositional,
                      "Plays an animation on a character, crossfading from the one before.",
                      CharacterArg(), {"name", ArgType::kAnimation, true, {}},
                      NumArg("crossfade", kOptional))},
    {&CommandTable::SetCrossfade,
     MD5STAGE_COMMAND("setCrossfade", true, ArgStyle::kPositional,
                      "How long a character's change of clip blends (seconds).", CharacterArg(),
                      NumArg("crossfade"))},
    {&CommandTable::SetLocomotionAnimation,
     MD5STAGE_COMMAND("setLocomotionAnimation", true, ArgStyle::kPositional,
                      "The clip a character walks with (null: its model's \"walk\").",
                      CharacterArg(), {"name", ArgType::kAnimation, true, {}})},
    {&CommandTable::SetTime,
     MD5STAGE_COMMAND("setTime", true, ArgStyle::kPositional,
                      "Sets a character's clip time (seconds).", CharacterArg(), NumArg("time"))},
    {&CommandTable::Play, MD5STAGE_COMMAND("play", true, ArgStyle::kPositional,
                                           "Plays a character's clip.", CharacterArg())},
    {&CommandTable::Play, MD5STAGE_COMMAND("pause", true, ArgStyle::kPositional,
                                           "Pauses a character's clip.", CharacterArg())},
    {&CommandTable::SetRate,
     MD5STAGE_COMMAND("setRate", true, ArgStyle::kPositional,
                      "Sets a character's playback rate (negative plays backwards).",
                      CharacterArg(), NumArg("rate"))},
    {&CommandTable::SetMode,
     MD5STAGE_COMMAND("setMode", true, ArgStyle::kPositional, "How a character's clip repeats.",
                      CharacterArg(), {"mode", ArgType::kChoice, true, MD5STAGE_MODES})},
    {&CommandTable::Step,
     MD5STAGE_COMMAND("step", true, ArgStyle::kPositional, "Steps a character's clip by frames.",
                      CharacterArg(), IntArg("frames", kOptional))},
    {&CommandTable::SetPlacement,
     MD5STAGE_COMMAND("setPlacement", true, ArgStyle::kPositional,
                      "Places a character by hand; a plan it followed ends.", CharacterArg(),
                      Vec3Arg("position", kOptional), NumArg("heading", kOptional))},
    {&CommandTable::Attach,
     MD5STAGE_COMMAND("attach", true, ArgStyle::kPositional,
                      "Attaches a model to a character's joint.", CharacterArg(), ModelRefArg(),
                      JointNameArg(), Vec3Arg("offset", kOptional),
                      Vec3Arg("rotation", kOptional))},
    {&CommandTable::EditAttachment,
     MD5STAGE_COMMAND("editAttachment", true, ArgStyle::kPositional,
                      "Moves or turns what a character carries (by its position in the list).",
                      CharacterArg(), IntArg("attachment"), Vec3Arg("offset", kOptional),
                      Vec3Arg("rotation", kOptional))},
    {&CommandTable::Detach, MD5STAGE_COMMAND("detach", true, ArgStyle::kPositional,
                                             "Takes off one of the models a character carries.",
                                             CharacterArg(), IntArg("attachment"))},
    {&CommandTable::AssignRoute,
     MD5STAGE_COMMAND("assignRoute", true, ArgStyle::kPositional,
                      "Sends a character along a route (-1: it stops).", CharacterArg(),
                      {"route", ArgType::kRoute, true, {}},
                      {"mode", ArgType::kChoice, false, MD5STAGE_MODES})},
    {&CommandTable::GoTo,
     MD5STAGE_COMMAND("goTo", true, ArgStyle::kPositional,
                      "Sends a character to a point (and heading) around the obstacles.",
                      CharacterArg(), NumArg("x"), NumArg("y"), NumArg("heading", kOptional))},
    {&CommandTable::SetPlanBudget,
     MD5STAGE_COMMAND("setPlanBudget", true, ArgStyle::kPositional,
                      "The planner's budget in milliseconds (unset: the default).",
                      NumArg("ms", kOptional))},
    {&CommandTable::SetConstructionOrigin,
     MD5STAGE_COMMAND("setConstructionOrigin", true, ArgStyle::kPositional,
                      "Where the construction figure's walker starts from.", CharacterArg(),
                      NumArg("x"), NumArg("y"), NumArg("heading", kOptional))},
    {&CommandTable::SetSpeed,
     MD5STAGE_COMMAND("setSpeed", true, ArgStyle::kPositional, "A character's walking speed.",
                      CharacterArg(), NumArg("speed"))},
    {&CommandTable::SetTurnRadius,
     MD5STAGE_COMMAND("setTurnRadius", true, ArgStyle::kPositional, "A character's turning radius.",
                      CharacterArg(), NumArg("radius"))},
    {&CommandTable::GpuSkinCheck,
     MD5STAGE_COMMAND("gpuSkinCheck", true, ArgStyle::kPositional,
                      "GPU skinning read back against the core's CPU skinning.", CharacterArg())},
    {&CommandTable::ScreenBounds,
     MD5STAGE_COMMAND("screenBounds", true, ArgStyle::kPositional,
                      "A character's box on screen, in framebuffer pixels.", CharacterArg())},
    {&CommandTable::Clip,
     MD5STAGE_COMMAND("clip", true, ArgStyle::kPositional,
                      "A character's clips, the one playing, its time, length and rate.",
                      CharacterArg())},
    {&CommandTable::Locate,
     MD5STAGE_COMMAND("locate", true, ArgStyle::kFields,
                      "Where a hotspot shows: a joint, world point or construction point's "
                      "pixel, and whether the model hides it.",
                      CharacterArg(kOptional), JointNameArg(kOptional), Vec3Arg("point", kOptional),
                      StrArg("construction", kOptional), JsonArg("surface", kOptional))},
    {&CommandTable::SetHotspots,
     MD5STAGE_COMMAND("setHotspots", true, ArgStyle::kFields,
                      "A figure's hotspots (as locate takes them), placed every frame.",
                      JsonArg("spots"))},
    {&CommandTable::JointWorld,
     MD5STAGE_COMMAND("jointWorld", true, ArgStyle::kPositional,
                      "A joint's world matrix in a character's current pose.", CharacterArg(),
                      JointNameArg())},
    // ---- obstacles ----
    {&CommandTable::AddObstacle,
     MD5STAGE_COMMAND("addObstacle", true, ArgStyle::kPositional,
                      "Adds an obstacle (a circle or a polygon); walkers replan.",
                      JsonArg("obstacle"))},
    {&CommandTable::RemoveObstacle,
     MD5STAGE_COMMAND("removeObstacle", true, ArgStyle::kPositional,
                      "Removes an obstacle; walkers replan.", ObstacleRefArg())},
    {&CommandTable::MoveObstacle, MD5STAGE_COMMAND("moveObstacle", true, ArgStyle::kPositional,
                                                   "Moves an obstacle; walkers replan.",
                                                   ObstacleRefArg(), NumArg("dx"), NumArg("dy"))},
    {&CommandTable::ClearObstacles,
     MD5STAGE_COMMAND("clearObstacles", true, ArgStyle::kPositional, "Removes every obstacle.")},
    {&CommandTable::SetClearance, MD5STAGE_COMMAND("setClearance", true, ArgStyle::kPositional,
                                                   "How far a character keeps from obstacles.",
                                                   CharacterArg(), NumArg("clearance"))},
    {&CommandTable::RouteAround,
     MD5STAGE_COMMAND("routeAround", true, ArgStyle::kPositional,
                      "Replaces a route's stretches that cross obstacles by planned paths.",
                      RouteRefArg(), CharacterArg(kOptional))},
    {&CommandTable::ExportGltf,
     MD5STAGE_COMMAND("exportGltf", true, ArgStyle::kPositional,
                      "Downloads a model with its animations as .glb.", ModelRefArg())},
    {&CommandTable::SetLight,
     MD5STAGE_COMMAND("setLight", true, ArgStyle::kFields, "Turns the key light (degrees).",
                      NumArg("azimuth", kOptional), NumArg("elevation", kOptional))},
    {&CommandTable::SetShading,
     MD5STAGE_COMMAND(
         "setShading", true, ArgStyle::kFields, "Normal maps, specular, and the channel shown.",
         BoolArg("normalMaps", kOptional), BoolArg("specular", kOptional),
         {"channel", ArgType::kChoice, false, {"lit", "diffuse", "normals", "specular"}})},
    {&CommandTable::PlayCamera,
     MD5STAGE_COMMAND("playCamera", true, ArgStyle::kPositional,
                      "Plays a loaded .md5camera by name (\"\": the orbit camera).",
                      StrArg("camera"))},
    {&CommandTable::ExportMd5,
     MD5STAGE_COMMAND("exportMd5", true, ArgStyle::kPositional,
                      "Downloads a model's md5mesh and each md5anim.", ModelRefArg())},
    {&CommandTable::Commands,
     MD5STAGE_COMMAND(
         "commands", true, ArgStyle::kPositional,
         "This table: every command's arguments, as the page's functions are made from it.")},
    // ---- the page's stages (answered by the StageHub, before any stage) ----
    {&CommandTable::HubOnly,
     MD5STAGE_COMMAND("createStage", kInternal, ArgStyle::kPositional,
                      "Opens another stage (a view with its own scene) and answers its id.")},
    {&CommandTable::HubOnly, MD5STAGE_COMMAND("closeStage", kInternal, ArgStyle::kPositional,
                                              "Closes a stage other than 0.", IntArg("id"))},
    {&CommandTable::HubOnly, MD5STAGE_COMMAND("stages", true, ArgStyle::kPositional,
                                              "The open stages and what they share.")},
};

// {"camera": NAME} follows a loaded .md5camera on the scene clock; "" goes back to the orbit
// camera.
JsonValue CommandTable::PlayCamera(Stage& v, CommandArgs& a) {
  const std::string name = a.String("camera", kMaxSceneNameLength);
  if (!a.Finish()) return Fail(a);
  const int index = name.empty() ? -1 : v.FindCamera(name);
  if (!name.empty() && index < 0) {
    std::string names;
    for (const CinematicCamera& camera : v.cinematic_cameras()) {
      names += (names.empty() ? "" : ", ") + camera.name;
    }
    a.Fail("camera",
           names.empty() ? std::string("\"\" (no camera is loaded)")
                         : "a loaded camera (" + names + ") or \"\" for the orbit camera",
           DescribeJson(JsonValue(name)));
    return Fail(a);
  }
  v.SelectCamera(index);
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
    if (name->as_string() == entry.spec.name) {
      CommandArgs args(entry.spec.name, command);
      return entry.handler(v, args);
    }
  }
  return Failure("command.cmd: expected a known command, found " + DescribeJson(*name));
}

JsonValue Stage::Call(const JsonValue& command) { return CommandTable::Dispatch(*this, command); }

std::vector<std::string> CommandNames() {
  std::vector<std::string> names;
  for (const auto& entry : CommandTable::kEntries) {
    if (entry.handler != &CommandTable::HubOnly) names.push_back(entry.spec.name);
  }
  return names;
}

CommandSpecList CommandSpecs() {
  static const CommandSpec* specs[std::size(CommandTable::kEntries)] = {};
  if (specs[0] == nullptr) {
    for (size_t i = 0; i < std::size(CommandTable::kEntries); ++i)
      specs[i] = &CommandTable::kEntries[i].spec;
  }
  return CommandSpecList(specs, std::size(CommandTable::kEntries));
}

}  // namespace md5stage::viewer
