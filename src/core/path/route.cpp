#include "core/path/route.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <utility>

#include "core/path/golden_section.h"
#include "core/path/sorted_search.h"

namespace md5stage {
namespace {

// End points closer than this, relative to the coordinates' size, count as shared.
constexpr double kJoinTolerance = 1e-9;
// Tangents that differ by more than this at a join make a kink (radius 0).
constexpr double kKinkAngle = 1e-7;
// Curvature check: parameter samples per Bezier before refining boundaries and extremes.
constexpr int kCurvatureSamples = 256;

std::string FormatPoint(glm::dvec2 p) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "(%.17g, %.17g)", p.x, p.y);
  return buffer;
}

}  // namespace

bool RoutePointsMeet(glm::dvec2 a, glm::dvec2 b) {
  const double size = std::max({1.0, std::abs(a.x), std::abs(a.y), std::abs(b.x), std::abs(b.y)});
  return glm::length(a - b) <= kJoinTolerance * size;
}

RouteSegment RouteSegment::Line(glm::dvec2 start, glm::dvec2 end) {
  RouteSegment segment;
  segment.kind = Kind::kLine;
  segment.points = {start, end, end, end};
  return segment;
}

RouteSegment RouteSegment::Bezier(glm::dvec2 start, glm::dvec2 control1, glm::dvec2 control2,
                                  glm::dvec2 end) {
  RouteSegment segment;
  segment.kind = Kind::kBezier;
  segment.points = {start, control1, control2, end};
  return segment;
}

Result<Route> Route::Build(std::vector<RouteSegment> segments, bool closed) {
  if (segments.empty()) return MakeError("", 0, 0, "a route needs at least one segment");
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const RouteSegment& segment = segments[i];
    const int used = segment.kind == RouteSegment::Kind::kLine ? 2 : 4;
    for (int k = 0; k < used; ++k) {
      if (!IsFinite(segment.points[k])) {
        return MakeError("", 0, 0,
                         "segments[" + std::to_string(i) + "]: coordinates must be finite numbers");
      }
      if (std::abs(segment.points[k].x) > kMaxRouteCoordinate ||
          std::abs(segment.points[k].y) > kMaxRouteCoordinate) {
        return MakeError("", 0, 0,
                         "segments[" + std::to_string(i) + "]: coordinates must be at most 1e15 " +
                             "in size, found " + FormatPoint(segment.points[k]));
      }
    }
    if (i > 0 && !RoutePointsMeet(segments[i - 1].end(), segment.start())) {
      return MakeError("", 0, 0,
                       "segments[" + std::to_string(i) + "] starts at " +
                           FormatPoint(segment.start()) + " but segments[" + std::to_string(i - 1) +
                           "] ends at " + FormatPoint(segments[i - 1].end()) +
                           "; consecutive segments must share their end points");
    }
  }
  if (closed && !RoutePointsMeet(segments.back().end(), segments.front().start())) {
    return MakeError("", 0, 0,
                     "closed route ends at " + FormatPoint(segments.back().end()) +
                         " but starts at " + FormatPoint(segments.front().start()));
  }

  Route route;
  route.closed_ = closed;
  route.segment_starts_.reserve(segments.size() + 1);
  route.segment_starts_.push_back(0.0);
  route.pieces_.reserve(segments.size());
  for (const RouteSegment& segment : segments) {
    Piece piece{};
    double length = 0.0;
    if (segment.kind == RouteSegment::Kind::kLine) {
      const glm::dvec2 delta = segment.points[1] - segment.points[0];
      length = glm::length(delta);
      piece.is_line = true;
      piece.bezier_index = -1;
      piece.start = segment.points[0];
      piece.direction = length > 0.0 ? delta / length : glm::dvec2(1.0, 0.0);
      piece.heading = length > 0.0 ? std::atan2(delta.y, delta.x) : 0.0;
    } else {
      piece.is_line = false;
      piece.bezier_index = static_cast<int>(route.beziers_.size());
      route.beziers_.emplace_back(segment.points);
      length = route.beziers_.back().length();
    }
    route.pieces_.push_back(piece);
    route.segment_starts_.push_back(route.segment_starts_.back() + length);
  }
  route.segments_ = std::move(segments);
  route.BuildLookup();
  return route;
}

const CubicBezier* Route::bezier(std::size_t i) const {
  const Piece& piece = pieces_[i];
  return piece.is_line ? nullptr : &beziers_[piece.bezier_index];
}

Pose2 Route::SampleSegment(std::size_t i, double local_distance) const {
  const Piece& piece = pieces_[i];
  if (piece.is_line) return {piece.start + local_distance * piece.direction, piece.heading};
  return beziers_[piece.bezier_index].Sample(local_distance);
}

Pose2 Route::Sample(double distance) const {
  if (pieces_.empty()) return {};
  const double total = length();
  if (!(total > 0.0)) return {segments_.front().start(), 0.0};
  distance = std::clamp(distance, 0.0, total);  // NaN stays NaN and ends at the start below
  if (!(distance >= 0.0)) distance = 0.0;
  // Last segment starting at or before the distance; zero-length segments share their start with
  // the next one, so they are skipped, except at the very end.
  std::size_t i = SegmentAt(distance);
  while (i > 0 && !(segment_starts_[i + 1] > segment_starts_[i])) --i;
  return SampleSegment(i, distance - segment_starts_[i]);
}

void Route::BuildLookup() {
  // Two cells per segment: most cells then lie within one segment.
  const std::size_t count = pieces_.size();
  const std::size_t cells = 2 * count;
  const double total = length();
  cells_per_distance_ = total > 0.0 ? static_cast<double>(cells) / total : 0.0;
  segment_lookup_.resize(cells + 1);
  for (std::size_t c = 0; c <= cells; ++c) {
    const double start =
        total > 0.0 ? std::min(static_cast<double>(c) / cells_per_distance_, total) : 0.0;
    segment_lookup_[c] = static_cast<std::uint32_t>(
        LastNotAbove(segment_starts_.data(), count, start, [](double s) { return s; }));
  }
}

std::size_t Route::SegmentAt(double distance) const {
  const std::size_t count = pieces_.size();
  const std::size_t cells = segment_lookup_.size() - 1;
  std::size_t cell = static_cast<std::size_t>(distance * cells_per_distance_);
  if (cell >= cells) cell = cells - 1;
  std::size_t first = segment_lookup_[cell];
  // Rounding of the cell boundaries can leave the distance just before the cell's segment.
  while (first > 0 && segment_starts_[first] > distance) --first;
  const std::size_t last = std::min<std::size_t>(segment_lookup_[cell + 1] + 1, count - 1);
  return first + LastNotAbove(segment_starts_.data() + first, last - first + 1, distance,
                              [](double s) { return s; });
}

double Route::StartHeading(std::size_t i) const {
  const Piece& piece = pieces_[i];
  return piece.is_line ? piece.heading : beziers_[piece.bezier_index].TangentHeading(0.0);
}

double Route::EndHeading(std::size_t i) const {
  const Piece& piece = pieces_[i];
  return piece.is_line ? piece.heading : beziers_[piece.bezier_index].TangentHeading(1.0);
}

void Route::AppendSegmentStretches(std::size_t i, double turning_radius,
                                   std::vector<TightStretch>* out) const {
  const CubicBezier& curve = beziers_[pieces_[i].bezier_index];
  const double zero_speed = 1e-9 * curve.length();
  auto radius = [&](double t) {
    const glm::dvec2 d1 = curve.Derivative(t);
    const double speed = glm::length(d1);
    if (speed <= zero_speed) return 0.0;
    const double cross = std::abs(Cross(d1, curve.SecondDerivative(t)));
    return cross > 0.0 ? speed * speed * speed / cross : std::numeric_limits<double>::infinity();
  };
  auto tight = [&](double t) { return radius(t) < turning_radius; };

  // Uniform samples, plus the refined local minima of speed (cusps, sharp reversals) and local
  // maxima of curvature, where narrow tight spots live between samples.
  std::vector<double> ts(kCurvatureSamples + 1);
  std::vector<double> speeds(ts.size());
  std::vector<double> radii(ts.size());
  for (std::size_t j = 0; j < ts.size(); ++j) {
    ts[j] = static_cast<double>(j) / kCurvatureSamples;
    speeds[j] = curve.Speed(ts[j]);
    radii[j] = radius(ts[j]);
  }
  std::vector<double> extra;
  for (std::size_t j = 1; j + 1 < ts.size(); ++j) {
    if (speeds[j] <= speeds[j - 1] && speeds[j] <= speeds[j + 1]) {
      extra.push_back(MinimizeOn(ts[j - 1], ts[j + 1], [&](double t) { return curve.Speed(t); }));
    }
    if (radii[j] <= radii[j - 1] && radii[j] <= radii[j + 1] && std::isfinite(radii[j])) {
      extra.push_back(MinimizeOn(ts[j - 1], ts[j + 1], radius));
    }
  }
  ts.insert(ts.end(), extra.begin(), extra.end());
  std::sort(ts.begin(), ts.end());

  const double base = segment_starts_[i];
  std::size_t j = 0;
  while (j < ts.size()) {
    if (!tight(ts[j])) {
      ++j;
      continue;
    }
    std::size_t first = j;
    while (j + 1 < ts.size() && tight(ts[j + 1])) ++j;
    std::size_t last = j;
    ++j;
    // Boundaries between a loose and a tight sample, by bisection.
    double t_start = ts[first];
    if (first > 0) {
      double lo = ts[first - 1], hi = ts[first];
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (tight(mid) ? hi : lo) = mid;
      }
      t_start = hi;
    }
    double t_end = ts[last];
    if (last + 1 < ts.size()) {
      double lo = ts[last], hi = ts[last + 1];
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (tight(mid) ? lo : hi) = mid;
      }
      t_end = lo;
    }
    std::size_t best = first;
    for (std::size_t k = first; k <= last; ++k) {
      if (radius(ts[k]) < radius(ts[best])) best = k;
    }
    double t_min = ts[best];
    const double a = best > 0 ? ts[best - 1] : ts[best];
    const double b = best + 1 < ts.size() ? ts[best + 1] : ts[best];
    if (b > a) {
      const double refined = MinimizeOn(a, b, radius);
      if (radius(refined) < radius(t_min)) t_min = refined;
    }
    TightStretch stretch;
    stretch.start_distance = base + curve.DistanceAtParameter(t_start);
    // Distances of nearly equal parameters may round the other way: keep start <= end.
    stretch.end_distance =
        std::max(stretch.start_distance, base + curve.DistanceAtParameter(t_end));
    stretch.min_radius = radius(t_min);
    stretch.min_radius_distance = std::clamp(base + curve.DistanceAtParameter(t_min),
                                             stretch.start_distance, stretch.end_distance);
    out->push_back(stretch);
  }
}

std::vector<TightStretch> Route::FindTightStretches(double turning_radius) const {
  std::vector<TightStretch> found;
  if (!(turning_radius > 0.0)) return found;  // nothing has a radius below 0
  int first = -1;
  int previous = -1;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    if (!(segment_starts_[i + 1] > segment_starts_[i])) continue;
    if (previous >= 0 && std::abs(WrapPi(StartHeading(i) - EndHeading(previous))) > kKinkAngle) {
      const double at = segment_starts_[i];
      found.push_back({at, at, 0.0, at});
    }
    if (!pieces_[i].is_line) AppendSegmentStretches(i, turning_radius, &found);
    if (first < 0) first = static_cast<int>(i);
    previous = static_cast<int>(i);
  }
  if (closed_ && first >= 0 &&
      std::abs(WrapPi(StartHeading(first) - EndHeading(previous))) > kKinkAngle) {
    const double at = length();
    found.push_back({at, at, 0.0, at});
  }

  // Stretches that touch (a tight end of one segment, the kink, the tight start of the next) are
  // one stretch.
  const double touch = 1e-9 * std::max(1.0, length());
  std::vector<TightStretch> merged;
  for (const TightStretch& stretch : found) {
    if (!merged.empty() && stretch.start_distance <= merged.back().end_distance + touch) {
      TightStretch& into = merged.back();
      into.end_distance = std::max(into.end_distance, stretch.end_distance);
      if (stretch.min_radius < into.min_radius) {
        into.min_radius = stretch.min_radius;
        into.min_radius_distance = stretch.min_radius_distance;
      }
    } else {
      merged.push_back(stretch);
    }
  }
  return merged;
}

bool RouteSampleJob::Validate() const {
  return route != nullptr && (count == 0 || (distances != nullptr && poses != nullptr));
}

bool RouteSampleJob::Run() const {
  if (!Validate()) return false;
  for (std::size_t i = 0; i < count; ++i) poses[i] = route->Sample(distances[i]);
  return true;
}

}  // namespace md5stage
