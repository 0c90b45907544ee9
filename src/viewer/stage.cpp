#include "viewer/stage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/path/route_obstacles.h"
#include "core/view/frustum.h"
#include "viewer/json_util.h"

namespace md5stage::viewer {
namespace {

// The eight corners of a box, as 12 edges.
// The Model panel's facts of one model (`index` of the library, shown by `characters`).
ui::ModelSummary SummarizeModel(const LoadedModel& model, int index, std::vector<std::string> skins,
                                const std::vector<Character>& characters) {
  ui::ModelSummary summary;
  summary.id = HandleText(model.id);
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

// One arrow press turns the camera by this much (a held key does not repeat: 24 presses go round).
constexpr float kKeyOrbitDegrees = 15.0f;

}  // namespace

Stage::Stage(RenderBackend* backend, StageHost* host, anim::ResourceCache* shared_cache)
    : backend_(backend),
      host_(host),
      library_(std::make_unique<ModelLibrary>(backend, shared_cache)),
      cast_(library_.get()),
      opener_(this, host) {}

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
      if (pointer_.orbiting) {
        PlayCamera(-1);  // an orbit drag leaves a cinematic camera
        camera_.NoteReaderInput();
      }
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
  if (pointer_.orbiting || pointer_.panning) camera_.NoteReaderInput();
  if (pointer_.orbiting) camera_.DragOrbit(dx / ratio, dy / ratio);
  if (pointer_.turning_light) options_.shading.TurnLight(dx / ratio, dy / ratio);
  ToolMove(x, y);
  if (pointer_.panning) {
    camera_.DragPan(dx, dy, static_cast<float>(viewport_.height));
  }
}

void Stage::OnScroll(double steps) {
  if (pointer_.ui_wants_mouse) return;
  camera_.NoteReaderInput();
  camera_.ZoomBy(static_cast<float>(steps));
}

void Stage::OnTouch(int touches, const double* xs, const double* ys) {
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (touches > 0) camera_.NoteReaderInput();
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
  if (key == Key::kLeft || key == Key::kRight || key == Key::kUp || key == Key::kDown ||
      key == Key::kZoomIn || key == Key::kZoomOut || key == Key::kF) {
    camera_.NoteReaderInput();
  }
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
      if (tool_ == ui::Tool::kObstacle && obstacles_.selected_index() >= 0)
        RemoveObstacle(obstacles_.selected_index());
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

void Stage::RemoveModel(int model) {
  if (model < 0 || model >= static_cast<int>(library_->models().size())) return;
  // Its characters go, and what carries it; everything else is referred to by handle and stays
  // as it was: the selection, the followed character, the construction handles.
  cast_.RemoveModel(library_->models()[static_cast<size_t>(model)].id);
  library_->RemoveModel(model);
  ForgetRemovedCharacters();
}

void Stage::ForgetRemovedCharacters() {
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
  return cast_.Extent(instance, lo, hi);
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
  Update(dt * time_scale_, true);
  camera_.StepAutoRotate(dt, pointer_.orbiting || pointer_.panning);
  if (const char* source = camera_.TakeChange(); source != nullptr && host_ != nullptr) {
    JsonValue detail = JsonValue::MakeObject();
    detail.Set("source", source);
    host_->Event("cameraChange", detail);
  }
}

void Stage::Update(double dt, bool from_frame) {
  if (scene_playing_) scene_time_ += dt;
  BuildCrowd();
  const std::string problems = cast_.Step(dt, scene_time_, scene_playing_);
  if (!problems.empty()) SetError(problems);
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
                       library_->SkinsFor(static_cast<int>(&model - models.data())), cast_.all()));
  }
  view.instances = cast_.Summaries(routes_);
  const Selection& selection = cast_.selection();
  view.selected_instance = CharacterIndex(selection.character);
  view.selected_joint = selection.joint;
  const Character* selected = FindCharacter(selection.character);
  if (selected != nullptr && selection.joint >= 0 &&
      selection.joint < static_cast<int>(selected->pose.models.size())) {
    const size_t j = static_cast<size_t>(selection.joint);
    view.joint_detail.joint = selection.joint;
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
  view.crowd_size = cast_.size();
  view.routes = routes_.Summaries(Walkers(), obstacles_.set());
  view.edited_route = RouteIndex(routes_.pen().edited_route());
  view.auto_round_corners = routes_.pen().auto_round();
  view.hover_text = hover_text_;
  view.scene_time = static_cast<float>(scene_time_);
  view.scene_playing = scene_playing_;
  for (const Obstacle& obstacle : obstacles_.set().obstacles()) {
    ui::ObstacleSummary summary;
    summary.id = HandleText(
        obstacles_.ids()[static_cast<size_t>(&obstacle - obstacles_.set().obstacles().data())]);
    summary.circle = obstacle.kind == Obstacle::Kind::kCircle;
    summary.centre = summary.circle ? glm::vec2(obstacle.centre)
                                    : glm::vec2(0.5 * (obstacle.bounds.min + obstacle.bounds.max));
    summary.radius = static_cast<float>(obstacle.radius);
    summary.vertices = static_cast<int>(obstacle.vertices.size());
    view.obstacles.push_back(summary);
  }
  view.selected_obstacle = obstacles_.selected_index();
  view.following = camera_.following();
  view.obstacle_polygon_shape = obstacles_.tool().polygon_shape();
  view.polygon_draft_corners = static_cast<int>(obstacles_.tool().draft().size());
  return view;
}

void Stage::SetScenePlaying(bool playing) {
  // model-viewer's play and pause events: when the scene clock starts or stops.
  if (playing != scene_playing_ && host_ != nullptr) {
    host_->Event(playing ? "play" : "pause", JsonValue::MakeObject());
  }
  scene_playing_ = playing;
  for (int i = 0; i < cast_.size(); ++i) {
    // Each clip as Play and Pause do it: an ended clip plays again from the end it ended away
    // from.
    if (playing) {
      Play(i);
    } else {
      Pause(i);
    }
  }
}

bool Stage::ScenePlaying() const {
  if (!scene_playing_) return false;
  if (cast_.AnyPlaying()) return true;
  return cast_.size() == 0 || camera_.playing().valid();
}

void Stage::ToggleScenePlaying() { SetScenePlaying(!ScenePlaying()); }

void Stage::CancelPendingScene() {
  // The scene being opened failed: drop it and the models loaded for it (no character uses them).
  pending_scene_.reset();
  for (int m = static_cast<int>(library_->models().size()) - 1; m >= 0; --m) {
    if (!cast_.Uses(library_->models()[static_cast<size_t>(m)].id)) RemoveModel(m);
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
  const int culled = cast_.AddInstances(out, frustum);
  cast_.AddContactShadows(out, options_.shading.contact_shadow);
  if (options_.display.grid) {
    // A power of ten that suits the viewing distance, so tiny and huge models both get a grid.
    const float spacing =
        std::pow(10.0f, std::floor(std::log10(std::max(camera_.orbit().distance, 1e-3f) / 20.0f)));
    AddGroundGrid(out, spacing);
  }
  obstacles_.Draw(out, tool_ == ui::Tool::kObstacle);
  OverlayView overlay_view;
  overlay_view.display = &options_.display;
  overlay_view.pointer = glm::dvec2(pointer_.x, pointer_.y);
  overlay_view.pointer_free = !pointer_.ui_wants_mouse;
  overlay_view.device_pixel_ratio = stats_.device_pixel_ratio;
  overlay_view.width = viewport_.width;
  overlay_view.height = viewport_.height;
  cast_.DrawOverlays(out, overlay_view);
  DrawRouteOverlays(out);
  DrawToolOverlays(out);
  construction_.shown = false;
  if (options_.display.construction && cast_.size() > 0) {
    MakeConstructionFigure(*cast_.At(std::max(SelectedIndex(), 0)), scene_time_, &construction_);
    PlaceConstructionLabels(&construction_, out.view_projection, out.width, out.height,
                            stats_.device_pixel_ratio);
    DrawConstructionFigure(construction_, out);
  }
  stats_.culled = culled;
  stats_.characters = cast_.size();
}

void Stage::SetCrowdSize(int count) {
  cast_.SetCrowdSize(count, routes_);
  ForgetRemovedCharacters();
}

}  // namespace md5stage::viewer
