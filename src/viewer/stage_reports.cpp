// The stage's reports: the state() snapshot, the scene clock (for embeds and the `clock`
// command), and the checks tests run against the renderer and the screen.
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/scene/scene_json.h"
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
void SetClock(const SceneClock& clock, JsonValue& reply) {
  reply.Set("finished", clock.finished);
  reply.Set("scene_end", clock.end >= 0.0 ? JsonValue(clock.end) : JsonValue());
  reply.Set("scene_repeats", clock.repeats);
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

JsonValue Stage::InstancesJson() const { return cast_.Json(scene_time_, routes_); }

void Stage::AddFrameStats(JsonValue& into) const {
  into.Set("update_ms", static_cast<double>(stats_.update_ms));
  into.Set("render_ms", static_cast<double>(stats_.render_ms));
  into.Set("frame_ms", static_cast<double>(stats_.frame_ms));
  into.Set("draw_calls", stats_.draw_calls);
  into.Set("instances", stats_.instances);
  into.Set("culled", stats_.culled);
  into.Set("characters", static_cast<double>(cast_.size()));
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
  SetClock(MeasureSceneClock(cast_.all(), scene_time_), state);
  state.Set("panels", options_.panels_visible);
  state.Set("routes", RoutesJson());
  obstacles_.WriteState(&state);
  const char* const tool_names[] = {"camera", "goto", "route", "obstacle"};
  state.Set("tool", std::string(tool_names[static_cast<int>(tool_)]));
  state.Set("selected", SelectedIndex());
  state.Set("selected_id", IdJson(cast_.selection().character));
  state.Set("follow_selected", camera_.following());
  state.Set("selected_joint", cast_.selection().joint);
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
            ConstructionFigureJson(construction_, CharacterIndex(construction_.character)));
  JsonValue light = JsonValue::MakeObject();
  light.Set("azimuth", static_cast<double>(options_.shading.light_azimuth));
  light.Set("elevation", static_cast<double>(options_.shading.light_elevation));
  const glm::vec3 towards = options_.shading.LightDirection();
  light.Set("direction", Vec(towards));
  state.Set("light", std::move(light));
  JsonValue shading = JsonValue::MakeObject();
  shading.Set("normalMaps", options_.shading.normal_maps);
  shading.Set("specular", options_.shading.specular);
  shading.Set("contactShadow", static_cast<double>(options_.shading.contact_shadow));
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
  AddFrameStats(stats);
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
  reply.Set("time_scale", time_scale_);
  reply.Set("auto_rotate", camera_.AutoRotating());
  SetClock(MeasureSceneClock(cast_.all(), scene_time_), reply);
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
  const SceneClock measured = MeasureSceneClock(cast_.all(), scene_time_);
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
  Character* character = cast_.At(instance);
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
  const Character* at = cast_.At(instance);
  if (at == nullptr) return false;
  const Character& character = *at;
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
  Character* character = cast_.At(instance);
  if (character == nullptr) return glm::mat4(1.0f);
  PoseCharacter(*character, library_->models());
  if (joint < 0 || joint >= static_cast<int>(character->pose.models.size())) return glm::mat4(1.0f);
  return character->pose.models[static_cast<size_t>(joint)];
}

}  // namespace md5stage::viewer
