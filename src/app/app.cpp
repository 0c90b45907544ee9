#include "app/app.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/json_util.h"
#include "core/view/frustum.h"
#include "render/gl.h"
#include "ui/panels.h"

namespace md5stage::app {
namespace {

App* g_app = nullptr;  // GLFW 3.1.6 callbacks carry no user pointer we can rely on

// Tells the page (web/main.js) that a frame was drawn; the first call resolves md5stage.ready.
EM_JS(void, JsFrameRendered, (int frame), {
  if (Module.md5stageFrameRendered) Module.md5stageFrameRendered(frame);
});

EM_JS(void, JsOpenFilePicker, (), {
  if (window.md5stage && window.md5stage.openFilePicker) window.md5stage.openFilePicker();
});

// Actions only the page can do (clipboard, opening a demo): window.md5stage.pageAction(name).
EM_JS(void, JsPageAction, (const char* action), {
  if (window.md5stage && window.md5stage.pageAction) window.md5stage.pageAction(UTF8ToString(action));
});

// Called right after the frame is drawn, while the drawing buffer still holds it.
EM_JS(void, JsDownloadScreenshot, (), {
  Module.canvas.toBlob(function(blob) {
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'md5stage.png';
    link.click();
    setTimeout(function() { URL.revokeObjectURL(link.href); }, 1000);
  });
});

double NowMs() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

// Emscripten 3.1.6's GLFW passes the DOM wheel deltas through unchanged: browser direction
// (positive = down) in pixels (about 100 per notch) or, in Firefox, lines (3 per notch).
double WheelSteps(double dom_delta) {
  const double magnitude = std::abs(dom_delta);
  const double steps = magnitude >= 50.0 ? magnitude / 100.0 : magnitude / 3.0;
  return dom_delta > 0 ? -steps : steps;
}

void MouseButtonCallback(GLFWwindow* window, int button, int action, int mods) {
  ImGui_ImplGlfw_MouseButtonCallback(window, button, action, mods);
  if (g_app) g_app->OnMouseButton(button, action);
}
void CursorCallback(GLFWwindow*, double x, double y) {
  if (g_app) g_app->OnCursor(x, y);
}
void ScrollCallback(GLFWwindow* window, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(window, WheelSteps(dx), WheelSteps(dy));
  if (g_app) g_app->OnScroll(WheelSteps(dy));
}

EM_BOOL TouchCallback(int event_type, const EmscriptenTouchEvent* event, void*) {
  if (!g_app) return EM_FALSE;
  const double ratio = emscripten_get_device_pixel_ratio();
  double xs[2] = {0, 0}, ys[2] = {0, 0};
  int count = 0;
  for (int i = 0; i < event->numTouches && count < 2; ++i) {
    // Ended touches are still listed in touchend events; only the ones on the surface count.
    const bool ended = event_type == EMSCRIPTEN_EVENT_TOUCHEND || event_type == EMSCRIPTEN_EVENT_TOUCHCANCEL;
    if (ended && event->touches[i].isChanged) continue;
    xs[count] = event->touches[i].targetX * ratio;
    ys[count] = event->touches[i].targetY * ratio;
    ++count;
  }
  g_app->OnTouch(count, xs, ys);
  return EM_TRUE;
}

float AnimationDuration(const LoadedModel& model, int animation) {
  if (animation < 0 || animation >= static_cast<int>(model.animations.size())) return 0.0f;
  return model.animations[static_cast<size_t>(animation)]->duration();
}

// The eight corners of a box, as 12 edges.
void AddBox(render::LineRenderer& lines, const glm::mat4& transform, const glm::vec3& lo,
            const glm::vec3& hi, render::Rgba8 color) {
  glm::vec3 c[8];
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 p((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    c[i] = glm::vec3(transform * glm::vec4(p, 1.0f));
  }
  const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                            {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges) lines.AddLine(c[e[0]], c[e[1]], color, render::LineRenderer::Depth::kOnTop);
}

}  // namespace

App::App() = default;

bool App::Init(std::string* error) {
  g_app = this;
  if (!glfwInit()) {
    *error = "GLFW could not start";
    return false;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 24);
  glfwWindowHint(GLFW_SAMPLES, 4);
  window_ = glfwCreateWindow(1280, 720, "md5stage", nullptr, nullptr);
  if (window_ == nullptr) {
    *error = "This browser could not create a WebGL2 context.";
    return false;
  }
  glfwMakeContextCurrent(window_);
  SyncCanvasSize();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsDark();
  // The canvas is sized in device pixels, so the UI scales with the pixel ratio to keep its size.
  stats_.device_pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  io.FontGlobalScale = stats_.device_pixel_ratio;
  ImGui::GetStyle().ScaleAllSizes(stats_.device_pixel_ratio);
  ImGui_ImplGlfw_InitForOpenGL(window_, false);
  if (!imgui_renderer_.Init(error)) return false;
  glfwSetMouseButtonCallback(window_, MouseButtonCallback);
  glfwSetCursorPosCallback(window_, CursorCallback);
  glfwSetScrollCallback(window_, ScrollCallback);
  glfwSetKeyCallback(window_, ImGui_ImplGlfw_KeyCallback);
  glfwSetCharCallback(window_, ImGui_ImplGlfw_CharCallback);
  glfwSetCursorEnterCallback(window_, ImGui_ImplGlfw_CursorEnterCallback);
  glfwSetWindowFocusCallback(window_, ImGui_ImplGlfw_WindowFocusCallback);
  emscripten_set_touchstart_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchmove_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchend_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchcancel_callback("#canvas", nullptr, EM_TRUE, TouchCallback);

  if (!lines_.Init(error)) return false;
  meshes_ = std::make_unique<render::SkinnedMeshRenderer>();
  if (!meshes_->Init(error)) return false;
  library_ = std::make_unique<ModelLibrary>(meshes_.get());
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  stats_.gl_version = version ? version : "";
  last_time_ = glfwGetTime();
  return true;
}

void App::SyncCanvasSize() {
  double css_width = 0, css_height = 0;
  emscripten_get_element_css_size("#canvas", &css_width, &css_height);
  const double ratio = emscripten_get_device_pixel_ratio();
  const int target_width = std::max(1, static_cast<int>(std::lround(css_width * ratio)));
  const int target_height = std::max(1, static_cast<int>(std::lround(css_height * ratio)));
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  if (width != target_width || height != target_height) {
    // Not glfwSetWindowSize: Emscripten's GLFW asks for fullscreen whenever the size equals the
    // screen's. The canvas and GLFW's idea of the window are resized directly instead.
    EM_ASM({
      Module.canvas.width = $0;
      Module.canvas.height = $1;
      if (typeof GLFW !== 'undefined' && GLFW.active) {
        GLFW.active.width = $0;
        GLFW.active.height = $1;
      }
    }, target_width, target_height);
  }
  glfwGetFramebufferSize(window_, &width_, &height_);
  stats_.framebuffer_width = width_;
  stats_.framebuffer_height = height_;
}

// ---- input -------------------------------------------------------------------------------------

void App::OnMouseButton(int button, int action) {
  const bool pressed = action == GLFW_PRESS;
  if (pressed && ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (pressed) {
      // The ground tools take the click when they can; otherwise the left button orbits.
      orbiting_ = !ToolPress(cursor_x_, cursor_y_);
    } else {
      if (drag_ != Drag::kNone) ToolRelease(cursor_x_, cursor_y_);
      orbiting_ = false;
    }
  }
  if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) panning_ = pressed;
}

void App::OnCursor(double x, double y) {
  const float dx = static_cast<float>(x - cursor_x_);
  const float dy = static_cast<float>(y - cursor_y_);
  cursor_x_ = x;
  cursor_y_ = y;
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (orbiting_) camera_.Orbit(dx / ratio, dy / ratio);
  if (drag_ != Drag::kNone) ToolMove(x, y);
  if (panning_) {
    camera_.Pan(dx, dy, static_cast<float>(height_));
    follow_selected_ = false;
  }
}

void App::OnScroll(double steps) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  camera_.Zoom(static_cast<float>(steps));
}

void App::OnTouch(int touches, const double* xs, const double* ys) {
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (touches == 1 && touch_count_ == 1) {
    camera_.Orbit(static_cast<float>(xs[0] - touch_x_) / ratio,
                  static_cast<float>(ys[0] - touch_y_) / ratio);
  } else if (touches == 2 && touch_count_ == 2) {
    const double cx = 0.5 * (xs[0] + xs[1]), cy = 0.5 * (ys[0] + ys[1]);
    const double spread = std::hypot(xs[0] - xs[1], ys[0] - ys[1]);
    camera_.Pan(static_cast<float>(cx - touch_x_), static_cast<float>(cy - touch_y_),
                static_cast<float>(height_));
    if (touch_spread_ > 1.0 && spread > 1.0) {
      camera_.Zoom(static_cast<float>(std::log(spread / touch_spread_) / std::log(1.0 / 0.9)));
    }
  }
  touch_count_ = touches;
  if (touches == 1) {
    touch_x_ = xs[0];
    touch_y_ = ys[0];
  } else if (touches == 2) {
    touch_x_ = 0.5 * (xs[0] + xs[1]);
    touch_y_ = 0.5 * (ys[0] + ys[1]);
    touch_spread_ = std::hypot(xs[0] - xs[1], ys[0] - ys[1]);
  }
}

void App::HandleKeyboard() {
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  ui::ViewerRequests requests;
  Character* selected = Selected();
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE) && selected) {
    requests.set_playing = !selected->playback.playing;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F)) requests.frame_model = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_PERIOD)) requests.step_frames = 1;
  if (ImGui::IsKeyPressed(GLFW_KEY_COMMA)) requests.step_frames = -1;
  if (ImGui::IsKeyPressed(GLFW_KEY_K)) {
    ui::DisplayToggles display = display_;
    display.skeleton = !display.skeleton;
    requests.display = display;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_W)) {
    ui::DisplayToggles display = display_;
    display.wireframe = !display.wireframe;
    requests.display = display;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_H)) help_open_ = !help_open_;
  ApplyRequests(requests);
}

// ---- scene -------------------------------------------------------------------------------------

Character* App::Selected() {
  if (selected_ < 0 || selected_ >= static_cast<int>(characters_.size())) return nullptr;
  return &characters_[static_cast<size_t>(selected_)];
}

void App::SetError(const std::string& message) {
  last_error_ = message;
  if (!message.empty()) {
    status_ = message.substr(0, message.find('\n'));
    std::fprintf(stderr, "md5stage: %s\n", message.c_str());
  }
}

int App::AddCharacter(int model, glm::vec2 position, float heading) {
  const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
  Character character;
  character.model = model;
  character.position = position;
  character.heading = heading;
  int count = 0;
  for (const Character& other : characters_) count += other.model == model ? 1 : 0;
  character.label = loaded.name + (count > 0 ? " " + std::to_string(count + 1) : "");
  int animation = loaded.FindAnimation("idle");
  if (animation < 0 && !loaded.animations.empty()) animation = 0;
  character.playback.animation = animation;
  character.pose.Resize(loaded.model->skeleton().joint_count());
  characters_.push_back(std::move(character));
  return static_cast<int>(characters_.size()) - 1;
}

void App::RemoveModel(int model) {
  if (model < 0 || model >= static_cast<int>(library_->models().size())) return;
  // Characters of the model go; attachments of it go; indices above it shift down.
  std::vector<Character> kept;
  for (Character& character : characters_) {
    if (character.model == model) continue;
    if (character.model > model) --character.model;
    std::vector<Attachment> attachments;
    for (Attachment& attachment : character.attachments) {
      if (attachment.model == model) continue;
      if (attachment.model > model) --attachment.model;
      attachments.push_back(std::move(attachment));
    }
    character.attachments = std::move(attachments);
    kept.push_back(std::move(character));
  }
  characters_ = std::move(kept);
  library_->RemoveModel(model);
  if (selected_ >= static_cast<int>(characters_.size())) selected_ = static_cast<int>(characters_.size()) - 1;
  selected_joint_ = -1;
}

JsonValue App::LoadQueuedFiles() {
  std::vector<InputFile> files = std::move(pending_files_);
  pending_files_.clear();
  const int models_before = static_cast<int>(library_->models().size());
  LoadReport report = library_->LoadFiles(std::move(files));
  // New models appear beside what is already shown, and the camera turns to them.
  float right = -1e30f;
  for (const Character& character : characters_) {
    const LoadedModel& model = library_->models()[static_cast<size_t>(character.model)];
    right = std::max(right, character.position.x + model.bind_max.x);
  }
  // Files fetched for a scene being opened get their characters when the scene is applied.
  if (pending_scene_) report.new_models_to_show.clear();
  for (int index : report.new_models_to_show) {
    const LoadedModel& model = library_->models()[static_cast<size_t>(index)];
    glm::vec2 position(0.0f);
    if (right > -1e29f) {
      const float width = model.bind_max.x - model.bind_min.x;
      position.x = right + 0.25f * std::max(width, 1.0f) - model.bind_min.x;
      right = position.x + model.bind_max.x;
    } else {
      right = model.bind_max.x;
    }
    selected_ = AddCharacter(index, position, 0.0f);
    selected_joint_ = -1;
  }
  if (!report.new_models_to_show.empty()) FrameSelection();
  if (report.new_models.empty() && report.animations_bound > 0 && Selected() != nullptr) {
    Character& character = *Selected();
    const LoadedModel& model = library_->models()[static_cast<size_t>(character.model)];
    SwitchAnimation(character.playback, static_cast<int>(model.animations.size()) - 1);
  }
  last_warnings_ = report.warnings;
  if (!report.errors.empty()) {
    std::string joined;
    for (const std::string& e : report.errors) joined += (joined.empty() ? "" : "\n") + e;
    SetError(joined);
  } else {
    last_error_.clear();
    status_ = "Loaded " + std::to_string(static_cast<int>(library_->models().size()) - models_before) +
              " model(s), " + std::to_string(report.animations_bound) + " animation(s), " +
              std::to_string(report.textures_bound) + " texture(s)";
  }
  JsonValue reply = Reply(report.errors.empty());
  JsonArray errors, warnings, models;
  for (const std::string& e : report.errors) errors.emplace_back(e);
  for (const std::string& w : report.warnings) warnings.emplace_back(w);
  for (int index : report.new_models) models.emplace_back(library_->models()[static_cast<size_t>(index)].name);
  reply.Set("errors", JsonValue(std::move(errors)));
  reply.Set("warnings", JsonValue(std::move(warnings)));
  reply.Set("models", JsonValue(std::move(models)));
  // Textures of fetched models are fetched too: the page asks for each missing one next to the
  // mesh, named after the part's shader (bundled assets are PNG; remote models may be TGA/JPG).
  JsonArray texture_requests;
  for (int index : report.new_models) {
    const LoadedModel& model = library_->models()[static_cast<size_t>(index)];
    if (model.local) continue;
    const std::string& source = model.mesh_source;
    const std::string folder = source.substr(0, source.find_last_of('/') + 1);
    std::vector<std::string> seen;
    for (size_t part = 0; part < model.textures.size(); ++part) {
      const std::string stem = FileStem(model.model->gpu().submeshes[part].shader);
      if (model.textures[part] >= 0 || stem.empty()) continue;
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
  reply.Set("texture_requests", JsonValue(std::move(texture_requests)));
  reply.Set("animations", report.animations_bound);
  reply.Set("textures", report.textures_bound);
  return reply;
}

void App::FrameSelection() {
  const Character* character = Selected();
  if (character == nullptr) {
    camera_.Frame({-40, -40, 0}, {40, 40, 70});
    return;
  }
  const LoadedModel& model = library_->models()[static_cast<size_t>(character->model)];
  const glm::mat4 root = character->RootMatrix();
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? model.bind_max.x : model.bind_min.x,
                           (i & 2) ? model.bind_max.y : model.bind_min.y,
                           (i & 4) ? model.bind_max.z : model.bind_min.z);
    const glm::vec3 p(root * glm::vec4(corner, 1.0f));
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  camera_.Frame(lo, hi);
}

// ---- frame -------------------------------------------------------------------------------------

void App::Update(double dt) {
  if (scene_playing_) scene_time_ += dt;
  const auto& models = library_->models();
  for (Character& character : characters_) {
    UpdateLocomotion(character);
    const LoadedModel& model = models[static_cast<size_t>(character.model)];
    AdvancePlayback(character.playback, AnimationDuration(model, character.playback.animation), dt);
    PoseCharacter(character, models);
  }
  UpdateHover();
  if (follow_selected_ && Selected() != nullptr) {
    const Character& character = *Selected();
    camera_.target.x = character.position.x;
    camera_.target.y = character.position.y;
  }
}

ui::ViewerModel App::BuildViewerModel() const {
  ui::ViewerModel view;
  const auto& models = library_->models();
  for (const LoadedModel& model : models) {
    ui::ModelSummary summary;
    summary.name = model.name;
    summary.files.push_back(model.mesh_file);
    for (const std::string& name : model.animation_names) summary.files.push_back(name + ".md5anim");
    for (const std::string& texture : model.texture_files) {
      if (!texture.empty() && std::find(summary.files.begin(), summary.files.end(), texture) == summary.files.end()) {
        summary.files.push_back(texture);
      }
    }
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
    summary.joint_names = model.model->skeleton().names();
    summary.parents = model.model->skeleton().parents();
    summary.animations = model.animation_names;
    summary.shared_bytes = model.cpu_bytes + model.gpu_bytes;
    for (const Character& character : characters_) summary.instances += &models[static_cast<size_t>(character.model)] == &model;
    view.models.push_back(std::move(summary));
  }
  for (const Character& character : characters_) {
    const LoadedModel& model = models[static_cast<size_t>(character.model)];
    ui::InstanceSummary summary;
    summary.label = character.label;
    summary.model = character.model;
    summary.animation = character.playback.animation;
    summary.time = static_cast<float>(character.playback.time);
    if (character.playback.animation >= 0) {
      const anim::Animation& animation = *model.animations[static_cast<size_t>(character.playback.animation)];
      summary.duration = animation.duration();
      summary.frame_rate = animation.frame_rate();
      summary.frame_count = animation.frame_count();
    }
    summary.rate = character.playback.rate;
    summary.mode = character.playback.mode;
    summary.playing = character.playback.playing;
    summary.crossfade_seconds = character.playback.crossfade_seconds;
    summary.position = character.position;
    summary.speed = static_cast<float>(character.locomotion.speed);
    summary.turn_radius = static_cast<float>(character.locomotion.turn_radius);
    summary.route = character.locomotion.enabled ? character.locomotion.route : -1;
    summary.route_mode = character.locomotion.route_mode == RouteMode::kOnce ? ui::PlayMode::kOnce
                         : character.locomotion.route_mode == RouteMode::kPingPong ? ui::PlayMode::kPingPong
                                                                                  : ui::PlayMode::kLoop;
    summary.locomotion_animation = character.locomotion.walk_animation;
    summary.moving = character.locomotion.moving;
    summary.heading_degrees = glm::degrees(character.heading);
    for (const Attachment& attachment : character.attachments) {
      ui::AttachmentSummary a;
      a.model = attachment.model;
      a.joint = model.model->skeleton().name(attachment.joint);
      a.offset = attachment.offset;
      a.rotation_degrees = attachment.rotation_degrees;
      summary.attachments.push_back(a);
    }
    summary.instance_bytes = character.pose.locals.size() * (2 * sizeof(anim::JointTransform) + 2 * sizeof(glm::mat4));
    view.instances.push_back(std::move(summary));
  }
  view.selected_instance = selected_;
  view.selected_joint = selected_joint_;
  const Character* selected = selected_ >= 0 && selected_ < static_cast<int>(characters_.size())
                                  ? &characters_[static_cast<size_t>(selected_)]
                                  : nullptr;
  if (selected != nullptr && selected_joint_ >= 0 &&
      selected_joint_ < static_cast<int>(selected->pose.models.size())) {
    const size_t j = static_cast<size_t>(selected_joint_);
    view.joint_detail.joint = selected_joint_;
    view.joint_detail.local_translation = selected->pose.locals[j].translation;
    view.joint_detail.local_rotation = selected->pose.locals[j].rotation;
    view.joint_detail.world_translation = glm::vec3(selected->pose.models[j][3]);
    view.joint_detail.world_rotation = glm::quat_cast(glm::mat3(selected->pose.models[j]));
  }
  view.display = display_;
  view.stats = stats_;
  view.last_error = last_error_;
  view.status = status_;
  view.tool = tool_;
  view.crowd_size = static_cast<int>(characters_.size());
  for (size_t r = 0; r < routes_.size(); ++r) {
    const AppRoute& route = routes_[r];
    ui::RouteSummary summary;
    summary.name = route.name;
    summary.valid = route.route != nullptr;
    summary.length = route.route ? route.route->length() : 0.0;
    summary.closed = route.closed;
    summary.points = static_cast<int>(route.drawn_segments.size());
    const double radius = RoundingRadius(static_cast<int>(r));
    if (route.route && radius > 0.0) summary.tight_stretches = static_cast<int>(route.route->FindTightStretches(radius).size());
    view.routes.push_back(std::move(summary));
  }
  view.edited_route = edited_route_;
  view.auto_round_corners = auto_round_;
  view.hover_text = hover_text_;
  view.scene_time = static_cast<float>(scene_time_);
  view.scene_playing = scene_playing_;
  return view;
}

void App::ApplyRequests(const ui::ViewerRequests& r) {
  if (r.select_instance) {
    selected_ = *r.select_instance;
    selected_joint_ = -1;
  }
  if (r.select_joint) selected_joint_ = *r.select_joint;
  if (r.display) display_ = *r.display;
  if (r.frame_model) FrameSelection();
  if (r.follow_selected) follow_selected_ = !follow_selected_;
  if (r.screenshot) screenshot_requested_ = true;
  if (r.open_files) JsOpenFilePicker();
  if (r.page_action) JsPageAction(r.page_action->c_str());
  if (r.crowd_size) SetCrowdSize(*r.crowd_size);
  if (r.scene_time) scene_time_ = std::max(0.0, static_cast<double>(*r.scene_time));
  if (r.scene_playing) {
    scene_playing_ = *r.scene_playing;
    for (Character& c : characters_) c.playback.playing = scene_playing_;
  }
  if (r.add_instance_of_model) {
    const int model = *r.add_instance_of_model;
    float right = 0.0f;
    for (const Character& c : characters_) right = std::max(right, c.position.x);
    const LoadedModel& loaded = library_->models()[static_cast<size_t>(model)];
    const float width = std::max(loaded.bind_max.x - loaded.bind_min.x, loaded.bind_max.y - loaded.bind_min.y);
    selected_ = AddCharacter(model, glm::vec2(right + 1.5f * std::max(width, 1.0f), 0.0f), 0.0f);
  }
  if (r.remove_model) RemoveModel(*r.remove_model);
  if (r.set_tool) {
    tool_ = *r.set_tool;
    if (tool_ == ui::Tool::kRoute && edited_route_ < 0 && editor_.anchor_count() == 0 && !routes_.empty()) {
      StartEditingRoute(static_cast<int>(routes_.size()) - 1);
    }
  }
  if (r.edit_route) StartEditingRoute(*r.edit_route);
  if (r.auto_round_corners) {
    auto_round_ = *r.auto_round_corners;
    CommitEditedRoute();
  }
  if (r.close_route) {
    if (editor_.closed() ? editor_.Open().ok() : editor_.Close().ok()) CommitEditedRoute();
  }
  if (r.delete_route_point && editor_selected_anchor_ >= 0) {
    if (editor_.DeletePoint(static_cast<size_t>(editor_selected_anchor_)).ok()) {
      editor_selected_anchor_ = std::min(editor_selected_anchor_, static_cast<int>(editor_.anchor_count()) - 1);
      CommitEditedRoute();
    }
  }
  Character* character = Selected();
  if (character == nullptr) return;
  const LoadedModel& model = library_->models()[static_cast<size_t>(character->model)];
  Playback& playback = character->playback;
  if (r.set_animation) SwitchAnimation(playback, *r.set_animation);
  if (r.set_playing) playback.playing = *r.set_playing;
  if (r.set_rate) playback.rate = *r.set_rate;
  if (r.set_mode) playback.mode = *r.set_mode;
  if (r.set_crossfade) playback.crossfade_seconds = std::max(0.0f, *r.set_crossfade);
  if (r.set_time) {
    playback.time = *r.set_time;
    playback.fade_from = -1;
  }
  if (r.step_frames && playback.animation >= 0) {
    const anim::Animation& animation = *model.animations[static_cast<size_t>(playback.animation)];
    playback.playing = false;
    const double frame = std::round(playback.time * animation.frame_rate()) + *r.step_frames;
    const double last = std::max(animation.frame_count() - 1, 0);
    playback.time = std::clamp(frame < 0 ? last : (frame > last ? 0.0 : frame), 0.0, last) /
                    std::max(animation.frame_rate(), 1e-6f);
  }
  if (r.set_speed) {
    character->locomotion.speed = std::max(0.0f, *r.set_speed);
    if (character->locomotion.enabled) character->locomotion.follower.SetSpeed(scene_time_, character->locomotion.speed);
  }
  if (r.set_turn_radius) {
    character->locomotion.turn_radius = std::max(0.0f, *r.set_turn_radius);
    if (character->locomotion.enabled) character->locomotion.follower.SetTurningRadius(character->locomotion.turn_radius);
  }
  if (r.set_locomotion_animation) character->locomotion.walk_animation = *r.set_locomotion_animation;
  if (r.assign_route) {
    EnsureLocomotionAnimations(*character);
    const ui::PlayMode mode = r.assign_route->second;
    Status status = AssignRoute(*character, r.assign_route->first,
                                mode == ui::PlayMode::kOnce ? RouteMode::kOnce
                                : mode == ui::PlayMode::kPingPong ? RouteMode::kPingPong : RouteMode::kLoop);
    if (!status.ok()) SetError(status.error().ToString());
  }
  if (r.attach && r.attach->model >= 0 && r.attach->model < static_cast<int>(library_->models().size()) &&
      r.attach->joint >= 0 && r.attach->joint < model.model->skeleton().joint_count()) {
    Attachment attachment;
    attachment.model = r.attach->model;
    attachment.joint = r.attach->joint;
    attachment.offset = r.attach->offset;
    attachment.rotation_degrees = r.attach->rotation_degrees;
    character->attachments.push_back(std::move(attachment));
  }
  if (r.edit_attachment) {
    const int index = r.edit_attachment->first;
    if (index >= 0 && index < static_cast<int>(character->attachments.size())) {
      character->attachments[static_cast<size_t>(index)].offset = r.edit_attachment->second.offset;
      character->attachments[static_cast<size_t>(index)].rotation_degrees =
          r.edit_attachment->second.rotation_degrees;
    }
  }
  if (r.detach && *r.detach >= 0 && *r.detach < static_cast<int>(character->attachments.size())) {
    character->attachments.erase(character->attachments.begin() + *r.detach);
  }
}

void App::DrawOverlays(const glm::mat4& view_projection) {
  using Depth = render::LineRenderer::Depth;
  const auto& models = library_->models();
  ImDrawList* draw_list = ImGui::GetForegroundDrawList();
  auto project = [&](const glm::vec3& p, ImVec2* out) {
    const glm::vec4 clip = view_projection * glm::vec4(p, 1.0f);
    if (clip.w <= 1e-6f) return false;
    const float io_scale = 1.0f;  // ImGui works in framebuffer pixels here
    out->x = (clip.x / clip.w * 0.5f + 0.5f) * static_cast<float>(width_) * io_scale;
    out->y = (0.5f - clip.y / clip.w * 0.5f) * static_cast<float>(height_) * io_scale;
    return true;
  };
  for (size_t c = 0; c < characters_.size(); ++c) {
    const Character& character = characters_[c];
    const LoadedModel& model = models[static_cast<size_t>(character.model)];
    const anim::Skeleton& skeleton = model.model->skeleton();
    const bool is_selected = static_cast<int>(c) == selected_;
    if (display_.skeleton) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        const glm::vec3 p(character.pose.models[static_cast<size_t>(j)][3]);
        const int parent = skeleton.parent(j);
        const bool highlighted = is_selected && j == selected_joint_;
        const render::Rgba8 color = highlighted ? render::Rgba8{255, 80, 80, 255}
                                                : render::Rgba8{90, 230, 255, 255};
        if (parent >= 0) {
          lines_.AddLine(glm::vec3(character.pose.models[static_cast<size_t>(parent)][3]), p, color, Depth::kOnTop);
        }
        const float s = 0.01f * std::max(model.bind_max.z - model.bind_min.z, 1.0f);
        lines_.AddLine(p - glm::vec3(s, 0, 0), p + glm::vec3(s, 0, 0), {255, 255, 255, 255}, Depth::kOnTop);
        lines_.AddLine(p - glm::vec3(0, s, 0), p + glm::vec3(0, s, 0), {255, 255, 255, 255}, Depth::kOnTop);
        lines_.AddLine(p - glm::vec3(0, 0, s), p + glm::vec3(0, 0, s), {255, 255, 255, 255}, Depth::kOnTop);
      }
    }
    // With the skeleton shown, the joint under the cursor is named too (hover).
    // Screen positions are projected once per frame and joint, for the hover test and the names.
    joint_screen_.assign(static_cast<size_t>(skeleton.joint_count()), glm::vec2(0.0f));
    joint_on_screen_.assign(static_cast<size_t>(skeleton.joint_count()), 0);
    const bool hover_test = display_.skeleton && !ImGui::GetIO().WantCaptureMouse;
    const bool any_names = is_selected && (display_.joint_names || (display_.skeleton && selected_joint_ >= 0));
    if (hover_test || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        ImVec2 screen;
        const bool on_screen = project(glm::vec3(character.pose.models[static_cast<size_t>(j)][3]), &screen);
        joint_on_screen_[static_cast<size_t>(j)] = on_screen;
        joint_screen_[static_cast<size_t>(j)] = {screen.x, screen.y};
      }
    }
    int hovered = -1;
    if (hover_test) {
      float best = 8.0f * stats_.device_pixel_ratio;
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        if (!joint_on_screen_[static_cast<size_t>(j)]) continue;
        const glm::vec2 screen = joint_screen_[static_cast<size_t>(j)];
        const float d = std::hypot(screen.x - static_cast<float>(cursor_x_), screen.y - static_cast<float>(cursor_y_));
        if (d < best) {
          best = d;
          hovered = j;
        }
      }
    }
    if (hovered >= 0 || any_names) {
      for (int j = 0; j < skeleton.joint_count(); ++j) {
        const bool named = j == hovered || (is_selected && (display_.joint_names || j == selected_joint_));
        if (!named) continue;
        if (joint_on_screen_[static_cast<size_t>(j)]) {
          const glm::vec2 screen = joint_screen_[static_cast<size_t>(j)];
          draw_list->AddText(ImVec2(screen.x, screen.y), j == selected_joint_ ? IM_COL32(255, 120, 120, 255)
                                                          : IM_COL32(230, 240, 255, 230),
                             skeleton.name(j).c_str());
        }
      }
    }
    if (display_.bounds) {
      glm::vec3 lo = model.bind_min, hi = model.bind_max;
      if (character.playback.animation >= 0) {
        const anim::Animation& animation = *model.animations[static_cast<size_t>(character.playback.animation)];
        const auto& bounds = animation.bounds();
        if (!bounds.empty()) {
          const int frame = std::clamp(static_cast<int>(std::lround(character.playback.time * animation.frame_rate())),
                                       0, static_cast<int>(bounds.size()) - 1);
          lo = bounds[static_cast<size_t>(frame)].min;
          hi = bounds[static_cast<size_t>(frame)].max;
        }
      }
      AddBox(lines_, character.RootMatrix(), lo, hi, {255, 200, 60, 255});
    }
    if (display_.normals && is_selected) {
      const anim::GpuSkinData& gpu = model.model->gpu();
      static std::vector<glm::vec3> positions, normals;
      positions.resize(gpu.vertices.size());
      normals.resize(gpu.vertices.size());
      anim::PaletteSkinningJob skin;
      skin.model = model.model.get();
      skin.palette = anim::Span<const glm::mat4>(character.pose.palette.data(), character.pose.palette.size());
      skin.positions = anim::Span<glm::vec3>(positions.data(), positions.size());
      skin.normals = anim::Span<glm::vec3>(normals.data(), normals.size());
      if (skin.Run()) {
        const float length = 0.03f * std::max(model.bind_max.z - model.bind_min.z, 1.0f);
        const size_t step = std::max<size_t>(1, positions.size() / 20000);
        for (size_t v = 0; v < positions.size(); v += step) {
          lines_.AddLine(positions[v], positions[v] + normals[v] * length, {120, 255, 140, 255});
        }
      }
    }
  }
}

bool App::IsVisible(const Character& character, const Frustum& frustum) const {
  const LoadedModel& model = library_->models()[static_cast<size_t>(character.model)];
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

void App::SetCrowdSize(int count) {
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
    if (locomotion.enabled && locomotion.route >= 0 && routes_[static_cast<size_t>(locomotion.route)].route) {
      // Clones queue at the route's start and leave one after another, evenly spaced.
      const double length = routes_[static_cast<size_t>(locomotion.route)].route->length();
      const double spacing = length / std::max(locomotion.speed, 1e-3) / copies;
      const Pose2 start = locomotion.follower.PoseAt(-1e300);
      locomotion.follower = Follower(start, locomotion.turn_radius, locomotion.speed, 0.0);
      locomotion.start_delay += spacing * (k / templates);
      const double now = scene_time_;
      scene_time_ = 0.0;
      AssignRoute(clone, locomotion.route, locomotion.route_mode);
      scene_time_ = now;
    } else {
      // Standing characters spread out on a grid beside their template.
      const LoadedModel& model = library_->models()[static_cast<size_t>(clone.model)];
      const float step = 1.5f * std::max(model.bind_max.x - model.bind_min.x, model.bind_max.y - model.bind_min.y);
      const int slot = k / templates;
      clone.position += glm::vec2(step * static_cast<float>(slot % 20), step * static_cast<float>(slot / 20));
    }
    characters_.push_back(std::move(clone));
  }
  if (selected_ >= static_cast<int>(characters_.size())) selected_ = 0;
}

void App::Render() {
  const double render_start = NowMs();
  glViewport(0, 0, width_, height_);
  glClearColor(0.13f, 0.14f, 0.17f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  const float aspect = static_cast<float>(width_) / static_cast<float>(std::max(height_, 1));
  const glm::mat4 view_projection = camera_.ProjectionMatrix(aspect) * camera_.ViewMatrix();

  meshes_->BeginFrame();
  const auto& models = library_->models();
  const Frustum frustum = Frustum::FromViewProjection(view_projection);
  culled_ = 0;
  for (const Character& character : characters_) {
    if (!character.visible) continue;
    if (!IsVisible(character, frustum)) {
      ++culled_;
      continue;
    }
    meshes_->Submit(models[static_cast<size_t>(character.model)].gpu_mesh, character.pose.palette.data());
    for (const Attachment& attachment : character.attachments) {
      if (attachment.pose.palette.empty()) continue;
      meshes_->Submit(models[static_cast<size_t>(attachment.model)].gpu_mesh, attachment.pose.palette.data());
    }
  }
  render::SkinnedDrawOptions options;
  options.wireframe = display_.wireframe;
  meshes_->Draw(view_projection, options);

  lines_.Clear();
  if (display_.grid) {
    // A power of ten that suits the viewing distance, so tiny and huge models both get a grid.
    const float spacing = std::pow(10.0f, std::floor(std::log10(std::max(camera_.distance, 1e-3f) / 20.0f)));
    render::AddGroundGrid(lines_, spacing * 50.0f, spacing);
  }
  DrawOverlays(view_projection);
  DrawRouteOverlays();
  DrawToolOverlays();
  lines_.Draw(view_projection);
  stats_.draw_calls = meshes_->draw_calls() + 2;
  stats_.instances = meshes_->instances_drawn();
  stats_.culled = culled_;
  stats_.characters = static_cast<int>(characters_.size());
  stats_.render_ms = static_cast<float>(NowMs() - render_start);
}

void App::Frame() {
  const double now = glfwGetTime();
  const double dt = std::clamp(now - last_time_, 0.0, 0.25);  // a hidden tab must not jump
  last_time_ = now;
  if (dt > 0.0) {
    const float blend = frame_ < 2 ? 1.0f : 0.05f;
    stats_.frame_ms += blend * (static_cast<float>(dt) * 1000.0f - stats_.frame_ms);
    stats_.fps = stats_.frame_ms > 0.0f ? 1000.0f / stats_.frame_ms : 0.0f;
  }
  SyncCanvasSize();
  glfwPollEvents();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  HandleKeyboard();

  const double update_start = NowMs();
  Update(dt);
  stats_.update_ms = static_cast<float>(NowMs() - update_start);

  ui::ViewerRequests requests;
  const ui::ViewerModel view = BuildViewerModel();
  if (panels_visible_) {
    ui::DrawStatsPanel(stats_);
    ui::DrawViewerPanels(view, requests, &help_open_);
    ui::DrawScenePanel(view, requests);
    ui::DrawStatusLine(last_error_.empty() ? status_ : "Error: " + status_);
  }

  Render();
  ImGui::Render();
  imgui_renderer_.Render(ImGui::GetDrawData());
  if (screenshot_requested_) {
    screenshot_requested_ = false;
    JsDownloadScreenshot();
  }
  ApplyRequests(requests);
  ++frame_;
  JsFrameRendered(static_cast<int>(frame_));
}

}  // namespace md5stage::app
