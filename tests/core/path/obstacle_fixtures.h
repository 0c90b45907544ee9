// Small obstacle fields for the planner's tests: an axis-aligned box and a validated set.
#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/path/obstacles.h"

namespace md5stage::test {

inline Obstacle Box(double x0, double y0, double x1, double y1) {
  return Obstacle::Polygon({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}

// The set the obstacles make; a set that does not build fails the test and is empty.
inline ObstacleSet Set(std::vector<Obstacle> obstacles) {
  Result<ObstacleSet> set = ObstacleSet::Build(std::move(obstacles));
  EXPECT_TRUE(set.ok()) << set.error().message;
  return set.ok() ? set.value() : ObstacleSet{};
}

}  // namespace md5stage::test
