// The planner against an independent optimum: `md5stage plan`'s job (ObstaclePlanJob with its
// default limits) and OMPL's asymptotically optimal planners (RRT* and BIT* on OMPL's
// DubinsStateSpace, several runs of some seconds each, the shortest legal path kept) on the
// generated cases of compare_cases.h. OMPL checks motions exactly: each Dubins motion is turned
// into arcs and lines and tested with the core's ObstacleSet queries against the obstacles grown
// by the clearance. Both planners' paths are then checked again by sampling with geometry of this
// file's own. Prints a row per case and a summary; built only where OMPL is found (Debian's
// libompl-dev), never part of the test command.
//
//   md5stage_ompl_compare [--cases N] [--first I] [--seconds S] [--rrt-runs N] [--bit-runs N]
//                         [--csv FILE] [--ompl-from FILE] [--other-side 0|1] [--ompl 0|1]
//                         [--budget EXPANSIONS]
//   --ompl-from reads OMPL's lengths from an earlier run's --csv file (same cases), so a planner
//   change is measured in seconds against the same optimum; --ompl 0 plans the cases with the
//   planner alone (--other-side 0 and 1 side by side: what the other-side pass changes).
#include <ompl/base/MotionValidator.h>
#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/StateValidityChecker.h>
#include <ompl/base/goals/GoalSampleableRegion.h>
#include <ompl/base/goals/GoalState.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/base/spaces/DubinsStateSpace.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/PathSimplifier.h>
#include <ompl/geometric/planners/informedtrees/BITstar.h>
#include <ompl/geometric/planners/rrt/RRTstar.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <glm/geometric.hpp>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compare_cases.h"
#include "core/path/obstacle_planner.h"

namespace md5stage::ompl_compare {
namespace {

namespace ob = ompl::base;
namespace og = ompl::geometric;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Options {
  int cases = 48;
  int first = 0;
  double seconds = 2.0;  // per OMPL run
  int rrt_runs = 2;
  int bit_runs = 1;
  std::string csv;         // per-case rows written here
  std::string ompl_from;   // OMPL's lengths read from here instead of running it
  bool other_side = true;  // the planner's other-side pass (0: the planner before issue 44)
  bool run_ompl = true;    // --ompl 0: the planner alone (its lengths, to compare two planners)
  int budget = kDefaultPlanBudget;  // the planner's expansions (the default is `md5stage plan`'s)
};

// ---- an independent legality check -------------------------------------------------------------

double PointSegmentDistance(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 d = b - a;
  const double dd = glm::dot(d, d);
  const double t = dd > 0.0 ? std::clamp(glm::dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * d));
}

// Even-odd rule: a ray to +x crosses the boundary an odd number of times from inside.
bool InsidePolygon(glm::dvec2 p, const std::vector<glm::dvec2>& v) {
  bool inside = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    if ((v[i].y > p.y) != (v[j].y > p.y)) {
      const double x = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

double ShapeDistance(const Obstacle& o, glm::dvec2 p) {
  if (o.kind == Obstacle::Kind::kCircle) return std::max(0.0, glm::length(p - o.centre) - o.radius);
  if (InsidePolygon(p, o.vertices)) return 0.0;
  double best = kInfinity;
  for (std::size_t i = 0, j = o.vertices.size() - 1; i < o.vertices.size(); j = i++) {
    best = std::min(best, PointSegmentDistance(p, o.vertices[j], o.vertices[i]));
  }
  return best;
}

glm::dvec2 PointOn(const TurnSegment& s, double along) {
  if (s.kind == TurnSegment::Kind::kLine) {
    return s.start.position + along * glm::dvec2(std::cos(s.angle), std::sin(s.angle));
  }
  const double a = s.start_angle + s.sweep * (along / s.length);
  return s.centre + s.radius * glm::dvec2(std::cos(a), std::sin(a));
}

double EndHeading(const TurnSegment& s) {
  return s.kind == TurnSegment::Kind::kLine ? s.angle : s.start.heading + s.sweep;
}

double AngleGap(double a, double b) { return std::abs(std::remainder(a - b, 2.0 * kPi)); }

// Samples every `step` along each segment (and its ends): no sample within the clearance of any
// obstacle (or touching one), arcs no tighter than the radius, each segment starting where the
// one before ended, the path from the start to the goal (with its heading when asked). Returns
// "" or what is wrong.
std::string SampledCheck(const std::vector<TurnSegment>& segments, const compare_cases::Case& c,
                         double step) {
  const double tol = 1e-6 * std::max(1.0, c.clearance);
  glm::dvec2 at = c.start.position;
  double heading = c.start.heading;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const TurnSegment& s = segments[i];
    const std::string name = "segment " + std::to_string(i);
    if (glm::length(s.start.position - at) > 1e-6 || AngleGap(s.start.heading, heading) > 1e-6) {
      return name + " does not start where the path is";
    }
    if (s.kind == TurnSegment::Kind::kArc) {
      if (s.radius < c.radius * (1.0 - 1e-9)) return name + " turns tighter than the radius";
      if (std::abs(s.radius * std::abs(s.sweep) - s.length) > 1e-6) return name + ": bad length";
      if (glm::length(PointOn(s, 0.0) - s.start.position) > 1e-6) return name + ": not on its arc";
    } else if (AngleGap(s.angle, s.start.heading) > 1e-6) {
      return name + ": line not along the heading";
    }
    const int n = std::max(1, static_cast<int>(std::ceil(s.length / step)));
    for (int k = 0; k <= n; ++k) {
      const glm::dvec2 p = PointOn(s, s.length * k / n);
      for (std::size_t o = 0; o < c.obstacles.size(); ++o) {
        const double d = ShapeDistance(c.obstacles.obstacles()[o], p);
        if (d == 0.0 || d < c.clearance - tol) {
          const bool exact_clear = c.obstacles.FirstTurnSegmentWithin(s, c.clearance) < 0;
          return name + " comes within " + std::to_string(d) + " of obstacles[" +
                 std::to_string(o) + "] (clearance " + std::to_string(c.clearance) +
                 (exact_clear ? "; the core's exact check finds it clear)" : ")");
        }
      }
    }
    at = PointOn(s, s.length);
    heading = EndHeading(s);
  }
  if (glm::length(at - c.goal) > 1e-6) return "does not end at the goal";
  if (c.has_heading && AngleGap(heading, c.heading) > 1e-6) return "wrong final heading";
  return "";
}

// ---- OMPL --------------------------------------------------------------------------------------

Pose2 PoseOf(const ob::State* s) {
  const auto* se2 = s->as<ob::SE2StateSpace::StateType>();
  return {{se2->getX(), se2->getY()}, se2->getYaw()};
}

// The arcs and lines of OMPL's Dubins motion from s1 to s2 (as DubinsStateSpace::interpolate
// drives it).
std::vector<TurnSegment> MotionSegments(const ob::DubinsStateSpace& space, double rho,
                                        const ob::State* s1, const ob::State* s2) {
  const ob::DubinsStateSpace::DubinsPath path = space.dubins(s1, s2);
  Pose2 at = PoseOf(s1);
  std::vector<TurnSegment> out;
  for (int i = 0; i < 3; ++i) {
    const double turn = path.length_[i];
    if (!(turn > 0.0)) continue;
    TurnSegment s;
    s.start = at;
    s.length = turn * rho;
    if (path.type_[i] == ob::DubinsStateSpace::DUBINS_STRAIGHT) {
      s.kind = TurnSegment::Kind::kLine;
      s.angle = at.heading;
      at.position += s.length * glm::dvec2(std::cos(at.heading), std::sin(at.heading));
    } else {
      const double side = path.type_[i] == ob::DubinsStateSpace::DUBINS_LEFT ? 1.0 : -1.0;
      s.kind = TurnSegment::Kind::kArc;
      s.radius = rho;
      s.sweep = side * turn;
      s.centre = at.position + side * rho * glm::dvec2(-std::sin(at.heading), std::cos(at.heading));
      s.start_angle = at.heading - side * 0.5 * kPi;
      at.heading += s.sweep;
      at.position = s.centre + rho * glm::dvec2(std::cos(s.start_angle + s.sweep),
                                                std::sin(s.start_angle + s.sweep));
    }
    out.push_back(s);
  }
  return out;
}

class ClearanceChecker : public ob::StateValidityChecker {
 public:
  ClearanceChecker(const ob::SpaceInformationPtr& si, const compare_cases::Case& c)
      : ob::StateValidityChecker(si), case_(c) {}
  bool isValid(const ob::State* s) const override {
    return si_->satisfiesBounds(s) &&
           case_.obstacles.FirstWithin(PoseOf(s).position, case_.clearance) < 0;
  }

 private:
  const compare_cases::Case& case_;
};

// Exact: every arc and line of the motion tested against the obstacles grown by the clearance.
class ExactDubinsValidator : public ob::MotionValidator {
 public:
  ExactDubinsValidator(const ob::SpaceInformationPtr& si, const compare_cases::Case& c)
      : ob::MotionValidator(si),
        space_(*si->getStateSpace()->as<ob::DubinsStateSpace>()),
        case_(c) {}

  bool checkMotion(const ob::State* s1, const ob::State* s2) const override {
    const bool ok = si_->isValid(s2) && Clear(MotionSegments(space_, case_.radius, s1, s2));
    (ok ? valid_ : invalid_)++;
    return ok;
  }

  // The last valid state: the clear prefix found by bisection on the first blocked piece.
  bool checkMotion(const ob::State* s1, const ob::State* s2,
                   std::pair<ob::State*, double>& last_valid) const override {
    if (checkMotion(s1, s2)) return true;
    const std::vector<TurnSegment> segments = MotionSegments(space_, case_.radius, s1, s2);
    double total = 0.0, clear = 0.0;
    for (const TurnSegment& s : segments) total += s.length;
    for (const TurnSegment& s : segments) {
      if (Clear({s})) {
        clear += s.length;
        continue;
      }
      double lo = 0.0, hi = s.length;
      for (int k = 0; k < 40; ++k) {
        const double mid = 0.5 * (lo + hi);
        TurnSegment part = s;
        part.length = mid;
        if (s.kind == TurnSegment::Kind::kArc) part.sweep = s.sweep * (mid / s.length);
        (mid > 0.0 && Clear({part}) ? lo : hi) = mid;
      }
      clear += lo;
      break;
    }
    last_valid.second = total > 0.0 ? clear / total : 0.0;
    if (last_valid.first != nullptr) {
      space_.interpolate(s1, s2, last_valid.second, last_valid.first);
    }
    return false;
  }

 private:
  bool Clear(const std::vector<TurnSegment>& segments) const {
    for (const TurnSegment& s : segments) {
      if (case_.obstacles.FirstTurnSegmentWithin(s, case_.clearance) >= 0) return false;
    }
    return true;
  }

  const ob::DubinsStateSpace& space_;
  const compare_cases::Case& case_;
};

// A goal point with any final heading: OMPL's samples arrive there at headings spread evenly
// (the golden-ratio sequence: 72 of them are within 5 degrees of any heading), and any state at
// the point satisfies it.
class PointGoalAnyHeading : public ob::GoalSampleableRegion {
 public:
  PointGoalAnyHeading(const ob::SpaceInformationPtr& si, glm::dvec2 goal)
      : ob::GoalSampleableRegion(si), goal_(goal) {
    setThreshold(1e-9 * std::max(1.0, glm::length(goal)));
  }
  double distanceGoal(const ob::State* s) const override {
    return glm::length(PoseOf(s).position - goal_);
  }
  void sampleGoal(ob::State* s) const override {
    auto* se2 = s->as<ob::SE2StateSpace::StateType>();
    se2->setXY(goal_.x, goal_.y);
    const double phase = std::fmod(0.6180339887498949 * static_cast<double>(++samples_), 1.0);
    se2->setYaw(WrapPi(2.0 * kPi * phase));
  }
  // BIT* takes every goal sample at once (it hung on 2^20); RRT* samples on past the count.
  unsigned int maxSampleCount() const override { return 72; }

 private:
  glm::dvec2 goal_;
  mutable unsigned long samples_ = 0;
};

bool AllMotionsValid(const ob::SpaceInformation& si, const og::PathGeometric& path) {
  for (std::size_t i = 0; i + 1 < path.getStateCount(); ++i) {
    if (!si.checkMotion(path.getState(i), path.getState(i + 1))) return false;
  }
  return true;
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

struct OmplRun {
  bool solved = false;
  double length = kInfinity;
  std::vector<TurnSegment> segments;
};

// One run of `planner_name` ("rrt*" or "bit*") for `seconds`, its solution shortened by OMPL's
// own simplifier (vertex reduction and shortcuts, each only taken when shorter and clear).
OmplRun RunOmpl(const compare_cases::Case& c, const std::string& planner_name, double seconds) {
  auto space = std::make_shared<ob::DubinsStateSpace>(c.radius);
  glm::dvec2 lo = glm::min(c.start.position, c.goal), hi = glm::max(c.start.position, c.goal);
  lo = glm::min(lo, c.obstacles.bounds().min);
  hi = glm::max(hi, c.obstacles.bounds().max);
  // The planner's own search field: room to turn round everything.
  const double margin = 4.0 * c.radius + 2.0 * c.clearance;
  ob::RealVectorBounds bounds(2);
  bounds.setLow(0, lo.x - margin);
  bounds.setLow(1, lo.y - margin);
  bounds.setHigh(0, hi.x + margin);
  bounds.setHigh(1, hi.y + margin);
  space->setBounds(bounds);
  auto si = std::make_shared<ob::SpaceInformation>(space);
  si->setStateValidityChecker(std::make_shared<ClearanceChecker>(si, c));
  si->setMotionValidator(std::make_shared<ExactDubinsValidator>(si, c));
  si->setup();

  auto pdef = std::make_shared<ob::ProblemDefinition>(si);
  ob::ScopedState<ob::SE2StateSpace> start(space);
  start->setXY(c.start.position.x, c.start.position.y);
  start->setYaw(c.start.heading);
  pdef->addStartState(start);
  if (c.has_heading) {
    ob::ScopedState<ob::SE2StateSpace> goal(space);
    goal->setXY(c.goal.x, c.goal.y);
    goal->setYaw(c.heading);
    auto goal_state = std::make_shared<ob::GoalState>(si);
    goal_state->setState(goal);
    goal_state->setThreshold(1e-9);
    pdef->setGoal(goal_state);
  } else {
    pdef->setGoal(std::make_shared<PointGoalAnyHeading>(si, c.goal));
  }
  auto objective = std::make_shared<ob::PathLengthOptimizationObjective>(si);
  objective->setCostThreshold(ob::Cost(0.0));  // never satisfied: the run uses all its time
  pdef->setOptimizationObjective(objective);

  ob::PlannerPtr planner;
  if (planner_name == "bit*") {
    planner = std::make_shared<og::BITstar>(si);
  } else {
    auto rrt = std::make_shared<og::RRTstar>(si);
    // Samples only where a shorter path could pass (the ellipse of the best length so far: a
    // Dubins length is never below the straight distance). On case 4, 2 s: 1,310 plain, 976
    // informed (the planner: 971).
    rrt->setInformedSampling(true);
    planner = rrt;
  }
  planner->setProblemDefinition(pdef);
  planner->setup();
  // CPU seconds of this thread, not wall time: on a shared machine a wall-clock limit gave OMPL a
  // tenth of the work on some cases and all of it on others.
  const double stop_at = ThreadCpuSeconds() + seconds;
  const ob::PlannerStatus status = planner->solve(
      ob::PlannerTerminationCondition([&] { return ThreadCpuSeconds() >= stop_at; }));
  OmplRun run;
  if (status != ob::PlannerStatus::EXACT_SOLUTION || !pdef->hasExactSolution()) return run;
  const og::PathGeometric raw = *pdef->getSolutionPath()->as<og::PathGeometric>();
  og::PathGeometric path = raw;
  og::PathSimplifier simplifier(si, pdef->getGoal());
  for (int round = 0; round < 20 && path.getStateCount() >= 3; ++round) {
    const bool reduced = simplifier.reduceVertices(path);
    const bool shortcut = path.getStateCount() >= 3 && simplifier.shortcutPath(path);
    if (!reduced && !shortcut) break;
  }
  // shortcutPath checks only its new motion; the pieces it leaves between a vertex and a state
  // it cut in at are new Dubins words too (a shortest word to a point inside another word need
  // not be that word's piece), and some came within the clearance. Then only vertex reduction,
  // which checks every motion it makes.
  if (!AllMotionsValid(*si, path)) {
    path = raw;
    while (path.getStateCount() >= 3 && simplifier.reduceVertices(path)) {
    }
  }
  run.solved = true;
  run.length = 0.0;
  for (std::size_t i = 0; i + 1 < path.getStateCount(); ++i) {
    for (const TurnSegment& s :
         MotionSegments(*space, c.radius, path.getState(i), path.getState(i + 1))) {
      run.segments.push_back(s);
      run.length += s.length;
    }
  }
  return run;
}

// ---- the comparison ----------------------------------------------------------------------------

struct Row {
  int index = 0;
  double ompl = kInfinity;   // the best legal OMPL length (infinity: none)
  std::string ompl_by;       // which run found it ("rrt*#1", ...)
  std::string ompl_lengths;  // every run's length
  double ours = kInfinity;
  bool ours_legal = false;
  std::string ours_problem;
  double ours_ms = 0.0;
  int expansions = 0;
};

std::string Text(double v, const char* format) {
  if (!std::isfinite(v)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}
std::string LengthText(double v) { return Text(v, "%.3f"); }
std::string RatioText(double v) { return Text(v, "%.4f"); }

// One OMPL run in a child process, its path checked there: Debian's OMPL is built with
// assertions, and its Dubins solver asserts on some near-degenerate pairs of states (dubinsRSL),
// which would end the whole comparison. The child reports "solved LENGTH", "illegal WHY" or
// "none"; a crash is reported as such and the run counts as unsolved.
std::string RunIsolated(const compare_cases::Case& c, const char* planner, double seconds,
                        unsigned seed) {
  int fds[2];
  if (pipe(fds) != 0) return "crashed (no pipe)";
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    ompl::RNG::setSeed(seed);  // no RNG exists in this process yet: the run is reproducible
    const OmplRun run = RunOmpl(c, planner, seconds);
    std::string report = "none";
    if (run.solved) {
      const std::string problem = SampledCheck(run.segments, c, 0.02 * c.radius);
      report = problem.empty() ? "solved " + Text(run.length, "%.9f") : "illegal " + problem;
    }
    const ssize_t written = write(fds[1], report.data(), report.size());
    _exit(written == static_cast<ssize_t>(report.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string report;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) report.append(buffer, n);
  close(fds[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    return "crashed";
  }
  return report;
}

void RunOmplSide(const compare_cases::Case& c, const Options& options, Row* row) {
  struct Plan {
    const char* name;
    int runs;
  };
  const Plan plans[2] = {{"rrt*", options.rrt_runs}, {"bit*", options.bit_runs}};
  unsigned seed = 44u + 16u * static_cast<unsigned>(c.index);
  for (const Plan& plan : plans) {
    for (int k = 1; k <= plan.runs; ++k) {
      const std::string report = RunIsolated(c, plan.name, options.seconds, seed++);
      std::string label = std::string(plan.name) + "#" + std::to_string(k);
      double length = kInfinity;
      if (report.rfind("solved ", 0) == 0) {
        length = std::atof(report.c_str() + 7);
        if (length < row->ompl) {
          row->ompl = length;
          row->ompl_by = label;
        }
      } else if (report != "none") {
        std::fprintf(stderr, "case %d: OMPL's %s: %s: not counted\n", c.index, label.c_str(),
                     report.c_str());
        label += report.rfind("illegal", 0) == 0 ? "(illegal)" : "(crashed)";
      }
      row->ompl_lengths +=
          (row->ompl_lengths.empty() ? "" : " ") + label + "=" + LengthText(length);
    }
  }
}

void RunOurSide(const compare_cases::Case& c, const Options& options, Row* row) {
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
  ObstaclePlanJob job = planner_cases::PlanJobFor(c, &scratch, &path, &result);
  job.limits.other_side = options.other_side;
  job.limits.budget = options.budget;
  job.Run();  // grows the scratch (the bench rows time a warm planner too)
  const auto started = std::chrono::steady_clock::now();
  const Status status = job.Run();
  row->ours_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  row->expansions = result.expansions;
  if (!status.ok()) {
    row->ours_problem = status.error().message;
    return;
  }
  if (!result.found()) {
    row->ours_problem = result.reason;
    return;
  }
  row->ours = path.length;
  row->ours_problem = SampledCheck(path.segments, c, 0.02 * c.radius);
  double sum = 0.0;
  for (const TurnSegment& s : path.segments) sum += s.length;
  if (row->ours_problem.empty() && std::abs(sum - path.length) > 1e-6 * std::max(1.0, sum)) {
    row->ours_problem = "its length is not the sum of its segments'";
  }
  row->ours_legal = row->ours_problem.empty();
}

// The OMPL columns of an earlier run's CSV: case index -> (length, by, all lengths).
bool ReadOmplColumns(const std::string& file, std::map<int, Row>* rows) {
  std::ifstream in(file);
  if (!in) return false;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string index, ompl, by, lengths;
    std::getline(fields, index, ',');
    for (int skip = 0; skip < 4; ++skip) std::getline(fields, ompl, ',');
    std::getline(fields, ompl, ',');
    std::getline(fields, by, ',');
    std::getline(fields, lengths, ',');
    Row row;
    row.index = std::atoi(index.c_str());
    row.ompl = ompl == "-" ? kInfinity : std::atof(ompl.c_str());
    row.ompl_by = by;
    row.ompl_lengths = lengths;
    (*rows)[row.index] = row;
  }
  return true;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * (v.size() - 1) + 0.5)];
}

void PrintSummary(const std::vector<Row>& rows) {
  int ompl_solved = 0, ours_solved = 0, both = 0, illegal = 0, over = 0, ompl_only = 0;
  int ours_only = 0, shorter = 0;
  std::vector<double> ratios;
  double worst = 0.0;
  int worst_case = -1;
  std::string over_list;
  for (const Row& r : rows) {
    const bool o = std::isfinite(r.ompl), u = std::isfinite(r.ours);
    ompl_solved += o;
    ours_solved += u;
    if (u && !r.ours_legal) ++illegal;
    if (o && !u) ++ompl_only;
    if (u && !o) ++ours_only;
    if (!o || !u) continue;
    ++both;
    const double ratio = r.ours / r.ompl;
    ratios.push_back(ratio);
    if (ratio > 1.05) {
      ++over;
      char item[48];
      std::snprintf(item, sizeof item, "%s%d (%.3f)", over_list.empty() ? "" : ", ", r.index,
                    ratio);
      over_list += item;
    }
    if (ratio < 0.99) ++shorter;
    if (ratio > worst) {
      worst = ratio;
      worst_case = r.index;
    }
  }
  std::printf(
      "summary: %zu cases; OMPL solved %d, we solved %d (%d illegal), both %d; OMPL only %d, "
      "ours only %d\n",
      rows.size(), ompl_solved, ours_solved, illegal, both, ompl_only, ours_only);
  if (ratios.empty()) return;
  std::printf(
      "summary: ratio ours/OMPL median %.4f, 95th %.4f, worst %.4f (case %d); over 1.05: %d%s%s%s; "
      "ours over 1%% shorter than OMPL's best: %d\n",
      Percentile(ratios, 0.5), Percentile(ratios, 0.95), worst, worst_case, over, over ? " [" : "",
      over_list.c_str(), over ? "]" : "", shorter);
}

bool ParseOptions(int argc, char** argv, Options* options, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      *error = flag + ": expected a value after it";
      return false;
    }
    const std::string value = argv[++i];
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    const bool numeric = end != value.c_str() && *end == '\0' && std::isfinite(number);
    const auto whole = [&](int* field, int low) {
      if (!numeric || number != std::floor(number) || number < low || number > 1e6) {
        *error = flag + ": expected a whole number from " + std::to_string(low) + ", found '" +
                 value + "'";
        return false;
      }
      *field = static_cast<int>(number);
      return true;
    };
    if (flag == "--cases") {
      if (!whole(&options->cases, 1)) return false;
    } else if (flag == "--first") {
      if (!whole(&options->first, 0)) return false;
    } else if (flag == "--rrt-runs") {
      if (!whole(&options->rrt_runs, 0)) return false;
    } else if (flag == "--bit-runs") {
      if (!whole(&options->bit_runs, 0)) return false;
    } else if (flag == "--seconds") {
      if (!numeric || !(number > 0.0) || number > 3600.0) {
        *error = "--seconds: expected a number above 0 and at most 3600, found '" + value + "'";
        return false;
      }
      options->seconds = number;
    } else if (flag == "--other-side") {
      if (value != "0" && value != "1") {
        *error = "--other-side: expected 0 or 1, found '" + value + "'";
        return false;
      }
      options->other_side = value == "1";
    } else if (flag == "--budget") {
      if (!whole(&options->budget, 1)) return false;
    } else if (flag == "--ompl") {
      if (value != "0" && value != "1") {
        *error = "--ompl: expected 0 or 1, found '" + value + "'";
        return false;
      }
      options->run_ompl = value == "1";
    } else if (flag == "--csv") {
      options->csv = value;
    } else if (flag == "--ompl-from") {
      options->ompl_from = value;
    } else {
      *error = flag +
               ": unknown option (--cases, --first, --seconds, --rrt-runs, --bit-runs, "
               "--csv, --ompl-from, --other-side, --ompl, --budget)";
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  Options options;
  std::string error;
  if (!ParseOptions(argc, argv, &options, &error)) {
    std::fprintf(stderr, "md5stage_ompl_compare: %s\n", error.c_str());
    return 2;
  }
  std::map<int, Row> recorded;
  if (!options.ompl_from.empty() && !ReadOmplColumns(options.ompl_from, &recorded)) {
    std::fprintf(stderr, "md5stage_ompl_compare: --ompl-from: cannot read '%s'\n",
                 options.ompl_from.c_str());
    return 2;
  }
  ompl::msg::setLogLevel(ompl::msg::LOG_ERROR);
  std::FILE* csv = nullptr;
  if (!options.csv.empty()) {
    csv = std::fopen(options.csv.c_str(), "w");
    if (csv == nullptr) {
      std::fprintf(stderr, "md5stage_ompl_compare: --csv: cannot write '%s'\n",
                   options.csv.c_str());
      return 2;
    }
    std::fprintf(csv,
                 "case,kind,radius,clearance,heading,ompl,ompl_by,ompl_runs,ours,ratio,"
                 "ours_legal,ours_ms,expansions,problem\n");
  }
  std::printf("OMPL %s: %d RRT* and %d BIT* runs of %.1f s per case, cases %d to %d\n",
              !options.ompl_from.empty() ? ("from " + options.ompl_from).c_str()
              : options.run_ompl         ? "live"
                                         : "not run",
              options.rrt_runs, options.bit_runs, options.seconds, options.first,
              options.first + options.cases - 1);
  std::printf("%5s %-8s %6s %5s %4s %10s %10s %7s %5s %7s %6s  %s\n", "case", "kind", "radius",
              "clear", "head", "ompl", "ours", "ratio", "legal", "ms", "exp", "ompl runs");
  std::vector<Row> rows;
  for (int i = options.first; i < options.first + options.cases; ++i) {
    const compare_cases::Case c = compare_cases::MakeCase(i);
    Row row;
    if (!options.ompl_from.empty()) {
      const auto found = recorded.find(i);
      if (found == recorded.end()) {
        std::fprintf(stderr, "md5stage_ompl_compare: --ompl-from: no case %d in '%s'\n", i,
                     options.ompl_from.c_str());
        return 2;
      }
      row = found->second;
    } else if (options.run_ompl) {
      RunOmplSide(c, options, &row);
    }
    row.index = i;
    RunOurSide(c, options, &row);
    const double ratio = std::isfinite(row.ours) && std::isfinite(row.ompl)
                             ? row.ours / row.ompl
                             : std::numeric_limits<double>::quiet_NaN();
    std::printf("%5d %-8s %6.1f %5.1f %4s %10s %10s %7s %5s %7.2f %6d  %s%s%s\n", i, c.kind,
                c.radius, c.clearance, c.has_heading ? "yes" : "no", LengthText(row.ompl).c_str(),
                LengthText(row.ours).c_str(), RatioText(ratio).c_str(),
                std::isfinite(row.ours) ? (row.ours_legal ? "yes" : "NO") : "-", row.ours_ms,
                row.expansions, row.ompl_lengths.c_str(),
                row.ours_problem.empty() ? "" : "  ours: ", row.ours_problem.c_str());
    std::fflush(stdout);
    if (csv != nullptr) {
      std::fprintf(csv, "%d,%s,%.6f,%.6f,%s,%s,%s,%s,%s,%s,%s,%.3f,%d,\"%s\"\n", i, c.kind,
                   c.radius, c.clearance, c.has_heading ? "yes" : "no",
                   LengthText(row.ompl).c_str(), row.ompl_by.c_str(), row.ompl_lengths.c_str(),
                   LengthText(row.ours).c_str(), RatioText(ratio).c_str(),
                   row.ours_legal ? "yes" : "no", row.ours_ms, row.expansions,
                   row.ours_problem.c_str());
    }
    rows.push_back(row);
  }
  if (csv != nullptr) std::fclose(csv);
  PrintSummary(rows);
  return 0;
}

}  // namespace
}  // namespace md5stage::ompl_compare

int main(int argc, char** argv) { return md5stage::ompl_compare::Main(argc, argv); }
