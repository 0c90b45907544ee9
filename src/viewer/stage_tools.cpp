// The mouse tools on the ground: "go to" (click a point, drag to also give a final heading) and
// the route pen (click: corner, drag: smooth point; drag anchors and handles to edit), with the
// hover readout of tight stretches. The geometry lives in core/path (route_editor,
// corner_rounding).
#include <algorithm>
#include <cmath>

#include "core/path/corner_rounding.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {
constexpr double kPickRadiusCssPixels = 10.0;
constexpr double kDragThresholdCssPixels = 6.0;
constexpr float kLift = 0.1f;
}  // namespace

std::optional<glm::vec3> Stage::GroundUnderCursor(double x, double y) const {
  return IntersectGround(camera_.ScreenRay(static_cast<float>(x), static_cast<float>(y),
                                           static_cast<float>(width_),
                                           static_cast<float>(height_)));
}

bool Stage::ProjectToScreen(const glm::vec3& world, glm::dvec2* screen) const {
  const glm::vec4 clip = ViewProjection() * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return false;
  screen->x = (clip.x / clip.w * 0.5 + 0.5) * width_;
  screen->y = (0.5 - clip.y / clip.w * 0.5) * height_;
  return true;
}

double Stage::RoundingRadius(int route) const {
  double radius = 0.0;
  for (const Character& character : characters_) {
    if (character.locomotion.enabled && character.locomotion.route == route) {
      radius = std::max(radius, character.locomotion.turn_radius);
    }
  }
  if (radius <= 0.0 && selected_ >= 0 && selected_ < static_cast<int>(characters_.size())) {
    radius = characters_[static_cast<size_t>(selected_)].locomotion.turn_radius;
  }
  return radius;
}

void Stage::StartEditingRoute(int route) {
  editor_ = RouteEditor();
  edited_route_ = -1;
  editor_selected_anchor_ = -1;
  if (route < 0 || route >= static_cast<int>(routes_.size())) return;
  const ViewerRoute& app_route = routes_[static_cast<size_t>(route)];
  auto editor = RouteEditor::FromSegments(app_route.drawn_segments, app_route.closed);
  if (!editor.ok()) {
    SetError(editor.error().ToString());
    return;
  }
  editor_ = std::move(editor).value();
  edited_route_ = route;
}

void Stage::CommitEditedRoute() {
  std::vector<RouteSegment> drawn = editor_.Segments();
  if (drawn.empty()) return;  // one point: nothing to build yet
  const int index = edited_route_ >= 0 ? edited_route_ : static_cast<int>(routes_.size());
  std::vector<RouteSegment> segments = drawn;
  bool closed = editor_.closed();
  const double radius = RoundingRadius(index);
  if (auto_round_ && radius > 0.0) {
    auto rounded = RoundCorners(drawn, closed, radius);
    if (rounded.ok()) {
      segments = rounded.value().segments;
      closed = rounded.value().closed;
    }
  }
  const std::string name =
      index < static_cast<int>(routes_.size()) ? routes_[static_cast<size_t>(index)].name : "";
  Status status = SetRoute(index, std::move(segments), closed, name);
  if (!status.ok()) {
    status_ = status.error().message;
    return;
  }
  routes_[static_cast<size_t>(index)].drawn_segments = std::move(drawn);
  edited_route_ = index;
}

bool Stage::ToolPress(double x, double y) {
  const auto ground = GroundUnderCursor(x, y);
  drag_start_x_ = x;
  drag_start_y_ = y;
  if (tool_ == ui::Tool::kGoTo) {
    if (!ground || Selected() == nullptr) return false;
    drag_ = Drag::kGoTo;
    drag_start_ground_ = drag_current_ground_ = glm::dvec2(ground->x, ground->y);
    return true;
  }
  if (tool_ == ui::Tool::kObstacle) {
    return ground && ObstacleToolPress(glm::dvec2(ground->x, ground->y), x, y);
  }
  if (tool_ != ui::Tool::kRoute) return false;
  // Anchors and handles under the cursor are dragged; elsewhere a click adds a point.
  std::vector<RouteEditPoint> points;
  editor_.ListEditPoints(&points);
  const double radius = kPickRadiusCssPixels * stats_.device_pixel_ratio;
  const int picked = PickEditPoint(
      points,
      [&](glm::dvec2 g) {
        glm::dvec2 screen;
        if (!ProjectToScreen(glm::vec3(static_cast<float>(g.x), static_cast<float>(g.y), kLift),
                             &screen)) {
          return glm::dvec2(std::nan(""), std::nan(""));
        }
        return screen;
      },
      glm::dvec2(x, y), radius);
  if (picked >= 0) {
    const RouteEditPoint& point = points[static_cast<size_t>(picked)];
    drag_anchor_ = point.anchor;
    editor_selected_anchor_ = static_cast<int>(point.anchor);
    if (point.kind == RouteEditPoint::Kind::kAnchor) {
      drag_ = Drag::kMoveAnchor;
    } else {
      drag_ = Drag::kMoveHandle;
      drag_side_ =
          point.kind == RouteEditPoint::Kind::kInHandle ? HandleSide::kIn : HandleSide::kOut;
    }
    return true;
  }
  if (!ground) return false;
  auto added = editor_.AddPoint(glm::dvec2(ground->x, ground->y));
  if (!added.ok()) {
    SetError(added.error().ToString());
    return false;
  }
  drag_ = Drag::kNewPoint;
  drag_anchor_ = added.value();
  editor_selected_anchor_ = static_cast<int>(drag_anchor_);
  drag_start_ground_ = editor_.anchors()[drag_anchor_].position;
  CommitEditedRoute();
  return true;
}

void Stage::ToolMove(double x, double y) {
  if (drag_ == Drag::kNone) return;
  const auto ground = GroundUnderCursor(x, y);
  if (!ground) return;
  const glm::dvec2 g(ground->x, ground->y);
  drag_current_ground_ = g;
  const double moved = std::hypot(x - drag_start_x_, y - drag_start_y_);
  const bool dragged = moved > kDragThresholdCssPixels * stats_.device_pixel_ratio;
  switch (drag_) {
    case Drag::kNewPoint:
      // Dragging while clicking pulls out symmetric handles: a smooth point.
      if (dragged) editor_.DragOut(drag_anchor_, g - drag_start_ground_);
      CommitEditedRoute();
      break;
    case Drag::kMoveAnchor:
      if (dragged) {
        editor_.MoveAnchor(drag_anchor_, g);
        CommitEditedRoute();
      }
      break;
    case Drag::kMoveHandle:
      editor_.MoveHandle(drag_anchor_, drag_side_, g);
      CommitEditedRoute();
      break;
    case Drag::kNewCircle:
    case Drag::kMoveObstacle:
      ObstacleToolMove(g);
      break;
    default:
      break;
  }
}

void Stage::ToolRelease(double x, double y) {
  if (drag_ == Drag::kGoTo && Selected() != nullptr) {
    Character& character = *Selected();
    EnsureLocomotionAnimations(character);
    const double moved = std::hypot(x - drag_start_x_, y - drag_start_y_);
    const glm::dvec2 drag = drag_current_ground_ - drag_start_ground_;
    Status status;
    if (moved > kDragThresholdCssPixels * stats_.device_pixel_ratio && glm::length(drag) > 1e-9) {
      const double heading = std::atan2(drag.y, drag.x);
      status = GoTo(character, drag_start_ground_, &heading);
    } else {
      status = GoTo(character, drag_start_ground_, nullptr);
    }
    if (!status.ok()) SetError(status.error().ToString());
  }
  if (drag_ == Drag::kNewCircle || drag_ == Drag::kMoveObstacle) ObstacleToolRelease();
  drag_ = Drag::kNone;
}

void Stage::UpdateHover() {
  hover_text_.clear();
  if (!display_.routes || routes_.empty()) return;
  const auto ground = GroundUnderCursor(cursor_x_, cursor_y_);
  if (!ground) return;
  // Within about 12 pixels of a route, at this camera distance.
  const double reach = 12.0 * stats_.device_pixel_ratio * 2.0 * camera_.distance *
                       std::tan(glm::radians(camera_.fov_y_degrees) * 0.5) / std::max(height_, 1);
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
  if (drag_ == Drag::kGoTo) {
    const glm::vec3 a(static_cast<float>(drag_start_ground_.x),
                      static_cast<float>(drag_start_ground_.y), kLift);
    const glm::vec3 b(static_cast<float>(drag_current_ground_.x),
                      static_cast<float>(drag_current_ground_.y), kLift);
    list.AddLine(a, b, {120, 255, 160, 255}, LineDepth::kOnTop);
  }
  if (tool_ != ui::Tool::kRoute) return;
  // Anchors as squares, handles as diamonds joined to their anchor.
  const float size = 0.008f * camera_.distance;
  for (size_t i = 0; i < editor_.anchors().size(); ++i) {
    const RouteAnchor& anchor = editor_.anchors()[i];
    const glm::vec3 p(static_cast<float>(anchor.position.x), static_cast<float>(anchor.position.y),
                      kLift);
    const Rgba8 color = static_cast<int>(i) == editor_selected_anchor_ ? Rgba8{255, 90, 90, 255}
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
