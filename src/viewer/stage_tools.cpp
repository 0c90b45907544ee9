// The stage's side of the mouse tools on the ground (ground_tools.h decides): it finds the ground
// and screen points they take, and does what they ask: "go to" plans, the route pen's edits
// build the route (corner rounding from core/path), the obstacle tool edits the set; and the hover
// readout of tight stretches.
#include <algorithm>
#include <cmath>

#include "core/path/corner_rounding.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {
constexpr float kLift = 0.1f;
}  // namespace

std::optional<glm::vec3> Stage::GroundUnderCursor(double x, double y) const {
  return IntersectGround(camera_.orbit().ScreenRay(static_cast<float>(x), static_cast<float>(y),
                                                   static_cast<float>(viewport_.width),
                                                   static_cast<float>(viewport_.height)));
}

bool Stage::ProjectToScreen(const glm::vec3& world, glm::dvec2* screen) const {
  return WorldToPixel(ViewProjection(), viewport_.width, viewport_.height, world, screen);
}

void Stage::StartEditingRoute(int route) {
  std::string error;
  if (!routes_.StartEditing(route, &error)) SetError(error);
}

void Stage::CommitEditedRoute() {
  std::string error;
  const int built = routes_.CommitEdited(Walkers(), &error);
  if (!error.empty()) {
    report_.status = error;
    return;
  }
  if (built >= 0) RestartWalkersOn(routes_.At(built)->id);
}

bool Stage::ToolPress(double x, double y) {
  const auto hit = GroundUnderCursor(x, y);
  const std::optional<glm::dvec2> ground =
      hit ? std::optional<glm::dvec2>(glm::dvec2(hit->x, hit->y)) : std::nullopt;
  const glm::dvec2 screen(x, y);
  const double pick = kPickRadiusCssPixels * stats_.device_pixel_ratio;
  if (ConstructionHandlePress(ground, screen, pick)) return true;
  switch (tool_) {
    case ui::Tool::kGoTo:
      return go_to_.Press(ground, Selected() != nullptr, screen);
    case ui::Tool::kObstacle:
      return ground && ObstacleToolPress(*ground, screen, pick);
    case ui::Tool::kRoute:
      break;
    case ui::Tool::kCamera:
      return false;
  }
  const RouteToolStep step = routes_.PenPress(
      screen, ground,
      [&](glm::dvec2 g) {
        glm::dvec2 pixel;
        if (!ProjectToScreen(glm::vec3(static_cast<float>(g.x), static_cast<float>(g.y), kLift),
                             &pixel)) {
          return glm::dvec2(std::nan(""), std::nan(""));
        }
        return pixel;
      },
      pick);
  if (!step.error.empty()) SetError(step.error);
  if (step.commit) CommitEditedRoute();
  return step.taken;
}

bool Stage::ConstructionHandlePress(std::optional<glm::dvec2> ground, glm::dvec2 screen,
                                    double pick) {
  // The figure of the last frame: the handles where the person sees them.
  const ConstructionFigure& figure = construction_;
  if (!options_.display.construction || !figure.shown) return false;
  auto project = [&](glm::dvec2 g) {
    glm::dvec2 pixel;
    if (!ProjectToScreen(glm::vec3(static_cast<float>(g.x), static_cast<float>(g.y), kLift),
                         &pixel)) {
      return glm::dvec2(std::nan(""), std::nan(""));
    }
    return pixel;
  };
  return pointer_.construction_handles.Press(ground, screen, project(figure.origin.position),
                                             project(figure.heading_handle), figure.origin,
                                             figure.character, pick);
}

void Stage::ToolMove(double x, double y) {
  ConstructionHandleTool& handles = pointer_.construction_handles;
  if (handles.active()) {
    const auto ground = GroundUnderCursor(x, y);
    if (!ground) return;
    const std::optional<Pose2> origin =
        handles.Move(glm::dvec2(ground->x, ground->y), glm::dvec2(x, y), stats_.device_pixel_ratio);
    if (!origin) return;
    const Status status = SetConstructionOrigin(CharacterIndex(handles.character()), *origin);
    if (!status.ok()) SetError(status.error().ToString());
    return;
  }
  if (!go_to_.active() && !routes_.pen().active() && !obstacles_.tool().active()) {
    // The polygon being drawn follows the cursor to its next corner.
    if (obstacles_.tool().draft().empty()) return;
    if (const auto ground = GroundUnderCursor(x, y))
      obstacles_.ToolHover(glm::dvec2(ground->x, ground->y));
    return;
  }
  const auto ground = GroundUnderCursor(x, y);
  if (!ground) return;
  const glm::dvec2 g(ground->x, ground->y);
  go_to_.Move(g);
  if (routes_.PenMove(g, glm::dvec2(x, y), stats_.device_pixel_ratio)) CommitEditedRoute();
  if (obstacles_.tool().active()) obstacles_.ToolDrag(g);
}

void Stage::ToolRelease(double x, double y) {
  pointer_.construction_handles.Release();
  const std::optional<GoToTarget> target =
      go_to_.Release(glm::dvec2(x, y), stats_.device_pixel_ratio);
  if (target && Selected() != nullptr) {
    const Status status = GoTo(SelectedIndex(), target->point, target->heading);
    if (!status.ok()) SetError(status.error().ToString());
  }
  routes_.PenRelease();
  if (obstacles_.tool().active()) ObstacleToolRelease();
}

void Stage::UpdateHover() {
  hover_text_.clear();
  if (!options_.display.routes || routes_.size() == 0) return;
  const auto ground = GroundUnderCursor(pointer_.x, pointer_.y);
  if (!ground) return;
  // Within about 12 pixels of a route, at this camera distance.
  const double reach = 12.0 * stats_.device_pixel_ratio * 2.0 * camera_.orbit().distance *
                       std::tan(glm::radians(camera_.orbit().fov_y_degrees) * 0.5) /
                       std::max(viewport_.height, 1);
  hover_text_ = routes_.HoverText(glm::dvec2(ground->x, ground->y), reach, Walkers());
}

void Stage::DrawToolOverlays(DrawList& list) {
  if (go_to_.active()) {
    const glm::vec3 a(static_cast<float>(go_to_.start().x), static_cast<float>(go_to_.start().y),
                      kLift);
    const glm::vec3 b(static_cast<float>(go_to_.current().x),
                      static_cast<float>(go_to_.current().y), kLift);
    list.AddLine(a, b, {120, 255, 160, 255}, LineDepth::kOnTop);
  }
  if (tool_ != ui::Tool::kRoute) return;
  routes_.DrawPen(list, camera_.orbit().distance);
}

}  // namespace md5stage::viewer
