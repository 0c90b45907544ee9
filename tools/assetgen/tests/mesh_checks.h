// Topology and geometry checks shared by the mesh tests: welding by position, edge use counts,
// orientation and enclosed volume.
#pragma once

#include <array>
#include <map>
#include <tuple>
#include <vector>

#include "math_util.h"

namespace md5stage::assetgen::testing {

struct Topology {
  int welded_vertices = 0;
  int edges = 0;
  int edges_not_used_twice = 0;        // an undirected edge must border exactly two triangles
  int edges_same_direction_twice = 0;  // neighbours must traverse a shared edge oppositely
  int euler_characteristic = 0;  // V - E + F of the welded mesh; 2 per closed sphere-like part
  double signed_volume = 0.0;    // positive when triangles face outward
};

inline Topology Analyse(const std::vector<Vec3>& positions,
                        const std::vector<std::array<int, 3>>& triangles) {
  std::map<std::tuple<double, double, double>, int> ids;
  std::vector<int> weld(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    auto key = std::make_tuple(positions[i].x, positions[i].y, positions[i].z);
    weld[i] = ids.emplace(key, static_cast<int>(ids.size())).first->second;
  }
  std::map<std::pair<int, int>, int> directed;
  Topology t;
  for (const auto& tri : triangles) {
    for (int e = 0; e < 3; ++e) directed[{weld[tri[e]], weld[tri[(e + 1) % 3]]}]++;
    const Vec3& a = positions[tri[0]];
    const Vec3& b = positions[tri[1]];
    const Vec3& c = positions[tri[2]];
    t.signed_volume += glm::dot(a, glm::cross(b, c)) / 6.0;
  }
  std::map<std::pair<int, int>, int> undirected;
  for (const auto& [edge, count] : directed) {
    if (count > 1) ++t.edges_same_direction_twice;
    undirected[{std::min(edge.first, edge.second), std::max(edge.first, edge.second)}] += count;
  }
  for (const auto& [edge, count] : undirected) {
    if (count != 2) ++t.edges_not_used_twice;
  }
  t.welded_vertices = static_cast<int>(ids.size());
  t.edges = static_cast<int>(undirected.size());
  t.euler_characteristic = t.welded_vertices - t.edges + static_cast<int>(triangles.size());
  return t;
}

}  // namespace md5stage::assetgen::testing
