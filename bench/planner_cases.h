// Generated planning cases for the planner's quality test and tools/planner_reference: mazes,
// random circle fields, random polygon fields and mixed ones, radius 10-80, clearance 0-20.
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/pose.h"
#include "planner_field.h"

namespace md5stage::planner_cases {

inline constexpr int kCaseCount = 164;

struct Case {
  int index = 0;
  const char* kind = "";  // maze, circles, polygons, mixed
  ObstacleSet obstacles;
  double radius = 0.0;
  double clearance = 0.0;
  Pose2 start;
  glm::dvec2 goal{0.0, 0.0};
  bool has_heading = false;
  double heading = 0.0;
};

namespace detail {

inline Obstacle Rect(glm::dvec2 a, glm::dvec2 b) {
  return Obstacle::Polygon({{a.x, a.y}, {b.x, a.y}, {b.x, b.y}, {a.x, b.y}});
}

// A k x k maze of rooms `room` wide (a random spanning tree, then a few more walls opened so there
// are several ways round), walls `wall` thick, each wall piece its own rectangle.
inline std::vector<Obstacle> Maze(planner_field::Random& random, int k, double room, double wall) {
  // open[edge]: vertical walls (x between rooms) then horizontal ones.
  const int vertical = (k - 1) * k, horizontal = k * (k - 1);
  std::vector<bool> open(vertical + horizontal, false);
  std::vector<bool> seen(k * k, false);
  std::vector<int> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const int cell = stack.back();
    const int x = cell % k, y = cell / k;
    int options[4], count = 0;
    if (x > 0 && !seen[cell - 1]) options[count++] = 0;
    if (x < k - 1 && !seen[cell + 1]) options[count++] = 1;
    if (y > 0 && !seen[cell - k]) options[count++] = 2;
    if (y < k - 1 && !seen[cell + k]) options[count++] = 3;
    if (count == 0) {
      stack.pop_back();
      continue;
    }
    const int pick = options[std::min(count - 1, static_cast<int>(random.Uniform(0, count)))];
    int next = cell;
    if (pick == 0) {
      open[y * (k - 1) + x - 1] = true;
      next = cell - 1;
    } else if (pick == 1) {
      open[y * (k - 1) + x] = true;
      next = cell + 1;
    } else if (pick == 2) {
      open[vertical + (y - 1) * k + x] = true;
      next = cell - k;
    } else {
      open[vertical + y * k + x] = true;
      next = cell + k;
    }
    seen[next] = true;
    stack.push_back(next);
  }
  for (std::size_t e = 0; e < open.size(); ++e) {
    if (random.Uniform(0, 1) < 0.15) open[e] = true;
  }
  std::vector<Obstacle> out;
  const double h = 0.5 * wall, size = k * room;
  // The outer wall, then the inner pieces.
  out.push_back(Rect({-h, -h}, {size + h, h}));
  out.push_back(Rect({-h, size - h}, {size + h, size + h}));
  out.push_back(Rect({-h, h}, {h, size - h}));
  out.push_back(Rect({size - h, h}, {size + h, size - h}));
  for (int y = 0; y < k; ++y) {
    for (int x = 0; x + 1 < k; ++x) {
      if (open[y * (k - 1) + x]) continue;
      const double wx = (x + 1) * room;
      out.push_back(Rect({wx - h, y * room + h}, {wx + h, (y + 1) * room - h}));
    }
  }
  for (int y = 0; y + 1 < k; ++y) {
    for (int x = 0; x < k; ++x) {
      if (open[vertical + y * k + x]) continue;
      const double wy = (y + 1) * room;
      out.push_back(Rect({x * room + h, wy - h}, {(x + 1) * room - h, wy + h}));
    }
  }
  // Posts at the inner corners keep the pieces' ends from leaving slits.
  for (int y = 1; y < k; ++y) {
    for (int x = 1; x < k; ++x) {
      out.push_back(Rect({x * room - h, y * room - h}, {x * room + h, y * room + h}));
    }
  }
  return out;
}

inline Obstacle ConvexPolygon(planner_field::Random& random, glm::dvec2 centre, double size) {
  const int n = 3 + static_cast<int>(random.Uniform(0, 4));
  std::vector<glm::dvec2> v;
  const double phase = random.Uniform(0, kTwoPi);
  for (int i = 0; i < n; ++i) {
    const double a = phase + kTwoPi * (i + random.Uniform(0.1, 0.9)) / n;
    v.push_back(centre + size * random.Uniform(0.6, 1.0) * Direction(a));
  }
  return Obstacle::Polygon(std::move(v));
}

inline Obstacle Wall(planner_field::Random& random, glm::dvec2 centre, double length,
                     double width) {
  const double angle = random.Uniform(-kPi, kPi);
  const glm::dvec2 along = Direction(angle) * (0.5 * length);
  const glm::dvec2 across = Direction(angle + 0.5 * kPi) * (0.5 * width);
  return Obstacle::Polygon({centre - along - across, centre + along - across,
                            centre + along + across, centre - along + across});
}

// An L (concave): two arms of `length` and `width`.
// A wall of random length and width. The draws are sequenced (width first, as GCC happened to
// evaluate the arguments of the call this replaced): an argument list's order is unspecified, and
// clang's (the wasm bench, the sanitizer tree) differed, giving other cases than the table's.
inline Obstacle WallOf(planner_field::Random& random, glm::dvec2 centre, double scale) {
  const double width = random.Uniform(4, 20);
  const double length = scale * random.Uniform(2.0, 5.0);
  return Wall(random, centre, length, width);
}

inline Obstacle Ell(planner_field::Random& random, glm::dvec2 centre, double length, double width) {
  const double angle = random.Uniform(-kPi, kPi);
  const glm::dvec2 x = Direction(angle), y = Direction(angle + 0.5 * kPi);
  const double l = length, w = width;
  const glm::dvec2 local[6] = {{0, 0}, {l, 0}, {l, w}, {w, w}, {w, l}, {0, l}};
  std::vector<glm::dvec2> v;
  for (const glm::dvec2& p : local) v.push_back(centre + (p.x - 0.5 * l) * x + (p.y - 0.5 * l) * y);
  return Obstacle::Polygon(std::move(v));
}

// Start and goal of case c (its obstacles, radius and clearance set): free points drawn by
// `draw_point` (`outside`, beyond every obstacle, when 10,000 draws find none), at least 3 radii
// apart, and on 4 queries in 5 the segment between them blocked (the straight way is not the
// answer); then whether the goal has a final heading ((index / 4) odd) and which. The draws come
// in a fixed order, so a case is the same on every machine.
template <typename DrawPoint>
void PlaceQuery(planner_field::Random& random, DrawPoint draw_point, glm::dvec2 outside, Case* c) {
  auto free_point = [&]() {
    for (int tries = 0; tries < 10000; ++tries) {
      const glm::dvec2 p = draw_point();
      if (c->obstacles.FirstWithin(p, c->clearance) < 0) return p;
    }
    return outside;
  };
  const bool want_blocked = random.Uniform(0.0, 1.0) < 0.8;
  for (int tries = 0; tries < 200; ++tries) {
    const glm::dvec2 start = free_point();
    c->start = {start, random.Uniform(-kPi, kPi)};
    c->goal = free_point();
    if (glm::length(c->goal - c->start.position) < 3.0 * c->radius) continue;
    const bool blocked =
        c->obstacles.FirstSegmentWithin(c->start.position, c->goal, c->clearance) >= 0;
    if (blocked == want_blocked) break;
  }
  c->has_heading = (c->index / 4) % 2 == 1;
  c->heading = random.Uniform(-kPi, kPi);
}

}  // namespace detail

// Case i (0 <= i < kCaseCount), the same on every machine (splitmix64, no std distributions).
inline Case MakeCase(int i) {
  planner_field::Random random(0x5EED0000ull + static_cast<std::uint64_t>(i) * 7919ull);
  Case c;
  c.index = i;
  c.radius = random.Uniform(10.0, 80.0);
  c.clearance = random.Uniform(0.0, 20.0);
  const double r = c.radius, cl = c.clearance;
  std::vector<Obstacle> obstacles;
  double size = 0.0;
  const int kind = i % 4;
  if (kind == 0) {
    c.kind = "maze";
    const int k = 4 + static_cast<int>(random.Uniform(0, 2));
    const double wall = 0.1 * r + 2.0;
    // Rooms from a little over the turning width to over twice it: some dead ends leave no room
    // to turn round.
    const double room = wall + 2.0 * cl + r * random.Uniform(1.6, 3.2);
    obstacles = detail::Maze(random, k, room, wall);
    size = k * room;
  } else {
    size = (r + cl) * random.Uniform(12.0, 20.0);
    const int count = 8 + static_cast<int>(random.Uniform(0, 16));
    c.kind = kind == 1 ? "circles" : kind == 2 ? "polygons" : "mixed";
    for (int o = 0; o < count; ++o) {
      const glm::dvec2 centre{random.Uniform(0.0, size), random.Uniform(0.0, size)};
      const int shape = kind == 1 ? 0 : kind == 2 ? 1 + o % 3 : o % 4;
      const double scale = r * random.Uniform(0.3, 1.5);
      if (shape == 0) {
        obstacles.push_back(Obstacle::Circle(centre, scale));
      } else if (shape == 1) {
        obstacles.push_back(detail::ConvexPolygon(random, centre, scale));
      } else if (shape == 2) {
        obstacles.push_back(detail::WallOf(random, centre, scale));
      } else {
        obstacles.push_back(detail::Ell(random, centre, 2.0 * scale, 0.3 * scale + 4.0));
      }
    }
  }
  Result<ObstacleSet> built = ObstacleSet::Build(std::move(obstacles));
  if (built.ok()) c.obstacles = std::move(built).value();
  detail::PlaceQuery(
      random,
      [&] {
        return glm::dvec2{random.Uniform(0.0, size), random.Uniform(0.0, size)};
      },
      glm::dvec2(-10.0 * r - 2.0 * cl, -10.0 * r - 2.0 * cl), &c);
  return c;
}

// The planner's job for case `c`, writing into the caller's scratch and outputs (the quality test
// and the bench plan the cases alike).
inline ObstaclePlanJob PlanJobFor(const Case& c, ObstaclePlannerScratch* scratch, PlannedPath* path,
                                  ObstaclePlanResult* result) {
  ObstaclePlanJob job;
  job.start = c.start;
  job.goal = c.goal;
  job.has_goal_heading = c.has_heading;
  job.goal_heading = c.heading;
  job.turning_radius = c.radius;
  job.clearance = c.clearance;
  job.obstacles = &c.obstacles;
  job.scratch = scratch;
  job.path = path;
  job.result = result;
  return job;
}

}  // namespace md5stage::planner_cases
