// The viewer application: owns the window, camera, loaded models, characters, renderers and UI,
// runs one frame at a time and answers the page's commands. Only src/app knows about the browser.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/character.h"
#include "app/model_library.h"
#include "core/common/json.h"
#include "core/view/orbit_camera.h"
#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "ui/stats_panel.h"
#include "ui/viewer_model.h"

struct GLFWwindow;

namespace md5stage::app {

class App {
 public:
  App();
  // Creates the window and GL context; false (with *error) when WebGL2 or a shader is missing.
  bool Init(std::string* error);
  void Frame();

  // Files handed over by the page (dropped, picked or fetched), loaded as one batch.
  void QueueFile(InputFile file) { pending_files_.push_back(std::move(file)); }
  JsonValue LoadQueuedFiles();

  // One command from the page: {"cmd": NAME, ...} -> a JSON reply ({"ok": false, "error"} when
  // the command is unknown or its arguments are wrong).
  JsonValue Call(const JsonValue& command);
  JsonValue State() const;

  // Input in framebuffer pixels, from the GLFW and touch callbacks.
  void OnMouseButton(int button, int action);
  void OnCursor(double x, double y);
  void OnScroll(double steps);
  void OnTouch(int touches, const double* xs, const double* ys);

 private:
  void SyncCanvasSize();
  void HandleKeyboard();
  void Update(double dt);
  void Render();
  void DrawOverlays(const glm::mat4& view_projection);
  ui::ViewerModel BuildViewerModel() const;
  void ApplyRequests(const ui::ViewerRequests& requests);
  int AddCharacter(int model, glm::vec2 position, float heading);
  void RemoveModel(int model);
  void FrameSelection();
  Character* Selected();
  void SetError(const std::string& message);

  GLFWwindow* window_ = nullptr;
  OrbitCamera camera_;
  render::LineRenderer lines_;
  std::unique_ptr<render::SkinnedMeshRenderer> meshes_;
  std::unique_ptr<ModelLibrary> library_;
  std::vector<Character> characters_;
  std::vector<InputFile> pending_files_;
  ui::DisplayToggles display_;
  ui::FrameStats stats_;
  int selected_ = -1;
  int selected_joint_ = -1;
  bool follow_selected_ = false;
  bool help_open_ = false;
  bool screenshot_requested_ = false;
  std::string status_ = "Ready";
  std::string last_error_;
  std::vector<std::string> last_warnings_;
  uint64_t frame_ = 0;
  double last_time_ = 0.0;
  double scene_time_ = 0.0;
  bool orbiting_ = false;
  bool panning_ = false;
  double cursor_x_ = 0.0;
  double cursor_y_ = 0.0;
  int touch_count_ = 0;
  double touch_x_ = 0.0, touch_y_ = 0.0, touch_spread_ = 0.0;
  int width_ = 0;  // framebuffer pixels
  int height_ = 0;
};

}  // namespace md5stage::app
