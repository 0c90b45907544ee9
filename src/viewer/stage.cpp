#include "viewer/stage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/path/route_obstacles.h"
#include "core/view/frustum.h"
#include "viewer/json_util.h"
#include "viewer/stage_opening.h"

namespace md5stage::viewer {
namespace {

float AnimationDuration(const LoadedModel& model, int animation) {
  if (animation < 0 || animation >= static_cast<int>(model.animations.size())) return 0.0f;
  return model.animations[static_cast<size_t>(animation)]->duration();
}

// The eight corners of a box, as 12 edges.
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

// The Model panel's facts of one model (`index` of the library, shown by `characters`).
ui::ModelSummary SummarizeModel(const LoadedModel& model, int index, std::vector<std::string> skins,
                                const std::vector<Character>& characters) {
  ui::ModelSummary summary;
  summary.name = model.name;
  summary.files.push_back(model.mesh_file);
  for (const std::string& name : model.animation_names) summary.files.push_back(name + ".md5anim");
  for (const auto file :
       {&PartMaterial::diffuse_file, &PartMaterial::normal_file, &PartMaterial::specular_file}) {
    for (const PartMaterial& part : model.parts) {
      const std::string& texture = part.*file;
      if (!texture.empty() &&
          std::find(summary.files.begin(), summary.files.end(), texture) == summary.files.end()) {
        summary.files.push_back(texture);
      }
    }
  }
  summary.skins = std::move(skins);
  summary.skin = model.skin;
  summary.local = model.local;
  const md5::MeshFile& file = model.model->source();
  summary.joints = model.model->skeleton().joint_count();
  summary.meshes = model.model->mesh_count();
  summary.vertices = file.vertex_count();
  summary.triangles = file.triangle_count();
  summary.weights = file.weight_count();
  summary.max_influences = file.max_weights_per_vertex();
  summary.top4_error = model.model->gpu().worst_dropped_weight;
  summary.warnings = model.warnings;
  summary.warnings.insert(summary.warnings.end(), model.material_warnings.begin(),
                          model.material_warnings.end());
  summary.joint_names = model.model->skeleton().names();
  summary.parents = model.model->skeleton().parents();
  summary.animations = model.animation_names;
  summary.shared_bytes = model.cpu_bytes + model.gpu_bytes;
  for (const Character& character : characters) summary.instances += character.model == model.id;
  return summary;
}

// The Animation panel's view of one character of the model.
// Positions are the panels' (this frame's lists): `route` the character's route's, -1 for none.
ui::InstanceSummary SummarizeInstance(const Character& character, const ModelLibrary& library,
                                      int route, bool playing) {
  const LoadedModel& model = *library.Find(character.model);
  ui::InstanceSummary summary;
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

// One arrow press turns the camera by this much (a held key does not repeat: 24 presses go round).
constexpr float kKeyOrbitDegrees = 15.0f;

}  // namespace

Stage::Stage(RenderBackend* backend, StageHost* host, anim::ResourceCache* shared_cache)
    : backend_(backend),
      host_(host),
      library_(std::make_unique<ModelLibrary>(backend, shared_cache)) {}

Stage::~Stage() = default;

void Stage::SetViewport(int width, int height, float device_pixel_ratio) {
  viewport_.width = std::max(width, 1);
  viewport_.height = std::max(height, 1);
  stats_.framebuffer_width = viewport_.width;
  stats_.framebuffer_height = viewport_.height;
  stats_.device_pixel_ratio = device_pixel_ratio > 0.0f ? device_pixel_ratio : 1.0f;
}

void Stage::SetUiCapture(bool mouse, bool keyboard) {
  pointer_.ui_wants_mouse = mouse;
  pointer_.ui_wants_keyboard = keyboard;
}

// ---- input -------------------------------------------------------------------------------------

void Stage::OnMouseButton(MouseButton button, bool pressed) {
  if (pressed && pointer_.ui_wants_mouse) return;
  if (button == MouseButton::kLeft) {
    if (pressed && pointer_.shift_held) {
      // Shift + drag turns the key light, whatever the tool.
      pointer_.turning_light = true;
      pointer_.orbiting = false;
    } else if (pressed) {
      // The ground tools take the click when they can; otherwise the left button orbits.
      pointer_.orbiting = !ToolPress(pointer_.x, pointer_.y);
      if (pointer_.orbiting) PlayCamera(-1);  // an orbit drag leaves a cinematic camera
    } else {
      ToolRelease(pointer_.x, pointer_.y);
      pointer_.orbiting = false;
      pointer_.turning_light = false;
    }
  } else {
    pointer_.panning = pressed;
  }
}

void Stage::OnCursor(double x, double y) {
  const float dx = static_cast<float>(x - pointer_.x);
  const float dy = static_cast<float>(y - pointer_.y);
  pointer_.x = x;
  pointer_.y = y;
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (pointer_.orbiting) camera_.DragOrbit(dx / ratio, dy / ratio);
  if (pointer_.turning_light) options_.shading.TurnLight(dx / ratio, dy / ratio);
  ToolMove(x, y);
  if (pointer_.panning) {
    camera_.DragPan(dx, dy, static_cast<float>(viewport_.height));
  }
}

void Stage::OnScroll(double steps) {
  if (pointer_.ui_wants_mouse) return;
  camera_.ZoomBy(static_cast<float>(steps));
}

void Stage::OnTouch(int touches, const double* xs, const double* ys) {
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (touches == 1 && pointer_.touch_count == 1) {
    camera_.DragOrbit(static_cast<float>(xs[0] - pointer_.touch_x) / ratio,
                      static_cast<float>(ys[0] - pointer_.touch_y) / ratio);
  } else if (touches == 2 && pointer_.touch_count == 2) {
    const double cx = 0.5 * (xs[0] + xs[1]), cy = 0.5 * (ys[0] + ys[1]);
    const double spread = std::hypot(xs[0] - xs[1], ys[0] - ys[1]);
    camera_.DragPan(static_cast<float>(cx - pointer_.touch_x),
                    static_cast<float>(cy - pointer_.touch_y),
                    static_cast<float>(viewport_.height));
    if (pointer_.touch_spread > 1.0 && spread > 1.0) {
      camera_.ZoomBy(
          static_cast<float>(std::log(spread / pointer_.touch_spread) / std::log(1.0 / 0.9)));
    }
  }
  pointer_.touch_count = touches;
  if (touches == 1) {
    pointer_.touch_x = xs[0];
    pointer_.touch_y = ys[0];
  } else if (touches == 2) {
    pointer_.touch_x = 0.5 * (xs[0] + xs[1]);
    pointer_.touch_y = 0.5 * (ys[0] + ys[1]);
    pointer_.touch_spread = std::hypot(xs[0] - xs[1], ys[0] - ys[1]);
  }
}

void Stage::OnKeyDown(Key key) { keys_.Down(key, pointer_.ui_wants_keyboard); }

void Stage::OnKeyUp(Key key) { keys_.Up(key); }

void Stage::HandleKeyPress(Key key) {
  switch (key) {
    case Key::kSpace:
      ToggleScenePlaying();
      break;
    case Key::kF:
      FrameSelection();
      break;
    case Key::kPeriod:
      StepFrames(SelectedIndex(), 1);
      break;
    case Key::kComma:
      StepFrames(SelectedIndex(), -1);
      break;
    case Key::kK: {
      DisplayToggles display = options_.display;
      display.skeleton = !display.skeleton;
      SetDisplay(display);
      break;
    }
    case Key::kW: {
      DisplayToggles display = options_.display;
      display.wireframe = !display.wireframe;
      SetDisplay(display);
      break;
    }
    case Key::kH:
      ToggleHelp();
      break;
    case Key::kEnter:
      if (tool_ == ui::Tool::kObstacle) ClosePolygonDraft();
      break;
    case Key::kEscape:
      LeaveCinematicCamera();
      break;
    case Key::kDelete:
      if (tool_ == ui::Tool::kObstacle && ObstacleIndex(selection_.obstacle) >= 0)
        RemoveObstacle(ObstacleIndex(selection_.obstacle));
      break;
    case Key::kLeft:
      OrbitBy(-kKeyOrbitDegrees, 0.0f);
      break;
    case Key::kRight:
      OrbitBy(kKeyOrbitDegrees, 0.0f);
      break;
    case Key::kUp:
      OrbitBy(0.0f, kKeyOrbitDegrees);
      break;
    case Key::kDown:
      OrbitBy(0.0f, -kKeyOrbitDegrees);
      break;
    case Key::kZoomIn:
      ZoomBy(1.0f);
      break;
    case Key::kZoomOut:
      ZoomBy(-1.0f);
      break;
  }
}

// ---- scene -------------------------------------------------------------------------------------

Character* Stage::Selected() { return FindCharacter(selection_.character); }

Character* Stage::FindCharacter(CharacterId id) {
  const int index = CharacterIndex(id);
  return index >= 0 ? &characters_[static_cast<size_t>(index)] : nullptr;
}

const Character* Stage::FindCharacter(CharacterId id) const {
  const int index = CharacterIndex(id);
  return index >= 0 ? &characters_[static_cast<size_t>(index)] : nullptr;
}

int Stage::CharacterIndex(CharacterId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < characters_.size(); ++i) {
    if (characters_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

CharacterId Stage::CharacterAt(int index) const {
  if (index < 0 || index >= static_cast<int>(characters_.size())) return CharacterId();
  return characters_[static_cast<size_t>(index)].id;
}

const LoadedModel& Stage::ModelOf(const Character& character) const {
  return *library_->Find(character.model);
}

int Stage::RouteIndex(RouteId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < routes_.size(); ++i) {
    if (routes_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

int Stage::ObstacleIndex(ObstacleId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < obstacles_.ids.size(); ++i) {
    if (obstacles_.ids[i] == id) return static_cast<int>(i);
  }
  return -1;
}

int Stage::CameraIndex(CameraId id) const { return camera_.IndexOf(id); }

glm::mat4 Stage::ViewProjection() const {
  const float aspect =
      static_cast<float>(viewport_.width) / static_cast<float>(std::max(viewport_.height, 1));
  return camera_.ViewProjection(aspect, scene_time_);
}

void Stage::SetError(const std::string& message) {
  report_.error = message;
  if (!message.empty()) report_.status = message.substr(0, message.find('\n'));
}

int Stage::AddCharacter(int model, glm::vec2 position, float heading) {
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
  // The radius it keeps from obstacles: half its bind pose's wider horizontal extent.
  character.locomotion.clearance =
      0.5 * std::max(static_cast<double>(loaded.bind_max.x - loaded.bind_min.x),
                     static_cast<double>(loaded.bind_max.y - loaded.bind_min.y));
  characters_.push_back(std::move(character));
  return static_cast<int>(characters_.size()) - 1;
}

void Stage::RemoveModel(int model) {
  if (model < 0 || model >= static_cast<int>(library_->models().size())) return;
  const ModelId removed = library_->models()[static_cast<size_t>(model)].id;
  // Characters of the model go, and attachments of it; everything else is referred to by handle
  // and stays as it was: the selection, the followed character, the construction handles.
  characters_.erase(std::remove_if(characters_.begin(), characters_.end(),
                                   [&](const Character& c) { return c.model == removed; }),
                    characters_.end());
  for (Character& character : characters_) {
    std::vector<Attachment>& attachments = character.attachments;
    attachments.erase(std::remove_if(attachments.begin(), attachments.end(),
                                     [&](const Attachment& a) { return a.model == removed; }),
                      attachments.end());
  }
  library_->RemoveModel(model);
  ForgetRemovedCharacters();
}

void Stage::ForgetRemovedCharacters() {
  if (FindCharacter(selection_.character) == nullptr) {
    selection_.character = CharacterId();
    selection_.joint = -1;
  }
  if (pointer_.construction_handles.active() &&
      FindCharacter(pointer_.construction_handles.character()) == nullptr) {
    pointer_.construction_handles.Release();
  }
}

JsonValue Stage::SetModelSkin(int model, const std::string& skin) {
  LoadReport report;
  const Status status = library_->SetSkin(model, skin, &report);
  if (!status.ok()) return Failure(status.error().message);
  report_.warnings = report.warnings;
  const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
  report_.status = loaded.skin.empty() ? loaded.name + ": its own shaders"
                                       : loaded.name + ": skin " + loaded.skin;
  JsonValue reply = Reply(true);
  JsonArray warnings;
  for (const std::string& w : report.warnings) warnings.emplace_back(w);
  reply.Set("warnings", JsonValue(std::move(warnings)));
  reply.Set("skin", loaded.skin);
  return reply;
}

bool Stage::CharacterExtent(int instance, glm::vec3* lo, glm::vec3* hi) const {
  if (instance < 0 || instance >= static_cast<int>(characters_.size())) return false;
  const Character& character = characters_[static_cast<size_t>(instance)];
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

void Stage::FrameSelection() {
  glm::vec3 lo, hi;
  if (!CharacterExtent(SelectedIndex(), &lo, &hi)) {
    camera_.Frame({-40, -40, 0}, {40, 40, 70},
                  static_cast<float>(viewport_.width) / static_cast<float>(viewport_.height));
    return;
  }
  camera_.Frame(lo, hi, static_cast<float>(viewport_.width) / static_cast<float>(viewport_.height));
}

// ---- frame -------------------------------------------------------------------------------------

void Stage::Update(double dt) {
  for (Key key : keys_.pending()) HandleKeyPress(key);
  keys_.Clear();
  if (dt > 0.0) {
    const float blend = frame_ < 2 ? 1.0f : 0.05f;
    stats_.frame_ms += blend * (static_cast<float>(dt) * 1000.0f - stats_.frame_ms);
    stats_.fps = stats_.frame_ms > 0.0f ? 1000.0f / stats_.frame_ms : 0.0f;
  }
  Update(dt, true);
}

void Stage::Update(double dt, bool from_frame) {
  if (scene_playing_) scene_time_ += dt;
  const auto& models = library_->models();
  for (Character& character : characters_) {
    UpdateLocomotion(character);
    const LoadedModel& model = ModelOf(character);
    anim::AdvanceClock(character.playback, AnimationDuration(model, character.playback.animation),
                       dt);
    if (!PoseCharacter(character, models) && character.visible) {
      // Never expected for validated models; hidden rather than drawn with a stale palette.
      character.visible = false;
      SetError(character.label + ": its pose could not be computed; it is hidden");
    }
  }
  if (!from_frame) return;
  RunEmbedTimeline();
  UpdateHover();
  if (const Character* selected = Selected()) camera_.Follow(selected->position);
}

ui::ViewerModel Stage::BuildViewerModel() const {
  ui::ViewerModel view;
  for (const CinematicCamera& camera : camera_.cinematics()) view.cameras.push_back(camera.name);
  view.playing_camera = camera_.IndexOf(camera_.playing());
  if (anim::CameraView sampled; camera_.Sample(scene_time_, &sampled)) {
    view.camera_frame = sampled.frame;
    view.camera_shot = sampled.shot;
  }
  const auto& models = library_->models();
  for (const LoadedModel& model : models) {
    view.models.push_back(
        SummarizeModel(model, static_cast<int>(&model - models.data()),
                       library_->SkinsFor(static_cast<int>(&model - models.data())), characters_));
  }
  for (const Character& character : characters_) {
    const int index = static_cast<int>(&character - characters_.data());
    view.instances.push_back(SummarizeInstance(
        character, *library_, RouteIndex(character.locomotion.route), IsPlaying(index)));
  }
  view.selected_instance = CharacterIndex(selection_.character);
  view.selected_joint = selection_.joint;
  const Character* selected = FindCharacter(selection_.character);
  if (selected != nullptr && selection_.joint >= 0 &&
      selection_.joint < static_cast<int>(selected->pose.models.size())) {
    const size_t j = static_cast<size_t>(selection_.joint);
    view.joint_detail.joint = selection_.joint;
    view.joint_detail.local_translation = selected->pose.locals[j].translation;
    view.joint_detail.local_rotation = selected->pose.locals[j].rotation;
    view.joint_detail.world_translation = glm::vec3(selected->pose.models[j][3]);
    view.joint_detail.world_rotation = glm::quat_cast(glm::mat3(selected->pose.models[j]));
  }
  view.display = options_.display;
  view.shading = options_.shading;
  view.stats = stats_;
  view.last_error = report_.error;
  view.status = report_.status;
  view.tool = tool_;
  view.crowd_size = static_cast<int>(characters_.size());
  for (size_t r = 0; r < routes_.size(); ++r) {
    const ViewerRoute& route = routes_[r];
    ui::RouteSummary summary;
    summary.name = route.name;
    summary.valid = route.route != nullptr;
    summary.length = route.route ? route.route->length() : 0.0;
    summary.closed = route.closed;
    summary.points = static_cast<int>(route.drawn_segments.size());
    const double radius = RoundingRadius(static_cast<int>(r));
    if (route.route && radius > 0.0)
      summary.tight_stretches = static_cast<int>(route.route->FindTightStretches(radius).size());
    if (route.route && !obstacles_.set.empty()) {
      summary.obstacle_crossings = static_cast<int>(
          FindObstacleStretches(*route.route, obstacles_.set, RouteClearance(static_cast<int>(r)))
              .size());
    }
    view.routes.push_back(std::move(summary));
  }
  view.edited_route = RouteIndex(route_tool_.edited_route());
  view.auto_round_corners = route_tool_.auto_round();
  view.hover_text = hover_text_;
  view.scene_time = static_cast<float>(scene_time_);
  view.scene_playing = scene_playing_;
  for (const Obstacle& obstacle : obstacles_.set.obstacles()) {
    ui::ObstacleSummary summary;
    summary.circle = obstacle.kind == Obstacle::Kind::kCircle;
    summary.centre = summary.circle ? glm::vec2(obstacle.centre)
                                    : glm::vec2(0.5 * (obstacle.bounds.min + obstacle.bounds.max));
    summary.radius = static_cast<float>(obstacle.radius);
    summary.vertices = static_cast<int>(obstacle.vertices.size());
    view.obstacles.push_back(summary);
  }
  view.selected_obstacle = ObstacleIndex(selection_.obstacle);
  view.obstacle_polygon_shape = obstacle_tool_.polygon_shape();
  view.polygon_draft_corners = static_cast<int>(obstacle_tool_.draft().size());
  return view;
}

void Stage::ApplyRequests(const ui::ViewerRequests& r) {
  if (r.play_camera) SelectCamera(*r.play_camera);
  if (r.select_instance) Select(*r.select_instance, -1);
  if (r.select_joint) selection_.joint = *r.select_joint;
  if (r.display) SetDisplay(*r.display);
  item_rects_ = r.item_rects;
  if (r.shading) SetShading(*r.shading);
  if (r.frame_model) FrameSelection();
  if (r.follow_selected) SetFollowSelected(!camera_.following());
  if (r.screenshot) Screenshot();
  if (r.open_files && host_) host_->OpenFilePicker();
  if (r.page_action && host_) host_->PageAction(*r.page_action);
  if (r.crowd_size) SetCrowdSize(*r.crowd_size);
  if (r.scene_time) SetSceneTime(static_cast<double>(*r.scene_time));
  if (r.scene_playing) SetScenePlaying(*r.scene_playing);
  if (r.models.add_instance_of_model)
    AddInstance(*r.models.add_instance_of_model, std::nullopt, 0.0f);
  if (r.models.download_gltf) DownloadGltf(*r.models.download_gltf);
  if (r.models.download_md5) DownloadMd5(*r.models.download_md5);
  if (r.models.set_skin) SetModelSkin(r.models.set_skin->first, r.models.set_skin->second);
  if (r.models.remove_model) RemoveModel(*r.models.remove_model);
  if (r.set_tool) {
    tool_ = *r.set_tool;
    if (tool_ == ui::Tool::kRoute && !route_tool_.edited_route().valid() &&
        route_tool_.editor().anchor_count() == 0 && !routes_.empty()) {
      StartEditingRoute(static_cast<int>(routes_.size()) - 1);
    }
  }
  if (r.set_tool && tool_ != ui::Tool::kObstacle) obstacle_tool_.DropDraft();
  if (r.obstacle_polygon_shape) obstacle_tool_.SetPolygonShape(*r.obstacle_polygon_shape);
  if (r.close_polygon) ClosePolygonDraft();
  if (r.remove_obstacle) RemoveObstacle(*r.remove_obstacle);
  if (r.clear_obstacles) ClearObstacles();
  if (r.routes.route_around) {
    Status status = RouteAround(*r.routes.route_around, std::nullopt);
    if (!status.ok()) SetError(status.error().ToString());
  }
  if (r.routes.edit_route) StartEditingRoute(*r.routes.edit_route);
  if (r.routes.auto_round_corners) {
    route_tool_.SetAutoRound(*r.routes.auto_round_corners);
    CommitEditedRoute();
  }
  if (r.routes.close_route && route_tool_.ToggleClosed()) CommitEditedRoute();
  if (r.routes.delete_route_point && route_tool_.DeleteSelectedPoint()) CommitEditedRoute();
  // The panels act on the selected character.
  const int i = CharacterIndex(selection_.character);
  if (i < 0) return;
  if (r.set_crossfade) SetCrossfade(i, std::max(0.0f, *r.set_crossfade));
  if (r.set_animation) SetAnimation(i, *r.set_animation);
  if (r.set_playing) {
    if (*r.set_playing) {
      Play(i);
    } else {
      Pause(i);
    }
  }
  if (r.set_rate) SetRate(i, *r.set_rate);
  if (r.set_mode) SetPlayMode(i, *r.set_mode);
  if (r.set_time) SetClipTime(i, *r.set_time);
  if (r.step_frames) StepFrames(i, *r.step_frames);
  if (r.locomotion.set_speed) SetSpeed(i, std::max(0.0f, *r.locomotion.set_speed));
  if (r.locomotion.set_turn_radius) SetTurnRadius(i, std::max(0.0f, *r.locomotion.set_turn_radius));
  if (r.locomotion.set_clearance) SetClearance(i, std::max(0.0f, *r.locomotion.set_clearance));
  if (r.locomotion.set_locomotion_animation)
    SetLocomotionAnimation(i, *r.locomotion.set_locomotion_animation);
  if (r.locomotion.assign_route) {
    Status status =
        AssignRoute(i, r.locomotion.assign_route->first, r.locomotion.assign_route->second);
    if (!status.ok()) SetError(status.error().ToString());
  }
  if (r.attachments.attach) {
    Attach(i, r.attachments.attach->model, r.attachments.attach->joint,
           r.attachments.attach->offset, r.attachments.attach->rotation_degrees);
  }
  if (r.attachments.edit_attachment) {
    EditAttachment(i, r.attachments.edit_attachment->first,
                   r.attachments.edit_attachment->second.offset,
                   r.attachments.edit_attachment->second.rotation_degrees);
  }
  if (r.attachments.detach) Detach(i, *r.attachments.detach);
}

void Stage::SetScenePlaying(bool playing) {
  scene_playing_ = playing;
  for (size_t i = 0; i < characters_.size(); ++i) {
    // Each clip as Play and Pause do it: an ended clip plays again from the end it ended away
    // from.
    if (playing) {
      Play(static_cast<int>(i));
    } else {
      Pause(static_cast<int>(i));
    }
  }
}

bool Stage::ScenePlaying() const {
  if (!scene_playing_) return false;
  for (size_t i = 0; i < characters_.size(); ++i) {
    if (IsPlaying(static_cast<int>(i))) return true;
  }
  return characters_.empty() || camera_.playing().valid();
}

void Stage::ToggleScenePlaying() { SetScenePlaying(!ScenePlaying()); }

void Stage::CancelPendingScene() {
  // The scene being opened failed: drop it and the models loaded for it (no character uses them).
  openings_.pending_scene.reset();
  for (int m = static_cast<int>(library_->models().size()) - 1; m >= 0; --m) {
    const ModelId id = library_->models()[static_cast<size_t>(m)].id;
    bool used = false;
    for (const Character& character : characters_) {
      used = used || character.model == id;
      for (const Attachment& attachment : character.attachments)
        used = used || attachment.model == id;
    }
    if (!used) RemoveModel(m);
  }
}

void Stage::BuildDrawList(DrawList* list) {
  DrawList& out = *list;
  out.Clear();
  out.width = viewport_.width;
  out.height = viewport_.height;
  out.view_projection = ViewProjection();
  out.wireframe = options_.display.wireframe;
  out.shading = options_.shading;
  const Frustum frustum = Frustum::FromViewProjection(out.view_projection);
  int culled = 0;
  for (const Character& character : characters_) {
    if (!character.visible) continue;
    if (!IsVisible(character, frustum)) {
      ++culled;
      continue;
    }
    const LoadedModel& model = ModelOf(character);
    out.instances.push_back(
        {model.gpu_mesh, character.pose.palette.data(), model.part_textures.data()});
    for (const Attachment& attachment : character.attachments) {
      if (attachment.pose.palette.empty()) continue;
      const LoadedModel& prop = *library_->Find(attachment.model);
      out.instances.push_back(
          {prop.gpu_mesh, attachment.pose.palette.data(), prop.part_textures.data()});
    }
  }
  if (options_.display.grid) {
    // A power of ten that suits the viewing distance, so tiny and huge models both get a grid.
    const float spacing =
        std::pow(10.0f, std::floor(std::log10(std::max(camera_.orbit().distance, 1e-3f) / 20.0f)));
    AddGroundGrid(out, spacing);
  }
  DrawObstacles(out);
  DrawCharacterOverlays(out);
  DrawRouteOverlays(out);
  DrawToolOverlays(out);
  scratch_.construction.shown = false;
  if (options_.display.construction && !characters_.empty()) {
    const int c = std::max(SelectedIndex(), 0);
    MakeConstructionFigure(characters_[static_cast<size_t>(c)], scene_time_,
                           &scratch_.construction);
    PlaceConstructionLabels(&scratch_.construction, out.view_projection, out.width, out.height,
                            stats_.device_pixel_ratio);
    DrawConstructionFigure(scratch_.construction, out);
  }
  stats_.culled = culled;
  stats_.characters = static_cast<int>(characters_.size());
}

void Stage::DrawCharacterOverlays(DrawList& list) {
  const glm::mat4 view_projection = list.view_projection;
  auto project = [&](const glm::vec3& p, glm::vec2* out) {
    glm::dvec2 pixel;
    if (!WorldToPixel(view_projection, viewport_.width, viewport_.height, p, &pixel)) return false;
    *out = glm::vec2(pixel);
    return true;
  };
  for (size_t c = 0; c < characters_.size(); ++c) {
    const Character& character = characters_[c];
    const LoadedModel& model = ModelOf(character);
    const anim::Skeleton& skeleton = model.model->skeleton();
    const bool is_selected = character.id == selection_.character;
    if (options_.display.skeleton) {
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
    scratch_.joint_screen.assign(static_cast<size_t>(skeleton.joint_count()), glm::vec2(0.0f));
    scratch_.joint_on_screen.assign(static_cast<size_t>(skeleton.joint_count()), 0);
    const bool hover_test = options_.display.skeleton && !pointer_.ui_wants_mouse;
    const bool any_names = is_selected && (options_.display.joint_names ||
                                           (options_.display.skeleton && selection_.joint >= 0));
    if (hover_test || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        glm::vec2 screen(0.0f);
        const bool on_screen =
            project(glm::vec3(character.pose.models[static_cast<size_t>(j)][3]), &screen);
        scratch_.joint_on_screen[static_cast<size_t>(j)] = on_screen;
        scratch_.joint_screen[static_cast<size_t>(j)] = {screen.x, screen.y};
      }
    }
    int hovered = -1;
    if (hover_test) {
      float best = 8.0f * stats_.device_pixel_ratio;
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        if (!scratch_.joint_on_screen[static_cast<size_t>(j)]) continue;
        const glm::vec2 screen = scratch_.joint_screen[static_cast<size_t>(j)];
        const float d = std::hypot(screen.x - static_cast<float>(pointer_.x),
                                   screen.y - static_cast<float>(pointer_.y));
        if (d < best) {
          best = d;
          hovered = j;
        }
      }
    }
    if (hovered >= 0 || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        const bool named = j == hovered ||
                           (is_selected && (options_.display.joint_names || j == selection_.joint));
        if (!named) continue;
        if (scratch_.joint_on_screen[static_cast<size_t>(j)]) {
          const glm::vec2 screen = scratch_.joint_screen[static_cast<size_t>(j)];
          list.texts.push_back(
              {screen,
               j == selection_.joint ? Rgba8{255, 120, 120, 255} : Rgba8{230, 240, 255, 230},
               skeleton.name(j)});
        }
      }
    }
    if (options_.display.bounds) {
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
    if (options_.display.normals && is_selected) DrawNormals(character, model, list);
  }
}

// The selected character's skinned normals (at most about 20,000 of them).
void Stage::DrawNormals(const Character& character, const LoadedModel& model, DrawList& list) {
  const anim::GpuSkinData& gpu = model.model->gpu();
  std::vector<glm::vec3>& positions = scratch_.normal_positions;
  std::vector<glm::vec3>& normals = scratch_.normal_directions;
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

bool Stage::IsVisible(const Character& character, const Frustum& frustum) const {
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

void Stage::SetCrowdSize(int count) {
  count = std::clamp(count, 1, 5000);
  if (crowd_templates_ <= 0 || crowd_templates_ > static_cast<int>(characters_.size())) {
    crowd_templates_ = static_cast<int>(characters_.size());
  }
  if (crowd_templates_ == 0) return;
  while (static_cast<int>(characters_.size()) > std::max(count, 1)) characters_.pop_back();
  const int templates = crowd_templates_;
  const int copies = (count + templates - 1) / templates;
  while (static_cast<int>(characters_.size()) < count) {
    const int k = static_cast<int>(characters_.size());
    Character clone = characters_[static_cast<size_t>(k % templates)];
    clone.label += " #" + std::to_string(k);
    Locomotion& locomotion = clone.locomotion;
    const int route = RouteIndex(locomotion.route);
    if (locomotion.enabled && route >= 0 && routes_[static_cast<size_t>(route)].route) {
      // Clones queue at the route's start and leave one after another, evenly spaced.
      const double length = routes_[static_cast<size_t>(route)].route->length();
      const double spacing = length / std::max(locomotion.speed, 1e-3) / copies;
      const Pose2 start = locomotion.follower.PoseAt(-1e300);
      locomotion.follower = Follower(start, locomotion.turn_radius, locomotion.speed, 0.0);
      locomotion.start_delay += spacing * (k / templates);
      const double now = scene_time_;
      scene_time_ = 0.0;
      StartRoute(clone, locomotion.route, locomotion.route_mode);
      scene_time_ = now;
    } else {
      // Standing characters spread out on a grid beside their template.
      const LoadedModel& model = ModelOf(clone);
      const float step =
          1.5f * std::max(model.bind_max.x - model.bind_min.x, model.bind_max.y - model.bind_min.y);
      const int slot = k / templates;
      clone.position +=
          glm::vec2(step * static_cast<float>(slot % 20), step * static_cast<float>(slot / 20));
    }
    clone.id = serials_.Next<HandleKind::kCharacter>();
    characters_.push_back(std::move(clone));
  }
  ForgetRemovedCharacters();
}

}  // namespace md5stage::viewer
