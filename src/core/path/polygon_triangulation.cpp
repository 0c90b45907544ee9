#include "core/path/polygon_triangulation.h"

namespace md5stage {
namespace {

double Cross(glm::dvec2 o, glm::dvec2 a, glm::dvec2 b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// p inside or on the counter-clockwise triangle abc.
bool InTriangle(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
  return Cross(a, b, p) >= 0.0 && Cross(b, c, p) >= 0.0 && Cross(c, a, p) >= 0.0;
}

}  // namespace

bool TriangulatePolygon(const std::vector<glm::dvec2>& vertices,
                        std::vector<std::array<int, 3>>* triangles, std::vector<int>* remaining) {
  const int n = static_cast<int>(vertices.size());
  if (n < 3) return false;
  double area2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const glm::dvec2 a = vertices[static_cast<size_t>(i)];
    const glm::dvec2 b = vertices[static_cast<size_t>((i + 1) % n)];
    area2 += a.x * b.y - a.y * b.x;
  }
  // Walk the polygon counter-clockwise, so an ear is a convex corner (positive cross product).
  remaining->clear();
  for (int i = 0; i < n; ++i) remaining->push_back(area2 >= 0.0 ? i : n - 1 - i);
  const size_t first_triangle = triangles->size();
  auto at = [&](int k) {
    return vertices[static_cast<size_t>((*remaining)[static_cast<size_t>(k)])];
  };
  int guard = 0;  // corners tried since the last ear; a full lap without one means no ear
  int k = 0;
  while (remaining->size() > 3) {
    const int m = static_cast<int>(remaining->size());
    const int prev = (k + m - 1) % m, next = (k + 1) % m;
    const glm::dvec2 a = at(prev), b = at(k), c = at(next);
    bool ear = Cross(a, b, c) >= 0.0;  // collinear corners go as empty triangles
    for (int j = 0; ear && j < m; ++j) {
      if (j == prev || j == k || j == next) continue;
      const glm::dvec2 p = at(j);
      // A vertex at one of the ear's corners (a touching polygon) does not block it.
      if (p == a || p == b || p == c) continue;
      ear = !InTriangle(p, a, b, c);
    }
    if (ear) {
      triangles->push_back({(*remaining)[static_cast<size_t>(prev)],
                            (*remaining)[static_cast<size_t>(k)],
                            (*remaining)[static_cast<size_t>(next)]});
      remaining->erase(remaining->begin() + k);
      if (k >= static_cast<int>(remaining->size())) k = 0;
      guard = 0;
    } else {
      k = next;
      if (++guard > m) {
        triangles->resize(first_triangle);
        return false;
      }
    }
  }
  triangles->push_back({(*remaining)[0], (*remaining)[1], (*remaining)[2]});
  return true;
}

}  // namespace md5stage
