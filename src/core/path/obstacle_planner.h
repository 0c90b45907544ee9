// Plans a turning-radius path (arcs of radius >= the turning radius and lines) from a pose to a
// point or a pose around obstacles, keeping a clearance: Hybrid A* with an analytic Dubins shot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/common/result.h"
#include "core/path/obstacles.h"
#include "core/path/pose.h"
#include "core/path/turn_path.h"

namespace md5stage {

// A path of any number of turn segments (TurnPath holds at most four, too few for a path that
// winds round obstacles). Segment i + 1 starts where segment i ends.
struct PlannedPath {
  std::vector<TurnSegment> segments;
  double length = 0.0;
  Pose2 start;
  Pose2 end;

  void Clear() {  // keeps the capacity, so a reused path does not allocate
    segments.clear();
    length = 0.0;
  }
};

// Position and heading (in (-π, π]) after travelling `distance`; clamped to the ends.
Pose2 SamplePlannedPath(const PlannedPath& path, double distance);

// Where a segment ends (position and heading), computed from its description.
Pose2 TurnSegmentEnd(const TurnSegment& segment);

// Checks a path by exact geometry: it starts at `start`, each segment starts where the previous
// ends (1e-9 relative), no segment has zero length (<= 1e-12 relative, and an arc's sweep
// <= 1e-12), arcs have radius >= turning_radius and length = radius·|sweep|, no
// segment comes within `clearance` of an obstacle, the lengths add up, and it ends at `goal`
// (with `goal_heading` when given). The message says which rule failed where.
Status CheckPlannedPath(const PlannedPath& path, const Pose2& start, glm::dvec2 goal,
                        const double* goal_heading, double turning_radius, double clearance,
                        const ObstacleSet& obstacles);

struct ObstaclePlanLimits {
  int max_expansions = 20000;        // search states expanded before answering "no path"
  double time_limit_seconds = 0.25;  // wall clock, checked every few expansions
  // Further expansions after the first path is found, looking for a shorter one.
  int improve_expansions = 400;
};

// Caller-owned working memory. The first Run grows it; later runs (same limits) reuse it and do
// not allocate. One scratch per thread.
struct ObstaclePlannerScratch {
  struct Node {
    Pose2 pose;
    double g = 0.0;
    int parent = -1;
    std::int8_t primitive = -1;
  };
  std::vector<Node> nodes;
  std::vector<std::pair<double, int>> open;  // (f, node) min-heap
  std::vector<std::uint32_t> stamp;          // per (cell, heading) state: visited in this query
  std::vector<float> best_g;
  std::vector<std::uint8_t> closed;
  std::vector<double> grid_distance;  // 2-D obstacle-aware distance to the goal per cell
  std::vector<std::uint8_t> grid_blocked;
  std::vector<std::pair<double, int>> grid_open;
  std::vector<int> chain;
  std::vector<double> chain_cost;  // shortcut: the shortest way found from each chain pose
  std::vector<int> chain_next;
  std::uint32_t generation = 0;
};

enum class PlanOutcome { kFound, kNoPath };

struct ObstaclePlanResult {
  PlanOutcome outcome = PlanOutcome::kNoPath;
  const char* reason = "";  // why there is no path (static text)
  int expansions = 0;
  bool direct = false;  // the obstacle-free arc-line/Dubins path was already clear
  bool found() const { return outcome == PlanOutcome::kFound; }
};

// One planning query (job convention: pointers to inputs and caller-owned outputs).
struct ObstaclePlanJob {
  Pose2 start;
  glm::dvec2 goal{0.0, 0.0};
  bool has_goal_heading = false;
  double goal_heading = 0.0;
  double turning_radius = 1.0;  // > 0
  double clearance = 0.0;       // >= 0, kept from every obstacle
  const ObstacleSet* obstacles = nullptr;
  ObstaclePlanLimits limits;
  ObstaclePlannerScratch* scratch = nullptr;
  PlannedPath* path = nullptr;           // output (cleared first)
  ObstaclePlanResult* result = nullptr;  // output

  // Errors: missing pointers, numbers that are not finite or beyond 1e15 (kMaxRouteCoordinate),
  // radius <= 0, clearance < 0, limits < 1, and a start or goal within the clearance of an
  // obstacle ("goal (x, y) is within clearance 2 of obstacles[3]"). "No path" is not an error: Run
  // succeeds with result->outcome == kNoPath.
  Status Validate() const;
  // Validates, then plans. Every path returned has passed CheckPlannedPath.
  Status Run() const;
  // One planning attempt; Run retries a goal within rounding of the start at the start's point.
  Status RunOnce() const;
};

}  // namespace md5stage
