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

double Stage::RoundingRadius(int route) const {
  const RouteId id = route >= 0 && route < static_cast<int>(routes_.size())
                         ? routes_[static_cast<size_t>(route)].id
                         : RouteId();
  double radius = 0.0;
  for (const Character& character : characters_) {
    if (id.valid() && character.locomotion.enabled && character.locomotion.route == id) {
      radius = std::max(radius, character.locomotion.turn_radius);
    }
  }
  if (const Character* selected = FindCharacter(selection_.character);
      radius <= 0.0 && selected != nullptr) {
    radius = selected->locomotion.turn_radius;
  }
  return radius;
}

void Stage::StartEditingRoute(int route) {
  route_tool_.Reset();
  if (route < 0 || route >= static_cast<int>(routes_.size())) return;
  const ViewerRoute& app_route = routes_[static_cast<size_t>(route)];
  auto editor = RouteEditor::FromSegments(app_route.drawn_segments, app_route.closed);
  if (!editor.ok()) {
    SetError(editor.error().ToString());
    return;
  }
  route_tool_.Edit(std::move(editor).value(), app_route.id);
}

void Stage::CommitEditedRoute() {
  std::vector<RouteSegment> drawn = route_tool_.editor().Segments();
  if (drawn.empty()) return;  // one point: nothing to build yet
  const int edited = RouteIndex(route_tool_.edited_route());
  const int index = edited >= 0 ? edited : static_cast<int>(routes_.size());
  std::vector<RouteSegment> segments = drawn;
  bool closed = route_tool_.editor().closed();
  const double radius = RoundingRadius(index);
  if (route_tool_.auto_round() && radius > 0.0) {
    auto rounded = RoundCorners(drawn, closed, radius);
    if (rounded.ok()) {
      segments = rounded.value().segments;
      closed = rounded.value().closed;
    }
  }
  const std::string name =
      index < static_cast<int>(routes_.size()) ? routes_[static_cast<size_t>(index)].name : "";
  Status status = BuildRoute(index, std::move(segments), closed, name);
  if (!status.ok()) {
    report_.status = status.error().message;
    return;
  }
  routes_[static_cast<size_t>(index)].drawn_segments = std::move(drawn);
  route_tool_.set_edited_route(routes_[static_cast<size_t>(index)].id);
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
  const RouteToolStep step = route_tool_.Press(
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
  const ConstructionFigure& figure = scratch_.construction;
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
  if (!go_to_.active() && !route_tool_.active() && !obstacles_.tool().active()) {
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
  if (route_tool_.active() && route_tool_.Move(g, glm::dvec2(x, y), stats_.device_pixel_ratio))
    CommitEditedRoute();
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
  route_tool_.Release();
  if (obstacles_.tool().active()) ObstacleToolRelease();
}

void Stage::UpdateHover() {
  hover_text_.clear();
  if (!options_.display.routes || routes_.empty()) return;
  const auto ground = GroundUnderCursor(pointer_.x, pointer_.y);
  if (!ground) return;
  // Within about 12 pixels of a route, at this camera distance.
  const double reach = 12.0 * stats_.device_pixel_ratio * 2.0 * camera_.orbit().distance *
                       std::tan(glm::radians(camera_.orbit().fov_y_degrees) * 0.5) /
                       std::max(viewport_.height, 1);
  for (size_t r = 0; r < routes_.size(); ++r) {
    const ViewerRoute& route = routes_[r];
    if (!route.route) continue;
    const RouteNearestPoint nearest =
        NearestPointOnRoute(*route.route, glm::dvec2(ground->x, ground->y));
    if (!(nearest.gap < reach)) continue;
    const double radius = RoundingRadius(static_cast<int>(r));
    if (radius > 0.0) {
      const std::vector<TightStretch> stretches = route.route->FindTightStretches(radius);
      const int at = FindStretchAt(*route.route, stretches, nearest.distance, reach);
      if (at >= 0) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "%s at %.1f: radius %.2f is tighter than the turning radius %.1f",
                      route.name.c_str(), nearest.distance,
                      stretches[static_cast<size_t>(at)].min_radius, radius);
        hover_text_ = text;
        return;
      }
    }
    char text[128];
    std::snprintf(text, sizeof text, "%s at %.1f of %.1f", route.name.c_str(), nearest.distance,
                  route.route->length());
    hover_text_ = text;
    return;
  }
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
  // Anchors as squares, handles as diamonds joined to their anchor.
  const float size = 0.008f * camera_.orbit().distance;
  const RouteEditor& editor = route_tool_.editor();
  for (size_t i = 0; i < editor.anchors().size(); ++i) {
    const RouteAnchor& anchor = editor.anchors()[i];
    const glm::vec3 p(static_cast<float>(anchor.position.x), static_cast<float>(anchor.position.y),
                      kLift);
    const Rgba8 color = static_cast<int>(i) == route_tool_.selected_anchor()
                            ? Rgba8{255, 90, 90, 255}
                            : Rgba8{255, 255, 255, 255};
    list.AddLine(p + glm::vec3(-size, -size, 0), p + glm::vec3(size, -size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(size, -size, 0), p + glm::vec3(size, size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(size, size, 0), p + glm::vec3(-size, size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(-size, size, 0), p + glm::vec3(-size, -size, 0), color,
                 LineDepth::kOnTop);
    for (HandleSide side : {HandleSide::kIn, HandleSide::kOut}) {
      if (!anchor.has(side)) continue;
      const glm::dvec2 h = anchor.handle(side);
      const glm::vec3 q(static_cast<float>(h.x), static_cast<float>(h.y), kLift);
      list.AddLine(p, q, {160, 200, 255, 255}, LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(-size, 0, 0), q + glm::vec3(0, size, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(0, size, 0), q + glm::vec3(size, 0, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(size, 0, 0), q + glm::vec3(0, -size, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(0, -size, 0), q + glm::vec3(-size, 0, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
    }
  }
}

}  // namespace md5stage::viewer
