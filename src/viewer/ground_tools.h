// The mouse tools on the ground as decision objects, shaped like EmbedTimeline: each takes the
// pointer's input (the ground and screen points, what is under them) and says what to do; the
// stage does it (plans the go-to, builds the route, edits the obstacle set). Tested alone.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/path/obstacles.h"
#include "core/path/pose.h"
#include "core/path/route_editor.h"
#include "viewer/handles.h"

namespace md5stage::viewer {

// A press becomes a drag once it has moved this far on screen (CSS pixels): a click stays a
// click on a trackpad or a touch screen.
constexpr double kDragThresholdCssPixels = 6.0;
// Edit points and polygon corners are picked within this distance of the cursor (CSS pixels).
constexpr double kPickRadiusCssPixels = 10.0;

// Where a press began on screen, to tell a click from a drag.
class DragGesture {
 public:
  void Begin(glm::dvec2 screen) { start_ = screen; }
  bool Dragged(glm::dvec2 screen, float device_pixel_ratio) const;

 private:
  glm::dvec2 start_{0.0};
};

// Where a go-to sends the selected character: the clicked point, and the drag's direction as the
// final heading when the press was dragged.
struct GoToTarget {
  glm::dvec2 point{0.0};
  std::optional<double> heading;
};

class GoToTool {
 public:
  // Taken (a drag begins) only on the ground with a character selected; else the press orbits.
  bool Press(std::optional<glm::dvec2> ground, bool has_selection, glm::dvec2 screen);
  void Move(glm::dvec2 ground);
  // Ends the drag; the target when one was under way.
  std::optional<GoToTarget> Release(glm::dvec2 screen, float device_pixel_ratio);

  bool active() const { return active_; }
  glm::dvec2 start() const { return start_; }
  glm::dvec2 current() const { return current_; }

 private:
  bool active_ = false;
  DragGesture gesture_;
  glm::dvec2 start_{0.0}, current_{0.0};
};

// The construction view's two handles: the origin (the pose the figure starts from) and a point
// ahead of it along its heading.
enum class ConstructionHandle { kNone, kOrigin, kHeading };

// Dragging those handles: the origin moves with the cursor (keeping its heading, and the offset
// from where it was taken, so it does not jump to the cursor), the heading handle turns the
// heading towards the cursor. Taken before any tool's press, so it works whatever tool is on.
class ConstructionHandleTool {
 public:
  // Taken when the press is within pick_radius (framebuffer pixels) of a handle's screen point
  // (NaN: not on screen), the nearer one when both are; needs the ground point under it.
  // `origin` is the pose the figure starts from now, `instance` the figure's character.
  bool Press(std::optional<glm::dvec2> ground, glm::dvec2 screen, glm::dvec2 origin_screen,
             glm::dvec2 heading_screen, const Pose2& origin, CharacterId character,
             double pick_radius);
  // The origin pose the drag puts, once the press has moved past the drag threshold (so a click
  // on a handle changes nothing); none before, or with no handle taken.
  std::optional<Pose2> Move(glm::dvec2 ground, glm::dvec2 screen, float device_pixel_ratio);
  void Release() { handle_ = ConstructionHandle::kNone; }

  bool active() const { return handle_ != ConstructionHandle::kNone; }
  ConstructionHandle handle() const { return handle_; }
  CharacterId character() const { return character_; }

 private:
  ConstructionHandle handle_ = ConstructionHandle::kNone;
  DragGesture gesture_;
  bool dragged_ = false;
  CharacterId character_;
  glm::dvec2 press_ground_{0.0};
  Pose2 start_;
};

// What a route pen event asks of the stage.
struct RouteToolStep {
  bool taken = false;   // the press is the tool's (else it orbits)
  bool commit = false;  // the edited route changed: build it again from editor()
  std::string error;    // an edit the editor refused (shown on the status line)
};

// The route pen: a click adds a corner, a drag while clicking pulls out a smooth point, anchors
// and handles under the cursor are dragged. It owns the editor of the route being edited.
class RouteTool {
 public:
  // Ground point -> framebuffer pixel (NaN when it is behind the camera).
  using Project = std::function<glm::dvec2(glm::dvec2)>;

  // Edits `editor` as the route `route` (none: a new route, not built while it has one point).
  void Edit(RouteEditor editor, RouteId route);
  void Reset() { Edit(RouteEditor(), RouteId()); }

  RouteToolStep Press(glm::dvec2 screen, std::optional<glm::dvec2> ground, const Project& project,
                      double pick_radius);
  // True when the route changed (commit it).
  bool Move(glm::dvec2 ground, glm::dvec2 screen, float device_pixel_ratio);
  void Release() { drag_ = Drag::kNone; }

  // The panel's edits; each true when the route changed.
  bool ToggleClosed();
  bool DeleteSelectedPoint();
  void SetAutoRound(bool on) { auto_round_ = on; }

  const RouteEditor& editor() const { return editor_; }
  RouteId edited_route() const { return edited_route_; }
  // After a commit built the route (a new one gets its handle then).
  void set_edited_route(RouteId route) { edited_route_ = route; }
  int selected_anchor() const { return selected_anchor_; }
  bool auto_round() const { return auto_round_; }
  bool active() const { return drag_ != Drag::kNone; }

 private:
  enum class Drag { kNone, kNewPoint, kMoveAnchor, kMoveHandle };
  RouteEditor editor_;
  RouteId edited_route_;
  int selected_anchor_ = -1;
  bool auto_round_ = false;
  Drag drag_ = Drag::kNone;
  DragGesture gesture_;
  std::size_t drag_anchor_ = 0;
  HandleSide drag_side_ = HandleSide::kOut;
  glm::dvec2 start_ground_{0.0};
};

// What an obstacle tool press asks of the stage.
struct ObstaclePressStep {
  bool close_polygon = false;  // close the draft (ClosePolygon gives its shape)
  std::optional<int> select;   // the obstacle selected now (-1: none); absent: unchanged
};

// What an obstacle tool release asks of the stage.
struct ObstacleReleaseStep {
  std::optional<Obstacle> add;  // a circle dragged out: add it (and select it)
  bool replan = false;          // a shape was moved: set the obstacles again so walkers replan
};

// The obstacle tool: a drag draws a circle, clicks draw a polygon corner by corner (closed on its
// first corner, a double click on its last, or Enter), a shape under the cursor is dragged.
class ObstacleTool {
 public:
  // Whether a ground point shows within the pick radius of the cursor.
  using NearCursor = std::function<bool(glm::dvec2)>;

  // `picked` is the obstacle under the cursor (-1: none), `picked_shape` that obstacle.
  ObstaclePressStep Press(glm::dvec2 ground, int picked, const Obstacle* picked_shape,
                          const NearCursor& near_cursor);
  // While a shape is dragged, the shape where the cursor puts it (to show, without replanning).
  std::optional<Obstacle> Move(glm::dvec2 ground);
  // The cursor moved with no button down: the polygon being drawn follows it to its next corner.
  void Hover(glm::dvec2 ground);
  // A circle smaller than 1e-3 of the camera distance (a click) is no circle.
  ObstacleReleaseStep Release(double camera_distance);
  // The draft as a polygon (and the draft dropped); none with fewer than 3 corners.
  std::optional<Obstacle> ClosePolygon();
  void DropDraft() { draft_.clear(); }
  void SetPolygonShape(bool polygon);

  bool polygon_shape() const { return polygon_shape_; }
  const std::vector<glm::dvec2>& draft() const { return draft_; }
  bool drawing_circle() const { return drag_ == Drag::kNewCircle; }
  bool active() const { return drag_ != Drag::kNone; }
  glm::dvec2 start() const { return start_; }
  glm::dvec2 current() const { return current_; }

 private:
  enum class Drag { kNone, kNewCircle, kMoveObstacle };
  bool polygon_shape_ = false;
  std::vector<glm::dvec2> draft_;  // corners clicked so far
  Drag drag_ = Drag::kNone;
  glm::dvec2 start_{0.0}, current_{0.0};
  Obstacle moved_start_;  // the dragged obstacle as it was when the drag began
};

}  // namespace md5stage::viewer
