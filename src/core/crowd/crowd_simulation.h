// Characters on routes and go-tos stepped together at a fixed rate, giving way to each other:
// each step a follower per character says where it wants to go (its route, its planned path
// round the obstacles, or its goal's free slot), and the crowd step (crowd_step.h) chooses the
// motions. What `md5stage simulate` runs.
#pragma once

#include <memory>
#include <vector>

#include "core/common/play_mode.h"
#include "core/common/result.h"
#include "core/crowd/crowd_step.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"

namespace md5stage {

// A crowd's plan follower asks the obstacle planner for this much more than the walker's
// clearance, so cutting a corner of its plan while it gives way still clears the obstacle. The
// viewer plans a go-to in a scene with giving way on with the same room, so the plan it draws is
// the one the crowd walks.
inline constexpr double kCrowdPlanClearanceFactor = 1.25;

// A character as a scene gives it: a target point, a route, or neither (it stands).
struct CrowdCharacter {
  Pose2 start;
  double speed = 50.0;          // its own speed: never exceeded
  double turning_radius = 1.0;  // > 0
  double clearance = 0.0;
  bool has_target = false;
  glm::dvec2 target{0.0, 0.0};
  std::shared_ptr<const Route> route;  // when set, followed from its start
  PlayMode route_mode = PlayMode::kLoop;
  double start_delay = 0.0;  // seconds standing before it sets off
  // On a route: where along it the character is (a simulation built anew mid-walk, after an
  // edit in the viewer, carries its walkers on from there), [0, length]; and whether it is on a
  // ping-pong's way back.
  double route_progress = 0.0;
  bool route_backwards = false;
};

// Free places around goals several characters share: the first (nearest the goal) gets the
// goal itself, the others places on rings round it, apart by more than twice the largest
// clearance so a character can still walk between two that have arrived, and clear of the
// obstacles. Characters alone on their goal keep it. Deterministic: ties go to the lower index.
std::vector<glm::dvec2> AssignGoalSlots(const std::vector<CrowdCharacter>& characters,
                                        const ObstacleSet* obstacles);

struct CrowdSimulationOptions {
  double rate = 60.0;            // steps a second, [1, 1000]
  double horizon = 1.0;          // seconds the step looks ahead
  double replan_interval = 1.0;  // at most one re-plan a character in this many seconds
};

class CrowdSimulation {
 public:
  // Errors name the field: "characters[2].turning_radius: ...".
  static Result<CrowdSimulation> Build(std::vector<CrowdCharacter> characters,
                                       ObstacleSet obstacles, CrowdSimulationOptions options = {});
  CrowdSimulation() = default;

  // Keeping to the plans round the obstacles before the next step: where along its plan each
  // character that follows one now is, and the re-plans that are due (one that has strayed from
  // its plan, at most one a character per replan_interval; a first plan). The planner's own
  // budget, apart from the step's cost: Step() runs it itself unless it was called since the
  // last step (a caller that keeps the planner's time apart, the bench, calls it first); either
  // way the motions are the same. Returns the re-plans made.
  int PlanDue();
  // One fixed step of 1 / rate seconds.
  Status Step();

  double time() const { return step_count_ * step_; }
  double step() const { return step_; }
  int size() const { return static_cast<int>(agents_.size()); }
  const ObstacleSet& obstacles() const { return obstacles_; }
  const CrowdCharacter& character(int i) const { return characters_[i]; }
  // Pose and speed now; the motion that brought it here (speed 0 before the first step).
  const CrowdAgent& agent(int i) const { return agents_[i]; }
  const CrowdMotion& last_motion(int i) const { return motions_[i]; }
  glm::dvec2 goal(int i) const { return followers_[i].goal; }
  bool arrived(int i) const { return followers_[i].arrival_time >= 0.0; }
  // Seconds from the start, or -1 while it has not arrived (or has no target).
  double arrival_time(int i) const { return followers_[i].arrival_time; }
  // On a route: where along it the character now is, and whether it is on a ping-pong's way
  // back (what a simulation built anew from this one starts it with).
  double route_progress(int i) const { return followers_[i].progress; }
  bool route_backwards(int i) const { return followers_[i].direction < 0.0; }
  // Re-plans made so far (all characters).
  int replans() const { return replans_; }

 private:
  struct FollowerState {
    glm::dvec2 goal{0.0, 0.0};  // its slot
    double arrival_time = -1.0;
    bool route_done = false;
    double progress = 0.0;   // along the route or the planned path
    double direction = 1.0;  // ping-pong: -1 on the way back
    PlannedPath path;        // round the obstacles to the goal (empty: straight pursuit)
    double last_plan_time = -1e300;
    // Making way: an arrived character that boxes in one waiting behind it walks on to this
    // point (ahead of where it stood), then back to its goal.
    bool making_way = false;
    glm::dvec2 make_way_point{0.0, 0.0};
    double make_way_since = 0.0;
  };

  void Want(int i);
  void WantPoint(int i, glm::dvec2 point, bool is_goal);
  bool FollowsPlan(int i) const;
  void KeepToPlan(int i);
  void WantAlongPlan(int i);
  // On its plan (near it, heading along it): the plan's own turns, its lines no farther than
  // the next turn. False when off it (then the follower aims ahead on the plan).
  bool WantOnPlan(int i);
  void WantAlongRoute(int i);
  void Plan(int i);
  void AskToMakeWay(int i, int waiting);
  double ArrivalTolerance(int i) const;

  std::vector<CrowdCharacter> characters_;
  ObstacleSet obstacles_;
  CrowdSimulationOptions options_;
  double step_ = 1.0 / 60.0;
  long long step_count_ = 0;
  int replans_ = 0;
  bool plans_due_done_ = false;  // PlanDue ran since the last step
  std::vector<CrowdAgent> agents_;
  std::vector<CrowdMotion> motions_;
  std::vector<FollowerState> followers_;
  CrowdScratch scratch_;
  ObstaclePlannerScratch planner_scratch_;
  ObstaclePlanResult plan_result_;
};

}  // namespace md5stage
