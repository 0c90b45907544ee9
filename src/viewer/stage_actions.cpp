// The stage's actions: each thing a person can do, written once; keys (HandleKeyPress) and the
// commands (commands.cpp: the page's, the elements' and the panels') translate into these.
#include <algorithm>
#include <cmath>

#include "viewer/stage.h"

namespace md5stage::viewer {

Character* Stage::InstanceAt(int instance) {
  if (instance < 0 || instance >= static_cast<int>(characters_.size())) return nullptr;
  return &characters_[static_cast<size_t>(instance)];
}

bool Stage::IsPlaying(int instance) const {
  if (instance < 0 || instance >= static_cast<int>(characters_.size())) return false;
  const anim::PlaybackClock& clock = characters_[static_cast<size_t>(instance)].playback;
  return clock.playing && !clock.finished;
}

bool Stage::Animating() const {
  if (openings_.current != nullptr) return true;  // it will change when the files arrive
  if (camera_.playing().valid() && scene_playing_) return true;
  for (size_t i = 0; i < characters_.size(); ++i) {
    if (IsPlaying(static_cast<int>(i))) return true;
    if (scene_playing_ && characters_[i].locomotion.enabled) return true;
  }
  return false;
}

void Stage::Play(int instance) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  anim::PlaybackClock& clock = character->playback;
  if (clock.finished) {
    const LoadedModel& model = ModelOf(*character);
    const double duration =
        clock.animation >= 0 && clock.animation < static_cast<int>(model.animations.size())
            ? model.animations[static_cast<size_t>(clock.animation)]->duration()
            : 0.0;
    anim::SetClockTime(clock, clock.rate < 0 ? duration : 0.0);
  }
  clock.playing = true;
  PoseCharacter(*character, library_->models());
}

void Stage::Pause(int instance) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  character->playback.playing = false;
  PoseCharacter(*character, library_->models());
}

void Stage::TogglePlay(int instance) {
  if (IsPlaying(instance)) {
    Pause(instance);
  } else {
    Play(instance);
  }
}

void Stage::StepFrames(int instance, int frames) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  anim::PlaybackClock& playback = character->playback;
  if (playback.animation < 0) return;
  const LoadedModel& model = ModelOf(*character);
  const anim::Animation& animation = *model.animations[static_cast<size_t>(playback.animation)];
  playback.playing = false;
  // Steps wrap around the clip, so stepping back from the first frame lands on the last; in a
  // loop the last frame is the first again, so it is left out.
  const int distinct =
      playback.mode == PlayMode::kLoop ? animation.frame_count() - 1 : animation.frame_count();
  const long long count = std::max(distinct, 1);
  const long long current = std::llround(playback.time * animation.frame_rate());
  const long long frame = ((current + frames) % count + count) % count;
  anim::SetClockTime(playback,
                     static_cast<double>(frame) / std::max(animation.frame_rate(), 1e-6f));
  PoseCharacter(*character, library_->models());
}

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

void Stage::Select(int instance, int joint) {
  selection_.character = CharacterAt(instance);
  selection_.joint = selection_.character.valid() ? joint : -1;
}

glm::vec2 Stage::FreePlaceFor(int model) const {
  const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
  float right = -1e30f;
  for (const Character& character : characters_) {
    const LoadedModel& shown = ModelOf(character);
    right = std::max(right, character.position.x + shown.bind_max.x);
  }
  if (right < -1e29f) return glm::vec2(0.0f);
  // A quarter of its width apart from the rightmost, its own left edge there.
  const float width = loaded.bind_max.x - loaded.bind_min.x;
  return glm::vec2(right + 0.25f * std::max(width, 1.0f) - loaded.bind_min.x, 0.0f);
}

int Stage::AddInstance(int model, std::optional<glm::vec2> position, float heading) {
  if (model < 0 || model >= static_cast<int>(library_->models().size())) return -1;
  const glm::vec2 at = position ? *position : FreePlaceFor(model);
  const int index = AddCharacter(model, at, heading);
  selection_.character = CharacterAt(index);
  selection_.joint = -1;
  return index;
}

Status Stage::RemoveObstacle(int index) {
  if (index < 0 || index >= static_cast<int>(obstacles_.set.size())) {
    return MakeError("", 0, 0,
                     "obstacle " + std::to_string(index) + ": the scene has " +
                         std::to_string(obstacles_.set.size()) + " obstacles");
  }
  std::vector<Obstacle> list = obstacles_.set.obstacles();
  list.erase(list.begin() + index);
  std::vector<ObstacleId> ids = obstacles_.ids;
  ids.erase(ids.begin() + index);
  Status status = SetObstacles(std::move(list), std::move(ids));
  if (!status.ok()) SetError(status.error().ToString());
  return status;
}

Status Stage::ClearObstacles() {
  Status status = SetObstacles({}, {});
  if (!status.ok()) SetError(status.error().ToString());
  return status;
}

void Stage::LeaveCinematicCamera() {
  obstacle_tool_.DropDraft();
  PlayCamera(-1);
}

void Stage::Screenshot() {
  if (host_) host_->DownloadScreenshot();
}

// ---- one character ----------------------------------------------------------------------------

void Stage::SetAnimation(int instance, int animation) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  anim::SwitchClip(character->playback, animation);
  PoseCharacter(*character, library_->models());
}

void Stage::SetCrossfade(int instance, float seconds) {
  if (Character* character = InstanceAt(instance)) character->playback.crossfade_seconds = seconds;
}

void Stage::SetClipTime(int instance, double time) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  anim::SetClockTime(character->playback, time);
  PoseCharacter(*character, library_->models());
}

void Stage::SetRate(int instance, float rate) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  character->playback.rate = rate;
  PoseCharacter(*character, library_->models());
}

void Stage::SetPlayMode(int instance, PlayMode mode) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  anim::SetClockMode(character->playback, mode);
  PoseCharacter(*character, library_->models());
}

void Stage::SetPlacement(int instance, std::optional<glm::vec2> position,
                         std::optional<float> heading) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  if (position) character->position = *position;
  if (heading) character->heading = *heading;
  Locomotion& locomotion = character->locomotion;
  if (locomotion.enabled && (position || heading)) {
    locomotion.follower = Follower(Pose2{glm::dvec2(character->position), character->heading},
                                   locomotion.turn_radius, locomotion.speed, scene_time_);
    locomotion.route = RouteId();
    locomotion.has_target = false;
    locomotion.start_delay = 0.0;
    locomotion.plan_start = scene_time_;
  }
  PoseCharacter(*character, library_->models());
}

void Stage::Attach(int instance, int model, int joint, glm::vec3 offset,
                   glm::vec3 rotation_degrees) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  const LoadedModel& carrier = ModelOf(*character);
  if (model < 0 || model >= static_cast<int>(library_->models().size()) || joint < 0 ||
      joint >= carrier.model->skeleton().joint_count()) {
    return;
  }
  Attachment attachment;
  attachment.model = library_->models()[static_cast<size_t>(model)].id;
  attachment.joint = joint;
  attachment.offset = offset;
  attachment.rotation_degrees = rotation_degrees;
  character->attachments.push_back(std::move(attachment));
  PoseCharacter(*character, library_->models());
}

void Stage::EditAttachment(int instance, int attachment, glm::vec3 offset,
                           glm::vec3 rotation_degrees) {
  Character* character = InstanceAt(instance);
  if (character == nullptr || attachment < 0 ||
      attachment >= static_cast<int>(character->attachments.size())) {
    return;
  }
  character->attachments[static_cast<size_t>(attachment)].offset = offset;
  character->attachments[static_cast<size_t>(attachment)].rotation_degrees = rotation_degrees;
}

void Stage::Detach(int instance, int attachment) {
  Character* character = InstanceAt(instance);
  if (character == nullptr || attachment < 0 ||
      attachment >= static_cast<int>(character->attachments.size())) {
    return;
  }
  character->attachments.erase(character->attachments.begin() + attachment);
}

void Stage::SetSpeed(int instance, double speed) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  character->locomotion.speed = speed;
  if (character->locomotion.enabled) character->locomotion.follower.SetSpeed(scene_time_, speed);
}

void Stage::SetTurnRadius(int instance, double radius) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  character->locomotion.turn_radius = radius;
  if (character->locomotion.enabled) character->locomotion.follower.SetTurningRadius(radius);
}

void Stage::SetClearance(int instance, double clearance) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return;
  character->locomotion.clearance = clearance;
  character->locomotion.clearance_set = true;
  if (!obstacles_.set.empty()) {
    const std::string problems = ReplanTargets();
    if (!problems.empty()) SetError(problems);
  }
}

void Stage::SetLocomotionAnimation(int instance, int animation) {
  if (Character* character = InstanceAt(instance)) character->locomotion.walk_animation = animation;
}

Status Stage::AssignRoute(int instance, int route, PlayMode mode) {
  Character* character = InstanceAt(instance);
  if (character == nullptr)
    return MakeError("route", 0, 0, "no instance " + std::to_string(instance));
  RouteId id;
  if (route >= 0) {
    if (route >= static_cast<int>(routes_.size()))
      return MakeError("route", 0, 0, "no route " + std::to_string(route));
    id = routes_[static_cast<size_t>(route)].id;
  }
  Status status = StartRoute(*character, id, mode);
  if (status.ok()) EnsureLocomotionAnimations(*character);
  return status;
}

Status Stage::GoTo(int instance, glm::dvec2 point, std::optional<double> heading) {
  Character* character = InstanceAt(instance);
  if (character == nullptr)
    return MakeError("goTo", 0, 0, "no instance " + std::to_string(instance));
  EnsureLocomotionAnimations(*character);
  const double heading_value = heading.value_or(0.0);
  return StartGoTo(*character, point, heading ? &heading_value : nullptr);
}

Status Stage::SetPlanBudget(std::optional<double> milliseconds) {
  if (milliseconds && !(*milliseconds > 0.0 && *milliseconds <= kMaxPlanBudgetMs)) {
    return MakeError("setPlanBudget", 0, 0,
                     "setPlanBudget.ms: expected a number in (0, " +
                         FormatJsonNumber(kMaxPlanBudgetMs) + "], found " +
                         FormatJsonNumber(*milliseconds));
  }
  obstacles_.plan_budget_ms = milliseconds;
  obstacles_.plan_budget =
      milliseconds ? PlanBudgetFromMilliseconds(*milliseconds) : kDefaultPlanBudget;
  return Status();
}

Status Stage::SetConstructionOrigin(int instance, const Pose2& origin) {
  Character* character = InstanceAt(instance);
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
  if (status.ok() && routes_[static_cast<size_t>(index)].id == route_tool_.edited_route()) {
    StartEditingRoute(index);
  }
  return status;
}

Status Stage::RouteAround(int route, std::optional<int> instance) {
  const Character* character = instance ? InstanceAt(*instance) : nullptr;
  const double radius = character ? character->locomotion.turn_radius : RoundingRadius(route);
  const double clearance = character ? character->locomotion.clearance : RouteClearance(route);
  return RouteAroundWith(route, radius, clearance);
}

Status Stage::RemoveRoute(int route) {
  if (route < 0 || route >= static_cast<int>(routes_.size())) {
    return MakeError("route", 0, 0,
                     "route " + std::to_string(route) + ": the scene has " +
                         std::to_string(routes_.size()) + " routes");
  }
  const RouteId removed = routes_[static_cast<size_t>(route)].id;
  for (Character& character : characters_) {
    if (character.locomotion.enabled && character.locomotion.route == removed)
      StartRoute(character, RouteId(), character.locomotion.route_mode);
  }
  routes_.erase(routes_.begin() + route);
  if (route_tool_.edited_route() == removed) route_tool_.Reset();
  return Status();
}

Status Stage::AddObstacle(Obstacle obstacle) {
  std::vector<Obstacle> list = obstacles_.set.obstacles();
  list.push_back(std::move(obstacle));
  std::vector<ObstacleId> ids = obstacles_.ids;
  ids.push_back(serials_.Next<HandleKind::kObstacle>());
  return SetObstacles(std::move(list), std::move(ids));
}

Status Stage::MoveObstacle(int index, glm::dvec2 offset) {
  if (index < 0 || index >= static_cast<int>(obstacles_.set.size())) {
    return MakeError("", 0, 0,
                     "obstacle " + std::to_string(index) + ": the scene has " +
                         std::to_string(obstacles_.set.size()) + " obstacles");
  }
  std::vector<Obstacle> list = obstacles_.set.obstacles();
  Obstacle& moved = list[static_cast<size_t>(index)];
  moved.centre += offset;
  for (glm::dvec2& p : moved.vertices) p += offset;
  return SetObstacles(std::move(list), obstacles_.ids);
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
  if (!apply_to_scene) return;
  options_.display = options.display.AppliedTo(options_.display);
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
  if (tool_ == ui::Tool::kRoute && !route_tool_.edited_route().valid() &&
      route_tool_.editor().anchor_count() == 0 && !routes_.empty()) {
    StartEditingRoute(static_cast<int>(routes_.size()) - 1);
  }
  if (tool_ != ui::Tool::kObstacle) obstacle_tool_.DropDraft();
}

void Stage::ToggleRouteLoop() {
  if (route_tool_.ToggleClosed()) CommitEditedRoute();
}

void Stage::DeleteRoutePoint() {
  if (route_tool_.DeleteSelectedPoint()) CommitEditedRoute();
}

void Stage::SetRoundCorners(bool round) {
  route_tool_.SetAutoRound(round);
  CommitEditedRoute();
}

void Stage::SetObstacleShape(bool polygon) { obstacle_tool_.SetPolygonShape(polygon); }

void Stage::OpenFilePicker() {
  if (host_ != nullptr) host_->OpenFilePicker();
}

void Stage::RunPageAction(const std::string& action) {
  if (host_ != nullptr) host_->PageAction(action);
}

}  // namespace md5stage::viewer
