// The stage's side of the obstacles feature (obstacle_field.h): what an edit of the set means for
// the rest of the stage (walkers going somewhere plan again), go-to and "route around" with the
// characters' turning radii and clearances, and the obstacle tool fed with the pointer.
#include <algorithm>
#include <cmath>

#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

constexpr float kOutlineLift = 0.06f;  // the obstacle outlines' height (their corners are picked)

}  // namespace

// ---- edits -------------------------------------------------------------------------------------

Status Stage::AfterObstacleEdit(ObstacleEdit edit) {
  if (!edit.status.ok()) {
    SetError(edit.status.error().ToString());
    return edit.status;
  }
  if (edit.changed) {
    cast_.CrowdEdited(scene_time_);
    const std::string problems = ReplanTargets();
    if (!problems.empty()) SetError(problems);
  }
  return Status();
}

Status Stage::AddObstacle(Obstacle obstacle) {
  ObstacleEdit edit = obstacles_.Add(std::move(obstacle));
  // The command's caller shows a refused shape; the status line is left to the tool's edits.
  if (!edit.status.ok()) return edit.status;
  return AfterObstacleEdit(std::move(edit));
}

Status Stage::MoveObstacle(int index, glm::dvec2 offset) {
  ObstacleEdit edit = obstacles_.Move(index, offset);
  if (!edit.status.ok()) return edit.status;
  return AfterObstacleEdit(std::move(edit));
}

Status Stage::RemoveObstacle(int index) { return AfterObstacleEdit(obstacles_.Remove(index)); }

Status Stage::ClearObstacles() { return AfterObstacleEdit(obstacles_.Clear()); }

Status Stage::SetPlanBudget(std::optional<double> milliseconds) {
  return obstacles_.SetPlanBudget(milliseconds);
}

// ---- planning ----------------------------------------------------------------------------------

std::string Stage::ReplanTargets() { return cast_.ReplanTargets(obstacles_, scene_time_); }

Status Stage::RouteAroundWith(int route, double turning_radius, double clearance) {
  const ViewerRoute* at = routes_.At(route);
  if (at == nullptr || !at->route) {
    return MakeError("routeAround", 0, 0, "no valid route " + std::to_string(route));
  }
  const ViewerRoute& current = *at;
  std::vector<RouteSegment> segments;
  Status status =
      obstacles_.RouteAround(current.segments, route, turning_radius, clearance, &segments);
  if (!status.ok()) return status;
  const bool closed = current.closed;
  const std::string name = current.name;
  status = BuildRoute(route, std::move(segments), closed, name);
  if (!status.ok()) return status;
  if (routes_.At(route)->id == routes_.pen().edited_route()) {
    StartEditingRoute(route);
  }
  return Status();
}

// ---- the obstacle tool -------------------------------------------------------------------------

bool Stage::ObstacleToolPress(glm::dvec2 ground, glm::dvec2 screen, double pick) {
  AfterObstacleEdit(obstacles_.ToolPress(ground, [&](glm::dvec2 corner) {
    glm::dvec2 pixel;
    return ProjectToScreen(
               glm::vec3(static_cast<float>(corner.x), static_cast<float>(corner.y), kOutlineLift),
               &pixel) &&
           std::hypot(pixel.x - screen.x, pixel.y - screen.y) <= pick;
  }));
  return true;
}

void Stage::ObstacleToolRelease() {
  AfterObstacleEdit(obstacles_.ToolRelease(static_cast<double>(camera_.orbit().distance)));
}

void Stage::ClosePolygonDraft() { AfterObstacleEdit(obstacles_.ClosePolygon()); }

}  // namespace md5stage::viewer
