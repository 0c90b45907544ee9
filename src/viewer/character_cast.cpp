// The characters feature (character_cast.h): lookups and selection, playback, placement,
// attachments, locomotion, the frame's step, drawing and reports of the stage's characters.
#include "viewer/character_cast.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "core/anim/bone_capsules.h"
#include "core/anim/jobs.h"
#include "core/path/route_json.h"
#include "viewer/json_util.h"

namespace md5stage::viewer {
namespace {

// The n-th place (n >= 1) of a square spiral round a point, in units of the spacing: ring r
// holds the 8r places with max(|x|, |y|) = r, the rings nearest first.
glm::ivec2 SpiralPlace(int n) {
  int r = 1;
  while ((2 * r + 1) * (2 * r + 1) <= n) ++r;
  const int at = n - (2 * r - 1) * (2 * r - 1);  // [0, 8r)
  const int side = at / (2 * r), t = at % (2 * r);
  switch (side) {
    case 0:
      return {r, -r + 1 + t};
    case 1:
      return {r - 1 - t, r};
    case 2:
      return {-r, r - 1 - t};
    default:
      return {-r + 1 + t, -r};
  }
}

// Places taken on the ground, bucketed by cells of the spacing, so whether a place is free (no
// one nearer than the spacing) is a look at the 3 x 3 cells round it.
class TakenPlaces {
 public:
  explicit TakenPlaces(double spacing) : spacing_(spacing) {}
  bool Free(glm::dvec2 p) const {
    const glm::ivec2 c = Cell(p);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const auto found = cells_.find(Key({c.x + dx, c.y + dy}));
        if (found == cells_.end()) continue;
        for (const glm::dvec2& q : found->second) {
          if (glm::distance(p, q) < spacing_) return false;
        }
      }
    }
    return true;
  }
  void Take(glm::dvec2 p) { cells_[Key(Cell(p))].push_back(p); }

 private:
  glm::ivec2 Cell(glm::dvec2 p) const {
    return {static_cast<int>(std::floor(p.x / spacing_)),
            static_cast<int>(std::floor(p.y / spacing_))};
  }
  // Both coordinates' bits side by side (shifted unsigned: a negative cell is not UB).
  static unsigned long long Key(glm::ivec2 c) {
    return (static_cast<unsigned long long>(static_cast<unsigned int>(c.x)) << 32) |
           static_cast<unsigned int>(c.y);
  }
  double spacing_;
  std::unordered_map<unsigned long long, std::vector<glm::dvec2>>
      cells_;  // looked up only, never walked
};

float AnimationDuration(const LoadedModel& model, int animation) {
  if (animation < 0 || animation >= static_cast<int>(model.animations.size())) return 0.0f;
  return model.animations[static_cast<size_t>(animation)]->duration();
}

void AddBox(DrawList& list, const glm::mat4& transform, const glm::vec3& lo, const glm::vec3& hi,
            Rgba8 color) {
  glm::vec3 c[8];
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 p((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    c[i] = glm::vec3(transform * glm::vec4(p, 1.0f));
  }
  const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                            {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges) list.AddLine(c[e[0]], c[e[1]], color, LineDepth::kOnTop);
}

// The Animation panel's view of one character of the model.
// Positions are the panels' (this frame's lists): `route` the character's route's, -1 for none.
ui::InstanceSummary SummarizeInstance(const Character& character, const ModelLibrary& library,
                                      int route, bool playing) {
  const LoadedModel& model = *library.Find(character.model);
  ui::InstanceSummary summary;
  summary.id = HandleText(character.id);
  summary.label = character.label;
  summary.model = library.IndexOf(character.model);
  summary.animation = character.playback.animation;
  summary.time = static_cast<float>(character.playback.time);
  if (character.playback.animation >= 0) {
    const anim::Animation& animation =
        *model.animations[static_cast<size_t>(character.playback.animation)];
    summary.duration = animation.duration();
    summary.frame_rate = animation.frame_rate();
    summary.frame_count = animation.frame_count();
  }
  summary.rate = character.playback.rate;
  summary.mode = character.playback.mode;
  summary.playing = playing;
  summary.crossfade_seconds = character.playback.crossfade_seconds;
  summary.position = character.position;
  summary.speed = static_cast<float>(character.locomotion.speed);
  summary.turn_radius = static_cast<float>(character.locomotion.turn_radius);
  summary.clearance = static_cast<float>(character.locomotion.clearance);
  summary.plan_message = character.locomotion.plan_message;
  summary.route = character.locomotion.enabled ? route : -1;
  summary.route_mode = character.locomotion.route_mode;
  summary.locomotion_animation = character.locomotion.walk_animation;
  summary.moving = character.locomotion.moving;
  summary.heading_degrees = glm::degrees(character.heading);
  for (const Attachment& attachment : character.attachments) {
    ui::AttachmentSummary a;
    a.model = library.IndexOf(attachment.model);
    a.joint = model.model->skeleton().name(attachment.joint);
    a.offset = attachment.offset;
    a.rotation_degrees = attachment.rotation_degrees;
    summary.attachments.push_back(a);
  }
  summary.instance_bytes =
      character.pose.locals.size() * (2 * sizeof(anim::JointTransform) + 2 * sizeof(glm::mat4));
  return summary;
}

JsonValue PlanResultJson(const Locomotion& locomotion) {
  if (!locomotion.enabled || locomotion.follower.planned() == nullptr) return JsonValue();
  const ObstaclePlanResult& result = locomotion.plan_result;
  JsonValue plan = JsonValue::MakeObject();
  plan.Set("expansions", result.expansions);
  plan.Set("passes", result.passes);
  plan.Set("proven_best", result.search_complete);
  plan.Set("direct", result.direct);
  return plan;
}

}  // namespace

Character* CharacterCast::At(int index) {
  if (index < 0 || index >= size()) return nullptr;
  return &characters_[static_cast<size_t>(index)];
}

const Character* CharacterCast::At(int index) const {
  if (index < 0 || index >= size()) return nullptr;
  return &characters_[static_cast<size_t>(index)];
}

int CharacterCast::IndexOf(CharacterId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < characters_.size(); ++i) {
    if (characters_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

CharacterId CharacterCast::IdAt(int index) const {
  if (index < 0 || index >= static_cast<int>(characters_.size())) return CharacterId();
  return characters_[static_cast<size_t>(index)].id;
}

const LoadedModel& CharacterCast::ModelOf(const Character& character) const {
  return *library_->Find(character.model);
}

void CharacterCast::Select(int index, int joint) {
  selection_.character = IdAt(index);
  selection_.joint = selection_.character.valid() ? joint : -1;
}

int CharacterCast::Add(int model, std::optional<glm::vec2> position, float heading) {
  if (model < 0 || model >= static_cast<int>(library_->models().size())) return -1;
  const glm::vec2 at = position ? *position : FreePlaceFor(model);
  AddUnselected(model, at, heading);
  const int index = size() - 1;
  selection_.character = IdAt(index);
  selection_.joint = -1;
  return index;
}

Character& CharacterCast::AddUnselected(int model, glm::vec2 position, float heading) {
  const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
  Character character;
  character.id = serials_.Next<HandleKind::kCharacter>();
  character.model = loaded.id;
  character.position = position;
  character.heading = heading;
  int count = 0;
  for (const Character& other : characters_) count += other.model == loaded.id ? 1 : 0;
  character.label = loaded.name + (count > 0 ? " " + std::to_string(count + 1) : "");
  int animation = loaded.FindAnimation("idle");
  if (animation < 0 && !loaded.animations.empty()) animation = 0;
  character.playback.animation = animation;
  character.pose.Resize(loaded.model->skeleton().joint_count());
  character.locomotion.clearance = DefaultClearance(loaded);
  characters_.push_back(std::move(character));
  return characters_.back();
}

double CharacterCast::DefaultClearance(const LoadedModel& model) {
  return 0.5 * std::max(static_cast<double>(model.bind_max.x - model.bind_min.x),
                        static_cast<double>(model.bind_max.y - model.bind_min.y));
}

glm::vec2 CharacterCast::FreePlaceFor(int model) const {
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

void CharacterCast::RemoveModel(ModelId removed) {
  // Everything else is referred to by handle and stays as it was.
  characters_.erase(std::remove_if(characters_.begin(), characters_.end(),
                                   [&](const Character& c) { return c.model == removed; }),
                    characters_.end());
  for (Character& character : characters_) {
    std::vector<Attachment>& attachments = character.attachments;
    attachments.erase(std::remove_if(attachments.begin(), attachments.end(),
                                     [&](const Attachment& a) { return a.model == removed; }),
                      attachments.end());
  }
  ForgetRemoved();
}

bool CharacterCast::Uses(ModelId model) const {
  for (const Character& character : characters_) {
    if (character.model == model) return true;
    for (const Attachment& attachment : character.attachments) {
      if (attachment.model == model) return true;
    }
  }
  return false;
}

void CharacterCast::Clear() {
  characters_.clear();
  selection_ = Selection();
  crowd_templates_ = 0;
  SetAvoidance(false);
}

void CharacterCast::SetAvoidance(bool on) {
  avoidance_ = on;
  crowd_.Clear();
  crowd_edited_ = on;
  crowd_edit_time_ = 0.0;
  crowd_placed_.clear();
}

void CharacterCast::CrowdEdited(double now, CharacterId placed) {
  if (!avoidance_) return;
  crowd_edit_time_ = crowd_edited_ ? std::min(crowd_edit_time_, now) : now;
  crowd_edited_ = true;
  if (placed.valid()) crowd_placed_.push_back(placed);
}

bool CharacterCast::CrowdNeedsBuild() const {
  if (!avoidance_) return false;
  if (crowd_edited_) return true;
  const std::vector<CharacterId>* ids = crowd_.latest_ids();
  if (ids == nullptr || ids->size() != characters_.size()) return true;
  for (std::size_t i = 0; i < ids->size(); ++i) {
    if ((*ids)[i] != characters_[i].id) return true;
  }
  return false;
}

Status CharacterCast::BuildCrowd(double now, std::vector<CrowdCharacter> characters,
                                 const ObstacleSet& obstacles) {
  const double from = crowd_edited_ ? crowd_edit_time_ : now;
  std::vector<CharacterId> ids;
  for (const Character& character : characters_) ids.push_back(character.id);
  Status status =
      crowd_.Start(from, std::move(ids), std::move(characters), obstacles, crowd_placed_);
  crowd_edited_ = false;
  crowd_placed_.clear();
  return status;
}

bool CharacterCast::CrowdPose(const Character& character, double now, Pose2* pose,
                              double* speed) const {
  if (!avoidance_ || !character.locomotion.enabled) return false;
  const int hint = static_cast<int>(&character - characters_.data());
  return crowd_.PoseAt(character.id, hint, now, pose, speed);
}

void CharacterCast::AnchorToCrowd(Character& character, double now) {
  Locomotion& locomotion = character.locomotion;
  Pose2 pose;
  double speed = 0.0;
  if (!CrowdPose(character, now, &pose, &speed)) return;
  locomotion.follower = Follower(pose, locomotion.turn_radius, locomotion.speed, now);
}

void CharacterCast::ForgetRemoved() {
  if (Find(selection_.character) == nullptr) {
    selection_.character = CharacterId();
    selection_.joint = -1;
  }
}

void CharacterCast::SetCrowdSize(int count, const RouteBook& routes) {
  count = std::clamp(count, 1, 5000);
  if (crowd_templates_ <= 0 || crowd_templates_ > static_cast<int>(characters_.size())) {
    crowd_templates_ = static_cast<int>(characters_.size());
  }
  if (crowd_templates_ == 0) return;
  while (static_cast<int>(characters_.size()) > std::max(count, 1)) characters_.pop_back();
  const int templates = crowd_templates_;
  const int copies = (count + templates - 1) / templates;
  // Clones stand apart: each on the first free place of a square spiral round its template,
  // places three clearances apart (a character fits between two standing ones), none nearer
  // than that to anyone already there. Where a character stands is where its plan starts.
  double spacing = 0.0;
  for (int t = 0; t < templates; ++t) {
    const Character& c = characters_[static_cast<size_t>(t)];
    spacing = std::max({spacing, 3.0 * c.locomotion.clearance, 3.0 * DefaultClearance(ModelOf(c))});
  }
  spacing = std::max(spacing, 1e-3);
  const auto start_of = [](const Character& c) {
    return c.locomotion.enabled ? c.locomotion.follower.PoseAt(-1e300)
                                : Pose2{glm::dvec2(c.position), c.heading};
  };
  TakenPlaces taken(spacing);
  for (const Character& c : characters_) taken.Take(start_of(c).position);
  std::vector<int> next_place(static_cast<size_t>(templates), 1);
  while (static_cast<int>(characters_.size()) < count) {
    const int k = static_cast<int>(characters_.size());
    const int t = k % templates;
    Character clone = characters_[static_cast<size_t>(t)];
    clone.label += " #" + std::to_string(k);
    const Pose2 start = start_of(clone);
    glm::dvec2 place;
    do {
      place = start.position + spacing * glm::dvec2(SpiralPlace(next_place[t]++));
    } while (!taken.Free(place));
    taken.Take(place);
    clone.position = glm::vec2(place);
    clone.heading = static_cast<float>(start.heading);
    Locomotion& locomotion = clone.locomotion;
    const std::shared_ptr<const Route> route = routes.Built(locomotion.route);
    if (locomotion.enabled && route) {
      // Clones leave their places one after another, evenly spaced, to join the route at its
      // start.
      const double length = route->length();
      const double delay = length / std::max(locomotion.speed, 1e-3) / copies;
      locomotion.follower =
          Follower(Pose2{place, start.heading}, locomotion.turn_radius, locomotion.speed, 0.0);
      locomotion.start_delay += delay * (k / templates);
      StartRoute(clone, locomotion.route, locomotion.route_mode, routes, 0.0);
    }
    clone.id = serials_.Next<HandleKind::kCharacter>();
    characters_.push_back(std::move(clone));
  }
  ForgetRemoved();
}

bool CharacterCast::IsPlaying(int index) const {
  if (index < 0 || index >= static_cast<int>(characters_.size())) return false;
  const anim::PlaybackClock& clock = characters_[static_cast<size_t>(index)].playback;
  return clock.playing && !clock.finished;
}

void CharacterCast::Play(int index) {
  Character* character = At(index);
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

template <typename ClockChange>
void CharacterCast::ChangeClock(int index, ClockChange change) {
  Character* character = At(index);
  if (character == nullptr) return;
  change(character->playback);
  PoseCharacter(*character, library_->models());
}

void CharacterCast::Pause(int index) {
  ChangeClock(index, [](anim::PlaybackClock& clock) { clock.playing = false; });
}

void CharacterCast::TogglePlay(int index) {
  if (IsPlaying(index)) {
    Pause(index);
  } else {
    Play(index);
  }
}

void CharacterCast::StepFrames(int index, int frames) {
  Character* character = At(index);
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

void CharacterCast::SetAnimation(int index, int animation) {
  ChangeClock(index, [&](anim::PlaybackClock& clock) { anim::SwitchClip(clock, animation); });
}

void CharacterCast::SetCrossfade(int index, float seconds) {
  if (Character* character = At(index)) character->playback.crossfade_seconds = seconds;
}

void CharacterCast::SetClipTime(int index, double time) {
  ChangeClock(index, [&](anim::PlaybackClock& clock) { anim::SetClockTime(clock, time); });
}

void CharacterCast::SetRate(int index, float rate) {
  ChangeClock(index, [&](anim::PlaybackClock& clock) { clock.rate = rate; });
}

void CharacterCast::SetPlayMode(int index, PlayMode mode) {
  ChangeClock(index, [&](anim::PlaybackClock& clock) { anim::SetClockMode(clock, mode); });
}

void CharacterCast::SetPlacement(int index, std::optional<glm::vec2> position,
                                 std::optional<float> heading, double now) {
  Character* character = At(index);
  if (character == nullptr) return;
  if (position) character->position = *position;
  if (heading) character->heading = *heading;
  Locomotion& locomotion = character->locomotion;
  if (locomotion.enabled && (position || heading)) {
    locomotion.follower = Follower(Pose2{glm::dvec2(character->position), character->heading},
                                   locomotion.turn_radius, locomotion.speed, now);
    locomotion.route = RouteId();
    locomotion.has_target = false;
    locomotion.start_delay = 0.0;
    locomotion.plan_start = now;
  }
  if (position || heading) CrowdEdited(now, character->id);
  PoseCharacter(*character, library_->models());
}

void CharacterCast::Attach(int index, int model, int joint, glm::vec3 offset,
                           glm::vec3 rotation_degrees) {
  Character* character = At(index);
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

void CharacterCast::EditAttachment(int index, int attachment, glm::vec3 offset,
                                   glm::vec3 rotation_degrees) {
  Character* character = At(index);
  if (character == nullptr || attachment < 0 ||
      attachment >= static_cast<int>(character->attachments.size())) {
    return;
  }
  character->attachments[static_cast<size_t>(attachment)].offset = offset;
  character->attachments[static_cast<size_t>(attachment)].rotation_degrees = rotation_degrees;
}

void CharacterCast::Detach(int index, int attachment) {
  Character* character = At(index);
  if (character == nullptr || attachment < 0 ||
      attachment >= static_cast<int>(character->attachments.size())) {
    return;
  }
  character->attachments.erase(character->attachments.begin() + attachment);
}

void CharacterCast::SetSpeed(int index, double speed, double now) {
  Character* character = At(index);
  if (character == nullptr) return;
  character->locomotion.speed = speed;
  if (character->locomotion.enabled) character->locomotion.follower.SetSpeed(now, speed);
  CrowdEdited(now);
}

void CharacterCast::SetTurnRadius(int index, double radius, double now) {
  Character* character = At(index);
  if (character == nullptr) return;
  character->locomotion.turn_radius = radius;
  if (character->locomotion.enabled) character->locomotion.follower.SetTurningRadius(radius);
  CrowdEdited(now);
}

bool CharacterCast::SetClearance(int index, double clearance, double now) {
  Character* character = At(index);
  if (character == nullptr) return false;
  character->locomotion.clearance = clearance;
  character->locomotion.clearance_set = true;
  CrowdEdited(now);
  return true;
}

void CharacterCast::SetLocomotionAnimation(int index, int animation) {
  if (Character* character = At(index)) character->locomotion.walk_animation = animation;
}

void CharacterCast::EnsureLocomotionAnimations(Character& character) {
  const LoadedModel& model = ModelOf(character);
  Locomotion& locomotion = character.locomotion;
  if (locomotion.walk_animation < 0) locomotion.walk_animation = model.FindAnimation("walk");
  if (locomotion.idle_animation < 0) {
    const int idle = model.FindAnimation("idle");
    locomotion.idle_animation = idle >= 0 ? idle : character.playback.animation;
  }
}

Status CharacterCast::StartRoute(Character& character, RouteId route_id, PlayMode mode,
                                 const RouteBook& routes, double now) {
  Locomotion& locomotion = character.locomotion;
  if (!route_id.valid()) {
    locomotion.follower.Stop(now);
    locomotion.route = RouteId();
    return Status();
  }
  const std::shared_ptr<const Route> route = routes.Built(route_id);
  if (!route) {
    return MakeError("route", 0, 0, "no route " + HandleText(route_id));
  }
  if (!locomotion.enabled) {
    locomotion.follower = Follower(Pose2{glm::dvec2(character.position), character.heading},
                                   locomotion.turn_radius, locomotion.speed, now);
    locomotion.enabled = true;
  }
  AnchorToCrowd(character, now);
  CrowdEdited(now);
  const double start = std::max(now, locomotion.start_delay);
  Status status = locomotion.follower.FollowRoute(start, route, mode);
  if (!status.ok()) return status;
  locomotion.route = route_id;
  locomotion.route_mode = mode;
  locomotion.has_target = false;
  locomotion.plan_start = start;
  return Status();
}

Status CharacterCast::StartGoTo(Character& character, glm::dvec2 point, const double* heading,
                                const ObstacleField& obstacles, double now) {
  Locomotion& locomotion = character.locomotion;
  if (!locomotion.enabled) {
    locomotion.follower = Follower(Pose2{glm::dvec2(character.position), character.heading},
                                   locomotion.turn_radius, locomotion.speed, now);
    locomotion.enabled = true;
  }
  AnchorToCrowd(character, now);
  CrowdEdited(now);
  // Around obstacles when there are any (a plan that is already clear is the same arc-line or
  // Dubins path); with no path the plan is unchanged and the reason is the error.
  Status status;
  if (obstacles.size() > 0) {
    // With giving way on the crowd walks this plan: the room its plans keep.
    status = obstacles.PlanGoTo(character.locomotion, now, point, heading,
                                avoidance_ ? kCrowdPlanClearanceFactor : 1.0);
  } else {
    locomotion.plan_message.clear();
    status = heading != nullptr ? locomotion.follower.GoToPose(now, Pose2{point, *heading})
                                : locomotion.follower.GoToPoint(now, point);
  }
  if (!status.ok()) return status;
  locomotion.route = RouteId();
  locomotion.has_target = true;
  locomotion.target = point;
  locomotion.target_has_heading = heading != nullptr;
  locomotion.target_heading = heading != nullptr ? *heading : 0.0;
  locomotion.plan_start = now;
  return Status();
}

void CharacterCast::RestartWalkersOn(RouteId route, const RouteBook& routes, double now) {
  for (Character& character : characters_) {
    if (character.locomotion.enabled && character.locomotion.route == route) {
      StartRoute(character, route, character.locomotion.route_mode, routes, now);
    }
  }
}

void CharacterCast::StopWalkersOn(RouteId route, double now) {
  for (Character& character : characters_) {
    Locomotion& locomotion = character.locomotion;
    if (locomotion.enabled && locomotion.route == route) {
      locomotion.follower.Stop(now);
      locomotion.route = RouteId();
      CrowdEdited(now);
    }
  }
}

bool CharacterCast::UpdateLocomotion(Character& character, double now, bool scene_playing) {
  Locomotion& locomotion = character.locomotion;
  if (!locomotion.enabled) return false;
  Pose2 pose;
  double ground_speed = locomotion.speed;
  anim::Gait gait;
  bool has_gait = false;
  if (CrowdPose(character, now, &pose, &ground_speed)) {
    // Giving way: it walks while the crowd moves it, at the crowd's speed.
    locomotion.moving = ground_speed > 0.0;
    has_gait =
        crowd_.GaitAt(character.id, static_cast<int>(&character - characters_.data()), now, &gait);
  } else {
    pose = locomotion.follower.PoseAt(now);
    locomotion.moving = locomotion.speed > 0.0 && now >= locomotion.plan_start &&
                        !locomotion.follower.ArrivedAt(now);
  }
  character.position = glm::vec2(pose.position);
  character.heading = static_cast<float>(pose.heading);
  const LoadedModel& model = ModelOf(character);
  // The route places the root: the animation's own horizontal root motion is stripped.
  character.root_motion = anim::RootMotion::kStripHorizontal;
  anim::PlaybackClock& playback = character.playback;
  const int walk = locomotion.walk_animation;
  const float walk_ground_speed =
      walk >= 0 && walk < static_cast<int>(model.animations.size())
          ? model.animations[static_cast<size_t>(walk)]->average_ground_speed()
          : 0.0f;
  if (locomotion.moving) playback.playing = scene_playing;
  // The walk cycle's phase, the idle's time and the crossfade between them from how far and how
  // long it has walked at `now`: a function of the scene time, so a seek or a link shows the
  // limbs playing shows (the frame's time does not move this clock).
  if (has_gait && anim::SetGaitClock(playback, gait, walk, locomotion.idle_animation,
                                     walk_ground_speed, AnimationDuration(model, walk),
                                     AnimationDuration(model, locomotion.idle_animation))) {
    return true;
  }
  // Walk in step with the ground while moving, blend to idle on stopping (core/anim).
  anim::ApplyLocomotionClip(
      playback, anim::ChooseLocomotionClip(locomotion.moving, walk, locomotion.idle_animation,
                                           ground_speed, walk_ground_speed));
  // A paused scene whose time is moved (scrubbing, a link's time) shows the pose of that time: a
  // frozen crossfade would show the pose of how it got there.
  if (!scene_playing) playback.fade_from = -1;
  return false;
}

std::string CharacterCast::ReplanTargets(const ObstacleField& obstacles, double now) {
  std::string problems;
  for (size_t i = 0; i < characters_.size(); ++i) {
    Character& character = characters_[i];
    Locomotion& locomotion = character.locomotion;
    if (!locomotion.enabled || !locomotion.has_target) continue;
    if (locomotion.follower.ArrivedAt(now)) continue;
    // A plan that has not begun yet (a scene's start delay) is planned again from its start.
    const double from = std::max(now, locomotion.plan_start);
    const glm::dvec2 target = locomotion.target;
    const double heading = locomotion.target_heading;
    Status status = StartGoTo(character, target, locomotion.target_has_heading ? &heading : nullptr,
                              obstacles, from);
    if (!status.ok()) {
      // No way there any more: it stops where it is and keeps the target for the next change.
      locomotion.follower.Stop(from);
      problems += character.label + ": " + status.error().message + "\n";
    }
  }
  if (!problems.empty()) problems.pop_back();
  return problems;
}

std::string CharacterCast::Step(double dt, double now, bool scene_playing) {
  std::string problems;
  const auto& models = library_->models();
  for (Character& character : characters_) {
    const bool clock_set = UpdateLocomotion(character, now, scene_playing);
    const LoadedModel& model = ModelOf(character);
    if (!clock_set) {
      anim::AdvanceClock(character.playback, AnimationDuration(model, character.playback.animation),
                         dt);
    }
    if (!PoseCharacter(character, models) && character.visible) {
      // Never expected for validated models; hidden rather than drawn with a stale palette.
      character.visible = false;
      problems += (problems.empty() ? "" : "\n") + character.label +
                  ": its pose could not be computed; it is hidden";
    }
  }
  return problems;
}

void CharacterCast::PlaceAndPose(double now, bool scene_playing) {
  for (Character& character : characters_) {
    UpdateLocomotion(character, now, scene_playing);
    PoseCharacter(character, library_->models());
  }
}

int CharacterCast::AddInstances(DrawList& list, const Frustum& frustum) const {
  int culled = 0;
  for (const Character& character : characters_) {
    if (!character.visible) continue;
    if (!IsVisible(character, frustum)) {
      ++culled;
      continue;
    }
    const LoadedModel& model = ModelOf(character);
    list.instances.push_back(
        {model.gpu_mesh, character.pose.palette.data(), model.part_textures.data()});
    for (const Attachment& attachment : character.attachments) {
      if (attachment.pose.palette.empty()) continue;
      const LoadedModel& prop = *library_->Find(attachment.model);
      list.instances.push_back(
          {prop.gpu_mesh, attachment.pose.palette.data(), prop.part_textures.data()});
    }
  }
  return culled;
}

namespace {

// Under the posed body, not the character's place: a clip with root motion (an MD5 walk played
// without locomotion) carries the body away from it. The mean of the joints' ground positions;
// the place itself before the first pose.
glm::vec2 ShadowCentre(const Character& character) {
  const std::vector<glm::mat4>& joints = character.pose.models;
  if (joints.empty()) return character.position;
  glm::vec2 sum(0.0f);
  for (const glm::mat4& joint : joints) sum += glm::vec2(joint[3]);
  return sum / static_cast<float>(joints.size());
}

}  // namespace

void CharacterCast::AddContactShadows(DrawList& list, float intensity) const {
  if (!(intensity > 0.0f)) return;
  for (const Character& character : characters_) {
    if (!character.visible) continue;
    const LoadedModel& model = ModelOf(character);
    const float radius = 0.25f * (model.bind_max.z - model.bind_min.z);
    AppendContactShadow(ShadowCentre(character), radius, intensity, &list.triangles);
  }
}

void CharacterCast::DrawOverlays(DrawList& list, const OverlayView& view) {
  const glm::mat4 view_projection = list.view_projection;
  auto project = [&](const glm::vec3& p, glm::vec2* out) {
    glm::dvec2 pixel;
    if (!WorldToPixel(view_projection, view.width, view.height, p, &pixel)) return false;
    *out = glm::vec2(pixel);
    return true;
  };
  for (size_t c = 0; c < characters_.size(); ++c) {
    const Character& character = characters_[c];
    const LoadedModel& model = ModelOf(character);
    const anim::Skeleton& skeleton = model.model->skeleton();
    const bool is_selected = character.id == selection_.character;
    if (view.display->skeleton) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        const glm::vec3 p(character.pose.models[static_cast<size_t>(j)][3]);
        const int parent = skeleton.parent(j);
        const bool highlighted = is_selected && j == selection_.joint;
        const Rgba8 color = highlighted ? Rgba8{255, 80, 80, 255} : Rgba8{90, 230, 255, 255};
        if (parent >= 0) {
          list.AddLine(glm::vec3(character.pose.models[static_cast<size_t>(parent)][3]), p, color,
                       LineDepth::kOnTop);
        }
        const float s = 0.01f * std::max(model.bind_max.z - model.bind_min.z, 1.0f);
        list.AddLine(p - glm::vec3(s, 0, 0), p + glm::vec3(s, 0, 0), {255, 255, 255, 255},
                     LineDepth::kOnTop);
        list.AddLine(p - glm::vec3(0, s, 0), p + glm::vec3(0, s, 0), {255, 255, 255, 255},
                     LineDepth::kOnTop);
        list.AddLine(p - glm::vec3(0, 0, s), p + glm::vec3(0, 0, s), {255, 255, 255, 255},
                     LineDepth::kOnTop);
      }
    }
    // With the skeleton shown, the joint under the cursor is named too (hover).
    // Screen positions are projected once per frame and joint, for the hover test and the names.
    joint_screen_.assign(static_cast<size_t>(skeleton.joint_count()), glm::vec2(0.0f));
    joint_on_screen_.assign(static_cast<size_t>(skeleton.joint_count()), 0);
    const bool hover_test = view.display->skeleton && view.pointer_free;
    const bool any_names = is_selected && (view.display->joint_names ||
                                           (view.display->skeleton && selection_.joint >= 0));
    if (hover_test || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        glm::vec2 screen(0.0f);
        const bool on_screen =
            project(glm::vec3(character.pose.models[static_cast<size_t>(j)][3]), &screen);
        joint_on_screen_[static_cast<size_t>(j)] = on_screen;
        joint_screen_[static_cast<size_t>(j)] = {screen.x, screen.y};
      }
    }
    int hovered = -1;
    if (hover_test) {
      float best = 8.0f * view.device_pixel_ratio;
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        if (!joint_on_screen_[static_cast<size_t>(j)]) continue;
        const glm::vec2 screen = joint_screen_[static_cast<size_t>(j)];
        const float d = std::hypot(screen.x - static_cast<float>(view.pointer.x),
                                   screen.y - static_cast<float>(view.pointer.y));
        if (d < best) {
          best = d;
          hovered = j;
        }
      }
    }
    if (hovered >= 0 || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        const bool named =
            j == hovered || (is_selected && (view.display->joint_names || j == selection_.joint));
        if (!named) continue;
        if (joint_on_screen_[static_cast<size_t>(j)]) {
          const glm::vec2 screen = joint_screen_[static_cast<size_t>(j)];
          list.texts.push_back(
              {screen,
               j == selection_.joint ? Rgba8{255, 120, 120, 255} : Rgba8{230, 240, 255, 230},
               skeleton.name(j)});
        }
      }
    }
    if (view.display->bounds) {
      glm::vec3 lo = model.bind_min, hi = model.bind_max;
      if (character.playback.animation >= 0) {
        const anim::Animation& animation =
            *model.animations[static_cast<size_t>(character.playback.animation)];
        const auto& bounds = animation.bounds();
        if (!bounds.empty()) {
          const int frame = std::clamp(
              static_cast<int>(std::lround(character.playback.time * animation.frame_rate())), 0,
              static_cast<int>(bounds.size()) - 1);
          lo = bounds[static_cast<size_t>(frame)].min;
          hi = bounds[static_cast<size_t>(frame)].max;
        }
      }
      AddBox(list, character.RootMatrix(), lo, hi, {255, 200, 60, 255});
    }
    if (view.display->normals && is_selected) DrawNormals(character, model, list);
  }
}

void CharacterCast::DrawNormals(const Character& character, const LoadedModel& model,
                                DrawList& list) {
  const anim::GpuSkinData& gpu = model.model->gpu();
  std::vector<glm::vec3>& positions = normal_positions_;
  std::vector<glm::vec3>& normals = normal_directions_;
  positions.resize(gpu.vertices.size());
  normals.resize(gpu.vertices.size());
  anim::PaletteSkinningJob skin;
  skin.model = model.model.get();
  skin.palette =
      anim::Span<const glm::mat4>(character.pose.palette.data(), character.pose.palette.size());
  skin.positions = anim::Span<glm::vec3>(positions.data(), positions.size());
  skin.normals = anim::Span<glm::vec3>(normals.data(), normals.size());
  if (skin.Run()) {
    const float length = 0.03f * std::max(model.bind_max.z - model.bind_min.z, 1.0f);
    const size_t step = std::max<size_t>(1, positions.size() / 20000);
    for (size_t v = 0; v < positions.size(); v += step) {
      list.AddLine(positions[v], positions[v] + normals[v] * length, {120, 255, 140, 255});
    }
  }
}

bool CharacterCast::IsVisible(const Character& character, const Frustum& frustum) const {
  const LoadedModel& model = ModelOf(character);
  glm::vec3 lo = model.bind_min, hi = model.bind_max;
  const int animation = character.playback.animation;
  if (animation >= 0 && animation < static_cast<int>(model.bounds_kept.size())) {
    const anim::Bounds3& box = character.root_motion == anim::RootMotion::kStripHorizontal
                                   ? model.bounds_stripped[static_cast<size_t>(animation)]
                                   : model.bounds_kept[static_cast<size_t>(animation)];
    if (box.valid) {
      lo = glm::min(lo, box.min);
      hi = glm::max(hi, box.max);
    }
  }
  // A margin for crossfades and attached props.
  const glm::vec3 margin = 0.25f * (hi - lo);
  lo -= margin;
  hi += margin;
  const glm::mat4 root = character.RootMatrix();
  glm::vec3 world_lo(1e30f), world_hi(-1e30f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    const glm::vec3 p(root * glm::vec4(corner, 1.0f));
    world_lo = glm::min(world_lo, p);
    world_hi = glm::max(world_hi, p);
  }
  return frustum.IntersectsBox(world_lo, world_hi);
}

void CharacterCast::DrawPaths(DrawList& list, bool routes, bool circles) const {
  // The current path of each character going to a target (or to its route's start): planned
  // round obstacles, or the turn path when there are none; and its turning circles.
  for (const Character& character : characters_) {
    const Locomotion& locomotion = character.locomotion;
    if (!locomotion.enabled) continue;
    if (const PlannedPath* planned = locomotion.follower.planned()) {
      AddTurnPathShapes(planned->segments.data(), planned->segments.size(), routes, circles,
                        {150, 150, 255, 90}, &list.shapes);
      continue;
    }
    const TurnPath& path = locomotion.follower.approach();
    if (!path.ok() || !(path.length > 1e-9)) continue;
    AddTurnPathShapes(path.segments.data(), static_cast<size_t>(path.segment_count), routes,
                      circles, {150, 150, 255, 150}, &list.shapes);
  }
}

void CharacterCast::DrawGivingWay(DrawList& list, double now) const {
  if (!avoidance_) return;
  constexpr float kLift = 0.1f;  // above the paths (0.05)
  constexpr Rgba8 kGivingWay{255, 190, 40, 255}, kTaking{80, 220, 120, 255};
  constexpr Rgba8 kWanted{255, 255, 255, 255}, kChosen{255, 70, 50, 255};
  for (const Character& character : characters_) {
    Pose2 pose;
    double speed = 0.0;
    if (!CrowdPose(character, now, &pose, &speed)) continue;
    const int hint = static_cast<int>(&character - characters_.data());
    CrowdSteering steering;
    if (!crowd_.SteeringAt(character.id, hint, now, &steering)) continue;
    const glm::vec3 centre(glm::vec2(pose.position), kLift);
    list.AddCircle(centre, static_cast<float>(steering.clearance),
                   steering.giving_way ? kGivingWay : kTaking);
    const auto heading_line = [&](double heading, double line_speed, Rgba8 color) {
      const double length = steering.clearance + 0.5 * line_speed;
      const glm::dvec2 end =
          pose.position + length * glm::dvec2(std::cos(heading), std::sin(heading));
      list.shapes.push_back(
          SegmentShape(centre, glm::vec3(glm::vec2(end), kLift), color, LineDepth::kOnTop));
    };
    heading_line(steering.wanted_heading, steering.wanted_speed, kWanted);
    heading_line(pose.heading, steering.chosen_speed, kChosen);
  }
}

bool CharacterCast::Extent(int index, glm::vec3* lo, glm::vec3* hi) const {
  if (index < 0 || index >= static_cast<int>(characters_.size())) return false;
  const Character& character = characters_[static_cast<size_t>(index)];
  const LoadedModel& model = ModelOf(character);
  // The bind pose, and the skinned mesh at frames spread over the current animation (the file's
  // own per-frame bounds are often missing or wrong, and the bind pose of a crouching or lying
  // animation is far from where it plays).
  glm::vec3 box_lo = model.bind_min, box_hi = model.bind_max;
  const int animation = character.playback.animation;
  if (animation >= 0 && animation < static_cast<int>(model.animations.size())) {
    const anim::Animation& clip = *model.animations[static_cast<size_t>(animation)];
    const anim::Model& mesh = *model.model;
    const size_t vertex_count = mesh.gpu().vertices.size();
    std::vector<glm::vec3> positions(vertex_count);
    anim::Pose pose(mesh.skeleton().joint_count());
    const int frames = std::max(clip.frame_count(), 1);
    const int samples = std::min(frames, 24);
    for (int s = 0; s < samples; ++s) {
      const int frame = samples > 1 ? s * (frames - 1) / (samples - 1) : 0;
      anim::SampleJob sample;
      sample.animation = &clip;
      sample.time = static_cast<float>(frame) / std::max(clip.frame_rate(), 1e-6f);
      sample.mode = anim::PlaybackMode::kClamp;
      sample.root_motion = character.root_motion;
      sample.output = anim::Span<anim::JointTransform>(pose.locals.data(), pose.locals.size());
      if (!sample.Run()) continue;
      SkinPose(mesh, glm::mat4(1.0f), pose);
      anim::PaletteSkinningJob skin;
      skin.model = &mesh;
      skin.palette = anim::Span<const glm::mat4>(pose.palette.data(), pose.palette.size());
      skin.positions = anim::Span<glm::vec3>(positions.data(), positions.size());
      if (!skin.Run()) continue;
      for (const glm::vec3& p : positions) {
        box_lo = glm::min(box_lo, p);
        box_hi = glm::max(box_hi, p);
      }
    }
  }
  const glm::mat4 root = character.RootMatrix();
  glm::vec3 world_lo(1e30f), world_hi(-1e30f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? box_hi.x : box_lo.x, (i & 2) ? box_hi.y : box_lo.y,
                           (i & 4) ? box_hi.z : box_lo.z);
    const glm::vec3 p(root * glm::vec4(corner, 1.0f));
    world_lo = glm::min(world_lo, p);
    world_hi = glm::max(world_hi, p);
  }
  *lo = world_lo;
  *hi = world_hi;
  return true;
}

JsonValue LocomotionPathJson(const Locomotion& locomotion) {
  const TurnPath& path = locomotion.follower.approach();
  const PlannedPath* planned = locomotion.follower.planned();
  JsonValue json = JsonValue::MakeObject();
  // A plan around obstacles has any number of segments and no Dubins word: type "planned".
  json.Set("type", planned ? "planned" : TurnPathTypeName(path.type));
  json.Set("length", planned ? planned->length : path.length);
  const int count = planned ? static_cast<int>(planned->segments.size()) : path.segment_count;
  JsonArray segments;
  for (int s = 0; s < count; ++s) {
    const TurnSegment& segment =
        planned ? planned->segments[static_cast<size_t>(s)] : path.segments[static_cast<size_t>(s)];
    JsonValue j = JsonValue::MakeObject();
    j.Set("kind", segment.kind == TurnSegment::Kind::kArc ? "arc" : "line");
    j.Set("length", segment.length);
    j.Set("start", JsonValue(JsonArray{segment.start.position.x, segment.start.position.y,
                                       segment.start.heading}));
    if (segment.kind == TurnSegment::Kind::kArc) {
      j.Set("centre", JsonValue(JsonArray{segment.centre.x, segment.centre.y}));
      j.Set("radius", segment.radius);
      j.Set("sweep", segment.sweep);
    }
    segments.push_back(std::move(j));
  }
  json.Set("segments", JsonValue(std::move(segments)));
  return json;
}

JsonValue CharacterCast::Json(double now, const RouteBook& routes) const {
  JsonArray instances;
  for (const Character& character : characters_) {
    const LoadedModel& model = ModelOf(character);
    JsonValue i = JsonValue::MakeObject();
    i.Set("id", HandleText(character.id));
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
    i.Set("crossfade", static_cast<double>(character.playback.crossfade_seconds));
    Pose2 crowd_pose;
    double crowd_speed = 0.0;
    if (CrowdPose(character, now, &crowd_pose, &crowd_speed)) {
      // Full precision from the crowd's step, not the float copy used for rendering.
      i.Set("position", JsonValue(JsonArray{crowd_pose.position.x, crowd_pose.position.y}));
      i.Set("heading", crowd_pose.heading);
    } else if (character.locomotion.enabled) {
      // Full precision from the path, not the float copy used for rendering.
      const Pose2 pose = character.locomotion.follower.PoseAt(now);
      i.Set("position", JsonValue(JsonArray{pose.position.x, pose.position.y}));
      i.Set("heading", pose.heading);
    } else {
      i.Set("position", Vec(character.position));
      i.Set("heading", static_cast<double>(character.heading));
    }
    JsonArray attachments;
    for (const Attachment& attachment : character.attachments) {
      JsonValue a = JsonValue::MakeObject();
      a.Set("model", (*library_->Find(attachment.model)).name);
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
    i.Set("plan", PlanResultJson(locomotion));
    const bool on_route = locomotion.enabled && locomotion.route.valid();
    i.Set("route", on_route ? routes.IndexOf(locomotion.route) : -1);
    i.Set("route_id", on_route ? JsonValue(HandleText(locomotion.route)) : JsonValue());
    i.Set("moving", locomotion.moving);
    if (locomotion.enabled) {
      i.Set("distance", locomotion.follower.DistanceAt(now));
      i.Set("path", LocomotionPathJson(locomotion));
    }
    instances.push_back(std::move(i));
  }
  return JsonValue(std::move(instances));
}

std::vector<ui::InstanceSummary> CharacterCast::Summaries(const RouteBook& routes) const {
  std::vector<ui::InstanceSummary> summaries;
  for (size_t i = 0; i < characters_.size(); ++i) {
    const Character& character = characters_[i];
    summaries.push_back(SummarizeInstance(character, *library_,
                                          routes.IndexOf(character.locomotion.route),
                                          IsPlaying(static_cast<int>(i))));
  }
  return summaries;
}

bool CharacterCast::AnyPlaying() const {
  for (int i = 0; i < size(); ++i) {
    if (IsPlaying(i)) return true;
  }
  return false;
}

bool CharacterCast::Hides(const LineOfSight& sight) const {
  // Against each shown character's bone capsules in its current pose (the frame's): no skinning.
  for (const Character& character : characters_) {
    if (!character.visible) continue;
    const LoadedModel& loaded = ModelOf(character);
    const std::vector<glm::mat4>& joints = character.pose.models;
    if (joints.size() != loaded.bone_radii.size() || joints.empty()) continue;
    // The box of its capsules first: most sights pass other characters by (a figure places its
    // hotspots every frame, each against every character).
    glm::vec3 lo(joints[0][3]), hi(lo);
    float widest = 0.0f;
    for (size_t j = 0; j < joints.size(); ++j) {
      lo = glm::min(lo, glm::vec3(joints[j][3]));
      hi = glm::max(hi, glm::vec3(joints[j][3]));
      widest = std::max(widest, loaded.bone_radii[j]);
    }
    // A little wider than the capsules, so rounding in the box test never drops a grazing hit.
    const glm::vec3 margin(widest + 1e-3f * glm::length(hi - lo));
    if (!sight.CanMeetBox(lo - margin, hi + margin)) continue;
    bool occluded = false;
    anim::BoneCapsuleOcclusionJob job;
    job.joints = joints.data();
    job.parents = loaded.model->skeleton().parents().data();
    job.radii = loaded.bone_radii.data();
    job.joint_count = joints.size();
    job.sight = sight;
    job.occluded = &occluded;
    if (job.Run().ok() && occluded) return true;
  }
  return false;
}

}  // namespace md5stage::viewer
