#include "viewer/ground_tools.h"

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <utility>

namespace md5stage::viewer {

bool DragGesture::Dragged(glm::dvec2 screen, float device_pixel_ratio) const {
  return std::hypot(screen.x - start_.x, screen.y - start_.y) >
         kDragThresholdCssPixels * device_pixel_ratio;
}

// ---- go to ------------------------------------------------------------------------------------

bool GoToTool::Press(std::optional<glm::dvec2> ground, bool has_selection, glm::dvec2 screen) {
  gesture_.Begin(screen);
  if (!ground || !has_selection) return false;
  active_ = true;
  start_ = current_ = *ground;
  return true;
}

void GoToTool::Move(glm::dvec2 ground) {
  if (active_) current_ = ground;
}

std::optional<GoToTarget> GoToTool::Release(glm::dvec2 screen, float device_pixel_ratio) {
  if (!active_) return std::nullopt;
  active_ = false;
  GoToTarget target;
  target.point = start_;
  const glm::dvec2 drag = current_ - start_;
  if (gesture_.Dragged(screen, device_pixel_ratio) && glm::length(drag) > 1e-9)
    target.heading = std::atan2(drag.y, drag.x);
  return target;
}

// ---- construction handles ----------------------------------------------------------------------

bool ConstructionHandleTool::Press(std::optional<glm::dvec2> ground, glm::dvec2 screen,
                                   glm::dvec2 origin_screen, glm::dvec2 heading_screen,
                                   const Pose2& origin, CharacterId character, double pick_radius) {
  handle_ = ConstructionHandle::kNone;
  if (!ground) return false;
  // NaN distances (a handle behind the camera) compare false, so such a handle is never taken.
  const double to_origin = glm::length(screen - origin_screen);
  const double to_heading = glm::length(screen - heading_screen);
  if (to_origin <= pick_radius && !(to_heading < to_origin)) {
    handle_ = ConstructionHandle::kOrigin;
  } else if (to_heading <= pick_radius) {
    handle_ = ConstructionHandle::kHeading;
  } else {
    return false;
  }
  gesture_.Begin(screen);
  dragged_ = false;
  character_ = character;
  press_ground_ = *ground;
  start_ = origin;
  return true;
}

std::optional<Pose2> ConstructionHandleTool::Move(glm::dvec2 ground, glm::dvec2 screen,
                                                  float device_pixel_ratio) {
  if (!active()) return std::nullopt;
  dragged_ = dragged_ || gesture_.Dragged(screen, device_pixel_ratio);
  if (!dragged_) return std::nullopt;
  Pose2 pose = start_;
  if (handle_ == ConstructionHandle::kOrigin) {
    pose.position = start_.position + (ground - press_ground_);
  } else {
    const glm::dvec2 towards = ground - start_.position;
    // On the origin itself there is no direction: the heading stays.
    if (glm::length(towards) > 1e-9) pose.heading = std::atan2(towards.y, towards.x);
  }
  return pose;
}

// ---- route pen --------------------------------------------------------------------------------

void RouteTool::Edit(RouteEditor editor, RouteId route) {
  editor_ = std::move(editor);
  edited_route_ = route;
  selected_anchor_ = -1;
  drag_ = Drag::kNone;
}

RouteToolStep RouteTool::Press(glm::dvec2 screen, std::optional<glm::dvec2> ground,
                               const Project& project, double pick_radius) {
  RouteToolStep step;
  gesture_.Begin(screen);
  // Anchors and handles under the cursor are dragged; elsewhere a click adds a point.
  std::vector<RouteEditPoint> points;
  editor_.ListEditPoints(&points);
  const int picked = PickEditPoint(points, project, screen, pick_radius);
  if (picked >= 0) {
    const RouteEditPoint& point = points[static_cast<size_t>(picked)];
    drag_anchor_ = point.anchor;
    selected_anchor_ = static_cast<int>(point.anchor);
    if (point.kind == RouteEditPoint::Kind::kAnchor) {
      drag_ = Drag::kMoveAnchor;
    } else {
      drag_ = Drag::kMoveHandle;
      drag_side_ =
          point.kind == RouteEditPoint::Kind::kInHandle ? HandleSide::kIn : HandleSide::kOut;
    }
    step.taken = true;
    return step;
  }
  if (!ground) return step;
  auto added = editor_.AddPoint(*ground);
  if (!added.ok()) {
    step.error = added.error().ToString();
    return step;
  }
  drag_ = Drag::kNewPoint;
  drag_anchor_ = added.value();
  selected_anchor_ = static_cast<int>(drag_anchor_);
  start_ground_ = editor_.anchors()[drag_anchor_].position;
  step.taken = true;
  step.commit = true;
  return step;
}

bool RouteTool::Move(glm::dvec2 ground, glm::dvec2 screen, float device_pixel_ratio) {
  const bool dragged = gesture_.Dragged(screen, device_pixel_ratio);
  switch (drag_) {
    case Drag::kNewPoint:
      // Dragging while clicking pulls out symmetric handles: a smooth point.
      if (dragged) editor_.DragOut(drag_anchor_, ground - start_ground_);
      return true;
    case Drag::kMoveAnchor:
      if (!dragged) return false;
      editor_.MoveAnchor(drag_anchor_, ground);
      return true;
    case Drag::kMoveHandle:
      editor_.MoveHandle(drag_anchor_, drag_side_, ground);
      return true;
    case Drag::kNone:
      break;
  }
  return false;
}

bool RouteTool::ToggleClosed() {
  return editor_.closed() ? editor_.Open().ok() : editor_.Close().ok();
}

bool RouteTool::DeleteSelectedPoint() {
  if (selected_anchor_ < 0) return false;
  if (!editor_.DeletePoint(static_cast<size_t>(selected_anchor_)).ok()) return false;
  selected_anchor_ = std::min(selected_anchor_, static_cast<int>(editor_.anchor_count()) - 1);
  return true;
}

// ---- obstacles --------------------------------------------------------------------------------

ObstaclePressStep ObstacleTool::Press(glm::dvec2 ground, int picked, const Obstacle* picked_shape,
                                      const NearCursor& near_cursor) {
  ObstaclePressStep step;
  if (!draft_.empty()) {
    // Clicking the first corner, or the last one again (a double-click), closes the polygon.
    if (draft_.size() >= 3 && (near_cursor(draft_.front()) || near_cursor(draft_.back()))) {
      step.close_polygon = true;
    } else if (!near_cursor(draft_.back()) && draft_.size() < kMaxPolygonVertices) {
      draft_.push_back(ground);
    }
    return step;
  }
  if (picked >= 0 && picked_shape != nullptr) {
    step.select = picked;
    drag_ = Drag::kMoveObstacle;
    start_ = current_ = ground;
    moved_start_ = *picked_shape;
    return step;
  }
  step.select = -1;
  if (polygon_shape_) {
    draft_.push_back(ground);
    return step;
  }
  drag_ = Drag::kNewCircle;
  start_ = current_ = ground;
  return step;
}

std::optional<Obstacle> ObstacleTool::Move(glm::dvec2 ground) {
  current_ = ground;
  if (drag_ != Drag::kMoveObstacle) return std::nullopt;
  Obstacle moved = moved_start_;
  const glm::dvec2 offset = ground - start_;
  moved.centre += offset;
  for (glm::dvec2& v : moved.vertices) v += offset;
  return moved;
}

void ObstacleTool::Hover(glm::dvec2 ground) {
  if (drag_ == Drag::kNone && !draft_.empty()) current_ = ground;
}

ObstacleReleaseStep ObstacleTool::Release(double camera_distance) {
  ObstacleReleaseStep step;
  if (drag_ == Drag::kNewCircle) {
    const double radius = glm::length(current_ - start_);
    if (radius > 1e-3 * std::max(1.0, camera_distance)) step.add = Obstacle::Circle(start_, radius);
  } else if (drag_ == Drag::kMoveObstacle) {
    step.replan = true;
  }
  drag_ = Drag::kNone;
  return step;
}

std::optional<Obstacle> ObstacleTool::ClosePolygon() {
  std::vector<glm::dvec2> corners = std::move(draft_);
  draft_.clear();
  if (corners.size() < 3) return std::nullopt;
  return Obstacle::Polygon(std::move(corners));
}

void ObstacleTool::SetPolygonShape(bool polygon) {
  polygon_shape_ = polygon;
  draft_.clear();
}

}  // namespace md5stage::viewer
