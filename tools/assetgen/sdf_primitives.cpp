#include "sdf_primitives.h"

#include <algorithm>

namespace md5stage::assetgen {
namespace {

// Distance to the convex hull of two spheres (a capsule whose radius changes linearly). Works in
// the half-plane through the axis: y along the axis, x away from it. The hull's side is the line
// tangent to both circles; a point whose foot falls before the first tangent point (or after the
// second) is nearest to that circle instead.
double RoundConeDistance(const Vec3& p, const Vec3& a, const Vec3& b, double r1, double r2) {
  Vec3 axis = b - a;
  double length = glm::length(axis);
  axis /= length;
  Vec3 pa = p - a;
  double y = glm::dot(pa, axis);
  double x = glm::length(pa - axis * y);
  double sin_slant = (r1 - r2) / length;  // |r1 - r2| < length for every body part
  double cos_slant = std::sqrt(1.0 - sin_slant * sin_slant);
  // Outward normal of the side line and the direction along it, in (y, x).
  double ny = sin_slant, nx = cos_slant;
  double ty = cos_slant, tx = -sin_slant;
  double along = (y - r1 * ny) * ty + (x - r1 * nx) * tx;
  if (along < 0.0) return std::sqrt(x * x + y * y) - r1;
  if (along > length * cos_slant) return std::sqrt(x * x + (y - length) * (y - length)) - r2;
  return y * ny + x * nx - r1;
}

// A distance bound for an axis-aligned ellipsoid: its implicit value |p/r| - 1 divided by the
// gradient length, which is exact on the surface and good near it.
double EllipsoidDistance(const Vec3& p, const Vec3& r) {
  double implicit = glm::length(p / r);
  double gradient = glm::length(p / (r * r));  // |grad implicit| * implicit
  if (gradient < 1e-12) return -std::min(r.x, std::min(r.y, r.z));
  return (implicit - 1.0) * implicit / gradient;
}

double RoundBoxDistance(const Vec3& p, const Vec3& half, double rounding) {
  Vec3 q = glm::abs(p) - half + Vec3(rounding);
  double outside = glm::length(glm::max(q, Vec3(0.0)));
  double inside = std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
  return outside + inside - rounding;
}

}  // namespace

double SdfPrimitive::Distance(const Vec3& p) const {
  switch (kind) {
    case Kind::kRoundCone:
      return RoundConeDistance(p, a, b, radius_a, radius_b);
    case Kind::kEllipsoid:
      return EllipsoidDistance(glm::inverse(frame) * (p - center), half_extents);
    case Kind::kRoundBox:
      return RoundBoxDistance(glm::inverse(frame) * (p - center), half_extents, rounding);
  }
  return 0.0;
}

SdfPrimitive RoundCone(int joint, const Vec3& a, double radius_a, const Vec3& b, double radius_b,
                       double blend) {
  SdfPrimitive p;
  p.kind = SdfPrimitive::Kind::kRoundCone;
  p.joint = joint;
  p.a = a;
  p.b = b;
  p.radius_a = radius_a;
  p.radius_b = radius_b;
  p.blend = blend;
  return p;
}

SdfPrimitive Ellipsoid(int joint, const Vec3& center, const Vec3& radii, double blend,
                       const Quat& frame) {
  SdfPrimitive p;
  p.kind = SdfPrimitive::Kind::kEllipsoid;
  p.joint = joint;
  p.center = center;
  p.half_extents = radii;
  p.frame = frame;
  p.blend = blend;
  return p;
}

SdfPrimitive RoundBox(int joint, const Vec3& center, const Vec3& half_extents, double rounding,
                      double blend, const Quat& frame) {
  SdfPrimitive p;
  p.kind = SdfPrimitive::Kind::kRoundBox;
  p.joint = joint;
  p.center = center;
  p.half_extents = half_extents;
  p.rounding = rounding;
  p.frame = frame;
  p.blend = blend;
  return p;
}

}  // namespace md5stage::assetgen
