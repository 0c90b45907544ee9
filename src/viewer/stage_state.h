// The plain state groups a Stage is made of (its camera, selection, view options, pointer, keys,
// status, obstacles, scratch): each read and written only by the stage, kept apart so that no
// class holds more than a few dozen fields and each group is reset or copied as one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/md5/md5_camera.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/scene/scene.h"
#include "core/view/orbit_camera.h"
#include "viewer/construction_figure.h"
#include "viewer/ground_tools.h"
#include "viewer/handles.h"
#include "viewer/shading.h"

namespace md5stage::viewer {

// The keys the viewer answers (README's list); the platform maps its key codes to these.
enum class Key {
  kSpace,
  kF,
  kK,
  kW,
  kH,
  kComma,
  kPeriod,
  kEnter,
  kDelete,
  kEscape,
  // Camera keys (figures and the viewer): arrows orbit, + and - zoom.
  kLeft,
  kRight,
  kUp,
  kDown,
  kZoomIn,
  kZoomOut
};

// Key presses between two updates: a press counts once however short (pressed and released
// between two frames) or long (held: the browser's auto-repeat is not a new press).
class KeyQueue {
 public:
  // Not queued while the UI has the keyboard (the key still counts as down); at most 64 wait,
  // so a page that floods key events cannot grow the queue between two frames.
  void Down(Key key, bool ui_has_keyboard);
  void Up(Key key) { down_ &= ~Bit(key); }
  const std::vector<Key>& pending() const { return pending_; }
  void Clear() { pending_.clear(); }

 private:
  static uint32_t Bit(Key key) { return 1u << static_cast<uint32_t>(key); }
  std::vector<Key> pending_;
  uint32_t down_ = 0;
};

inline void KeyQueue::Down(Key key, bool ui_has_keyboard) {
  if (down_ & Bit(key)) return;
  down_ |= Bit(key);
  if (ui_has_keyboard) return;
  if (pending_.size() < 64) pending_.push_back(key);
}

// A .md5camera file dropped or fetched, by its base name.
struct CinematicCamera {
  CameraId id;
  std::string name;    // the file's base name
  std::string source;  // "local" when dropped, else the asset path or URL
  std::shared_ptr<const md5::CameraFile> file;
};

// What is selected, by handle: removing something else leaves it selected.
struct Selection {
  CharacterId character;
  int joint = -1;  // of the selected character's skeleton
  ObstacleId obstacle;
};

// What is drawn and how, and which parts of the page's UI show.
struct ViewOptions {
  DisplayToggles display;
  ShadingOptions shading;
  bool help_open = false;
  bool panels_visible = true;
};

// The framebuffer in pixels.
struct Viewport {
  int width = 1;
  int height = 1;
};

// The pointer (mouse or touch) between events: where it is and which drag is under way.
struct PointerState {
  double x = 0.0, y = 0.0;  // framebuffer pixels
  bool orbiting = false;
  bool panning = false;
  bool turning_light = false;  // a Shift + left drag
  bool shift_held = false;
  bool ui_wants_mouse = false;
  bool ui_wants_keyboard = false;
  int touch_count = 0;
  double touch_x = 0.0, touch_y = 0.0, touch_spread = 0.0;
  // A drag of the construction view's origin or heading handle (taken before any tool's press).
  ConstructionHandleTool construction_handles;
};

// The status line and what the last load or edit reported.
struct StatusReport {
  std::string status = "Ready";
  std::string error;  // the last error, in full ("" when the last action went well)
  std::vector<std::string> warnings;
};

// The scene's obstacles and their filled shapes' triangles (ground coordinates), rebuilt when
// the obstacles change.
// setPlanBudget's largest ask, as `md5stage plan --budget-ms`'s.
inline constexpr double kMaxPlanBudgetMs = 1e6;

struct ObstacleLayer {
  ObstacleSet set;
  std::vector<ObstacleId> ids;  // set.obstacles[i]'s handle (ObstacleSet is the core's)
  std::vector<glm::vec2> fill;
  bool fill_dirty = true;
  // The planner's budget for go-tos, replans and "route around" (setPlanBudget): expansions, and
  // the milliseconds asked for (unset: kDefaultPlanBudget, the same answer as `md5stage plan`).
  int plan_budget = kDefaultPlanBudget;
  std::optional<double> plan_budget_ms;
};

// Per-frame scratch of the overlays, kept to avoid allocating each frame: one projection per
// joint serves the hover test and the names; the selected model's skinned normals.
struct OverlayScratch {
  std::vector<glm::vec2> joint_screen;
  std::vector<char> joint_on_screen;
  std::vector<glm::vec3> normal_positions, normal_directions;
  // The construction figure of the last draw list (display toggle `construction`): kept so that
  // state() and the tests read the very numbers that were drawn.
  ConstructionFigure construction;
  // The characters' skinned vertices (by character) in frame `skinned_frame`: hotspots ask
  // whether the posed model hides their point (Stage::LocatePoint), skinned once a frame.
  std::vector<std::vector<glm::vec3>> skinned_positions;
  uint64_t skinned_frame = ~uint64_t{0};
};

}  // namespace md5stage::viewer
