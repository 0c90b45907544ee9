#include "core/crowd/crowd_step.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

#include "core/path/turn_path.h"

namespace md5stage {
namespace {

// Sub-intervals of a step on which two motions are compared (then refined where needed).
constexpr int kStepSamples = 4;
constexpr int kMaxRefineDepth = 6;
// Points on the horizon at which a candidate and a neighbour's predicted motion are compared.
constexpr int kHorizonSamples = 6;
// Ranking weights: missing the wanted heading (per π), missing the wanted speed (per max speed),
// a collision on the horizon (1 for one at the first sample), an obstacle on the horizon.
constexpr double kHeadingWeight = 1.0;
constexpr double kSpeedWeight = 0.6;
constexpr double kCollisionWeight = 4.0;
constexpr double kObstacleWeight = 3.0;
// A neighbour's risk inside the margin (beyond the clearances), and the share of the risks of
// the neighbours other than the worst.
constexpr double kMarginRisk = 0.1;
constexpr double kOtherRisk = 0.25;
constexpr double kLaterShare = 0.5;
// A step that leaves a character facing a neighbour too close to turn away from.
constexpr double kTrappedWeight = 3.0;
// Per second already waited: what standing still costs more.
constexpr double kWaitingWeight = 0.5;
// Two walkers meeting head-on would mirror each other's choices; a tiny preference for turning
// right (clockwise) makes both pass on the same side, the way people do.
constexpr double kRightHandBias = 1e-3;
// Ranked candidates: speed fractions of the wanted speed x manoeuvres (the follower's own, or a
// turn at the tightest curvature by one of these angles, then straight on), plus standing still.
constexpr double kSpeedFractions[] = {1.0, 0.6, 0.3};
constexpr double kTurnOffsets[] = {0.0, -0.2, 0.2, -0.45, 0.45, -0.8, 0.8, -1.2, 1.2, -1.8, 1.8};
constexpr int kCandidates =
    1 + static_cast<int>(std::size(kSpeedFractions)) * (1 + std::size(kTurnOffsets));

struct Candidate {
  double speed = 0.0;
  double curvature = 0.0;  // over this step
  double turn = 0.0;       // the manoeuvre's whole turn (radians, left positive)
  double cost = 0.0;
  int order = 0;  // ties in cost keep this order
};

Diagnostic Fail(const std::string& field, const std::string& expected, double found) {
  return MakeError("", 0, 0, field + ": expected " + expected + ", found " + std::to_string(found));
}

bool InRange(double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; }

// Threshold two characters keep: the sum of their clearances, or, for a pair already closer
// (bad input), their present distance (they may only part).
double PairThreshold(const CrowdAgent& a, const CrowdAgent& b) {
  return std::min(a.clearance + b.clearance, glm::distance(a.pose.position, b.pose.position));
}

// A lower bound of the distance between two motions over [t0, t1], both starting at the step's
// start poses, given the distances at the ends: each point moves at most at its speed.
bool SafeOnInterval(const CrowdAgent& a, const CrowdMotion& ma, const CrowdAgent& b,
                    const CrowdMotion& mb, double t0, double t1, double d0, double d1,
                    double threshold, int depth) {
  if (d0 < threshold || d1 < threshold) return false;
  const double reach = (ma.speed + mb.speed) * (t1 - t0);
  if (0.5 * (d0 + d1 - reach) >= threshold) return true;
  if (depth >= kMaxRefineDepth) return false;
  const double tm = 0.5 * (t0 + t1);
  const double dm = glm::distance(AdvancePose(a.pose, ma.speed, ma.curvature, tm).position,
                                  AdvancePose(b.pose, mb.speed, mb.curvature, tm).position);
  return SafeOnInterval(a, ma, b, mb, t0, tm, d0, dm, threshold, depth + 1) &&
         SafeOnInterval(a, ma, b, mb, tm, t1, dm, d1, threshold, depth + 1);
}

TurnSegment StepSegment(const Pose2& pose, double speed, double curvature, double time) {
  TurnSegment segment;
  segment.start = pose;
  segment.length = speed * time;
  if (curvature == 0.0) {
    segment.kind = TurnSegment::Kind::kLine;
    segment.angle = pose.heading;
    return segment;
  }
  segment.kind = TurnSegment::Kind::kArc;
  segment.radius = 1.0 / std::abs(curvature);
  segment.centre = pose.position +
                   (1.0 / curvature) * glm::dvec2(-std::sin(pose.heading), std::cos(pose.heading));
  segment.start_angle = pose.heading - (curvature > 0.0 ? 0.5 * kPi : -0.5 * kPi);
  segment.sweep = curvature * segment.length;
  return segment;
}

// Positions at `count` + 1 equally spaced times over [0, duration] on the motion's arc: each
// piece is the same chord turned by the piece's turn (no far-away centre, so a nearly straight
// arc keeps full precision, and no trigonometry per point).
void SampleMotion(const Pose2& pose, double speed, double curvature, double duration, int count,
                  glm::dvec2* out) {
  out[0] = pose.position;
  const double length = speed * duration / count;
  const double turn = curvature * length;
  // Chord of one piece: 2 sin(turn / 2) / curvature long, at half the piece's turn.
  const double chord = std::abs(turn) < 1e-300 ? length : 2.0 * std::sin(0.5 * turn) / curvature;
  glm::dvec2 step = chord * Direction(pose.heading + 0.5 * turn);
  const double c = std::cos(turn), s = std::sin(turn);
  for (int m = 1; m <= count; ++m) {
    out[m] = out[m - 1] + step;
    step = {c * step.x - s * step.y, s * step.x + c * step.y};
  }
}

// Positions at `count` + 1 equally spaced times over [0, duration] of a manoeuvre: a turn by
// `turn` at curvature `max_curvature` (the sign of `turn`), then straight on.
void SampleManoeuvre(const Pose2& pose, double speed, double turn, double max_curvature,
                     double duration, int count, glm::dvec2* out) {
  const double arc_length = std::abs(turn) / max_curvature;
  const double curvature = turn < 0.0 ? -max_curvature : max_curvature;
  const double piece = speed * duration / count;
  out[0] = pose.position;
  // On the arc: each piece is the same chord, turned by the piece's turn (as SampleMotion).
  const double piece_turn = curvature * piece;
  const double c = std::cos(piece_turn), s = std::sin(piece_turn);
  glm::dvec2 step =
      (2.0 * std::sin(0.5 * piece_turn) / curvature) * Direction(pose.heading + 0.5 * piece_turn);
  int m = 1;
  for (; m <= count && piece * m <= arc_length; ++m) {
    out[m] = out[m - 1] + step;
    step = {c * step.x - s * step.y, s * step.x + c * step.y};
  }
  if (m > count) return;
  // Past the arc's end: straight on from there.
  const Pose2 arc_end = AdvancePose(pose, 1.0, curvature, arc_length);
  const glm::dvec2 onwards = Direction(pose.heading + turn);
  for (; m <= count; ++m) out[m] = arc_end.position + (piece * m - arc_length) * onwards;
}

class StepRunner {
 public:
  explicit StepRunner(const CrowdStepJob& job)
      : job_(job), agents_(job.agents), scratch_(*job.scratch), step_(job.options.step) {}

  void Run() {
    BuildGrid();
    for (int i = 0; i < job_.count; ++i) {
      job_.motions[i] = CrowdMotion{};
      scratch_.decided[i] = 0;
      // Until i chooses, the others expect it straight on at its last speed.
      const CrowdAgent& a = agents_[i];
      SampleManoeuvre(a.pose, a.speed, 0.0, 1.0 / a.turning_radius, job_.options.horizon,
                      kHorizonSamples, Predicted(i));
    }
    for (int i = 0; i < job_.count; ++i) {
      job_.motions[i] = Choose(i);
      scratch_.decided[i] = 1;
    }
  }

 private:
  // Uniform grid of cells at least as wide as any interaction (the horizon's reach), capped at
  // about two cells a character so a spread-out crowd does not make a huge grid.
  void BuildGrid() {
    const int n = job_.count;
    glm::dvec2 lo = agents_[0].pose.position, hi = lo;
    max_clearance_ = 0.0;
    max_speed_ = 0.0;
    for (int i = 0; i < n; ++i) {
      lo = glm::min(lo, agents_[i].pose.position);
      hi = glm::max(hi, agents_[i].pose.position);
      max_clearance_ = std::max(max_clearance_, agents_[i].clearance);
      max_speed_ = std::max(max_speed_, agents_[i].max_speed);
    }
    const double reach = 2.0 * max_clearance_ * (1.0 + kMarginFraction) +
                         2.0 * max_speed_ * (job_.options.horizon + 2.0 * step_);
    const glm::dvec2 extent = hi - lo;
    const double max_cells = 2.0 * n + 16.0;
    cell_size_ = std::max(reach, 1e-9);
    // Grow the cells until the grid has at most max_cells of them.
    while ((std::floor(extent.x / cell_size_) + 1.0) * (std::floor(extent.y / cell_size_) + 1.0) >
           max_cells) {
      cell_size_ *= 2.0;
    }
    origin_ = lo;
    cells_x_ = static_cast<int>(std::floor(extent.x / cell_size_)) + 1;
    cells_y_ = static_cast<int>(std::floor(extent.y / cell_size_)) + 1;
    const int cells = cells_x_ * cells_y_;
    std::fill(scratch_.cell_start.begin(), scratch_.cell_start.begin() + cells + 1, 0);
    for (int i = 0; i < n; ++i) {
      const int c = CellIndex(CellX(agents_[i].pose.position.x), CellY(agents_[i].pose.position.y));
      scratch_.cell_of[i] = c;
      ++scratch_.cell_start[c + 1];
    }
    for (int c = 0; c < cells; ++c) scratch_.cell_start[c + 1] += scratch_.cell_start[c];
    // Stable counting sort: within a cell, ascending index.
    for (int c = 0; c <= cells; ++c) scratch_.fill[c] = scratch_.cell_start[c];
    for (int i = 0; i < n; ++i) scratch_.by_cell[scratch_.fill[scratch_.cell_of[i]]++] = i;
  }

  int CellX(double x) const {
    return std::clamp(static_cast<int>((x - origin_.x) / cell_size_), 0, cells_x_ - 1);
  }
  int CellY(double y) const {
    return std::clamp(static_cast<int>((y - origin_.y) / cell_size_), 0, cells_y_ - 1);
  }
  int CellIndex(int x, int y) const { return y * cells_x_ + x; }
  glm::dvec2* Predicted(int i) const {
    return scratch_.predicted.data() + static_cast<std::size_t>(i) * (kHorizonSamples + 1);
  }

  // Characters within reach of i's horizon, in a fixed order (cells row by row, then index).
  int GatherNeighbours(int i) {
    const CrowdAgent& a = agents_[i];
    const int cx = CellX(a.pose.position.x), cy = CellY(a.pose.position.y);
    int count = 0;
    for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, cells_y_ - 1); ++y) {
      for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, cells_x_ - 1); ++x) {
        const int c = CellIndex(x, y);
        for (int k = scratch_.cell_start[c]; k < scratch_.cell_start[c + 1]; ++k) {
          const int j = scratch_.by_cell[k];
          if (j == i) continue;
          const CrowdAgent& b = agents_[j];
          const double range = (a.clearance + b.clearance) * (1.0 + kMarginFraction) +
                               (a.max_speed + b.max_speed) * (job_.options.horizon + 2.0 * step_);
          const glm::dvec2 d = b.pose.position - a.pose.position;
          if (glm::dot(d, d) <= range * range) scratch_.neighbours[count++] = j;
        }
      }
    }
    return count;
  }

  CrowdMotion Choose(int i) {
    const CrowdAgent& a = agents_[i];
    const int neighbour_count = GatherNeighbours(i);
    const int* neighbours = scratch_.neighbours.data();
    // The few that matter for ranking: those whose expected way comes within the margin of
    // anywhere i can reach over the horizon, and those close enough to box i in.
    int risky_count = 0, close_count = 0;
    const double reach = a.wanted_speed;
    for (int n = 0; n < neighbour_count; ++n) {
      const int j = neighbours[n];
      const CrowdAgent& b = agents_[j];
      const double keep = (a.clearance + b.clearance) * (1.0 + kMarginFraction);
      const glm::dvec2* other = Predicted(j);
      const double piece = job_.options.horizon / kHorizonSamples;
      for (int m = 0; m <= kHorizonSamples; ++m) {
        const double slack =
            reach * piece * (m + 1) + (m > 0 ? glm::distance(other[m], other[m - 1]) : 0.0);
        const glm::dvec2 d = a.pose.position - other[m];
        if (glm::dot(d, d) <= (keep + slack) * (keep + slack)) {
          scratch_.risky[risky_count++] = j;
          break;
        }
      }
      const double box = a.clearance + b.clearance + 2.0 * a.turning_radius + reach * step_;
      if (glm::distance(a.pose.position, b.pose.position) < box) scratch_.close[close_count++] = j;
    }
    Candidate candidates[kCandidates];
    const int candidate_count = MakeCandidates(a, candidates);
    // Best first by what a candidate costs in any case (its miss of the wanted motion); the
    // penalties (neighbours, obstacles, being boxed in) only add, so they are worked out only
    // for candidates that could still beat the best found: the same choice as ranking all.
    for (int c = 0; c < candidate_count; ++c) candidates[c].cost = PreferenceCost(a, candidates[c]);
    std::sort(candidates, candidates + candidate_count, [](const Candidate& x, const Candidate& y) {
      return x.cost != y.cost ? x.cost < y.cost : x.order < y.order;
    });
    Ranking ranking{scratch_.risky.data(), risky_count, scratch_.close.data(), close_count,
                    NearObstacle(a)};
    double total[kCandidates];
    bool known[kCandidates] = {}, excluded[kCandidates] = {};
    for (;;) {
      int best = -1;
      for (int c = 0; c < candidate_count; ++c) {
        if (excluded[c]) continue;
        if (best >= 0 && candidates[c].cost > total[best]) break;
        if (!known[c]) {
          total[c] = candidates[c].cost + Penalty(i, candidates[c], ranking);
          known[c] = true;
        }
        if (best < 0 || total[c] < total[best] ||
            (total[c] == total[best] && candidates[c].order < candidates[best].order)) {
          best = c;
        }
      }
      if (best < 0) break;
      const CrowdMotion motion{candidates[best].speed, candidates[best].curvature};
      // Standing still is always safe (see CrowdStepJob).
      if (motion.speed > 0.0 && !IsSafe(i, motion, neighbours, neighbour_count)) {
        excluded[best] = true;
        continue;
      }
      // Those after i give way to the manoeuvre it chose.
      SampleManoeuvre(a.pose, motion.speed, candidates[best].turn, 1.0 / a.turning_radius,
                      job_.options.horizon, kHorizonSamples, Predicted(i));
      return motion;
    }
    SampleManoeuvre(a.pose, 0.0, 0.0, 1.0, job_.options.horizon, kHorizonSamples, Predicted(i));
    return CrowdMotion{};
  }

  // The follower's manoeuvre: its whole turn to the wanted heading, on the side its curvature
  // turns (the long way round when its arc-and-line path goes that way).
  static double WantedTurn(const CrowdAgent& a) {
    if (a.wanted_curvature > 0.0) return WrapTwoPi(a.wanted_heading - a.pose.heading);
    if (a.wanted_curvature < 0.0) return -WrapTwoPi(a.pose.heading - a.wanted_heading);
    return 0.0;
  }

  int MakeCandidates(const CrowdAgent& a, Candidate* out) const {
    const double max_curvature = 1.0 / a.turning_radius;
    const double wanted_curvature = std::clamp(a.wanted_curvature, -max_curvature, max_curvature);
    const double wanted_turn = WantedTurn(a);
    int count = 0;
    out[count++] = {0.0, 0.0, 0.0, 0.0, 0};
    if (a.wanted_speed <= 0.0) return count;
    for (double fraction : kSpeedFractions) {
      const double speed = std::min(a.wanted_speed * fraction, a.max_speed);
      out[count] = {speed, wanted_curvature, wanted_turn, 0.0, count};
      ++count;
      // Turn by `turn` at the tightest curvature, or by what is left of it within the step.
      const double step_length = speed * step_;
      for (double turn : kTurnOffsets) {
        const double curvature = std::min(max_curvature, std::abs(turn) / step_length);
        out[count] = {speed, turn < 0.0 ? -curvature : curvature, turn, 0.0, count};
        ++count;
      }
    }
    return count;
  }

  // How deep and how soon a candidate's path (sampled over the horizon) comes inside the
  // distance `b` should be kept at, `b` moving straight on at its present speed: 0 when never,
  // up to 1 for touching centres at once. Between samples both move in a line, so the closest
  // approach of each piece is exact for that line (nothing slips between samples).
  double CollisionRisk(const CrowdAgent& a, int j, const glm::dvec2* path) const {
    const CrowdAgent& b = agents_[j];
    // A neighbour already nearer than the margin (or the clearances) counts only for coming
    // nearer still.
    const double now = glm::distance(a.pose.position, b.pose.position);
    const double contact = std::min(a.clearance + b.clearance, now);
    const double keep = std::min((a.clearance + b.clearance) * (1.0 + kMarginFraction), now);
    if (keep <= 0.0) return 0.0;
    const glm::dvec2* other = Predicted(j);
    // A piece whose ends are both farther than the margin plus half the piece's length (at
    // most both speeds over the piece) cannot come within the margin.
    const double piece = (a.max_speed + b.max_speed) * job_.options.horizon / kHorizonSamples;
    const double far = (keep + 0.5 * piece) * (keep + 0.5 * piece);
    double risk = 0.0;
    glm::dvec2 before = path[0] - other[0];
    double before2 = glm::dot(before, before);
    for (int m = 1; m <= kHorizonSamples; ++m) {
      const glm::dvec2 after = path[m] - other[m];
      const double after2 = glm::dot(after, after);
      if (before2 > far && after2 > far) {
        before = after;
        before2 = after2;
        continue;
      }
      const glm::dvec2 change = after - before;
      const double length2 = glm::dot(change, change);
      const double along =
          length2 > 0.0 ? std::clamp(-glm::dot(before, change) / length2, 0.0, 1.0) : 0.0;
      const glm::dvec2 nearest = before + along * change;
      const double closest2 = glm::dot(nearest, nearest);
      if (closest2 < keep * keep) {
        const double closest = std::sqrt(closest2);
        // Inside the margin: a little; inside the clearances: a lot, the deeper the more.
        const double soon = 1.0 - 0.5 * (m - 1.0) / kHorizonSamples;
        const double margin =
            keep > contact ? std::min((keep - closest) / (keep - contact), 1.0) : 1.0;
        const double depth = contact > 0.0 ? std::max(contact - closest, 0.0) / contact : 0.0;
        risk = std::max(risk, soon * (kMarginRisk * margin + depth));
      }
      before = after;
      before2 = after2;
    }
    return risk;
  }

  // Whether a character at `pose` could still leave `b` (standing where it is) behind: straight
  // on passes it, or a whole turn on either side stays clear of it. A character facing another
  // closer than that can only wait for the other to move: two such facing each other would wait
  // for ever.
  bool Trapped(const CrowdAgent& a, const Pose2& pose, const CrowdAgent& b) const {
    const double contact = a.clearance + b.clearance;
    const glm::dvec2 to = b.pose.position - pose.position;
    const double r = a.turning_radius;
    if (glm::dot(to, to) >= (contact + 2.0 * r) * (contact + 2.0 * r)) return false;
    const glm::dvec2 forward = Direction(pose.heading);
    if (glm::dot(to, forward) <= 0.0 || std::abs(Cross(forward, to)) >= contact) return false;
    const glm::dvec2 left{-forward.y, forward.x};
    for (double side : {1.0, -1.0}) {
      const double d = glm::length(to - side * r * left);
      if (d >= r + contact || d <= r - contact) return false;
    }
    return true;
  }

  // A manoeuvre (turn by `turn` at the tightest curvature, then straight on) travelled `length`
  // comes within the character's clearance of an obstacle.
  bool ManoeuvreMeetsObstacle(const CrowdAgent& a, double turn, double length) const {
    const double max_curvature = 1.0 / a.turning_radius;
    const double arc_length = std::min(std::abs(turn) / max_curvature, length);
    if (arc_length > 0.0) {
      const TurnSegment arc =
          StepSegment(a.pose, 1.0, turn < 0.0 ? -max_curvature : max_curvature, arc_length);
      if (job_.obstacles->FirstTurnSegmentWithin(arc, a.clearance) >= 0) return true;
    }
    if (length <= arc_length) return false;
    const Pose2 from =
        AdvancePose(a.pose, 1.0, turn < 0.0 ? -max_curvature : max_curvature, arc_length);
    const TurnSegment line = StepSegment(from, 1.0, 0.0, length - arc_length);
    return job_.obstacles->FirstTurnSegmentWithin(line, a.clearance) >= 0;
  }

  // What a candidate costs in any case: how far it is from the wanted motion (heading and
  // speed), the right-hand preference, and waiting (dearer the longer it lasts, so a character
  // does not stand for ever where moving on is safe but close).
  double PreferenceCost(const CrowdAgent& a, const Candidate& candidate) const {
    const double speed_scale = a.max_speed > 0.0 ? a.max_speed : 1.0;
    const double heading_miss =
        std::abs(WrapPi(a.wanted_heading - a.pose.heading - candidate.turn));
    double cost = kHeadingWeight * heading_miss / kPi +
                  kSpeedWeight * (a.wanted_speed - candidate.speed) / speed_scale +
                  kRightHandBias * candidate.turn / kPi;
    if (candidate.speed == 0.0) cost += kWaitingWeight * a.waiting;
    return cost;
  }

  bool NearObstacle(const CrowdAgent& a) const {
    return job_.obstacles && !job_.obstacles->empty() &&
           job_.obstacles->FirstWithin(a.pose.position,
                                       a.clearance + a.max_speed * job_.options.horizon) >= 0;
  }

  // The neighbours a candidate is ranked against (see Choose).
  struct Ranking {
    const int* risky;
    int risky_count;
    const int* close;
    int close_count;
    bool near_obstacle;
  };

  // What a candidate adds to its preference cost: an obstacle on its manoeuvre, a step that
  // leaves it boxed in, and how soon and how deep it would come among the neighbours moving as
  // expected.
  double Penalty(int i, const Candidate& candidate, const Ranking& ranking) const {
    const CrowdAgent& a = agents_[i];
    const double horizon = job_.options.horizon;
    double penalty = 0.0;
    if (ranking.near_obstacle && candidate.speed > 0.0 &&
        ManoeuvreMeetsObstacle(a, candidate.turn, candidate.speed * horizon)) {
      penalty += kObstacleWeight;
    }
    if (candidate.speed > 0.0 && ranking.close_count > 0) {
      const Pose2 end = AdvancePose(a.pose, candidate.speed, candidate.curvature, step_);
      for (int n = 0; n < ranking.close_count; ++n) {
        const CrowdAgent& b = agents_[ranking.close[n]];
        if (!Trapped(a, a.pose, b) && Trapped(a, end, b)) {
          penalty += kTrappedWeight;
          break;
        }
      }
    }
    if (ranking.risky_count == 0) return penalty;
    glm::dvec2 path[kHorizonSamples + 1];
    SampleManoeuvre(a.pose, candidate.speed, candidate.turn, 1.0 / a.turning_radius, horizon,
                    kHorizonSamples, path);
    // Those that chose before i count fully (i gives way to them), those after less (they
    // will give way to i). The worst neighbour, and a little of the others.
    double worst = 0.0, total = 0.0;
    for (int n = 0; n < ranking.risky_count; ++n) {
      const int j = ranking.risky[n];
      const double risk = (j < i ? 1.0 : kLaterShare) * CollisionRisk(a, j, path);
      worst = std::max(worst, risk);
      total += risk;
    }
    return penalty + kCollisionWeight * (worst + kOtherRisk * (total - worst));
  }

  // The motion keeps i apart from every neighbour over the whole step (from those already
  // decided on their motions, from the others where they stand) and out of obstacles.
  bool IsSafe(int i, const CrowdMotion& motion, const int* neighbours, int neighbour_count) const {
    const CrowdAgent& a = agents_[i];
    glm::dvec2 path[kStepSamples + 1];
    SampleMotion(a.pose, motion.speed, motion.curvature, step_, kStepSamples, path);
    for (int n = 0; n < neighbour_count; ++n) {
      const int j = neighbours[n];
      const CrowdAgent& b = agents_[j];
      const double threshold = PairThreshold(a, b);
      const CrowdMotion other = scratch_.decided[j] ? job_.motions[j] : CrowdMotion{};
      // Too far apart to meet within the step: skip the samples.
      const double gap = glm::distance(a.pose.position, b.pose.position);
      if (gap - (motion.speed + other.speed) * step_ >= threshold) continue;
      glm::dvec2 other_path[kStepSamples + 1];
      SampleMotion(b.pose, other.speed, other.curvature, step_, kStepSamples, other_path);
      double before = glm::distance(path[0], other_path[0]);
      for (int m = 1; m <= kStepSamples; ++m) {
        const double after = glm::distance(path[m], other_path[m]);
        if (!SafeOnInterval(a, motion, b, other, step_ * (m - 1) / kStepSamples,
                            step_ * m / kStepSamples, before, after, threshold, 0)) {
          return false;
        }
        before = after;
      }
    }
    if (job_.obstacles && !job_.obstacles->empty()) {
      const TurnSegment segment = StepSegment(a.pose, motion.speed, motion.curvature, step_);
      if (job_.obstacles->FirstTurnSegmentWithin(segment, a.clearance) >= 0) return false;
    }
    return true;
  }

  // Extra distance kept on the horizon beyond the clearances, so characters turn aside before
  // they are close enough that only stopping is safe.
  static constexpr double kMarginFraction = 0.5;

  const CrowdStepJob& job_;
  const CrowdAgent* agents_;
  CrowdScratch& scratch_;
  double step_;
  double max_clearance_ = 0.0;
  double max_speed_ = 0.0;
  glm::dvec2 origin_{0.0, 0.0};
  double cell_size_ = 1.0;
  int cells_x_ = 1, cells_y_ = 1;
};

}  // namespace

Pose2 AdvancePose(const Pose2& pose, double speed, double curvature, double time) {
  const double distance = speed * time;
  const double turn = curvature * distance;
  // The chord, 2 sin(turn / 2) / curvature long at half the turn: exact for lines and arcs
  // alike, without the cancellation of a difference of sines over a tiny curvature.
  const double chord = std::abs(turn) < 1e-300 ? distance : 2.0 * std::sin(0.5 * turn) / curvature;
  return {pose.position + chord * Direction(pose.heading + 0.5 * turn),
          WrapPi(pose.heading + turn)};
}

void CrowdScratch::Reserve(int characters) {
  const std::size_t n = static_cast<std::size_t>(std::max(characters, 0));
  cell_of.resize(n);
  predicted.resize(n * (kHorizonSamples + 1));
  cell_start.resize(2 * n + 18);
  fill.resize(2 * n + 18);
  by_cell.resize(n);
  neighbours.resize(n);
  risky.resize(n);
  close.resize(n);
  decided.resize(n);
  capacity_ = std::max(characters, 0);
}

Status CrowdStepJob::Validate() const {
  if (!scratch) return MakeError("", 0, 0, "scratch: expected a CrowdScratch, found none");
  if (!motions) return MakeError("", 0, 0, "motions: expected an output array, found none");
  if (count < 1 || count > kMaxCrowdCharacters) {
    return Fail("count",
                "a number of characters in [1, " + std::to_string(kMaxCrowdCharacters) + "]",
                count);
  }
  if (!agents) return MakeError("", 0, 0, "agents: expected an array, found none");
  if (scratch->capacity() < count) {
    return Fail("scratch", "Reserve(" + std::to_string(count) + ") or more", scratch->capacity());
  }
  if (!InRange(options.step, 1e-6, 1.0)) {
    return Fail("options.step", "seconds in [1e-6, 1]", options.step);
  }
  if (!InRange(options.horizon, options.step, 10.0)) {
    return Fail("options.horizon", "seconds in [step, 10]", options.horizon);
  }
  for (int i = 0; i < count; ++i) {
    const CrowdAgent& a = agents[i];
    const std::string name = "agents[" + std::to_string(i) + "].";
    if (!InRange(a.pose.position.x, -kMaxCrowdCoordinate, kMaxCrowdCoordinate)) {
      return Fail(name + "pose.position.x", "a finite coordinate", a.pose.position.x);
    }
    if (!InRange(a.pose.position.y, -kMaxCrowdCoordinate, kMaxCrowdCoordinate)) {
      return Fail(name + "pose.position.y", "a finite coordinate", a.pose.position.y);
    }
    if (!std::isfinite(a.pose.heading)) {
      return Fail(name + "pose.heading", "a finite angle", a.pose.heading);
    }
    if (!InRange(a.max_speed, 0.0, kMaxCrowdCoordinate)) {
      return Fail(name + "max_speed", "a finite number >= 0", a.max_speed);
    }
    if (!InRange(a.speed, 0.0, a.max_speed)) {
      return Fail(name + "speed", "a number in [0, max_speed]", a.speed);
    }
    if (!(std::isfinite(a.turning_radius) && a.turning_radius > 0.0 &&
          a.turning_radius <= kMaxCrowdCoordinate)) {
      return Fail(name + "turning_radius", "a finite number > 0", a.turning_radius);
    }
    if (!InRange(a.clearance, 0.0, kMaxCrowdCoordinate)) {
      return Fail(name + "clearance", "a finite number >= 0", a.clearance);
    }
    if (!InRange(a.waiting, 0.0, 1e300)) {
      return Fail(name + "waiting", "seconds >= 0", a.waiting);
    }
    if (!std::isfinite(a.wanted_heading)) {
      return Fail(name + "wanted_heading", "a finite angle", a.wanted_heading);
    }
    if (!std::isfinite(a.wanted_curvature)) {
      return Fail(name + "wanted_curvature", "a finite number", a.wanted_curvature);
    }
    if (!InRange(a.wanted_speed, 0.0, a.max_speed)) {
      return Fail(name + "wanted_speed", "a number in [0, max_speed]", a.wanted_speed);
    }
  }
  return {};
}

Status CrowdStepJob::Run() const {
  Status valid = Validate();
  if (!valid) return valid;
  StepRunner(*this).Run();
  return {};
}

}  // namespace md5stage
