// The planner benchmark's field and queries (a 1,000 x 1,000 field with 40 seeded obstacles,
// turning radius 40), shared by bench/planner_bench.cpp and the planner's length-ratio test.
#pragma once

#include <cstdint>
#include <vector>

#include "core/path/obstacles.h"
#include "core/path/pose.h"

namespace md5stage::planner_field {

inline constexpr double kField = 1000.0;
inline constexpr int kObstacleCount = 40;
inline constexpr double kRadius = 40.0;
inline constexpr double kClearance = 5.0;
inline constexpr int kQueryCount = 100;

// splitmix64: the same numbers under every standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  double Uniform(double lo, double hi) {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
  }

 private:
  std::uint64_t state_;
};

// Half circles (radius 15-50), half rotated rectangles (walls 10-30 wide, 40-200 long).
inline ObstacleSet MakeField(std::uint64_t seed) {
  Random random(seed);
  std::vector<Obstacle> obstacles;
  for (int i = 0; i < kObstacleCount; ++i) {
    const glm::dvec2 centre{random.Uniform(50.0, kField - 50.0),
                            random.Uniform(50.0, kField - 50.0)};
    if (i % 2 == 0) {
      obstacles.push_back(Obstacle::Circle(centre, random.Uniform(15.0, 50.0)));
    } else {
      const double angle = random.Uniform(-kPi, kPi);
      const glm::dvec2 along = Direction(angle) * (0.5 * random.Uniform(40.0, 200.0));
      const glm::dvec2 across = Direction(angle + 0.5 * kPi) * (0.5 * random.Uniform(10.0, 30.0));
      obstacles.push_back(Obstacle::Polygon({centre - along - across, centre + along - across,
                                             centre + along + across, centre - along + across}));
    }
  }
  Result<ObstacleSet> set = ObstacleSet::Build(std::move(obstacles));
  return set.ok() ? std::move(set).value() : ObstacleSet{};
}

struct Query {
  Pose2 start;
  glm::dvec2 goal;
  bool has_heading;
  double heading;
};

// Start and goal at free points (clear of every obstacle by the clearance); a final heading on
// every other query. `hop` > 0: the goal within `hop` of the start (a character's next target).
inline std::vector<Query> MakeQueries(const ObstacleSet& field, double hop, std::uint64_t seed) {
  Random random(seed);
  auto free_point = [&](glm::dvec2 near, double within) {
    while (true) {
      // y before x (sequenced: GCC's order when these were a constructor's arguments, whose order
      // C++ leaves unspecified, and clang's differs).
      const double low = within > 0.0 ? -within : 0.0, high = within > 0.0 ? within : kField;
      const double y = random.Uniform(low, high);
      const double x = random.Uniform(low, high);
      const glm::dvec2 p = within > 0.0 ? near + glm::dvec2(x, y) : glm::dvec2(x, y);
      if (p.x >= 0.0 && p.x <= kField && p.y >= 0.0 && p.y <= kField &&
          field.FirstWithin(p, kClearance) < 0) {
        return p;
      }
    }
  };
  std::vector<Query> queries(kQueryCount);
  for (int i = 0; i < kQueryCount; ++i) {
    Query& q = queries[i];
    q.start = {free_point({}, 0.0), random.Uniform(-kPi, kPi)};
    q.goal = free_point(q.start.position, hop);
    q.has_heading = i % 2 == 1;
    q.heading = random.Uniform(-kPi, kPi);
  }
  return queries;
}

}  // namespace md5stage::planner_field
