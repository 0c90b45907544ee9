#include "core/path/turn_path.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

#include "core/path/fast_atan2.h"
#include "core/path/fast_sincos.h"

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Arcs within this many radians of a full turn are rounding noise of "no turn".
constexpr double kFullTurnSnap = 1e-9;
// A destination this close to a turning circle (relative to r) is on it.
constexpr double kOnCircle = 1e-9;

// Sine and cosine of a heading. Solving a path already yields the directions of its poses, so
// building it reuses them instead of calling sin/cos again (trig dominates the cost here).
struct Heading2 {
  double s, c;
};
Heading2 HeadingOf(double angle) {
  const SinCos sc = FastSinCos(angle);
  return {sc.s, sc.c};
}

bool IsFinitePose(const Pose2& pose) {
  return IsFinite(pose.position) && std::isfinite(pose.heading);
}

// WrapTwoPi and WrapPi for the angles the solvers produce (sums of a few wrapped angles), without
// branches on the common range: which way a random angle falls out of range is random, and
// mispredicted branches cost more here than the arithmetic. Same results as pose.h's.
inline double WrapTwoPiNear(double angle) {
  if (!(angle >= -kTwoPi && angle < 2.0 * kTwoPi)) return WrapTwoPi(angle);
  static constexpr double kShift[3] = {kTwoPi, 0.0, -kTwoPi};
  const double wrapped = angle + kShift[(angle >= 0.0) + (angle >= kTwoPi)];
  // -tiny + 2π rounds to 2π.
  return wrapped < kTwoPi ? wrapped : 0.0;
}

inline double WrapPiNear(double angle) {
  if (!(angle >= -kTwoPi && angle < 3.0 * kPi)) return WrapPi(angle);
  static constexpr double kShift[3] = {kTwoPi, 0.0, -kTwoPi};
  return angle + kShift[(angle > -kPi) + (angle > kPi)];
}

// Arc angle in [0, 2π), with near-full turns snapped to 0.
double ArcAngle(double angle) {
  const double wrapped = WrapTwoPiNear(angle);
  return wrapped > kTwoPi - kFullTurnSnap ? 0.0 : wrapped;
}

TurnPath StartPath(const Pose2& from) {
  TurnPath path;
  path.start = {from.position, WrapPi(from.heading)};
  path.end = path.start;
  return path;
}

// Appends an arc turning by `signed_angle` (> 0 left) from the path's end; `from` and `to` are
// the directions of the headings before and after it.
void AppendArc(TurnPath* path, double radius, double signed_angle, Heading2 from, Heading2 to) {
  TurnSegment& segment = path->segments[path->segment_count++];
  const double side = std::copysign(1.0, signed_angle);
  const Pose2 start = path->end;
  segment.kind = TurnSegment::Kind::kArc;
  segment.start = start;
  segment.radius = radius;
  segment.sweep = signed_angle;
  segment.length = radius * std::abs(signed_angle);
  // Centre at heading + side·90°; the unit sits at angle heading - side·90° around it.
  segment.centre = start.position + side * radius * glm::dvec2(-from.s, from.c);
  segment.start_angle = start.heading - side * 0.5 * kPi;
  path->end.position = segment.centre + side * radius * glm::dvec2(to.s, -to.c);
  path->end.heading = WrapPiNear(start.heading + signed_angle);
  path->length += segment.length;
}

void AppendLine(TurnPath* path, double length, Heading2 direction) {
  TurnSegment& segment = path->segments[path->segment_count++];
  segment.kind = TurnSegment::Kind::kLine;
  segment.start = path->end;
  segment.angle = path->end.heading;
  segment.length = length;
  path->end.position += length * glm::dvec2(direction.c, direction.s);
  path->length += length;
}

// ---- Arc + line --------------------------------------------------------------------------------

// sign: +1 left, -1 right. Not reachable when the destination is inside that side's circle.
bool SolveArcLine(glm::dvec2 from, Heading2 heading, double radius, glm::dvec2 to, double sign,
                  ArcLineSideSolution* out) {
  out->reachable = false;
  out->centre = from + sign * radius * glm::dvec2(-heading.s, heading.c);
  // Unit vector from the centre to the start.
  const glm::dvec2 start_dir = sign * glm::dvec2(heading.s, -heading.c);
  if (to == from) {  // already there: no full circle
    out->centre_distance = radius;
    out->arc = 0.0;
    out->line = 0.0;
    out->leave_direction = start_dir;
    out->reachable = true;
    return true;
  }
  glm::dvec2 to_dest = to - out->centre;
  if (!IsFinite(to_dest)) {  // the sizes overflow: no path
    out->centre_distance = std::numeric_limits<double>::infinity();
    return false;
  }
  // The solution is scale-free: where squares would underflow (1e-300 apart) or overflow, solve
  // it scaled by a power of two (exact) and scale the line back.
  int exponent = 0;
  const double size = std::max({std::abs(to_dest.x), std::abs(to_dest.y), radius});
  if (size < 0x1p-450 || size > 0x1p450) {
    std::frexp(size, &exponent);
    // Per value: 2^-exponent itself overflows for denormal sizes (exponent < -1021).
    to_dest = {std::ldexp(to_dest.x, -exponent), std::ldexp(to_dest.y, -exponent)};
    radius = std::ldexp(radius, -exponent);
  }
  const double d = std::sqrt(to_dest.x * to_dest.x + to_dest.y * to_dest.y);
  out->centre_distance = exponent != 0 ? std::ldexp(d, exponent) : d;
  const double slack = kOnCircle * radius;
  if (d < radius - slack) return false;
  // Unit vector from the centre to the point where the unit leaves the circle.
  glm::dvec2 leave_dir;
  if (d > radius + slack) {
    // Tangent point: the destination direction turned back by x, cos x = r/d, sin x = line/d.
    out->line = std::sqrt((d - radius) * (d + radius));
    const double sin_back = sign * out->line;
    leave_dir = glm::dvec2(to_dest.x * radius + to_dest.y * sin_back,
                           to_dest.y * radius - to_dest.x * sin_back) /
                (d * d);
  } else {
    out->line = 0.0;  // on the circle: the arc alone
    leave_dir = to_dest / d;
  }
  if (exponent != 0) out->line = std::ldexp(out->line, exponent);
  out->arc =
      ArcAngle(sign * FastAtan2(Cross(start_dir, leave_dir), glm::dot(start_dir, leave_dir)));
  out->leave_direction = leave_dir;
  out->reachable = std::isfinite(out->line);
  return out->reachable;
}

TurnPath BuildArcLine(const Pose2& from, Heading2 heading, double radius, double sign,
                      const ArcLineSideSolution& solution) {
  TurnPath path = StartPath(from);
  path.type = sign > 0.0 ? TurnPathType::kLS : TurnPathType::kRS;
  // The heading of the line: the radius to Q turned by a quarter turn towards the travel.
  const Heading2 leave = {sign * solution.leave_direction.x, -sign * solution.leave_direction.y};
  AppendArc(&path, radius, sign * solution.arc, heading, leave);
  AppendLine(&path, solution.line, leave);
  return path;
}

bool ValidArcLineInput(glm::dvec2 from, double heading, double radius, glm::dvec2 to) {
  return IsFinite(from) && IsFinite(to) && std::isfinite(heading) && std::isfinite(radius) &&
         radius >= 0.0;
}

// ---- Dubins words ------------------------------------------------------------------------------
// The classic solution works in the frame where the destination lies on +x at distance d (units
// of r), with α, β the headings in that frame. Here only their sines and cosines are formed (by
// rotation, no atan2 for the frame) and the angles that the words produce are turned back into
// the world frame by rotating the vectors before their atan2.

enum Word { kLSL, kLSR, kRSL, kRSR, kRLR, kLRL, kWordCount };
constexpr TurnPathType kWordTypes[kWordCount] = {TurnPathType::kLSL, TurnPathType::kLSR,
                                                 TurnPathType::kRSL, TurnPathType::kRSR,
                                                 TurnPathType::kRLR, TurnPathType::kLRL};
// +1 left, -1 right, 0 straight for the three pieces of each word.
constexpr double kWordTurns[kWordCount][3] = {{1, 0, 1},   {1, 0, -1},  {-1, 0, 1},
                                              {-1, 0, -1}, {-1, 1, -1}, {1, -1, 1}};

struct DubinsFrame {
  double d;                     // distance, units of r
  double cos_theta, sin_theta;  // direction from start to destination
  double h0, h1;                // world headings
  Heading2 dir0, dir1;
  double sa, ca, sb, cb, cab;  // of α = h0 - θ and β = h1 - θ
  glm::dvec2 ToWorld(double x, double y) const {
    return {x * cos_theta - y * sin_theta, x * sin_theta + y * cos_theta};
  }
};

// No default member values: DubinsPath keeps six of these per query and every solver writes
// the fields its word uses (zeroing them all first was measurable).
struct WordSolution {
  double t, p, q;  // arcs in radians, straight piece in units of r
  // CSC words know the direction of their straight piece: (x, y), not yet normalized, because
  // only the winning word needs it as a unit vector (a sqrt and divisions saved per loser).
  bool middle_known;
  glm::dvec2 middle;
  // Same-side words: the heading of the vector between the circle centres (NaN when the circles
  // coincide). The three-arc word on that side needs the same angle of the same vector.
  double centres_heading;
};

Heading2 MiddleHeading(const WordSolution& solution) {
  const glm::dvec2 m = solution.middle;
  const double inverse = 1.0 / std::sqrt(m.x * m.x + m.y * m.y);
  return {m.y * inverse, m.x * inverse};
}

bool MakeFrame(const Pose2& from, const Pose2& to, double radius, DubinsFrame* f) {
  if (!IsFinitePose(from) || !IsFinitePose(to) || !(radius > 0.0) || !std::isfinite(radius)) {
    return false;
  }
  const glm::dvec2 delta = (to.position - from.position) / radius;
  f->d = std::sqrt(delta.x * delta.x + delta.y * delta.y);
  // Squares underflow for points 1e-300 apart: measure those exactly. Beyond 1e150 radii the
  // words' squares overflow (and the radius is negligible): no frame.
  if (!(f->d > 1e-150)) f->d = std::hypot(delta.x, delta.y);
  if (!(f->d < 1e150)) return false;
  f->cos_theta = f->d > 0.0 ? delta.x / f->d : 1.0;
  f->sin_theta = f->d > 0.0 ? delta.y / f->d : 0.0;
  f->h0 = from.heading;
  f->h1 = to.heading;
  f->dir0 = HeadingOf(from.heading);
  f->dir1 = HeadingOf(to.heading);
  f->sa = f->dir0.s * f->cos_theta - f->dir0.c * f->sin_theta;
  f->ca = f->dir0.c * f->cos_theta + f->dir0.s * f->sin_theta;
  f->sb = f->dir1.s * f->cos_theta - f->dir1.c * f->sin_theta;
  f->cb = f->dir1.c * f->cos_theta + f->dir1.s * f->sin_theta;
  f->cab = f->ca * f->cb + f->sa * f->sb;
  return true;
}

// The straight words are computed from the vector between the two circle centres, not from
// p² = 2 + d² - ..., whose cancellation leaves ~1e-8 of noise in p. Centres within kTouch of
// coinciding (or of touching, for the cross tangents) are treated as exactly so: that moves the
// path by at most kTouch·r, while the noise could add or drop a full turn.
constexpr double kTouch = 1e-12;

// Each solver returns false when its word cannot connect the poses. side: +1 for the L-first
// word of the pair, -1 for its mirror.

// Each word is solved in two steps around its one atan2, so that DubinsPath can take the
// atan2 of a mirrored pair of words at once (FastAtan2Pair): Prepare* computes the vector whose
// heading is needed, Finish* the word from that heading.

// LSL (side +1) and RSR (side -1): the vector between the two circle centres.
struct SameSideVector {
  double distance;
  glm::dvec2 w;  // world frame
};

inline SameSideVector PrepareSameSide(double side, const DubinsFrame& f) {
  const double x = f.d + side * (f.sa - f.sb);
  const double y = side * (f.cb - f.ca);
  return {std::sqrt(x * x + y * y), f.ToWorld(x, y)};
}

// `turn`: the heading of v.w (unused when the circles coincide).
inline bool FinishSameSide(double side, const DubinsFrame& f, const SameSideVector& v, double turn,
                           WordSolution* out) {
  out->middle_known = true;
  if (v.distance <= kTouch) {  // one circle: turn once
    out->centres_heading = kNaN;
    out->t = 0.0;
    out->p = 0.0;
    out->q = ArcAngle(side * (f.h1 - f.h0));
    out->middle = {f.dir0.c, f.dir0.s};
    return true;
  }
  out->t = ArcAngle(side * (turn - f.h0));
  out->p = v.distance;
  out->q = ArcAngle(side * (f.h1 - turn));
  out->middle = v.w;
  out->centres_heading = turn;
  return true;
}

inline bool SolveSameSide(double side, const DubinsFrame& f, WordSolution* out) {
  const SameSideVector v = PrepareSameSide(side, f);
  return FinishSameSide(side, f, v, v.distance <= kTouch ? 0.0 : FastAtan2(v.w.y, v.w.x), out);
}

// LSR (side +1) and RSL (side -1): the direction of the cross tangent.
struct CrossTangent {
  bool feasible;  // the cross tangent needs the circles apart
  double length;
  glm::dvec2 w;  // world frame, not normalized
};

inline CrossTangent PrepareCross(double side, const DubinsFrame& f) {
  const double x = f.d + side * (f.sa + f.sb);
  const double y = -side * (f.ca + f.cb);
  const double distance = std::sqrt(x * x + y * y);
  const double gap = distance - 2.0;
  const double len = gap <= kTouch ? 0.0 : std::sqrt(gap * (distance + 2.0));
  // atan2(y, x) - atan2(-2·side, len) as one atan2 of the rotated vector.
  return {gap >= -kTouch, len, f.ToWorld(x * len - side * 2.0 * y, y * len + side * 2.0 * x)};
}

inline bool FinishCross(double side, const DubinsFrame& f, const CrossTangent& tangent, double turn,
                        WordSolution* out) {
  if (!tangent.feasible) return false;
  out->t = ArcAngle(side * (turn - f.h0));
  out->p = tangent.length;
  out->q = ArcAngle(side * (turn - f.h1));
  out->middle_known = true;
  out->middle = tangent.w;
  return true;
}

inline bool SolveCross(double side, const DubinsFrame& f, WordSolution* out) {
  const CrossTangent tangent = PrepareCross(side, f);
  return FinishCross(side, f, tangent, FastAtan2(tangent.w.y, tangent.w.x), out);
}

// LRL (side +1, of the outer arcs) and RLR (side -1): 2π - acos(c) is the middle arc, with acos
// as an atan2 of (sqrt(1 - c²), c) (glibc's acos costs as much as two FastAtan2 calls).
struct ThreeArcCosine {
  bool feasible;
  double c;     // clamped to [-1, 1]
  double sine;  // sqrt((1 - c)(1 + c))
};

inline ThreeArcCosine PrepareThreeArcs(double side, const DubinsFrame& f) {
  const double d = f.d;
  double c = (6.0 - d * d + 2.0 * f.cab - 2.0 * d * side * (f.sa - f.sb)) / 8.0;
  const bool feasible = std::abs(c) <= 1.0 + 1e-12;
  if (std::abs(c) > 1.0) c = c > 0.0 ? 1.0 : -1.0;
  return {feasible, c, std::sqrt((1.0 - c) * (1.0 + c))};
}

// `acos_c`: acos of the cosine. `centres_heading`: the same-side word's (LSL for LRL, RSR for
// RLR), the atan2 of the very same vector, or NaN to compute it here.
inline bool FinishThreeArcs(double side, const DubinsFrame& f, const ThreeArcCosine& cosine,
                            double acos_c, double centres_heading, WordSolution* out) {
  if (!cosine.feasible) return false;
  const double outer = kTwoPi - acos_c;
  const double middle = outer < kTwoPi ? outer : 0.0;  // acos 0 (or tiny): no middle turn
  double psi = centres_heading;
  if (std::isnan(psi)) {
    // The same operands as PrepareSameSide's: the same bits.
    const glm::dvec2 w = f.ToWorld(f.d + side * (f.sa - f.sb), side * (f.cb - f.ca));
    psi = FastAtan2(w.y, w.x);
  }
  out->t = ArcAngle(-side * (f.h0 - psi) + 0.5 * middle);
  out->p = middle;
  out->q = ArcAngle(side * (f.h1 - f.h0) - out->t + middle);
  out->middle_known = false;
  return true;
}

inline bool SolveThreeArcs(double side, const DubinsFrame& f, WordSolution* out) {
  const ThreeArcCosine cosine = PrepareThreeArcs(side, f);
  if (!cosine.feasible) return false;
  return FinishThreeArcs(side, f, cosine, FastAtan2(cosine.sine, cosine.c), kNaN, out);
}

bool SolveWord(Word word, const DubinsFrame& f, WordSolution* out) {
  switch (word) {
    case kLSL:
      return SolveSameSide(1.0, f, out);
    case kRSR:
      return SolveSameSide(-1.0, f, out);
    case kLSR:
      return SolveCross(1.0, f, out);
    case kRSL:
      return SolveCross(-1.0, f, out);
    case kLRL:
      return SolveThreeArcs(1.0, f, out);
    case kRLR:
      return SolveThreeArcs(-1.0, f, out);
    default:
      return false;
  }
}

TurnPath BuildWord(const Pose2& from, const DubinsFrame& frame, double radius, Word word,
                   const WordSolution& solution) {
  TurnPath path = StartPath(from);
  path.type = kWordTypes[word];
  const double* turns = kWordTurns[word];
  const double first = turns[0] * solution.t;
  const Heading2 after_first =
      solution.middle_known ? MiddleHeading(solution) : HeadingOf(frame.h0 + first);
  AppendArc(&path, radius, first, frame.dir0, after_first);
  Heading2 after_second = after_first;
  if (turns[1] == 0.0) {
    AppendLine(&path, solution.p * radius, after_first);
  } else {
    const double second = turns[1] * solution.p;
    after_second = HeadingOf(frame.h0 + first + second);
    AppendArc(&path, radius, second, after_first, after_second);
  }
  AppendArc(&path, radius, turns[2] * solution.q, after_second, frame.dir1);
  return path;
}

// Radius 0: turn in place by the smaller rotation, go straight, turn in place.
TurnPath TurnInPlacePath(const Pose2& from, const Pose2& to) {
  TurnPath path = StartPath(from);
  const glm::dvec2 delta = to.position - from.position;
  const double distance = glm::length(delta);
  const double facing = distance > 0.0 ? FastAtan2(delta.y, delta.x) : from.heading;
  const double first = WrapPi(facing - from.heading);
  const double last = WrapPi(to.heading - facing);
  const bool left_first = first >= 0.0;
  const bool left_last = last >= 0.0;
  path.type = left_first ? (left_last ? TurnPathType::kLSL : TurnPathType::kLSR)
                         : (left_last ? TurnPathType::kRSL : TurnPathType::kRSR);
  const Heading2 facing_dir = HeadingOf(facing);
  AppendArc(&path, 0.0, first, HeadingOf(from.heading), facing_dir);
  AppendLine(&path, distance, facing_dir);
  AppendArc(&path, 0.0, last, facing_dir, HeadingOf(to.heading));
  return path;
}

bool IsDubinsType(TurnPathType type) {
  return type >= TurnPathType::kLSL && type <= TurnPathType::kLRL;
}

}  // namespace

const char* TurnPathTypeName(TurnPathType type) {
  switch (type) {
    case TurnPathType::kLS:
      return "LS";
    case TurnPathType::kRS:
      return "RS";
    case TurnPathType::kLSL:
      return "LSL";
    case TurnPathType::kLSR:
      return "LSR";
    case TurnPathType::kRSL:
      return "RSL";
    case TurnPathType::kRSR:
      return "RSR";
    case TurnPathType::kRLR:
      return "RLR";
    case TurnPathType::kLRL:
      return "LRL";
    case TurnPathType::kNone:
      break;
  }
  return "unreachable";
}

ArcLineSideSolution SolveArcLineSide(glm::dvec2 from, double heading, double radius, glm::dvec2 to,
                                     TurnSide side) {
  ArcLineSideSolution solution;
  if (!ValidArcLineInput(from, heading, radius, to)) return solution;
  SolveArcLine(from, HeadingOf(heading), radius, to, side == TurnSide::kLeft ? 1.0 : -1.0,
               &solution);
  return solution;
}

TurnSide ChooseArcLineSide(const ArcLineSideSolution& left, const ArcLineSideSolution& right,
                           double radius) {
  if (!left.reachable || !right.reachable)
    return left.reachable ? TurnSide::kLeft : TurnSide::kRight;
  const double left_length = radius * left.arc + left.line;
  const double right_length = radius * right.arc + right.line;
  if (std::abs(left_length - right_length) <= 1e-9 * std::max(1.0, left_length)) {
    // Equal lengths (straight ahead, radius 0): the smaller turn.
    return left.arc <= right.arc ? TurnSide::kLeft : TurnSide::kRight;
  }
  return left_length < right_length ? TurnSide::kLeft : TurnSide::kRight;
}

TurnPath BuildArcLinePath(glm::dvec2 from, double heading, double radius, TurnSide side,
                          const ArcLineSideSolution& solution) {
  if (!solution.reachable || !ValidArcLineInput(from, heading, radius, from)) {
    return StartPath({from, heading});
  }
  return BuildArcLine({from, heading}, HeadingOf(heading), radius,
                      side == TurnSide::kLeft ? 1.0 : -1.0, solution);
}

TurnPath ArcLinePathOnSide(glm::dvec2 from, double heading, double radius, glm::dvec2 to,
                           TurnSide side) {
  if (!ValidArcLineInput(from, heading, radius, to)) return StartPath({from, heading});
  const double sign = side == TurnSide::kLeft ? 1.0 : -1.0;
  const Heading2 direction = HeadingOf(heading);
  ArcLineSideSolution solution;
  if (!SolveArcLine(from, direction, radius, to, sign, &solution)) {
    return StartPath({from, heading});
  }
  return BuildArcLine({from, heading}, direction, radius, sign, solution);
}

TurnPath ArcLinePath(glm::dvec2 from, double heading, double radius, glm::dvec2 to) {
  if (!ValidArcLineInput(from, heading, radius, to)) return StartPath({from, heading});
  const Heading2 direction = HeadingOf(heading);
  ArcLineSideSolution left, right;
  const bool left_ok = SolveArcLine(from, direction, radius, to, 1.0, &left);
  const bool right_ok = SolveArcLine(from, direction, radius, to, -1.0, &right);
  if (!left_ok && !right_ok) return StartPath({from, heading});
  return ChooseArcLineSide(left, right, radius) == TurnSide::kLeft
             ? BuildArcLine({from, heading}, direction, radius, 1.0, left)
             : BuildArcLine({from, heading}, direction, radius, -1.0, right);
}

std::array<double, 6> DubinsWordLengths(const Pose2& from, const Pose2& to, double radius) {
  std::array<double, 6> lengths;
  lengths.fill(kNaN);
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) return lengths;
  for (int w = 0; w < kWordCount; ++w) {
    WordSolution solution;
    if (SolveWord(static_cast<Word>(w), frame, &solution)) {
      lengths[w] = (solution.t + solution.p + solution.q) * radius;
    }
  }
  return lengths;
}

TurnPath DubinsPathOfType(const Pose2& from, const Pose2& to, double radius, TurnPathType type) {
  DubinsFrame frame;
  if (!IsDubinsType(type) || !MakeFrame(from, to, radius, &frame)) return StartPath(from);
  const Word word =
      static_cast<Word>(static_cast<int>(type) - static_cast<int>(TurnPathType::kLSL));
  WordSolution solution;
  if (!SolveWord(word, frame, &solution)) return StartPath(from);
  return BuildWord(from, frame, radius, word, solution);
}

namespace {

// Every word solved: sums[w] = t + p + q (radii), infinity when infeasible. The three-arc words
// only when they could be the shortest unless `all`. Mirrored words in pairs, each pair's two
// atan2 at once (see FastAtan2Pair); the same bits as SolveWord word by word.
void SolveWords(const DubinsFrame& frame, bool all, WordSolution solutions[kWordCount],
                double sums[kWordCount]) {
  // No branches on partial results: which word wins is random, so branching (pruning by the best
  // so far, keeping it) mispredicts, while the independent solvers overlap well.
  auto solve = [&](Word word, bool solved) {
    const WordSolution& s = solutions[word];
    sums[word] = solved ? s.t + s.p + s.q : kInfinity;
  };
  const SameSideVector lsl = PrepareSameSide(1.0, frame);
  const SameSideVector rsr = PrepareSameSide(-1.0, frame);
  double lsl_turn, rsr_turn;
  FastAtan2Pair(lsl.w.y, lsl.w.x, rsr.w.y, rsr.w.x, &lsl_turn, &rsr_turn);
  const CrossTangent lsr = PrepareCross(1.0, frame);
  const CrossTangent rsl = PrepareCross(-1.0, frame);
  double lsr_turn, rsl_turn;
  FastAtan2Pair(lsr.w.y, lsr.w.x, rsl.w.y, rsl.w.x, &lsr_turn, &rsl_turn);
  solve(kLSL, FinishSameSide(1.0, frame, lsl, lsl_turn, &solutions[kLSL]));
  solve(kLSR, FinishCross(1.0, frame, lsr, lsr_turn, &solutions[kLSR]));
  solve(kRSL, FinishCross(-1.0, frame, rsl, rsl_turn, &solutions[kRSL]));
  solve(kRSR, FinishSameSide(-1.0, frame, rsr, rsr_turn, &solutions[kRSR]));
  // Three-arc words need the outer circles within 4r of each other, so d <= 4, and their middle
  // arc alone turns by at least π: a straight word of at most π (in units of r) wins outright
  // (ties go to the earlier word, and the straight words come first).
  const double best_straight =
      std::min(std::min(sums[kLSL], sums[kLSR]), std::min(sums[kRSL], sums[kRSR]));
  sums[kRLR] = sums[kLRL] = kInfinity;
  if (all || (frame.d <= 4.0 + 1e-9 && best_straight > kPi)) {
    const ThreeArcCosine rlr = PrepareThreeArcs(-1.0, frame);
    const ThreeArcCosine lrl = PrepareThreeArcs(1.0, frame);
    double rlr_acos, lrl_acos;
    FastAtan2Pair(rlr.sine, rlr.c, lrl.sine, lrl.c, &rlr_acos, &lrl_acos);
    // The same-side words' centre headings; NaN (compute it) where their circles coincided.
    solve(kRLR, FinishThreeArcs(-1.0, frame, rlr, rlr_acos, solutions[kRSR].centres_heading,
                                &solutions[kRLR]));
    solve(kLRL, FinishThreeArcs(1.0, frame, lrl, lrl_acos, solutions[kLSL].centres_heading,
                                &solutions[kLRL]));
  }
}

}  // namespace

TurnPath DubinsPath(const Pose2& from, const Pose2& to, double radius) {
  if (radius == 0.0 && IsFinitePose(from) && IsFinitePose(to)) return TurnInPlacePath(from, to);
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) {
    // A radius negligible against the distance (over 1e150 radii) is no radius.
    if (IsFinitePose(from) && IsFinitePose(to) && radius > 0.0 &&
        IsFinite(to.position - from.position)) {
      return TurnInPlacePath(from, to);
    }
    return StartPath(from);
  }
  WordSolution solutions[kWordCount];
  double sums[kWordCount];
  SolveWords(frame, false, solutions, sums);
  // The first of equal lengths wins, in the order of the words.
  int best = -1;
  double best_sum = kInfinity;
  for (int w = 0; w < kWordCount; ++w) {
    const bool shorter = sums[w] < best_sum;
    best = shorter ? w : best;
    best_sum = shorter ? sums[w] : best_sum;
  }
  if (best < 0) return StartPath(from);
  return BuildWord(from, frame, radius, static_cast<Word>(best), solutions[best]);
}

double ShortestDubinsLength(const Pose2& from, const Pose2& to, double radius) {
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) return kInfinity;
  WordSolution solutions[kWordCount];
  double sums[kWordCount];
  SolveWords(frame, false, solutions, sums);
  const double best = std::min(std::min(std::min(sums[0], sums[1]), std::min(sums[2], sums[3])),
                               std::min(sums[4], sums[5]));
  return best * radius;
}

TurnPath FirstDubinsWord(const Pose2& from, const Pose2& to, double radius, double max_length,
                         bool (*accept)(const TurnPath& word, void* context), void* context) {
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) return TurnPath{};
  WordSolution solutions[kWordCount];
  double sums[kWordCount];
  SolveWords(frame, true, solutions, sums);
  // Shortest first, equal lengths in the order of the words (insertion sort: stable, no buffer).
  int order[kWordCount];
  double lengths[kWordCount];
  for (int w = 0; w < kWordCount; ++w) {
    lengths[w] = sums[w] * radius;
    int k = w;
    for (; k > 0 && lengths[order[k - 1]] > lengths[w]; --k) order[k] = order[k - 1];
    order[k] = w;
  }
  for (int w : order) {
    if (sums[w] == kInfinity || lengths[w] > max_length) break;
    const TurnPath path = BuildWord(from, frame, radius, static_cast<Word>(w), solutions[w]);
    if (accept(path, context)) return path;
  }
  return TurnPath{};
}

TurnPathPlace LocateOnTurnPath(const TurnPath& path, double distance) {
  if (!(distance > 0.0)) distance = 0.0;
  for (int i = 0; i < path.segment_count; ++i) {
    const double length = path.segments[i].length;
    if (distance < length) return {i, distance};
    distance -= length;
  }
  return {path.segment_count, distance};
}

Pose2 SampleTurnPath(const TurnPath& path, double distance) {
  if (!(distance > 0.0)) return path.start;
  const TurnPathPlace place = LocateOnTurnPath(path, distance);
  if (place.segment >= path.segment_count) return path.end;
  const TurnSegment& segment = path.segments[place.segment];
  if (segment.kind == TurnSegment::Kind::kLine) {
    return {segment.start.position + place.distance * Direction(segment.angle),
            segment.start.heading};
  }
  const double fraction = place.distance / segment.length;
  const double angle = segment.start_angle + segment.sweep * fraction;
  return {segment.centre + segment.radius * Direction(angle),
          WrapPi(segment.start.heading + segment.sweep * fraction)};
}

bool TurnPathSampleJob::Validate() const {
  return path != nullptr && (count == 0 || (distances != nullptr && poses != nullptr));
}

bool TurnPathSampleJob::Run() const {
  if (!Validate()) return false;
  for (std::size_t i = 0; i < count; ++i) poses[i] = SampleTurnPath(*path, distances[i]);
  return true;
}

}  // namespace md5stage
