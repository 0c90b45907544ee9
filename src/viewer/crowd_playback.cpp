#include "viewer/crowd_playback.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace md5stage::viewer {

int CrowdPlayback::snapshot_count() const {
  int count = 0;
  for (const Run& run : runs_) count += static_cast<int>(run.snapshots.size());
  return count;
}

long long CrowdPlayback::StepsFor(const Run& run, double time) {
  const double local = time - run.start;
  if (!(local > 0.0)) return 0;
  // The step whose interval (k - 1, k] / rate holds the time; a time a rounding error past a
  // step's end still counts as that step's.
  return static_cast<long long>(std::ceil(local * kRate - 1e-9));
}

void CrowdPlayback::AdvanceTo(Run& run, long long steps) {
  if (steps < run.steps || (steps == run.steps && steps > 0 && run.before.empty())) {
    // Back to the last snapshot strictly before the step (so at least one step is made and the
    // poses before it are known); step 0 is the run's start.
    const long long snapshot = steps > 0 ? (steps - 1) / kStepsPerSnapshot : 0;
    const std::size_t index =
        std::min(static_cast<std::size_t>(snapshot), run.snapshots.size() - 1);
    run.live = run.snapshots[index];
    run.steps = static_cast<long long>(index) * kStepsPerSnapshot;
    run.before.clear();
  }
  while (run.steps < steps) {
    run.before.resize(static_cast<std::size_t>(run.live.size()));
    for (int i = 0; i < run.live.size(); ++i) run.before[i] = run.live.agent(i).pose;
    if (!run.live.Step().ok()) break;  // refused inputs were caught by Build: never expected
    ++run.steps;
    if (run.steps % kStepsPerSnapshot == 0 &&
        run.steps / kStepsPerSnapshot == static_cast<long long>(run.snapshots.size())) {
      run.snapshots.push_back(run.live);
    }
  }
}

int CrowdPlayback::IndexIn(const Run& run, CharacterId id, int hint) {
  if (hint >= 0 && hint < static_cast<int>(run.ids.size()) && run.ids[hint] == id) return hint;
  for (std::size_t i = 0; i < run.ids.size(); ++i) {
    if (run.ids[i] == id) return static_cast<int>(i);
  }
  return -1;
}

void CrowdPlayback::PoseIn(Run& run, int index, double time, Pose2* pose, double* speed) {
  const long long steps = StepsFor(run, time);
  AdvanceTo(run, steps);
  if (steps == 0 || run.steps != steps || run.before.empty()) {
    *pose = run.live.agent(index).pose;
    *speed = run.steps > 0 ? run.live.last_motion(index).speed : 0.0;
    return;
  }
  // On the step's own arc: exact, and the same for any way the time was reached.
  const CrowdMotion& motion = run.live.last_motion(index);
  const double into = time - run.start - static_cast<double>(steps - 1) * run.live.step();
  *pose = AdvancePose(run.before[static_cast<std::size_t>(index)], motion.speed, motion.curvature,
                      std::clamp(into, 0.0, run.live.step()));
  *speed = motion.speed;
}

CrowdPlayback::Run& CrowdPlayback::RunAt(double time) {
  for (std::size_t r = runs_.size(); r-- > 1;) {
    if (runs_[r].start <= time) return runs_[r];
  }
  return runs_.front();
}

bool CrowdPlayback::PoseAt(CharacterId id, int index_hint, double time, Pose2* pose,
                           double* speed) {
  if (runs_.empty()) return false;
  Run& run = RunAt(time);
  const int index = IndexIn(run, id, index_hint);
  if (index < 0) return false;
  PoseIn(run, index, time, pose, speed);
  return true;
}

bool CrowdPlayback::SteeringAt(CharacterId id, int index_hint, double time,
                               CrowdSteering* steering) {
  if (runs_.empty()) return false;
  Run& run = RunAt(time);
  const int index = IndexIn(run, id, index_hint);
  if (index < 0) return false;
  const long long steps = StepsFor(run, time);
  AdvanceTo(run, steps);
  const CrowdAgent& agent = run.live.agent(index);
  *steering = CrowdSteering();
  steering->clearance = agent.clearance;
  steering->wanted_heading = agent.pose.heading;
  if (run.steps == 0) return true;  // nothing wanted or chosen yet: standing as it faces
  const CrowdMotion& motion = run.live.last_motion(index);
  steering->wanted_heading = agent.wanted_heading;
  steering->wanted_speed = agent.wanted_speed;
  steering->chosen_speed = motion.speed;
  steering->chosen_curvature = motion.curvature;
  // The step's own first choice is the wanted speed on the wanted curvature its radius allows.
  const double most = 1.0 / agent.turning_radius;
  const double turn = std::clamp(agent.wanted_curvature, -most, most);
  const bool slower = motion.speed < std::min(agent.wanted_speed, agent.max_speed) - 1e-9;
  const bool swerves = motion.speed > 0.0 && std::abs(motion.curvature - turn) > 1e-9;
  steering->giving_way = slower || swerves;
  return true;
}

Status CrowdPlayback::Start(double start, std::vector<CharacterId> ids,
                            std::vector<CrowdCharacter> characters, const ObstacleSet& obstacles,
                            const std::vector<CharacterId>& placed) {
  // The run playing at `start` (if any began before it) hands on its characters' places.
  Run* earlier = nullptr;
  for (Run& run : runs_) {
    if (run.start < start) earlier = &run;
  }
  for (std::size_t i = 0; i < characters.size(); ++i) {
    CrowdCharacter& c = characters[i];
    c.start_delay = std::max(0.0, c.start_delay - std::max(start, 0.0));
    if (earlier == nullptr || std::find(placed.begin(), placed.end(), ids[i]) != placed.end()) {
      continue;
    }
    const int index = IndexIn(*earlier, ids[i], static_cast<int>(i));
    if (index < 0) continue;
    double speed = 0.0;
    PoseIn(*earlier, index, start, &c.start, &speed);
    const CrowdCharacter& was = earlier->live.character(index);
    if (c.route && was.route == c.route) {
      c.route_progress = std::clamp(earlier->live.route_progress(index), 0.0, c.route->length());
      c.route_backwards = earlier->live.route_backwards(index);
    }
  }
  CrowdSimulationOptions options;
  options.rate = kRate;
  Result<CrowdSimulation> built =
      characters.empty() ? Result<CrowdSimulation>(CrowdSimulation())
                         : CrowdSimulation::Build(std::move(characters), obstacles, options);
  if (!built.ok()) return built.error();
  runs_.erase(std::remove_if(runs_.begin(), runs_.end(),
                             [&](const Run& run) { return run.start >= start; }),
              runs_.end());
  if (!runs_.empty()) {
    // Its snapshots after `start` are never reached again (that time is the new run's).
    Run& last = runs_.back();
    const std::size_t keep =
        static_cast<std::size_t>(StepsFor(last, start) / kStepsPerSnapshot) + 1;
    if (last.snapshots.size() > keep) last.snapshots.resize(keep);
  }
  Run run;
  run.start = start;
  run.ids = std::move(ids);
  run.live = std::move(built.value());
  run.snapshots.push_back(run.live);
  runs_.push_back(std::move(run));
  return Status();
}

}  // namespace md5stage::viewer
