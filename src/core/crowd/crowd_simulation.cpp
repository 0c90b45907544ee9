#include "core/crowd/crowd_simulation.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <map>
#include <string>
#include <utility>

#include "core/path/turn_path.h"

namespace md5stage {
namespace {

// Where a follower aims: this far ahead of its place on the route or plan, in turning radii
// (at least one clearance), so it steers smoothly back after giving way.
constexpr double kLookaheadRadii = 1.0;
// Progress along a route or plan is searched this many samples ahead each step.
constexpr int kProgressSamples = 8;
// A follower this far off its planned path (in clearances) re-plans, at most once an interval.
constexpr double kReplanDeviation = 1.0;
// A walker on the last turn of its plan lands by the turn only while the goal is no farther than
// the plan's end plus this (units); farther, it lands on the goal by the look-ahead.
constexpr double kLandOffPlan = 0.5;
// A character boxed in (facing one too close to turn away from) by one that has arrived, after
// waiting this long, asks that one to make way: it walks on ahead by its turning circle and
// both clearances, at most kMakeWayTime seconds, then back to its goal.
constexpr double kMakeWayAfter = 0.5;
constexpr double kMakeWayTime = 4.0;
// A follower this near its planned path (offset in clearances, heading in radians) is on it:
// on a turn of the plan it takes the turn's own curvature, corrected towards the plan over
// kSettleRadii turning radii, until the turn is done (to kOnPlanTurnDone radians); on a line it
// aims along the line no farther than the next turn's start (at least kOnPlanLineAheadRadii
// turning radii ahead). Farther off it aims kLookaheadRadii ahead on the plan.
constexpr double kOnPlanOffset = 1.0;
constexpr double kOnPlanHeading = 0.5 * kPi;
constexpr double kSettleRadii = 1.0;
constexpr double kOnPlanTurnDone = 1e-3;
constexpr double kOnPlanLineAheadRadii = 0.25;

Diagnostic Fail(const std::string& field, const std::string& expected, double found) {
  return MakeError("", 0, 0, field + ": expected " + expected + ", found " + std::to_string(found));
}

double PlanDistance(const PlannedPath& path, glm::dvec2 p, double s) {
  return glm::distance(SamplePlannedPath(path, s).position, p);
}

// The point of a planned path nearest to a position, searched within `window` of distance
// `around` along it: where (the distance along, the pose) and how the path bends there.
struct PlanProjection {
  double along = 0.0;
  Pose2 pose;
  double curvature = 0.0;    // left positive; 0 on a line
  double segment_end = 0.0;  // where the segment it lies on ends (distance along the plan)
  double end_heading = 0.0;  // the heading at that end
};

// The distance along one segment (from its start) nearest to a point.
double NearestOnSegment(const TurnSegment& segment, glm::dvec2 p) {
  if (segment.kind == TurnSegment::Kind::kLine) {
    return std::clamp(glm::dot(p - segment.start.position, Direction(segment.angle)), 0.0,
                      segment.length);
  }
  const glm::dvec2 from = p - segment.centre;
  if (glm::dot(from, from) == 0.0 || segment.sweep == 0.0) return 0.0;
  // The angle turned from the arc's start towards p, the way the arc turns.
  const double side = segment.sweep > 0.0 ? 1.0 : -1.0;
  const double turned = WrapTwoPi(side * (std::atan2(from.y, from.x) - segment.start_angle));
  if (turned <= std::abs(segment.sweep)) return turned * segment.radius;
  // Beyond the arc's ends: the nearer end (half-way round the rest of the circle).
  return turned - std::abs(segment.sweep) < 0.5 * (kTwoPi - std::abs(segment.sweep))
             ? segment.length
             : 0.0;
}

PlanProjection ProjectOntoPlan(const PlannedPath& path, glm::dvec2 p, double around,
                               double window) {
  PlanProjection best;
  double best_distance = HUGE_VAL;
  double start = 0.0;
  const double lo = std::max(around - window, 0.0), hi = std::min(around + window, path.length);
  for (const TurnSegment& segment : path.segments) {
    const double end = start + segment.length;
    if (end >= lo && start <= hi) {
      const double along = std::clamp(start + NearestOnSegment(segment, p), lo, hi);
      const Pose2 pose = SamplePlannedPath(path, along);
      const double distance = glm::distance(pose.position, p);
      if (distance < best_distance) {
        best_distance = distance;
        best.along = along;
        best.pose = pose;
        best.curvature = segment.kind == TurnSegment::Kind::kArc && segment.radius > 0.0
                             ? (segment.sweep > 0.0 ? 1.0 : -1.0) / segment.radius
                             : 0.0;
        best.segment_end = end;
        best.end_heading = segment.start.heading + segment.sweep;
      }
    }
    start = end;
  }
  return best;
}

}  // namespace

std::vector<glm::dvec2> AssignGoalSlots(const std::vector<CrowdCharacter>& characters,
                                        const ObstacleSet* obstacles) {
  const int n = static_cast<int>(characters.size());
  std::vector<glm::dvec2> slots(characters.size());
  // Groups of characters with exactly the same target, in order of their first member.
  std::map<std::pair<double, double>, std::vector<int>> groups;
  std::vector<std::pair<double, double>> group_order;
  for (int i = 0; i < n; ++i) {
    slots[i] = characters[i].target;
    if (!characters[i].has_target) continue;
    const std::pair<double, double> key{characters[i].target.x, characters[i].target.y};
    if (groups.find(key) == groups.end()) group_order.push_back(key);
    groups[key].push_back(i);
  }
  for (const auto& key : group_order) {
    std::vector<int>& members = groups[key];
    if (members.size() < 2) continue;
    const glm::dvec2 goal{key.first, key.second};
    double clearance = 0.0;
    for (int i : members) clearance = std::max(clearance, characters[i].clearance);
    const double spacing = std::max(clearance, 1.0);
    // Places: the goal, then rings 4 clearances apart, their places at least 4 clearances
    // apart along the ring (a gap of 2 clearances between two standing characters, room for a
    // third to walk through); clear of obstacles.
    std::vector<glm::dvec2> places;
    std::vector<int> ring_of;
    for (int ring = 0; places.size() < members.size() && ring < 1000; ++ring) {
      const double radius = 4.0 * spacing * ring;
      // As many as keep the chord between neighbours at least 4 clearances.
      const int count =
          ring == 0 ? 1
                    : static_cast<int>(std::floor(kPi / std::asin(2.0 * spacing / radius) + 1e-9));
      for (int k = 0; k < count; ++k) {
        const glm::dvec2 place = goal + radius * Direction(kTwoPi * k / count);
        if (obstacles && obstacles->FirstWithin(place, spacing * kCrowdPlanClearanceFactor) >= 0)
          continue;
        places.push_back(place);
        ring_of.push_back(ring);
      }
    }
    // Nearest character first: it takes, in the innermost ring with a free place, the free place
    // nearest to it (so the first takes the goal itself).
    std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
      return glm::distance(characters[a].start.position, goal) <
             glm::distance(characters[b].start.position, goal);
    });
    std::vector<bool> taken(places.size(), false);
    const std::size_t usable = std::min(places.size(), members.size());
    for (int i : members) {
      int best = -1;
      double best_distance = 0.0;
      for (std::size_t p = 0; p < usable; ++p) {
        if (taken[p]) continue;
        if (best >= 0 && ring_of[p] > ring_of[best]) break;
        const double d = glm::distance(places[p], characters[i].start.position);
        if (best < 0 || d < best_distance) {
          best = static_cast<int>(p);
          best_distance = d;
        }
      }
      if (best < 0) continue;  // no free place clear of obstacles: it keeps the goal itself
      taken[best] = true;
      slots[i] = places[best];
    }
  }
  return slots;
}

Result<CrowdSimulation> CrowdSimulation::Build(std::vector<CrowdCharacter> characters,
                                               ObstacleSet obstacles,
                                               CrowdSimulationOptions options) {
  if (characters.empty() || characters.size() > static_cast<std::size_t>(kMaxCrowdCharacters)) {
    return Fail("characters", "1 to " + std::to_string(kMaxCrowdCharacters) + " characters",
                static_cast<double>(characters.size()));
  }
  if (!(std::isfinite(options.rate) && options.rate >= 1.0 && options.rate <= 1000.0)) {
    return Fail("rate", "steps a second in [1, 1000]", options.rate);
  }
  if (!(std::isfinite(options.replan_interval) && options.replan_interval >= 0.0)) {
    return Fail("replan_interval", "seconds >= 0", options.replan_interval);
  }
  for (std::size_t i = 0; i < characters.size(); ++i) {
    const CrowdCharacter& c = characters[i];
    const std::string name = "characters[" + std::to_string(i) + "].";
    if (!(std::isfinite(c.start_delay) && c.start_delay >= 0.0)) {
      return Fail(name + "start_delay", "seconds >= 0", c.start_delay);
    }
    if (c.has_target && !IsFinite(c.target)) {
      return Fail(name + "target", "a finite point", c.target.x);
    }
    if (c.has_target && c.route) {
      return MakeError("", 0, 0, name + "target: expected a target or a route, found both");
    }
    const double route_length = c.route ? c.route->length() : 0.0;
    if (!(std::isfinite(c.route_progress) && c.route_progress >= 0.0 &&
          c.route_progress <= route_length)) {
      return Fail(name + "route_progress",
                  "a distance along its route, in [0, " + std::to_string(route_length) + "]",
                  c.route_progress);
    }
  }
  CrowdSimulation sim;
  sim.options_ = options;
  sim.step_ = 1.0 / options.rate;
  sim.obstacles_ = std::move(obstacles);
  sim.agents_.resize(characters.size());
  sim.motions_.resize(characters.size());
  sim.followers_.resize(characters.size());
  const std::vector<glm::dvec2> slots = AssignGoalSlots(characters, &sim.obstacles_);
  for (std::size_t i = 0; i < characters.size(); ++i) {
    const CrowdCharacter& c = characters[i];
    CrowdAgent& a = sim.agents_[i];
    a.pose = {c.start.position, WrapPi(c.start.heading)};
    a.max_speed = c.speed;
    a.turning_radius = c.turning_radius;
    a.clearance = c.clearance;
    sim.followers_[i].goal = slots[i];
    sim.followers_[i].progress = c.route_progress;
    sim.followers_[i].direction = c.route_backwards ? -1.0 : 1.0;
  }
  sim.characters_ = std::move(characters);
  sim.scratch_.Reserve(sim.size());
  // The step's own checks (radius, clearance, speed) on the starting state.
  CrowdStepJob job;
  job.agents = sim.agents_.data();
  job.count = sim.size();
  job.obstacles = &sim.obstacles_;
  job.options = {sim.step_, std::max(options.horizon, sim.step_)};
  job.scratch = &sim.scratch_;
  job.motions = sim.motions_.data();
  Status valid = job.Validate();
  if (!valid) {
    Diagnostic error = valid.error();
    if (error.message.rfind("agents[", 0) == 0) error.message.replace(0, 6, "characters");
    return error;
  }
  return sim;
}

double CrowdSimulation::ArrivalTolerance(int i) const {
  return std::max(1e-3, 0.1 * characters_[i].clearance);
}

void CrowdSimulation::WantPoint(int i, glm::dvec2 point, bool is_goal) {
  CrowdAgent& a = agents_[i];
  // The legal way there from where it is now: turn on its circle until it points at the point,
  // then straight on (the shorter side; a point inside one circle is reached round the other).
  const TurnPath path = ArcLinePath(a.pose.position, a.pose.heading, a.turning_radius, point);
  a.wanted_speed = a.max_speed;
  a.wanted_curvature = 0.0;
  a.wanted_heading = a.pose.heading;
  a.wanted_distance = HUGE_VAL;
  if (!path.ok() || path.segment_count == 0) return;
  a.wanted_heading = path.end.heading;
  if (is_goal && path.length > 0.0) a.wanted_distance = path.length;
  // Land on the goal instead of stepping past it.
  if (is_goal) a.wanted_speed = std::min(a.max_speed, path.length / step_);
  const TurnSegment& first = path.segments[0];
  if (first.kind != TurnSegment::Kind::kArc || a.wanted_speed <= 0.0) return;
  // The whole step on the arc, or, when the arc ends within the step, its turn spread over the
  // step (a gentler arc, so the heading lands on the line's).
  const double step_length = a.wanted_speed * step_;
  a.wanted_curvature = first.length >= step_length
                           ? (first.sweep > 0.0 ? 1.0 : -1.0) / a.turning_radius
                           : first.sweep / step_length;
}

void CrowdSimulation::Plan(int i) {
  FollowerState& f = followers_[i];
  f.last_plan_time = time();
  f.progress = 0.0;
  ++replans_;
  ObstaclePlanJob job;
  job.start = agents_[i].pose;
  job.goal = f.goal;
  job.turning_radius = agents_[i].turning_radius;
  job.clearance = agents_[i].clearance * kCrowdPlanClearanceFactor;
  job.obstacles = &obstacles_;
  job.scratch = &planner_scratch_;
  job.path = &f.path;
  job.result = &plan_result_;
  // A refused query (start inside the planner's clearance) or no path: straight pursuit.
  if (!job.Run().ok() || !plan_result_.found()) f.path.Clear();
}

bool CrowdSimulation::FollowsPlan(int i) const {
  const CrowdCharacter& c = characters_[i];
  const FollowerState& f = followers_[i];
  if (time() < c.start_delay || c.speed <= 0.0) return false;
  if (c.route && c.route->length() > 0.0) return false;
  return c.has_target && !f.making_way && f.arrival_time < 0.0 && !obstacles_.empty();
}

void CrowdSimulation::KeepToPlan(int i) {
  FollowerState& f = followers_[i];
  if (f.last_plan_time < -1.0) Plan(i);
  const CrowdAgent& a = agents_[i];
  const double look = std::max(kLookaheadRadii * a.turning_radius, a.clearance);
  // Progress: the nearest sample a little ahead of the last one.
  const double window = a.max_speed * step_ * 2.0 + look;
  double best = f.progress, best_distance = PlanDistance(f.path, a.pose.position, f.progress);
  for (int k = 1; k <= kProgressSamples; ++k) {
    const double s = std::min(f.progress + window * k / kProgressSamples, f.path.length);
    const double d = PlanDistance(f.path, a.pose.position, s);
    if (d < best_distance) {
      best = s;
      best_distance = d;
    }
  }
  f.progress = best;
  if (best_distance > kReplanDeviation * std::max(a.clearance, 1.0) &&
      time() - f.last_plan_time >= options_.replan_interval) {
    Plan(i);
  }
}

int CrowdSimulation::PlanDue() {
  if (plans_due_done_) return 0;
  plans_due_done_ = true;
  const int before = replans_;
  // Each character's plan depends on its own pose alone, so planning all before the wants
  // (rather than each within its own) changes nothing.
  for (int i = 0; i < size(); ++i) {
    if (FollowsPlan(i)) KeepToPlan(i);
  }
  return replans_ - before;
}

void CrowdSimulation::WantAlongPlan(int i) {
  const FollowerState& f = followers_[i];
  const CrowdAgent& a = agents_[i];
  if (!f.path.segments.empty() && WantOnPlan(i)) return;
  const double look = std::max(kLookaheadRadii * a.turning_radius, a.clearance);
  if (f.path.segments.empty() || f.progress + look >= f.path.length) {
    WantPoint(i, f.goal, true);
    return;
  }
  WantPoint(i, SamplePlannedPath(f.path, f.progress + look).position, false);
}

bool CrowdSimulation::WantOnPlan(int i) {
  const FollowerState& f = followers_[i];
  CrowdAgent& a = agents_[i];
  const double look = std::max(kLookaheadRadii * a.turning_radius, a.clearance);
  const double window = a.max_speed * step_ * 2.0 + look;
  const PlanProjection on = ProjectOntoPlan(f.path, a.pose.position, f.progress, window);
  // Left of the plan positive, and how far the heading is turned from the plan's there.
  const double offset = Cross(Direction(on.pose.heading), a.pose.position - on.pose.position);
  const double heading_error = WrapPi(a.pose.heading - on.pose.heading);
  if (std::abs(offset) > kOnPlanOffset * std::max(a.clearance, 1.0) ||
      std::abs(heading_error) > kOnPlanHeading) {
    return false;
  }
  const bool last = on.segment_end >= f.path.length;
  if (on.curvature == 0.0) {
    // On a line: the last one leads to the goal; another is followed no farther than the
    // start of the turn after it (aiming across the turn cuts its corner).
    if (last) {
      WantPoint(i, f.goal, true);
      return true;
    }
    const double to_turn = on.segment_end - on.along;
    if (to_turn >= look) return false;  // the look-ahead point is on this line anyway
    const double ahead = std::max(to_turn, kOnPlanLineAheadRadii * a.turning_radius);
    WantPoint(i, SamplePlannedPath(f.path, on.along + ahead).position, false);
    return true;
  }
  // On a turn: its own curvature, corrected towards the plan (offset and heading together,
  // critically damped for small errors over the settling length), until its end heading.
  const double settle = std::max(kSettleRadii * a.turning_radius, a.clearance);
  const double max_curvature = 1.0 / a.turning_radius;
  const double curvature =
      std::clamp(on.curvature - offset / (settle * settle) - 2.0 * heading_error / settle,
                 -max_curvature, max_curvature);
  const double side = on.curvature > 0.0 ? 1.0 : -1.0;
  const double still_to_turn =
      std::abs(on.curvature) * (on.segment_end - on.along) - side * heading_error;
  // A correction against the turn, or the turn done: the look-ahead point.
  if (curvature * side <= 0.0 || still_to_turn <= kOnPlanTurnDone) return false;
  a.wanted_curvature = curvature;
  a.wanted_heading = WrapPi(a.pose.heading + side * still_to_turn);
  a.wanted_speed = a.max_speed;
  a.wanted_distance = HUGE_VAL;
  if (last) {  // the plan ends on this turn, at the goal: land there
    const double left = std::max(f.path.length - on.along, 1e-9);
    // Beside the plan (within the on-plan offset) its end is not the goal: landing on the turn
    // would creep at left / step for ever a few units off it (field_60_obstacles in the
    // sanitizer build); the look-ahead's landing on the goal itself takes over.
    if (glm::distance(a.pose.position, f.goal) > left + kLandOffPlan) return false;
    a.wanted_distance = left;
    a.wanted_speed = std::min(a.max_speed, left / step_);
  }
  return true;
}

void CrowdSimulation::WantAlongRoute(int i) {
  FollowerState& f = followers_[i];
  const CrowdAgent& a = agents_[i];
  const CrowdCharacter& c = characters_[i];
  const Route& route = *c.route;
  const double length = route.length();
  const double look = std::max(kLookaheadRadii * a.turning_radius, a.clearance);
  const bool wraps = c.route_mode == PlayMode::kLoop;
  auto place = [&](double s) {
    if (wraps) s = std::fmod(s, length);
    return route.Sample(std::clamp(s, 0.0, length)).position;
  };
  // Progress: the nearest sample ahead (in the direction of travel) within a window.
  const double window = a.max_speed * step_ * 2.0 + look;
  double best = f.progress, best_distance = glm::distance(place(f.progress), a.pose.position);
  for (int k = 1; k <= kProgressSamples; ++k) {
    double s = f.progress + f.direction * window * k / kProgressSamples;
    if (!wraps) s = std::clamp(s, 0.0, length);
    const double d = glm::distance(place(s), a.pose.position);
    if (d < best_distance) {
      best = s;
      best_distance = d;
    }
  }
  f.progress = wraps ? std::fmod(best, length) : best;
  const double ahead = f.progress + f.direction * look;
  if (!wraps && (ahead >= length || ahead <= 0.0)) {
    const glm::dvec2 end = f.direction > 0.0 ? place(length) : place(0.0);
    if (c.route_mode == PlayMode::kOnce &&
        glm::distance(end, a.pose.position) <= ArrivalTolerance(i)) {
      f.route_done = true;
    }
    if (c.route_mode == PlayMode::kPingPong &&
        glm::distance(end, a.pose.position) <= std::max(look, ArrivalTolerance(i))) {
      f.direction = -f.direction;
    }
    if (f.route_done) {
      agents_[i].wanted_speed = 0.0;
      agents_[i].wanted_curvature = 0.0;
      agents_[i].wanted_heading = a.pose.heading;
      return;
    }
    WantPoint(i, end, c.route_mode == PlayMode::kOnce);
    return;
  }
  WantPoint(i, place(ahead), false);
}

void CrowdSimulation::Want(int i) {
  CrowdAgent& a = agents_[i];
  const CrowdCharacter& c = characters_[i];
  FollowerState& f = followers_[i];
  a.wanted_heading = a.pose.heading;
  a.wanted_curvature = 0.0;
  a.wanted_speed = 0.0;
  a.wanted_distance = HUGE_VAL;
  if (time() < c.start_delay || c.speed <= 0.0) return;
  if (c.route && c.route->length() > 0.0) {
    WantAlongRoute(i);
  } else if (c.has_target && f.making_way) {
    WantPoint(i, f.make_way_point, false);
  } else if (c.has_target && f.arrival_time >= 0.0) {
    // Back from making way: to its goal, straight (it is near).
    if (glm::distance(a.pose.position, f.goal) > ArrivalTolerance(i)) WantPoint(i, f.goal, true);
  } else if (c.has_target) {
    if (obstacles_.empty()) {
      WantPoint(i, f.goal, true);
    } else {
      WantAlongPlan(i);  // kept to by PlanDue
    }
  }
}

void CrowdSimulation::AskToMakeWay(int i, int waiting) {
  FollowerState& f = followers_[i];
  const CrowdAgent& a = agents_[i];
  if (!characters_[i].has_target || f.arrival_time < 0.0 || f.making_way || a.wanted_speed > 0.0) {
    return;
  }
  f.making_way = true;
  f.make_way_since = time();
  const double ahead = 2.0 * a.turning_radius + 2.0 * (a.clearance + agents_[waiting].clearance);
  f.make_way_point = a.pose.position + ahead * Direction(a.pose.heading);
}

Status CrowdSimulation::Step() {
  PlanDue();
  plans_due_done_ = false;
  for (int i = 0; i < size(); ++i) Want(i);
  CrowdStepJob job;
  job.agents = agents_.data();
  job.count = size();
  job.obstacles = &obstacles_;
  job.options = {step_, std::max(options_.horizon, step_)};
  job.scratch = &scratch_;
  job.motions = motions_.data();
  Status run = job.Run();
  if (!run) return run;
  ++step_count_;
  for (int i = 0; i < size(); ++i) {
    CrowdAgent& a = agents_[i];
    a.pose = AdvancePose(a.pose, motions_[i].speed, motions_[i].curvature, step_);
    a.waiting = a.wanted_speed > 0.0 && motions_[i].speed == 0.0 ? a.waiting + step_ : 0.0;
    a.speed = motions_[i].speed;
    FollowerState& f = followers_[i];
    if (characters_[i].has_target && f.arrival_time < 0.0 &&
        glm::distance(a.pose.position, f.goal) <= ArrivalTolerance(i)) {
      f.arrival_time = time();
    }
    if (f.making_way && (glm::distance(a.pose.position, f.make_way_point) <= ArrivalTolerance(i) ||
                         time() - f.make_way_since >= kMakeWayTime)) {
      f.making_way = false;
    }
  }
  for (int i = 0; i < size(); ++i) {
    const int by = motions_[i].boxed_in_by;
    if (by >= 0 && agents_[i].waiting >= kMakeWayAfter) AskToMakeWay(by, i);
  }
  return {};
}

}  // namespace md5stage
