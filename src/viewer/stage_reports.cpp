// The stage's reports: the state() snapshot, the scene clock (for embeds and the `clock`
// command), and the checks tests run against the renderer and the screen.
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/scene/scene_json.h"
#include "core/view/segment_occlusion.h"
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

// The search behind the path round obstacles it walks (null when it walks none): within the
// budget, and whether the last lattice pass ran to its end (no shorter path at its resolution).
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

void SetClock(const SceneClock& clock, JsonValue& reply) {
  reply.Set("finished", clock.finished);
  reply.Set("scene_end", clock.end >= 0.0 ? JsonValue(clock.end) : JsonValue());
  reply.Set("scene_repeats", clock.repeats);
}

// A handle's text, or null for none.
template <HandleKind Kind>
JsonValue IdJson(Handle<Kind> handle) {
  return handle.valid() ? JsonValue(HandleText(handle)) : JsonValue();
}

}  // namespace

// ---- state() ----------------------------------------------------------------------------------

JsonValue Stage::ModelsJson() const {
  const auto& models = library_->models();
  JsonArray model_list;
  for (const LoadedModel& model : models) {
    JsonValue m = JsonValue::MakeObject();
    const md5::MeshFile& file = model.model->source();
    m.Set("id", HandleText(model.id));
    m.Set("name", model.name);
    m.Set("joints", model.model->skeleton().joint_count());
    m.Set("meshes", model.model->mesh_count());
    m.Set("vertices", file.vertex_count());
    m.Set("triangles", file.triangle_count());
    m.Set("weights", file.weight_count());
    m.Set("max_weights_per_vertex", file.max_weights_per_vertex());
    JsonArray animations, textures;
    for (const std::string& name : model.animation_names) animations.emplace_back(name);
    for (const PartMaterial& part : model.parts) textures.emplace_back(part.diffuse_file);
    m.Set("animations", JsonValue(std::move(animations)));
    m.Set("textures", JsonValue(std::move(textures)));
    JsonArray normal_maps, specular_maps, materials, skins;
    for (const PartMaterial& part : model.parts) {
      normal_maps.emplace_back(part.normal_file);
      specular_maps.emplace_back(part.specular_file);
      materials.emplace_back(part.material);
    }
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
  return JsonValue(std::move(model_list));
}

JsonValue Stage::InstancesJson() const {
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
    i.Set("route", on_route ? RouteIndex(locomotion.route) : -1);
    i.Set("route_id", on_route ? JsonValue(HandleText(locomotion.route)) : JsonValue());
    i.Set("moving", locomotion.moving);
    if (locomotion.enabled) {
      i.Set("distance", locomotion.follower.DistanceAt(scene_time_));
      i.Set("path", PathJson(character));
    }
    instances.push_back(std::move(i));
  }
  return JsonValue(std::move(instances));
}

JsonValue Stage::State() const {
  JsonValue state = JsonValue::MakeObject();
  state.Set("webgl", stats_.gl_version);
  state.Set("frame", static_cast<double>(frame_));
  state.Set("canvas",
            JsonValue(JsonArray{JsonValue(viewport_.width), JsonValue(viewport_.height)}));
  state.Set("camera", camera_.OrbitJson());
  state.Set("cinematic", camera_.CinematicJson(scene_time_));
  state.Set("models", ModelsJson());
  state.Set("instances", InstancesJson());
  state.Set("scene_time", scene_time_);
  state.Set("scene_playing", scene_playing_);
  // Finished: every character with somewhere to go has arrived (never, on looping routes).
  SetClock(MeasureSceneClock(characters_, scene_time_), state);
  state.Set("panels", options_.panels_visible);
  state.Set("routes", RoutesJson());
  // The obstacles as a scene writes them, and their handles in the same order.
  state.Set("obstacles", *ObstaclesToJson(obstacles_.set).Find("obstacles"));
  JsonArray obstacle_ids;
  for (ObstacleId id : obstacles_.ids) obstacle_ids.emplace_back(HandleText(id));
  state.Set("obstacle_ids", JsonValue(std::move(obstacle_ids)));
  state.Set("selected_obstacle", ObstacleIndex(selection_.obstacle));
  state.Set("selected_obstacle_id", IdJson(selection_.obstacle));
  JsonValue budget = JsonValue::MakeObject();
  budget.Set("ms", obstacles_.plan_budget_ms ? JsonValue(*obstacles_.plan_budget_ms) : JsonValue());
  budget.Set("expansions", obstacles_.plan_budget);
  state.Set("plan_budget", std::move(budget));
  state.Set("polygon_draft", static_cast<double>(obstacle_tool_.draft().size()));
  const char* const tool_names[] = {"camera", "goto", "route", "obstacle"};
  state.Set("tool", std::string(tool_names[static_cast<int>(tool_)]));
  state.Set("selected", SelectedIndex());
  state.Set("selected_id", IdJson(selection_.character));
  state.Set("follow_selected", camera_.following());
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
  state.Set("construction",
            ConstructionFigureJson(scratch_.construction,
                                   CharacterIndex(scratch_.construction.character)));
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

JsonValue Stage::GpuSkinCheck(int instance) {
  // GPU skinning (transform feedback of the real shader) against the core's CPU reference
  // skinning with every weight, for this instance's current pose.
  Character* character = InstanceAt(instance);
  if (character == nullptr) return Failure("gpuSkinCheck: no instance " + std::to_string(instance));
  const LoadedModel& model = ModelOf(*character);
  PoseCharacter(*character, library_->models());
  std::vector<glm::vec3> gpu;
  std::vector<glm::vec4> gpu_tangents;
  if (!backend_->CaptureSkinnedPositions(model.gpu_mesh, character->pose.palette.data(), &gpu,
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

bool Stage::ScreenBounds(int instance, glm::vec4* rect) const {
  if (instance < 0 || instance >= static_cast<int>(characters_.size())) return false;
  const Character& character = characters_[static_cast<size_t>(instance)];
  const LoadedModel& model = ModelOf(character);
  const glm::mat4 view_projection = ViewProjection();
  const glm::mat4 root = character.RootMatrix();
  double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? model.bind_max.x : model.bind_min.x,
                           (i & 2) ? model.bind_max.y : model.bind_min.y,
                           (i & 4) ? model.bind_max.z : model.bind_min.z);
    glm::dvec2 pixel;
    if (!WorldToPixel(view_projection, viewport_.width, viewport_.height,
                      glm::vec3(root * glm::vec4(corner, 1.0f)), &pixel)) {
      continue;
    }
    x0 = std::min(x0, pixel.x);
    y0 = std::min(y0, pixel.y);
    x1 = std::max(x1, pixel.x);
    y1 = std::max(y1, pixel.y);
  }
  *rect = glm::vec4(static_cast<float>(std::floor(x0)), static_cast<float>(std::floor(y0)),
                    static_cast<float>(std::ceil(x1)), static_cast<float>(std::ceil(y1)));
  return x1 > x0;
}

glm::mat4 Stage::JointWorld(int instance, int joint) {
  Character* character = InstanceAt(instance);
  if (character == nullptr) return glm::mat4(1.0f);
  PoseCharacter(*character, library_->models());
  if (joint < 0 || joint >= static_cast<int>(character->pose.models.size())) return glm::mat4(1.0f);
  return character->pose.models[static_cast<size_t>(joint)];
}

namespace {

// Whether the segment from `from` to `to` passes through the box [lo, hi] (slab test).
bool SegmentCrossesBox(const glm::vec3& from, const glm::vec3& to, const glm::vec3& lo,
                       const glm::vec3& hi) {
  float enter = 0.0f, leave = 1.0f;
  for (int axis = 0; axis < 3; ++axis) {
    const float d = to[axis] - from[axis];
    if (std::abs(d) < 1e-12f) {
      if (from[axis] < lo[axis] || from[axis] > hi[axis]) return false;
      continue;
    }
    float t0 = (lo[axis] - from[axis]) / d, t1 = (hi[axis] - from[axis]) / d;
    if (t0 > t1) std::swap(t0, t1);
    enter = std::max(enter, t0);
    leave = std::min(leave, t1);
    if (enter > leave) return false;
  }
  return true;
}

}  // namespace

bool Stage::LocatePoint(const glm::vec3& world, float surface_depth, glm::dvec2* pixel,
                        bool* seen) {
  *seen = false;
  const glm::mat4 view_projection = ViewProjection();
  if (!WorldToPixel(view_projection, viewport_.width, viewport_.height, world, pixel)) return false;
  if (pixel->x < 0.0 || pixel->y < 0.0 || pixel->x > viewport_.width ||
      pixel->y > viewport_.height) {
    return true;
  }
  // The eye: the point the projection sends to w = 0 (x = y = 0 there).
  const glm::vec4 eye = glm::inverse(view_projection) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  if (std::abs(eye.w) < 1e-12f) {
    *seen = true;
    return true;
  }
  const glm::vec3 from = glm::vec3(eye) / eye.w;
  // Characters are skinned only when a segment comes near them, once a frame (the pose drawn).
  if (scratch_.skinned_frame != frame_) {
    scratch_.skinned_frame = frame_;
    scratch_.skinned_positions.resize(characters_.size());
    for (std::vector<glm::vec3>& positions : scratch_.skinned_positions) positions.clear();
  }
  for (size_t i = 0; i < characters_.size(); ++i) {
    Character& character = characters_[i];
    if (!character.visible) continue;
    const LoadedModel& loaded = ModelOf(character);
    const anim::Model& model = *loaded.model;
    if (character.pose.models.size() != static_cast<size_t>(model.skeleton().joint_count()) &&
        !PoseCharacter(character, library_->models())) {
      continue;
    }
    // Near: the box of its joints, grown by a quarter of its bind extent for the skin around them.
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::mat4& joint : character.pose.models) {
      lo = glm::min(lo, glm::vec3(joint[3]));
      hi = glm::max(hi, glm::vec3(joint[3]));
    }
    const glm::vec3 extent = loaded.bind_max - loaded.bind_min;
    const glm::vec3 margin(0.25f * std::max({extent.x, extent.y, extent.z}));
    if (!SegmentCrossesBox(from, world, lo - margin, hi + margin)) continue;
    std::vector<glm::vec3>& positions = scratch_.skinned_positions[i];
    if (positions.empty()) {
      positions.resize(model.gpu().vertices.size());
      anim::PaletteSkinningJob skin;
      skin.model = &model;
      skin.palette = {character.pose.palette.data(), character.pose.palette.size()};
      skin.positions = {positions.data(), positions.size()};
      if (!skin.Run()) {
        positions.clear();
        continue;
      }
    }
    const std::vector<std::uint32_t>& indices = model.gpu().indices;
    bool occluded = false;
    SegmentOcclusionJob job;
    job.positions = positions.data();
    job.position_count = positions.size();
    job.indices = indices.data();
    job.index_count = indices.size();
    job.from = from;
    job.to = world;
    job.surface_depth = surface_depth;
    job.occluded = &occluded;
    if (job.Run().ok() && occluded) return true;
  }
  *seen = true;
  return true;
}

}  // namespace md5stage::viewer
