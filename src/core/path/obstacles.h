// Obstacles on the ground plane (circles and simple polygons, convex or concave): validation, exact
// distances from points, line segments and circular arcs, and their JSON form.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/json.h"
#include "core/common/result.h"
#include "core/path/pose.h"
#include "core/path/turn_path.h"

namespace md5stage {

constexpr std::size_t kMaxObstacles = 1024;
constexpr std::size_t kMaxPolygonVertices = 256;

struct Box2 {
  glm::dvec2 min{0.0, 0.0};
  glm::dvec2 max{0.0, 0.0};
};

// A filled circle or a filled simple polygon (either winding; its edges are vertex i → i + 1 and
// last → first).
struct Obstacle {
  enum class Kind { kCircle, kPolygon };
  Kind kind = Kind::kCircle;
  glm::dvec2 centre{0.0, 0.0};       // circle
  double radius = 0.0;               // circle
  std::vector<glm::dvec2> vertices;  // polygon
  Box2 bounds;                       // filled by ValidateObstacle

  static Obstacle Circle(glm::dvec2 centre, double radius);
  static Obstacle Polygon(std::vector<glm::dvec2> vertices);
};

// Checks an obstacle and fills its bounds. `path` names it in messages ("obstacles[2]"): a
// circle needs a finite centre and a radius > 0; a polygon 3 to 256 finite vertices, no two
// consecutive ones equal, a non-zero area and no crossing or touching non-adjacent edges.
// Coordinates are limited like routes' (kMaxRouteCoordinate). The message names the field,
// e.g. "obstacles[2].polygon[1]: expected ..., found ...".
Status ValidateObstacle(Obstacle* obstacle, const std::string& path = "obstacle");

// Exact (closed-form) distances to the filled shape: 0 when touching or inside.
bool ObstacleContains(const Obstacle& obstacle, glm::dvec2 p);  // inside or on the boundary
// Every point of the segment ab is in the polygon's interior (false for circles, and whenever the
// segment touches the boundary).
bool SegmentInsidePolygon(const Obstacle& obstacle, glm::dvec2 a, glm::dvec2 b);
double DistanceToObstacle(const Obstacle& obstacle, glm::dvec2 p);
double SegmentDistanceToObstacle(const Obstacle& obstacle, glm::dvec2 a, glm::dvec2 b);
// The arc centre + radius·(cos a, sin a), a from start_angle to start_angle + sweep (either sign).
double ArcDistanceToObstacle(const Obstacle& obstacle, glm::dvec2 centre, double radius,
                             double start_angle, double sweep);

// "Comes within the clearance": distance < clearance - 1e-9·max(1, clearance), or distance 0
// (touching or crossing the shape is never clear, even with clearance 0). Passing at the
// clearance (a tangent to the inflated shape, up to rounding) is allowed, so a gap exactly
// 2·clearance wide can be driven through.
bool SegmentWithinClearance(const Obstacle& obstacle, glm::dvec2 a, glm::dvec2 b, double clearance);
bool ArcWithinClearance(const Obstacle& obstacle, glm::dvec2 centre, double radius,
                        double start_angle, double sweep, double clearance);

// A validated set of obstacles (at most kMaxObstacles).
class ObstacleSet {
 public:
  static Result<ObstacleSet> Build(std::vector<Obstacle> obstacles);
  ObstacleSet() = default;

  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  std::size_t size() const { return obstacles_.size(); }
  bool empty() const { return obstacles_.empty(); }
  const Box2& bounds() const { return bounds_; }  // of all obstacles (zero box when empty)

  // Index of the first obstacle closer than `clearance` to p / the segment / the turn segment,
  // or -1 when clear. A grid of bins over the obstacles' boxes picks the few near the query.
  int FirstWithin(glm::dvec2 p, double clearance) const;
  int FirstSegmentWithin(glm::dvec2 a, glm::dvec2 b, double clearance) const;
  int FirstTurnSegmentWithin(const TurnSegment& segment, double clearance) const;
  // Smallest distance from p to any obstacle (infinity when empty).
  double Distance(glm::dvec2 p) const;

 private:
  // Calls within(i) for the obstacles whose boxes come within `clearance` of `box`, in index
  // order as far as it matters: returns the lowest i for which within(i) is true, or -1.
  template <typename Within>
  int FirstNear(const Box2& box, double clearance, Within within) const;
  void BuildBins();

  std::vector<Obstacle> obstacles_;
  Box2 bounds_;
  // Bins: a uniform grid over bounds_; bin b lists (ascending) the obstacles whose boxes overlap
  // it, in bin_items_[bin_start_[b] .. bin_start_[b + 1]); bin_first_[i] is obstacle i's first
  // bin (x, y), so a query spanning several bins tests each obstacle in one of them only.
  glm::dvec2 bin_origin_{0.0, 0.0};
  double bin_size_ = 1.0;
  int bins_x_ = 0, bins_y_ = 0;
  std::vector<int> bin_start_;
  std::vector<int> bin_items_;
  std::vector<std::pair<int, int>> bin_first_;
};

// Reads {"obstacles": [{"circle": {"centre": [x, y], "radius": r}}, {"polygon": [[x, y], ...]}]}.
// Errors read `file:line:col: error: obstacles[2].polygon[1]: expected ..., found ...`.
Result<ObstacleSet> ObstaclesFromJson(std::string_view file, const JsonValue& value);
Result<ObstacleSet> ReadObstaclesJson(std::string_view file, std::string_view text);
JsonValue ObstaclesToJson(const ObstacleSet& set);

}  // namespace md5stage
