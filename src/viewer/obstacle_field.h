// The stage's obstacles as one feature: the set and its handles, the selected obstacle, the
// obstacle tool (circles dragged out, polygons clicked corner by corner, shapes dragged), the
// planner's budget and planning around the set (a character's go-to, a route's stretches), and
// its parts of the draw list and of state(). The stage composes it: after an edit that changed
// the set it has the walkers plan again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"
#include "viewer/character.h"
#include "viewer/ground_tools.h"
#include "viewer/handles.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {

// setPlanBudget's largest ask, as `md5stage plan --budget-ms`'s.
inline constexpr double kMaxPlanBudgetMs = 1e6;

// What an edit did: the set changed (the walkers plan again), or why it was refused (then
// nothing changed).
struct ObstacleEdit {
  Status status;
  bool changed = false;
};

class ObstacleField {
 public:
  const ObstacleSet& set() const { return set_; }
  const std::vector<ObstacleId>& ids() const { return ids_; }
  int size() const { return static_cast<int>(set_.size()); }
  // The obstacle with that handle: its position, or -1.
  int IndexOf(ObstacleId id) const;
  // The topmost obstacle (the last drawn) containing the ground point, or -1.
  int At(glm::dvec2 ground) const;
  ObstacleId selected() const { return selected_; }
  int selected_index() const { return IndexOf(selected_); }

  // ---- edits: the whole set is validated; a refused edit changes nothing, and every obstacle
  // kept keeps its handle (and stays selected).
  ObstacleEdit Add(Obstacle obstacle);
  ObstacleEdit Move(int index, glm::dvec2 offset);
  ObstacleEdit Remove(int index);
  ObstacleEdit Clear();
  // A scene's obstacles, each with a new handle; the draft and the selection are dropped.
  void ApplyScene(const ObstacleSet& set);

  // ---- planning around the set ----
  // setPlanBudget: about `milliseconds` of search (unset: kDefaultPlanBudget); the field is named
  // when the ask is out of range.
  Status SetPlanBudget(std::optional<double> milliseconds);
  int plan_budget() const { return plan_budget_; }
  // Plans the character's way from where it is at `now` to the point (and heading) and starts it
  // on its follower; "no path" is an error with the planner's reason, and the walker then stays.
  // The plan keeps clearance_factor times the walker's clearance (a crowd's plans keep more).
  Status PlanGoTo(Locomotion& locomotion, double now, glm::dvec2 point, const double* heading,
                  double clearance_factor = 1.0) const;
  // The segments of a route with each segment that comes within the clearance of an obstacle
  // replaced by a planned path between its ends (same end headings), as Beziers; all or nothing.
  // `route_index` names the route in messages.
  Status RouteAround(const std::vector<RouteSegment>& segments, int route_index,
                     double turning_radius, double clearance, std::vector<RouteSegment>* out) const;

  // ---- the obstacle tool ----
  // Whether a ground point shows within the pick radius of the cursor.
  using NearCursor = ObstacleTool::NearCursor;
  // A press with the obstacle tool on: picks (and selects) the shape under the cursor or begins a
  // circle or a polygon corner; closing a polygon adds it.
  ObstacleEdit ToolPress(glm::dvec2 ground, const NearCursor& near_cursor);
  // A drag under way: the dragged shape follows the cursor (walkers replan on release).
  void ToolDrag(glm::dvec2 ground);
  // No button down: the polygon being drawn follows the cursor to its next corner.
  void ToolHover(glm::dvec2 ground) { tool_.Hover(ground); }
  ObstacleEdit ToolRelease(double camera_distance);
  // Enter and the panel's "Close polygon": the draft becomes a shape, selected.
  ObstacleEdit ClosePolygon();
  void DropDraft() { tool_.DropDraft(); }
  void SetPolygonShape(bool polygon) { tool_.SetPolygonShape(polygon); }
  const ObstacleTool& tool() const { return tool_; }

  // The filled shapes, their outlines (the selected one white) and what the tool is drawing;
  // `tool_on` draws the draft's last edge to the cursor.
  void Draw(DrawList& list, bool tool_on);
  // state()'s obstacles, obstacle_ids, selected_obstacle(_id), plan_budget, polygon_draft.
  void WriteState(JsonValue* state) const;

 private:
  // Takes the set when it validates; a selection that is no longer there is cleared.
  ObstacleEdit Replace(std::vector<Obstacle> obstacles, std::vector<ObstacleId> ids);
  // A shape the tool made: added and selected.
  ObstacleEdit AddShape(Obstacle obstacle);
  void RebuildFill();

  ObstacleSet set_;
  std::vector<ObstacleId> ids_;  // set_.obstacles()[i]'s handle
  ObstacleId selected_;
  ObstacleTool tool_;
  // The filled shapes' triangles (ground coordinates), rebuilt when the set changes.
  std::vector<glm::vec2> fill_;
  bool fill_dirty_ = true;
  // Expansions, and the milliseconds asked for (unset: kDefaultPlanBudget, the answer of
  // `md5stage plan`).
  int plan_budget_ = kDefaultPlanBudget;
  std::optional<double> plan_budget_ms_;
  HandleSerials serials_;
};

}  // namespace md5stage::viewer
