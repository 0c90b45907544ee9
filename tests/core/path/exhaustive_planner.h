// A slow reference planner for tests: A* over a fine lattice (small cells, 5° headings, arcs of
// several radii >= the turning radius and lines, two step lengths) with the admissible
// obstacle-free length as its heuristic and a Dubins shot from every state, run to optimality
// (until no open state can beat the best path), then shortcut with clear Dubins hops. What
// ObstaclePlanJob's answers (found or not, length) are measured against.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <glm/geometric.hpp>
#include <limits>
#include <utility>
#include <vector>

#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/turn_path.h"

namespace md5stage::testing {

struct ExhaustiveOptions {
  double cells_per_radius = 4.0;  // cell size = radius / this (coarser when the field is large)
  int max_cells_per_side = 256;
  int heading_bins = 72;
  std::size_t max_expansions = 4000000;
  // Shots only from states this close to the goal (a path that exists still gets near it; the
  // shots are most of the cost when the search must exhaust the field to answer "none").
  double shot_within = std::numeric_limits<double>::infinity();
};

struct ExhaustiveResult {
  bool found = false;
  bool complete = false;  // the search ran to its end (not stopped by max_expansions)
  double length = std::numeric_limits<double>::infinity();
  std::size_t expansions = 0;
  // The lattice path before the shortcut (its primitives and the final shot), when asked for: what
  // tools/planner_reference shortens further.
  PlannedPath lattice_path;
};

namespace exhaustive_detail {

inline bool Clear(const ObstacleSet& obstacles, const TurnPath& path, double clearance) {
  if (!path.ok()) return false;
  for (int i = 0; i < path.segment_count; ++i) {
    const TurnSegment& s = path.segments[i];
    if (s.length > 0.0 && obstacles.FirstTurnSegmentWithin(s, clearance) >= 0) return false;
  }
  return true;
}

// The shortest clear Dubins word between two poses.
inline TurnPath ClearDubins(const Pose2& from, const Pose2& to, double r,
                            const ObstacleSet& obstacles, double clearance) {
  const std::array<double, 6> lengths = DubinsWordLengths(from, to, r);
  int order[6] = {0, 1, 2, 3, 4, 5};
  const auto key = [&](int w) {
    return std::isnan(lengths[w]) ? std::numeric_limits<double>::infinity() : lengths[w];
  };
  std::sort(order, order + 6, [&](int a, int b) { return key(a) < key(b); });
  for (int w : order) {
    if (std::isnan(lengths[w])) break;
    const TurnPath path = DubinsPathOfType(
        from, to, r, static_cast<TurnPathType>(static_cast<int>(TurnPathType::kLSL) + w));
    if (Clear(obstacles, path, clearance)) return path;
  }
  return TurnPath{};
}

// The shortest clear obstacle-free path from a pose to the goal (arc + line without a heading).
inline double ShotLength(const Pose2& from, glm::dvec2 goal, const double* heading, double r,
                         const ObstacleSet& obstacles, double clearance) {
  if (heading != nullptr) {
    const TurnPath path = ClearDubins(from, {goal, *heading}, r, obstacles, clearance);
    return path.ok() ? path.length : std::numeric_limits<double>::infinity();
  }
  double best = std::numeric_limits<double>::infinity();
  for (TurnSide side : {TurnSide::kLeft, TurnSide::kRight}) {
    const TurnPath path = ArcLinePathOnSide(from.position, from.heading, r, goal, side);
    if (path.ok() && path.length < best && Clear(obstacles, path, clearance)) best = path.length;
  }
  return best;
}

inline TurnPath ShotPath(const Pose2& from, glm::dvec2 goal, const double* heading, double r,
                         const ObstacleSet& obstacles, double clearance) {
  if (heading != nullptr) return ClearDubins(from, {goal, *heading}, r, obstacles, clearance);
  TurnPath best;
  for (TurnSide side : {TurnSide::kLeft, TurnSide::kRight}) {
    const TurnPath path = ArcLinePathOnSide(from.position, from.heading, r, goal, side);
    if (path.ok() && (!best.ok() || path.length < best.length) &&
        Clear(obstacles, path, clearance)) {
      best = path;
    }
  }
  return best;
}

inline double FreeLength(const Pose2& from, glm::dvec2 goal, const double* heading, double r) {
  if (heading != nullptr) {
    double best = std::numeric_limits<double>::infinity();
    for (double l : DubinsWordLengths(from, {goal, *heading}, r)) {
      if (l < best) best = l;
    }
    return best;
  }
  const TurnPath path = ArcLinePath(from.position, from.heading, r, goal);
  return path.ok() ? path.length : std::numeric_limits<double>::infinity();
}

}  // namespace exhaustive_detail

inline ExhaustiveResult ExhaustivePlan(const Pose2& start, glm::dvec2 goal, const double* heading,
                                       double r, double clearance, const ObstacleSet& obstacles,
                                       const ExhaustiveOptions& options = {}) {
  using namespace exhaustive_detail;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  ExhaustiveResult result;
  // The field: everything of interest plus room to turn round it (as the planner's).
  const double margin = 4.0 * r + 2.0 * clearance;
  glm::dvec2 lo = glm::min(start.position, goal), hi = glm::max(start.position, goal);
  if (!obstacles.empty()) {
    lo = glm::min(lo, obstacles.bounds().min);
    hi = glm::max(hi, obstacles.bounds().max);
  }
  lo -= margin;
  hi += margin;
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  const double cell = std::max(r / options.cells_per_radius, extent / options.max_cells_per_side);
  const int nx = std::max(1, static_cast<int>(std::ceil((hi.x - lo.x) / cell)));
  const int ny = std::max(1, static_cast<int>(std::ceil((hi.y - lo.y) / cell)));
  const int bins = options.heading_bins;
  const auto state_of = [&](const Pose2& p, std::size_t* state) {
    const double fx = (p.position.x - lo.x) / cell, fy = (p.position.y - lo.y) / cell;
    if (!(fx >= 0.0 && fy >= 0.0 && fx < nx && fy < ny)) return false;
    const int bin = std::min(bins - 1, static_cast<int>(WrapTwoPi(p.heading) * (bins / kTwoPi)));
    *state =
        (static_cast<std::size_t>(static_cast<int>(fy)) * nx + static_cast<int>(fx)) * bins + bin;
    return true;
  };
  // Primitives: one arc (radius r, 2r, 4r, either side) or a line, of 1.5 and 3 cells.
  struct Primitive {
    double curvature, length;
  };
  std::vector<Primitive> primitives;
  for (double length : {1.5 * cell, 3.0 * cell}) {
    for (double k : {1.0, 0.5, 0.25, 0.0, -0.25, -0.5, -1.0}) {
      primitives.push_back({k / r, length});
    }
  }
  const auto segment_of = [&](const Pose2& from, const Primitive& p) {
    TurnSegment s;
    s.start = from;
    s.length = p.length;
    if (p.curvature == 0.0) {
      s.kind = TurnSegment::Kind::kLine;
      s.angle = from.heading;
      return s;
    }
    const double side = p.curvature > 0.0 ? 1.0 : -1.0;
    s.kind = TurnSegment::Kind::kArc;
    s.radius = 1.0 / std::abs(p.curvature);
    s.sweep = side * p.length / s.radius;
    s.centre = from.position +
               side * s.radius * glm::dvec2(-std::sin(from.heading), std::cos(from.heading));
    s.start_angle = from.heading - side * 0.5 * kPi;
    return s;
  };

  struct Node {
    Pose2 pose;
    double g;
    int parent;
    int primitive;
  };
  std::vector<Node> nodes;
  std::vector<float> best_g(static_cast<std::size_t>(nx) * ny * bins, static_cast<float>(kInf));
  std::vector<std::uint8_t> closed(best_g.size(), 0);
  std::vector<std::pair<double, int>> open;
  std::size_t start_state;
  if (!state_of(start, &start_state)) return result;
  nodes.push_back({{start.position, WrapPi(start.heading)}, 0.0, -1, -1});
  best_g[start_state] = 0.0f;
  open.push_back({FreeLength(start, goal, heading, r), 0});
  double best_total = kInf;
  int best_node = -1;
  result.complete = true;
  while (!open.empty()) {
    std::pop_heap(open.begin(), open.end(), std::greater<>());
    const auto [f, index] = open.back();
    open.pop_back();
    if (f >= best_total) break;
    const Node node = nodes[index];
    std::size_t si;
    state_of(node.pose, &si);
    if (closed[si]) continue;
    closed[si] = 1;
    if (++result.expansions > options.max_expansions) {
      result.complete = false;
      break;
    }
    const double shot = glm::length(node.pose.position - goal) <= options.shot_within
                            ? ShotLength(node.pose, goal, heading, r, obstacles, clearance)
                            : kInf;
    if (node.g + shot < best_total) {
      best_total = node.g + shot;
      best_node = index;
    }
    for (std::size_t pi = 0; pi < primitives.size(); ++pi) {
      const Primitive& p = primitives[pi];
      const TurnSegment s = segment_of(node.pose, p);
      const Pose2 end = TurnSegmentEnd(s);
      std::size_t sj;
      if (!state_of(end, &sj) || closed[sj]) continue;
      const double g = node.g + p.length;
      if (g >= best_g[sj]) continue;
      if (obstacles.FirstTurnSegmentWithin(s, clearance) >= 0) continue;
      best_g[sj] = static_cast<float>(g);
      nodes.push_back({end, g, index, static_cast<int>(pi)});
      open.push_back({g + FreeLength(end, goal, heading, r), static_cast<int>(nodes.size() - 1)});
      std::push_heap(open.begin(), open.end(), std::greater<>());
    }
  }
  if (best_node < 0) return result;
  // Shortcut the lattice path: from each pose, the goal by a clear shot, else the farthest later
  // pose by a clear Dubins path (never longer than what it replaces).
  std::vector<int> chain;
  for (int i = best_node; i >= 0; i = nodes[i].parent) chain.push_back(i);
  std::reverse(chain.begin(), chain.end());
  const int last = static_cast<int>(chain.size()) - 1;
  {
    PlannedPath& out = result.lattice_path;
    out.start = nodes[0].pose;
    const double scale = std::max(glm::length(start.position), glm::length(goal));
    auto add = [&](const TurnSegment& s) {
      if (s.length <= 1e-12 * std::max(1.0, scale)) return;
      out.segments.push_back(s);
      out.length += s.length;
    };
    for (int k = 1; k <= last; ++k) {
      add(segment_of(nodes[chain[k - 1]].pose, primitives[nodes[chain[k]].primitive]));
    }
    const TurnPath shot = ShotPath(nodes[chain[last]].pose, goal, heading, r, obstacles, clearance);
    for (int k = 0; k < shot.segment_count; ++k) add(shot.segments[k]);
    out.end = out.segments.empty() ? out.start : TurnSegmentEnd(out.segments.back());
    out.end.position = goal;
  }
  double length = 0.0;
  int i = 0;
  while (true) {
    const Pose2& from = nodes[chain[i]].pose;
    const double to_goal = ShotLength(from, goal, heading, r, obstacles, clearance);
    if (std::isfinite(to_goal)) {
      length += to_goal;
      break;
    }
    int next = i + 1;
    double hop = nodes[chain[i + 1]].g - nodes[chain[i]].g;
    for (int j = last; j > i + 1; --j) {
      const TurnPath path = ClearDubins(from, nodes[chain[j]].pose, r, obstacles, clearance);
      if (path.ok() && path.length < nodes[chain[j]].g - nodes[chain[i]].g) {
        next = j;
        hop = path.length;
        break;
      }
    }
    length += hop;
    i = next;
  }
  result.found = true;
  result.length = std::min(length, best_total);
  return result;
}

}  // namespace md5stage::testing
