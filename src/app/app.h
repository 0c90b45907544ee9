// The viewer application: owns the window, camera, loaded models, characters, renderers and UI,
// runs one frame at a time and answers the page's commands. Only src/app knows about the browser.
#pragma once

#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "app/character.h"
#include "app/model_library.h"
#include "core/common/json.h"
#include "core/path/route.h"
#include "core/path/route_editor.h"
#include "core/scene/scene.h"
#include "core/view/frustum.h"
#include "core/view/orbit_camera.h"
#include "render/imgui_renderer.h"
#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "ui/stats_panel.h"
#include "ui/viewer_model.h"

struct GLFWwindow;

namespace md5stage::app {

// A route of the scene: its segments as edited, and the validated runtime route built from them.
struct AppRoute {
  std::string name;
  bool closed = false;
  std::vector<RouteSegment> segments;
  std::shared_ptr<const Route> route;  // null when the segments do not form a valid route
  // As drawn, before automatic corner rounding (equal to segments when not rounded).
  std::vector<RouteSegment> drawn_segments;
};

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

  // Scenes, routes and locomotion (app_scene.cpp).
  Scene CurrentScene() const;
  JsonValue PrepareScene(const JsonValue& scene_json);
  JsonValue ApplyPendingScene();
  Status SetRoute(int index, std::vector<RouteSegment> segments, bool closed, const std::string& name);
  Status AssignRoute(Character& character, int route, RouteMode mode);
  Status GoTo(Character& character, glm::dvec2 point, const double* heading);
  void UpdateLocomotion(Character& character);
  // Walk and idle default to the model's "walk" and "idle" animations.
  void EnsureLocomotionAnimations(Character& character);
  void DrawRouteOverlays();
  JsonValue RoutesJson() const;
  JsonValue PathJson(const Character& character) const;

  // Mouse tools: go-to and route drawing (app_tools.cpp).
  std::optional<glm::vec3> GroundUnderCursor(double x, double y) const;
  bool ProjectToScreen(const glm::vec3& world, glm::dvec2* screen) const;
  bool ToolPress(double x, double y);
  void ToolMove(double x, double y);
  void ToolRelease(double x, double y);
  void CommitEditedRoute();
  void StartEditingRoute(int route);
  double RoundingRadius(int route) const;
  void UpdateHover();
  void DrawToolOverlays();

  // Stress and performance: grow or shrink the crowd by cloning the scene's characters.
  void SetCrowdSize(int count);
  bool IsVisible(const Character& character, const Frustum& frustum) const;

  GLFWwindow* window_ = nullptr;
  OrbitCamera camera_;
  render::LineRenderer lines_;
  render::ImGuiRenderer imgui_renderer_;
  std::unique_ptr<render::SkinnedMeshRenderer> meshes_;
  std::unique_ptr<ModelLibrary> library_;
  std::vector<Character> characters_;
  std::vector<InputFile> pending_files_;
  std::vector<AppRoute> routes_;
  // Scratch for DrawOverlays: one projection per joint serves the hover test and the names.
  std::vector<glm::vec2> joint_screen_;
  std::vector<char> joint_on_screen_;
  std::unique_ptr<Scene> pending_scene_;
  bool scene_playing_ = true;
  ui::DisplayToggles display_;
  ui::FrameStats stats_;
  int selected_ = -1;
  int selected_joint_ = -1;
  bool follow_selected_ = false;
  bool help_open_ = false;
  bool panels_visible_ = true;
  ui::Tool tool_ = ui::Tool::kCamera;
  enum class Drag { kNone, kGoTo, kNewPoint, kMoveAnchor, kMoveHandle };
  Drag drag_ = Drag::kNone;
  glm::dvec2 drag_start_ground_{0.0};
  glm::dvec2 drag_current_ground_{0.0};
  double drag_start_x_ = 0.0, drag_start_y_ = 0.0;
  size_t drag_anchor_ = 0;
  HandleSide drag_side_ = HandleSide::kOut;
  RouteEditor editor_;
  int edited_route_ = -1;  // index into routes_, -1 while a new route has fewer than 2 points
  int editor_selected_anchor_ = -1;
  bool auto_round_ = false;
  std::string hover_text_;
  int crowd_templates_ = 0;  // characters of the applied scene that SetCrowdSize clones
  int culled_ = 0;  // false in embeds with ui=none or the minimal overlay
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
