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
// Per second already waited: what standing still costs more.
constexpr double kWaitingWeight = 0.5;
// Two walkers meeting head-on would mirror each other's choices; a tiny preference for turning
// right (clockwise) makes both pass on the same side, the way people do.
constexpr double kRightHandBias = 1e-3;
// Ranked candidates: speed fractions of the wanted speed x manoeuvres (the follower's own, or a
// turn at the tightest curvature by one of these angles, then straight on), plus standing still.
constexpr double kSpeedFractions[] = {1.0, 0.6, 0.3};
constexpr double kTurnOffsets[] = {0.0, -0.2, 0.2, -0.45, 0.45, -0.8, 0.8, -1.2, 1.2, -1.8, 1.8};
// The neighbours a character ranks its candidates against, at most (the soonest to meet).
constexpr int kMaxRankedNeighbours = 6;
constexpr int kCandidates =
    1 + static_cast<int>(std::size(kSpeedFractions)) * (1 + std::size(kTurnOffsets));

// No bound on a candidate's penalty (the first one ranked).
constexpr double kNoLimit = HUGE_VAL;
// A candidate's turn is the follower's own, not one of kTurnOffsets.
constexpr int kWantedTurn = -1;

// Filled whole by MakeCandidates (no member defaults: the array of them is not cleared first).
struct Candidate {
  double speed;
  double curvature;  // over this step (an offset's: once it is first ranked)
  double turn;       // the manoeuvre's whole turn (radians, left positive)
  double cost;
  int speed_index;  // into kSpeedFractions
  int turn_index;   // into kTurnOffsets, or kWantedTurn
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

// A unit vector turned by an angle given as its (cos, sin).
glm::dvec2 Rotate(glm::dvec2 v, glm::dvec2 turn) {
  return {turn.x * v.x - turn.y * v.y, turn.y * v.x + turn.x * v.y};
}

// How a character's manoeuvres look at one speed: the horizon's pieces on the tightest arc.
// Worked out once per character and speed, so sampling a manoeuvre needs no trigonometry.
struct SpeedFrame {
  double speed = 0.0;
  double piece = 0.0;                   // length of one horizon piece
  glm::dvec2 piece_turn{1.0, 0.0};      // (cos, sin) of one piece's turn on the tightest arc
  glm::dvec2 half_turn{1.0, 0.0};       // (cos, sin) of half of it
  double chord = 0.0;                   // one piece's chord on the tightest arc
  glm::dvec2 step_half_turn{1.0, 0.0};  // (cos, sin) of half a step's turn on the tightest arc
};

// A manoeuvre's turn given by its trigonometry: whole turn, half turn (cos, sin), and the chord
// of its arc at the tightest curvature.
struct TurnShape {
  double turn = 0.0;
  glm::dvec2 full{1.0, 0.0};
  glm::dvec2 half{1.0, 0.0};
  double arc_chord = 0.0;  // 2 R sin(|turn| / 2)
};

TurnShape MakeTurnShape(double turn, double radius) {
  TurnShape shape;
  shape.turn = turn;
  shape.full = Direction(turn);
  shape.half = Direction(0.5 * turn);
  shape.arc_chord = 2.0 * radius * std::abs(shape.half.y);
  return shape;
}

class StepRunner {
 public:
  explicit StepRunner(const CrowdStepJob& job)
      : job_(job), agents_(job.agents), scratch_(*job.scratch), step_(job.options.step) {
    for (std::size_t t = 0; t < std::size(kTurnOffsets); ++t) {
      // The radius is applied per character (arc_chord scales with it).
      offset_shapes_[t] = MakeTurnShape(kTurnOffsets[t], 1.0);
    }
  }

  void Run() {
    BuildGrid();
    const double piece = job_.options.horizon / kHorizonSamples;
    for (int i = 0; i < job_.count; ++i) {
      job_.motions[i] = CrowdMotion{};
      scratch_.decided[i] = 0;
      // Until i chooses, the others expect it straight on at its last speed.
      const CrowdAgent& a = agents_[i];
      const glm::dvec2 forward = Direction(a.pose.heading);
      scratch_.forward[i] = forward;
      glm::dvec2* predicted = Predicted(i);
      for (int m = 0; m <= kHorizonSamples; ++m) {
        predicted[m] = a.pose.position + (a.speed * piece * m) * forward;
      }
      scratch_.predicted_piece[i] = a.speed * piece;
      std::fill(StepPath(i), StepPath(i) + kStepSamples + 1, a.pose.position);
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
    double max_reach = 0.0;
    for (int i = 0; i < n; ++i) {
      lo = glm::min(lo, agents_[i].pose.position);
      hi = glm::max(hi, agents_[i].pose.position);
      max_reach = std::max(max_reach, Reach(agents_[i]));
    }
    const glm::dvec2 extent = hi - lo;
    const double max_cells = 2.0 * n + 16.0;
    max_reach_ = max_reach;
    // Cells half the largest interaction range wide: a query scans the cells its range
    // overlaps (about 4 x 4), less area than 3 x 3 cells of the whole range.
    cell_size_ = std::max(max_reach, 1e-9);
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
    for (int i = 0; i < n; ++i) {
      const int k = scratch_.fill[scratch_.cell_of[i]]++;
      scratch_.by_cell[k] = i;
      scratch_.by_cell_position[k] = agents_[i].pose.position;
      scratch_.by_cell_reach[k] = Reach(agents_[i]);
    }
  }

  // A character's share of a pair's interaction range: its clearance with the margin, and how
  // far it can walk over the horizon (and two steps more); a pair interacts within the sum.
  double Reach(const CrowdAgent& a) const {
    return a.clearance * (1.0 + kMarginFraction) +
           a.max_speed * (job_.options.horizon + 2.0 * step_);
  }

  int CellX(double x) const {
    return std::clamp(static_cast<int>((x - origin_.x) / cell_size_), 0, cells_x_ - 1);
  }
  int CellY(double y) const {
    return std::clamp(static_cast<int>((y - origin_.y) / cell_size_), 0, cells_y_ - 1);
  }
  int CellIndex(int x, int y) const { return y * cells_x_ + x; }
  // Where i is at the step's samples: standing until it has chosen, then on its motion.
  glm::dvec2* StepPath(int i) const {
    return scratch_.step_path.data() + static_cast<std::size_t>(i) * (kStepSamples + 1);
  }
  glm::dvec2* Predicted(int i) const {
    return scratch_.predicted.data() + static_cast<std::size_t>(i) * (kHorizonSamples + 1);
  }

  // A neighbour the ranking weighs, with what is worked out once per chooser.
  struct RankedNeighbour {
    int index = 0;
    double weight = 1.0;   // 1 when it chose before, kLaterShare when it will choose after
    double keep = 0.0;     // the distance kept on the horizon (clearances and margin)
    double contact = 0.0;  // the clearances (or the present distance when nearer)
    double far2 = 0.0;     // squared: a horizon piece with both ends beyond cannot come within
    double piece = 0.0;    // the most it moves between two samples
    const glm::dvec2* predicted = nullptr;
  };

  // What orders the neighbours that may come near: the first horizon sample at which one may be
  // within the margin, then its distance now, then its index.
  struct Soonness {
    int first_risk;
    int index;
    double distance2;
    bool operator<(const Soonness& y) const {
      if (first_risk != y.first_risk) return first_risk < y.first_risk;
      if (distance2 != y.distance2) return distance2 < y.distance2;
      return index < y.index;
    }
  };

  // What i's choice needs of the characters within reach of its horizon (cells row by row, then
  // index; each list keeps that order), found in one pass over them:
  // - those near enough to meet i within the step, whatever either does (the only ones the
  //   safety check can refuse a motion for; the others it would skip one by one);
  // - those close enough that a step could box i in (facing one too close to turn away), and
  //   not boxing it in already: a step into being boxed in is refused (two boxed in facing each
  //   other would wait for ever; one boxed in waits for the other to move on); and those that
  //   box it in already (when i stands it reports the lowest index of them, else the one that
  //   refused its best step);
  // - the neighbours whose expected way comes within the margin of anywhere i can reach over the
  //   horizon; when more than kMaxRankedNeighbours, the soonest (then nearest, then lowest
  //   index): a bounded number, as DetourCrowd's maxNeighbours, so a dense crowd does not make
  //   ranking dearer.
  struct Neighbourhood {
    int near_count = 0;    // in scratch_.near
    int close_count = 0;   // in scratch_.close
    int boxing_count = 0;  // in scratch_.boxing
    int boxed_in_by = -1;  // the lowest index boxing i in already, or -1
    int in_company = -1;   // the first within the boxed-in distance not boxing i in, or -1
    int ranked_count = 0;  // in `ranked`
  };

  void SurveyNeighbours(int i, glm::dvec2 forward, RankedNeighbour* ranked,
                        Neighbourhood* out) const {
    const CrowdAgent& a = agents_[i];
    const glm::dvec2 p = a.pose.position;
    const double a_reach = Reach(a);
    const double range = a_reach + max_reach_;
    const int x0 = CellX(p.x - range), x1 = CellX(p.x + range);
    const int y0 = CellY(p.y - range), y1 = CellY(p.y + range);
    const double piece = job_.options.horizon / kHorizonSamples;
    const double reach = a.wanted_speed * piece;
    // How far i may be at each sample (the same products as reach * (m + 1) each time).
    double reach_by[kHorizonSamples + 1];
    for (int m = 0; m <= kHorizonSamples; ++m) reach_by[m] = reach * (m + 1);
    Soonness soonest[kMaxRankedNeighbours];
    int count = 0;
    for (int y = y0; y <= y1; ++y) {
      // The cells of a row are contiguous in the sorted order.
      const int first_in_row = scratch_.cell_start[CellIndex(x0, y)];
      const int last_in_row = scratch_.cell_start[CellIndex(x1, y) + 1];
      for (int k = first_in_row; k < last_in_row; ++k) {
        const glm::dvec2 to = scratch_.by_cell_position[k] - p;
        const double distance2 = glm::dot(to, to);
        const double pair = a_reach + scratch_.by_cell_reach[k];
        if (distance2 > pair * pair) continue;
        const int j = scratch_.by_cell[k];
        if (j == i) continue;
        const CrowdAgent& b = agents_[j];
        // A hair wider than the safety check's own skip, so rounding never drops one it keeps.
        const double meet =
            (a.clearance + b.clearance + (a.max_speed + b.max_speed) * step_) * (1.0 + 1e-9);
        if (distance2 < meet * meet) scratch_.near[out->near_count++] = j;
        const double box =
            a.clearance + b.clearance + 2.0 * a.turning_radius + a.wanted_speed * step_;
        if (distance2 < box * box) {
          if (!Trapped(a, a.pose.position, forward, StepEndOf(j), b.clearance)) {
            if (out->in_company < 0) out->in_company = j;
            if (MayTrapWithinStep(a, forward, StepEndOf(j), b.clearance)) {
              scratch_.close[out->close_count++] = j;
            }
          } else {
            scratch_.boxing[out->boxing_count++] = j;
            if (out->boxed_in_by < 0 || j < out->boxed_in_by) out->boxed_in_by = j;
          }
        }
        const double keep = (a.clearance + b.clearance) * (1.0 + kMarginFraction);
        const glm::dvec2* other = Predicted(j);
        // Between two samples the neighbour moves at most its piece.
        const double other_piece = scratch_.predicted_piece[j];
        // Every sample is within 3 pieces of the middle one: one test for most of those that
        // never come near.
        constexpr int kMiddle = kHorizonSamples / 2;
        const double never = keep + reach_by[kHorizonSamples] + other_piece * (kMiddle + 1);
        const glm::dvec2 to_middle = p - other[kMiddle];
        if (glm::dot(to_middle, to_middle) > never * never) continue;
        // Its first sample is where it stands now: `distance2` away.
        int first = -1;
        const double slack0 = keep + reach_by[0];
        if (distance2 <= slack0 * slack0) first = 0;
        for (int m = 1; first < 0 && m <= kHorizonSamples; ++m) {
          const double slack = keep + reach_by[m] + other_piece;
          const glm::dvec2 d = p - other[m];
          if (glm::dot(d, d) <= slack * slack) first = m;
        }
        if (first < 0) continue;
        const Soonness entry{first, j, distance2};
        if (count == kMaxRankedNeighbours && !(entry < soonest[count - 1])) continue;
        // Insert in order (the list stays short).
        int at = count < kMaxRankedNeighbours ? count++ : count - 1;
        for (; at > 0 && entry < soonest[at - 1]; --at) soonest[at] = soonest[at - 1];
        soonest[at] = entry;
      }
    }
    for (int n = 0; n < count; ++n) {
      RankedNeighbour& r = ranked[n];
      r.index = soonest[n].index;
      const CrowdAgent& b = agents_[r.index];
      // A neighbour already nearer than the margin (or the clearances) counts only for coming
      // nearer still.
      const double now = std::sqrt(soonest[n].distance2);
      r.weight = r.index < i ? 1.0 : kLaterShare;
      r.contact = std::min(a.clearance + b.clearance, now);
      r.keep = std::min((a.clearance + b.clearance) * (1.0 + kMarginFraction), now);
      // A piece whose ends are both farther than the margin plus half the piece's length (at
      // most both speeds over the piece) cannot come within the margin.
      const double both = (a.max_speed + b.max_speed) * piece;
      r.far2 = (r.keep + 0.5 * both) * (r.keep + 0.5 * both);
      r.piece = scratch_.predicted_piece[r.index];
      r.predicted = Predicted(r.index);
    }
    out->ranked_count = count;
  }

  CrowdMotion Choose(int i) {
    const CrowdAgent& a = agents_[i];
    Shapes shapes;
    MakeShapes(a, scratch_.forward[i], &shapes);
    RankedNeighbour ranked[kMaxRankedNeighbours];
    Neighbourhood around;
    SurveyNeighbours(i, shapes.forward, ranked, &around);
    const int near_count = around.near_count;
    int boxed_in_by = around.boxed_in_by;
    Candidate candidates[kCandidates];
    const int candidate_count = MakeCandidates(a, candidates);
    // What a candidate costs in any case (its miss of the wanted motion) is known at once; the
    // penalties (neighbours, obstacles) only add and a step into being boxed in is refused, so a
    // candidate whose cost already reaches the best total found is skipped, and a penalty is worked
    // out only as far as the candidate can still win: the same choice as ranking all (the least
    // total, the earliest candidate of equal totals). The candidates come roughly best first (the
    // wanted manoeuvre, small turns, then slower), so the best total drops early.
    Ranking ranking{ranked,
                    around.ranked_count,
                    scratch_.close.data(),
                    around.close_count,
                    scratch_.boxing.data(),
                    around.boxing_count,
                    NearObstacle(a),
                    around.in_company};
    // A candidate's total is unknown, known exactly, or only known to exceed the best's at the
    // time (its penalty was cut short: it could not win then).
    enum class Known : std::uint8_t { kNo, kExceeds, kExactly };
    double total[kCandidates];
    Known known[kCandidates] = {};
    bool excluded[kCandidates] = {};
    glm::dvec2 paths[kCandidates][kHorizonSamples + 1];
    for (;;) {
      int best = -1;
      for (int c = 0; c < candidate_count; ++c) {
        if (excluded[c]) continue;
        if (best >= 0 && candidates[c].cost >= total[best]) continue;
        if (known[c] == Known::kExceeds && best >= 0 && total[c] >= total[best]) continue;
        if (known[c] != Known::kExactly) {
          if (known[c] == Known::kNo) {
            if (candidates[c].turn_index != kWantedTurn) {
              candidates[c].curvature =
                  OffsetCurvature(a, candidates[c].speed, candidates[c].turn, step_);
            }
            const int boxer = BoxesIn(i, &shapes, candidates[c], ranking);
            if (boxer >= 0) {
              // The first refused this way names the one that keeps i standing, unless one
              // boxes it in already.
              if (boxed_in_by < 0) boxed_in_by = boxer;
              excluded[c] = true;
              continue;
            }
            SampleCandidate(a, &shapes, candidates[c], paths[c]);
          }
          const double limit = best >= 0 ? total[best] - candidates[c].cost : kNoLimit;
          bool exact = true;
          total[c] =
              candidates[c].cost + Penalty(i, candidates[c], paths[c], ranking, limit, &exact);
          known[c] = exact ? Known::kExactly : Known::kExceeds;
          if (!exact) continue;
        }
        if (best < 0 || total[c] < total[best]) best = c;
      }
      if (best < 0) break;
      CrowdMotion motion{candidates[best].speed, candidates[best].curvature};
      // One that wants to stand is kept standing by nobody.
      if (motion.speed == 0.0 && a.wanted_speed > 0.0) motion.boxed_in_by = boxed_in_by;
      // Standing still is always safe (see CrowdStepJob).
      glm::dvec2 step_path[kStepSamples + 1];
      int blocker = -1;
      if (motion.speed > 0.0 &&
          !IsSafe(i, motion, scratch_.near.data(), near_count, step_path, &blocker)) {
        if (boxed_in_by < 0) boxed_in_by = blocker;
        excluded[best] = true;
        continue;
      }
      if (motion.speed > 0.0) std::copy(step_path, step_path + kStepSamples + 1, StepPath(i));
      // Those after i give way to the manoeuvre it chose.
      std::copy(paths[best], paths[best] + kHorizonSamples + 1, Predicted(i));
      scratch_.predicted_piece[i] = motion.speed * job_.options.horizon / kHorizonSamples;
      return motion;
    }
    std::fill(Predicted(i), Predicted(i) + kHorizonSamples + 1, a.pose.position);
    scratch_.predicted_piece[i] = 0.0;
    CrowdMotion standing;
    if (a.wanted_speed > 0.0) standing.boxed_in_by = boxed_in_by;
    return standing;
  }

  // The follower's manoeuvre: its whole turn to the wanted heading, on the side its curvature
  // turns (the long way round when its arc-and-line path goes that way).
  static double WantedTurn(const CrowdAgent& a) {
    if (a.wanted_curvature > 0.0) return WrapTwoPi(a.wanted_heading - a.pose.heading);
    if (a.wanted_curvature < 0.0) return -WrapTwoPi(a.pose.heading - a.wanted_heading);
    return 0.0;
  }

  // The candidates in ranking order, each with its preference cost.
  int MakeCandidates(const CrowdAgent& a, Candidate* out) const {
    const double max_curvature = 1.0 / a.turning_radius;
    const double wanted_curvature = std::clamp(a.wanted_curvature, -max_curvature, max_curvature);
    const double wanted_turn = WantedTurn(a);
    const TurnCost standing_turn = CostOfTurn(a, 0.0);
    const double standing_cost = standing_turn.heading + CostOfSpeed(a, 0.0) + standing_turn.bias +
                                 kWaitingWeight * a.waiting;
    int count = 0;
    if (a.wanted_speed <= 0.0) {
      out[count++] = {0.0, 0.0, 0.0, standing_cost, 0, kWantedTurn};
      return count;
    }
    const TurnCost wanted_cost = CostOfTurn(a, wanted_turn);
    TurnCost offset_costs[std::size(kTurnOffsets)];
    for (std::size_t t = 0; t < std::size(kTurnOffsets); ++t) {
      offset_costs[t] = CostOfTurn(a, kTurnOffsets[t]);
    }
    for (int f = 0; f < static_cast<int>(std::size(kSpeedFractions)); ++f) {
      const double speed = std::min(a.wanted_speed * kSpeedFractions[f], a.max_speed);
      const double speed_cost = CostOfSpeed(a, speed);
      out[count] = {speed,       wanted_curvature,
                    wanted_turn, wanted_cost.heading + speed_cost + wanted_cost.bias,
                    f,           kWantedTurn};
      ++count;
      // The curvature of an offset's step is worked out when the candidate is first ranked
      // (OffsetCurvature): most never are.
      for (int t = 0; t < static_cast<int>(std::size(kTurnOffsets)); ++t) {
        out[count] = {speed,
                      0.0,
                      kTurnOffsets[t],
                      offset_costs[t].heading + speed_cost + offset_costs[t].bias,
                      f,
                      t};
        ++count;
      }
    }
    // Standing still last: of two candidates that cost the same, the earlier is taken.
    out[count++] = {0.0, 0.0, 0.0, standing_cost, 0, kWantedTurn};
    return count;
  }

  // An offset's curvature over this step: turn by its turn at the tightest curvature, or by
  // what is left of it within the step.
  static double OffsetCurvature(const CrowdAgent& a, double speed, double turn, double step) {
    const double curvature = std::min(1.0 / a.turning_radius, std::abs(turn) / (speed * step));
    return turn < 0.0 ? -curvature : curvature;
  }

  // The trigonometry of one character's manoeuvres: its heading, each speed's pieces, the
  // follower's own turn (the offsets' are the runner's, scaled by the radius). A speed's part
  // is worked out when a candidate at that speed is first sampled.
  struct Shapes {
    glm::dvec2 forward{1.0, 0.0};
    SpeedFrame speeds[std::size(kSpeedFractions)];
    bool speed_known[std::size(kSpeedFractions)] = {};
    TurnShape wanted;
  };

  static void MakeShapes(const CrowdAgent& a, glm::dvec2 forward, Shapes* shapes) {
    shapes->forward = forward;
    const double wanted_turn = WantedTurn(a);
    if (wanted_turn != 0.0) shapes->wanted = MakeTurnShape(wanted_turn, a.turning_radius);
  }

  const SpeedFrame& Speed(const CrowdAgent& a, int speed_index, Shapes* shapes) const {
    SpeedFrame& frame = shapes->speeds[speed_index];
    if (shapes->speed_known[speed_index]) return frame;
    shapes->speed_known[speed_index] = true;
    frame.speed = std::min(a.wanted_speed * kSpeedFractions[speed_index], a.max_speed);
    // The characters of a crowd mostly share their speeds and radius: the frame the last one
    // worked out at this speed index is the same when speed and radius are.
    SpeedFrame& last = last_frames_[speed_index];
    if (last_frame_radius_[speed_index] == a.turning_radius && last.speed == frame.speed) {
      frame = last;
      return frame;
    }
    frame.piece = frame.speed * job_.options.horizon / kHorizonSamples;
    const double turn = frame.piece / a.turning_radius;
    frame.half_turn = Direction(0.5 * turn);
    frame.piece_turn = {
        frame.half_turn.x * frame.half_turn.x - frame.half_turn.y * frame.half_turn.y,
        2.0 * frame.half_turn.x * frame.half_turn.y};
    frame.chord = 2.0 * a.turning_radius * frame.half_turn.y;
    frame.step_half_turn = Direction(0.5 * frame.speed * step_ / a.turning_radius);
    last = frame;
    last_frame_radius_[speed_index] = a.turning_radius;
    return frame;
  }

  // Where a candidate's step ends, and the way it faces there (AdvancePose with the
  // trigonometry shared by the candidates).
  void StepEnd(const CrowdAgent& a, Shapes* shapes, const Candidate& candidate,
               glm::dvec2* position, glm::dvec2* forward) const {
    const double max_curvature = 1.0 / a.turning_radius;
    const double length = candidate.speed * step_;
    if (candidate.turn_index == kWantedTurn || length <= 0.0) {
      const Pose2 end = AdvancePose(a.pose, candidate.speed, candidate.curvature, step_);
      *position = end.position;
      *forward = Direction(end.heading);
      return;
    }
    if (candidate.turn == 0.0) {
      // Straight on (the chord over the turn below would be 0 / 0).
      *position = a.pose.position + length * shapes->forward;
      *forward = shapes->forward;
      return;
    }
    const double side = candidate.turn < 0.0 ? -1.0 : 1.0;
    glm::dvec2 half;
    double chord;
    if (std::abs(candidate.curvature) == max_curvature) {
      // On the tightest arc the whole step.
      const glm::dvec2 step_half = Speed(a, candidate.speed_index, shapes).step_half_turn;
      half = {step_half.x, side * step_half.y};
      chord = 2.0 * a.turning_radius * step_half.y;
    } else {
      // The whole turn within the step.
      const TurnShape& shape = offset_shapes_[candidate.turn_index];
      half = shape.half;
      chord = shape.arc_chord * length / std::abs(shape.turn);
    }
    *position = a.pose.position + chord * Rotate(shapes->forward, half);
    *forward = Rotate(shapes->forward, {half.x * half.x - half.y * half.y, 2.0 * half.x * half.y});
  }

  // Positions at the horizon's samples of a candidate's manoeuvre: a turn by its whole turn at
  // the tightest curvature (the sign of the turn), then straight on. Each piece of the arc is
  // the same chord turned by the piece's turn (no far-away centre, so a nearly straight arc
  // keeps full precision).
  void SampleCandidate(const CrowdAgent& a, Shapes* shapes, const Candidate& candidate,
                       glm::dvec2* out) const {
    out[0] = a.pose.position;
    if (candidate.speed <= 0.0) {
      std::fill(out + 1, out + kHorizonSamples + 1, a.pose.position);
      return;
    }
    const SpeedFrame& frame = Speed(a, candidate.speed_index, shapes);
    const TurnShape& shape =
        candidate.turn_index == kWantedTurn ? shapes->wanted : offset_shapes_[candidate.turn_index];
    const double radius = a.turning_radius;
    // Offsets' chords are for a unit radius.
    const double arc_chord =
        candidate.turn_index == kWantedTurn ? shape.arc_chord : shape.arc_chord * radius;
    const double arc_length = std::abs(shape.turn) * radius;
    const double side = shape.turn < 0.0 ? -1.0 : 1.0;
    const glm::dvec2 piece_turn{frame.piece_turn.x, side * frame.piece_turn.y};
    glm::dvec2 step =
        frame.chord * Rotate(shapes->forward, {frame.half_turn.x, side * frame.half_turn.y});
    int m = 1;
    for (; m <= kHorizonSamples && frame.piece * m <= arc_length; ++m) {
      out[m] = out[m - 1] + step;
      step = Rotate(step, piece_turn);
    }
    if (m <= kHorizonSamples) {
      // Past the arc's end: straight on from there.
      const glm::dvec2 arc_end = a.pose.position + arc_chord * Rotate(shapes->forward, shape.half);
      const glm::dvec2 onwards = Rotate(shapes->forward, shape.full);
      for (; m <= kHorizonSamples; ++m) {
        out[m] = arc_end + (frame.piece * m - arc_length) * onwards;
      }
    }
    StopAtWantedDistance(a.wanted_distance, frame.piece, out);
  }

  // A manoeuvre ends where the follower's way does: the samples past that distance stay at
  // its end (on the piece's chord).
  static void StopAtWantedDistance(double distance, double piece, glm::dvec2* out) {
    if (!(piece * kHorizonSamples > distance)) return;
    const int m = static_cast<int>(distance / piece) + 1;  // the first sample past the end
    if (m > kHorizonSamples) return;
    const double share = distance / piece - (m - 1);
    const glm::dvec2 end = out[m - 1] + share * (out[m] - out[m - 1]);
    for (int k = m; k <= kHorizonSamples; ++k) out[k] = end;
  }

  // How deep and how soon a candidate's path (sampled over the horizon) comes inside the
  // distance `b` should be kept at, `b` moving as expected: 0 when never, up to 1 for touching
  // centres at once. Between samples both move in a line, so the closest approach of each piece
  // is exact for that line (nothing slips between samples).
  // `piece`: the most the candidate moves between two samples.
  static double CollisionRisk(const RankedNeighbour& b, const glm::dvec2* path, double piece) {
    if (b.keep <= 0.0) return 0.0;
    const glm::dvec2* other = b.predicted;
    // Every sample of either is within half the horizon's pieces of its middle one, so when
    // the middle ones are farther apart than the kept distance and those pieces (with a hair
    // for rounding), no piece comes within it: most neighbours, for most candidates.
    constexpr int kMiddle = kHorizonSamples / 2;
    const glm::dvec2 middle = path[kMiddle] - other[kMiddle];
    const double never = (b.keep + (kHorizonSamples - kMiddle) * (piece + b.piece)) * (1.0 + 1e-9);
    if (glm::dot(middle, middle) > never * never) return 0.0;
    double risk = 0.0;
    glm::dvec2 before = path[0] - other[0];
    double before2 = glm::dot(before, before);
    for (int m = 1; m <= kHorizonSamples; ++m) {
      const glm::dvec2 after = path[m] - other[m];
      const double after2 = glm::dot(after, after);
      if (before2 > b.far2 && after2 > b.far2) {
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
      if (closest2 < b.keep * b.keep) {
        const double closest = std::sqrt(closest2);
        // Inside the margin: a little; inside the clearances: a lot, the deeper the more.
        const double soon = 1.0 - 0.5 * (m - 1.0) / kHorizonSamples;
        const double margin =
            b.keep > b.contact ? std::min((b.keep - closest) / (b.keep - b.contact), 1.0) : 1.0;
        const double depth = b.contact > 0.0 ? std::max(b.contact - closest, 0.0) / b.contact : 0.0;
        risk = std::max(risk, soon * (kMarginRisk * margin + depth));
      }
      before = after;
      before2 = after2;
    }
    return risk;
  }

  // Where j is at the end of this step as far as i knows: on its chosen motion when it has
  // chosen, else where it stands.
  glm::dvec2 StepEndOf(int j) const { return StepPath(j)[kStepSamples]; }

  // Whether a character at `position` facing `forward` could still leave a neighbour at `other`
  // (standing there) behind: straight
  // on passes it, or a whole turn on either side stays clear of it. A character facing another
  // closer than that can only wait for the other to move: two such facing each other would wait
  // for ever.
  static bool Trapped(const CrowdAgent& a, glm::dvec2 position, glm::dvec2 forward,
                      glm::dvec2 other, double other_clearance) {
    const double contact = a.clearance + other_clearance;
    const glm::dvec2 to = other - position;
    const double r = a.turning_radius;
    if (glm::dot(to, to) >= (contact + 2.0 * r) * (contact + 2.0 * r)) return false;
    if (glm::dot(to, forward) <= 0.0 || std::abs(Cross(forward, to)) >= contact) return false;
    const glm::dvec2 left{-forward.y, forward.x};
    for (double side : {1.0, -1.0}) {
      const double d = glm::length(to - side * r * left);
      if (d >= r + contact || d <= r - contact) return false;
    }
    return true;
  }

  // Whether some step of i could end trapped by a neighbour at `other` (Trapped at the step's
  // end). A step moves i at most L = wanted speed x step and turns it at most L / R, so the
  // vector to the neighbour changes by at most L and the facing by at most L / R radians (a
  // chord no longer than its arc): its dot with the facing grows and its cross shrinks by at
  // most |to| L / R + L. A neighbour clearly behind, clearly off to a side or clearly beyond a
  // whole turn (by more than a rounding hair) can trap no step: the candidates are not checked
  // against it one by one (most close neighbours, so most candidates need no step end at all).
  bool MayTrapWithinStep(const CrowdAgent& a, glm::dvec2 forward, glm::dvec2 other,
                         double other_clearance) const {
    const double contact = a.clearance + other_clearance;
    const double step_length = a.wanted_speed * step_;
    const glm::dvec2 to = other - a.pose.position;
    const double distance = glm::length(to);
    const double hair =
        1e-9 * (1.0 + distance + contact + step_length + std::abs(a.pose.position.x) +
                std::abs(a.pose.position.y) + std::abs(other.x) + std::abs(other.y));
    const double drift = distance * step_length / a.turning_radius + step_length + hair;
    if (distance - step_length - hair >= contact + 2.0 * a.turning_radius) return false;
    if (glm::dot(to, forward) + drift <= 0.0) return false;
    if (std::abs(Cross(forward, to)) - drift >= contact) return false;
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
  // does not stand for ever where moving on is safe but close). The heading and right-hand
  // parts depend on the turn alone, the speed part on the speed alone: each is worked out once
  // a character, and a candidate's cost is (heading + speed) + right-hand (+ waiting).
  struct TurnCost {
    double heading = 0.0;
    double bias = 0.0;
  };
  static TurnCost CostOfTurn(const CrowdAgent& a, double turn) {
    const double heading_miss = std::abs(WrapPi(a.wanted_heading - a.pose.heading - turn));
    return {kHeadingWeight * heading_miss / kPi, kRightHandBias * turn / kPi};
  }
  static double CostOfSpeed(const CrowdAgent& a, double speed) {
    const double speed_scale = a.max_speed > 0.0 ? a.max_speed : 1.0;
    return kSpeedWeight * (a.wanted_speed - speed) / speed_scale;
  }

  bool NearObstacle(const CrowdAgent& a) const {
    return job_.obstacles && !job_.obstacles->empty() &&
           job_.obstacles->FirstWithin(a.pose.position,
                                       a.clearance + a.max_speed * job_.options.horizon) >= 0;
  }

  // The neighbours a candidate is ranked against (see Choose).
  struct Ranking {
    const RankedNeighbour* ranked;
    int ranked_count;
    const int* close;  // close enough that some step could end boxed in by them
    int close_count;
    const int* boxing;  // those that box i in already
    int boxing_count;
    bool near_obstacle;
    // The first neighbour within the boxed-in distance that does not box i in already, or -1:
    // what keeps a turning walker from holding its heading.
    int in_company;
  };

  // The candidate's step ends facing a close neighbour (where that one is at the step's end, as
  // far as i knows) too close to turn away from.
  // Returns that neighbour, or -1.
  int BoxesIn(int i, Shapes* shapes, const Candidate& candidate, const Ranking& ranking) const {
    const CrowdAgent& a = agents_[i];
    if (candidate.speed <= 0.0) return -1;
    // Holding a heading in company: while its follower turns it back to its way, a walker with
    // a neighbour within the boxed-in distance does not go straight on. It rejoins its way,
    // turns aside by a chosen offset, slows or stands; holding the heading its last turn
    // aside left it on makes two groups that meet drift along together, away from both their
    // ways, into a knot (docs/design.md, "Straight on"). Otherwise straight on is judged
    // like every step, by where it ends.
    if (candidate.turn_index != kWantedTurn && candidate.turn == 0.0 && a.wanted_curvature != 0.0 &&
        ranking.in_company >= 0) {
      return ranking.in_company;
    }
    if (ranking.close_count == 0 && ranking.boxing_count == 0) return -1;
    glm::dvec2 end, end_forward;
    StepEnd(a, shapes, candidate, &end, &end_forward);
    for (int n = 0; n < ranking.close_count; ++n) {
      const int j = ranking.close[n];
      if (Trapped(a, end, end_forward, StepEndOf(j), agents_[j].clearance)) return j;
    }
    for (int n = 0; n < ranking.boxing_count; ++n) {
      if (BoxesInReturn(i, ranking.boxing[n], end)) return ranking.boxing[n];
    }
    return -1;
  }

  // Whether i, ending its step at `end`, would box in neighbour j, which boxes i in already:
  // two boxed in by each other at contact can neither move (each would come nearer), so one
  // already boxed in waits for the other to leave rather than step into its way too.
  bool BoxesInReturn(int i, int j, glm::dvec2 end) const {
    const CrowdAgent& b = agents_[j];
    const Pose2 b_end = scratch_.decided[j] ? AdvancePose(b.pose, job_.motions[j].speed,
                                                          job_.motions[j].curvature, step_)
                                            : b.pose;
    return Trapped(b, b_end.position, Direction(b_end.heading), end, agents_[i].clearance);
  }

  // What a candidate adds to its preference cost: an obstacle on its manoeuvre, and how soon
  // and how deep it would come among the neighbours moving as expected (`path`: the
  // candidate's samples over the horizon). Every part only adds, so once the sum so far is
  // above `limit` the rest is not worked out: then `exact` is set false and the sum so far
  // returned (the whole would be more).
  double Penalty(int i, const Candidate& candidate, const glm::dvec2* path, const Ranking& ranking,
                 double limit, bool* exact) const {
    const CrowdAgent& a = agents_[i];
    const double horizon = job_.options.horizon;
    double penalty = 0.0;
    // The manoeuvre ends where the follower's way does, as its samples do: an obstacle beyond
    // the goal it lands on is no reason to turn away from that goal.
    if (ranking.near_obstacle && candidate.speed > 0.0 &&
        ManoeuvreMeetsObstacle(a, candidate.turn,
                               std::min(candidate.speed * horizon, a.wanted_distance))) {
      penalty += kObstacleWeight;
    }
    const double piece = candidate.speed * horizon / kHorizonSamples;
    // Those that chose before i count fully (i gives way to them), those after less (they
    // will give way to i). The worst neighbour, and a little of the others.
    double worst = 0.0, total = 0.0;
    for (int n = 0; n < ranking.ranked_count; ++n) {
      if (penalty + kCollisionWeight * (worst + kOtherRisk * (total - worst)) > limit) {
        *exact = false;
        break;
      }
      const RankedNeighbour& b = ranking.ranked[n];
      const double risk = b.weight * CollisionRisk(b, path, piece);
      worst = std::max(worst, risk);
      total += risk;
    }
    return penalty + kCollisionWeight * (worst + kOtherRisk * (total - worst));
  }

  // The motion keeps i apart from every neighbour over the whole step (from those already
  // decided on their motions, from the others where they stand) and out of obstacles.
  // `path` receives i's samples over the step (what later characters check against).
  // `blocker` receives the neighbour that makes it unsafe (-1 for an obstacle or when safe).
  bool IsSafe(int i, const CrowdMotion& motion, const int* neighbours, int neighbour_count,
              glm::dvec2* path, int* blocker) const {
    *blocker = -1;
    const CrowdAgent& a = agents_[i];
    SampleMotion(a.pose, motion.speed, motion.curvature, step_, kStepSamples, path);
    for (int n = 0; n < neighbour_count; ++n) {
      const int j = neighbours[n];
      const CrowdAgent& b = agents_[j];
      const double threshold = PairThreshold(a, b);
      const CrowdMotion other = scratch_.decided[j] ? job_.motions[j] : CrowdMotion{};
      // Too far apart to meet within the step: skip the samples.
      const double gap = glm::distance(a.pose.position, b.pose.position);
      if (gap - (motion.speed + other.speed) * step_ >= threshold) continue;
      const glm::dvec2* other_path = StepPath(j);
      double before = glm::distance(path[0], other_path[0]);
      for (int m = 1; m <= kStepSamples; ++m) {
        const double after = glm::distance(path[m], other_path[m]);
        if (!SafeOnInterval(a, motion, b, other, step_ * (m - 1) / kStepSamples,
                            step_ * m / kStepSamples, before, after, threshold, 0)) {
          *blocker = j;
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
  double max_reach_ = 0.0;
  TurnShape offset_shapes_[std::size(kTurnOffsets)];
  // Speed's last frame at each speed index, and the radius it was for (0: none yet).
  mutable SpeedFrame last_frames_[std::size(kSpeedFractions)];
  mutable double last_frame_radius_[std::size(kSpeedFractions)] = {};
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
  by_cell_position.resize(n);
  by_cell_reach.resize(n);
  predicted_piece.resize(n);
  forward.resize(n);
  step_path.resize(n * (kStepSamples + 1));
  near.resize(n);
  close.resize(n);
  boxing.resize(n);
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
    // The field's name only for a failure (a valid step allocates nothing).
    auto name = [i](const char* field) { return "agents[" + std::to_string(i) + "]." + field; };
    if (!InRange(a.pose.position.x, -kMaxCrowdCoordinate, kMaxCrowdCoordinate)) {
      return Fail(name("pose.position.x"), "a finite coordinate", a.pose.position.x);
    }
    if (!InRange(a.pose.position.y, -kMaxCrowdCoordinate, kMaxCrowdCoordinate)) {
      return Fail(name("pose.position.y"), "a finite coordinate", a.pose.position.y);
    }
    if (!std::isfinite(a.pose.heading)) {
      return Fail(name("pose.heading"), "a finite angle", a.pose.heading);
    }
    if (!InRange(a.max_speed, 0.0, kMaxCrowdCoordinate)) {
      return Fail(name("max_speed"), "a finite number >= 0", a.max_speed);
    }
    if (!InRange(a.speed, 0.0, a.max_speed)) {
      return Fail(name("speed"), "a number in [0, max_speed]", a.speed);
    }
    if (!(std::isfinite(a.turning_radius) && a.turning_radius > 0.0 &&
          a.turning_radius <= kMaxCrowdCoordinate)) {
      return Fail(name("turning_radius"), "a finite number > 0", a.turning_radius);
    }
    if (!InRange(a.clearance, 0.0, kMaxCrowdCoordinate)) {
      return Fail(name("clearance"), "a finite number >= 0", a.clearance);
    }
    if (!InRange(a.waiting, 0.0, 1e300)) {
      return Fail(name("waiting"), "seconds >= 0", a.waiting);
    }
    if (!std::isfinite(a.wanted_heading)) {
      return Fail(name("wanted_heading"), "a finite angle", a.wanted_heading);
    }
    if (!std::isfinite(a.wanted_curvature)) {
      return Fail(name("wanted_curvature"), "a finite number", a.wanted_curvature);
    }
    if (!InRange(a.wanted_speed, 0.0, a.max_speed)) {
      return Fail(name("wanted_speed"), "a number in [0, max_speed]", a.wanted_speed);
    }
    if (!(a.wanted_distance > 0.0)) {
      return Fail(name("wanted_distance"), "a distance > 0 (infinite: no end)", a.wanted_distance);
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
