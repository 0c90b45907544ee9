// Triangles that fill a simple polygon (convex or concave, either winding) by ear clipping: what
// the viewer draws an obstacle's filled shape with.
#pragma once

#include <array>
#include <glm/glm.hpp>
#include <vector>

namespace md5stage {

// Appends n - 2 triangles (indices into `vertices`, counter-clockwise) covering the polygon
// exactly; `remaining` is caller-owned scratch so repeated calls do not allocate. Returns false
// (and appends nothing) when fewer than 3 vertices are given or no ear is found, which only
// happens for a polygon that is not simple. O(n²) per ear, fine for 256 vertices.
bool TriangulatePolygon(const std::vector<glm::dvec2>& vertices,
                        std::vector<std::array<int, 3>>* triangles, std::vector<int>* remaining);

}  // namespace md5stage
