// One fixed step of characters giving way: from each character's pose, speed limits, turning
// radius, clearance and the steering its follower wants, the speed and curvature it actually
// takes, so that no two come closer than the sum of their clearances and none enters an
// obstacle's clearance (docs/design.md, "Characters giving way").
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/path/obstacles.h"
#include "core/path/pose.h"

namespace md5stage {

constexpr int kMaxCrowdCharacters = 1 << 20;
constexpr double kMaxCrowdCoordinate = 1e9;

// A character as the step sees it. A character that should stand still wants speed 0; it still
// takes part (others go round it).
struct CrowdAgent {
  Pose2 pose;
  double speed = 0.0;           // its last step's, [0, max_speed]
  double waiting = 0.0;         // seconds it has stood still so far while wanting to move, >= 0
  double max_speed = 0.0;       // >= 0, units per second
  double turning_radius = 1.0;  // > 0: curvature never above 1 / turning_radius
  double clearance = 0.0;       // >= 0: two characters keep the sum of theirs between centres
  // What its follower (route, path or plan) wants: the heading it is turning to (the line of
  // its arc-and-line way on), the curvature of this step's part of that turn (its sign says
  // which way round; 0 when already on the line) and its speed.
  double wanted_heading = 0.0;    // radians, finite
  double wanted_curvature = 0.0;  // finite, left positive; taken at most at 1 / turning_radius
  double wanted_speed = 0.0;      // [0, max_speed]
  // How far along its way the follower still wants it to go (to the goal it lands on), > 0;
  // infinite when its way goes on. Its manoeuvres are ranked as ending there, so one near its
  // goal does not give way to those standing beyond it.
  double wanted_distance = HUGE_VAL;
};

// The motion chosen for one step: an arc of curvature `curvature` (left positive) travelled at
// `speed`. Speed 0 stands still.
struct CrowdMotion {
  double speed = 0.0;
  double curvature = 0.0;
  // When it stands: the neighbour that keeps it standing (one it faces too close to turn away
  // from, or the one its best refused step came too near), else -1. What lets the simulation
  // ask a character that has arrived to make way.
  int boxed_in_by = -1;
};

// Where a pose is after moving `time` seconds at `speed` on an arc of `curvature` (a line when 0).
Pose2 AdvancePose(const Pose2& pose, double speed, double curvature, double time);

// Working memory of the step, sized once for a number of characters (Reserve); Run allocates
// nothing.
struct CrowdScratch {
  void Reserve(int characters);
  int capacity() const { return capacity_; }

  // The neighbour grid: characters sorted by cell (counting sort), cell_start[c] .. [c + 1];
  // by_cell holds their indices, and cell-ordered copies of what the neighbour query reads
  // (position, and the reach each brings to a pair's interaction range), so a query scans
  // memory in order.
  std::vector<int> cell_of;
  std::vector<int> cell_start;
  std::vector<int> fill;
  std::vector<int> by_cell;
  std::vector<glm::dvec2> by_cell_position;
  std::vector<double> by_cell_reach;
  // Per character, where the others expect it over the horizon (samples of its manoeuvre), and
  // the most it moves between two samples.
  std::vector<glm::dvec2> predicted;
  std::vector<double> predicted_piece;
  // Per character, the way it faces at the step's start (worked out once a step).
  std::vector<glm::dvec2> forward;
  // Per character, its samples over this step: where it stands until it has chosen, then its
  // chosen motion's (what the safety check compares with).
  std::vector<glm::dvec2> step_path;
  // One character's neighbours while it chooses (found in one pass over those within reach):
  // those near enough to meet it within the step (the safety check's), those close enough to
  // box it in, and those that box it in already.
  std::vector<int> near;
  std::vector<int> close;
  std::vector<int> boxing;
  // Per character: its motion is already chosen this step (later ones check against it).
  std::vector<std::uint8_t> decided;

 private:
  int capacity_ = 0;
};

struct CrowdStepOptions {
  double step = 1.0 / 60.0;  // seconds, (0, 1]
  double horizon = 1.0;      // seconds looked ahead when ranking motions, [step, 10]
};

// The step job (inputs and caller-owned outputs). Characters decide in index order: each takes
// its best-ranked motion that is safe against the motions already chosen, against the others
// standing where they are now (so standing still is always safe for those still to choose) and
// against the obstacles; when none is, it stands still.
struct CrowdStepJob {
  const CrowdAgent* agents = nullptr;
  int count = 0;
  const ObstacleSet* obstacles = nullptr;  // may be null: none
  CrowdStepOptions options;
  CrowdScratch* scratch = nullptr;  // Reserve(count) done by the caller
  CrowdMotion* motions = nullptr;   // output: count motions

  // Errors name the field: "agents[3].turning_radius: expected a finite number > 0, found -1".
  Status Validate() const;
  // Validates, then chooses every character's motion.
  Status Run() const;
};

}  // namespace md5stage
