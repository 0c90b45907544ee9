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

void CrowdPlayback::WalkStep(Walking& walking, double speed, double step_start, double step) {
  walking.walked += speed * step;
  const bool moving = speed > 0.0;
  if (moving != walking.moving) {
    // A stand that never lasted (a run's start, walking from its first step) fades nothing.
    if (step_start > walking.since) {
      walking.has_previous = true;
      walking.previous_since = walking.since;
    }
    walking.since = step_start;
    walking.moving = moving;
  }
  if (moving) walking.walk_speed = speed;
}

long long CrowdPlayback::StepsFor(const Run& run, double time) {
  const double local = time - run.start;
  if (!(local > 0.0)) return 0;
  // The step whose interval (k - 1, k] / rate holds the time; a time a rounding error past a
  // step's end still counts as that step's.
  return static_cast<long long>(std::ceil(local * kRate - 1e-9));
}

void CrowdPlayback::AdvanceTo(Run& run, long long steps, long long* steps_made) {
  if (steps < run.steps || (steps == run.steps && steps > 0 && run.before.empty())) {
    // Back to the last snapshot strictly before the step (so at least one step is made and the
    // poses before it are known); step 0 is the run's start.
    const long long snapshot = steps > 0 ? (steps - 1) / kStepsPerSnapshot : 0;
    const std::size_t index =
        std::min(static_cast<std::size_t>(snapshot), run.snapshots.size() - 1);
    run.live = run.snapshots[index].simulation;
    run.walking = run.snapshots[index].walking;
    run.steps = static_cast<long long>(index) * kStepsPerSnapshot;
    run.before.clear();
    run.walked_before.clear();
  }
  while (run.steps < steps) {
    const std::size_t count = static_cast<std::size_t>(run.live.size());
    run.before.resize(count);
    run.walked_before.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      run.before[i] = run.live.agent(static_cast<int>(i)).pose;
      run.walked_before[i] = run.walking[i].walked;
    }
    if (!run.live.Step().ok()) break;  // refused inputs were caught by Build: never expected
    ++*steps_made;
    const double step_start = run.start + static_cast<double>(run.steps) * run.live.step();
    for (std::size_t i = 0; i < count; ++i) {
      WalkStep(run.walking[i], run.live.last_motion(static_cast<int>(i)).speed, step_start,
               run.live.step());
    }
    ++run.steps;
    if (run.steps % kStepsPerSnapshot == 0 &&
        run.steps / kStepsPerSnapshot == static_cast<long long>(run.snapshots.size())) {
      run.snapshots.push_back({run.live, run.walking});
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
  AdvanceTo(run, steps, &steps_made_);
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

CrowdPlayback::Walking CrowdPlayback::WalkingIn(Run& run, int index, double time) {
  const long long steps = StepsFor(run, time);
  AdvanceTo(run, steps, &steps_made_);
  Walking walking = run.walking[static_cast<std::size_t>(index)];
  if (steps == 0 || run.steps != steps || run.walked_before.empty()) return walking;
  // Along the step's own arc, as the pose: the distance of the time, not of the step's end.
  const double into = time - run.start - static_cast<double>(steps - 1) * run.live.step();
  walking.walked = run.walked_before[static_cast<std::size_t>(index)] +
                   run.live.last_motion(index).speed * std::clamp(into, 0.0, run.live.step());
  return walking;
}

CrowdPlayback::Run& CrowdPlayback::RunAt(double time) {
  for (std::size_t r = runs_.size(); r-- > 1;) {
    if (runs_[r].start <= time) return runs_[r];
  }
  return runs_.front();
}

void CrowdPlayback::StepTo(double time) {
  if (runs_.empty()) return;
  Run& run = RunAt(time);
  AdvanceTo(run, StepsFor(run, time), &steps_made_);
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
  AdvanceTo(run, steps, &steps_made_);
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

bool CrowdPlayback::GaitAt(CharacterId id, int index_hint, double time, anim::Gait* gait) {
  if (runs_.empty()) return false;
  Run& run = RunAt(time);
  const int index = IndexIn(run, id, index_hint);
  if (index < 0) return false;
  const Walking walking = WalkingIn(run, index, time);
  *gait = anim::Gait();
  gait->moving = walking.moving;
  gait->walked = walking.walked;
  gait->speed = walking.walk_speed;  // the step's own while it walks
  gait->elapsed = time - walking.since;
  gait->previous = walking.has_previous ? walking.since - walking.previous_since : -1.0;
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
  // A character new to the crowd stands from the run's start, having walked nowhere yet.
  Walking standing;
  standing.since = start;
  std::vector<Walking> walking(characters.size(), standing);
  for (std::size_t i = 0; i < characters.size(); ++i) {
    CrowdCharacter& c = characters[i];
    c.start_delay = std::max(0.0, c.start_delay - std::max(start, 0.0));
    if (earlier == nullptr) continue;
    const int index = IndexIn(*earlier, ids[i], static_cast<int>(i));
    if (index < 0) continue;
    // Its walk cycle goes on where it was, placed by hand or not.
    walking[i] = WalkingIn(*earlier, index, start);
    if (std::find(placed.begin(), placed.end(), ids[i]) != placed.end()) continue;
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
  run.walking = std::move(walking);
  run.snapshots.push_back({run.live, run.walking});
  runs_.push_back(std::move(run));
  return Status();
}

}  // namespace md5stage::viewer
