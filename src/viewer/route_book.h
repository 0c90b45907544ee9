// The stage's routes as one feature: the routes and their handles, the route pen that edits one
// of them (RouteTool), their checks against the turning radius and clearance of who walks them,
// and their parts of the draw list, of state(), of the panels and of a scene. The stage composes
// it: when a route is built again, the characters walking it take the new one.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"
#include "core/scene/scene.h"
#include "viewer/character.h"
#include "viewer/ground_tools.h"
#include "viewer/handles.h"
#include "viewer/render_interface.h"
#include "viewer/viewer_model.h"

namespace md5stage::viewer {

// A route of the scene: its segments as edited, and the validated runtime route built from them.
struct ViewerRoute {
  RouteId id;
  std::string name;
  bool closed = false;
  std::vector<RouteSegment> segments;
  std::shared_ptr<const Route> route;  // null when the segments do not form a valid route
  // As drawn, before automatic corner rounding (equal to segments when not rounded).
  std::vector<RouteSegment> drawn_segments;
};

// Who walks the routes, for their checks: the stage's characters and the selected one (or null).
struct RouteWalkers {
  const std::vector<Character>* characters = nullptr;
  const Character* selected = nullptr;

  // The largest turning radius of the characters walking the route (0 when none does).
  double TurnRadius(RouteId route) const;
  // What the pen rounds corners with and the panels check: TurnRadius, else the selected's.
  double RoundingRadius(RouteId route) const;
  // The clearance a route is checked (and routed around) with: the largest of the characters
  // walking it, else the selected character's, else 0.
  double Clearance(RouteId route) const;
};

class RouteBook {
 public:
  const std::vector<ViewerRoute>& routes() const { return routes_; }
  int size() const { return static_cast<int>(routes_.size()); }
  // The route with that handle: its position, or -1.
  int IndexOf(RouteId id) const;
  // The route at a position, or null out of range.
  const ViewerRoute* At(int index) const {
    return index >= 0 && index < size() ? &routes_[static_cast<size_t>(index)] : nullptr;
  }
  // The runtime route of that handle, or null (no such route, or one that does not build).
  std::shared_ptr<const Route> Built(RouteId id) const;

  // Builds the route at `index` (== size(): a new one with a new handle; otherwise it keeps its
  // handle, so what walks or edits it keeps it). Out of range, too many segments, or segments
  // that do not form a route are refused and change nothing.
  Status Build(int index, std::vector<RouteSegment> segments, bool closed, const std::string& name);
  // A scene's route that does not build: kept as written (not valid), with a handle.
  void AddUnbuilt(const SceneRoute& route);
  // Removes the route at `index` (its editing ends); *removed is its handle.
  Status Remove(int index, RouteId* removed);
  // Every route goes, and the pen starts afresh.
  void Clear();
  void WriteScene(std::vector<SceneRoute>* routes) const;

  // ---- the pen ----
  const RouteTool& pen() const { return pen_; }
  // Edits the route at `index` anew (out of range: a new route); false with *error when its
  // drawn segments make no editor.
  bool StartEditing(int index, std::string* error);
  RouteToolStep PenPress(glm::dvec2 screen, std::optional<glm::dvec2> ground,
                         const RouteTool::Project& project, double pick_radius) {
    return pen_.Press(screen, ground, project, pick_radius);
  }
  // Each true when the edited route changed (commit it).
  bool PenMove(glm::dvec2 ground, glm::dvec2 screen, float device_pixel_ratio) {
    return pen_.active() && pen_.Move(ground, screen, device_pixel_ratio);
  }
  void PenRelease() { pen_.Release(); }
  bool ToggleClosed() { return pen_.ToggleClosed(); }
  bool DeleteSelectedPoint() { return pen_.DeleteSelectedPoint(); }
  void SetAutoRound(bool on) { pen_.SetAutoRound(on); }
  // Builds the pen's route (its corners rounded with the walkers' radius when auto-round is on):
  // its position, or -1 when it has one point (nothing to build yet) or was refused (*error).
  int CommitEdited(const RouteWalkers& walkers, std::string* error);

  // ---- checks, drawing, reports ----
  // state()'s routes: each with its handle, length, and the stretches tighter than its walkers'
  // turning radius or within their clearance of an obstacle.
  JsonValue Json(const RouteWalkers& walkers, const ObstacleSet& obstacles) const;
  std::vector<ui::RouteSummary> Summaries(const RouteWalkers& walkers,
                                          const ObstacleSet& obstacles) const;
  // What the cursor is over: "route 1 at 12.5 of 80.0", or the tight stretch there; "" when
  // no route is within `reach` of the ground point.
  std::string HoverText(glm::dvec2 ground, double reach, const RouteWalkers& walkers) const;
  // The routes with their tight (red) and crossing (magenta) stretches, ticks and arrows.
  void Draw(DrawList& list, const RouteWalkers& walkers, const ObstacleSet& obstacles,
            float camera_distance) const;
  // The pen's anchors (squares) and handles (diamonds).
  void DrawPen(DrawList& list, float camera_distance) const;

 private:
  void DrawRoute(const ViewerRoute& route, DrawList& list, const RouteWalkers& walkers,
                 const ObstacleSet& obstacles, float camera_distance) const;

  std::vector<ViewerRoute> routes_;
  RouteTool pen_;
  HandleSerials serials_;
};

}  // namespace md5stage::viewer
