#include "core/path/obstacles.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <utility>

#include "core/path/fast_sincos.h"
#include "core/path/route.h"

namespace md5stage {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double Length(glm::dvec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

double PointSegmentDistance(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 d = b - a;
  const double dd = glm::dot(d, d);
  double t = dd > 0.0 ? glm::dot(p - a, d) / dd : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return Length(p - (a + t * d));
}

// Sign of the turn a → b → c (exact sign of the floating-point cross product).
int Orientation(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
  const double cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return (cross > 0.0) - (cross < 0.0);
}

// c is on the segment ab, given that the three are collinear.
bool OnCollinearSegment(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
  return c.x >= std::min(a.x, b.x) && c.x <= std::max(a.x, b.x) && c.y >= std::min(a.y, b.y) &&
         c.y <= std::max(a.y, b.y);
}

// Closed segments ab and cd share at least one point (touching counts).
bool SegmentsIntersect(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c, glm::dvec2 d) {
  const int o1 = Orientation(a, b, c), o2 = Orientation(a, b, d);
  const int o3 = Orientation(c, d, a), o4 = Orientation(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  if (o1 == 0 && OnCollinearSegment(a, b, c)) return true;
  if (o2 == 0 && OnCollinearSegment(a, b, d)) return true;
  if (o3 == 0 && OnCollinearSegment(c, d, a)) return true;
  if (o4 == 0 && OnCollinearSegment(c, d, b)) return true;
  return false;
}

double SegmentSegmentDistance(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c, glm::dvec2 d) {
  if (SegmentsIntersect(a, b, c, d)) return 0.0;
  return std::min(std::min(PointSegmentDistance(a, c, d), PointSegmentDistance(b, c, d)),
                  std::min(PointSegmentDistance(c, a, b), PointSegmentDistance(d, a, b)));
}

glm::dvec2 UnitAt(double angle) {
  const SinCos sc = FastSinCos(angle);
  return {sc.c, sc.s};
}

// An arc with its two ends' directions and points, computed once: the distance checks ask for
// them per obstacle and per edge, and their sines and cosines were a fifth of the planner's time.
struct Arc {
  Arc(glm::dvec2 centre_, double radius_, double start_angle_, double sweep_)
      : centre(centre_),
        radius(radius_),
        sweep(sweep_),
        start_dir(UnitAt(start_angle_)),
        end_dir(UnitAt(start_angle_ + sweep_)),
        start(centre_ + radius_ * start_dir),
        end(centre_ + radius_ * end_dir) {}
  glm::dvec2 centre;
  double radius;
  double sweep;
  glm::dvec2 start_dir, end_dir;  // unit directions from the centre to the ends
  glm::dvec2 start, end;
};

// The direction v (from the centre, non-zero) lies within the arc's sweep. By signs of cross
// products against the ends' directions, no angle: atan2 per test was a tenth of the planner's
// time. The arc is taken counter-clockwise from `from` to `to` with extent `extent`.
bool DirectionInCcwArc(glm::dvec2 from, glm::dvec2 to, double extent, glm::dvec2 v) {
  if (extent <= kPi) {
    if (!(Cross(from, v) >= 0.0 && Cross(v, to) >= 0.0)) return false;
    // When the ends' directions coincide (an arc of no sweep) the two half-planes also hold the
    // opposite ray: below a quarter turn the bisector's half-plane excludes it.
    return extent >= 0.5 * kPi || glm::dot(v, from + to) >= 0.0;
  }
  // More than a half turn: in unless strictly inside the complement (less than a half turn;
  // strictly, so the opposite wedge never passes both tests).
  return !(Cross(to, v) > 0.0 && Cross(v, from) > 0.0);
}

bool DirectionInArc(const Arc& arc, glm::dvec2 v) {
  const double extent = std::abs(arc.sweep);
  if (extent >= kTwoPi) return true;
  return arc.sweep >= 0.0 ? DirectionInCcwArc(arc.start_dir, arc.end_dir, extent, v)
                          : DirectionInCcwArc(arc.end_dir, arc.start_dir, extent, v);
}

double PointArcDistance(glm::dvec2 p, const Arc& arc) {
  const glm::dvec2 v = p - arc.centre;
  const double r = Length(v);
  if (r == 0.0) return arc.radius;
  // The nearest point of the whole circle is in the direction of p; if the arc holds it, that is
  // the answer, otherwise the nearest point is an end of the arc.
  if (DirectionInArc(arc, v)) return std::abs(r - arc.radius);
  return std::min(Length(p - arc.start), Length(p - arc.end));
}

bool ArcSegmentIntersect(const Arc& arc, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 d = b - a, f = a - arc.centre;
  const double A = glm::dot(d, d);
  if (A == 0.0) return PointArcDistance(a, arc) == 0.0;
  const double B = 2.0 * glm::dot(f, d);
  const double C = glm::dot(f, f) - arc.radius * arc.radius;
  const double disc = B * B - 4.0 * A * C;
  if (disc < 0.0) return false;
  const double root = std::sqrt(disc);
  // Numerically stable pair of roots.
  const double q = -0.5 * (B + std::copysign(root, B));
  double ts[2] = {q / A, q != 0.0 ? C / q : q / A};
  for (double t : ts) {
    if (t < 0.0 || t > 1.0) continue;
    const glm::dvec2 point = f + t * d;
    if (DirectionInArc(arc, point)) return true;
  }
  return false;
}

// Distance between an arc and a segment. When they do not meet, the nearest pair is an end of one
// and a point of the other, or the foot of the perpendicular from the centre to the segment's
// line paired with the arc point in that direction (the only interior-interior critical pair).
double ArcSegmentDistance(const Arc& arc, glm::dvec2 a, glm::dvec2 b) {
  if (ArcSegmentIntersect(arc, a, b)) return 0.0;
  const glm::dvec2 e0 = arc.start;
  const glm::dvec2 e1 = arc.end;
  double best = std::min(std::min(PointArcDistance(a, arc), PointArcDistance(b, arc)),
                         std::min(PointSegmentDistance(e0, a, b), PointSegmentDistance(e1, a, b)));
  const glm::dvec2 d = b - a;
  const double dd = glm::dot(d, d);
  if (dd > 0.0) {
    const double t = glm::dot(arc.centre - a, d) / dd;
    if (t > 0.0 && t < 1.0) {
      const glm::dvec2 foot = a + t * d - arc.centre;
      const double r = Length(foot);
      if (r > 0.0 && DirectionInArc(arc, foot)) {
        best = std::min(best, std::abs(r - arc.radius));
      }
    }
  }
  return best;
}

// Inside or on the boundary of a simple polygon (crossing number; the boundary checked exactly).
bool PolygonContains(const std::vector<glm::dvec2>& v, glm::dvec2 p) {
  const std::size_t n = v.size();
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::dvec2 a = v[j], b = v[i];
    if (Orientation(a, b, p) == 0 && OnCollinearSegment(a, b, p)) return true;
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

Box2 ArcBounds(const Arc& arc) {
  Box2 box{glm::min(arc.start, arc.end), glm::max(arc.start, arc.end)};
  static constexpr glm::dvec2 kAxes[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
  for (const glm::dvec2& axis : kAxes) {
    if (DirectionInArc(arc, axis)) {
      const glm::dvec2 p = arc.centre + arc.radius * axis;
      box.min = glm::min(box.min, p);
      box.max = glm::max(box.max, p);
    }
  }
  return box;
}

bool BoxesNear(const Box2& a, const Box2& b, double margin) {
  return a.min.x - margin <= b.max.x && b.min.x <= a.max.x + margin &&
         a.min.y - margin <= b.max.y && b.min.y <= a.max.y + margin;
}

// Rounding in the path solvers moves a segment by ~1e-15 of its coordinates; a clearance met to
// within 1e-9 (relative) counts as met, so a tangent at exactly the clearance stays legal.
constexpr double kClearanceSlack = 1e-9;

bool Within(double distance, double clearance) {
  return distance <= 0.0 || distance < clearance - kClearanceSlack * std::max(1.0, clearance);
}

std::string Num(double v) { return FormatJsonNumber(v); }
std::string DescribePoint(glm::dvec2 p) { return DescribeJsonPair(p.x, p.y); }

bool CoordinateOk(glm::dvec2 p) {
  return IsFinite(p) && std::abs(p.x) <= kMaxRouteCoordinate &&
         std::abs(p.y) <= kMaxRouteCoordinate;
}

// ValidateObstacle with the index of the offending vertex (-1: the obstacle as a whole).
Status Validate(Obstacle* o, const std::string& path, int* vertex) {
  *vertex = -1;
  if (o->kind == Obstacle::Kind::kCircle) {
    if (!CoordinateOk(o->centre)) {
      return MakeError("", 0, 0,
                       path +
                           ".circle.centre: expected a point [x, y] of two finite numbers of "
                           "at most 1e15 in size, found " +
                           DescribePoint(o->centre));
    }
    if (!(o->radius > 0.0) || !(o->radius <= kMaxRouteCoordinate)) {
      return MakeError(
          "", 0, 0,
          path + ".circle.radius: expected a number > 0 and at most 1e15, found " + Num(o->radius));
    }
    o->bounds = {o->centre - o->radius, o->centre + o->radius};
    return {};
  }
  const std::vector<glm::dvec2>& v = o->vertices;
  const std::size_t n = v.size();
  const std::string poly = path + ".polygon";
  if (n < 3 || n > kMaxPolygonVertices) {
    return MakeError("", 0, 0,
                     poly + ": expected 3 to " + std::to_string(kMaxPolygonVertices) +
                         " vertices, found " + std::to_string(n));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!CoordinateOk(v[i])) {
      *vertex = static_cast<int>(i);
      return MakeError("", 0, 0,
                       poly + "[" + std::to_string(i) +
                           "]: expected a point [x, y] of two finite numbers of at most 1e15 in "
                           "size, found " +
                           DescribePoint(v[i]));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t prev = (i + n - 1) % n;
    if (v[i] == v[prev]) {
      *vertex = static_cast<int>(i);
      return MakeError("", 0, 0,
                       poly + "[" + std::to_string(i) + "]: expected a point different from " +
                           "polygon[" + std::to_string(prev) + "], found " + DescribePoint(v[i]) +
                           " again");
    }
  }
  double area2 = 0.0;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) area2 += Cross(v[j], v[i]);
  if (area2 == 0.0) {
    return MakeError("", 0, 0, poly + ": expected a polygon with a non-zero area, found area 0");
  }
  // Simple: non-adjacent edges never meet; adjacent edges meet only at their shared vertex (an
  // edge doubling back along the previous one is a spike of zero width).
  for (std::size_t i = 0; i < n; ++i) {
    const glm::dvec2 a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n];
    if (Orientation(a, b, c) == 0 && glm::dot(b - a, c - b) < 0.0) {
      *vertex = static_cast<int>((i + 1) % n);
      return MakeError("", 0, 0,
                       poly + "[" + std::to_string((i + 1) % n) +
                           "]: expected a simple polygon, found edges " + std::to_string(i) +
                           " and " + std::to_string((i + 1) % n) + " folding back on each other");
    }
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the closing vertex
      if (SegmentsIntersect(a, b, v[j], v[(j + 1) % n])) {
        return MakeError("", 0, 0,
                         poly + ": expected a simple polygon, found edges " + std::to_string(i) +
                             " (polygon[" + std::to_string(i) + "] to polygon[" +
                             std::to_string((i + 1) % n) + "]) and " + std::to_string(j) +
                             " meeting");
      }
    }
  }
  o->bounds = {v[0], v[0]};
  for (const glm::dvec2& p : v) {
    o->bounds.min = glm::min(o->bounds.min, p);
    o->bounds.max = glm::max(o->bounds.max, p);
  }
  return {};
}

}  // namespace

Obstacle Obstacle::Circle(glm::dvec2 centre, double radius) {
  Obstacle o;
  o.kind = Kind::kCircle;
  o.centre = centre;
  o.radius = radius;
  o.bounds = {centre - radius, centre + radius};
  return o;
}

Obstacle Obstacle::Polygon(std::vector<glm::dvec2> vertices) {
  Obstacle o;
  o.kind = Kind::kPolygon;
  o.vertices = std::move(vertices);
  if (!o.vertices.empty()) {
    o.bounds = {o.vertices[0], o.vertices[0]};
    for (const glm::dvec2& p : o.vertices) {
      o.bounds.min = glm::min(o.bounds.min, p);
      o.bounds.max = glm::max(o.bounds.max, p);
    }
  }
  return o;
}

Status ValidateObstacle(Obstacle* obstacle, const std::string& path) {
  int vertex;
  return Validate(obstacle, path, &vertex);
}

bool ObstacleContains(const Obstacle& o, glm::dvec2 p) {
  if (o.kind == Obstacle::Kind::kCircle) return Length(p - o.centre) <= o.radius;
  return PolygonContains(o.vertices, p);
}

bool SegmentInsidePolygon(const Obstacle& o, glm::dvec2 a, glm::dvec2 b) {
  if (o.kind != Obstacle::Kind::kPolygon || !PolygonContains(o.vertices, a)) return false;
  // A segment that starts inside and meets no edge (not even at a point) never leaves.
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    if (SegmentsIntersect(a, b, o.vertices[j], o.vertices[i])) return false;
  }
  return true;
}

double DistanceToObstacle(const Obstacle& o, glm::dvec2 p) {
  if (o.kind == Obstacle::Kind::kCircle) return std::max(0.0, Length(p - o.centre) - o.radius);
  if (PolygonContains(o.vertices, p)) return 0.0;
  double best = kInfinity;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    best = std::min(best, PointSegmentDistance(p, o.vertices[j], o.vertices[i]));
  }
  return best;
}

double SegmentDistanceToObstacle(const Obstacle& o, glm::dvec2 a, glm::dvec2 b) {
  if (o.kind == Obstacle::Kind::kCircle) {
    return std::max(0.0, PointSegmentDistance(o.centre, a, b) - o.radius);
  }
  if (PolygonContains(o.vertices, a)) return 0.0;
  double best = kInfinity;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    best = std::min(best, SegmentSegmentDistance(a, b, o.vertices[j], o.vertices[i]));
    if (best == 0.0) break;
  }
  return best;
}

namespace {

double ArcObstacleDistance(const Obstacle& o, const Arc& arc) {
  if (o.kind == Obstacle::Kind::kCircle) {
    return std::max(0.0, PointArcDistance(o.centre, arc) - o.radius);
  }
  // A connected curve that crosses no edge is wholly inside or wholly outside: its start decides.
  if (PolygonContains(o.vertices, arc.start)) return 0.0;
  double best = kInfinity;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    best = std::min(best, ArcSegmentDistance(arc, o.vertices[j], o.vertices[i]));
    if (best == 0.0) break;
  }
  return best;
}

// Whether the arc comes within the clearance of the obstacle: Within(ArcObstacleDistance), with
// the trigonometry skipped where the arc's whole circle is clearly farther (a bound that rounding
// cannot cross: the margin is 1e-6, the distances' rounding ~1e-13 of the coordinates).
bool ArcObstacleWithin(const Obstacle& o, const Arc& arc, double clearance) {
  const double beyond = clearance + 1e-6 * std::max(1.0, clearance);
  if (o.kind == Obstacle::Kind::kCircle) {
    const double from_circle = std::abs(Length(o.centre - arc.centre) - arc.radius) - o.radius;
    if (from_circle > beyond) return false;
    return Within(std::max(0.0, PointArcDistance(o.centre, arc) - o.radius), clearance);
  }
  if (PolygonContains(o.vertices, arc.start)) return true;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::dvec2 a = o.vertices[j], b = o.vertices[i];
    // The edge's distance from the circle: outside it by the nearest point, inside by the farthest.
    const double nearest = PointSegmentDistance(arc.centre, a, b);
    const double farthest = std::max(Length(a - arc.centre), Length(b - arc.centre));
    if (nearest - arc.radius > beyond || arc.radius - farthest > beyond) continue;
    if (Within(ArcSegmentDistance(arc, a, b), clearance)) return true;
  }
  return false;
}

}  // namespace

double ArcDistanceToObstacle(const Obstacle& o, glm::dvec2 centre, double radius,
                             double start_angle, double sweep) {
  return ArcObstacleDistance(o, Arc(centre, radius, start_angle, sweep));
}

bool SegmentWithinClearance(const Obstacle& o, glm::dvec2 a, glm::dvec2 b, double clearance) {
  const Box2 box{glm::min(a, b), glm::max(a, b)};
  if (!BoxesNear(box, o.bounds, clearance)) return false;
  return Within(SegmentDistanceToObstacle(o, a, b), clearance);
}

bool ArcWithinClearance(const Obstacle& o, glm::dvec2 centre, double radius, double start_angle,
                        double sweep, double clearance) {
  const Arc arc(centre, radius, start_angle, sweep);
  if (!BoxesNear(ArcBounds(arc), o.bounds, clearance)) return false;
  return ArcObstacleWithin(o, arc, clearance);
}

Result<ObstacleSet> ObstacleSet::Build(std::vector<Obstacle> obstacles) {
  if (obstacles.size() > kMaxObstacles) {
    return MakeError("", 0, 0,
                     "obstacles: expected at most " + std::to_string(kMaxObstacles) +
                         " obstacles, found " + std::to_string(obstacles.size()));
  }
  ObstacleSet set;
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    Status status = ValidateObstacle(&obstacles[i], "obstacles[" + std::to_string(i) + "]");
    if (!status.ok()) return status.error();
    if (i == 0) {
      set.bounds_ = obstacles[i].bounds;
    } else {
      set.bounds_.min = glm::min(set.bounds_.min, obstacles[i].bounds.min);
      set.bounds_.max = glm::max(set.bounds_.max, obstacles[i].bounds.max);
    }
  }
  set.obstacles_ = std::move(obstacles);
  set.BuildBins();
  return set;
}

namespace {
// Bins per side: about two per obstacle along each side (so a bin holds one or two), at most 32.
int BinsPerSide(std::size_t obstacles) {
  return std::clamp(static_cast<int>(std::ceil(2.0 * std::sqrt(static_cast<double>(obstacles)))), 1,
                    32);
}

int BinIndex(double v, double origin, double size, int count) {
  const double f = std::floor((v - origin) / size);
  return f < 0.0 ? 0 : f >= count ? count - 1 : static_cast<int>(f);
}
}  // namespace

void ObstacleSet::BuildBins() {
  bins_x_ = bins_y_ = 0;
  bin_start_.clear();
  bin_items_.clear();
  bin_first_.clear();
  if (obstacles_.empty()) return;
  const glm::dvec2 extent = bounds_.max - bounds_.min;
  const int per_side = BinsPerSide(obstacles_.size());
  bin_size_ = std::max(extent.x, extent.y) / per_side;
  if (!(bin_size_ > 0.0) || !std::isfinite(bin_size_)) bin_size_ = 1.0;
  bin_origin_ = bounds_.min;
  bins_x_ = std::clamp(static_cast<int>(std::ceil(extent.x / bin_size_)), 1, per_side);
  bins_y_ = std::clamp(static_cast<int>(std::ceil(extent.y / bin_size_)), 1, per_side);
  std::vector<int> count(static_cast<std::size_t>(bins_x_) * bins_y_ + 1, 0);
  bin_first_.resize(obstacles_.size());
  auto range = [&](const Box2& b, int* x0, int* y0, int* x1, int* y1) {
    *x0 = BinIndex(b.min.x, bin_origin_.x, bin_size_, bins_x_);
    *y0 = BinIndex(b.min.y, bin_origin_.y, bin_size_, bins_y_);
    *x1 = BinIndex(b.max.x, bin_origin_.x, bin_size_, bins_x_);
    *y1 = BinIndex(b.max.y, bin_origin_.y, bin_size_, bins_y_);
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < obstacles_.size(); ++i) {
      int x0, y0, x1, y1;
      range(obstacles_[i].bounds, &x0, &y0, &x1, &y1);
      bin_first_[i] = {x0, y0};
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
          const int bin = y * bins_x_ + x;
          if (pass == 0) {
            ++count[bin + 1];
          } else {
            bin_items_[count[bin]++] = static_cast<int>(i);
          }
        }
      }
    }
    if (pass == 0) {
      for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
      bin_start_ = count;
      bin_items_.resize(count.back());
    }
  }
}

template <typename Within>
int ObstacleSet::FirstNear(const Box2& box, double clearance, Within within) const {
  if (obstacles_.empty() || !BoxesNear(box, bounds_, clearance)) return -1;
  // The same rounding as the obstacles' bins, so a box that BoxesNear calls near shares a bin.
  const int x0 = BinIndex(box.min.x - clearance, bin_origin_.x, bin_size_, bins_x_);
  const int y0 = BinIndex(box.min.y - clearance, bin_origin_.y, bin_size_, bins_y_);
  const int x1 = BinIndex(box.max.x + clearance, bin_origin_.x, bin_size_, bins_x_);
  const int y1 = BinIndex(box.max.y + clearance, bin_origin_.y, bin_size_, bins_y_);
  int first = -1;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const int bin = y * bins_x_ + x;
      for (int k = bin_start_[bin]; k < bin_start_[bin + 1]; ++k) {
        const int i = bin_items_[k];
        if (first >= 0 && i >= first) break;  // ascending: nothing lower is left in this bin
        // An obstacle in several of the query's bins is tested in the first of them only.
        const std::pair<int, int> from = bin_first_[i];
        if (std::max(from.first, x0) != x || std::max(from.second, y0) != y) continue;
        if (!BoxesNear(box, obstacles_[i].bounds, clearance)) continue;
        if (within(i)) first = i;
      }
    }
  }
  return first;
}

int ObstacleSet::FirstWithin(glm::dvec2 p, double clearance) const {
  return FirstNear(Box2{p, p}, clearance,
                   [&](int i) { return Within(DistanceToObstacle(obstacles_[i], p), clearance); });
}

int ObstacleSet::FirstSegmentWithin(glm::dvec2 a, glm::dvec2 b, double clearance) const {
  return FirstNear(Box2{glm::min(a, b), glm::max(a, b)}, clearance, [&](int i) {
    return Within(SegmentDistanceToObstacle(obstacles_[i], a, b), clearance);
  });
}

int ObstacleSet::FirstTurnSegmentWithin(const TurnSegment& s, double clearance) const {
  if (s.kind == TurnSegment::Kind::kLine) {
    const glm::dvec2 a = s.start.position;
    const glm::dvec2 b = a + s.length * UnitAt(s.angle);
    return FirstSegmentWithin(a, b, clearance);
  }
  if (s.radius == 0.0 || s.length == 0.0) return FirstWithin(s.start.position, clearance);
  const Arc arc{s.centre, s.radius, s.start_angle, s.sweep};
  return FirstNear(ArcBounds(arc), clearance,
                   [&](int i) { return ArcObstacleWithin(obstacles_[i], arc, clearance); });
}

double ObstacleSet::Distance(glm::dvec2 p) const {
  double best = kInfinity;
  for (const Obstacle& o : obstacles_) best = std::min(best, DistanceToObstacle(o, p));
  return best;
}

// ---- JSON -----------------------------------------------------------------------------------

namespace {

class ObstacleReader {
 public:
  explicit ObstacleReader(std::string_view file) : file_(file) {}

  Diagnostic Fail(const JsonValue& at, const std::string& path, const std::string& expected) {
    return MakeError(file_, at.line(), at.column(),
                     path + ": expected " + expected + ", found " + DescribeJson(at));
  }

  Diagnostic At(const JsonValue& at, const Diagnostic& error) {
    return MakeError(file_, at.line(), at.column(), error.message);
  }

  bool ReadPoint(const JsonValue& point, glm::dvec2* out) {
    const JsonArray& xy = point.as_array();
    if (!point.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number()) {
      return false;
    }
    *out = {xy[0].as_number(), xy[1].as_number()};
    return CoordinateOk(*out);
  }

  Result<ObstacleSet> Read(const JsonValue& root) {
    if (!root.is_object()) return Fail(root, "obstacles file", "an object");
    const JsonValue* list = root.Find("obstacles");
    if (list == nullptr) {
      return MakeError(file_, root.line(), root.column(),
                       "obstacles file: expected an \"obstacles\" member, found none");
    }
    if (!list->is_array() || list->as_array().size() > kMaxObstacles) {
      return Fail(*list, "obstacles",
                  "an array of at most " + std::to_string(kMaxObstacles) + " obstacles");
    }
    const std::size_t count = list->as_array().size();
    std::vector<Obstacle> obstacles(count);
    for (std::size_t i = 0; i < count; ++i) {
      const JsonValue& item = list->as_array()[i];
      const std::string path = "obstacles[" + std::to_string(i) + "]";
      if (!item.is_object()) return Fail(item, path, "an object");
      const JsonValue* circle = item.Find("circle");
      const JsonValue* polygon = item.Find("polygon");
      if ((circle == nullptr) == (polygon == nullptr)) {
        return MakeError(file_, item.line(), item.column(),
                         path + ": expected a \"circle\" or a \"polygon\" member, found " +
                             (circle == nullptr ? "neither" : "both"));
      }
      Obstacle& o = obstacles[i];
      const JsonValue* located = &item;
      if (circle != nullptr) {
        const std::string cpath = path + ".circle";
        if (!circle->is_object()) {
          return Fail(*circle, cpath, "an object {\"centre\": [x, y], \"radius\": r}");
        }
        const JsonValue* centre = circle->Find("centre");
        const JsonValue* radius = circle->Find("radius");
        if (centre == nullptr || radius == nullptr) {
          return MakeError(file_, circle->line(), circle->column(),
                           cpath + ": expected \"centre\" and \"radius\" members, found " +
                               (centre == nullptr ? "no \"centre\"" : "no \"radius\""));
        }
        o.kind = Obstacle::Kind::kCircle;
        if (!ReadPoint(*centre, &o.centre)) {
          return Fail(*centre, cpath + ".centre",
                      "a point [x, y] of two finite numbers of at most 1e15 in size");
        }
        if (!radius->is_number() || !(radius->as_number() > 0.0) ||
            !(radius->as_number() <= kMaxRouteCoordinate)) {
          return Fail(*radius, cpath + ".radius", "a number > 0 and at most 1e15");
        }
        o.radius = radius->as_number();
        located = radius;
      } else {
        const std::string ppath = path + ".polygon";
        const std::size_t n = polygon->as_array().size();
        if (!polygon->is_array() || n < 3 || n > kMaxPolygonVertices) {
          return Fail(*polygon, ppath,
                      "an array of 3 to " + std::to_string(kMaxPolygonVertices) + " points");
        }
        o.kind = Obstacle::Kind::kPolygon;
        o.vertices.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
          if (!ReadPoint(polygon->as_array()[k], &o.vertices[k])) {
            return Fail(polygon->as_array()[k], ppath + "[" + std::to_string(k) + "]",
                        "a point [x, y] of two finite numbers of at most 1e15 in size");
          }
        }
        located = polygon;
      }
      int vertex = -1;
      Status status = Validate(&o, path, &vertex);
      if (!status.ok()) {
        if (vertex >= 0 && polygon != nullptr) located = &polygon->as_array()[vertex];
        return At(*located, status.error());
      }
    }
    Result<ObstacleSet> set = ObstacleSet::Build(std::move(obstacles));
    if (!set.ok()) return At(*list, set.error());
    return set;
  }

 private:
  std::string file_;
};

JsonValue PointJson(glm::dvec2 p) { return JsonValue(JsonArray{p.x, p.y}); }

}  // namespace

Result<ObstacleSet> ObstaclesFromJson(std::string_view file, const JsonValue& value) {
  return ObstacleReader(file).Read(value);
}

Result<ObstacleSet> ReadObstaclesJson(std::string_view file, std::string_view text) {
  Result<JsonValue> document = ParseJson(file, text);
  if (!document.ok()) return document.error();
  return ObstaclesFromJson(file, document.value());
}

JsonValue ObstaclesToJson(const ObstacleSet& set) {
  JsonValue root = JsonValue::MakeObject();
  JsonValue& list = root.Set("obstacles", JsonValue::MakeArray());
  for (const Obstacle& o : set.obstacles()) {
    JsonValue item = JsonValue::MakeObject();
    if (o.kind == Obstacle::Kind::kCircle) {
      JsonValue circle = JsonValue::MakeObject();
      circle.Set("centre", PointJson(o.centre));
      circle.Set("radius", o.radius);
      item.Set("circle", std::move(circle));
    } else {
      JsonValue points = JsonValue::MakeArray();
      for (const glm::dvec2& p : o.vertices) points.Append(PointJson(p));
      item.Set("polygon", std::move(points));
    }
    list.Append(std::move(item));
  }
  return root;
}

}  // namespace md5stage
