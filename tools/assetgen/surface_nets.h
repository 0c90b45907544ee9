// Turns a signed distance function (negative inside) into a closed triangle mesh: naive surface
// nets on a regular grid, vertices projected onto the zero set, then relaxed along the surface.
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "math_util.h"

namespace md5stage::assetgen {

using DistanceFunction = std::function<double(const Vec3&)>;

struct TriangleMesh {
  std::vector<Vec3> positions;
  std::vector<std::array<int, 3>> triangles;  // counter-clockwise seen from outside
};

struct SurfaceNetsSettings {
  Vec3 min_corner{0.0};
  Vec3 max_corner{0.0};
  double cell_size = 1.0;
  int relax_iterations = 4;
};

TriangleMesh PolygonizeSurfaceNets(const DistanceFunction& distance,
                                   const SurfaceNetsSettings& settings);

// Moves `point` onto the zero set of `distance` by Newton steps along the numerical gradient.
Vec3 ProjectToSurface(const DistanceFunction& distance, Vec3 point, double max_step);

// Unit outward gradient of `distance` at `point`.
Vec3 SurfaceNormal(const DistanceFunction& distance, const Vec3& point);

}  // namespace md5stage::assetgen
