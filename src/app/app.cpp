#include "app/app.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "core/material/png_encode.h"
#include "render/draw_list_renderer.h"
#include "render/gl.h"
#include "render/offscreen_picture.h"
#include "ui/panels.h"
#include "ui/stats_panel.h"
#include "viewer/key_bindings.h"

namespace md5stage::app {
namespace {

App* g_app = nullptr;  // GLFW 3.1.6 callbacks carry no user pointer we can rely on

// JavaScript bodies, left as written.
// clang-format off
EM_JS(void, JsOpenFilePicker, (), {
  if (window.md5stage && window.md5stage.openFilePicker) window.md5stage.openFilePicker();
});

// Actions only the page can do (clipboard, opening a demo): window.md5stage.pageAction(name).
EM_JS(void, JsPageAction, (const char* action), {
  if (window.md5stage && window.md5stage.pageAction)
    window.md5stage.pageAction(UTF8ToString(action));
});

// Events for the page (web/main.js turns them into md5stage:NAME events on window).
EM_JS(void, JsEvent, (int stage, const char* name, const char* detail_json), {
  if (Module.md5stageEvent)
    Module.md5stageEvent(UTF8ToString(name), UTF8ToString(detail_json), stage);
});

// A file for the person to save: the page (web/main.js) turns a copy of the bytes into a
// download. A copy, because the module's memory may grow (and move) before the page reads it.
EM_JS(void, JsDownloadFile, (int stage, const char* name, const char* mime_type, const char* data, int size), {
  if (Module.md5stageDownload) {
    Module.md5stageDownload(UTF8ToString(name), UTF8ToString(mime_type),
                            HEAPU8.slice(data, data + size), stage);
  }
});

// A file a stage asks for while opening a scene: web/main.js fetches it and hands the bytes back
// through md5stage_fetched, after this call has returned.
EM_JS(int, JsFetch, (int stage, int request, const char* url, const char* label, int index, int count), {
  if (!Module.md5stageFetch) return 0;
  Module.md5stageFetch(stage, request, UTF8ToString(url), UTF8ToString(label), index, count);
  return 1;
});

// Called right after the frame is drawn, while the drawing buffer still holds it: the canvas
// as it shows, panels included ("screenshot"; the poster is App::TakePoster's).
EM_JS(void, JsDownloadScreenshot, (), {
  Module.canvas.toBlob(function(blob) {
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'md5stage.png';
    link.click();
    setTimeout(
        function() { URL.revokeObjectURL(link.href); }, 1000);
  });
});

// The poster's PNG (or, with no bytes, why there is none) for the page: web/main.js downloads it.
// A copy, for the same reason as JsDownloadFile's.
EM_JS(void, JsPosterTaken, (const char* data, int size, int width, int height, const char* error), {
  var taken = Module.md5stagePoster;
  if (!taken) return;
  Module.md5stagePoster = null;
  if (size > 0) taken({ ok: true, bytes: HEAPU8.slice(data, data + size), width: width, height: height });
  else taken({ ok: false, error: UTF8ToString(error) });
});
// clang-format on

constexpr float kClearRgb[3] = {0.13f, 0.14f, 0.17f};

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
  if (!g_app) return;
  g_app->viewer().SetShiftHeld((mods & GLFW_MOD_SHIFT) != 0);
  const viewer::MouseButton which = button == GLFW_MOUSE_BUTTON_LEFT ? viewer::MouseButton::kLeft
                                    : button == GLFW_MOUSE_BUTTON_RIGHT
                                        ? viewer::MouseButton::kRight
                                        : viewer::MouseButton::kMiddle;
  g_app->viewer().OnMouseButton(which, action == GLFW_PRESS);
}
void CursorCallback(GLFWwindow*, double x, double y) {
  if (g_app) g_app->viewer().OnCursor(x, y);
}
void ScrollCallback(GLFWwindow* window, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(window, WheelSteps(dx), WheelSteps(dy));
  if (g_app) g_app->viewer().OnScroll(WheelSteps(dy));
}

// A GLFW key as the browser's KeyboardEvent.key names it, the names of the key table the viewer
// and the figures share (viewer/key_bindings.h); "" for keys no stage answers.
const char* KeyName(int key) {
  switch (key) {
    case GLFW_KEY_SPACE:
      return " ";
    case GLFW_KEY_F:
      return "f";
    case GLFW_KEY_K:
      return "k";
    case GLFW_KEY_W:
      return "w";
    case GLFW_KEY_H:
      return "h";
    case GLFW_KEY_COMMA:
      return ",";
    case GLFW_KEY_PERIOD:
      return ".";
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
      return "Enter";
    case GLFW_KEY_DELETE:
      return "Delete";
    case GLFW_KEY_BACKSPACE:
      return "Backspace";
    case GLFW_KEY_ESCAPE:
      return "Escape";
    case GLFW_KEY_LEFT:
      return "ArrowLeft";
    case GLFW_KEY_RIGHT:
      return "ArrowRight";
    case GLFW_KEY_UP:
      return "ArrowUp";
    case GLFW_KEY_DOWN:
      return "ArrowDown";
    case GLFW_KEY_EQUAL:  // the + key without Shift on most layouts
    case GLFW_KEY_KP_ADD:
      return "+";
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
      return "-";
    default:
      return "";
  }
}

// Key presses go to the viewer as events, not as a per-frame key state: a key pressed and
// released between two frames still counts, and GLFW's repeats of a held key are not presses.
void KeyCallback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  if (!g_app) return;
  if (key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT) {
    g_app->viewer().SetShiftHeld(action == GLFW_PRESS);
    return;
  }
  const viewer::KeyBinding* binding = viewer::FindKeyBinding(KeyName(key));
  if (binding == nullptr) return;
  const viewer::Key mapped = binding->key;
  if (action == GLFW_REPEAT) {
    // A held key acts again only where the table says it repeats (orbit, zoom).
    if (binding->repeats) {
      g_app->viewer().OnKeyUp(mapped);
      g_app->viewer().OnKeyDown(mapped);
    }
    return;
  }
  if (action == GLFW_PRESS) {
    g_app->viewer().OnKeyDown(mapped);
  } else {
    g_app->viewer().OnKeyUp(mapped);
  }
}

EM_BOOL TouchCallback(int event_type, const EmscriptenTouchEvent* event, void*) {
  if (!g_app) return EM_FALSE;
  const double ratio = emscripten_get_device_pixel_ratio();
  double xs[2] = {0, 0}, ys[2] = {0, 0};
  int count = 0;
  for (int i = 0; i < event->numTouches && count < 2; ++i) {
    // Ended touches are still listed in touchend events; only the ones on the surface count.
    const bool ended =
        event_type == EMSCRIPTEN_EVENT_TOUCHEND || event_type == EMSCRIPTEN_EVENT_TOUCHCANCEL;
    if (ended && event->touches[i].isChanged) continue;
    xs[count] = event->touches[i].targetX * ratio;
    ys[count] = event->touches[i].targetY * ratio;
    ++count;
  }
  g_app->viewer().OnTouch(count, xs, ys);
  return EM_TRUE;
}

}  // namespace

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
  hub_ = std::make_unique<viewer::StageHub>(&meshes_, this);
  SyncCanvasSize();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsDark();
  // The canvas is sized in device pixels, so the UI scales with the pixel ratio to keep its size.
  const float ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  io.FontGlobalScale = ratio;
  ImGui::GetStyle().ScaleAllSizes(ratio);
  ImGui_ImplGlfw_InitForOpenGL(window_, false);
  if (!imgui_renderer_.Init(error)) return false;
  glfwSetMouseButtonCallback(window_, MouseButtonCallback);
  glfwSetCursorPosCallback(window_, CursorCallback);
  glfwSetScrollCallback(window_, ScrollCallback);
  glfwSetKeyCallback(window_, KeyCallback);
  glfwSetCharCallback(window_, ImGui_ImplGlfw_CharCallback);
  glfwSetCursorEnterCallback(window_, ImGui_ImplGlfw_CursorEnterCallback);
  glfwSetWindowFocusCallback(window_, ImGui_ImplGlfw_WindowFocusCallback);
  emscripten_set_touchstart_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchmove_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchend_callback("#canvas", nullptr, EM_TRUE, TouchCallback);
  emscripten_set_touchcancel_callback("#canvas", nullptr, EM_TRUE, TouchCallback);

  if (!lines_.Init(error)) return false;
  if (!meshes_.Init(error)) return false;
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  viewer().stats().gl_version = version ? version : "";
  last_time_ = glfwGetTime();
  return true;
}

bool App::Fetch(int stage, const viewer::FetchRequest& request) {
  return JsFetch(stage, request.request, request.url.c_str(), request.label.c_str(), request.index,
                 request.count) != 0;
}

// The file picker, page actions and screenshots belong to the page's main view.
void App::OpenFilePicker(int stage) {
  if (stage == viewer::StageHub::kMainStage) JsOpenFilePicker();
}
void App::PageAction(int stage, const std::string& action) {
  if (stage == viewer::StageHub::kMainStage) JsPageAction(action.c_str());
}
void App::DownloadScreenshot(int stage) {
  if (stage == viewer::StageHub::kMainStage) screenshot_requested_ = true;
}
void App::DownloadFile(int stage, const std::string& name, const std::string& mime_type,
                       const std::string& bytes) {
  JsDownloadFile(stage, name.c_str(), mime_type.c_str(), bytes.data(),
                 static_cast<int>(bytes.size()));
}
void App::Event(int stage, const std::string& name, const JsonValue& detail) {
  JsEvent(stage, name.c_str(), WriteJson(detail).c_str());
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
    // JavaScript: clang-format would split its operators ("!==" into "!= =").
    // clang-format off
    EM_ASM({
      Module.canvas.width = $0;
      Module.canvas.height = $1;
      if (typeof GLFW !== 'undefined' && GLFW.active) {
        GLFW.active.width = $0;
        GLFW.active.height = $1;
      }
    }, target_width, target_height);
    // clang-format on
  }
  glfwGetFramebufferSize(window_, &width_, &height_);
  device_pixel_ratio_ = static_cast<float>(ratio);
  viewer().SetViewport(width_, height_, device_pixel_ratio_);
}

void App::Render() {
  const double start = NowMs();
  glViewport(0, 0, width_, height_);
  glClearColor(kClearRgb[0], kClearRgb[1], kClearRgb[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  viewer().BuildDrawList(&draw_list_);
  render::DrawDrawList(draw_list_, meshes_, lines_);
  // The list's texts (joint names, the construction view's labels): ImGui draws them in
  // framebuffer pixels here.
  ImDrawList* text = ImGui::GetForegroundDrawList();
  for (const viewer::DrawList::Text& label : draw_list_.texts) {
    text->AddText(ImVec2(label.position.x, label.position.y),
                  IM_COL32(label.color.r, label.color.g, label.color.b, label.color.a),
                  label.text.c_str());
  }
  ui::FrameStats& stats = viewer().stats();
  stats.draw_calls = meshes_.draw_calls() + 2;
  stats.instances = meshes_.instances_drawn();
  stats.render_ms = static_cast<float>(NowMs() - start);
}

namespace {
// A poster's side in [1, App::kMaxPosterSide], else false with *error naming it.
bool CheckPosterSide(const char* name, int side, std::string* error) {
  if (side >= 1 && side <= App::kMaxPosterSide) return true;
  *error = std::string("poster: ") + name + ": expected an integer in [1, " +
           std::to_string(App::kMaxPosterSide) + "], found " + std::to_string(side);
  return false;
}
}  // namespace

bool App::RequestPoster(int width, int height, std::string* error) {
  if (!CheckPosterSide("width", width, error) || !CheckPosterSide("height", height, error))
    return false;
  poster_ = PosterRequest{true, width, height};
  return true;
}

void App::TakePoster() {
  const PosterRequest request = poster_;
  poster_ = PosterRequest{};
  std::string error;
  render::OffscreenPicture picture;
  material::RgbaImage image;
  if (picture.Begin(request.width, request.height, &error)) {
    glClearColor(kClearRgb[0], kClearRgb[1], kClearRgb[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // The figure's size in CSS pixels: a ratio of 1, as a figure of that size on a plain screen.
    viewer().SetViewport(request.width, request.height, 1.0f);
    viewer().BuildDrawList(&draw_list_);
    render::DrawDrawList(draw_list_, meshes_, lines_);
    picture.Read(&image);
    // Back to the canvas: its viewport, and the draw list (construction labels) laid out for it.
    glViewport(0, 0, width_, height_);
    viewer().SetViewport(width_, height_, device_pixel_ratio_);
    viewer().BuildDrawList(&draw_list_);
  }
  if (!image.Valid()) {
    JsPosterTaken(nullptr, 0, 0, 0, error.c_str());
    return;
  }
  auto png = material::EncodePng("poster", image);
  if (!png.ok()) {
    JsPosterTaken(nullptr, 0, 0, 0, png.error().ToString().c_str());
    return;
  }
  JsPosterTaken(png.value().data(), static_cast<int>(png.value().size()), image.width, image.height,
                "");
}

void App::RunPanelCommands(ui::PanelOutput& panels) {
  // The panels' commands, as a page script's would run; a refused one says why on the status
  // line (the panels name only what they show, so none is expected).
  for (const JsonValue& command : panels.commands) {
    const JsonValue reply = viewer().Call(command);
    const JsonValue* ok = reply.Find("ok");
    const JsonValue* error = reply.Find("error");
    if (ok != nullptr && ok->is_bool() && !ok->as_bool() && error != nullptr)
      viewer().ReportError(error->as_string());
  }
  viewer().SetPanelItemRects(std::move(panels.item_rects));
}

void App::Frame() {
  const double now = glfwGetTime();
  const double dt = std::clamp(now - last_time_, 0.0, 0.25);  // a hidden tab must not jump
  last_time_ = now;
  SyncCanvasSize();
  glfwPollEvents();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const ImGuiIO& io = ImGui::GetIO();
  viewer().SetUiCapture(io.WantCaptureMouse, io.WantCaptureKeyboard);
  // Stages opened by scripts run beside the main one (their clocks, their events).
  for (const int id : hub_->StageIds()) {
    viewer::Stage& stage = *hub_->Find(id);
    const double start = NowMs();
    stage.Update(dt);
    stage.stats().update_ms = static_cast<float>(NowMs() - start);
  }

  ui::PanelOutput panels;
  if (viewer().panels_visible()) {
    const ui::ViewerModel view = viewer().BuildViewerModel();
    ui::DrawStatsPanel(viewer().stats());
    ui::DrawViewerPanels(view, panels, viewer().help_open());
    ui::DrawScenePanel(view, panels);
    ui::DrawStatusLine(viewer().StatusLine());
  }
  Render();
  ImGui::Render();
  imgui_renderer_.Render(ImGui::GetDrawData());
  if (screenshot_requested_) {
    screenshot_requested_ = false;
    JsDownloadScreenshot();
  }
  if (poster_.pending) TakePoster();
  RunPanelCommands(panels);
  for (const int id : hub_->StageIds()) hub_->Find(id)->EndFrame();
}

}  // namespace md5stage::app
