#include "core/path/cubic_bezier.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "core/path/fast_atan2.h"
#include "core/path/sorted_search.h"

namespace md5stage {
namespace {

// 8-point Gauss-Legendre on [-1, 1]: nodes ±x with weights w.
constexpr double kNodes[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                              0.9602898564975363};
constexpr double kWeights[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                0.1012285362903763};

// The table starts from this many equal parameter intervals, so the first guess of the inverse
// is close enough for one or two Newton steps, then splits where the quadrature disagrees.
constexpr int kInitialIntervals = 32;
constexpr int kMaxRefineDepth = 40;
// Per-interval quadrature tolerance and inverse tolerance, relative to the control polygon.
constexpr double kIntervalTolerance = 1e-15;
constexpr double kInverseTolerance = 1e-10;
// Below this (relative to the control polygon) a derivative counts as zero.
constexpr double kZeroDerivative = 1e-12;
// Distance (relative to the control polygon) within which a point counts as a zero of dB/dt, and
// how close to t = 0 such a zero must be to count as the start of the curve.
constexpr double kCuspResolution = 1e-10;
constexpr double kStartZero = 1e-7;

// Square roots of 8 non-negative values.
inline void SquareRoots8(const double* in, double* out) {
#if defined(__SSE2__)
  for (int i = 0; i < 8; i += 2) _mm_storeu_pd(out + i, _mm_sqrt_pd(_mm_loadu_pd(in + i)));
#elif defined(__wasm_simd128__)
  for (int i = 0; i < 8; i += 2) wasm_v128_store(out + i, wasm_f64x2_sqrt(wasm_v128_load(in + i)));
#else
  for (int i = 0; i < 8; ++i) out[i] = std::sqrt(in[i]);
#endif
}

}  // namespace

CubicBezier::CubicBezier(const std::array<glm::dvec2, 4>& control_points)
    : control_points_(control_points) {
  const glm::dvec2& p0 = control_points[0];
  const glm::dvec2& p1 = control_points[1];
  const glm::dvec2& p2 = control_points[2];
  const glm::dvec2& p3 = control_points[3];
  c1_ = 3.0 * (p1 - p0);
  c2_ = 3.0 * (p0 - 2.0 * p1 + p2);
  c3_ = p3 - p0 + 3.0 * (p1 - p2);
  scale_ = glm::length(p1 - p0) + glm::length(p2 - p1) + glm::length(p3 - p2);
  BuildTable();
}

glm::dvec2 CubicBezier::Position(double t) const {
  return control_points_[0] + t * (c1_ + t * (c2_ + t * c3_));
}

glm::dvec2 CubicBezier::Derivative(double t) const { return c1_ + t * (2.0 * c2_ + 3.0 * t * c3_); }

glm::dvec2 CubicBezier::SecondDerivative(double t) const { return 2.0 * c2_ + 6.0 * t * c3_; }

double CubicBezier::Speed(double t) const { return glm::length(Derivative(t)); }

double CubicBezier::TangentHeading(double t) const {
  const double zero = kZeroDerivative * scale_;
  const glm::dvec2 d1 = Derivative(t);
  const glm::dvec2 d2 = SecondDerivative(t);
  const double speed_squared = glm::dot(d1, d1);
  const double acceleration_squared = glm::dot(d2, d2);
  // Near a zero of dB/dt at t0, dB/dt ≈ B''(t - t0) and the distance to t0 is about
  // |B'|² / (2 |B''|). Within the distance resolution of the table the point is the zero itself.
  // (Compared squared: the square root of |B''|² is only needed at such a zero.)
  const double resolution = kCuspResolution * scale_;
  const bool at_zero =
      speed_squared <= zero * zero ||
      speed_squared * speed_squared <= 4.0 * acceleration_squared * resolution * resolution;
  if (!at_zero) return FastAtan2(d1.y, d1.x);
  const double acceleration = std::sqrt(acceleration_squared);
  if (acceleration > zero) {
    // The direction flips across the zero: leaving it when it is the start of the curve,
    // arriving at it otherwise (a cusp reports the heading it is reached with).
    // B'' is taken at the zero itself (one Newton step for the minimum of |B'|), not at t.
    const double zero_at = t - glm::dot(d1, d2) / (acceleration * acceleration);
    const glm::dvec2 at_zero_d2 = SecondDerivative(std::clamp(zero_at, 0.0, 1.0));
    const glm::dvec2 direction = zero_at <= kStartZero ? at_zero_d2 : -at_zero_d2;
    return FastAtan2(direction.y, direction.x);
  }
  // dB/dt ≈ B'''(t - t0)² / 2: the same direction on both sides.
  if (glm::length(c3_) > zero) return FastAtan2(c3_.y, c3_.x);
  const glm::dvec2 chord = control_points_[3] - control_points_[0];
  return FastAtan2(chord.y, chord.x);  // a point: any heading will do; 0 for all-equal points
}

double CubicBezier::Curvature(double t) const {
  glm::dvec2 d1 = Derivative(t);
  double speed = glm::length(d1);
  if (speed <= kZeroDerivative * scale_) return std::numeric_limits<double>::infinity();
  return Cross(d1, SecondDerivative(t)) / (speed * speed * speed);
}

double CubicBezier::IntegrateSpeed(double a, double b) const {
  const double half = 0.5 * (b - a);
  const double mid = 0.5 * (a + b);
  const glm::dvec2 d1 = 2.0 * c2_;
  const glm::dvec2 d2 = 3.0 * c3_;
  // Squared speeds at the 8 nodes first, then the square roots two at a time where the target
  // has a 2-wide double square root: the 8 roots are most of a query's cost.
  double squared[8];
  for (int i = 0; i < 4; ++i) {
    const double ta = mid - half * kNodes[i];
    const double tb = mid + half * kNodes[i];
    const glm::dvec2 va = c1_ + ta * (d1 + ta * d2);
    const glm::dvec2 vb = c1_ + tb * (d1 + tb * d2);
    squared[2 * i] = va.x * va.x + va.y * va.y;
    squared[2 * i + 1] = vb.x * vb.x + vb.y * vb.y;
  }
  double speeds[8];
  SquareRoots8(squared, speeds);
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) sum += kWeights[i] * (speeds[2 * i] + speeds[2 * i + 1]);
  return half * sum;
}

void CubicBezier::BuildTable() {
  knots_.clear();
  knots_.reserve(kInitialIntervals + 1);
  knots_.push_back({0.0, 0.0, Speed(0.0)});
  if (!(scale_ > 0.0)) {
    knots_.push_back({1.0, 0.0, 0.0});
    BuildInverse();
    return;
  }
  const double tolerance = kIntervalTolerance * scale_;
  for (int i = 0; i < kInitialIntervals; ++i) {
    const double a = static_cast<double>(i) / kInitialIntervals;
    const double b = static_cast<double>(i + 1) / kInitialIntervals;
    Refine(a, b, IntegrateSpeed(a, b), tolerance, 0);
  }
  BuildInverse();
}

void CubicBezier::BuildInverse() {
  const std::size_t count = knots_.size() - 1;
  intervals_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Knot& k0 = knots_[i];
    const Knot& k1 = knots_[i + 1];
    const double width = k1.t - k0.t;
    const double span = k1.distance - k0.distance;
    intervals_[i] = {k0.t,
                     k1.t,
                     k0.distance,
                     span > 0.0 ? 1.0 / span : 0.0,
                     span / (k0.speed * width),
                     span / (k1.speed * width),
                     k0.speed,
                     k1.speed};
  }
  // Two cells per interval on average; a cell's entry is the interval holding its start.
  const double total = length();
  const std::size_t cells = 2 * count;
  cells_per_distance_ = total > 0.0 ? static_cast<double>(cells) / total : 0.0;
  interval_lookup_.resize(cells + 1);
  for (std::size_t c = 0; c <= cells; ++c) {
    const double start = static_cast<double>(c) / cells_per_distance_;
    interval_lookup_[c] = static_cast<std::uint32_t>(
        total > 0.0 ? LastNotAbove(knots_.data(), count, std::min(start, total),
                                   [](const Knot& knot) { return knot.distance; })
                    : 0);
  }
}

std::size_t CubicBezier::IntervalAt(double distance) const {
  // Only the interval table is read (one cache line per interval), not the knots.
  const std::size_t count = intervals_.size();
  const std::size_t cells = interval_lookup_.size() - 1;
  std::size_t cell = static_cast<std::size_t>(distance * cells_per_distance_);
  if (cell >= cells) cell = cells - 1;
  std::size_t first = interval_lookup_[cell];
  // Rounding of the cell boundaries can leave the distance just before the cell's interval.
  while (first > 0 && intervals_[first].distance0 > distance) --first;
  const std::size_t last = std::min<std::size_t>(interval_lookup_[cell + 1] + 1, count - 1);
  return first + LastNotAbove(intervals_.data() + first, last - first + 1, distance,
                              [](const InverseInterval& in) { return in.distance0; });
}

void CubicBezier::Refine(double a, double b, double whole, double tolerance, int depth) {
  const double mid = 0.5 * (a + b);
  const double left = IntegrateSpeed(a, mid);
  const double right = IntegrateSpeed(mid, b);
  // NaN (from overflowing control points, which Route::Build rules out) stops too: refining it
  // would add 2^40 knots.
  if (depth >= kMaxRefineDepth || !(std::abs(left + right - whole) > tolerance)) {
    // The halves are the better estimate, but the knot must hold exactly what a query over
    // [a, b] computes; the difference is below the tolerance.
    knots_.push_back({b, knots_.back().distance + whole, Speed(b)});
    return;
  }
  Refine(a, mid, left, tolerance, depth + 1);
  Refine(mid, b, right, tolerance, depth + 1);
}

double CubicBezier::DistanceAtParameter(double t) const {
  if (!(t > 0.0)) return 0.0;
  if (t >= 1.0) return length();
  const std::size_t i =
      LastNotAbove(knots_.data(), knots_.size() - 1, t, [](const Knot& knot) { return knot.t; });
  // Rounding may carry the quadrature an ulp past the next knot (past the length at the end):
  // clamped, distances never decrease with t.
  return std::min(knots_[i].distance + IntegrateSpeed(knots_[i].t, t), knots_[i + 1].distance);
}

double CubicBezier::ParameterAtDistance(double distance) const {
  if (!(distance > 0.0)) return 0.0;
  if (distance >= length()) return 1.0;
  const InverseInterval& in = intervals_[IntervalAt(distance)];
  const double width = in.t1 - in.t0;
  const double remaining = distance - in.distance0;

  // First guess: cubic Hermite interpolation of t(s) with the slopes dt/ds = 1/speed at the
  // knots; accurate to O(width⁴), so one Newton step usually ends the search. Where a slope is
  // steep (speed near 0 at a cusp) the Hermite cubic could leave the interval: use a model with
  // speed varying linearly, s(τ) = v0 τ + k τ²/2, solved in a form finite for v0 = 0.
  const double sigma = remaining * in.inverse_span;
  const double m0 = in.m0;
  const double m1 = in.m1;
  double tau;
  if (m0 <= 3.0 && m1 <= 3.0) {
    const double s2 = sigma * sigma;
    const double s3 = s2 * sigma;
    tau = width * ((s3 - 2.0 * s2 + sigma) * m0 + (3.0 * s2 - 2.0 * s3) + (s3 - s2) * m1);
  } else {
    const double slope = (in.speed1 - in.speed0) / width;
    const double root = std::sqrt(std::max(0.0, in.speed0 * in.speed0 + 2.0 * slope * remaining));
    tau = in.speed0 + root > 0.0 ? 2.0 * remaining / (in.speed0 + root) : width * sigma;
  }
  const double t0 = in.t0;
  double lo = t0;
  double hi = in.t1;
  double t = std::clamp(t0 + tau, lo, hi);

  // Newton on s(t) - distance inside the bracket, bisecting when a step leaves it or stalls
  // (the speed vanishes at cusps).
  const double tolerance = kInverseTolerance * scale_;
  for (int iteration = 0; iteration < 100; ++iteration) {
    // The derivative's terms depend on t only: computed alongside the quadrature, so the step
    // after it is a multiply, not a division.
    const glm::dvec2 d1 = Derivative(t);
    const double speed = glm::length(d1);
    const double inverse_speed = 1.0 / speed;
    const double residual = IntegrateSpeed(t0, t) - remaining;
    if (std::abs(residual) <= tolerance) return t;
    if (residual < 0.0) {
      lo = t;
    } else {
      hi = t;
    }
    const double step = residual * inverse_speed;
    double next = speed > 0.0 ? t - step : lo;
    if (!(next > lo && next < hi)) {
      next = 0.5 * (lo + hi);
    } else {
      // Quadratic convergence: the residual after this step is about s''·δ²/2. When that is
      // already negligible, skip the quadrature that would only confirm it.
      const double acceleration = glm::dot(d1, SecondDerivative(t)) * inverse_speed;
      if (std::abs(0.5 * acceleration * step * step) <= 0.25 * tolerance) {
        return next;
      }
    }
    if (next == t) return t;
    t = next;
  }
  return t;
}

Pose2 CubicBezier::Sample(double distance) const {
  const double t = ParameterAtDistance(distance);
  return {Position(t), TangentHeading(t)};
}

}  // namespace md5stage
