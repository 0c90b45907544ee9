// Cutting cubic Beziers without changing their shape (de Casteljau), shared by the route editor
// (inserting a point) and corner rounding (trimming curves where fillets begin).
#pragma once

#include <array>

#include "core/path/pose.h"

namespace md5stage {

using CubicPoints = std::array<glm::dvec2, 4>;

// The two halves of a cubic at parameter t: first covers [0, t], second [t, 1]. They share the
// split point exactly, and the outer end points are the original ones bit for bit.
inline void SplitCubic(const CubicPoints& p, double t, CubicPoints* first, CubicPoints* second) {
  const glm::dvec2 a = p[0] + t * (p[1] - p[0]);
  const glm::dvec2 b = p[1] + t * (p[2] - p[1]);
  const glm::dvec2 c = p[2] + t * (p[3] - p[2]);
  const glm::dvec2 ab = a + t * (b - a);
  const glm::dvec2 bc = b + t * (c - b);
  const glm::dvec2 middle = ab + t * (bc - ab);
  *first = {p[0], a, ab, middle};
  *second = {middle, bc, c, p[3]};
}

// The piece of a cubic between parameters t0 < t1 (exact end points where t0 = 0 or t1 = 1).
inline CubicPoints SubCubic(const CubicPoints& p, double t0, double t1) {
  CubicPoints head = p, tail, unused;
  if (t1 < 1.0) SplitCubic(p, t1, &head, &unused);
  if (!(t0 > 0.0)) return head;
  SplitCubic(head, t0 / t1, &unused, &tail);
  return tail;
}

}  // namespace md5stage
