#include "core/path/obstacle_planner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <glm/geometric.hpp>
#include <limits>
#include <string>

#include "core/common/json.h"
#include "core/path/fast_sincos.h"
#include "core/path/route.h"

namespace md5stage {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kHeadingBins = 64;
constexpr int kMaxCellsPerSide = 128;
constexpr int kPrimitiveCount = 5;  // heading changes -1, -1/2, 0, 1/2, 1 of the largest
constexpr int kStepScales = 3;
constexpr int kProbeExpansions = 600;  // the search backwards from a goal heading
constexpr double kStepScale[kStepScales] = {1.0, 0.5, 0.25};
constexpr double kGoodShot = 1.05;
// The 2-D distance's weight in the heuristic. Its grid walls are only the cells wholly within the
// clearance (cells merely centred there closed gaps a path could use, and the detours they forced
// made the heuristic overestimate by up to 50%: paths round the wrong side, 1.2-1.5x the best
// length); that grid underestimates, and a weight a little over 1 buys back the speed (median
// 11 ms at 1.0, 3 ms at 1.15 on the bench field) for a little length (median ratio 1.005 ->
// 1.008 against the exhaustive search of tests/core/path/exhaustive_planner.h).
constexpr double kGridWeight = 1.15;
// The search stops when the smallest f left is this much over the best path found. With the
// weighted heuristic an f at the best length does not mean nothing shorter is left (the weight
// inflates it), so stopping there cut off shorter paths; on the bench field 1.05 brought the 95th
// percentile of the length ratio to the exhaustive search from 1.09 to 1.057 for 28% more
// expansions, while 1.15 (the weight itself) bought nothing more for 47%.
constexpr double kStopFactor = 1.05;
// Expansions after the first path is found in a pass, looking for a shorter one.
constexpr int kImproveExpansions = 400;

// The passes' cells (in turning radii), lattice shifts (in cells) and heuristic weights. The
// first pass's r/2 finds the way; the second's r/4 (shifted half a cell) finds turns and gaps the
// coarse lattice cannot line up with (a unit turning round in a maze room: 1.27x the reference
// with one pass); the third, unweighted on cells of 3r/8, explores round the best path instead of
// diving along it (a start facing away from the goal that the weighted passes turn the long way
// round: 1.13x on the bench field with two passes, 1.0 with three).
constexpr int kMaxPasses = 3;
constexpr double kPassCell[kMaxPasses] = {0.5, 0.25, 0.375};
constexpr double kPassShift[kMaxPasses] = {0.0, 0.5, 0.25};
constexpr double kPassGridWeight[kMaxPasses] = {kGridWeight, kGridWeight, 1.0};
// A later pass looks for raw lattice paths up to this much longer than the best shortened path
// (a raw path is longer than what shortening makes of it; bounded by the best itself, a finer
// pass found nothing).
constexpr double kPassSlack = 1.3;
// A later pass may expand at most this share of what the passes before it expanded, plus
// kPassExtra: the finer lattices refine what the first found rather than search anew.
constexpr double kPassShare = 0.2;
constexpr int kPassExtra = 100;
// No later pass when the best path is within this much of the obstacle-free length (a lower
// bound of every path's length), so at most 1% is left to gain.
constexpr double kWorthAnotherPass = 1.01;
// The other-side pass only where the best path is this much over the obstacle-free length (a
// lower bound): a detour round an obstacle; the gains on the generated cases were all on such.
constexpr double kWorthOtherSide = 1.05;
constexpr double kWorthMoving = 1.02;
// Shortening (PathShortenOptions' defaults): anchors half a radius apart; each anchor moved by
// steps from half a radius down to a hundredth, two sweeps per step, in eight directions
// (sideways, heading, both together). Finer steps, more sweeps and moves along the path cost
// ~40% more shortening for little gain on the generated cases (the reference tool uses them).
constexpr double kFirstStep = 0.5;

std::string Num(double v) { return FormatJsonNumber(v); }

bool Near(glm::dvec2 a, glm::dvec2 b, double scale) {
  return glm::length(a - b) <= 1e-9 * std::max(1.0, scale);
}

bool NearAngle(double a, double b) { return std::abs(WrapPi(a - b)) <= 1e-9; }

// The field the search may use: everything of interest plus room to turn round it.
struct Grid {
  glm::dvec2 origin{0.0, 0.0};
  double cell = 1.0;
  int nx = 1, ny = 1;

  bool CellOf(glm::dvec2 p, int* ix, int* iy) const {
    const double fx = (p.x - origin.x) / cell, fy = (p.y - origin.y) / cell;
    if (!(fx >= 0.0 && fy >= 0.0 && fx < nx && fy < ny)) return false;
    *ix = static_cast<int>(fx);
    *iy = static_cast<int>(fy);
    return true;
  }
  glm::dvec2 Centre(int ix, int iy) const { return origin + cell * glm::dvec2(ix + 0.5, iy + 0.5); }
};

int HeadingBin(double heading) {
  const int bin = static_cast<int>(WrapTwoPi(heading) * (kHeadingBins / kTwoPi));
  return std::min(bin, kHeadingBins - 1);
}

// A motion primitive from `pose`: an arc turning by `turn` at radius r, then a line, `step` in
// all (a pure arc when the turn uses the whole step). Writes 1 or 2 segments, returns the count.
int Primitive(const Pose2& pose, double r, double step, double turn, TurnSegment out[2]) {
  int count = 0;
  Pose2 at = pose;
  double arc_length = 0.0;
  if (turn != 0.0) {
    TurnSegment& s = out[count++];
    const double side = turn > 0.0 ? 1.0 : -1.0;
    s.kind = TurnSegment::Kind::kArc;
    s.start = at;
    s.radius = r;
    s.sweep = turn;
    s.length = arc_length = r * std::abs(turn);
    const SinCos heading = FastSinCos(at.heading);
    s.centre = at.position + side * r * glm::dvec2(-heading.s, heading.c);
    s.start_angle = at.heading - side * 0.5 * kPi;
    at = TurnSegmentEnd(s);
  }
  const double line = step - arc_length;
  if (line > 1e-12 * step) {
    TurnSegment& s = out[count++];
    s.kind = TurnSegment::Kind::kLine;
    s.start = at;
    s.angle = at.heading;
    s.length = line;
  }
  return count;
}

bool SegmentsClear(const ObstacleSet& obstacles, const TurnSegment* s, int count,
                   double clearance) {
  for (int i = 0; i < count; ++i) {
    if (s[i].length > 0.0 && obstacles.FirstTurnSegmentWithin(s[i], clearance) >= 0) return false;
  }
  return true;
}

bool TurnPathClear(const ObstacleSet& obstacles, const TurnPath& path, double clearance) {
  return path.ok() && SegmentsClear(obstacles, path.segments.data(), path.segment_count, clearance);
}

// The word ends where it was asked to, within CheckPlannedPath's tolerance. Not always so: where
// two turning circles almost coincide (the same point, headings 8.8e-9 apart: fuzz) the
// three-arc words' cosine rounds to 1 and the word becomes one circle that misses the target by
// that gap times the radius. (The reference solver of dubins_ref.csv rounds the same way, and
// within tolerance that one circle is its answer, so DubinsPath keeps it.) Such a word is not a
// candidate; the next shortest is.
bool Reaches(const TurnPath& path, const Pose2& to, bool with_heading) {
  const double scale = std::max(glm::length(path.start.position), glm::length(to.position));
  return Near(path.end.position, to.position, scale) &&
         (!with_heading || NearAngle(path.end.heading, to.heading));
}

// The obstacle-free length from a pose to the goal (a lower bound of any legal path's length).
double FreeLength(const Pose2& from, const ObstaclePlanJob& job) {
  if (job.has_goal_heading) {
    return ShortestDubinsLength(from, {job.goal, job.goal_heading}, job.turning_radius);
  }
  const TurnPath path = ArcLinePath(from.position, from.heading, job.turning_radius, job.goal);
  return path.ok() ? path.length : kInfinity;
}

// The shortest clear Dubins word between two poses no longer than `max_length`, or kNone.
TurnPath ClearDubins(const Pose2& from, const Pose2& to, double radius,
                     const ObstacleSet& obstacles, double clearance,
                     double max_length = kInfinity) {
  struct Context {
    const Pose2& to;
    const ObstacleSet& obstacles;
    double clearance;
  } context{to, obstacles, clearance};
  return FirstDubinsWord(
      from, to, radius, max_length,
      [](const TurnPath& path, void* c) {
        const Context& x = *static_cast<const Context*>(c);
        return Reaches(path, x.to, true) && TurnPathClear(x.obstacles, path, x.clearance);
      },
      &context);
}

// The analytic shot: the shortest clear obstacle-free path from `from` to the goal (a pose with
// `heading`, or a point when it is null) no longer than `max_length`, or kNone.
TurnPath ShotTo(const Pose2& from, glm::dvec2 goal, const double* heading, double r,
                const ObstacleSet& obstacles, double clearance, double max_length = kInfinity) {
  if (heading != nullptr) {
    return ClearDubins(from, {goal, *heading}, r, obstacles, clearance, max_length);
  }
  TurnPath left = ArcLinePathOnSide(from.position, from.heading, r, goal, TurnSide::kLeft);
  TurnPath right = ArcLinePathOnSide(from.position, from.heading, r, goal, TurnSide::kRight);
  if (right.ok() && (!left.ok() || right.length < left.length)) std::swap(left, right);
  const Pose2 at_goal{goal, 0.0};
  for (const TurnPath* path : {&left, &right}) {
    if (path->length <= max_length && Reaches(*path, at_goal, false) &&
        TurnPathClear(obstacles, *path, clearance)) {
      return *path;
    }
  }
  return TurnPath{};
}

TurnPath Shot(const Pose2& from, const ObstaclePlanJob& job, double max_length = kInfinity) {
  return ShotTo(from, job.goal, job.has_goal_heading ? &job.goal_heading : nullptr,
                job.turning_radius, *job.obstacles, job.clearance, max_length);
}

// A segment this short (relative to the field's scale) is rounding noise of "no segment": a
// Dubins word's empty arc or line. Dropping it moves the path by less than CheckPlannedPath's
// 1e-9 tolerance, and the follower and the drawing never meet a zero-length piece.
constexpr double kNegligibleLength = 1e-12;
constexpr double kNegligibleSweep = 1e-12;

bool Negligible(const TurnSegment& s, double scale) {
  return s.length <= kNegligibleLength * std::max(1.0, scale) &&
         (s.kind == TurnSegment::Kind::kLine || std::abs(s.sweep) <= kNegligibleSweep);
}

// Appends a path's segments except negligible ones; the segment after a dropped one starts
// exactly where the path is (its start pose, and an arc's centre and start angle, re-derived).
void AppendTurnPath(const TurnPath& path, double scale, PlannedPath* out) {
  bool dropped = false;
  for (int i = 0; i < path.segment_count; ++i) {
    TurnSegment s = path.segments[i];
    if (Negligible(s, scale)) {
      dropped = true;
      continue;
    }
    if (dropped) {
      dropped = false;
      const Pose2 at = out->segments.empty() ? out->start : TurnSegmentEnd(out->segments.back());
      s.start = at;
      if (s.kind == TurnSegment::Kind::kLine) {
        s.angle = at.heading;
      } else {
        const double side = s.sweep >= 0.0 ? 1.0 : -1.0;
        s.centre =
            at.position + side * s.radius * glm::dvec2(-std::sin(at.heading), std::cos(at.heading));
        s.start_angle = at.heading - side * 0.5 * kPi;
      }
    }
    out->segments.push_back(s);
    out->length += s.length;
  }
}

constexpr std::uint8_t kSurelyBlocked = 2;  // every point of the cell is within the clearance
constexpr std::uint8_t kReached = 4;        // flood fill mark
constexpr std::uint8_t kRightWall = 8;      // every point of the cell's right edge is blocked
constexpr std::uint8_t kTopWall = 16;       // every point of the cell's top edge is blocked
constexpr std::uint8_t kSettled = 32;       // GridDistances: the cell's distance is final
constexpr std::uint8_t kBarrier = 64;       // the other-side pass: the search may not enter it

// Every point of the segment ab is within the clearance of the obstacle: inside a circle grown
// by the clearance (convex, so the ends decide), or in a polygon's interior.
bool EdgeBlocked(const Obstacle& o, glm::dvec2 a, glm::dvec2 b, double sure_clearance) {
  if (o.kind == Obstacle::Kind::kCircle) {
    const double reach = o.radius + sure_clearance;
    const double da = glm::length(a - o.centre), db = glm::length(b - o.centre);
    return (da < reach || da <= o.radius) && (db < reach || db <= o.radius);
  }
  return SegmentInsidePolygon(o, a, b);
}

// How far p is inside the obstacle's boundary (p inside or on it).
double Depth(const Obstacle& o, glm::dvec2 p) {
  if (o.kind == Obstacle::Kind::kCircle) return o.radius - glm::length(p - o.centre);
  double best = kInfinity;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::dvec2 a = o.vertices[j], d = o.vertices[i] - a;
    const double t = std::clamp(glm::dot(p - a, d) / glm::dot(d, d), 0.0, 1.0);
    best = std::min(best, glm::length(p - (a + t * d)));
  }
  return best;
}

// The part of the segment a + t·d (t in [0, 1]) within some region: an interval, since every
// region here is convex (empty when t0 > t1).
struct Span {
  double t0 = 1.0, t1 = 0.0;
  bool empty() const { return !(t0 <= t1); }
};

Span Hull(Span u, Span v) {
  if (u.empty()) return v;
  if (v.empty()) return u;
  return {std::min(u.t0, v.t0), std::max(u.t1, v.t1)};
}

Span Intersect(Span u, Span v) { return {std::max(u.t0, v.t0), std::min(u.t1, v.t1)}; }

// {t : lo <= v0 + t·v1 <= hi}.
Span LinearSpan(double v0, double v1, double lo, double hi) {
  if (v1 == 0.0) return lo <= v0 && v0 <= hi ? Span{-kInfinity, kInfinity} : Span{};
  const double a = (lo - v0) / v1, b = (hi - v0) / v1;
  return {std::min(a, b), std::max(a, b)};
}

// Within `reach` of the point c.
Span DiscSpan(glm::dvec2 a, glm::dvec2 d, glm::dvec2 c, double reach) {
  const glm::dvec2 f = a - c;
  const double qa = glm::dot(d, d), qb = glm::dot(f, d), qc = glm::dot(f, f) - reach * reach;
  const double disc = qb * qb - qa * qc;
  if (!(qa > 0.0) || disc < 0.0) return {};
  const double root = std::sqrt(disc);
  return {(-qb - root) / qa, (-qb + root) / qa};
}

// Within `reach` of the segment pq (a capsule: its two discs and the band between them; the
// capsule is convex, so the three pieces' spans join into one).
Span CapsuleSpan(glm::dvec2 a, glm::dvec2 d, glm::dvec2 p, glm::dvec2 q, double reach) {
  const glm::dvec2 e = q - p;
  const double ee = glm::dot(e, e);
  Span span = Hull(DiscSpan(a, d, p, reach), DiscSpan(a, d, q, reach));
  if (ee > 0.0) {
    const double along0 = glm::dot(a - p, e), along1 = glm::dot(d, e);
    const double side0 = Cross(e, a - p), side1 = Cross(e, d);
    const double band = reach * std::sqrt(ee);
    span = Hull(span, Intersect(LinearSpan(along0, along1, 0.0, ee),
                                LinearSpan(side0, side1, -band, band)));
  }
  return span;
}

// A cell edge's coverage: bit k set when the k-th of 32 equal pieces of the edge lies wholly
// within the clearance of one obstacle. All 32 set: the edge is blocked, though no one obstacle
// blocks it all (a maze's wall is pieces and posts: the grid's edges across their joints were
// open, and the 2-D distance went through the walls: issue 44, case 95).
constexpr int kCoverPieces = 32;
constexpr std::uint32_t kCovered = 0xffffffffu;

void Cover(Span span, std::uint32_t* bits) {
  // A hair inside the span, so rounding never covers a piece that is not.
  const double t0 = std::max(0.0, span.t0 + 1e-9), t1 = std::min(1.0, span.t1 - 1e-9);
  if (!(t0 < t1)) return;
  const int first = static_cast<int>(std::ceil(t0 * kCoverPieces));
  const int end = static_cast<int>(std::floor(t1 * kCoverPieces));
  for (int k = std::max(first, 0); k < std::min(end, kCoverPieces); ++k) *bits |= 1u << k;
}

// The pieces of the edge a + t·d (t in [0, 1]) inside the polygon: the edge cut where it
// crosses the sides, each piece between two cuts inside when its middle is. (A polygon's interior
// farther than the clearance from every side: a thick wall's middle, crossed by an edge that
// leaves it at a joint with the next piece or post. Such edges were open, and with a small
// clearance every joint of a maze's walls was a gap for the 2-D distance: issue 44, case 147.)
// An edge crossing more than kMaxCuts sides is left as it is (never wrongly covered).
constexpr int kMaxCuts = 8;

void CoverInterior(const Obstacle& o, glm::dvec2 a, glm::dvec2 d, std::uint32_t* bits) {
  double cuts[kMaxCuts + 2];
  int count = 0;
  cuts[count++] = 0.0;
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::dvec2 p = o.vertices[j], e = o.vertices[i] - p;
    const double denominator = Cross(d, e);
    if (denominator == 0.0) continue;  // parallel: its ends are its neighbours' crossings
    const double t = Cross(p - a, e) / denominator, u = Cross(p - a, d) / denominator;
    if (!(t > 0.0 && t < 1.0 && u >= 0.0 && u <= 1.0)) continue;
    if (count == kMaxCuts + 1) return;
    cuts[count++] = t;
  }
  cuts[count++] = 1.0;
  for (int k = 1; k < count; ++k) {  // insertion sort: a few cuts
    for (int m = k; m > 0 && cuts[m] < cuts[m - 1]; --m) std::swap(cuts[m], cuts[m - 1]);
  }
  for (int k = 0; k + 1 < count; ++k) {
    if (!(cuts[k + 1] > cuts[k])) continue;
    if (ObstacleContains(o, a + (0.5 * (cuts[k] + cuts[k + 1])) * d)) {
      // The edge's own ends are not cuts: past them (Cover's hair would leave the end pieces).
      Cover({k == 0 ? -1.0 : cuts[k], k + 2 == count ? 2.0 : cuts[k + 1]}, bits);
    }
  }
}

// The pieces of the edge a + t·d within `reach` of the obstacle (a circle grown by it; each
// polygon side's capsule, and the polygon's interior).
void CoverEdge(const Obstacle& o, glm::dvec2 a, glm::dvec2 d, double reach, std::uint32_t* bits) {
  if (o.kind == Obstacle::Kind::kCircle) {
    Cover(DiscSpan(a, d, o.centre, o.radius + reach), bits);
    return;
  }
  const std::size_t n = o.vertices.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    Cover(CapsuleSpan(a, d, o.vertices[j], o.vertices[i], reach), bits);
  }
  CoverInterior(o, a, d, bits);
}

// Cells wholly within the clearance of one obstacle are "surely blocked": walls for the 2-D
// heuristic (which so never closes a gap a path could use) and for the enclosure test. A cell
// edge wholly within the clearance of the obstacles together is a wall too (kRightWall,
// kTopWall): no legal path crosses it. `cover` holds two words a cell (right and top edge).
void RasterizeObstacles(const ObstacleSet& obstacles, const Grid& grid, double clearance,
                        std::uint8_t* blocked, std::uint32_t* cover) {
  const double half_diagonal = 0.5 * std::sqrt(2.0) * grid.cell;
  // A margin over the 1e-9 slack of "within the clearance".
  const double sure_clearance = std::max(0.0, clearance - 1e-6 * std::max(1.0, clearance));
  for (const Obstacle& o : obstacles.obstacles()) {
    const auto index = [&](double v, double origin, int n) {
      return std::clamp(static_cast<int>(std::floor((v - origin) / grid.cell)), 0, n - 1);
    };
    const int x0 = index(o.bounds.min.x - clearance, grid.origin.x, grid.nx);
    const int y0 = index(o.bounds.min.y - clearance, grid.origin.y, grid.ny);
    const int x1 = index(o.bounds.max.x + clearance, grid.origin.x, grid.nx);
    const int y1 = index(o.bounds.max.y + clearance, grid.origin.y, grid.ny);
    for (int iy = y0; iy <= y1; ++iy) {
      for (int ix = x0; ix <= x1; ++ix) {
        const int cell = iy * grid.nx + ix;
        std::uint8_t& b = blocked[cell];
        if (b & kSurelyBlocked) continue;
        const glm::dvec2 centre = grid.Centre(ix, iy);
        const double d = DistanceToObstacle(o, centre);
        // Any point q of the cell is within half a diagonal of the centre, so its distance is at
        // most d + half_diagonal outside, or half_diagonal - depth when the centre is inside.
        const bool sure = d > 0.0 ? d + half_diagonal < sure_clearance
                                  : Depth(o, centre) + sure_clearance > half_diagonal;
        if (sure) b |= kSurelyBlocked;
        // Edges of a cell farther than the clearance from the obstacle are not touched by it.
        if (d > half_diagonal + sure_clearance) continue;
        const glm::dvec2 corner = grid.origin + grid.cell * glm::dvec2(ix + 1, iy + 1);
        const glm::dvec2 right_edge = corner - glm::dvec2(0.0, grid.cell);
        const glm::dvec2 top_edge = corner - glm::dvec2(grid.cell, 0.0);
        if (!(b & kRightWall)) {
          if (EdgeBlocked(o, right_edge, corner, sure_clearance)) {
            b |= kRightWall;
          } else {
            CoverEdge(o, right_edge, corner - right_edge, sure_clearance, &cover[2 * cell]);
            if (cover[2 * cell] == kCovered) b |= kRightWall;
          }
        }
        if (!(b & kTopWall)) {
          if (EdgeBlocked(o, top_edge, corner, sure_clearance)) {
            b |= kTopWall;
          } else {
            CoverEdge(o, top_edge, corner - top_edge, sure_clearance, &cover[2 * cell + 1]);
            if (cover[2 * cell + 1] == kCovered) b |= kTopWall;
          }
        }
      }
    }
  }
}

// The goal cannot be reached when no chain of cells, each crossing into the next through an edge
// not wholly blocked, joins the start's cell to the goal's: a legal path crosses from cell to cell
// at legal points, and each such point lies on an edge (a corner on four).
bool GoalEnclosed(const Grid& grid, glm::dvec2 start, glm::dvec2 goal, ObstaclePlannerScratch* s) {
  int gx, gy, sx, sy;
  if (!grid.CellOf(goal, &gx, &gy) || !grid.CellOf(start, &sx, &sy)) return false;
  const int goal_index = gy * grid.nx + gx;
  std::vector<int>& stack = s->chain;
  std::uint8_t* b = s->grid_blocked.data();
  stack.clear();
  const int start_index = sy * grid.nx + sx;
  b[start_index] |= kReached;
  stack.push_back(start_index);
  const auto visit = [&](int j) {
    if (b[j] & (kSurelyBlocked | kReached)) return;
    b[j] |= kReached;
    stack.push_back(j);
  };
  while (!stack.empty()) {
    const int index = stack.back();
    stack.pop_back();
    if (index == goal_index) return false;
    const int ix = index % grid.nx, iy = index / grid.nx;
    if (ix + 1 < grid.nx && !(b[index] & kRightWall)) visit(index + 1);
    if (ix > 0 && !(b[index - 1] & kRightWall)) visit(index - 1);
    if (iy + 1 < grid.ny && !(b[index] & kTopWall)) visit(index + grid.nx);
    if (iy > 0 && !(b[index - grid.nx] & kTopWall)) visit(index - grid.nx);
  }
  return true;
}

// Whether the 2-D distance may step from cell (ix, iy) to its neighbour (ix + dx, iy) or
// (ix, iy + dy): their shared edge is not a wall and the neighbour is not blocked.
bool EdgeOpen(const Grid& grid, const std::uint8_t* blocked, int ix, int iy, int dx, int dy) {
  const int from = iy * grid.nx + ix, to = (iy + dy) * grid.nx + ix + dx;
  if (blocked[to] & (kSurelyBlocked | kBarrier)) return false;
  if (dx != 0) return !(blocked[dx > 0 ? from : to] & kRightWall);
  return !(blocked[dy > 0 ? from : to] & kTopWall);
}

// A step of the 8-connected grid: across an open edge, or diagonally when one of the two ways
// round the shared corner is open (a path through the corner point itself crosses no wall, so
// then both are; any other way passes through one of the two side cells).
bool StepOpen(const Grid& grid, const std::uint8_t* blocked, int ix, int iy, int dx, int dy) {
  if (dx == 0 || dy == 0) return EdgeOpen(grid, blocked, ix, iy, dx, dy);
  return (EdgeOpen(grid, blocked, ix, iy, dx, 0) && EdgeOpen(grid, blocked, ix + dx, iy, 0, dy)) ||
         (EdgeOpen(grid, blocked, ix, iy, 0, dy) && EdgeOpen(grid, blocked, ix, iy + dy, dx, 0));
}

// Dijkstra over the 8-connected grid from the goal's cell; with `walls`, no step crosses a wall
// (StepOpen). The first pass (and the other-side pass on its lattice) has walls: it finds the way,
// and without them it searched mazes room by room (issue 44, case 95: out of 12,000 expansions;
// 633 with them). The finer passes do not: they refine the best path on a fifth of the budget,
// and the walls' higher distances behind a wall's end kept one from the tight turn round it that
// the first pass's coarse lattice missed (the quality test's case 60: 1.26x the reference with
// walls in every pass, 1.0 without them there).
void GridDistances(const Grid& grid, glm::dvec2 goal, bool walls, ObstaclePlannerScratch* s) {
  const int n = grid.nx * grid.ny;
  std::fill(s->grid_distance.begin(), s->grid_distance.begin() + n, kInfinity);
  int gx, gy;
  if (!grid.CellOf(goal, &gx, &gy)) return;
  // Dijkstra with buckets one cell wide (Dial): a step adds one cell or a diagonal (under two
  // cells), so a cell in bucket k only ever lowers others into bucket k + 1 or k + 2, and every
  // cell of bucket k is final when the bucket is reached. Three buckets in a ring, no heap.
  const int goal_index = gy * grid.nx + gx;
  s->grid_distance[goal_index] = 0.0;
  for (std::vector<int>& bucket : s->grid_bucket) bucket.clear();
  s->grid_bucket[0].push_back(goal_index);
  const double diagonal = std::sqrt(2.0) * grid.cell;
  std::uint8_t* blocked = s->grid_blocked.data();
  for (long long k = 0;; ++k) {
    std::vector<int>& bucket = s->grid_bucket[k % 3];
    if (bucket.empty()) {
      if (s->grid_bucket[(k + 1) % 3].empty() && s->grid_bucket[(k + 2) % 3].empty()) break;
      continue;
    }
    for (std::size_t q = 0; q < bucket.size(); ++q) {
      const int index = bucket[q];
      if (blocked[index] & kSettled) continue;
      blocked[index] |= kSettled;
      const double d = s->grid_distance[index];
      const int ix = index % grid.nx, iy = index / grid.nx;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          const int jx = ix + dx, jy = iy + dy;
          if (jx < 0 || jy < 0 || jx >= grid.nx || jy >= grid.ny) continue;
          const int j = jy * grid.nx + jx;
          if (blocked[j] & (kSurelyBlocked | kSettled | kBarrier)) continue;
          if (walls && !StepOpen(grid, blocked, ix, iy, dx, dy)) continue;
          const double nd = d + (dx != 0 && dy != 0 ? diagonal : grid.cell);
          if (nd < s->grid_distance[j]) {
            s->grid_distance[j] = nd;
            // Rounding cannot move it out of the next two buckets.
            const long long to = std::clamp(static_cast<long long>(nd / grid.cell), k + 1, k + 2);
            s->grid_bucket[to % 3].push_back(j);
          }
        }
      }
    }
    bucket.clear();
  }
  for (int i = 0; i < n; ++i) blocked[i] &= static_cast<std::uint8_t>(~kSettled);
}

template <typename T>
void GrowTo(std::vector<T>* v, std::size_t size) {
  if (v->size() < size) v->resize(size);
}

// Appends the piece of `path` from distance a to b along it (0 <= a < b <= its length): whole
// segments copied, the two ends trimmed (a line shortened, an arc's start angle and sweep cut on
// the same circle), so every piece is part of one already checked clear. The trimmed starts are
// computed as SamplePlannedPath computes poses, so the piece starts where a hop to it ends.
void AppendSubPath(const PlannedPath& path, double a, double b, double scale, PlannedPath* out) {
  double s0 = 0.0;
  for (const TurnSegment& seg : path.segments) {
    const double s1 = s0 + seg.length;
    const double lo = std::max(a, s0), hi = std::min(b, s1);
    if (hi > lo) {
      TurnSegment t = seg;
      if (lo > s0 || hi < s1) {
        const double f0 = (lo - s0) / seg.length, f1 = (hi - s0) / seg.length;
        if (seg.kind == TurnSegment::Kind::kLine) {
          t.start = {seg.start.position + (lo - s0) * Direction(seg.angle),
                     WrapPi(seg.start.heading)};
          t.length = hi - lo;
        } else {
          const double a0 = seg.start_angle + seg.sweep * f0;
          t.start = {seg.centre + seg.radius * glm::dvec2(std::cos(a0), std::sin(a0)),
                     WrapPi(seg.start.heading + seg.sweep * f0)};
          t.start_angle = a0;
          t.sweep = seg.sweep * (f1 - f0);
          t.length = seg.radius * std::abs(t.sweep);
        }
      }
      if (!Negligible(t, scale)) {
        out->segments.push_back(t);
        out->length += t.length;
      }
    }
    s0 = s1;
  }
}

constexpr int kMaxAnchors = 128;

}  // namespace

// (FastSinCos: the search ends every primitive here, and glibc's sincos was a tenth of its time.)
Pose2 TurnSegmentEnd(const TurnSegment& s) {
  if (s.kind == TurnSegment::Kind::kLine) {
    const SinCos along = FastSinCos(s.angle);
    return {s.start.position + s.length * glm::dvec2(along.c, along.s), s.start.heading};
  }
  const SinCos end = FastSinCos(s.start_angle + s.sweep);
  return {s.centre + s.radius * glm::dvec2(end.c, end.s), WrapPi(s.start.heading + s.sweep)};
}

Pose2 SamplePlannedPath(const PlannedPath& path, double distance) {
  if (!(distance > 0.0) || path.segments.empty()) return path.start;
  for (const TurnSegment& s : path.segments) {
    if (distance <= s.length) {
      if (s.kind == TurnSegment::Kind::kLine) {
        return {s.start.position + distance * Direction(s.angle), WrapPi(s.start.heading)};
      }
      const double f = s.length > 0.0 ? distance / s.length : 0.0;
      const double a = s.start_angle + s.sweep * f;
      return {s.centre + s.radius * glm::dvec2(std::cos(a), std::sin(a)),
              WrapPi(s.start.heading + s.sweep * f)};
    }
    distance -= s.length;
  }
  return path.end;
}

Status CheckPlannedPath(const PlannedPath& path, const Pose2& start, glm::dvec2 goal,
                        const double* goal_heading, double turning_radius, double clearance,
                        const ObstacleSet& obstacles) {
  const double scale = std::max({glm::length(start.position), glm::length(goal), path.length});
  Pose2 at = start;
  double total = 0.0;
  for (std::size_t i = 0; i < path.segments.size(); ++i) {
    const TurnSegment& s = path.segments[i];
    const std::string name = "segment " + std::to_string(i);
    if (!(s.length >= 0.0) || !std::isfinite(s.length)) {
      return MakeError("", 0, 0, name + ": length " + Num(s.length));
    }
    if (Negligible(s, std::max(glm::length(start.position), glm::length(goal)))) {
      return MakeError("", 0, 0, name + ": zero length (" + Num(s.length) + ")");
    }
    if (!Near(s.start.position, at.position, scale) || !NearAngle(s.start.heading, at.heading)) {
      return MakeError("", 0, 0, name + ": does not start where the path is");
    }
    if (s.kind == TurnSegment::Kind::kArc) {
      if (s.radius < turning_radius * (1.0 - 1e-12)) {
        return MakeError("", 0, 0,
                         name + ": radius " + Num(s.radius) + " below the turning radius " +
                             Num(turning_radius));
      }
      if (std::abs(s.radius * std::abs(s.sweep) - s.length) > 1e-9 * std::max(1.0, s.length)) {
        return MakeError("", 0, 0, name + ": arc length does not match radius and sweep");
      }
      // The unit sits on the circle, moving along its tangent.
      const glm::dvec2 on = s.centre + s.radius * Direction(s.start_angle);
      const double side = s.sweep >= 0.0 ? 1.0 : -1.0;
      if (!Near(on, s.start.position, scale) ||
          !NearAngle(s.start_angle + side * 0.5 * kPi, s.start.heading)) {
        return MakeError("", 0, 0, name + ": arc not tangent to the heading at its start");
      }
    } else if (!NearAngle(s.angle, s.start.heading)) {
      return MakeError("", 0, 0, name + ": line not along the heading");
    }
    if (s.length > 0.0) {
      const int hit = obstacles.FirstTurnSegmentWithin(s, clearance);
      if (hit >= 0) {
        return MakeError("", 0, 0,
                         name + ": comes within clearance " + Num(clearance) + " of obstacles[" +
                             std::to_string(hit) + "]");
      }
    }
    total += s.length;
    at = TurnSegmentEnd(s);
  }
  if (std::abs(total - path.length) > 1e-9 * std::max(1.0, total)) {
    return MakeError("", 0, 0, "length " + Num(path.length) + " is not the sum " + Num(total));
  }
  if (!Near(at.position, goal, scale) || !Near(path.end.position, goal, scale)) {
    return MakeError("", 0, 0, "the path does not end at the goal");
  }
  if (goal_heading != nullptr && !NearAngle(at.heading, *goal_heading)) {
    return MakeError("", 0, 0, "the path does not end with the goal heading");
  }
  return {};
}

Status ObstaclePlanJob::Validate() const {
  if (obstacles == nullptr || scratch == nullptr || path == nullptr || result == nullptr) {
    return MakeError("", 0, 0, "plan: obstacles, scratch, path and result are required");
  }
  if (!IsFinite(start.position) || !std::isfinite(start.heading)) {
    return MakeError("", 0, 0, "plan: start: expected a finite pose");
  }
  if (!IsFinite(goal) || (has_goal_heading && !std::isfinite(goal_heading))) {
    return MakeError("", 0, 0, "plan: goal: expected a finite point and heading");
  }
  // Coordinates, radius and clearance are limited like routes' and obstacles': beyond that the
  // search field's extent (coordinates + 4 radii + 2 clearances) overflows to infinity (fuzz).
  auto in_range = [](double v) { return std::abs(v) <= kMaxRouteCoordinate; };
  if (!in_range(start.position.x) || !in_range(start.position.y) || !in_range(goal.x) ||
      !in_range(goal.y)) {
    return MakeError("", 0, 0, "plan: start and goal: expected coordinates within 1e15");
  }
  if (!(turning_radius > 0.0) || !in_range(turning_radius)) {
    return MakeError(
        "", 0, 0, "plan: radius: expected a number > 0 and <= 1e15, found " + Num(turning_radius));
  }
  if (!(clearance >= 0.0) || !in_range(clearance)) {
    return MakeError(
        "", 0, 0, "plan: clearance: expected a number >= 0 and <= 1e15, found " + Num(clearance));
  }
  if (limits.budget < 1) {
    return MakeError(
        "", 0, 0,
        "plan: limits.budget: expected a number >= 1, found " + std::to_string(limits.budget));
  }
  if (limits.passes < 1 || limits.passes > kMaxPasses) {
    return MakeError(
        "", 0, 0, "plan: limits.passes: expected 1 to 3, found " + std::to_string(limits.passes));
  }
  if (limits.shorten_budget < 0) {
    return MakeError("", 0, 0,
                     "plan: limits.shorten_budget: expected a number >= 0, found " +
                         std::to_string(limits.shorten_budget));
  }
  const int at_start = obstacles->FirstWithin(start.position, clearance);
  if (at_start >= 0) {
    return MakeError("", 0, 0,
                     "plan: start (" + Num(start.position.x) + ", " + Num(start.position.y) +
                         ") is within clearance " + Num(clearance) + " of obstacles[" +
                         std::to_string(at_start) + "]");
  }
  const int at_goal = obstacles->FirstWithin(goal, clearance);
  if (at_goal >= 0) {
    return MakeError("", 0, 0,
                     "plan: goal (" + Num(goal.x) + ", " + Num(goal.y) + ") is within clearance " +
                         Num(clearance) + " of obstacles[" + std::to_string(at_goal) + "]");
  }
  return {};
}

namespace {

// One pass's lattice: the search field's cells, the motion primitives (a step and five turns),
// the heuristic's weight on the 2-D grid distance, and the grid that distance is computed on
// (`walls`: the lattice's cells, each split into subdivision x subdivision).
struct Lattice {
  Grid grid;
  Grid walls;
  int subdivision = 1;
  double step = 0.0;
  double turns[kPrimitiveCount] = {};
  double grid_weight = 1.0;
  double half_diagonal = 0.0;  // the heuristic's allowance for a pose anywhere in its wall cell

  std::size_t StateIndex(int ix, int iy, double heading) const {
    return (static_cast<std::size_t>(iy) * grid.nx + ix) * kHeadingBins + HeadingBin(heading);
  }
  // The wall grid's cell holding `p`, which lies in the lattice's cell (ix, iy).
  int WallCell(glm::dvec2 p, int ix, int iy) const {
    if (subdivision == 1) return iy * walls.nx + ix;
    const auto sub = [&](double v, double origin, int i) {
      const int j = static_cast<int>(std::floor((v - origin) / walls.cell));
      return std::clamp(j, i * subdivision, i * subdivision + subdivision - 1);
    };
    return sub(p.y, walls.origin.y, iy) * walls.nx + sub(p.x, walls.origin.x, ix);
  }
  // A wall cell inside the lattice's cell (ix, iy) (the barrier marks all of them).
  int WallCellOf(int ix, int iy) const { return iy * subdivision * walls.nx + ix * subdivision; }
  double StepLength(int shrink) const { return step * kStepScale[shrink]; }
  // Primitive p (of kPrimitiveCount) scaled down by kStepScale[shrink]: its segment count.
  int Move(const Pose2& from, double r, int p, int shrink, TurnSegment out[2]) const {
    return Primitive(from, r, StepLength(shrink), turns[p] * kStepScale[shrink], out);
  }
};

// How thin the obstacle is: a circle's diameter; a polygon's least distance from a vertex to an
// edge not its own (a rectangle's width, an L's arm, a triangle's least height; a concave notch
// can make it less than the material's, which only makes the wall grid finer). Polygons of more
// than kWidthVertices vertices take 2·area/perimeter instead (at most a convex shape's width),
// so the estimate stays linear in the vertices.
constexpr std::size_t kWidthVertices = 32;

double ObstacleWidth(const Obstacle& o) {
  if (o.kind == Obstacle::Kind::kCircle) return 2.0 * o.radius;
  const std::size_t n = o.vertices.size();
  if (n > kWidthVertices) {
    double area = 0.0, perimeter = 0.0;
    for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
      area += Cross(o.vertices[j], o.vertices[i]);
      perimeter += glm::length(o.vertices[i] - o.vertices[j]);
    }
    return perimeter > 0.0 ? std::abs(area) / perimeter : 0.0;
  }
  double width = kInfinity;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::dvec2 a = o.vertices[j], d = o.vertices[i] - a;
    const double dd = glm::dot(d, d);
    if (!(dd > 0.0)) continue;
    for (std::size_t v = 0; v < n; ++v) {
      if (v == i || v == j) continue;
      const double t = std::clamp(glm::dot(o.vertices[v] - a, d) / dd, 0.0, 1.0);
      width = std::min(width, glm::length(o.vertices[v] - (a + t * d)));
    }
  }
  return width;
}

// The first pass's 2-D distance sees a wall only where the wall, grown by the clearance, covers
// a whole cell edge; a wall thinner than a cell covers none when it runs between the cell lines,
// and the distance went through it (issue 44: cases 103, 135 and 147, mazes whose walls with the
// clearance are 5.6 to 8.2 thick on cells of 8.6 to 26.8: each spent its 12,000 expansions in
// rooms the distance said were near the goal). So that distance is computed on the lattice's
// cells split `subdivision` times a side, finer than the thinnest obstacle with its clearance
// (so every such wall covers a cell line), at most kMaxWallCellsPerSide cells a side. Fields
// whose obstacles are all thicker than a cell (the bench field) keep the lattice's own cells.
constexpr int kMaxWallCellsPerSide = 384;

int WallSubdivision(const ObstaclePlanJob& job, const Grid& grid) {
  const double cell = grid.cell;
  double thinnest = kInfinity;
  for (const Obstacle& o : job.obstacles->obstacles()) {
    thinnest = std::min(thinnest, ObstacleWidth(o));
  }
  const double band = thinnest + 2.0 * job.clearance;
  if (!(band < cell)) return 1;
  const int most = std::max(1, kMaxWallCellsPerSide / std::max(grid.nx, grid.ny));
  // (In doubles until capped: a sliver of a polygon makes cell / band huge.)
  const double wanted = std::floor(cell / band) + 1.0;
  return wanted >= most ? most : std::max(1, static_cast<int>(wanted));
}

// The field round start, goal and obstacles with room to turn, in cells of kPassCell[pass]
// radii (coarser when the field would need more than kMaxCellsPerSide), shifted by
// kPassShift[pass] of a cell; the step is 1.5 cells.
Lattice MakeLattice(const ObstaclePlanJob& job, int pass) {
  const double r = job.turning_radius;
  Lattice lattice;
  Grid& grid = lattice.grid;
  const double margin = 4.0 * r + 2.0 * job.clearance;
  glm::dvec2 lo = glm::min(job.start.position, job.goal),
             hi = glm::max(job.start.position, job.goal);
  if (!job.obstacles->empty()) {
    lo = glm::min(lo, job.obstacles->bounds().min);
    hi = glm::max(hi, job.obstacles->bounds().max);
  }
  lo -= margin;
  hi += margin;
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  grid.cell = std::max(kPassCell[pass] * r, extent / kMaxCellsPerSide);
  // Later lattices shifted by a fraction of a cell (the same cell size when the field caps it).
  lo -= kPassShift[pass] * grid.cell;
  grid.origin = lo;
  // (One more cell than the cap holds a shifted lattice's far edge.)
  grid.nx = std::min(kMaxCellsPerSide + 1, static_cast<int>(std::ceil((hi.x - lo.x) / grid.cell)));
  grid.ny = std::min(kMaxCellsPerSide + 1, static_cast<int>(std::ceil((hi.y - lo.y) / grid.cell)));
  grid.nx = std::max(grid.nx, 1);
  grid.ny = std::max(grid.ny, 1);
  lattice.step = 1.5 * grid.cell;
  const double max_turn = std::min(lattice.step / r, 0.5 * kPi);
  const double turns[kPrimitiveCount] = {-max_turn, -0.5 * max_turn, 0.0, 0.5 * max_turn, max_turn};
  std::copy(turns, turns + kPrimitiveCount, lattice.turns);
  lattice.grid_weight = kPassGridWeight[pass];
  // The first pass's distance sees the walls (GridDistances) on a grid fine enough for them.
  lattice.subdivision = pass == 0 ? WallSubdivision(job, grid) : 1;
  lattice.walls = grid;
  lattice.walls.cell = grid.cell / lattice.subdivision;
  lattice.walls.nx = grid.nx * lattice.subdivision;
  lattice.walls.ny = grid.ny * lattice.subdivision;
  lattice.half_diagonal = 0.5 * std::sqrt(2.0) * lattice.walls.cell;
  return lattice;
}

// A stamp for the next search (or probe) over the states: when the counter wraps, old stamps
// could collide with new ones, so every state's is cleared.
std::uint32_t NextGeneration(ObstaclePlannerScratch* s) {
  if (++s->generation == 0) {
    for (ObstaclePlannerScratch::State& state : s->states) state.stamp = 0;
    s->generation = 1;
  }
  return s->generation;
}

// The scratch sized for a pass over `lattice` expanding at most `budget` states (never
// reallocated inside the search), and the pass's obstacle cells and 2-D distances to the goal
// (through the walls or not: GridDistances).
void PrepareScratch(const ObstaclePlanJob& job, const Lattice& lattice, int budget, bool walls,
                    ObstaclePlannerScratch* s) {
  const std::size_t states =
      static_cast<std::size_t>(lattice.grid.nx) * lattice.grid.ny * kHeadingBins;
  GrowTo(&s->states, states);
  const Grid& grid = lattice.walls;
  const std::size_t cells = static_cast<std::size_t>(grid.nx) * grid.ny;
  GrowTo(&s->grid_distance, cells);
  GrowTo(&s->grid_blocked, cells);
  const std::size_t max_nodes = static_cast<std::size_t>(budget) * kPrimitiveCount + 1;
  if (s->nodes.capacity() < max_nodes) s->nodes.reserve(max_nodes);
  if (s->open.capacity() < max_nodes) s->open.reserve(max_nodes);
  for (std::vector<int>& bucket : s->grid_bucket) {
    if (bucket.capacity() < cells * 8) bucket.reserve(cells * 8);
  }
  if (s->chain.capacity() < std::max(cells, max_nodes))
    s->chain.reserve(std::max(cells, max_nodes));
  GrowTo(&s->grid_edge_cover, 2 * cells);
  std::fill(s->grid_blocked.begin(), s->grid_blocked.begin() + cells, std::uint8_t{0});
  std::fill(s->grid_edge_cover.begin(), s->grid_edge_cover.begin() + 2 * cells, 0u);
  RasterizeObstacles(*job.obstacles, grid, job.clearance, s->grid_blocked.data(),
                     s->grid_edge_cover.data());
  GridDistances(grid, job.goal, walls, s);
}

// A lower bound of the way from `pose` (in cell ix, iy) to the goal, or a little over one: the
// obstacle-free length, or the weighted grid distance when that is longer.
double Heuristic(const ObstaclePlanJob& job, const Lattice& lattice,
                 const ObstaclePlannerScratch& s, const Pose2& pose, int ix, int iy) {
  const double free = FreeLength(pose, job);
  const double grid_d = s.grid_distance[lattice.WallCell(pose.position, ix, iy)];
  if (!std::isfinite(grid_d)) return free;
  return std::max(free, lattice.grid_weight * grid_d - lattice.half_diagonal);
}

// A motion primitive tried from a pose: its segments, where it ends and in which cell.
struct Successor {
  TurnSegment segments[2];
  int count = 0;
  Pose2 end;
  int ix = 0, iy = 0;  // the end's cell, when it is in the field
  double length = 0.0;
  std::int8_t primitive = 0;  // p * kStepScales + shrink
};

// What a search makes of a successor's end before its segments are checked clear.
enum class Arrival { kCheckClear, kNextPrimitive, kStopExpanding };

// Expands `from` by each primitive: a full step first, and when that is blocked a half and a
// quarter step (a unit facing a wall close by may still turn away from it). `search` judges
// each end (Arrive) and takes a clear successor (Take: false stops the expansion). Returns false
// when the search stopped it.
template <typename Search>
bool ExpandPrimitives(const ObstaclePlanJob& job, const Lattice& lattice, const Pose2& from,
                      Search* search) {
  Successor next;
  for (int p = 0; p < kPrimitiveCount; ++p) {
    for (int shrink = 0; shrink < kStepScales; ++shrink) {
      next.length = lattice.StepLength(shrink);
      next.count = lattice.Move(from, job.turning_radius, p, shrink, next.segments);
      next.end = TurnSegmentEnd(next.segments[next.count - 1]);
      next.primitive = static_cast<std::int8_t>(p * kStepScales + shrink);
      const bool in_field = lattice.grid.CellOf(next.end.position, &next.ix, &next.iy);
      const Arrival arrival = search->Arrive(next, in_field);
      if (arrival == Arrival::kNextPrimitive) break;
      if (arrival == Arrival::kStopExpanding) return false;
      if (!SegmentsClear(*job.obstacles, next.segments, next.count, job.clearance)) continue;
      if (!search->Take(next)) return false;
      break;
    }
  }
  return true;
}

// The goal-heading probe's successors: a state not probed yet is stacked; leaving the field or
// coming back to the start's cell makes the probe inconclusive, as does running out of nodes.
struct ProbeSuccessors {
  ObstaclePlannerScratch& s;
  const Lattice& lattice;
  std::uint32_t probe;  // the probe's generation
  int start_ix, start_iy;
  std::size_t state = 0;  // the state of the successor being judged
  bool trapped = true;

  Arrival Arrive(const Successor& next, bool in_field) {
    if (!in_field || (next.ix == start_ix && next.iy == start_iy)) {
      trapped = false;  // out in the open field, or back at the start: inconclusive
      return Arrival::kStopExpanding;
    }
    state = lattice.StateIndex(next.ix, next.iy, next.end.heading);
    return s.states[state].stamp == probe ? Arrival::kNextPrimitive : Arrival::kCheckClear;
  }
  bool Take(const Successor& next) {
    if (s.nodes.size() >= s.nodes.capacity()) {
      trapped = false;
      return false;
    }
    s.states[state].stamp = probe;
    s.nodes.push_back({next.end, 0.0, -1, -1});
    s.chain.push_back(static_cast<int>(s.nodes.size() - 1));  // the probe's stack
    return true;
  }
};

// The search's successors: a state not closed and not reached more cheaply is opened with
// f = g + the heuristic.
struct OpenSuccessors {
  const ObstaclePlanJob& job;
  ObstaclePlannerScratch& s;
  const Lattice& lattice;
  std::uint32_t generation;
  double from_g;  // the expanded node's
  int from_index;
  ObstaclePlannerScratch::State* state = nullptr;  // the successor's being judged
  double g = 0.0;                                  // and its cost from the start

  Arrival Arrive(const Successor& next, bool in_field) {
    if (!in_field || (s.grid_blocked[lattice.WallCellOf(next.ix, next.iy)] & kBarrier)) {
      return Arrival::kNextPrimitive;
    }
    state = &s.states[lattice.StateIndex(next.ix, next.iy, next.end.heading)];
    g = from_g + next.length;
    if (state->stamp == generation && (state->closed || g >= state->best_g)) {
      return Arrival::kNextPrimitive;
    }
    return Arrival::kCheckClear;
  }
  bool Take(const Successor& next) {
    const double h = Heuristic(job, lattice, s, next.end, next.ix, next.iy);
    if (!std::isfinite(h)) return true;  // no obstacle-free path from there (cannot happen)
    if (s.nodes.size() >= s.nodes.capacity()) return true;  // never reallocate inside a query
    *state = {generation, static_cast<float>(g), 0};
    s.nodes.push_back({next.end, g, from_index, next.primitive});
    s.open.push_back({g + h, static_cast<int>(s.nodes.size() - 1)});
    std::push_heap(s.open.begin(), s.open.end(), std::greater<>());
    return true;
  }
};

// What one pass's search found: the node whose analytic shot ends the shortest path (-1: none)
// and that shot, and what it spent.
struct PassSearch {
  int best_node = -1;
  TurnPath best_shot;
  int expansions = 0;
  bool out_of_expansions = false;
};

// How a pass leaves the query: on to the next pass, on to the result, or done without a path.
enum class PassEnd { kNextPass, kLastPass, kNoPath };

// One query of an ObstaclePlanJob over its scratch, as a sequence of named steps: the trivial
// and obstacle-free answers first, then the lattice passes (each: lattice, scratch, probes,
// search, shortcut of the chain it found, shortening); the shortest path found is the answer.
class PlanQuery {
 public:
  explicit PlanQuery(const ObstaclePlanJob& job)
      : job_(job),
        s_(*job.scratch),
        out_(*job.path),
        res_(*job.result),
        r_(job.turning_radius),
        heading_(job.has_goal_heading ? &job.goal_heading : nullptr),
        scale_(std::max(glm::length(job.start.position), glm::length(job.goal))) {}

  void Run() {
    ResetOutputs();
    if (AlreadyThere() || TakeDirectPath()) return Finish();
    start_shot_ = Shot(job_.start, job_);
    if (TakeGoodStartShot()) return Finish();
    for (int pass = 0; pass < job_.limits.passes; ++pass) {
      const PassEnd end = RunPass(pass);
      if (end == PassEnd::kNoPath) return;
      // Round the other side on the first pass's grid, before the finer passes refine the best.
      if (pass == 0) RunOtherSidePass();
      if (end == PassEnd::kLastPass) break;
    }
    if (out_.segments.empty()) {
      res_.outcome = PlanOutcome::kNoPath;
      res_.reason = "no path found within the budget";
      return;
    }
    Finish();
  }

 private:
  void ResetOutputs() {
    out_.Clear();
    out_.start = {job_.start.position, WrapPi(job_.start.heading)};
    out_.end = out_.start;
    res_ = ObstaclePlanResult{};
  }

  // Already there (with the heading asked for, if any): the empty path. A different final
  // heading at the same point is a Dubins loop (d = 0 is well-conditioned), found like any goal.
  bool AlreadyThere() {
    const bool there = job_.goal == job_.start.position &&
                       (!job_.has_goal_heading || NearAngle(job_.goal_heading, job_.start.heading));
    if (there) res_.direct = true;
    return there;
  }

  // The obstacle-free path, exactly as turn/go-to would drive it, when it is already clear.
  bool TakeDirectPath() {
    const TurnPath direct =
        job_.has_goal_heading ? DubinsPath(job_.start, {job_.goal, job_.goal_heading}, r_)
                              : ArcLinePath(job_.start.position, job_.start.heading, r_, job_.goal);
    if (!Reaches(direct, {job_.goal, job_.goal_heading}, job_.has_goal_heading) ||
        !TurnPathClear(*job_.obstacles, direct, job_.clearance)) {
      return false;
    }
    AppendTurnPath(direct, scale_, &out_);
    out_.length = direct.length;
    res_.direct = true;
    return true;
  }

  // Other obstacle-free words before searching (a clear LSR when the shortest RSR is blocked):
  // taken at once when within kGoodShot of the obstacle-free length (so within that much of the
  // best possible); a longer one (a loop round an obstacle) only bounds the first pass.
  bool TakeGoodStartShot() {
    if (!start_shot_.ok() || start_shot_.length > kGoodShot * FreeLength(job_.start, job_)) {
      return false;
    }
    s_.candidate.Clear();
    AppendTurnPath(start_shot_, scale_, &s_.candidate);
    Adopt(s_.candidate);
    return true;
  }

  // Hybrid A*, in passes: the first on the coarsest lattice finds a path (or shows there is
  // none); each later one, on a finer lattice shifted against the one before, looks only for a
  // shorter path (pruned by the best so far) with the budget left.
  PassEnd RunPass(int pass) {
    const int budget = PassBudget(pass);
    if (budget < 1) return PassEnd::kLastPass;
    // Nothing can be more than this much shorter than the obstacle-free length: no finer pass.
    if (pass > 0 && out_.length <= kWorthAnotherPass * FreeLength(job_.start, job_)) {
      return PassEnd::kLastPass;
    }
    res_.passes = pass + 1;
    const Lattice lattice = MakeLattice(job_, pass);
    PrepareScratch(job_, lattice, budget, pass == 0, &s_);
    s_.nodes.clear();
    s_.open.clear();
    int sx, sy;
    if (!lattice.grid.CellOf(job_.start.position, &sx, &sy)) {
      res_.reason = "internal error: the start is outside the search field";
      return PassEnd::kNoPath;
    }
    if (pass == 0 && GoalEnclosed(lattice.walls, job_.start.position, job_.goal, &s_)) {
      res_.reason = "no path: the goal is enclosed (walled off from the start)";
      return PassEnd::kNoPath;
    }
    if (pass == 0 && job_.has_goal_heading && NoRoomForGoalHeading(lattice, sx, sy)) {
      return PassEnd::kNoPath;
    }
    const PassSearch search = Search(lattice, pass, sx, sy, budget);
    total_expansions_ += std::min(search.expansions, budget);
    res_.expansions = total_expansions_;
    res_.search_complete = !search.out_of_expansions;
    if (search.best_node < 0) {
      if (out_.segments.empty()) {
        res_.outcome = PlanOutcome::kNoPath;
        res_.reason = search.out_of_expansions
                          ? "no path found within the budget"
                          : "no path: every reachable state was searched (the goal is enclosed, "
                            "or there is no room to turn)";
        return PassEnd::kNoPath;
      }
      // Nothing shorter on this lattice.
    } else {
      TraceChain(search.best_node);
      ShortcutChain(lattice, search.best_shot);
      BuildCandidate(lattice, search.best_shot);
      Adopt(s_.candidate);
    }
    return total_expansions_ >= job_.limits.budget ? PassEnd::kLastPass : PassEnd::kNextPass;
  }

  // The first pass may spend the whole budget; a later one refines what the passes before it
  // found, so at most a share of their expansions (and never more than is left).
  int PassBudget(int pass) const {
    if (pass == 0) return job_.limits.budget;
    return std::min(job_.limits.budget - total_expansions_,
                    static_cast<int>(kPassShare * total_expansions_) + kPassExtra);
  }

  // A final heading with no room to turn: driving backwards from the goal is driving forwards
  // from the goal turned round, so a small search from there that runs out of states (without
  // coming near the start) shows, at the search's resolution, that no path arrives with that
  // heading: a few hundred expansions instead of the whole field's.
  bool NoRoomForGoalHeading(const Lattice& lattice, int sx, int sy) {
    ProbeSuccessors probe{s_, lattice, NextGeneration(&s_), sx, sy};
    const Pose2 reversed{job_.goal, WrapPi(job_.goal_heading + kPi)};
    int gx = 0, gy = 0;
    // A goal the field's cells do not hold (rounding at extreme coordinates) leaves the probe
    // inconclusive; its cell would index past the stamps.
    probe.trapped = lattice.grid.CellOf(job_.goal, &gx, &gy);
    std::vector<int>& stack = s_.chain;
    stack.clear();
    if (probe.trapped) {
      s_.nodes.push_back({reversed, 0.0, -1, -1});
      s_.states[lattice.StateIndex(gx, gy, reversed.heading)].stamp = probe.probe;
      stack.push_back(0);
    }
    int probed = 0;
    while (probe.trapped && !stack.empty()) {
      if (++probed > kProbeExpansions) {
        probe.trapped = false;
        break;
      }
      const Pose2 from = s_.nodes[stack.back()].pose;
      stack.pop_back();
      ExpandPrimitives(job_, lattice, from, &probe);
    }
    s_.nodes.clear();
    if (!probe.trapped) return false;
    res_.reason =
        "no path: there is no room to arrive with the goal heading (every state that could "
        "reach the goal was searched)";
    res_.expansions = probed;
    return true;
  }

  // The pass's A* from the start: each expanded state tries the analytic shot to the goal (the
  // best node is the one whose shot ends the shortest path) and opens its primitives. It stops
  // when the smallest f left is kStopFactor over the best path, kImproveExpansions after the
  // first path found, or at the budget.
  PassSearch Search(const Lattice& lattice, int pass, int sx, int sy, int budget) {
    const std::uint32_t gen = NextGeneration(&s_);
    s_.nodes.push_back({out_.start, 0.0, -1, -1});
    s_.states[lattice.StateIndex(sx, sy, job_.start.heading)] = {gen, 0.0f, 0};
    s_.open.push_back({Heuristic(job_, lattice, s_, out_.start, sx, sy), 0});

    PassSearch found;
    // A later pass only takes a path shorter than the best so far.
    double best_total = out_.segments.empty() ? kInfinity : kPassSlack * out_.length;
    if (pass == 0 && !other_side_ && start_shot_.ok()) {
      best_total = start_shot_.length;
      found.best_node = 0;
      found.best_shot = start_shot_;
    }
    bool found_in_search = false;
    int expansions_after_found = 0;
    while (!s_.open.empty()) {
      std::pop_heap(s_.open.begin(), s_.open.end(), std::greater<>());
      const auto [f, index] = s_.open.back();
      s_.open.pop_back();
      if (f >= kStopFactor * best_total) break;
      const ObstaclePlannerScratch::Node node = s_.nodes[index];
      int ix, iy;
      lattice.grid.CellOf(node.pose.position, &ix, &iy);
      ObstaclePlannerScratch::State& state =
          s_.states[lattice.StateIndex(ix, iy, node.pose.heading)];
      if (state.closed && state.stamp == gen) continue;
      if (node.g > state.best_g + 1e-6 * (1.0 + node.g)) continue;  // a better node reached it
      state.closed = 1;
      if (found_in_search && ++expansions_after_found > kImproveExpansions) break;
      if (++found.expansions > budget) {
        found.out_of_expansions = true;
        break;
      }
      // The analytic shot from every expanded state: cheap next to the search, and it is what
      // reaches the goal exactly.
      // Far from the goal a shot rarely clears, so it is tried on every eighth state only.
      TurnPath shot = (found.expansions & 7) == 1 || f - node.g < 12.0 * lattice.step
                          ? Shot(node.pose, job_, best_total - node.g)
                          : TurnPath{};
      if (other_side_ && shot.ok() && CrossesBarrier(lattice, shot)) shot = TurnPath{};
      if (shot.ok() && node.g + shot.length < best_total) {
        best_total = node.g + shot.length;
        found.best_node = index;
        found.best_shot = shot;
        found_in_search = true;
      }
      OpenSuccessors successors{job_, s_, lattice, gen, node.g, index};
      ExpandPrimitives(job_, lattice, node.pose, &successors);
    }
    return found;
  }

  // The lattice passes refine the way the first one found, and its weighted heuristic leads it
  // round the side of an obstacle where the 2-D way is shortest, which for a unit with a turning
  // radius can be the longer side (issue 44: on 4 of 300 generated cases of the OMPL comparison
  // the way round the other side is 1.4-5.2% shorter). So one more pass on the first lattice with a
  // barrier from the obstacle the best path detours round most, out through the side it passed: the
  // best way round the other side, adopted when shorter. Right after the first pass, on its lattice
  // and obstacle cells (still in the scratch), with the budget left, at most half as many
  // expansions as the first pass; only when the best is over kWorthOtherSide of the obstacle-free
  // length.
  void RunOtherSidePass() {
    if (!job_.limits.other_side || out_.segments.empty() ||
        out_.length <= kWorthOtherSide * FreeLength(job_.start, job_)) {
      return;
    }
    const int budget =
        std::min(job_.limits.budget - total_expansions_, total_expansions_ / 2 + kPassExtra);
    if (budget < 1) return;
    const Lattice lattice = MakeLattice(job_, 0);
    int sx, sy;
    if (!lattice.grid.CellOf(job_.start.position, &sx, &sy) || !RaiseBarrier(lattice)) return;
    GridDistances(lattice.walls, job_.goal, true, &s_);  // again: round the barrier
    s_.nodes.clear();
    s_.open.clear();
    other_side_ = true;
    const PassSearch search = Search(lattice, 0, sx, sy, budget);
    other_side_ = false;
    total_expansions_ += std::min(search.expansions, budget);
    res_.expansions = total_expansions_;
    if (search.best_node < 0) return;
    TraceChain(search.best_node);
    ShortcutChain(lattice, search.best_shot);
    BuildCandidate(lattice, search.best_shot);
    Adopt(s_.candidate);
  }

  // The barrier: cells (a band three wide) on the ray from the middle of the blocked piece of
  // the straight way start-goal, at the obstacle the best path detours round most, out to the
  // field's edge on the side the path took. False (no barrier) when the straight way is clear or
  // the band would hold the start or the goal.
  bool RaiseBarrier(const Lattice& lattice) {
    const Grid& grid = lattice.grid;
    const glm::dvec2 a = job_.start.position, b = job_.goal;
    const double straight = glm::length(b - a);
    if (!(straight > 0.0)) return false;
    const glm::dvec2 along = (b - a) / straight, normal{-along.y, along.x};
    // The path's apex: its point farthest from the straight line.
    glm::dvec2 apex = a;
    double apex_offset = 0.0;
    const double sample = 0.5 * grid.cell;
    for (double d = 0.0; d < out_.length; d += sample) {
      const glm::dvec2 p = SamplePlannedPath(out_, d).position;
      const double offset = Cross(along, p - a);
      if (std::abs(offset) > std::abs(apex_offset)) {
        apex_offset = offset;
        apex = p;
      }
    }
    if (apex_offset == 0.0) return false;
    // The blocked piece of the straight way nearest the apex's foot.
    const double foot = glm::dot(apex - a, along);
    double best_gap = kInfinity, best_middle = 0.0;
    double run_start = -1.0;
    for (double t = 0.0;; t += sample) {
      const double at = std::min(t, straight);
      const bool blocked = job_.obstacles->FirstWithin(a + at * along, job_.clearance) >= 0;
      if (blocked && run_start < 0.0) run_start = at;
      if ((!blocked || at >= straight) && run_start >= 0.0) {
        const double middle = 0.5 * (run_start + at);
        if (std::abs(middle - foot) < best_gap) {
          best_gap = std::abs(middle - foot);
          best_middle = middle;
        }
        run_start = -1.0;
      }
      if (at >= straight) break;
    }
    if (!std::isfinite(best_gap)) return false;
    const glm::dvec2 from = a + best_middle * along;
    const glm::dvec2 out = apex_offset > 0.0 ? normal : -normal;
    const double reach = (grid.nx + grid.ny) * grid.cell;
    int start_cell = -1, goal_cell = -1, ix, iy;
    if (grid.CellOf(a, &ix, &iy)) start_cell = iy * grid.nx + ix;
    if (grid.CellOf(b, &ix, &iy)) goal_cell = iy * grid.nx + ix;
    for (double t = 0.0; t <= reach; t += sample) {
      if (!grid.CellOf(from + t * out, &ix, &iy)) break;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int jx = ix + dx, jy = iy + dy;
          if (jx < 0 || jy < 0 || jx >= grid.nx || jy >= grid.ny) continue;
          const int j = jy * grid.nx + jx;
          if (j == start_cell || j == goal_cell) return false;
          MarkBarrier(lattice, jx, jy);
        }
      }
    }
    return true;
  }

  // The lattice's cell (ix, iy) is a barrier cell: each of its wall cells.
  void MarkBarrier(const Lattice& lattice, int ix, int iy) {
    const int k = lattice.subdivision;
    for (int sy = 0; sy < k; ++sy) {
      for (int sx = 0; sx < k; ++sx) {
        s_.grid_blocked[(iy * k + sy) * lattice.walls.nx + ix * k + sx] |= kBarrier;
      }
    }
  }

  // Whether a shot passes a barrier cell (sampled every half cell).
  bool CrossesBarrier(const Lattice& lattice, const TurnPath& path) const {
    const double sample = 0.5 * lattice.grid.cell;
    for (double d = 0.0; d <= path.length; d += sample) {
      int ix, iy;
      if (lattice.grid.CellOf(SampleTurnPath(path, d).position, &ix, &iy) &&
          (s_.grid_blocked[lattice.WallCellOf(ix, iy)] & kBarrier)) {
        return true;
      }
    }
    return false;
  }

  // The nodes from the start to `best_node`, walked back through the parents.
  void TraceChain(int best_node) {
    s_.chain.clear();
    for (int i = best_node; i >= 0; i = s_.nodes[i].parent) s_.chain.push_back(i);
    std::reverse(s_.chain.begin(), s_.chain.end());
  }

  // Shortcut, by dynamic programming over the poses the search passed through: the shortest way
  // from each pose to the goal using the goal shot, clear Dubins hops to later poses, or the
  // search's own primitive to the next pose. Each candidate is bounded by the best way found so
  // far from that pose, so a longer word (a near-full loop round an obstacle) is never taken:
  // the result is never longer than the search's path, never bends tighter than the radius, and
  // every piece is checked clear. Later poses first, so each pose sees its successors' best.
  void ShortcutChain(const Lattice& lattice, const TurnPath& best_shot) {
    const int last = static_cast<int>(s_.chain.size()) - 1;
    GrowTo(&s_.chain_cost, s_.chain.size());
    GrowTo(&s_.chain_next, s_.chain.size());
    s_.chain_cost[last] = best_shot.length;
    s_.chain_next[last] = -1;  // -1: the shot to the goal
    for (int i = last - 1; i >= 0; --i) {
      const Pose2& from = s_.nodes[s_.chain[i]].pose;
      const double step_length = s_.nodes[s_.chain[i + 1]].g - s_.nodes[s_.chain[i]].g;
      double best = step_length + s_.chain_cost[i + 1];
      int next = i + 1;
      const TurnPath to_goal = Shot(from, job_, best);
      if (to_goal.ok() && to_goal.length < best) {
        best = to_goal.length;
        next = -1;
      }
      for (int j = i + 2; j <= last; ++j) {
        const double bound = best - s_.chain_cost[j];
        if (bound <= 0.0) continue;
        const TurnPath hop = ClearDubins(from, s_.nodes[s_.chain[j]].pose, r_, *job_.obstacles,
                                         job_.clearance, bound);
        if (hop.ok() && hop.length + s_.chain_cost[j] < best) {
          best = hop.length + s_.chain_cost[j];
          next = j;
        }
      }
      s_.chain_cost[i] = best;
      s_.chain_next[i] = next;
    }
  }

  // The shortcut chain's path into the scratch's candidate: each hop's word found again (the
  // same bound finds the same word), or the search's own primitive.
  void BuildCandidate(const Lattice& lattice, const TurnPath& best_shot) {
    const int last = static_cast<int>(s_.chain.size()) - 1;
    PlannedPath& cand = s_.candidate;
    cand.Clear();
    cand.start = out_.start;
    TurnSegment prim[2];
    for (int i = 0;;) {
      const Pose2& from = s_.nodes[s_.chain[i]].pose;
      const int next = s_.chain_next[i];
      if (next < 0) {
        const TurnPath to_goal =
            i == last ? best_shot : Shot(from, job_, s_.chain_cost[i] * (1.0 + 1e-12) + 1e-12);
        AppendTurnPath(to_goal, scale_, &cand);
        break;
      }
      if (next > i + 1) {
        AppendTurnPath(
            ClearDubins(from, s_.nodes[s_.chain[next]].pose, r_, *job_.obstacles, job_.clearance,
                        (s_.chain_cost[i] - s_.chain_cost[next]) * (1.0 + 1e-12) + 1e-12),
            scale_, &cand);
      } else {  // the search's own primitive
        const int primitive = s_.nodes[s_.chain[next]].primitive;
        const int count =
            lattice.Move(from, r_, primitive / kStepScales, primitive % kStepScales, prim);
        for (int k = 0; k < count; ++k) {
          cand.segments.push_back(prim[k]);
          cand.length += prim[k].length;
        }
      }
      i = next;
    }
  }

  // The shortening pass on a legal `candidate`; the shorter of the two is copied into the output
  // when it beats what that holds (an empty output holds nothing yet).
  void Adopt(PlannedPath& candidate) {
    candidate.start = out_.start;
    candidate.end =
        candidate.segments.empty() ? candidate.start : TurnSegmentEnd(candidate.segments.back());
    candidate.end.position = job_.goal;
    if (job_.has_goal_heading) candidate.end.heading = WrapPi(job_.goal_heading);
    const Status legal = CheckPlannedPath(candidate, job_.start, job_.goal, heading_, r_,
                                          job_.clearance, *job_.obstacles);
    if (!legal.ok()) return;  // not legal (cannot happen): never adopted
    const PlannedPath* best = &candidate;
    if (job_.limits.shorten_budget > 0 && Shorten(candidate)) best = &s_.shortened;
    if (!out_.segments.empty() && !(best->length < out_.length)) return;
    out_.segments.assign(best->segments.begin(), best->segments.end());  // keeps out's buffer
    out_.length = best->length;
    out_.end = best->end;
  }

  // PathShortenJob on `candidate` into the scratch's `shortened`: whether it changed the path.
  bool Shorten(const PlannedPath& candidate) {
    PathShortenResult shortened;
    PathShortenJob job;
    job.path = &candidate;
    job.goal = job_.goal;
    job.has_goal_heading = job_.has_goal_heading;
    job.goal_heading = job_.goal_heading;
    job.turning_radius = r_;
    job.clearance = job_.clearance;
    job.obstacles = job_.obstacles;
    // All the query's shortenings together check at most shorten_budget x passes words, as the
    // limits promise: the other-side pass's shortening takes what the passes before it left.
    const long long query_words =
        static_cast<long long>(job_.limits.shorten_budget) * job_.limits.passes;
    job.budget = static_cast<int>(
        std::min<long long>(job_.limits.shorten_budget, query_words - res_.shorten_words));
    // A later pass's path is only worth the anchor moves when its shortcut comes within 2% of
    // the best so far (the moves gain about 1%).
    if (!out_.segments.empty()) job.options.give_up_above = kWorthMoving * out_.length;
    job.scratch = &s_.shorten;
    job.out = &s_.shortened;
    job.result = &shortened;
    if (!job.Run().ok()) return false;
    res_.shorten_words += shortened.words;
    return shortened.changed;
  }

  // The output's end pose, checked legal, landed exactly on the goal (the last segment's end is
  // rounding away from it).
  void Finish() {
    out_.end = out_.segments.empty() ? out_.start : TurnSegmentEnd(out_.segments.back());
    const Status check = CheckPlannedPath(out_, job_.start, job_.goal, heading_, r_, job_.clearance,
                                          *job_.obstacles);
    if (!check.ok()) {
      out_.Clear();
      out_.end = out_.start;
      res_.outcome = PlanOutcome::kNoPath;
      res_.reason = "internal error: the planned path failed the legality check";
      return;
    }
    out_.end.position = job_.goal;
    if (job_.has_goal_heading) out_.end.heading = WrapPi(job_.goal_heading);
    res_.outcome = PlanOutcome::kFound;
  }

  const ObstaclePlanJob& job_;
  ObstaclePlannerScratch& s_;
  PlannedPath& out_;
  ObstaclePlanResult& res_;
  const double r_;
  const double* const heading_;  // the goal heading, or null
  const double scale_;           // the field's coordinate scale (what rounding is relative to)
  TurnPath start_shot_;          // the analytic shot from the start (bounds the first pass)
  int total_expansions_ = 0;     // over the passes so far
  bool other_side_ = false;      // the search is the other-side pass (behind a barrier)
};

}  // namespace

Status ObstaclePlanJob::RunOnce() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  PlanQuery(*this).Run();
  return {};
}

Status ObstaclePlanJob::Run() const {
  Status status = RunOnce();
  if (!status.ok() || result->found() || std::strncmp(result->reason, "internal error", 14) != 0) {
    return status;
  }
  // A goal within rounding of the start (fuzz: 5.7e-12 apart, the goal just behind): the words
  // between such poses can be degenerate (centres from noise, a zero-length word that is not
  // tangent), failing the check. Then the goal is taken as the start's own point, where they are
  // exact; the path still ends within CheckPlannedPath's tolerance of the goal asked for. (Only
  // then: 3.7e-9 apart the Dubins loop is exact and is what ../shared/reference expects.)
  const double scale = std::max(glm::length(start.position), glm::length(goal));
  if (goal == start.position || glm::length(goal - start.position) > 1e-10 * std::max(1.0, scale)) {
    return status;
  }
  ObstaclePlanJob at_start = *this;
  at_start.goal = start.position;
  status = at_start.RunOnce();
  if (!status.ok() || !result->found()) return status;
  const double* heading = has_goal_heading ? &goal_heading : nullptr;
  if (!CheckPlannedPath(*path, start, goal, heading, turning_radius, clearance, *obstacles).ok()) {
    path->Clear();
    path->end = path->start;
    result->outcome = PlanOutcome::kNoPath;
    result->reason = "internal error: the planned path failed the legality check";
    return {};
  }
  path->end.position = goal;
  return {};
}

int PlanBudgetFromMilliseconds(double milliseconds) {
  if (!(milliseconds > 0.0)) return 1;
  const double expansions = milliseconds * kPlanExpansionsPerMs;
  return expansions >= 1e8 ? 100000000 : std::max(1, static_cast<int>(expansions));
}

Status PathShortenJob::Validate() const {
  if (path == nullptr || obstacles == nullptr || scratch == nullptr || out == nullptr ||
      result == nullptr) {
    return MakeError("", 0, 0, "shorten: path, obstacles, scratch, out and result are required");
  }
  if (out == path) return MakeError("", 0, 0, "shorten: out: expected a path other than `path`");
  if (!IsFinite(goal) || (has_goal_heading && !std::isfinite(goal_heading))) {
    return MakeError("", 0, 0, "shorten: goal: expected a finite point and heading");
  }
  if (!(turning_radius > 0.0) || !(turning_radius <= kMaxRouteCoordinate)) {
    return MakeError(
        "", 0, 0,
        "shorten: radius: expected a number > 0 and <= 1e15, found " + Num(turning_radius));
  }
  if (!(clearance >= 0.0) || !(clearance <= kMaxRouteCoordinate)) {
    return MakeError(
        "", 0, 0,
        "shorten: clearance: expected a number >= 0 and <= 1e15, found " + Num(clearance));
  }
  if (budget < 0) {
    return MakeError("", 0, 0,
                     "shorten: budget: expected a number >= 0, found " + std::to_string(budget));
  }
  if (!(options.anchor_spacing > 0.0) || !(options.anchor_spacing <= 1e6)) {
    return MakeError("", 0, 0,
                     "shorten: options.anchor_spacing: expected a number > 0 and <= 1e6, found " +
                         Num(options.anchor_spacing));
  }
  if (!(options.last_step > 0.0) || !(options.last_step <= kFirstStep)) {
    return MakeError("", 0, 0,
                     "shorten: options.last_step: expected a number > 0 and <= 0.5, found " +
                         Num(options.last_step));
  }
  if (options.sweeps < 1 || options.sweeps > 100) {
    return MakeError(
        "", 0, 0,
        "shorten: options.sweeps: expected 1 to 100, found " + std::to_string(options.sweeps));
  }
  const double* heading = has_goal_heading ? &goal_heading : nullptr;
  const Status legal =
      CheckPlannedPath(*path, path->start, goal, heading, turning_radius, clearance, *obstacles);
  if (!legal.ok()) return MakeError("", 0, 0, "shorten: path: " + legal.error().message);
  return {};
}

namespace {

// One run of a PathShortenJob over its scratch, as named steps: anchors along the path, the
// shortcut over them, the chain of links the best way passes, the anchor moves that shorten the
// links, and the path built again from the links.
class Shortening {
 public:
  explicit Shortening(const PathShortenJob& job)
      : job_(job),
        in_(*job.path),
        s_(*job.scratch),
        res_(*job.result),
        r_(job.turning_radius),
        heading_(job.has_goal_heading ? &job.goal_heading : nullptr),
        scale_(std::max(glm::length(job.path->start.position), glm::length(job.goal))),
        eps_(1e-9 * std::max(1.0, job.path->length)) {}

  void Run() {
    res_ = PathShortenResult{};
    res_.length_before = res_.length_after = in_.length;
    if (in_.segments.empty() || job_.budget == 0) return KeepInput();
    ReserveScratch();
    PlaceAnchors();
    ShortcutAnchors();
    // Not worth moving anchors when the shortcut alone is not close to what must be beaten.
    if (!(s_.cost[0] < job_.options.give_up_above)) {
      res_.words = words_;
      return KeepInput();
    }
    TraceLinks();
    MoveAnchors();
    res_.words = words_;
    BuildPath();
    if (!Accept()) KeepInput();
  }

 private:
  void KeepInput() {
    PlannedPath& out = *job_.out;
    out.segments.assign(in_.segments.begin(), in_.segments.end());
    out.length = in_.length;
    out.start = in_.start;
    out.end = in_.end;
    res_.length_after = in_.length;
    res_.changed = false;
  }

  void ReserveScratch() {
    const std::size_t reserve = kMaxAnchors + 1;
    if (s_.anchors.capacity() >= reserve) return;
    s_.anchors.reserve(reserve);
    s_.along.reserve(reserve);
    s_.cost.reserve(reserve);
    s_.next.reserve(reserve);
    s_.via_path.reserve(reserve);
    s_.chain.reserve(reserve);
  }

  // The words checked count against the budget: past it (or with no length to beat) none is
  // checked and none is found.
  TurnPath Dubins(const Pose2& a, const Pose2& b, double max_length) {
    if (words_ >= job_.budget || !(max_length > 0.0)) return TurnPath{};
    ++words_;
    return ClearDubins(a, b, r_, *job_.obstacles, job_.clearance, max_length);
  }
  TurnPath ShotFrom(const Pose2& a, double max_length) {
    if (words_ >= job_.budget || !(max_length > 0.0)) return TurnPath{};
    ++words_;
    return ShotTo(a, job_.goal, heading_, r_, *job_.obstacles, job_.clearance, max_length);
  }
  bool WordsLeft() const { return words_ < job_.budget; }

  // Anchors along the path, at most kMaxAnchors, about anchor_spacing radii apart; the last is
  // the path's end.
  void PlaceAnchors() {
    const double spacing =
        std::max(job_.options.anchor_spacing * r_, in_.length / (kMaxAnchors - 1));
    const int n = std::min(kMaxAnchors, static_cast<int>(std::ceil(in_.length / spacing)) + 1);
    s_.anchors.clear();
    s_.along.clear();
    for (int k = 0; k + 1 < n; ++k) {
      s_.along.push_back(k * spacing);
      s_.anchors.push_back(SamplePlannedPath(in_, k * spacing));
    }
    s_.along.push_back(in_.length);
    s_.anchors.push_back(in_.end);
  }

  // Dynamic programming from the end back: from each anchor the shortest of its own piece to
  // the next one, a clear Dubins hop to any later anchor, or the shot to the goal, each bounded
  // by the best found so far (so never longer than the path it replaces).
  void ShortcutAnchors() {
    const int count = static_cast<int>(s_.anchors.size());
    s_.cost.assign(count, 0.0);
    s_.next.assign(count, -2);
    s_.via_path.assign(count, 0);
    for (int i = count - 2; i >= 0; --i) {
      const Pose2& from = s_.anchors[i];
      double best = (s_.along[i + 1] - s_.along[i]) + s_.cost[i + 1];
      int next = i + 1;
      std::uint8_t via = 1;
      const TurnPath to_goal = ShotFrom(from, best);
      if (to_goal.ok() && to_goal.length < best) {
        best = to_goal.length;
        next = -1;
        via = 0;
      }
      for (int j = count - 1; j > i; --j) {
        const double bound = best - s_.cost[j];
        if (glm::length(s_.anchors[j].position - from.position) >= bound) continue;
        const TurnPath hop = Dubins(from, s_.anchors[j], bound);
        if (hop.ok() && hop.length + s_.cost[j] < best) {
          best = hop.length + s_.cost[j];
          next = j;
          via = 0;
        }
      }
      s_.cost[i] = best;
      s_.next[i] = next;
      s_.via_path[i] = via;
    }
  }

  // The chain of anchors the best way passes; link k runs from chain[k] to chain[k + 1], and from
  // the last one by the shot to the goal when shot_end_ (else the last is the path's end pose).
  void TraceLinks() {
    const int count = static_cast<int>(s_.anchors.size());
    s_.chain.clear();
    shot_end_ = false;
    for (int i = 0;;) {
      PathShortenScratch::Link link;
      link.from = s_.anchors[i];
      link.along = s_.along[i];
      if (i == count - 1) {
        s_.chain.push_back(link);
        break;
      }
      const int next = s_.next[i];
      link.length = next < 0 ? s_.cost[i] : s_.cost[i] - s_.cost[next];
      // along >= 0 on a link means "the input's own piece": only while via_path.
      if (!s_.via_path[i]) link.along = -1.0 - s_.along[i];
      s_.chain.push_back(link);
      if (next < 0) {
        shot_end_ = true;
        break;
      }
      i = next;
    }
  }

  // Link k is the input's piece when chain[k].along >= 0; its far end is chain[k + 1] unmoved.
  bool IsPiece(int k) const { return s_.chain[k].along >= 0.0; }
  double UnmovedAlong(int k) const {
    const double a = s_.chain[k].along;
    return a >= 0.0 ? a : -1.0 - a;
  }

  // Each free anchor (not the start, not a fixed end pose) moved while that shortens its two
  // links: steps from kFirstStep radii halving down to options.last_step, up to options.sweeps
  // sweeps a step while a sweep improves.
  void MoveAnchors() {
    for (double step = kFirstStep * r_; step >= job_.options.last_step * r_ && WordsLeft();
         step *= 0.5) {
      bool improved = true;
      for (int sweep = 0; improved && sweep < job_.options.sweeps && WordsLeft(); ++sweep) {
        improved = SweepAnchors(step);
      }
    }
  }

  // One sweep over the chain's anchors: whether any was dropped or moved.
  bool SweepAnchors(double step) {
    bool improved = false;
    for (int k = 1; k < static_cast<int>(s_.chain.size()) && WordsLeft(); ++k) {
      const bool last = k == static_cast<int>(s_.chain.size()) - 1;
      if (last && !shot_end_) break;  // the path's end pose (the goal heading) stays
      if (DropAnchor(k, last)) {
        --k;
        improved = true;
        continue;
      }
      if (MoveAnchor(k, last, step)) improved = true;
    }
    return improved;
  }

  // Anchor k dropped when the hop past it is shorter than its two links.
  bool DropAnchor(int k, bool last) {
    const Pose2 prev = s_.chain[k - 1].from;
    const double old = s_.chain[k - 1].length + s_.chain[k].length;
    const TurnPath past =
        last ? ShotFrom(prev, old - eps_) : Dubins(prev, s_.chain[k + 1].from, old - eps_);
    if (!past.ok() || !(past.length < old - eps_)) return false;
    s_.chain[k - 1].length = past.length;
    s_.chain[k - 1].along = -1.0 - UnmovedAlong(k - 1);
    s_.chain.erase(s_.chain.begin() + k);
    return true;
  }

  // Anchor k moved by `step` sideways, along (options.along_moves) and in heading, each move
  // kept while it shortens the two links: whether one was kept.
  bool MoveAnchor(int k, bool last, double step) {
    // (sideways, along, heading) in steps; the last two only with options.along_moves.
    static constexpr double kMoves[10][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1},  {0, 0, -1},
                                             {1, 0, 1}, {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1},
                                             {0, 1, 0}, {0, -1, 0}};
    const int move_count = job_.options.along_moves ? 10 : 8;
    const Pose2 prev = s_.chain[k - 1].from;
    double old = s_.chain[k - 1].length + s_.chain[k].length;
    bool moved_any = false;
    for (int mi = 0; mi < move_count; ++mi) {
      const double* move = kMoves[mi];
      const Pose2& at = s_.chain[k].from;
      const glm::dvec2 along_dir = Direction(at.heading);
      const glm::dvec2 normal{-along_dir.y, along_dir.x};
      const Pose2 moved{at.position + step * (move[0] * normal + move[1] * along_dir),
                        WrapPi(at.heading + move[2] * step / r_)};
      const glm::dvec2 far = last ? job_.goal : s_.chain[k + 1].from.position;
      const TurnPath left = Dubins(prev, moved, old - eps_ - glm::length(far - moved.position));
      if (!left.ok()) continue;
      const double right_bound = old - eps_ - left.length;
      const TurnPath right =
          last ? ShotFrom(moved, right_bound) : Dubins(moved, s_.chain[k + 1].from, right_bound);
      if (!right.ok() || left.length + right.length >= old - eps_) continue;
      s_.chain[k - 1].length = left.length;
      s_.chain[k - 1].along = -1.0 - UnmovedAlong(k - 1);
      s_.chain[k].from = moved;
      s_.chain[k].length = right.length;
      s_.chain[k].along = -1.0;  // moved: no longer on the input
      old = left.length + right.length;
      moved_any = true;
    }
    return moved_any;
  }

  // The output path: each link's word found again (the same bound finds the same word), or the
  // input's own piece.
  void BuildPath() {
    PlannedPath& o = *job_.out;
    o.Clear();
    o.start = in_.start;
    o.end = in_.start;
    const int m = static_cast<int>(s_.chain.size()) - 1;
    for (int k = 0; k <= m; ++k) {
      const PathShortenScratch::Link& link = s_.chain[k];
      const double bound = link.length * (1.0 + 1e-12) + 1e-12;
      if (k == m) {
        if (shot_end_) {
          AppendTurnPath(
              ShotTo(link.from, job_.goal, heading_, r_, *job_.obstacles, job_.clearance, bound),
              scale_, &o);
        }
        break;
      }
      if (IsPiece(k)) {
        AppendSubPath(in_, link.along, UnmovedAlong(k + 1), scale_, &o);
      } else {
        AppendTurnPath(ClearDubins(link.from, s_.chain[k + 1].from, r_, *job_.obstacles,
                                   job_.clearance, bound),
                       scale_, &o);
      }
    }
    o.end = o.segments.empty() ? o.start : TurnSegmentEnd(o.segments.back());
  }

  // The built path when it is shorter and legal, landed exactly on the goal.
  bool Accept() {
    PlannedPath& o = *job_.out;
    if (!(o.length < in_.length) ||
        !CheckPlannedPath(o, in_.start, job_.goal, heading_, r_, job_.clearance, *job_.obstacles)
             .ok()) {
      return false;
    }
    o.end.position = job_.goal;
    if (job_.has_goal_heading) o.end.heading = WrapPi(job_.goal_heading);
    res_.length_after = o.length;
    res_.changed = true;
    return true;
  }

  const PathShortenJob& job_;
  const PlannedPath& in_;
  PathShortenScratch& s_;
  PathShortenResult& res_;
  const double r_;
  const double* const heading_;  // the goal heading, or null
  const double scale_;           // the field's coordinate scale (what rounding is relative to)
  const double eps_;             // a shortening smaller than this is rounding
  int words_ = 0;                // words checked so far
  bool shot_end_ = false;        // the last link is the shot to the goal
};

}  // namespace

Status PathShortenJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  Shortening(*this).Run();
  return {};
}

}  // namespace md5stage
