#include "app/app.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "render/gl.h"

namespace md5stage::app {
namespace {

App* g_app = nullptr;  // GLFW callbacks carry no user pointer we can rely on in 3.1.6

// Tells the page (web/main.js) that a frame was drawn; the first call resolves md5stage.ready.
EM_JS(void, JsFrameRendered, (int frame), {
  if (Module.md5stageFrameRendered) Module.md5stageFrameRendered(frame);
});

double NowMs() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

std::string JsonEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out;
}

void MouseButtonCallback(GLFWwindow* window, int button, int action, int mods) {
  ImGui_ImplGlfw_MouseButtonCallback(window, button, action, mods);
  if (g_app) g_app->OnMouseButton(button, action);
}
void CursorCallback(GLFWwindow* window, double x, double y) {
  if (g_app) g_app->OnCursor(x, y);
}
// Emscripten 3.1.6's GLFW passes the DOM wheel deltas through unchanged: browser direction
// (positive = down) in pixels (about 100 per notch) or, in Firefox, lines (3 per notch).
double WheelSteps(double dom_delta) {
  const double magnitude = std::abs(dom_delta);
  const double steps = magnitude >= 50.0 ? magnitude / 100.0 : magnitude / 3.0;
  return dom_delta > 0 ? -steps : steps;
}

void ScrollCallback(GLFWwindow* window, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(window, WheelSteps(dx), WheelSteps(dy));
  if (g_app) g_app->OnScroll(WheelSteps(dy));
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
  ImGui_ImplOpenGL3_Init("#version 300 es");
  glfwSetMouseButtonCallback(window_, MouseButtonCallback);
  glfwSetCursorPosCallback(window_, CursorCallback);
  glfwSetScrollCallback(window_, ScrollCallback);
  glfwSetKeyCallback(window_, ImGui_ImplGlfw_KeyCallback);
  glfwSetCharCallback(window_, ImGui_ImplGlfw_CharCallback);
  glfwSetCursorEnterCallback(window_, ImGui_ImplGlfw_CursorEnterCallback);
  glfwSetWindowFocusCallback(window_, ImGui_ImplGlfw_WindowFocusCallback);

  if (!lines_.Init(error)) return false;
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
    glfwSetWindowSize(window_, target_width, target_height);
  }
  glfwGetFramebufferSize(window_, &width_, &height_);
  stats_.framebuffer_width = width_;
  stats_.framebuffer_height = height_;
}

void App::OnMouseButton(int button, int action) {
  const bool pressed = action == GLFW_PRESS;
  if (pressed && ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) orbiting_ = pressed;
  if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) panning_ = pressed;
}

void App::OnCursor(double x, double y) {
  const float dx = static_cast<float>(x - cursor_x_);
  const float dy = static_cast<float>(y - cursor_y_);
  cursor_x_ = x;
  cursor_y_ = y;
  const float ratio = std::max(stats_.device_pixel_ratio, 1e-3f);
  if (orbiting_) camera_.Orbit(dx / ratio, dy / ratio);
  if (panning_) camera_.Pan(dx, dy, static_cast<float>(height_));
}

void App::OnScroll(double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  camera_.Zoom(static_cast<float>(dy));
}

void App::HandleKeyboard() {
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_F)) camera_.Frame({-40, -40, 0}, {40, 40, 70});
}

void App::Frame() {
  const double now = glfwGetTime();
  const float dt = static_cast<float>(now - last_time_);
  last_time_ = now;
  if (dt > 0.0f) {
    const float blend = frame_ < 2 ? 1.0f : 0.05f;
    stats_.frame_ms += blend * (dt * 1000.0f - stats_.frame_ms);
    stats_.fps = stats_.frame_ms > 0.0f ? 1000.0f / stats_.frame_ms : 0.0f;
  }
  SyncCanvasSize();

  const double update_start = NowMs();
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  HandleKeyboard();
  lines_.Clear();
  render::AddGroundGrid(lines_, 500.0f, 10.0f);
  stats_.update_ms = static_cast<float>(NowMs() - update_start);

  const double render_start = NowMs();
  glViewport(0, 0, width_, height_);
  glClearColor(0.13f, 0.14f, 0.17f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  const float aspect = static_cast<float>(width_) / static_cast<float>(std::max(height_, 1));
  const glm::mat4 view_projection = camera_.ProjectionMatrix(aspect) * camera_.ViewMatrix();
  lines_.Draw(view_projection);
  stats_.draw_calls = 2;
  stats_.render_ms = static_cast<float>(NowMs() - render_start);

  ui::DrawStatsPanel(stats_);
  ui::DrawStatusLine(status_);
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++frame_;
  JsFrameRendered(static_cast<int>(frame_));
}

std::string App::StateJson() const {
  char camera[256];
  std::snprintf(camera, sizeof camera,
                "{\"target\":[%.6g,%.6g,%.6g],\"yaw\":%.6g,\"pitch\":%.6g,\"distance\":%.6g}",
                camera_.target.x, camera_.target.y, camera_.target.z, camera_.yaw_degrees,
                camera_.pitch_degrees, camera_.distance);
  std::string json = "{";
  json += "\"webgl\":\"" + JsonEscape(stats_.gl_version) + "\"";
  json += ",\"frame\":" + std::to_string(frame_);
  json += ",\"canvas\":[" + std::to_string(width_) + "," + std::to_string(height_) + "]";
  json += ",\"camera\":" + std::string(camera);
  json += ",\"status\":\"" + JsonEscape(status_) + "\"";
  json += "}";
  return json;
}

}  // namespace md5stage::app
