#include "core/path/turn_path.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Arcs within this many radians of a full turn are rounding noise of "no turn".
constexpr double kFullTurnSnap = 1e-9;
// A destination this close to a turning circle (relative to r) is on it.
constexpr double kOnCircle = 1e-9;

bool IsFinitePose(const Pose2& pose) {
  return IsFinite(pose.position) && std::isfinite(pose.heading);
}

// Arc angle in [0, 2π), with near-full turns snapped to 0.
double ArcAngle(double angle) {
  const double wrapped = WrapTwoPi(angle);
  return wrapped > kTwoPi - kFullTurnSnap ? 0.0 : wrapped;
}

TurnPath StartPath(const Pose2& from) {
  TurnPath path;
  path.start = {from.position, WrapPi(from.heading)};
  path.end = path.start;
  return path;
}

// Appends an arc turning by `angle` (sign = direction: > 0 left) from the path's current end.
// (sin, cos) of the current heading are passed in and those of the new heading returned, so a
// whole Dubins path costs one sincos per pose.
void AppendArc(TurnPath* path, double radius, double signed_angle, double* sin_h, double* cos_h) {
  TurnSegment& segment = path->segments[path->segment_count++];
  const double side = signed_angle < 0.0 ? -1.0 : 1.0;
  const Pose2 start = path->end;
  segment.kind = TurnSegment::Kind::kArc;
  segment.start = start;
  segment.radius = radius;
  segment.sweep = signed_angle;
  segment.length = radius * std::abs(signed_angle);
  // Centre at heading + side·90°; the unit sits at angle heading - side·90° around it.
  segment.centre = start.position + side * radius * glm::dvec2(-*sin_h, *cos_h);
  segment.start_angle = start.heading - side * 0.5 * kPi;
  const double end_heading = start.heading + signed_angle;
  *sin_h = std::sin(end_heading);
  *cos_h = std::cos(end_heading);
  path->end.position = segment.centre + side * radius * glm::dvec2(*sin_h, -*cos_h);
  path->end.heading = WrapPi(end_heading);
  path->length += segment.length;
}

void AppendLine(TurnPath* path, double length, double sin_h, double cos_h) {
  TurnSegment& segment = path->segments[path->segment_count++];
  segment.kind = TurnSegment::Kind::kLine;
  segment.start = path->end;
  segment.angle = path->end.heading;
  segment.length = length;
  path->end.position += length * glm::dvec2(cos_h, sin_h);
  path->length += length;
}

// ---- Dubins words, in the frame where the destination lies on +x at distance d (units of r) ----

enum Word { kLSL, kLSR, kRSL, kRSR, kRLR, kLRL, kWordCount };
constexpr TurnPathType kWordTypes[kWordCount] = {TurnPathType::kLSL, TurnPathType::kLSR,
                                                 TurnPathType::kRSL, TurnPathType::kRSR,
                                                 TurnPathType::kRLR, TurnPathType::kLRL};
// +1 left, -1 right, 0 straight for the three pieces of each word.
constexpr double kWordTurns[kWordCount][3] = {{1, 0, 1},   {1, 0, -1},  {-1, 0, 1},
                                              {-1, 0, -1}, {-1, 1, -1}, {1, -1, 1}};

struct DubinsFrame {
  double d, alpha, beta;
  double sa, ca, sb, cb, cab;
};

// The pieces (t, p, q) of a word, in radians for arcs and units of r for the straight piece;
// false when the word cannot connect the poses.
bool SolveWord(Word word, const DubinsFrame& f, double* t, double* p, double* q) {
  const double d = f.d;
  // The straight words are computed from the vector between the two circle centres (units of
  // r), not from p² = 2 + d² - ..., whose cancellation leaves ~1e-8 of noise in p. Centres closer
  // than kTouch to coinciding (or to touching, for the cross tangents) are treated as exactly so:
  // that moves the path by at most kTouch·r, while the noise would add or drop a full turn.
  constexpr double kTouch = 1e-12;
  switch (word) {
    case kLSL:
    case kRSR: {
      const double side = word == kLSL ? 1.0 : -1.0;
      const double x = d + side * (f.sa - f.sb);
      const double y = side * (f.cb - f.ca);
      const double distance = std::sqrt(x * x + y * y);
      if (distance <= kTouch) {  // one circle: turn once
        *t = 0.0;
        *p = 0.0;
        *q = ArcAngle(side * (f.beta - f.alpha));
        return true;
      }
      const double turn = std::atan2(y, x);
      *t = ArcAngle(side * (turn - f.alpha));
      *p = distance;
      *q = ArcAngle(side * (f.beta - turn));
      return true;
    }
    case kLSR:
    case kRSL: {
      const double side = word == kLSR ? 1.0 : -1.0;
      const double x = d + side * (f.sa + f.sb);
      const double y = -side * (f.ca + f.cb);
      const double distance = std::sqrt(x * x + y * y);
      const double gap = distance - 2.0;  // the cross tangent needs the circles apart
      if (gap < -kTouch) return false;
      const double len = gap <= kTouch ? 0.0 : std::sqrt(gap * (distance + 2.0));
      // atan2(y, x) - atan2(-2·side, len) as one atan2 of the rotated vector.
      const double turn = std::atan2(y * len + side * 2.0 * x, x * len - side * 2.0 * y);
      *t = ArcAngle(side * (turn - f.alpha));
      *p = len;
      *q = ArcAngle(side * (turn - f.beta));
      return true;
    }
    case kRLR: {
      double c = (6.0 - d * d + 2.0 * f.cab + 2.0 * d * (f.sa - f.sb)) / 8.0;
      if (std::abs(c) > 1.0) {
        if (std::abs(c) > 1.0 + 1e-12) return false;
        c = c > 0.0 ? 1.0 : -1.0;
      }
      const double phi = std::atan2(f.ca - f.cb, d - f.sa + f.sb);
      const double middle = WrapTwoPi(kTwoPi - std::acos(c));
      *t = ArcAngle(f.alpha - phi + 0.5 * middle);
      *p = middle;
      *q = ArcAngle(f.alpha - f.beta - *t + middle);
      return true;
    }
    case kLRL: {
      double c = (6.0 - d * d + 2.0 * f.cab + 2.0 * d * (f.sb - f.sa)) / 8.0;
      if (std::abs(c) > 1.0) {
        if (std::abs(c) > 1.0 + 1e-12) return false;
        c = c > 0.0 ? 1.0 : -1.0;
      }
      const double phi = std::atan2(f.ca - f.cb, d + f.sa - f.sb);
      const double middle = WrapTwoPi(kTwoPi - std::acos(c));
      *t = ArcAngle(-f.alpha - phi + 0.5 * middle);
      *p = middle;
      *q = ArcAngle(f.beta - f.alpha - *t + middle);
      return true;
    }
    default:
      return false;
  }
}

bool MakeFrame(const Pose2& from, const Pose2& to, double radius, DubinsFrame* f) {
  if (!IsFinitePose(from) || !IsFinitePose(to) || !(radius > 0.0) || !std::isfinite(radius)) {
    return false;
  }
  const glm::dvec2 delta = (to.position - from.position) / radius;
  f->d = std::sqrt(delta.x * delta.x + delta.y * delta.y);
  const double theta = f->d > 0.0 ? std::atan2(delta.y, delta.x) : 0.0;
  f->alpha = WrapTwoPi(from.heading - theta);
  f->beta = WrapTwoPi(to.heading - theta);
  f->sa = std::sin(f->alpha);
  f->ca = std::cos(f->alpha);
  f->sb = std::sin(f->beta);
  f->cb = std::cos(f->beta);
  f->cab = f->ca * f->cb + f->sa * f->sb;
  return std::isfinite(f->d);
}

TurnPath BuildWord(const Pose2& from, double radius, Word word, double t, double p, double q) {
  TurnPath path = StartPath(from);
  path.type = kWordTypes[word];
  double sin_h = std::sin(path.start.heading);
  double cos_h = std::cos(path.start.heading);
  const double pieces[3] = {t, p, q};
  for (int i = 0; i < 3; ++i) {
    const double turn = kWordTurns[word][i];
    if (turn == 0.0) {
      AppendLine(&path, pieces[i] * radius, sin_h, cos_h);
    } else {
      AppendArc(&path, radius, turn * pieces[i], &sin_h, &cos_h);
    }
  }
  return path;
}

// Radius 0: turn in place by the smaller rotation, go straight, turn in place.
TurnPath TurnInPlacePath(const Pose2& from, const Pose2& to) {
  TurnPath path = StartPath(from);
  const glm::dvec2 delta = to.position - from.position;
  const double distance = glm::length(delta);
  const double facing = distance > 0.0 ? std::atan2(delta.y, delta.x) : from.heading;
  const double first = WrapPi(facing - from.heading);
  const double last = WrapPi(to.heading - facing);
  const bool left_first = first >= 0.0;
  const bool left_last = last >= 0.0;
  path.type = left_first ? (left_last ? TurnPathType::kLSL : TurnPathType::kLSR)
                         : (left_last ? TurnPathType::kRSL : TurnPathType::kRSR);
  double sin_h = std::sin(path.start.heading);
  double cos_h = std::cos(path.start.heading);
  AppendArc(&path, 0.0, first, &sin_h, &cos_h);
  AppendLine(&path, distance, sin_h, cos_h);
  AppendArc(&path, 0.0, last, &sin_h, &cos_h);
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

TurnPath ArcLinePathOnSide(glm::dvec2 from, double heading, double radius, glm::dvec2 to,
                           TurnSide side) {
  TurnPath path = StartPath({from, heading});
  if (!IsFinite(from) || !IsFinite(to) || !std::isfinite(heading) || !std::isfinite(radius) ||
      !(radius >= 0.0)) {
    return path;
  }
  const double sign = side == TurnSide::kLeft ? 1.0 : -1.0;
  double sin_h = std::sin(heading);
  double cos_h = std::cos(heading);
  const glm::dvec2 centre = from + sign * radius * glm::dvec2(-sin_h, cos_h);
  const glm::dvec2 to_dest = to - centre;
  const double d = glm::length(to_dest);
  const double slack = kOnCircle * radius;

  double arc = 0.0;
  double line = 0.0;
  if (to == from) {
    // Already there: no full circle.
  } else if (d < radius - slack) {
    return path;  // inside this side's circle
  } else {
    const double around = std::atan2(to_dest.y, to_dest.x);  // angle of the destination about C
    const double start_angle = heading - sign * 0.5 * kPi;
    double leave_angle = around;  // where the unit leaves the circle
    if (d > radius + slack) {
      // Tangent point: the angle x at C between the destination and the tangent point has
      // cos x = r/d; atan2 keeps it well conditioned near x = 0.
      line = std::sqrt((d - radius) * (d + radius));
      leave_angle = around - sign * std::atan2(line, radius);
    }
    arc = ArcAngle(sign * (leave_angle - start_angle));
  }
  path.type = side == TurnSide::kLeft ? TurnPathType::kLS : TurnPathType::kRS;
  AppendArc(&path, radius, sign * arc, &sin_h, &cos_h);
  AppendLine(&path, line, sin_h, cos_h);
  return path;
}

TurnPath ArcLinePath(glm::dvec2 from, double heading, double radius, glm::dvec2 to) {
  TurnPath left = ArcLinePathOnSide(from, heading, radius, to, TurnSide::kLeft);
  TurnPath right = ArcLinePathOnSide(from, heading, radius, to, TurnSide::kRight);
  if (!left.ok()) return right;
  if (!right.ok()) return left;
  const double tie = 1e-9 * std::max(1.0, left.length);
  if (std::abs(left.length - right.length) <= tie) {
    // Equal lengths (e.g. straight ahead, or radius 0): the smaller turn.
    return std::abs(right.segments[0].sweep) < std::abs(left.segments[0].sweep) ? right : left;
  }
  return left.length < right.length ? left : right;
}

std::array<double, 6> DubinsWordLengths(const Pose2& from, const Pose2& to, double radius) {
  std::array<double, 6> lengths;
  lengths.fill(kNaN);
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) return lengths;
  for (int w = 0; w < kWordCount; ++w) {
    double t, p, q;
    if (SolveWord(static_cast<Word>(w), frame, &t, &p, &q)) lengths[w] = (t + p + q) * radius;
  }
  return lengths;
}

TurnPath DubinsPathOfType(const Pose2& from, const Pose2& to, double radius, TurnPathType type) {
  DubinsFrame frame;
  if (!IsDubinsType(type) || !MakeFrame(from, to, radius, &frame)) return StartPath(from);
  const Word word =
      static_cast<Word>(static_cast<int>(type) - static_cast<int>(TurnPathType::kLSL));
  double t, p, q;
  if (!SolveWord(word, frame, &t, &p, &q)) return StartPath(from);
  return BuildWord(from, radius, word, t, p, q);
}

TurnPath DubinsPath(const Pose2& from, const Pose2& to, double radius) {
  if (radius == 0.0 && IsFinitePose(from) && IsFinitePose(to)) return TurnInPlacePath(from, to);
  DubinsFrame frame;
  if (!MakeFrame(from, to, radius, &frame)) return StartPath(from);
  int best = -1;
  double best_t = 0, best_p = 0, best_q = 0, best_sum = std::numeric_limits<double>::infinity();
  for (int w = 0; w < kWordCount; ++w) {
    // Three-arc words need the circles within 4r: skip their trig when d is clearly larger.
    if (w >= kRLR && frame.d > 4.0 + 1e-9) break;
    double t, p, q;
    if (!SolveWord(static_cast<Word>(w), frame, &t, &p, &q)) continue;
    const double sum = t + p + q;
    if (sum < best_sum) {
      best = w;
      best_sum = sum;
      best_t = t;
      best_p = p;
      best_q = q;
    }
  }
  if (best < 0) return StartPath(from);
  return BuildWord(from, radius, static_cast<Word>(best), best_t, best_p, best_q);
}

Pose2 SampleTurnPath(const TurnPath& path, double distance) {
  if (!(distance > 0.0)) return path.start;
  for (int i = 0; i < path.segment_count; ++i) {
    const TurnSegment& segment = path.segments[i];
    if (distance < segment.length) {
      if (segment.kind == TurnSegment::Kind::kLine) {
        return {segment.start.position + distance * Direction(segment.angle),
                segment.start.heading};
      }
      const double fraction = distance / segment.length;
      const double angle = segment.start_angle + segment.sweep * fraction;
      return {segment.centre + segment.radius * Direction(angle),
              WrapPi(segment.start.heading + segment.sweep * fraction)};
    }
    distance -= segment.length;
  }
  return path.end;
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
