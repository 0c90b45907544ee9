// Plans a turning-radius path (arcs of radius >= the turning radius and lines) from a pose to a
// point or a pose around obstacles, keeping a clearance: Hybrid A* with an analytic Dubins shot,
// then a shortening pass (PathShortenJob) on the path found; work is bounded by counts, not time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
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

// The shortening pass (PathShortenJob): a legal path is re-anchored on poses sampled along it,
// shortcut by dynamic programming over clear Dubins hops between any two of them, then each
// anchor is moved (position and heading, shrinking steps) while the path gets shorter and stays
// clear. Bounded by the number of Dubins or arc-line words it checks, so it is deterministic.
inline constexpr int kDefaultShortenBudget = 3000;  // words checked

// Caller-owned working memory of PathShortenJob (grown by the first Run, reused after).
struct PathShortenScratch {
  std::vector<Pose2> anchors;
  std::vector<double> along;           // each anchor's distance along the input path
  std::vector<double> cost;            // shortest way found from each anchor to the goal
  std::vector<int> next;               // and where it goes: an anchor, or -1 (the shot to the goal)
  std::vector<std::uint8_t> via_path;  // the hop to the next anchor is the input path's own piece
  struct Link {
    Pose2 from;
    double along = -1.0;  // >= 0: the input path's piece from here (to the next anchor's along)
    double length = 0.0;
  };
  std::vector<Link> chain;
};

struct PathShortenResult {
  double length_before = 0.0;
  double length_after = 0.0;
  int words = 0;         // Dubins / arc-line words checked (at most the budget)
  bool changed = false;  // false: the output is the input path unchanged
};

// How hard PathShortenJob works (the defaults are the planner's; tools/planner_reference, which
// makes the quality test's reference, uses anchors a quarter radius apart, steps down to 1/1000
// radius, four sweeps and moves along the path too).
struct PathShortenOptions {
  double anchor_spacing = 0.5;  // in turning radii, > 0
  double last_step = 0.01;      // the smallest anchor move, in turning radii, in (0, 0.5]
  int sweeps = 2;               // passes over the anchors per step size, >= 1
  bool along_moves = false;     // also move anchors along the path
  // When the shortcut (before any anchor moves) is not below this, the input is returned as it
  // is (the planner's later passes: only a path that may beat the best is worth the moves).
  double give_up_above = std::numeric_limits<double>::infinity();
};

// Shortens a legal path (job convention: inputs, caller-owned scratch and output).
struct PathShortenJob {
  const PlannedPath* path = nullptr;  // legal: passes CheckPlannedPath with the fields below
  glm::dvec2 goal{0.0, 0.0};
  bool has_goal_heading = false;
  double goal_heading = 0.0;
  double turning_radius = 1.0;  // > 0
  double clearance = 0.0;       // >= 0
  const ObstacleSet* obstacles = nullptr;
  int budget = kDefaultShortenBudget;  // >= 0 words checked
  PathShortenOptions options;
  PathShortenScratch* scratch = nullptr;
  PlannedPath* out = nullptr;  // output, not `path` itself; never longer than the input
  PathShortenResult* result = nullptr;

  // Errors name the field: missing pointers ("shorten: path, obstacles, scratch, out and result
  // are required"), out == path, numbers not finite, radius <= 0, clearance < 0, budget < 0,
  // options out of range ("shorten: options.sweeps: ..."), and an input path that fails
  // CheckPlannedPath ("shorten: path: segment 2: ...").
  Status Validate() const;
  // Validates, then shortens. The output has passed CheckPlannedPath.
  Status Run() const;
};

// The planner's work budget: search states expanded over all its passes (the first, coarse pass,
// then finer ones while budget is left), plus kDefaultShortenBudget words per shortening. Counts,
// not a clock, so the answer is the same on every machine.
inline constexpr int kDefaultPlanBudget = 12000;
// --budget-ms N asks for N x this many expansions: calibrated once on the bench field
// (bench/README.md, "Planner budget"), so N is roughly the milliseconds a query may take there.
inline constexpr int kPlanExpansionsPerMs = 250;
// The expansion budget for a time in milliseconds (>= 1 expansion; capped at 1e8).
int PlanBudgetFromMilliseconds(double milliseconds);

struct ObstaclePlanLimits {
  int budget = kDefaultPlanBudget;  // search states expanded over all passes, >= 1
  int passes = 3;                   // lattice passes, 1 to 3 (the first the coarsest)
  // Words per shortening, >= 0 (0: none); the query's shortenings together at most
  // shorten_budget x passes.
  int shorten_budget = kDefaultShortenBudget;
  // After the first pass, one more on its lattice behind a barrier, round the other side of the
  // obstacle the best path detours round most (false: the planner before issue 44, to compare).
  bool other_side = true;
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
  // Per (cell, heading) state, together: the search reads all three of a state at once, and the
  // states (megabytes) miss the cache.
  struct State {
    std::uint32_t stamp = 0;  // visited in the query (or probe) of this generation
    float best_g = 0.0f;
    std::uint8_t closed = 0;
  };
  std::vector<State> states;
  // 2-D obstacle-aware distance to the goal per cell of the pass's wall grid (the first pass's: the
  // lattice's cells split finer than the thinnest obstacle), and those cells' flags.
  std::vector<double> grid_distance;
  std::vector<std::uint8_t> grid_blocked;
  std::vector<std::uint32_t> grid_edge_cover;  // per cell: its right and top edge's covered pieces
  std::vector<int> grid_bucket[3];             // GridDistances' bucket queue
  std::vector<int> chain;
  std::vector<double> chain_cost;  // shortcut: the shortest way found from each chain pose
  std::vector<int> chain_next;
  std::uint32_t generation = 0;
  PlannedPath candidate;  // one pass's path before shortening
  PlannedPath shortened;
  PathShortenScratch shorten;
};

enum class PlanOutcome { kFound, kNoPath };

struct ObstaclePlanResult {
  PlanOutcome outcome = PlanOutcome::kNoPath;
  const char* reason = "";  // why there is no path (static text)
  int expansions = 0;       // over all passes (at most the budget)
  int passes = 0;           // lattice passes run
  int shorten_words = 0;
  // The last pass ran to its end (not cut off by the budget): no shorter path at that lattice's
  // resolution, within its stopping rule (the smallest f left 5% over the best found).
  bool search_complete = false;
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
  // radius <= 0, clearance < 0, limits out of range ("plan: limits.budget: ..."), and a start or
  // goal within the clearance of an obstacle ("goal (x, y) is within clearance 2 of obstacles[3]").
  // "No path" is not an error: Run succeeds with result->outcome == kNoPath.
  Status Validate() const;
  // Validates, then plans. Every path returned has passed CheckPlannedPath.
  Status Run() const;
  // One planning attempt; Run retries a goal within rounding of the start at the start's point.
  Status RunOnce() const;
};

}  // namespace md5stage
