#include "core/path/corner_rounding.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <utility>

#include "core/path/bezier_split.h"
#include "core/path/cubic_bezier.h"
#include "core/path/golden_section.h"

namespace md5stage {
namespace {

// Joins whose directions differ by more than this are corners (the path core flags 1e-7).
constexpr double kCornerAngle = 5e-8;
// Deflections this close to π are U-turns: no circle is tangent to both sides.
constexpr double kUTurnGap = 1e-9;
// Fillet radii are aimed this much (relative) above the radius the arcs need, so rounding errors
// and slivers shaved off for precision do not make a fitting corner tight.
constexpr double kRadiusMargin = 1e-6;
// A Bezier keeps this fraction of its length between two fillets (so its cut pieces keep a
// well-defined direction).
constexpr double kCurveKeep = 1e-6;
// Line pieces left between fillets are either empty or at least this long (relative to the size of
// the coordinates): a shorter line's direction is lost in rounding and would show as a kink.
constexpr double kLineSliver = 1e-7;
// Fillet tangent lengths (relative to the size of the coordinates) below which the arc's handles
// are too short for its direction and curvature to survive rounding of the coordinates.
constexpr double kMinTangent = 1e-6;
constexpr double kMinTangentTimesTurn = 2e-8;
constexpr int kNewtonSteps = 40;
constexpr double kMinDamping = 1e-3;
constexpr int kShrinkHalvings = 60;
// A shrunk fillet's radius is settled to this relative precision.
constexpr double kShrinkPrecision = 1e-7;
constexpr int kMaxAllocationRounds = 100;

glm::dvec2 LeftNormal(glm::dvec2 v) { return {-v.y, v.x}; }

double Heading(glm::dvec2 v) { return std::atan2(v.y, v.x); }

// One non-degenerate input segment, evaluated by parameter whatever its kind.
struct Piece {
  std::size_t source = 0;
  RouteSegment segment;
  const CubicBezier* curve = nullptr;  // null for a line
  double length = 0.0;
  int start_corner = -1;
  int end_corner = -1;

  bool is_line() const { return curve == nullptr; }
  glm::dvec2 start() const { return segment.points[0]; }
  glm::dvec2 end() const { return segment.end(); }
  glm::dvec2 Position(double t) const {
    return curve ? curve->Position(t) : start() + t * (end() - start());
  }
  glm::dvec2 Derivative(double t) const { return curve ? curve->Derivative(t) : end() - start(); }
  glm::dvec2 SecondDerivative(double t) const {
    return curve ? curve->SecondDerivative(t) : glm::dvec2(0.0);
  }
  double DistanceAt(double t) const { return curve ? curve->DistanceAtParameter(t) : t * length; }
  double ParameterAt(double d) const {
    return curve ? curve->ParameterAtDistance(d) : std::clamp(d / length, 0.0, 1.0);
  }
  double StartHeading() const {
    return curve ? curve->TangentHeading(0.0) : Heading(end() - start());
  }
  double EndHeading() const {
    return curve ? curve->TangentHeading(1.0) : Heading(end() - start());
  }
};

// A fillet between the end of one piece (cut at parameter s) and the start of the next (from u).
struct Fillet {
  bool ok = false;
  double radius = 0.0;
  double s = 1.0;
  double u = 0.0;
  double trim_in = 0.0;   // arc length cut off the end of the incoming piece
  double trim_out = 0.0;  // arc length cut off the start of the outgoing piece
  glm::dvec2 center{0.0}, start{0.0}, end{0.0};
  glm::dvec2 start_direction{1.0, 0.0}, end_direction{1.0, 0.0};  // unit tangents
  double sweep = 0.0;                                             // signed
};

struct Corner {
  int in_piece = 0;
  int out_piece = 0;
  glm::dvec2 point{0.0};
  double turn = 0.0;
  bool sharp = false;
  bool lines = false;  // both sides are lines: the fillet has a closed form
  Fillet fillet;
};

// Fillet of two lines for a tangent length (distance from the corner to where the arc begins).
Fillet LineFillet(const Piece& in, const Piece& out, const Corner& corner, double tangent) {
  Fillet fillet;
  const glm::dvec2 in_direction = glm::normalize(in.end() - in.start());
  const glm::dvec2 out_direction = glm::normalize(out.end() - out.start());
  const double side = corner.turn > 0.0 ? 1.0 : -1.0;
  fillet.ok = tangent > 0.0;
  fillet.radius = tangent / std::tan(0.5 * std::abs(corner.turn));
  fillet.trim_in = fillet.trim_out = tangent;
  fillet.s = std::clamp(1.0 - tangent / in.length, 0.0, 1.0);
  fillet.u = std::clamp(tangent / out.length, 0.0, 1.0);
  fillet.start = corner.point - tangent * in_direction;
  fillet.end = corner.point + tangent * out_direction;
  fillet.center = fillet.start + side * fillet.radius * LeftNormal(in_direction);
  fillet.start_direction = in_direction;
  fillet.end_direction = out_direction;
  fillet.sweep = corner.turn;
  return fillet;
}

// Fillet of radius r tangent to two pieces, at least one of them a curve: the centre lies on both
// sides' offset curves at distance r (towards the inside of the turn), found by Newton's method
// from the tangent lines' answer.
// `near` (if ok) is a solution for a nearby radius to start from.
Fillet CurveFillet(const Piece& in, const Piece& out, const Corner& corner, double radius,
                   double scale, const Fillet& near) {
  Fillet fillet;
  if (!(radius > 0.0)) return fillet;
  const double side = corner.turn > 0.0 ? 1.0 : -1.0;
  double s = near.s;
  double u = near.u;
  if (!near.ok) {
    const double guess = radius * std::tan(0.5 * std::abs(corner.turn));
    s = in.ParameterAt(in.length - std::min(guess, 0.99 * in.length));
    u = out.ParameterAt(std::min(guess, 0.99 * out.length));
  }

  struct Side {
    glm::dvec2 offset;  // point of the offset curve
    glm::dvec2 slope;   // its derivative by the parameter
    glm::dvec2 derivative;
    double stretch;  // 1 - side·r·curvature: <= 0 where the curve is tighter than the circle
  };
  auto evaluate = [&](const Piece& piece, double t, Side* result) {
    const glm::dvec2 d1 = piece.Derivative(t);
    const double speed = glm::length(d1);
    if (!(speed > 0.0)) return false;
    const double curvature = Cross(d1, piece.SecondDerivative(t)) / (speed * speed * speed);
    result->derivative = d1;
    result->offset = piece.Position(t) + side * radius * LeftNormal(d1 / speed);
    result->stretch = 1.0 - side * radius * curvature;
    result->slope = d1 * result->stretch;
    return true;
  };
  const double tolerance = 1e-12 * scale;
  Side a, b;
  if (!evaluate(in, s, &a) || !evaluate(out, u, &b)) return fillet;
  double error = glm::length(a.offset - b.offset);
  for (int step = 0; step < kNewtonSteps && error > tolerance; ++step) {
    const glm::dvec2 f = a.offset - b.offset;
    // Solve [a.slope, -b.slope]·(ds, du) = -f.
    const double det = Cross(a.slope, -b.slope);
    if (!(std::abs(det) > 0.0) || !std::isfinite(det)) return fillet;
    const double ds = Cross(-f, -b.slope) / det;
    const double du = Cross(a.slope, -f) / det;
    bool improved = false;
    for (double damping = 1.0; damping >= kMinDamping; damping *= 0.5) {
      const double s_try = std::clamp(s + damping * ds, 0.0, 1.0);
      const double u_try = std::clamp(u + damping * du, 0.0, 1.0);
      Side a_try, b_try;
      if (!evaluate(in, s_try, &a_try) || !evaluate(out, u_try, &b_try)) continue;
      const double error_try = glm::length(a_try.offset - b_try.offset);
      if (error_try < error) {
        s = s_try;
        u = u_try;
        a = a_try;
        b = b_try;
        error = error_try;
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
  if (!(error <= tolerance)) return fillet;
  // The circle must lie inside the turn on both sides and not be tighter than the curves there.
  if (!(a.stretch > 0.0) || !(b.stretch > 0.0)) return fillet;
  fillet.start_direction = glm::normalize(a.derivative);
  fillet.end_direction = glm::normalize(b.derivative);
  const double turning = Heading(fillet.end_direction) - Heading(fillet.start_direction);
  fillet.sweep = side > 0.0 ? WrapTwoPi(turning) : -WrapTwoPi(-turning);
  if (!(std::abs(fillet.sweep) > 0.0) || std::abs(fillet.sweep) > 1.5 * kPi) return fillet;
  fillet.ok = true;
  fillet.radius = radius;
  fillet.s = s;
  fillet.u = u;
  fillet.trim_in = in.length - in.DistanceAt(s);
  fillet.trim_out = out.DistanceAt(u);
  fillet.start = in.Position(s);
  fillet.end = out.Position(u);
  fillet.center = fillet.start + side * radius * LeftNormal(fillet.start_direction);
  return fillet;
}

// Appends the arc pieces from `start` to `end` (exact end points and end tangents).
void AppendArc(glm::dvec2 center, double radius, glm::dvec2 start, glm::dvec2 end,
               glm::dvec2 start_direction, glm::dvec2 end_direction, double sweep,
               std::vector<RouteSegment>* out) {
  const int pieces =
      std::max(1, static_cast<int>(std::ceil(std::abs(sweep) / kMaxArcPieceAngle - 1e-9)));
  const double step = sweep / pieces;
  const double handle = 4.0 / 3.0 * std::tan(std::abs(step) / 4.0) * radius;
  const double side = sweep > 0.0 ? 1.0 : -1.0;
  const double start_angle = Heading(start - center);
  glm::dvec2 from = start;
  glm::dvec2 from_direction = start_direction;
  for (int j = 1; j <= pieces; ++j) {
    glm::dvec2 to = end;
    glm::dvec2 to_direction = end_direction;
    if (j < pieces) {
      const double angle = start_angle + j * step;
      to = center + radius * Direction(angle);
      to_direction = side * LeftNormal(Direction(angle));
    }
    out->push_back(
        RouteSegment::Bezier(from, from + handle * from_direction, to - handle * to_direction, to));
    from = to;
    from_direction = to_direction;
  }
}

double CoordinateScale(const std::vector<RouteSegment>& segments) {
  double scale = 1.0;
  for (const RouteSegment& segment : segments) {
    for (const glm::dvec2& p : segment.points) {
      scale = std::max({scale, std::abs(p.x), std::abs(p.y)});
    }
  }
  return scale;
}

}  // namespace

double StandardArcMinRadius(double angle) {
  angle = std::abs(angle);
  if (!(angle > 0.0)) return 1.0;
  const double k = 4.0 / 3.0 * std::tan(angle / 4.0);
  const glm::dvec2 p0(1.0, 0.0);
  const glm::dvec2 p1(1.0, k);
  const glm::dvec2 p3(std::cos(angle), std::sin(angle));
  const glm::dvec2 p2 = p3 + k * glm::dvec2(std::sin(angle), -std::cos(angle));
  // B' = 3[(1-t)²(p1-p0) + 2t(1-t)(p2-p1) + t²(p3-p2)], B'' = 6[(1-t)(p2-2p1+p0) + t(p3-2p2+p1)].
  auto radius = [&](double t) {
    const double v = 1.0 - t;
    const glm::dvec2 d1 = 3.0 * (v * v * (p1 - p0) + 2.0 * t * v * (p2 - p1) + t * t * (p3 - p2));
    const glm::dvec2 d2 = 6.0 * (v * (p2 - 2.0 * p1 + p0) + t * (p3 - 2.0 * p2 + p1));
    const double speed = glm::length(d1);
    return speed * speed * speed / std::abs(Cross(d1, d2));
  };
  // The curve is symmetric; its radius dips once between an end and the middle.
  constexpr int kSamples = 64;
  int best = 0;
  for (int j = 1; j <= kSamples; ++j) {
    if (radius(0.5 * j / kSamples) < radius(0.5 * best / kSamples)) best = j;
  }
  const double a = 0.5 * std::max(best - 1, 0) / kSamples;
  const double b = 0.5 * std::min(best + 1, kSamples) / kSamples;
  return std::min(radius(0.5 * best / kSamples), radius(MinimizeOn(a, b, radius)));
}

void AppendArcBeziers(glm::dvec2 center, double radius, double start_angle, double sweep,
                      std::vector<RouteSegment>* out) {
  if (!(radius > 0.0) || !(std::abs(sweep) > 0.0) || !std::isfinite(sweep)) return;
  const double side = sweep > 0.0 ? 1.0 : -1.0;
  const double end_angle = start_angle + sweep;
  AppendArc(center, radius, center + radius * Direction(start_angle),
            center + radius * Direction(end_angle), side * LeftNormal(Direction(start_angle)),
            side * LeftNormal(Direction(end_angle)), sweep, out);
}

bool RoundedRoute::clear() const {
  if (!tight_curves.empty()) return false;
  for (const RoundedCorner& corner : corners) {
    if (corner.tight) return false;
  }
  return true;
}

namespace {

bool Fits(const Fillet& fillet, double allow_in, double allow_out) {
  return fillet.ok && fillet.trim_in <= allow_in && fillet.trim_out <= allow_out;
}

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// Where a corner's fillet landed in the output: its first segment and how many it took.
struct CornerSpan {
  std::size_t first = 0;
  std::size_t count = 0;
};

// RoundCorners' steps over the route's pieces (its non-degenerate segments) and the corners
// between them: find the corners, fit the largest fillet at each, shrink fillets until the
// pieces they share hold them, emit the cut pieces and the arcs, and report.
class CornerRounding {
 public:
  CornerRounding(const std::vector<RouteSegment>& segments, bool closed, double turning_radius)
      : segments_(segments),
        closed_(closed),
        turning_radius_(turning_radius),
        scale_(CoordinateScale(segments)),
        // The radius the fillets aim for: the cubic arcs dip slightly below their circle's radius.
        target_(turning_radius / StandardArcMinRadius(kMaxArcPieceAngle) * (1.0 + kRadiusMargin)) {
    result_.closed = closed;
  }

  Result<RoundedRoute> Run(const Route& route) {
    CollectPieces(route);
    FindCorners();
    if (corners_.empty()) {
      KeepInput();
    } else {
      FitFillets();
      ShareOutPieces();
      SharpenVanishingFillets();
      EmitSegments();
      ReportCorners();
    }
    return FindTightCurves();
  }

 private:
  // The non-degenerate segments, each with its length on the input route.
  void CollectPieces(const Route& route) {
    for (std::size_t i = 0; i < segments_.size(); ++i) {
      const double length = route.segment_start_distance(i + 1) - route.segment_start_distance(i);
      if (!(length > 0.0)) continue;
      Piece piece;
      piece.source = i;
      piece.segment = segments_[i];
      piece.curve = route.bezier(i);
      piece.length = length;
      pieces_.push_back(piece);
    }
  }

  // Corners at the joins of consecutive pieces (and the closing join).
  void FindCorners() {
    const int count = static_cast<int>(pieces_.size());
    const int joins = closed_ ? count : count - 1;
    for (int j = 0; j < joins; ++j) {
      const int in = j;
      const int out = (j + 1) % count;
      const double turn = WrapPi(pieces_[out].StartHeading() - pieces_[in].EndHeading());
      if (!(std::abs(turn) > kCornerAngle)) continue;
      Corner corner;
      corner.in_piece = in;
      corner.out_piece = out;
      corner.point = pieces_[out].start();
      corner.turn = turn;
      corner.lines = pieces_[in].is_line() && pieces_[out].is_line();
      corner.sharp = std::abs(turn) > kPi - kUTurnGap;
      pieces_[in].end_corner = static_cast<int>(corners_.size());
      pieces_[out].start_corner = static_cast<int>(corners_.size());
      corners_.push_back(corner);
    }
  }

  // Nothing to round: the input as it is (zero-length segments included).
  void KeepInput() {
    result_.segments = segments_;
    result_.source.resize(segments_.size());
    for (std::size_t i = 0; i < segments_.size(); ++i) result_.source[i] = static_cast<int>(i);
  }

  // The largest fillet no larger than `from_radius` within the allowances (not ok if none): the
  // closed form between lines; between curves halvings down to one that fits, then bisection
  // up to kShrinkPrecision.
  Fillet LargestFillet(const Corner& corner, double from_radius, double allow_in,
                       double allow_out) const {
    const Piece& in = pieces_[corner.in_piece];
    const Piece& out = pieces_[corner.out_piece];
    if (corner.lines) {
      const double tangent =
          std::min({from_radius * std::tan(0.5 * std::abs(corner.turn)), allow_in, allow_out});
      return LineFillet(in, out, corner, tangent);
    }
    // Each solve starts from the nearest radius solved so far.
    Fillet nearest =
        corner.fillet.ok && corner.fillet.radius == from_radius ? corner.fillet : Fillet();
    Fillet best = CurveFillet(in, out, corner, from_radius, scale_, nearest);
    if (Fits(best, allow_in, allow_out)) return best;
    if (best.ok) nearest = best;
    double failed = from_radius;
    double good = 0.0;
    for (int k = 0; k < kShrinkHalvings && !(good > 0.0); ++k) {
      const double radius = failed * 0.5;
      Fillet fillet = CurveFillet(in, out, corner, radius, scale_, nearest);
      if (fillet.ok) nearest = fillet;
      if (Fits(fillet, allow_in, allow_out)) {
        good = radius;
        best = fillet;
      } else {
        failed = radius;
      }
    }
    if (!(good > 0.0)) return Fillet();
    while (failed - good > kShrinkPrecision * good) {
      const double radius = 0.5 * (good + failed);
      Fillet fillet = CurveFillet(in, out, corner, radius, scale_, best);
      if (Fits(fillet, allow_in, allow_out)) {
        good = radius;
        best = fillet;
      } else {
        failed = radius;
      }
    }
    return best;
  }

  // Each corner's largest fillet at the target radius, pieces not yet shared out.
  void FitFillets() {
    for (Corner& corner : corners_) {
      if (corner.sharp) continue;
      // Nearly straight corners get a larger circle, so the arc is long enough to be exact.
      const double half_turn = std::tan(0.5 * std::abs(corner.turn));
      const double min_tangent =
          scale_ * std::max(kMinTangent, kMinTangentTimesTurn / std::abs(corner.turn));
      const double radius = std::max(target_, min_tangent / half_turn);
      corner.fillet = LargestFillet(corner, radius, kUnlimited, kUnlimited);
      if (!corner.fillet.ok) corner.sharp = true;
    }
  }

  // Share out pieces claimed by fillets at both ends; shrink fillets until everything fits.
  // Claims only ever shrink, so this settles.
  void ShareOutPieces() {
    allow_in_.resize(corners_.size());
    allow_out_.resize(corners_.size());
    for (int round = 0; round < kMaxAllocationRounds; ++round) {
      ComputeAllowances();
      if (!ShrinkToAllowances()) break;
    }
  }

  // What each fillet may cut off the pieces at its sides: all it claims when a piece holds both
  // its fillets' claims, else the piece shared out between them.
  void ComputeAllowances() {
    const double sliver = kLineSliver * scale_;
    const double filled = 1e-12 * scale_;
    std::fill(allow_in_.begin(), allow_in_.end(), kUnlimited);
    std::fill(allow_out_.begin(), allow_out_.end(), kUnlimited);
    for (const Piece& piece : pieces_) {
      const int a = Active(piece.start_corner) ? piece.start_corner : -1;
      const int b = Active(piece.end_corner) ? piece.end_corner : -1;
      if (a < 0 && b < 0) continue;
      const double claim_a = a >= 0 ? corners_[a].fillet.trim_out : 0.0;
      const double claim_b = b >= 0 ? corners_[b].fillet.trim_in : 0.0;
      const double cap = piece.is_line() ? piece.length : piece.length * (1.0 - kCurveKeep);
      const double sum = claim_a + claim_b;
      double allow_a = claim_a, allow_b = claim_b;
      if (sum > cap) {
        if (a < 0) {
          allow_b = cap;
        } else if (b < 0) {
          allow_a = cap;
        } else if (claim_a <= 0.5 * cap) {
          allow_b = cap - claim_a;
        } else if (claim_b <= 0.5 * cap) {
          allow_a = cap - claim_b;
        } else {
          allow_a = allow_b = 0.5 * cap;
        }
      } else if (piece.is_line() && sum < cap - filled && sum > cap - sliver) {
        // Would leave a sliver of line: leave a clean short line instead.
        const double shrink = (cap - sliver) / sum;
        allow_a = claim_a * shrink;
        allow_b = claim_b * shrink;
      }
      if (a >= 0) allow_out_[a] = allow_a;
      if (b >= 0) allow_in_[b] = allow_b;
    }
  }

  // Every fillet over its allowances refitted within them (sharp when none fits): whether any
  // changed.
  bool ShrinkToAllowances() {
    bool changed = false;
    for (std::size_t c = 0; c < corners_.size(); ++c) {
      Corner& corner = corners_[c];
      if (corner.sharp) continue;
      if (corner.fillet.trim_in <= allow_in_[c] && corner.fillet.trim_out <= allow_out_[c]) {
        continue;
      }
      corner.fillet = LargestFillet(corner, corner.fillet.radius, allow_in_[c], allow_out_[c]);
      if (!corner.fillet.ok) corner.sharp = true;
      changed = true;
    }
    return changed;
  }

  // A fillet shrunk below what coordinates of this size can describe is no better than a kink.
  void SharpenVanishingFillets() {
    for (Corner& corner : corners_) {
      if (!corner.sharp &&
          std::max(corner.fillet.trim_in, corner.fillet.trim_out) < kMinTangent * scale_) {
        corner.sharp = true;
      }
    }
  }

  // A corner that exists and was rounded.
  bool Active(int corner) const { return corner >= 0 && !corners_[corner].sharp; }

  // The cut pieces and the fillets in route order, each starting exactly where the last one
  // ended; each corner's span in the output noted for its report.
  void EmitSegments() {
    std::vector<RouteSegment>& out = result_.segments;
    const double sliver = kLineSliver * scale_;
    glm::dvec2 at = pieces_.front().start();
    if (Active(pieces_.front().start_corner)) {
      at = corners_[pieces_.front().start_corner].fillet.end;
    }
    const glm::dvec2 route_start = at;
    spans_.assign(corners_.size(), CornerSpan{});
    for (const Piece& piece : pieces_) {
      const bool cut_start = Active(piece.start_corner);
      const bool cut_end = Active(piece.end_corner);
      const double lo = cut_start ? corners_[piece.start_corner].fillet.u : 0.0;
      const double hi = cut_end ? corners_[piece.end_corner].fillet.s : 1.0;
      if (piece.is_line()) {
        const double rest = piece.length -
                            (cut_start ? corners_[piece.start_corner].fillet.trim_out : 0.0) -
                            (cut_end ? corners_[piece.end_corner].fillet.trim_in : 0.0);
        const glm::dvec2 end = cut_end ? corners_[piece.end_corner].fillet.start : piece.end();
        if (rest >= 0.5 * sliver) {
          out.push_back(RouteSegment::Line(at, end));
          result_.source.push_back(static_cast<int>(piece.source));
          at = end;
        }
      } else if (hi > lo) {
        CubicPoints cut = SubCubic(piece.segment.points, lo, hi);
        cut[0] = at;
        out.push_back(RouteSegment::Bezier(cut[0], cut[1], cut[2], cut[3]));
        result_.source.push_back(static_cast<int>(piece.source));
        at = cut[3];
      }
      if (piece.end_corner >= 0) spans_[piece.end_corner].first = out.size();
      if (cut_end) {
        const Corner& corner = corners_[piece.end_corner];
        const Fillet& fillet = corner.fillet;
        const bool closing = closed_ && corner.out_piece == 0;
        const glm::dvec2 end = closing ? route_start : fillet.end;
        AppendArc(fillet.center, fillet.radius, at, end, fillet.start_direction,
                  fillet.end_direction, fillet.sweep, &out);
        spans_[piece.end_corner].count = out.size() - spans_[piece.end_corner].first;
        result_.source.resize(out.size(), -1);
        at = end;
      }
    }
    if (closed_ && !out.empty()) {
      // A sharp closing corner: end exactly where the route starts.
      RouteSegment& last = out.back();
      if (last.kind == RouteSegment::Kind::kLine) {
        last = RouteSegment::Line(last.points[0], out.front().start());
      } else {
        last.points[3] = out.front().start();
      }
    }
  }

  // One RoundedCorner a corner: its fillet's radius as asked and as built, and its span.
  void ReportCorners() {
    for (std::size_t c = 0; c < corners_.size(); ++c) {
      const Corner& corner = corners_[c];
      RoundedCorner report;
      report.segment = pieces_[corner.in_piece].source;
      report.point = corner.point;
      report.turn = corner.turn;
      if (!corner.sharp) {
        const Fillet& fillet = corner.fillet;
        const int arc_pieces = std::max(
            1, static_cast<int>(std::ceil(std::abs(fillet.sweep) / kMaxArcPieceAngle - 1e-9)));
        report.radius = fillet.radius;
        report.min_radius = fillet.radius * StandardArcMinRadius(fillet.sweep / arc_pieces);
        report.output_segment_count = spans_[c].count;
      }
      report.first_output_segment = spans_[c].first;
      report.tight = report.min_radius < turning_radius_;
      result_.corners.push_back(report);
    }
  }

  // The rounded route built, the corners' distances on it, and what the curves themselves leave
  // tight.
  Result<RoundedRoute> FindTightCurves() {
    Result<Route> rounded = Route::Build(result_.segments, result_.closed);
    if (!rounded.ok()) {
      return MakeError("", 0, 0,
                       "corner rounding made an invalid route: " + rounded.error().message);
    }
    result_.route = std::move(rounded).value();
    for (RoundedCorner& corner : result_.corners) {
      corner.start_distance = result_.route.segment_start_distance(corner.first_output_segment);
      corner.end_distance = result_.route.segment_start_distance(corner.first_output_segment +
                                                                 corner.output_segment_count);
    }
    for (std::size_t i = 0; i < result_.segments.size(); ++i) {
      if (result_.source[i] < 0 || result_.segments[i].kind != RouteSegment::Kind::kBezier) {
        continue;
      }
      Result<Route> single = Route::Build({result_.segments[i]});
      if (!single.ok()) continue;
      const double offset = result_.route.segment_start_distance(i);
      for (TightStretch stretch : single.value().FindTightStretches(turning_radius_)) {
        stretch.start_distance += offset;
        stretch.end_distance += offset;
        stretch.min_radius_distance += offset;
        result_.tight_curves.push_back({static_cast<std::size_t>(result_.source[i]), stretch});
      }
    }
    return std::move(result_);
  }

  const std::vector<RouteSegment>& segments_;
  const bool closed_;
  const double turning_radius_;
  const double scale_;   // the coordinates' size (what rounding is relative to)
  const double target_;  // the fillets' radius before any is shrunk
  std::vector<Piece> pieces_;
  std::vector<Corner> corners_;
  std::vector<double> allow_in_, allow_out_;  // per corner, while pieces are shared out
  std::vector<CornerSpan> spans_;             // per corner, as emitted
  RoundedRoute result_;
};

}  // namespace

Result<RoundedRoute> RoundCorners(const std::vector<RouteSegment>& segments, bool closed,
                                  double turning_radius) {
  if (!(turning_radius > 0.0) || !std::isfinite(turning_radius)) {
    return MakeError("", 0, 0, "the turning radius must be a positive number");
  }
  Result<Route> input = Route::Build(segments, closed);
  if (!input.ok()) return input.error();
  return CornerRounding(segments, closed, turning_radius).Run(input.value());
}

}  // namespace md5stage
