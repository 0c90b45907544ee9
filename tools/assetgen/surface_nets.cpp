#include "surface_nets.h"

#include <algorithm>
#include <cmath>

namespace md5stage::assetgen {
namespace {

constexpr double kGradientStep = 1e-5;

Vec3 Gradient(const DistanceFunction& distance, const Vec3& p) {
  Vec3 g;
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 a = p, b = p;
    a[axis] -= kGradientStep;
    b[axis] += kGradientStep;
    g[axis] = (distance(b) - distance(a)) / (2 * kGradientStep);
  }
  return g;
}

// Surface nets gives one vertex per cell, so a cell whose inside (or outside) corners fall into
// two groups would make a pinched vertex, and a face with a checkerboard sign pattern an edge
// shared by four triangles. Where the sampled surface grazes the grid like that, the corner
// nearest to the surface changes side: the surface loses a sliver far thinner than a cell and the
// mesh stays a closed 2-manifold.
void RemoveAmbiguities(std::vector<double>& values, const int n[3]) {
  auto index = [&](int i, int j, int k) { return (size_t(k) * n[1] + j) * n[0] + i; };
  static const int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  static const int kFaces[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                   {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (int pass = 0; pass < 16; ++pass) {
    int changed = 0;
    for (int k = 0; k + 1 < n[2]; ++k) {
      for (int j = 0; j + 1 < n[1]; ++j) {
        for (int i = 0; i + 1 < n[0]; ++i) {
          size_t corner[8];
          bool in[8];
          for (int c = 0; c < 8; ++c) {
            corner[c] = index(i + kCorner[c][0], j + kCorner[c][1], k + kCorner[c][2]);
            in[c] = values[corner[c]] < 0.0;
          }
          // Corners c and c ^ bit share a cube edge; count the groups of same-side corners.
          int groups[2] = {0, 0};
          bool seen[8] = {false, false, false, false, false, false, false, false};
          for (int c = 0; c < 8; ++c) {
            if (seen[c]) continue;
            ++groups[in[c]];
            int stack[8], top = 0;
            stack[top++] = c;
            seen[c] = true;
            while (top) {
              int at = stack[--top];
              for (int bit = 1; bit < 8; bit <<= 1) {
                int other = at ^ bit;
                if (!seen[other] && in[other] == in[c]) {
                  seen[other] = true;
                  stack[top++] = other;
                }
              }
            }
          }
          bool checkerboard = false;
          for (const auto& face : kFaces) {
            checkerboard |= in[face[0]] == in[face[2]] && in[face[1]] == in[face[3]] &&
                            in[face[0]] != in[face[1]];
          }
          if (groups[0] <= 1 && groups[1] <= 1 && !checkerboard) continue;
          // The grid's outer layer stays outside, so every crossing gets its quads.
          int nearest = -1;
          for (int c = 0; c < 8; ++c) {
            int ci = i + kCorner[c][0], cj = j + kCorner[c][1], ck = k + kCorner[c][2];
            if (ci == 0 || cj == 0 || ck == 0 || ci == n[0] - 1 || cj == n[1] - 1 ||
                ck == n[2] - 1) {
              continue;
            }
            if (nearest < 0 || std::abs(values[corner[c]]) < std::abs(values[corner[nearest]])) {
              nearest = c;
            }
          }
          if (nearest < 0) continue;
          double& value = values[corner[nearest]];
          value = value < 0.0 ? 1e-9 : -1e-9;
          ++changed;
        }
      }
    }
    if (!changed) break;
  }
}
}  // namespace

Vec3 SurfaceNormal(const DistanceFunction& distance, const Vec3& point) {
  return glm::normalize(Gradient(distance, point));
}

Vec3 ProjectToSurface(const DistanceFunction& distance, Vec3 point, double max_step) {
  for (int iteration = 0; iteration < 12; ++iteration) {
    double f = distance(point);
    if (std::abs(f) < 1e-10) break;
    Vec3 g = Gradient(distance, point);
    double g2 = glm::dot(g, g);
    if (g2 < 1e-20) break;
    Vec3 step = g * (f / g2);
    double length = glm::length(step);
    if (length > max_step) step *= max_step / length;
    point -= step;
  }
  return point;
}

TriangleMesh PolygonizeSurfaceNets(const DistanceFunction& distance,
                                   const SurfaceNetsSettings& settings) {
  const double h = settings.cell_size;
  const Vec3 origin = settings.min_corner;
  int n[3];
  for (int axis = 0; axis < 3; ++axis) {
    n[axis] =
        static_cast<int>(std::ceil((settings.max_corner[axis] - settings.min_corner[axis]) / h)) +
        1;
  }
  auto point_index = [&](int i, int j, int k) { return (size_t(k) * n[1] + j) * n[0] + i; };
  auto grid_point = [&](int i, int j, int k) { return origin + Vec3(i, j, k) * h; };
  std::vector<double> values(size_t(n[0]) * n[1] * n[2]);
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) values[point_index(i, j, k)] = distance(grid_point(i, j, k));
  auto inside = [&](int i, int j, int k) { return values[point_index(i, j, k)] < 0.0; };
  RemoveAmbiguities(values, n);

  // One vertex per cell the surface crosses: the mean of its edge crossings.
  const int cells[3] = {n[0] - 1, n[1] - 1, n[2] - 1};
  auto cell_index = [&](int i, int j, int k) { return (size_t(k) * cells[1] + j) * cells[0] + i; };
  std::vector<int> cell_vertex(size_t(cells[0]) * cells[1] * cells[2], -1);
  TriangleMesh mesh;
  static const int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  static const int kEdge[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                   {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (int k = 0; k < cells[2]; ++k) {
    for (int j = 0; j < cells[1]; ++j) {
      for (int i = 0; i < cells[0]; ++i) {
        double f[8];
        int inside_count = 0;
        for (int c = 0; c < 8; ++c) {
          f[c] = values[point_index(i + kCorner[c][0], j + kCorner[c][1], k + kCorner[c][2])];
          inside_count += f[c] < 0.0;
        }
        if (inside_count == 0 || inside_count == 8) continue;
        Vec3 sum(0.0);
        int crossings = 0;
        for (const auto& edge : kEdge) {
          double fa = f[edge[0]], fb = f[edge[1]];
          if ((fa < 0.0) == (fb < 0.0)) continue;
          double t = fa / (fa - fb);
          Vec3 a(kCorner[edge[0]][0], kCorner[edge[0]][1], kCorner[edge[0]][2]);
          Vec3 b(kCorner[edge[1]][0], kCorner[edge[1]][1], kCorner[edge[1]][2]);
          sum += a + (b - a) * t;
          ++crossings;
        }
        Vec3 position = grid_point(i, j, k) + sum / double(crossings) * h;
        cell_vertex[cell_index(i, j, k)] = static_cast<int>(mesh.positions.size());
        mesh.positions.push_back(ProjectToSurface(distance, position, h));
      }
    }
  }

  // One quad per grid edge the surface crosses, joining the four cells around that edge.
  for (int k = 1; k < n[2] - 1; ++k) {
    for (int j = 1; j < n[1] - 1; ++j) {
      for (int i = 1; i < n[0] - 1; ++i) {
        bool here = inside(i, j, k);
        for (int axis = 0; axis < 3; ++axis) {
          int next[3] = {i, j, k};
          next[axis] += 1;
          if (next[axis] >= n[axis]) continue;
          bool there = inside(next[0], next[1], next[2]);
          if (here == there) continue;
          int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
          int quad[4];
          static const int kAround[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
          for (int q = 0; q < 4; ++q) {
            int c[3] = {i, j, k};
            c[a1] += kAround[q][0];
            c[a2] += kAround[q][1];
            quad[q] = cell_vertex[cell_index(c[0], c[1], c[2])];
          }
          // Going around +axis: e_a1 x e_a2 = e_axis, so the quad is counter-clockwise seen
          // from +axis; flip when the outside is toward -axis.
          if (!here) std::swap(quad[1], quad[3]);
          const Vec3& p0 = mesh.positions[quad[0]];
          const Vec3& p1 = mesh.positions[quad[1]];
          const Vec3& p2 = mesh.positions[quad[2]];
          const Vec3& p3 = mesh.positions[quad[3]];
          if (glm::length(p0 - p2) <= glm::length(p1 - p3)) {
            mesh.triangles.push_back({quad[0], quad[1], quad[2]});
            mesh.triangles.push_back({quad[0], quad[2], quad[3]});
          } else {
            mesh.triangles.push_back({quad[0], quad[1], quad[3]});
            mesh.triangles.push_back({quad[1], quad[2], quad[3]});
          }
        }
      }
    }
  }

  // Drop vertices no quad uses (none are expected; this keeps the output clean regardless).
  std::vector<int> remap(mesh.positions.size(), -1);
  std::vector<Vec3> used;
  for (auto& t : mesh.triangles) {
    for (int& v : t) {
      if (remap[v] < 0) {
        remap[v] = static_cast<int>(used.size());
        used.push_back(mesh.positions[v]);
      }
      v = remap[v];
    }
  }
  mesh.positions = used;

  // Relax toward the neighbours' centroid and re-project: evens out the grid's irregular spacing.
  std::vector<std::vector<int>> neighbours(mesh.positions.size());
  for (const auto& t : mesh.triangles) {
    for (int e = 0; e < 3; ++e) {
      int a = t[e], b = t[(e + 1) % 3];
      neighbours[a].push_back(b);
      neighbours[b].push_back(a);
    }
  }
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  for (int iteration = 0; iteration < settings.relax_iterations; ++iteration) {
    std::vector<Vec3> relaxed(mesh.positions.size());
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
      Vec3 centroid(0.0);
      for (int other : neighbours[v]) centroid += mesh.positions[other];
      centroid /= double(neighbours[v].size());
      Vec3 moved = Lerp(mesh.positions[v], centroid, 0.5);
      relaxed[v] = ProjectToSurface(distance, moved, h * 0.5);
    }
    mesh.positions = relaxed;
  }
  return mesh;
}

}  // namespace md5stage::assetgen
