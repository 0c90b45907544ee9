// One cubic Bezier with an arc-length table, so it can be walked at constant speed by true
// arc length (distance → curve parameter by table look-up plus guarded Newton steps).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/path/pose.h"

namespace md5stage {

class CubicBezier {
 public:
  CubicBezier() = default;
  // Builds the arc-length table (done once per edit). The points must be finite and within
  // kMaxRouteCoordinate (route.h, which Route::Build checks): beyond it lengths overflow.
  explicit CubicBezier(const std::array<glm::dvec2, 4>& control_points);

  const std::array<glm::dvec2, 4>& control_points() const { return control_points_; }
  double length() const { return knots_.empty() ? 0.0 : knots_.back().distance; }
  int knot_count() const { return static_cast<int>(knots_.size()); }

  glm::dvec2 Position(double t) const;
  glm::dvec2 Derivative(double t) const;        // dB/dt
  glm::dvec2 SecondDerivative(double t) const;  // d²B/dt²
  double Speed(double t) const;                 // |dB/dt|

  // Heading of the direction of travel at t. Where dB/dt vanishes (cusp, coincident control
  // points) the limit direction is used: leaving the point at the start of the curve, arriving
  // at it elsewhere (so a cusp reports the heading it is reached with).
  double TangentHeading(double t) const;

  // Signed curvature at t (positive = turning left); infinite where the speed vanishes.
  double Curvature(double t) const;

  // Arc length from t = 0 to t (t clamped to [0, 1]).
  double DistanceAtParameter(double t) const;
  // Inverse of DistanceAtParameter (distance clamped to [0, length]).
  double ParameterAtDistance(double distance) const;

  // Position and tangent heading at a distance along the curve.
  Pose2 Sample(double distance) const;

 private:
  struct Knot {
    double t;
    double distance;  // arc length from t = 0
    double speed;     // |dB/dt| at t
  };
  // What the inverse needs of the interval between two knots, precomputed so a query divides
  // nothing before its first guess. One cache line.
  struct InverseInterval {
    double t0, t1;          // parameter range
    double distance0;       // arc length at t0
    double inverse_span;    // 1 / (arc length across the interval)
    double m0, m1;          // Hermite slopes of t(s), in interval units
    double speed0, speed1;  // |dB/dt| at the ends (the cusp model)
  };

  // Gauss-Legendre arc length over [a, b]; also what the table holds per knot interval, so a
  // query and the table agree exactly at the knots.
  double IntegrateSpeed(double a, double b) const;
  void BuildTable();
  void Refine(double a, double b, double whole, double tolerance, int depth);
  void BuildInverse();
  // Index of the interval holding `distance` (0 < distance < length()).
  std::size_t IntervalAt(double distance) const;

  std::array<glm::dvec2, 4> control_points_{};
  // B(t) = p0 + t (c1 + t (c2 + t c3)); dB/dt = c1 + t (2 c2 + 3 c3 t).
  glm::dvec2 c1_{0.0, 0.0}, c2_{0.0, 0.0}, c3_{0.0, 0.0};
  double scale_ = 0.0;  // size of the control polygon: the unit of "negligible"
  std::vector<Knot> knots_;
  std::vector<InverseInterval> intervals_;
  // Uniform cells over [0, length]: cell c starts in interval interval_lookup_[c], so a query
  // needs no binary search (interval_lookup_ has one entry more than there are cells).
  std::vector<std::uint32_t> interval_lookup_;
  double cells_per_distance_ = 0.0;
};

}  // namespace md5stage
