// The OMPL comparison's generated cases (bench/ompl_compare.cpp), kept apart from OMPL so the
// planner's tests can plan the same cases: 1,000 x 1,000 fields of 5 to 40 circles, convex
// polygons, walls and L shapes, or mazes; turning radius 10 to 110, clearance 0 to 20; goals with
// and without a final heading. Seeded (splitmix64): the same cases on every machine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/path/obstacles.h"
#include "core/path/pose.h"
#include "planner_cases.h"
#include "planner_field.h"

namespace md5stage::compare_cases {

inline constexpr double kField = 1000.0;

// The same case record as the quality test's (planner_cases::PlanJobFor plans either).
using Case = planner_cases::Case;

namespace detail {

// A maze over the whole field, its rooms 1.6 to 3.2 turning radii wide besides the wall and the
// clearance (some dead ends too narrow to turn round in): 2 to 10 rooms a side.
inline std::vector<Obstacle> FieldMaze(planner_field::Random& random, double r, double cl) {
  const double wall = 0.1 * r + 2.0;
  const double wanted = wall + 2.0 * cl + r * random.Uniform(1.6, 3.2);
  const int k = std::clamp(static_cast<int>(kField / wanted), 2, 10);
  return planner_cases::detail::Maze(random, k, kField / k, wall);
}

// count shapes of `kind` (circles, polygons or mixed) scattered over the field, sizes 15 to 80.
inline std::vector<Obstacle> Scattered(planner_field::Random& random, int kind, int count) {
  std::vector<Obstacle> obstacles;
  for (int o = 0; o < count; ++o) {
    const double y = random.Uniform(0.0, kField);
    const double x = random.Uniform(0.0, kField);
    const glm::dvec2 centre{x, y};
    const int shape = kind == 0 ? 0 : kind == 1 ? 1 + o % 3 : o % 4;
    const double scale = random.Uniform(15.0, 80.0);
    if (shape == 0) {
      obstacles.push_back(Obstacle::Circle(centre, scale));
    } else if (shape == 1) {
      obstacles.push_back(planner_cases::detail::ConvexPolygon(random, centre, scale));
    } else if (shape == 2) {
      obstacles.push_back(planner_cases::detail::WallOf(random, centre, scale));
    } else {
      obstacles.push_back(planner_cases::detail::Ell(random, centre, 2.0 * scale, 0.3 * scale + 4));
    }
  }
  return obstacles;
}

}  // namespace detail

// Case i (any i >= 0): kind i % 4 (circles, polygons, mixed, maze), a final heading when
// (i / 4) is odd. Start and goal free, at least 3 radii apart, and on 4 cases in 5 the segment
// between them blocked.
inline Case MakeCase(int i) {
  planner_field::Random random(0x0A11CE00ull + static_cast<std::uint64_t>(i) * 104729ull);
  Case c;
  c.index = i;
  c.radius = random.Uniform(10.0, 110.0);
  c.clearance = random.Uniform(0.0, 20.0);
  const int kind = i % 4;
  static const char* const kKinds[4] = {"circles", "polygons", "mixed", "maze"};
  c.kind = kKinds[kind];
  std::vector<Obstacle> obstacles;
  if (kind == 3) {
    obstacles = detail::FieldMaze(random, c.radius, c.clearance);
  } else {
    obstacles = detail::Scattered(random, kind, 5 + static_cast<int>(random.Uniform(0.0, 36.0)));
  }
  Result<ObstacleSet> built = ObstacleSet::Build(std::move(obstacles));
  if (built.ok()) c.obstacles = std::move(built).value();
  // y before x: the order the cases were first drawn in (the tests name cases by index).
  planner_cases::detail::PlaceQuery(
      random,
      [&] {
        const double y = random.Uniform(0.0, kField);
        const double x = random.Uniform(0.0, kField);
        return glm::dvec2(x, y);
      },
      glm::dvec2(-kField, -kField), &c);
  return c;
}

}  // namespace md5stage::compare_cases
