// Shared by `plan`, `turn --obstacles` and `route --obstacles`: the obstacles file, the planned
// path's output, and the route stretches near obstacles.
#include "cli/obstacle_cli.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/path_output.h"
#include "core/common/json.h"

namespace md5stage::cli {
namespace {

// The planner's "within the clearance" for a point (a segment of zero length).
bool PointWithin(const Obstacle& o, glm::dvec2 p, double clearance) {
  return SegmentWithinClearance(o, p, p, clearance);
}

// Parameters s in [0, length] where a + s·u meets the circle |x - c| = r (u a unit vector).
void CircleRoots(glm::dvec2 a, glm::dvec2 u, double length, glm::dvec2 c, double r,
                 std::vector<double>* out) {
  const glm::dvec2 d = a - c;
  const double b = d.x * u.x + d.y * u.y;
  const double disc = b * b - (d.x * d.x + d.y * d.y - r * r);
  if (disc < 0.0) return;
  const double root = std::sqrt(disc);
  for (const double s : {-b - root, -b + root}) {
    if (s > 0.0 && s < length) out->push_back(s);
  }
}

// Parameter s where a + s·u crosses the segment p→q (not parallel), if it does.
void SegmentRoot(glm::dvec2 a, glm::dvec2 u, double length, glm::dvec2 p, glm::dvec2 q,
                 std::vector<double>* out) {
  const glm::dvec2 e = q - p;
  const double denom = u.x * e.y - u.y * e.x;
  if (denom == 0.0) return;
  const glm::dvec2 w = p - a;
  const double s = (w.x * e.y - w.y * e.x) / denom;
  const double t = (w.x * u.y - w.y * u.x) / denom;
  if (t >= 0.0 && t <= 1.0 && s > 0.0 && s < length) out->push_back(s);
}

// Where along the line a→b the "within" answer can change for one obstacle: the boundary of the
// shape grown by the clearance (circles of radius r + C; for polygons the capsules round each
// edge: circles of radius C at the corners and the edges moved ±C along their normals).
void LineBreakpoints(const Obstacle& o, glm::dvec2 a, glm::dvec2 u, double length, double clearance,
                     std::vector<double>* out) {
  if (o.kind == Obstacle::Kind::kCircle) {
    CircleRoots(a, u, length, o.centre, o.radius + clearance, out);
    return;
  }
  const std::vector<glm::dvec2>& v = o.vertices;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const glm::dvec2 p = v[i], q = v[(i + 1) % v.size()];
    if (clearance > 0.0) CircleRoots(a, u, length, p, clearance, out);
    const glm::dvec2 e = q - p;
    const double len = std::sqrt(e.x * e.x + e.y * e.y);
    const glm::dvec2 n = glm::dvec2(-e.y, e.x) * (clearance / len);
    SegmentRoot(a, u, length, p + n, q + n, out);
    if (clearance > 0.0) SegmentRoot(a, u, length, p - n, q - n, out);
  }
}

struct Interval {
  double start, end, min_distance;
};

// Maximal runs of the line segment a→b (distances offset by `base`) within the clearance.
void LineIntervals(const Obstacle& o, glm::dvec2 a, glm::dvec2 b, double base, double clearance,
                   std::vector<double>* breakpoints, std::vector<Interval>* out) {
  const glm::dvec2 ab = b - a;
  const double length = std::sqrt(ab.x * ab.x + ab.y * ab.y);
  if (!SegmentWithinClearance(o, a, b, clearance)) return;
  const glm::dvec2 u = ab / length;
  breakpoints->clear();
  breakpoints->push_back(0.0);
  LineBreakpoints(o, a, u, length, clearance, breakpoints);
  breakpoints->push_back(length);
  std::sort(breakpoints->begin(), breakpoints->end());
  auto at = [&](double s) { return s >= length ? b : a + u * s; };
  auto add = [&](double s0, double s1) {
    const double d = SegmentDistanceToObstacle(o, at(s0), at(s1));
    if (!out->empty() && out->back().end == base + s0) {
      out->back().end = base + s1;
      out->back().min_distance = std::min(out->back().min_distance, d);
    } else {
      out->push_back({base + s0, base + s1, d});
    }
  };
  // Between two breakpoints the answer is constant, so the midpoint decides; a breakpoint itself
  // can be within alone (touching a shape with clearance 0).
  for (std::size_t k = 0; k < breakpoints->size(); ++k) {
    const double s = (*breakpoints)[k];
    if (PointWithin(o, at(s), clearance)) add(s, s);
    if (k + 1 < breakpoints->size() && (*breakpoints)[k + 1] > s &&
        PointWithin(o, at(0.5 * (s + (*breakpoints)[k + 1])), clearance)) {
      add(s, (*breakpoints)[k + 1]);
    }
  }
}

// Sampled runs of a Bezier segment [d0, d1] of the route, ends bisected to rounding.
void CurveIntervals(const Route& route, const Obstacle& o, double d0, double d1, double clearance,
                    std::vector<Interval>* out) {
  const double length = d1 - d0;
  const double step = std::max(std::min(length / 512.0, clearance > 0.0 ? clearance / 4.0 : length),
                               length / 100000.0);
  const int count = static_cast<int>(std::ceil(length / step));
  auto distance_at = [&](int k) { return k >= count ? d1 : d0 + length * k / count; };
  auto within = [&](double d) { return PointWithin(o, route.Sample(d).position, clearance); };
  auto bisect = [&](double lo, double hi, bool lo_within) {  // the change lies in (lo, hi]
    for (int i = 0; i < 80 && hi - lo > 1e-12 * std::max(1.0, std::abs(hi)); ++i) {
      const double mid = 0.5 * (lo + hi);
      (within(mid) == lo_within ? lo : hi) = mid;
    }
    return lo_within ? lo : hi;
  };
  auto distance_to = [&](double d) { return DistanceToObstacle(o, route.Sample(d).position); };
  bool previous = within(d0);
  double start = d0;
  double nearest = previous ? distance_to(d0) : 0.0;  // sampled, over the open stretch
  for (int k = 1; k <= count; ++k) {
    const double d = distance_at(k);
    const bool now = within(d);
    if (now != previous) {
      const double edge = bisect(distance_at(k - 1), d, previous);
      if (now) {
        start = edge;
        nearest = distance_to(edge);
      } else {
        out->push_back({start, edge, std::min(nearest, distance_to(edge))});
      }
    }
    if (now) nearest = std::min(nearest, distance_to(d));
    previous = now;
  }
  if (previous) out->push_back({start, d1, nearest});
}

}  // namespace

Result<ObstacleSet> LoadObstaclesFile(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return MakeError(file, 0, 0, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return ReadObstaclesJson(file, text.str());
}

void PrintPlanText(const ObstaclePlanResult& result, const PlannedPath& path) {
  std::printf("found %s\n", result.found() ? "true" : "false");
  if (!result.found()) {
    std::printf("reason %s\n", result.reason);
    return;
  }
  std::printf("length %s\n", TextNumber(path.length).c_str());
  PrintEndAndSegmentsText(path.end, path.segments.data(), static_cast<int>(path.segments.size()));
}

void PrintPlanJson(const ObstaclePlanResult& result, const PlannedPath& path) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("found", result.found());
  if (!result.found()) {
    root.Set("reason", result.reason);
    std::printf("%s\n", WriteJson(root).c_str());
    return;
  }
  root.Set("length", path.length);
  root.Set("end", PoseJson(path.end));
  root.Set("segments", SegmentsJson(path.segments.data(), static_cast<int>(path.segments.size())));
  std::printf("%s\n", WriteJson(root).c_str());
}

std::vector<ObstacleStretch> FindObstacleStretches(const Route& route, const ObstacleSet& obstacles,
                                                   double clearance) {
  std::vector<ObstacleStretch> stretches;
  std::vector<Interval> intervals;
  std::vector<double> breakpoints;
  const std::vector<RouteSegment>& segments = route.segments();
  // A run that ends where the next segment's run starts is one stretch (joins share their ends).
  const double join = 1e-9 * std::max(1.0, route.length());
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const Obstacle& o = obstacles.obstacles()[i];
    intervals.clear();
    for (std::size_t k = 0; k < segments.size(); ++k) {
      const double d0 = route.segment_start_distance(k), d1 = route.segment_start_distance(k + 1);
      if (!(d1 > d0)) continue;  // zero-length segments are never walked
      std::vector<Interval> part;
      if (segments[k].kind == RouteSegment::Kind::kLine) {
        LineIntervals(o, segments[k].points[0], segments[k].points[1], d0, clearance, &breakpoints,
                      &part);
      } else {
        CurveIntervals(route, o, d0, d1, clearance, &part);
      }
      for (const Interval& interval : part) {
        if (!intervals.empty() && interval.start <= intervals.back().end + join) {
          intervals.back().end = std::max(intervals.back().end, interval.end);
          intervals.back().min_distance =
              std::min(intervals.back().min_distance, interval.min_distance);
        } else {
          intervals.push_back(interval);
        }
      }
    }
    for (const Interval& interval : intervals) {
      stretches.push_back(
          {interval.start, interval.end, static_cast<int>(i), interval.min_distance});
    }
  }
  std::sort(stretches.begin(), stretches.end(),
            [](const ObstacleStretch& a, const ObstacleStretch& b) {
              return a.start_distance != b.start_distance ? a.start_distance < b.start_distance
                                                          : a.obstacle < b.obstacle;
            });
  return stretches;
}

}  // namespace md5stage::cli
