// The characters of a scene with `avoidance` on, giving way to each other: stepped by the core's
// CrowdSimulation at a fixed 60 Hz whatever the frame rate, and posed at any scene time on the
// exact arc of the step that time falls in. Seekable: each run keeps snapshots (a copy of the
// simulation every second) and reaches a time by stepping on from the nearest earlier one, so
// seeking to t gives exactly the poses playing to t gives. An edit starts a new run from the
// poses at its time and drops what came after; earlier runs stay, so the scene's history plays
// back as it was made. The runs also keep how far each character has walked and since when it
// walks or stands, so the walk cycle's phase is a function of the scene time too. Owned by
// CharacterCast (docs/design.md, "The crowd in the viewer").
#pragma once

#include <vector>

#include "core/anim/playback_clock.h"
#include "core/common/result.h"
#include "core/crowd/crowd_simulation.h"
#include "core/path/obstacles.h"
#include "core/path/pose.h"
#include "viewer/handles.h"

namespace md5stage::viewer {

// What the crowd's step at a time had a character want and what it took: the clearance overlay
// draws the two headings (display toggle `clearance`).
struct CrowdSteering {
  double clearance = 0.0;
  double wanted_heading = 0.0;  // radians: the line its route, path or plan turns it to
  double wanted_speed = 0.0;
  double chosen_speed = 0.0;
  double chosen_curvature = 0.0;  // left positive
  // It took less than it wanted: slower, or another curvature than its turn's (a step before the
  // first has wanted nothing yet).
  bool giving_way = false;
};

class CrowdPlayback {
 public:
  static constexpr double kRate = 60.0;         // steps a second
  static constexpr int kStepsPerSnapshot = 60;  // a snapshot a second

  // Whether any run is kept (avoidance on and built).
  bool active() const { return !runs_.empty(); }
  int run_count() const { return static_cast<int>(runs_.size()); }
  // Snapshots kept over all runs (for tests and the stats).
  int snapshot_count() const;
  // Steps made so far over all runs, replays from snapshots included (for tests).
  long long steps_made() const { return steps_made_; }
  // Everything goes (avoidance off, or another scene).
  void Clear() { runs_.clear(); }

  // A run from scene time `start` of these characters (`ids[i]` is `characters[i]`; start
  // delays counted from the scene's start). Runs from `start` on are dropped, and the earlier
  // run's snapshots after it. A character that was in the earlier run sets off from where that
  // run has it at `start` (pose and route progress), unless it is in `placed` (put somewhere by
  // hand: it starts where `characters` says). On an error nothing changes.
  Status Start(double start, std::vector<CharacterId> ids, std::vector<CrowdCharacter> characters,
               const ObstacleSet& obstacles, const std::vector<CharacterId>& placed = {});

  // The characters of the latest run, in order.
  const std::vector<CharacterId>* latest_ids() const {
    return runs_.empty() ? nullptr : &runs_.back().ids;
  }

  // Where the character is at scene time `time`, and the speed of the step it is on (0 before
  // the first); false when no run holds it. `index_hint` is where it is expected in the run.
  bool PoseAt(CharacterId id, int index_hint, double time, Pose2* pose, double* speed);
  // Makes now the steps reading a pose at `time` would make (nothing when no run is kept), so the
  // reads at that time step nothing: what lets a benchmark time the crowd's steps apart from
  // posing. The same steps either way: the poses read afterwards are the same.
  void StepTo(double time);
  // What the step `time` falls in had the character want and take; false when no run holds it.
  bool SteeringAt(CharacterId id, int index_hint, double time, CrowdSteering* steering);
  // How the character walks at scene time `time` (distance walked since the scene's start, on
  // the step's own arc; the walk or stand it is in and the one before): what its clip is set
  // from (anim::SetGaitClock). False when no run holds it.
  bool GaitAt(CharacterId id, int index_hint, double time, anim::Gait* gait);

 private:
  // A character's walking at the end of a run's step: kept with the simulation and its
  // snapshots, handed on to the next run at its start.
  struct Walking {
    double walked = 0.0;          // distance, over every step of every run
    bool moving = false;          // its last step's speed was above 0
    double since = 0.0;           // scene time the current walk or stand began (a step's start)
    bool has_previous = false;    // a walk or stand came before it (in this scene's runs)
    double previous_since = 0.0;  // when that one began
    double walk_speed = 0.0;      // its last moving step's speed
  };
  struct Snapshot {
    CrowdSimulation simulation;
    std::vector<Walking> walking;
  };
  struct Run {
    double start = 0.0;
    std::vector<CharacterId> ids;
    CrowdSimulation live;
    std::vector<Walking> walking;       // at live's last step
    long long steps = 0;                // steps `live` has made
    std::vector<Pose2> before;          // each pose before live's last step (valid when steps > 0)
    std::vector<double> walked_before;  // each distance walked before it (likewise)
    std::vector<Snapshot> snapshots;    // at steps 0, kStepsPerSnapshot, 2 x, ...
  };

  // The run that plays at `time`: the latest that starts at or before it (else the first).
  Run& RunAt(double time);
  // Steps (or restores, then steps) `run` until it has made `steps` steps.
  // (Counting each step made in steps_made.)
  static void AdvanceTo(Run& run, long long steps, long long* steps_made);
  static long long StepsFor(const Run& run, double time);
  static int IndexIn(const Run& run, CharacterId id, int hint);
  void PoseIn(Run& run, int index, double time, Pose2* pose, double* speed);
  Walking WalkingIn(Run& run, int index, double time);
  // A step of `speed` from scene time `step_start`, `step` long, walked on from `walking`.
  static void WalkStep(Walking& walking, double speed, double step_start, double step);

  std::vector<Run> runs_;
  long long steps_made_ = 0;
};

}  // namespace md5stage::viewer
