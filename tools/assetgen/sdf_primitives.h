// Signed distance primitives (negative inside) and the smooth union the walker's body is built
// from; each primitive belongs to a joint, which is how the skin weights are derived.
#pragma once

#include "math_util.h"

namespace md5stage::assetgen {

struct SdfPrimitive {
  enum class Kind { kRoundCone, kEllipsoid, kRoundBox };
  Kind kind = Kind::kRoundCone;
  int joint = 0;
  double blend = 1.0;  // smooth-union radius with everything listed before it
  // kRoundCone: sphere of radius radius_a at a, of radius_b at b, and the cone between them.
  Vec3 a{0.0}, b{0.0};
  double radius_a = 1.0, radius_b = 1.0;
  // kEllipsoid / kRoundBox: centre, half extents along the frame's axes, frame -> model rotation.
  Vec3 center{0.0};
  Vec3 half_extents{1.0};
  Quat frame = Identity();
  double rounding = 0.0;  // kRoundBox edge radius (inside the half extents)

  double Distance(const Vec3& p) const;
};

SdfPrimitive RoundCone(int joint, const Vec3& a, double radius_a, const Vec3& b, double radius_b,
                       double blend);
SdfPrimitive Ellipsoid(int joint, const Vec3& center, const Vec3& radii, double blend,
                       const Quat& frame = Identity());
SdfPrimitive RoundBox(int joint, const Vec3& center, const Vec3& half_extents, double rounding,
                      double blend, const Quat& frame = Identity());

// Polynomial smooth minimum: equals min(a, b) when |a - b| >= k.
inline double SmoothMin(double a, double b, double k) {
  if (k <= 0.0) return a < b ? a : b;
  double h = (k - std::abs(a - b)) / k;
  double m = a < b ? a : b;
  return h > 0.0 ? m - h * h * k * 0.25 : m;
}

}  // namespace md5stage::assetgen
