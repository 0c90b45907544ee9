// Scenes, routes and locomotion in the viewer: a scene (docs/scene-format.md) is prepared (what
// files must be fetched), then applied once the page has loaded them; routes are built once per
// edit; followers place characters and their walk plays in step with their ground speed.
#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

#include "core/crowd/crowd_scene.h"
#include "core/path/route_json.h"
#include "core/path/route_obstacles.h"
#include "core/scene/scene_json.h"
#include "viewer/json_util.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

constexpr double kDegrees = 180.0 / glm::pi<double>();

// Sources a scene may name: an https URL, or a path inside the site's assets/ folder.
bool IsAllowedSource(const std::string& source) {
  if (source.rfind("https://", 0) == 0)
    return source.find_first_of(" \"'<>\\") == std::string::npos;
  if (source.empty() || source[0] == '/' || source.find(':') != std::string::npos) return false;
  if (source.find("..") != std::string::npos || source.find('\\') != std::string::npos)
    return false;
  return true;
}

}  // namespace

// ---- routes
// --------------------------------------------------------------------------------------

Status Stage::BuildRoute(int index, std::vector<RouteSegment> segments, bool closed,
                         const std::string& name) {
  Status status = routes_.Build(index, std::move(segments), closed, name);
  if (status.ok()) RestartWalkersOn(routes_.At(index)->id);
  return status;
}

void Stage::RestartWalkersOn(RouteId route) { cast_.RestartWalkersOn(route, routes_, scene_time_); }

Status Stage::StartRoute(Character& character, RouteId route, PlayMode mode) {
  return cast_.StartRoute(character, route, mode, routes_, scene_time_);
}

Status Stage::StartGoTo(Character& character, glm::dvec2 point, const double* heading) {
  return cast_.StartGoTo(character, point, heading, obstacles_, scene_time_);
}

// ---- scenes ------------------------------------------------------------------------------------

Scene Stage::CurrentScene() const {
  Scene scene;
  const auto& models = library_->models();
  for (const LoadedModel& model : models) {
    SceneModel m;
    m.name = model.name;
    m.local = model.local;
    m.mesh = model.local ? model.mesh_file : model.mesh_source;
    if (!model.local)
      m.anims = model.anim_sources;
    else
      for (const std::string& a : model.animation_names) m.anims.push_back(a + ".md5anim");
    if (!model.local) m.materials = model.material_sources;
    m.skin = model.skin;
    scene.models.push_back(std::move(m));
  }
  routes_.WriteScene(&scene.routes);
  for (const Character& character : cast_.all()) {
    const LoadedModel& model = ModelOf(character);
    SceneInstance instance;
    instance.model = model.name;
    const Locomotion& locomotion = character.locomotion;
    // A moving character is written where its plan started, so the scene replays the same way.
    if (locomotion.enabled) {
      const Pose2 start = locomotion.follower.PoseAt(-1e300);
      instance.position = start.position;
      instance.heading_degrees = start.heading * kDegrees;
    } else {
      instance.position = glm::dvec2(character.position);
      instance.heading_degrees = character.heading * kDegrees;
    }
    if (character.playback.animation >= 0) {
      instance.animation = model.animation_names[static_cast<size_t>(character.playback.animation)];
    }
    instance.time = character.playback.time;
    instance.rate = character.playback.rate;
    instance.mode = character.playback.mode;
    if (locomotion.walk_animation >= 0)
      instance.locomotion = model.animation_names[static_cast<size_t>(locomotion.walk_animation)];
    if (locomotion.idle_animation >= 0)
      instance.idle = model.animation_names[static_cast<size_t>(locomotion.idle_animation)];
    instance.speed = locomotion.speed;
    instance.turn_radius = locomotion.turn_radius;
    if (locomotion.clearance_set) instance.clearance = locomotion.clearance;
    instance.route = locomotion.enabled ? RouteIndex(locomotion.route) : -1;
    instance.route_mode = locomotion.route_mode;
    // A plan begun later than the scene's start replays from that moment.
    instance.start_delay = locomotion.enabled
                               ? std::max(locomotion.start_delay, locomotion.plan_start)
                               : locomotion.start_delay;
    if (locomotion.enabled && locomotion.has_target) {
      SceneTarget target;
      target.position = locomotion.target;
      if (locomotion.target_has_heading)
        target.heading_degrees = locomotion.target_heading * kDegrees;
      instance.target = target;
    }
    for (const Attachment& attachment : character.attachments) {
      SceneAttachment a;
      a.model = (*library_->Find(attachment.model)).name;
      a.joint = model.model->skeleton().name(attachment.joint);
      a.offset = glm::dvec3(attachment.offset);
      a.rotation_degrees = glm::dvec3(attachment.rotation_degrees);
      instance.attachments.push_back(std::move(a));
    }
    scene.instances.push_back(std::move(instance));
  }
  camera_.WriteScene(&scene.camera);
  scene.display = options_.display;
  scene.obstacles = obstacles_.set();
  scene.time = scene_time_;
  scene.playing = scene_playing_;
  scene.avoidance = cast_.avoidance();
  return scene;
}

void Stage::BuildCrowd() {
  if (!cast_.CrowdNeedsBuild()) return;
  // Models are named once in a scene; a character's default clearance is its model's.
  const auto model_clearance = [&](const SceneModel& model) -> Result<double> {
    for (const LoadedModel& loaded : library_->models()) {
      if (loaded.name == model.name) return CharacterCast::DefaultClearance(loaded);
    }
    return MakeError("", 0, 0, "no model '" + model.name + "'");
  };
  Result<std::vector<CrowdCharacter>> characters =
      CrowdCharactersOf(CurrentScene(), model_clearance);
  const Status built =
      characters.ok()
          ? cast_.BuildCrowd(scene_time_, std::move(characters.value()), obstacles_.set())
          : Status(characters.error());
  if (!built.ok()) SetError("avoidance: " + built.error().message);
}

void Stage::StepCrowdAhead(double dt) {
  if (cast_.CrowdNeedsBuild()) return;
  // The time Update(dt, false) reaches: the same sum, so the same steps.
  cast_.StepCrowdTo(scene_playing_ ? scene_time_ + dt : scene_time_);
}

void Stage::SetAvoidance(bool on) {
  if (on == cast_.avoidance()) return;
  cast_.SetAvoidance(on);
  BuildCrowd();
  cast_.PlaceAndPose(scene_time_, scene_playing_);
}

JsonValue Stage::PrepareScene(const JsonValue& scene_json) {
  auto parsed = SceneFromJson("scene", scene_json);
  if (!parsed.ok()) return Failure(parsed.error().ToString());
  Scene scene = std::move(parsed).value();
  JsonArray files;
  for (const SceneModel& model : scene.models) {
    if (model.local) {
      return Failure("scene: model '" + model.name +
                     "' came from local files, which a scene cannot load; drop them instead");
    }
    std::vector<std::string> sources = model.anims;
    sources.insert(sources.begin(), model.mesh);
    // Decls first: they are parsed before the mesh resolves its images either way.
    sources.insert(sources.begin(), model.materials.begin(), model.materials.end());
    for (const std::string& source : sources) {
      if (!IsAllowedSource(source)) {
        return Failure("scene: model '" + model.name + "': '" + source +
                       "' is neither an assets path nor an https URL");
      }
    }
    // Files already loaded from the same source are not fetched again.
    const LoadedModel* loaded = nullptr;
    for (const LoadedModel& candidate : library_->models()) {
      if (!candidate.local && candidate.mesh_source == model.mesh) loaded = &candidate;
    }
    for (const std::string& source : sources) {
      const bool have =
          loaded != nullptr && (source == loaded->mesh_source || library_->HasDeclSource(source) ||
                                std::find(loaded->anim_sources.begin(), loaded->anim_sources.end(),
                                          source) != loaded->anim_sources.end());
      if (have) continue;
      JsonValue file = JsonValue::MakeObject();
      file.Set("source", source);
      file.Set("url", source.rfind("https://", 0) == 0 ? source : "assets/" + source);
      files.push_back(std::move(file));
    }
  }
  if (const std::string& cinematic = scene.camera.cinematic;
      !cinematic.empty() && !camera_.HasSource(cinematic)) {
    JsonValue file = JsonValue::MakeObject();
    file.Set("source", cinematic);
    file.Set("url", cinematic.rfind("https://", 0) == 0 ? cinematic : "assets/" + cinematic);
    files.push_back(std::move(file));
  }
  pending_scene_ = std::make_unique<Scene>(std::move(scene));
  JsonValue reply = Reply(true);
  reply.Set("files", JsonValue(std::move(files)));
  return reply;
}

std::string Stage::AddSceneInstance(const Scene& scene, size_t i,
                                    const std::vector<int>& model_index) {
  std::string problems;
  auto find_model = [&](const std::string& name) {
    for (size_t m = 0; m < scene.models.size(); ++m) {
      if (scene.models[m].name == name) return model_index[m];
    }
    return -1;
  };
  const SceneInstance& instance = scene.instances[i];
  const int model = find_model(instance.model);
  if (model < 0) return problems;  // SceneFromJson checked the reference
  Character& character = cast_.AddUnselected(
      model, glm::vec2(instance.position), static_cast<float>(instance.heading_degrees / kDegrees));
  const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
  character.playback.animation =
      instance.animation.empty() ? -1 : loaded.FindAnimation(instance.animation);
  anim::SetClockTime(character.playback, instance.time);
  character.playback.rate = static_cast<float>(instance.rate);
  anim::SetClockMode(character.playback, instance.mode);
  character.playback.playing = scene.playing;
  Locomotion& locomotion = character.locomotion;
  locomotion.speed = instance.speed;
  locomotion.turn_radius = instance.turn_radius;
  locomotion.start_delay = instance.start_delay;
  if (instance.clearance) {
    locomotion.clearance = *instance.clearance;
    locomotion.clearance_set = true;
  }
  locomotion.walk_animation =
      loaded.FindAnimation(instance.locomotion.empty() ? "walk" : instance.locomotion);
  locomotion.idle_animation = loaded.FindAnimation(instance.idle.empty() ? "idle" : instance.idle);
  if (locomotion.idle_animation < 0) locomotion.idle_animation = character.playback.animation;
  if (instance.route >= 0 || instance.target) {
    // Plans start at time 0 (after start_delay) so that a scene replays the same at any time.
    const double now = scene_time_;
    scene_time_ = 0.0;
    Pose2 start{instance.position, instance.heading_degrees / kDegrees};
    // Standing on its route's start, a character faces along the route rather than looping
    // round to align with it.
    if (const ViewerRoute* route = routes_.At(instance.route); route && route->route) {
      const Pose2 route_start = route->route->Sample(0.0);
      if (RoutePointsMeet(route_start.position, instance.position))
        start.heading = route_start.heading;
    }
    character.position = glm::vec2(start.position);
    character.heading = static_cast<float>(start.heading);
    locomotion.follower = Follower(start, instance.turn_radius, instance.speed, 0.0);
    locomotion.enabled = true;
    Status status;
    if (instance.route >= 0) {
      status = routes_.At(instance.route) != nullptr
                   ? StartRoute(character, RouteAt(instance.route), instance.route_mode)
                   : MakeError("route", 0, 0, "no route " + std::to_string(instance.route));
    } else {
      scene_time_ = instance.start_delay;
      const double heading = instance.target->heading_degrees.value_or(0.0) / kDegrees;
      status = StartGoTo(character, instance.target->position,
                         instance.target->heading_degrees ? &heading : nullptr);
    }
    scene_time_ = now;
    if (!status.ok())
      problems += "instances[" + std::to_string(i) + "]: " + status.error().message + "\n";
  }
  for (const SceneAttachment& a : instance.attachments) {
    const int attached = find_model(a.model);
    const int joint = loaded.model->skeleton().FindJoint(a.joint);
    if (attached < 0 || joint < 0) {
      problems += "instances[" + std::to_string(i) + "]: cannot attach '" + a.model +
                  "' to joint '" + a.joint + "'\n";
      continue;
    }
    Attachment attachment;
    attachment.model = library_->models()[static_cast<size_t>(attached)].id;
    attachment.joint = joint;
    attachment.offset = glm::vec3(a.offset);
    attachment.rotation_degrees = glm::vec3(a.rotation_degrees);
    character.attachments.push_back(std::move(attachment));
  }
  return problems;
}

JsonValue Stage::ApplyPendingScene() {
  if (!pending_scene_) return Failure("no scene is being opened");
  const Scene scene = std::move(*pending_scene_);
  pending_scene_.reset();
  // Every model must now be loaded; find each by its source.
  std::vector<int> model_index(scene.models.size(), -1);
  for (size_t m = 0; m < scene.models.size(); ++m) {
    for (size_t i = 0; i < library_->models().size(); ++i) {
      const LoadedModel& candidate = library_->models()[i];
      if (!candidate.local && candidate.mesh_source == scene.models[m].mesh)
        model_index[m] = static_cast<int>(i);
    }
    if (model_index[m] < 0)
      return Failure("scene: model '" + scene.models[m].name + "' could not be loaded");
  }
  // From here on the scene replaces the current one.
  cast_.Clear();
  routes_.Clear();
  // Before the characters, whose targets are planned around them.
  obstacles_.ApplyScene(scene.obstacles);
  scene_time_ = scene.time;
  scene_playing_ = scene.playing;
  std::string problems;
  for (size_t m = 0; m < scene.models.size(); ++m) {
    library_->SetMaterialSources(model_index[m], scene.models[m].materials);
    if (scene.models[m].skin.empty() &&
        library_->models()[static_cast<size_t>(model_index[m])].skin.empty())
      continue;
    LoadReport report;
    const Status skinned = library_->SetSkin(model_index[m], scene.models[m].skin, &report);
    if (!skinned.ok())
      problems += "models[" + std::to_string(m) + "]." + skinned.error().message + "\n";
    for (const std::string& warning : report.warnings) report_.warnings.push_back(warning);
  }
  for (size_t r = 0; r < scene.routes.size(); ++r) {
    const SceneRoute& route = scene.routes[r];
    Status status = BuildRoute(static_cast<int>(r), route.segments, route.closed, route.name);
    if (!status.ok()) {
      problems += "routes[" + std::to_string(r) + "]: " + status.error().message + "\n";
      routes_.AddUnbuilt(route);
    }
  }
  for (size_t i = 0; i < scene.instances.size(); ++i)
    problems += AddSceneInstance(scene, i, model_index);
  // Models the scene does not use are released (the parse cache keeps them cheap to reload).
  for (int m = static_cast<int>(library_->models().size()) - 1; m >= 0; --m) {
    if (std::find(model_index.begin(), model_index.end(), m) == model_index.end()) RemoveModel(m);
  }
  if (!camera_.ApplyScene(scene.camera)) {
    problems += "camera.cinematic: '" + scene.camera.cinematic + "' could not be loaded\n";
  }
  // A drag that began under the orbit camera does not carry on into a cinematic one.
  if (camera_.playing().valid()) pointer_.orbiting = pointer_.panning = false;
  options_.display = scene.display;
  cast_.SetCrowdTemplates();
  cast_.Select(0, -1);
  // Giving way: the crowd is built from the scene's start, so a scene opened at a time shows
  // what playing to that time shows.
  cast_.SetAvoidance(scene.avoidance);
  BuildCrowd();
  cast_.PlaceAndPose(scene_time_, scene_playing_);
  // A scene that opens already finished sends no "finished" until it finishes again.
  embed_timeline_.Restart(MeasureEmbedClock().finished);
  if (!problems.empty()) {
    problems.pop_back();
    SetError(problems);
  } else {
    report_.error.clear();
    report_.status = "Scene: " + std::to_string(cast_.size()) + " character(s), " +
                     std::to_string(routes_.size()) + " route(s)";
  }
  JsonValue reply = Reply(problems.empty());
  if (!problems.empty()) reply.Set("error", problems);
  return reply;
}

// ---- reporting ---------------------------------------------------------------------------------

JsonValue Stage::PathJson(const Character& character) const {
  return LocomotionPathJson(character.locomotion);
}

JsonValue Stage::RoutesJson() const { return routes_.Json(Walkers(), obstacles_.set()); }

void Stage::DrawRouteOverlays(DrawList& list) {
  if (options_.display.routes) {
    routes_.Draw(list, Walkers(), obstacles_.set(), camera_.orbit().distance);
  }
  cast_.DrawPaths(list, options_.display.routes, options_.display.turn_circles);
  if (options_.display.clearance) cast_.DrawGivingWay(list, scene_time_);
}

// Loading what was fetched or dropped (an opening's "load" step, and the loadFiles command). Not
// in stage.cpp: that file is compiled with inlining for the figures' frame (CMakeLists.txt), and
// this function, run once an opening, grew to 50 KB of wasm there.
JsonValue Stage::LoadQueuedFiles() {
  std::vector<InputFile> files = std::move(pending_files_);
  pending_files_.clear();
  std::vector<std::string> cameras_loaded, camera_errors;
  camera_.LoadFiles(&files, &cameras_loaded, &camera_errors);
  const int models_before = static_cast<int>(library_->models().size());
  LoadReport report = library_->LoadFiles(std::move(files));
  report.errors.insert(report.errors.end(), camera_errors.begin(), camera_errors.end());
  // New models appear beside what is already shown, and the camera turns to them. Files
  // fetched for a scene being opened get their characters when the scene is applied.
  if (pending_scene_) report.new_models_to_show.clear();
  for (int index : report.new_models_to_show) AddInstance(index, std::nullopt, 0.0f);
  if (!report.new_models_to_show.empty()) FrameSelection();
  if (report.new_models.empty() && report.animations_bound > 0 && Selected() != nullptr) {
    Character& character = *Selected();
    const LoadedModel& model = ModelOf(character);
    anim::SwitchClip(character.playback, static_cast<int>(model.animations.size()) - 1);
  }
  report_.warnings = report.warnings;
  if (!report.errors.empty()) {
    std::string joined;
    for (const std::string& e : report.errors) joined += (joined.empty() ? "" : "\n") + e;
    SetError(joined);
  } else {
    report_.error.clear();
    report_.status =
        "Loaded " + std::to_string(static_cast<int>(library_->models().size()) - models_before) +
        " model(s), " + std::to_string(report.animations_bound) + " animation(s), " +
        std::to_string(report.textures_bound) + " texture(s)" +
        (cameras_loaded.empty() ? std::string()
                                : ", " + std::to_string(cameras_loaded.size()) + " camera(s)");
  }
  JsonValue reply = Reply(report.errors.empty());
  JsonArray errors, warnings, models;
  for (const std::string& e : report.errors) errors.emplace_back(e);
  for (const std::string& w : report.warnings) warnings.emplace_back(w);
  for (int index : report.new_models)
    models.emplace_back(library_->models()[static_cast<size_t>(index)].name);
  reply.Set("errors", JsonValue(std::move(errors)));
  reply.Set("warnings", JsonValue(std::move(warnings)));
  reply.Set("models", JsonValue(std::move(models)));
  JsonArray camera_names;
  for (const std::string& name : cameras_loaded) camera_names.emplace_back(name);
  reply.Set("cameras", JsonValue(std::move(camera_names)));
  // Textures of fetched models are fetched too: the page asks for each missing one next to the
  // mesh, named after the part's shader (bundled assets are PNG; remote models may be TGA/JPG).
  JsonArray texture_requests;
  for (int index : report.new_models) {
    const LoadedModel& model = library_->models()[static_cast<size_t>(index)];
    if (model.local) continue;
    const std::string& source = model.mesh_source;
    const std::string folder = source.substr(0, source.find_last_of('/') + 1);
    std::vector<std::string> seen;
    for (size_t part = 0; part < model.parts.size(); ++part) {
      const std::string stem = FileStem(model.model->gpu().submeshes[part].shader);
      if (model.part_textures[part].diffuse.valid() || stem.empty()) continue;
      if (std::find(seen.begin(), seen.end(), stem) != seen.end()) continue;
      seen.push_back(stem);
      JsonArray candidates;
      candidates.emplace_back(folder + stem + ".png");
      if (source.rfind("https://", 0) == 0) {
        candidates.emplace_back(folder + stem + ".tga");
        candidates.emplace_back(folder + stem + ".jpg");
      }
      texture_requests.emplace_back(JsonValue(std::move(candidates)));
    }
  }
  // Images a fetched model's materials name and no file gave: by base name next to the mesh.
  for (const LoadedModel& model : library_->models()) {
    if (model.local) continue;
    const std::string& source = model.mesh_source;
    const std::string folder = source.substr(0, source.find_last_of('/') + 1);
    for (const std::string& image : model.missing_images) {
      const std::string stem = FileStem(image);
      if (stem.empty()) continue;
      JsonArray candidates;
      for (const char* extension : {".png", ".tga", ".jpg"}) {
        if (extension[1] != 'p' && source.rfind("https://", 0) != 0) continue;
        candidates.emplace_back(folder + stem + extension);
      }
      texture_requests.emplace_back(JsonValue(std::move(candidates)));
    }
  }
  // A part without its image and a material naming that image ask for the same file: once.
  JsonArray unique_requests;
  for (JsonValue& request : texture_requests) {
    if (std::find(unique_requests.begin(), unique_requests.end(), request) == unique_requests.end())
      unique_requests.push_back(std::move(request));
  }
  reply.Set("texture_requests", JsonValue(std::move(unique_requests)));
  reply.Set("animations", report.animations_bound);
  reply.Set("textures", report.textures_bound);
  return reply;
}

JsonValue Stage::LoadFetchedFiles(std::vector<InputFile> files) {
  for (InputFile& file : files) QueueFile(std::move(file));
  return LoadQueuedFiles();
}

void Stage::LoadFetchedImages(std::vector<InputFile> images) {
  for (InputFile& image : images) QueueFile(std::move(image));
  LoadQueuedFiles();
}

void Stage::PresentModelLink() {
  if (cast_.size() == 0) return;
  cast_.Select(0, -1);
  FrameSelection();
}

void Stage::AddOpeningWarnings(const std::vector<std::string>& warnings) {
  report_.warnings.insert(report_.warnings.end(), warnings.begin(), warnings.end());
}

}  // namespace md5stage::viewer
