#include "core/path/route_editor.h"

#include <algorithm>
#include <cmath>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <utility>

#include "core/path/bezier_split.h"
#include "core/path/golden_section.h"

namespace md5stage {
namespace {

// Handles whose directions differ from opposite by less than this (relative cross product) count
// as collinear, and lengths within this relative difference as mirrored, when reading segments.
constexpr double kCollinearTolerance = 1e-9;
// Parameter samples per Bezier for the nearest-point search before refining local minima.
constexpr int kNearestSamples = 32;

Diagnostic BadAnchor(std::size_t anchor, std::size_t count) {
  return MakeError("", 0, 0,
                   "anchor " + std::to_string(anchor) + " does not exist (the route has " +
                       std::to_string(count) + " anchors)");
}

Diagnostic NotFinite(const char* what) {
  return MakeError("", 0, 0, std::string(what) + " must be finite");
}

AnchorKind GuessKind(const RouteAnchor& anchor) {
  if (!anchor.has_in || !anchor.has_out) return AnchorKind::kCorner;
  const glm::dvec2 in = anchor.in_point - anchor.position;
  const glm::dvec2 out = anchor.out_point - anchor.position;
  const double in_length = glm::length(in);
  const double out_length = glm::length(out);
  if (!(in_length > 0.0) || !(out_length > 0.0)) return AnchorKind::kCorner;
  const bool collinear = std::abs(Cross(in, out)) <= kCollinearTolerance * in_length * out_length &&
                         glm::dot(in, out) < 0.0;
  if (!collinear) return AnchorKind::kCorner;
  const bool mirrored =
      glm::length(in + out) <= kCollinearTolerance * std::max(in_length, out_length);
  return mirrored ? AnchorKind::kSymmetric : AnchorKind::kSmooth;
}

double SquaredDistance(glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 d = a - b;
  return glm::dot(d, d);
}

}  // namespace

RouteEditor::RouteEditor(double snap_scale)
    : snap_scale_(std::isfinite(snap_scale) && snap_scale > 0.0 ? snap_scale : 0.0) {}

Result<RouteEditor> RouteEditor::FromSegments(const std::vector<RouteSegment>& segments,
                                              bool closed, double snap_scale) {
  // The same acceptance rule (and messages) as Route::Build.
  Result<Route> valid = Route::Build(segments, closed);
  if (!valid.ok()) return valid.error();

  RouteEditor editor(snap_scale);
  editor.closed_ = closed;
  const std::size_t count = closed ? segments.size() : segments.size() + 1;
  editor.anchors_.resize(count);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    editor.anchors_[i].position = segments[i].start();
  }
  if (!closed) editor.anchors_.back().position = segments.back().end();
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const RouteSegment& segment = segments[i];
    if (segment.kind != RouteSegment::Kind::kBezier) continue;
    RouteAnchor& from = editor.anchors_[i];
    RouteAnchor& to = editor.anchors_[(i + 1) % count];
    from.has_out = true;
    from.out_point = segment.points[1];
    to.has_in = true;
    to.in_point = segment.points[2];
  }
  for (RouteAnchor& anchor : editor.anchors_) anchor.kind = GuessKind(anchor);
  return editor;
}

glm::dvec2 RouteEditor::Snap(glm::dvec2 point) const {
  if (!(snap_scale_ > 0.0)) return point;
  return {std::round(point.x * snap_scale_) / snap_scale_,
          std::round(point.y * snap_scale_) / snap_scale_};
}

bool RouteEditor::OnGrid(glm::dvec2 point) const { return Snap(point) == point; }

glm::dvec2 RouteEditor::Mirror(glm::dvec2 anchor, glm::dvec2 tip) const {
  // Around a grid point the mirror of a grid point is one (rounding only removes noise); around
  // an anchor off the grid rounding would break the mirror, so it is left exact.
  const glm::dvec2 mirror = 2.0 * anchor - tip;
  return OnGrid(anchor) && OnGrid(tip) ? Snap(mirror) : mirror;
}

std::size_t RouteEditor::segment_count() const {
  if (anchors_.empty()) return 0;
  return closed_ ? anchors_.size() : anchors_.size() - 1;
}

RouteSegment RouteEditor::Segment(std::size_t i) const {
  const RouteAnchor& from = anchors_[i];
  const RouteAnchor& to = anchors_[(i + 1) % anchors_.size()];
  if (!from.has_out && !to.has_in) return RouteSegment::Line(from.position, to.position);
  return RouteSegment::Bezier(from.position, from.has_out ? from.out_point : from.position,
                              to.has_in ? to.in_point : to.position, to.position);
}

void RouteEditor::ToSegments(std::vector<RouteSegment>* out) const {
  const std::size_t count = segment_count();
  out->resize(count);
  for (std::size_t i = 0; i < count; ++i) (*out)[i] = Segment(i);
}

std::vector<RouteSegment> RouteEditor::Segments() const {
  std::vector<RouteSegment> segments;
  ToSegments(&segments);
  return segments;
}

Result<Route> RouteEditor::BuildRoute() const {
  if (segment_count() == 0) {
    return MakeError("", 0, 0, "a route needs at least 2 points");
  }
  return Route::Build(Segments(), closed_);
}

Result<std::size_t> RouteEditor::AddPoint(glm::dvec2 position) {
  if (!IsFinite(position)) return NotFinite("the point");
  RouteAnchor anchor;
  anchor.position = Snap(position);
  anchors_.push_back(anchor);
  return anchors_.size() - 1;
}

Result<std::size_t> RouteEditor::AddSmoothPoint(glm::dvec2 position, glm::dvec2 drag) {
  if (!IsFinite(position)) return NotFinite("the point");
  if (!IsFinite(drag)) return NotFinite("the drag");
  Result<std::size_t> added = AddPoint(position);
  Status dragged = DragOut(added.value(), drag);
  (void)dragged;  // cannot fail: the anchor exists and the drag is finite
  return added;
}

Status RouteEditor::DragOut(std::size_t index, glm::dvec2 drag) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  if (!IsFinite(drag)) return NotFinite("the drag");
  RouteAnchor& anchor = anchors_[index];
  const glm::dvec2 out = Snap(anchor.position + drag);
  if (out == anchor.position) {
    anchor.has_in = anchor.has_out = false;
    anchor.kind = AnchorKind::kCorner;
    return {};
  }
  anchor.out_point = out;
  anchor.in_point = Mirror(anchor.position, out);
  anchor.has_in = anchor.has_out = true;
  anchor.kind = AnchorKind::kSymmetric;
  return {};
}

Status RouteEditor::MoveAnchor(std::size_t index, glm::dvec2 position) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  if (!IsFinite(position)) return NotFinite("the position");
  RouteAnchor& anchor = anchors_[index];
  const glm::dvec2 moved = Snap(position);
  const glm::dvec2 delta = moved - anchor.position;
  // Handles on the grid stay on it when the move is along the grid; others (kept exactly
  // collinear, split off a curve, or around an anchor off the grid) move by exactly the same delta
  // so that mirrored and collinear handles stay so.
  const bool grid_move = OnGrid(anchor.position);
  auto carry = [&](glm::dvec2 handle) {
    return grid_move && OnGrid(handle) ? Snap(handle + delta) : handle + delta;
  };
  if (anchor.has_in) anchor.in_point = carry(anchor.in_point);
  if (anchor.has_out) anchor.out_point = carry(anchor.out_point);
  anchor.position = moved;
  return {};
}

void RouteEditor::ApplyCoupling(RouteAnchor* anchor, HandleSide moved) const {
  const bool moved_in = moved == HandleSide::kIn;
  const glm::dvec2 tip = moved_in ? anchor->in_point : anchor->out_point;
  glm::dvec2& other = moved_in ? anchor->out_point : anchor->in_point;
  bool& has_other = moved_in ? anchor->has_out : anchor->has_in;
  switch (anchor->kind) {
    case AnchorKind::kCorner:
      break;
    case AnchorKind::kSymmetric:
      other = Mirror(anchor->position, tip);
      has_other = true;
      break;
    case AnchorKind::kSmooth: {
      if (!has_other) break;
      const glm::dvec2 direction = tip - anchor->position;
      const double length = glm::length(direction);
      if (!(length > 0.0)) break;  // a zero-length handle has no direction to follow
      const double other_length = glm::length(other - anchor->position);
      other = anchor->position - direction * (other_length / length);
      break;
    }
  }
}

Status RouteEditor::MoveHandle(std::size_t index, HandleSide side, glm::dvec2 handle_point,
                               bool break_mirror) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  if (!IsFinite(handle_point)) return NotFinite("the handle point");
  RouteAnchor& anchor = anchors_[index];
  const glm::dvec2 tip = Snap(handle_point);
  if (side == HandleSide::kIn) {
    anchor.in_point = tip;
    anchor.has_in = true;
  } else {
    anchor.out_point = tip;
    anchor.has_out = true;
  }
  if (break_mirror) {
    anchor.kind = AnchorKind::kCorner;
  } else {
    ApplyCoupling(&anchor, side);
  }
  return {};
}

Status RouteEditor::RemoveHandle(std::size_t index, HandleSide side) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  RouteAnchor& anchor = anchors_[index];
  (side == HandleSide::kIn ? anchor.has_in : anchor.has_out) = false;
  anchor.kind = AnchorKind::kCorner;
  return {};
}

Status RouteEditor::RemoveHandles(std::size_t index) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  RouteAnchor& anchor = anchors_[index];
  anchor.has_in = anchor.has_out = false;
  anchor.kind = AnchorKind::kCorner;
  return {};
}

Status RouteEditor::SetKind(std::size_t index, AnchorKind kind) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  anchors_[index].kind = kind;
  return {};
}

Status RouteEditor::DeletePoint(std::size_t index) {
  if (!ValidAnchor(index)) return BadAnchor(index, anchors_.size());
  anchors_.erase(anchors_.begin() + static_cast<std::ptrdiff_t>(index));
  if (anchors_.size() < 2) closed_ = false;
  return {};
}

Status RouteEditor::Close() {
  if (anchors_.size() < 2) return MakeError("", 0, 0, "closing a route needs at least 2 points");
  closed_ = true;
  return {};
}

Status RouteEditor::Open() {
  closed_ = false;
  return {};
}

Status RouteEditor::OpenAt(std::size_t segment) {
  if (!closed_) return MakeError("", 0, 0, "only a closed route can be opened at a segment");
  if (segment >= segment_count()) {
    return MakeError("", 0, 0, "segment " + std::to_string(segment) + " does not exist");
  }
  std::rotate(anchors_.begin(),
              anchors_.begin() + static_cast<std::ptrdiff_t>(segment + 1) %
                                     static_cast<std::ptrdiff_t>(anchors_.size()),
              anchors_.end());
  closed_ = false;
  return {};
}

Result<std::size_t> RouteEditor::InsertPoint(std::size_t segment, double t) {
  if (segment >= segment_count()) {
    return MakeError("", 0, 0, "segment " + std::to_string(segment) + " does not exist");
  }
  if (!(t > 0.0 && t < 1.0)) {
    return MakeError("", 0, 0, "a point is inserted strictly inside a segment (0 < t < 1)");
  }
  const RouteSegment split = Segment(segment);
  const std::size_t from = segment;
  const std::size_t to = (segment + 1) % anchors_.size();
  RouteAnchor inserted;
  if (split.kind == RouteSegment::Kind::kLine) {
    inserted.position = split.points[0] + t * (split.points[1] - split.points[0]);
  } else {
    CubicPoints first, second;
    SplitCubic(split.points, t, &first, &second);
    inserted.position = first[3];
    inserted.in_point = first[2];
    inserted.out_point = second[1];
    inserted.has_in = inserted.has_out = true;
    inserted.kind = AnchorKind::kSmooth;
    // The neighbours' handles on this segment get shorter, so they are no longer mirrored.
    RouteAnchor& a = anchors_[from];
    a.out_point = first[1];
    a.has_out = true;
    if (a.kind == AnchorKind::kSymmetric) a.kind = AnchorKind::kSmooth;
    RouteAnchor& b = anchors_[to];
    b.in_point = second[2];
    b.has_in = true;
    if (b.kind == AnchorKind::kSymmetric) b.kind = AnchorKind::kSmooth;
  }
  anchors_.insert(anchors_.begin() + static_cast<std::ptrdiff_t>(segment + 1), inserted);
  return segment + 1;
}

void RouteEditor::Clear() {
  anchors_.clear();
  closed_ = false;
}

void RouteEditor::ListEditPoints(std::vector<RouteEditPoint>* out) const {
  out->clear();
  for (std::size_t i = 0; i < anchors_.size(); ++i) {
    out->push_back({RouteEditPoint::Kind::kAnchor, i, anchors_[i].position});
  }
  for (std::size_t i = 0; i < anchors_.size(); ++i) {
    const RouteAnchor& anchor = anchors_[i];
    if (anchor.has_in) out->push_back({RouteEditPoint::Kind::kInHandle, i, anchor.in_point});
    if (anchor.has_out) out->push_back({RouteEditPoint::Kind::kOutHandle, i, anchor.out_point});
  }
}

int PickNearestScreenPoint(const glm::dvec2* screen_points, std::size_t count, glm::dvec2 cursor,
                           double radius) {
  return route_editor_internal::PickNearest(
      count, [&](std::size_t i) { return screen_points[i]; }, cursor, radius);
}

RouteNearestPoint NearestPointOnRoute(const Route& route, glm::dvec2 point) {
  RouteNearestPoint best;
  const std::vector<RouteSegment>& segments = route.segments();
  if (segments.empty() || !IsFinite(point)) return best;
  double best_squared = std::numeric_limits<double>::infinity();
  auto consider = [&](std::size_t i, double t, glm::dvec2 position) {
    const double squared = SquaredDistance(position, point);
    if (squared < best_squared) {
      best_squared = squared;
      best.segment = i;
      best.t = t;
      best.position = position;
    }
  };
  // Zero-length segments only count when the whole route has no length.
  auto skipped = [&](std::size_t i) {
    return !(route.segment_start_distance(i + 1) > route.segment_start_distance(i)) &&
           route.length() > 0.0;
  };
  // First the lines and the curves' end points: a cheap bound that lets most curves be skipped.
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (skipped(i)) continue;
    const RouteSegment& segment = segments[i];
    if (segment.kind == RouteSegment::Kind::kLine) {
      const glm::dvec2 a = segment.points[0];
      const glm::dvec2 ab = segment.points[1] - a;
      const double squared_length = glm::dot(ab, ab);
      const double t = squared_length > 0.0
                           ? std::clamp(glm::dot(point - a, ab) / squared_length, 0.0, 1.0)
                           : 0.0;
      consider(i, t, a + t * ab);
    } else {
      consider(i, 0.0, segment.points[0]);
      consider(i, 1.0, segment.points[3]);
    }
  }
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const RouteSegment& segment = segments[i];
    if (segment.kind == RouteSegment::Kind::kLine || skipped(i)) continue;
    // A curve lies inside its control points' box: skip it when the box is farther than the best.
    glm::dvec2 low = segment.points[0], high = segment.points[0];
    for (const glm::dvec2& p : segment.points) {
      low = glm::min(low, p);
      high = glm::max(high, p);
    }
    const glm::dvec2 outside = glm::max(glm::max(low - point, point - high), glm::dvec2(0.0));
    if (glm::dot(outside, outside) > best_squared) continue;
    const CubicBezier& curve = *route.bezier(i);
    auto squared_at = [&](double t) { return SquaredDistance(curve.Position(t), point); };
    double samples[kNearestSamples + 1];
    for (int j = 0; j <= kNearestSamples; ++j) {
      samples[j] = squared_at(static_cast<double>(j) / kNearestSamples);
    }
    for (int j = 0; j <= kNearestSamples; ++j) {
      const bool local_minimum = (j == 0 || samples[j] <= samples[j - 1]) &&
                                 (j == kNearestSamples || samples[j] <= samples[j + 1]);
      if (!local_minimum) continue;
      const double a = static_cast<double>(std::max(j - 1, 0)) / kNearestSamples;
      const double b = static_cast<double>(std::min(j + 1, kNearestSamples)) / kNearestSamples;
      double t = MinimizeOn(a, b, squared_at, 1e-14);
      // The bracket leaves t good to about sqrt(epsilon); Newton on (B - q)·B' = 0 finishes it.
      auto gradient = [&](double at) {
        return glm::dot(curve.Position(at) - point, curve.Derivative(at));
      };
      for (int step = 0; step < 3; ++step) {
        const glm::dvec2 offset = curve.Position(t) - point;
        const glm::dvec2 d1 = curve.Derivative(t);
        const double slope = glm::dot(d1, d1) + glm::dot(offset, curve.SecondDerivative(t));
        if (!(slope > 0.0)) break;
        const double next = std::clamp(t - glm::dot(offset, d1) / slope, a, b);
        // Squared distances are too flat here to compare; the gradient is not.
        if (!(std::abs(gradient(next)) < std::abs(gradient(t)))) break;
        t = next;
      }
      if (squared_at(static_cast<double>(j) / kNearestSamples) < squared_at(t)) {
        t = static_cast<double>(j) / kNearestSamples;
      }
      consider(i, t, curve.Position(t));
    }
  }
  if (!std::isfinite(best_squared)) return best;
  best.gap = std::sqrt(best_squared);
  const double start = route.segment_start_distance(best.segment);
  const CubicBezier* curve = route.bezier(best.segment);
  if (curve == nullptr) {
    const double length = route.segment_start_distance(best.segment + 1) - start;
    best.distance = start + best.t * length;
  } else {
    best.distance = start + curve->DistanceAtParameter(best.t);
    const double curvature = std::abs(curve->Curvature(best.t));
    best.radius = curvature > 0.0 ? 1.0 / curvature : std::numeric_limits<double>::infinity();
  }
  return best;
}

int FindStretchAt(const Route& route, const std::vector<TightStretch>& stretches, double distance,
                  double tolerance) {
  if (!std::isfinite(distance)) return -1;
  const double length = route.length();
  auto gap_to = [](const TightStretch& stretch, double d) {
    if (d < stretch.start_distance) return stretch.start_distance - d;
    if (d > stretch.end_distance) return d - stretch.end_distance;
    return 0.0;
  };
  int best = -1;
  double best_gap = tolerance;
  for (std::size_t i = 0; i < stretches.size(); ++i) {
    double gap = gap_to(stretches[i], distance);
    if (route.closed() && length > 0.0) {
      gap = std::min(
          {gap, gap_to(stretches[i], distance + length), gap_to(stretches[i], distance - length)});
    }
    if (gap < best_gap || (best < 0 && gap == best_gap)) {
      best = static_cast<int>(i);
      best_gap = gap;
    }
  }
  return best;
}

}  // namespace md5stage
