// The editing model behind the viewer's route tool (a vector pen tool on the ground plane):
// anchors with optional Bezier handles, edits, conversion to and from route segments, picking.
// Camera-free: picking takes screen points the caller has projected.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/common/result.h"
#include "core/path/pose.h"
#include "core/path/route.h"

namespace md5stage {

// Points the editor places are rounded to multiples of 1 / kRouteSnapScale units, so share links
// can pack them at that scale.
constexpr double kRouteSnapScale = 100.0;

// How an anchor couples its two handles when one of them is dragged.
enum class AnchorKind {
  kCorner,     // independent handles (or none)
  kSmooth,     // the other handle turns to stay collinear, keeping its own length
  kSymmetric,  // the other handle mirrors the dragged one (pen tool drag-out)
};

enum class HandleSide { kIn, kOut };

// One anchor. Handles are stored as absolute ground points (the Bezier control points), so that
// segments read in are written back bit for bit; the offsets are derived.
struct RouteAnchor {
  glm::dvec2 position{0.0, 0.0};
  glm::dvec2 in_point{0.0, 0.0};   // control point before the anchor, when has_in
  glm::dvec2 out_point{0.0, 0.0};  // control point after the anchor, when has_out
  bool has_in = false;
  bool has_out = false;
  AnchorKind kind = AnchorKind::kCorner;

  glm::dvec2 in_offset() const { return has_in ? in_point - position : glm::dvec2(0.0); }
  glm::dvec2 out_offset() const { return has_out ? out_point - position : glm::dvec2(0.0); }
  bool has(HandleSide side) const { return side == HandleSide::kIn ? has_in : has_out; }
  glm::dvec2 handle(HandleSide side) const {
    return side == HandleSide::kIn ? in_point : out_point;
  }
};

// Something on a route that can be picked: an anchor or one of its handles.
struct RouteEditPoint {
  enum class Kind { kAnchor, kInHandle, kOutHandle };
  Kind kind = Kind::kAnchor;
  std::size_t anchor = 0;
  glm::dvec2 ground{0.0, 0.0};
};

// An editable route. Segment i joins anchor i to anchor i + 1 (and, when closed, the last anchor
// to the first): a line when neither end has a handle on that side, else a cubic Bezier
// (p_i, out_i, in_{i+1}, p_{i+1}) with a missing handle replaced by its anchor.
// Edits return an error (and change nothing) for bad indices or non-finite input.
class RouteEditor {
 public:
  // snap_scale: points placed by edits are rounded to multiples of 1 / snap_scale (0: no rounding).
  explicit RouteEditor(double snap_scale = kRouteSnapScale);

  // The anchors that reproduce a chain of segments exactly (consecutive segments must meet, as
  // Route::Build requires; each segment's start point is kept, so joins that meet only within
  // tolerance take the later segment's start). Anchor kinds are guessed from the handles:
  // mirrored → kSymmetric, collinear → kSmooth, otherwise kCorner. Not rounded.
  static Result<RouteEditor> FromSegments(const std::vector<RouteSegment>& segments, bool closed,
                                          double snap_scale = kRouteSnapScale);

  const std::vector<RouteAnchor>& anchors() const { return anchors_; }
  std::size_t anchor_count() const { return anchors_.size(); }
  // Close() needs 2 anchors; only FromSegments makes a closed single anchor (a one-segment loop).
  bool closed() const { return closed_; }
  double snap_scale() const { return snap_scale_; }
  glm::dvec2 Snap(glm::dvec2 point) const;

  // n - 1 segments when open (0 for a single anchor), n when closed.
  std::size_t segment_count() const;
  RouteSegment Segment(std::size_t i) const;
  // Replaces *out with all segments (reuses its storage).
  void ToSegments(std::vector<RouteSegment>* out) const;
  std::vector<RouteSegment> Segments() const;
  // Route::Build of the segments; an error when there is no segment yet.
  Result<Route> BuildRoute() const;

  // ---- Edits ----------------------------------------------------------------------------------
  // Appends a corner (no handles) after the last anchor (on a closed route: before the closing
  // segment). Returns its index.
  Result<std::size_t> AddPoint(glm::dvec2 position);
  // Appends a symmetric smooth point: out handle = drag, in handle = -drag.
  Result<std::size_t> AddSmoothPoint(glm::dvec2 position, glm::dvec2 drag);
  // Pen-tool drag-out on an existing anchor: symmetric handles out = drag, in = -drag (the
  // direction of travel is the drag's). A zero drag (after rounding) removes the handles (corner).
  Status DragOut(std::size_t anchor, glm::dvec2 drag);
  // Moves an anchor to `position`; its handles keep their offsets.
  Status MoveAnchor(std::size_t anchor, glm::dvec2 position);
  // Puts one handle's tip at `handle_point` (creating the handle if missing). kSymmetric mirrors
  // the other handle, kSmooth keeps the other collinear with its own length (not rounded, so it
  // stays exactly collinear); break_mirror makes the anchor a kCorner and leaves the other alone.
  // A tip on the anchor itself is a zero-length handle (the segment stays a Bezier).
  Status MoveHandle(std::size_t anchor, HandleSide side, glm::dvec2 handle_point,
                    bool break_mirror = false);
  // Removes one handle / both handles (the anchor becomes a kCorner).
  Status RemoveHandle(std::size_t anchor, HandleSide side);
  Status RemoveHandles(std::size_t anchor);
  Status SetKind(std::size_t anchor, AnchorKind kind);
  // Removes an anchor; its neighbours are joined by one segment using their own handles. A route
  // left with fewer than 2 anchors opens.
  Status DeletePoint(std::size_t anchor);
  // Close needs at least 2 anchors. Open removes the closing segment; OpenAt(i) removes segment i
  // instead (the anchors are rotated so that anchor i + 1 comes first).
  Status Close();
  Status Open();
  Status OpenAt(std::size_t segment);
  // Inserts an anchor on segment `segment` at parameter t in (0, 1) without changing the shape:
  // a Bezier is split by de Casteljau (the new anchor is kSmooth with the split handles, the
  // neighbours' handles shortened); a line gets a corner at the interpolated point. The new
  // point is not rounded (that would bend the curve). Returns the new anchor's index.
  Result<std::size_t> InsertPoint(std::size_t segment, double t);
  void Clear();

  // ---- Picking --------------------------------------------------------------------------------
  // Anchors first (in order), then the handles that exist (in and out per anchor), so anchors win
  // ties in PickNearestScreenPoint. Replaces *out (reuses its storage).
  void ListEditPoints(std::vector<RouteEditPoint>* out) const;

 private:
  bool ValidAnchor(std::size_t anchor) const { return anchor < anchors_.size(); }
  void ApplyCoupling(RouteAnchor* anchor, HandleSide moved) const;
  bool OnGrid(glm::dvec2 point) const;
  glm::dvec2 Mirror(glm::dvec2 anchor, glm::dvec2 tip) const;

  std::vector<RouteAnchor> anchors_;
  bool closed_ = false;
  double snap_scale_ = kRouteSnapScale;
};

// Index of the screen point nearest to `cursor` within `radius` pixels, or -1. Non-finite points
// (e.g. behind the camera) are skipped; on equal distance the lower index wins.
int PickNearestScreenPoint(const glm::dvec2* screen_points, std::size_t count, glm::dvec2 cursor,
                           double radius);

namespace route_editor_internal {
template <typename ScreenOf>
int PickNearest(std::size_t count, ScreenOf&& screen_of, glm::dvec2 cursor, double radius) {
  int best = -1;
  double best_distance = radius;
  for (std::size_t i = 0; i < count; ++i) {
    const glm::dvec2 screen = screen_of(i);
    if (!IsFinite(screen)) continue;
    const double distance = std::hypot(screen.x - cursor.x, screen.y - cursor.y);
    if (distance < best_distance || (best < 0 && distance == best_distance)) {
      best = static_cast<int>(i);
      best_distance = distance;
    }
  }
  return best;
}
}  // namespace route_editor_internal

// Same, projecting the edit points' ground positions with `project` (glm::dvec2 ground →
// glm::dvec2 screen, non-finite when not visible). Returns an index into `points` or -1.
template <typename Project>
int PickEditPoint(const std::vector<RouteEditPoint>& points, Project&& project, glm::dvec2 cursor,
                  double radius) {
  return route_editor_internal::PickNearest(
      points.size(), [&](std::size_t i) { return project(points[i].ground); }, cursor, radius);
}

// The point of a route nearest to a ground point (for hover and for inserting points).
struct RouteNearestPoint {
  std::size_t segment = 0;
  double t = 0.0;         // parameter on the segment (lines: fraction of the length)
  double distance = 0.0;  // along the route, as Route::Sample takes it
  glm::dvec2 position{0.0, 0.0};
  double gap = std::numeric_limits<double>::infinity();  // ground distance to the query point
  // Radius of curvature there (infinity on lines and straight stretches, 0 at cusps).
  double radius = std::numeric_limits<double>::infinity();
};

// Allocation-free; Beziers are searched only when their control polygon's box can be nearer than
// the best point so far. An empty route or a non-finite point gives the default (gap infinity).
RouteNearestPoint NearestPointOnRoute(const Route& route, glm::dvec2 point);

// Index of the tight stretch under a hovered distance along `route`, within `tolerance` (a kink has
// no extent, so hovering needs some slack); the nearest one when several are in reach; -1 if none.
// On a closed route distances wrap (a kink at the closing join is found from near 0 too).
int FindStretchAt(const Route& route, const std::vector<TightStretch>& stretches, double distance,
                  double tolerance);

}  // namespace md5stage
