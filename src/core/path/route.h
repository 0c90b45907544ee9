// A route: a chain of straight lines and cubic Beziers walked at constant speed by true arc
// length, plus the check for stretches tighter than a unit's turning radius.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/path/cubic_bezier.h"
#include "core/path/pose.h"

namespace md5stage {

// One piece of a route as the user edits it. A line uses points[0] and points[1].
struct RouteSegment {
  enum class Kind { kLine, kBezier };
  Kind kind = Kind::kLine;
  std::array<glm::dvec2, 4> points{};

  static RouteSegment Line(glm::dvec2 start, glm::dvec2 end);
  static RouteSegment Bezier(glm::dvec2 start, glm::dvec2 control1, glm::dvec2 control2,
                             glm::dvec2 end);
  glm::dvec2 start() const { return points[0]; }
  glm::dvec2 end() const { return kind == Kind::kLine ? points[1] : points[3]; }

  friend bool operator==(const RouteSegment& a, const RouteSegment& b) {
    return a.kind == b.kind && a.points == b.points;
  }
};

// A stretch of route whose radius of curvature is below a turning radius. A kink (a corner
// between segments whose tangents differ, or a cusp) is a stretch of zero extent and radius 0.
struct TightStretch {
  double start_distance = 0.0;
  double end_distance = 0.0;
  double min_radius = 0.0;
  double min_radius_distance = 0.0;  // where the minimum radius is reached
};

// Largest |x| or |y| a route accepts: beyond it the arc-length tables and curvature (cubes of
// speeds) would overflow. A million times any scene's bound (docs/scene-format.md).
constexpr double kMaxRouteCoordinate = 1e15;

// The join rule: end points closer than 1e-9 of the coordinates' size (at least 1) are shared.
bool RoutePointsMeet(glm::dvec2 a, glm::dvec2 b);

// Immutable, validated route. Build once per edit; sampling is allocation-free and thread-safe.
class Route {
 public:
  // Consecutive segments must share their end points (within 1e-9 of the coordinates' size); a
  // closed route must also end where it starts. Coordinates must be finite and within
  // kMaxRouteCoordinate; at least one segment.
  static Result<Route> Build(std::vector<RouteSegment> segments, bool closed = false);

  Route() = default;

  const std::vector<RouteSegment>& segments() const { return segments_; }
  bool closed() const { return closed_; }
  double length() const { return segment_starts_.empty() ? 0.0 : segment_starts_.back(); }
  // Distance along the route where segment i starts (i = segment count gives the length).
  double segment_start_distance(std::size_t i) const { return segment_starts_[i]; }
  // The arc-length table of a Bezier segment, or nullptr for a line.
  const CubicBezier* bezier(std::size_t i) const;

  // Position and tangent heading at a distance travelled (clamped to [0, length]). Zero-length
  // segments are never the answer; a route of zero length reports heading 0 at its start.
  Pose2 Sample(double distance) const;

  // Stretches whose radius of curvature is smaller than `turning_radius`, in route order, including
  // kinks at joins (and at the closing join of a closed route, reported at the route's length).
  std::vector<TightStretch> FindTightStretches(double turning_radius) const;

 private:
  struct Piece {
    bool is_line;
    int bezier_index;      // into beziers_ when !is_line
    glm::dvec2 start;      // line start
    glm::dvec2 direction;  // line unit direction
    double heading;        // line heading
  };

  Pose2 SampleSegment(std::size_t i, double local_distance) const;
  void BuildLookup();
  // Index of the last segment starting at or before `distance` (in [0, length]).
  std::size_t SegmentAt(double distance) const;
  double StartHeading(std::size_t i) const;
  double EndHeading(std::size_t i) const;
  void AppendSegmentStretches(std::size_t i, double turning_radius,
                              std::vector<TightStretch>* out) const;

  std::vector<RouteSegment> segments_;
  std::vector<Piece> pieces_;
  std::vector<CubicBezier> beziers_;
  std::vector<double> segment_starts_;  // size = segments + 1
  // Uniform cells over [0, length]: cell c starts in segment segment_lookup_[c], so a query needs
  // no binary search over the segments (one entry more than there are cells).
  std::vector<std::uint32_t> segment_lookup_;
  double cells_per_distance_ = 0.0;
  bool closed_ = false;
};

// Samples a route at many distances (e.g. all units on one route, or a polyline for drawing).
struct RouteSampleJob {
  const Route* route = nullptr;
  const double* distances = nullptr;
  std::size_t count = 0;
  Pose2* poses = nullptr;  // count entries, caller-owned

  bool Validate() const;
  bool Run() const;
};

}  // namespace md5stage
