// Double-precision vector, quaternion and curve helpers the asset generator builds poses with.
// Everything is double so that rounding only happens once, when a value is written as text.
#pragma once

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace md5stage::assetgen {

using Vec3 = glm::dvec3;
using Quat = glm::dquat;
using Mat3 = glm::dmat3;

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2.0 * kPi;

inline double Radians(double degrees) { return degrees * (kPi / 180.0); }

inline Quat Identity() { return Quat(1.0, 0.0, 0.0, 0.0); }

// Rotation by `angle` radians about `axis` (need not be unit length).
inline Quat AxisAngle(const Vec3& axis, double angle) {
  return glm::angleAxis(angle, glm::normalize(axis));
}
inline Quat RotX(double angle) { return AxisAngle(Vec3(1, 0, 0), angle); }
inline Quat RotY(double angle) { return AxisAngle(Vec3(0, 1, 0), angle); }
inline Quat RotZ(double angle) { return AxisAngle(Vec3(0, 0, 1), angle); }

inline Vec3 Rotate(const Quat& q, const Vec3& v) { return q * v; }

// MD5 stores x, y, z and derives w = -sqrt(1 - x^2 - y^2 - z^2), so w must not be positive.
inline Quat CanonicalMd5(Quat q) {
  q = glm::normalize(q);
  if (q.w > 0.0) q = -q;
  return q;
}

// The rotation taking the orthonormal frame (dir0, side0) to (dir1, side1); the `side` vectors
// are made orthogonal to their `dir` first, so callers may pass rough hints.
Quat FrameRotation(const Vec3& dir0, const Vec3& side_hint0, const Vec3& dir1,
                   const Vec3& side_hint1);

// Component of `v` orthogonal to unit `axis`, normalized.
Vec3 OrthogonalUnit(const Vec3& v, const Vec3& axis);

inline double Clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }
inline double Lerp(double a, double b, double t) { return a + (b - a) * t; }
inline Vec3 Lerp(const Vec3& a, const Vec3& b, double t) { return a + (b - a) * t; }
// 0 at t <= 0, 1 at t >= 1, zero slope at both ends.
inline double SmoothStep(double t) {
  t = Clamp01(t);
  return t * t * (3.0 - 2.0 * t);
}
// Like SmoothStep with zero curvature at both ends as well.
inline double SmootherStep(double t) {
  t = Clamp01(t);
  return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}
// Cubic Hermite curve on t in [0, 1] with end values p0, p1 and end slopes m0, m1 (per unit t).
inline double Hermite(double p0, double m0, double p1, double m1, double t) {
  double t2 = t * t;
  double t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * p1 +
         (t3 - t2) * m1;
}
// Fractional part in [0, 1).
inline double Wrap01(double x) {
  double f = x - std::floor(x);
  return f >= 1.0 ? 0.0 : f;
}

}  // namespace md5stage::assetgen
