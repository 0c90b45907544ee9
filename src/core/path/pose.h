// Ground-plane pose and angle helpers shared by routes, turn paths and the follower.
// Conventions: (x, y) ground plane, radians, counter-clockwise positive, heading 0 = +x.
#pragma once

#include <cmath>
#include <glm/vec2.hpp>

namespace md5stage {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2.0 * kPi;

struct Pose2 {
  glm::dvec2 position{0.0, 0.0};
  double heading = 0.0;  // radians
};

// Angle in [0, 2π). The common near-range cases avoid floor(), a library call without SSE4.1.
inline double WrapTwoPi(double angle) {
  if (angle >= 0.0 && angle < kTwoPi) return angle;
  double wrapped;
  if (angle < 0.0 && angle >= -kTwoPi) {
    wrapped = angle + kTwoPi;
  } else if (angle >= kTwoPi && angle < 2.0 * kTwoPi) {
    wrapped = angle - kTwoPi;
  } else {
    // fmod is exact; angle - 2π·floor(angle / 2π) was not: at 1e300 the product's rounding left
    // -5e292 (fuzz: an int cast of it overflowed).
    wrapped = std::fmod(angle, kTwoPi);
    if (wrapped < 0.0) wrapped += kTwoPi;
  }
  return wrapped >= kTwoPi ? 0.0 : wrapped;  // -tiny + 2π rounds to 2π
}

// Angle in (-π, π].
inline double WrapPi(double angle) {
  if (angle > -kPi && angle <= kPi) return angle;
  double wrapped = WrapTwoPi(angle);
  return wrapped > kPi ? wrapped - kTwoPi : wrapped;
}

inline glm::dvec2 Direction(double angle) { return {std::cos(angle), std::sin(angle)}; }

inline double Cross(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.y - a.y * b.x; }

inline bool IsFinite(const glm::dvec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

}  // namespace md5stage
