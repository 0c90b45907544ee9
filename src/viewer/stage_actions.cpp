// The stage's actions: each thing a person can do, written once; keys (HandleKeyPress) and the
// commands (commands.cpp: the page's, the elements' and the panels') translate into these.
#include <algorithm>
#include <cmath>

#include "viewer/stage.h"

namespace md5stage::viewer {

bool Stage::IsPlaying(int instance) const { return cast_.IsPlaying(instance); }

bool Stage::Animating() const {
  if (opener_.opening()) return true;  // it will change when the files arrive
  if (camera_.AutoRotating()) return true;
  if (camera_.playing().valid() && scene_playing_) return true;
  for (int i = 0; i < cast_.size(); ++i) {
    if (IsPlaying(i)) return true;
    if (scene_playing_ && cast_.At(i)->locomotion.enabled) return true;
  }
  return false;
}

void Stage::Play(int instance) { cast_.Play(instance); }

void Stage::Pause(int instance) { cast_.Pause(instance); }

void Stage::TogglePlay(int instance) { cast_.TogglePlay(instance); }

void Stage::StepFrames(int instance, int frames) { cast_.StepFrames(instance, frames); }

void Stage::SetShading(ShadingOptions shading) {
  shading.Normalize();
  options_.shading = shading;
}

void Stage::SetCamera(const OrbitCamera& camera) { camera_.SetOrbit(camera); }

void Stage::OrbitBy(float yaw_degrees, float pitch_degrees) {
  PlayCamera(-1);  // as an orbit drag does, a cinematic camera is left
  camera_.OrbitBy(yaw_degrees, pitch_degrees);
}

void Stage::ZoomBy(float steps) { camera_.ZoomBy(steps); }

void Stage::Select(int instance, int joint) { cast_.Select(instance, joint); }

int Stage::AddInstance(int model, std::optional<glm::vec2> position, float heading) {
  return cast_.Add(model, position, heading);
}

void Stage::LeaveCinematicCamera() {
  obstacles_.DropDraft();
  PlayCamera(-1);
}

void Stage::Screenshot() {
  if (host_) host_->DownloadScreenshot();
}

// ---- one character ----------------------------------------------------------------------------

void Stage::SetAnimation(int instance, int animation) { cast_.SetAnimation(instance, animation); }

void Stage::SetCrossfade(int instance, float seconds) { cast_.SetCrossfade(instance, seconds); }

void Stage::SetClipTime(int instance, double time) { cast_.SetClipTime(instance, time); }

void Stage::SetRate(int instance, float rate) { cast_.SetRate(instance, rate); }

void Stage::SetPlayMode(int instance, PlayMode mode) { cast_.SetPlayMode(instance, mode); }

void Stage::SetPlacement(int instance, std::optional<glm::vec2> position,
                         std::optional<float> heading) {
  cast_.SetPlacement(instance, position, heading, scene_time_);
}

void Stage::Attach(int instance, int model, int joint, glm::vec3 offset,
                   glm::vec3 rotation_degrees) {
  cast_.Attach(instance, model, joint, offset, rotation_degrees);
}

void Stage::EditAttachment(int instance, int attachment, glm::vec3 offset,
                           glm::vec3 rotation_degrees) {
  cast_.EditAttachment(instance, attachment, offset, rotation_degrees);
}

void Stage::Detach(int instance, int attachment) { cast_.Detach(instance, attachment); }

void Stage::SetSpeed(int instance, double speed) { cast_.SetSpeed(instance, speed, scene_time_); }

void Stage::SetTurnRadius(int instance, double radius) {
  cast_.SetTurnRadius(instance, radius, scene_time_);
}

void Stage::SetClearance(int instance, double clearance) {
  if (!cast_.SetClearance(instance, clearance, scene_time_) || obstacles_.size() == 0) return;
  const std::string problems = ReplanTargets();
  if (!problems.empty()) SetError(problems);
}

void Stage::SetLocomotionAnimation(int instance, int animation) {
  cast_.SetLocomotionAnimation(instance, animation);
}

Status Stage::AssignRoute(int instance, int route, PlayMode mode) {
  Character* character = cast_.At(instance);
  if (character == nullptr)
    return MakeError("route", 0, 0, "no instance " + std::to_string(instance));
  RouteId id;
  if (route >= 0) {
    if (route >= routes_.size())
      return MakeError("route", 0, 0, "no route " + std::to_string(route));
    id = RouteAt(route);
  }
  Status status = StartRoute(*character, id, mode);
  if (status.ok()) cast_.EnsureLocomotionAnimations(*character);
  return status;
}

Status Stage::GoTo(int instance, glm::dvec2 point, std::optional<double> heading) {
  Character* character = cast_.At(instance);
  if (character == nullptr)
    return MakeError("goTo", 0, 0, "no instance " + std::to_string(instance));
  cast_.EnsureLocomotionAnimations(*character);
  const double heading_value = heading.value_or(0.0);
  return StartGoTo(*character, point, heading ? &heading_value : nullptr);
}

Status Stage::SetConstructionOrigin(int instance, const Pose2& origin) {
  Character* character = cast_.At(instance);
  if (character == nullptr) {
    return MakeError("setConstructionOrigin", 0, 0, "no instance " + std::to_string(instance));
  }
  Locomotion& locomotion = character->locomotion;
  if (!locomotion.enabled || !locomotion.has_target) {
    return MakeError("setConstructionOrigin", 0, 0,
                     "instance " + std::to_string(instance) + " has no go-to target");
  }
  // As SetPlacement places it, but from the double pose (the figure's origin is exactly it); what
  // that changes is kept to put back when the new plan fails (plan_message then says why).
  const Follower follower = locomotion.follower;
  const glm::vec2 position = character->position;
  const float facing = character->heading;
  const double start_delay = locomotion.start_delay, plan_start = locomotion.plan_start;
  const glm::dvec2 target = locomotion.target;
  const std::optional<double> heading = locomotion.target_has_heading
                                            ? std::optional<double>(locomotion.target_heading)
                                            : std::nullopt;
  character->position = glm::vec2(origin.position);
  character->heading = static_cast<float>(origin.heading);
  locomotion.follower = Follower(origin, locomotion.turn_radius, locomotion.speed, scene_time_);
  locomotion.route = RouteId();
  locomotion.has_target = false;
  locomotion.start_delay = 0.0;
  locomotion.plan_start = scene_time_;
  const Status status = StartGoTo(*character, target, heading ? &*heading : nullptr);
  if (!status.ok()) {
    locomotion.follower = follower;
    character->position = position;
    character->heading = facing;
    locomotion.has_target = true;  // it had no route: it was going to the target
    locomotion.start_delay = start_delay;
    locomotion.plan_start = plan_start;
  }
  PoseCharacter(*character, library_->models());
  return status;
}

// ---- routes and obstacles ----------------------------------------------------------------------

Status Stage::SetRoute(int index, std::vector<RouteSegment> segments, bool closed,
                       const std::string& name) {
  Status status = BuildRoute(index, std::move(segments), closed, name);
  if (status.ok() && RouteAt(index) == routes_.pen().edited_route()) {
    StartEditingRoute(index);
  }
  return status;
}

Status Stage::RouteAround(int route, std::optional<int> instance) {
  const Character* character = instance ? cast_.At(*instance) : nullptr;
  const RouteWalkers walkers = Walkers();
  const double radius =
      character ? character->locomotion.turn_radius : walkers.RoundingRadius(RouteAt(route));
  const double clearance =
      character ? character->locomotion.clearance : walkers.Clearance(RouteAt(route));
  return RouteAroundWith(route, radius, clearance);
}

Status Stage::RemoveRoute(int route) {
  RouteId removed;
  Status status = routes_.Remove(route, &removed);
  if (!status.ok()) return status;
  // Who walked it stops where it is.
  cast_.StopWalkersOn(removed, scene_time_);
  return Status();
}

// ---- camera and embeds -------------------------------------------------------------------------

void Stage::PlayCamera(int index) {
  if (camera_.Play(index)) {
    // A drag that began under the orbit camera does not carry on into the cinematic one.
    pointer_.orbiting = false;
    pointer_.panning = false;
  }
}

int Stage::FindCamera(const std::string& name) const { return camera_.Find(name); }

void Stage::SelectCamera(int index) {
  if (index < 0) {
    LeaveCinematicCamera();
  } else {
    PlayCamera(index);
  }
}

void Stage::ApplyEmbedOptions(const EmbedOptions& options, bool reduced_motion,
                              bool apply_to_scene) {
  embed_timeline_.SetLoop(options.loop);
  if (options.time_scale) SetTimeScale(*options.time_scale);
  if (options.auto_rotate || options.rotation_degrees_per_second) {
    CameraRig::AutoRotate rotate = camera_.auto_rotate();
    if (options.auto_rotate) rotate.on = *options.auto_rotate;
    if (options.rotation_degrees_per_second) {
      rotate.degrees_per_second = static_cast<float>(*options.rotation_degrees_per_second);
    }
    SetAutoRotate(rotate);
  }
  if (!apply_to_scene) return;
  if (options.shadow_intensity) {
    ShadingOptions shading = options_.shading;
    shading.contact_shadow = static_cast<float>(*options.shadow_intensity);
    SetShading(shading);
  }
  if (options.crossfade_ms) {
    for (int i = 0; i < cast_.size(); ++i) {
      SetCrossfade(i, static_cast<float>(*options.crossfade_ms / 1000.0));
    }
  }
  options_.display = options.display.AppliedTo(options_.display);
  if (options.avoidance) SetAvoidance(*options.avoidance);
  if (options.camera) {
    OrbitCamera camera = camera_.orbit();
    camera.yaw_degrees = static_cast<float>(options.camera->yaw_degrees);
    camera.pitch_degrees = std::clamp(static_cast<float>(options.camera->pitch_degrees),
                                      OrbitCamera::kMinPitch, OrbitCamera::kMaxPitch);
    camera.distance = std::clamp(static_cast<float>(options.camera->distance),
                                 OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance);
    if (options.camera->target) camera.target = glm::vec3(*options.camera->target);
    camera_.SetOrbit(camera);
  }
  if (const std::optional<bool> playing = EmbedStartsPlaying(options, reduced_motion)) {
    SetScenePlaying(*playing);
  }
  if (const std::optional<double> time = EmbedStartTime(options)) scene_time_ = *time;
  embed_timeline_.Restart(MeasureEmbedClock().finished);
}

void Stage::SetTool(ui::Tool tool) {
  tool_ = tool;
  if (tool_ == ui::Tool::kRoute && !routes_.pen().edited_route().valid() &&
      routes_.pen().editor().anchor_count() == 0 && routes_.size() > 0) {
    StartEditingRoute(routes_.size() - 1);
  }
  if (tool_ != ui::Tool::kObstacle) obstacles_.DropDraft();
}

void Stage::ToggleRouteLoop() {
  if (routes_.ToggleClosed()) CommitEditedRoute();
}

void Stage::DeleteRoutePoint() {
  if (routes_.DeleteSelectedPoint()) CommitEditedRoute();
}

void Stage::SetRoundCorners(bool round) {
  routes_.SetAutoRound(round);
  CommitEditedRoute();
}

void Stage::SetObstacleShape(bool polygon) { obstacles_.SetPolygonShape(polygon); }

void Stage::OpenFilePicker() {
  if (host_ != nullptr) host_->OpenFilePicker();
}

void Stage::RunPageAction(const std::string& action) {
  if (host_ != nullptr) host_->PageAction(action);
}

}  // namespace md5stage::viewer
