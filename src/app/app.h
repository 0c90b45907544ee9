// The viewer application: owns the window, camera, renderers and UI, and runs one frame at a time.
// Only src/app knows about the browser and the main loop.
#pragma once

#include <cstdint>
#include <string>

#include "core/view/orbit_camera.h"
#include "render/line_renderer.h"
#include "ui/stats_panel.h"

struct GLFWwindow;

namespace md5stage::app {

class App {
 public:
  // Creates the window and GL context; false (with *error) when WebGL2 or a shader is missing.
  bool Init(std::string* error);
  void Frame();
  // A JSON object describing the viewer, for window.md5stage.state().
  std::string StateJson() const;

  // Mouse input (framebuffer pixels), called from the GLFW callbacks.
  void OnMouseButton(int button, int action);
  void OnCursor(double x, double y);
  void OnScroll(double dy);

 private:
  void SyncCanvasSize();
  void HandleKeyboard();

  GLFWwindow* window_ = nullptr;
  OrbitCamera camera_;
  render::LineRenderer lines_;
  ui::FrameStats stats_;
  std::string status_ = "Ready";
  uint64_t frame_ = 0;
  double last_time_ = 0.0;
  bool orbiting_ = false;
  bool panning_ = false;
  double cursor_x_ = 0.0;
  double cursor_y_ = 0.0;
  int width_ = 0;   // framebuffer pixels
  int height_ = 0;
};

}  // namespace md5stage::app
