// The reference the crowd benchmarks compare with (issue 45): Recast/Detour's DetourCrowd (Debian's
// librecast-dev) on a crowd scenario. Recast builds a navmesh from the scenario's ground (the
// rectangle round every start and target) and obstacles, with the walkers' one clearance as the
// agent radius; DetourCrowd moves an agent per walker to its target with its sampled-velocity
// avoidance, at the parameters of the Recast demo's crowd tool (high quality). Native only.
#pragma once

#include <memory>
#include <vector>

#include "core/common/result.h"
#include "crowd_scenarios.h"

class dtNavMesh;
class dtCrowd;

namespace md5stage::bench {

struct DetourCrowdOptions {
  double rate = 60.0;            // updates a second, as the crowd simulation's steps
  double agent_height = 180.0;   // scene units (a walker's height; the ground is flat)
  int avoidance_quality = 3;     // the demo's 0 low .. 3 high (its default)
  double ground_margin = 200.0;  // ground beyond the farthest start or target, scene units
};

class DetourCrowdRun {
 public:
  // Errors name the field: every character needs a target and no route, and all share one
  // clearance (the navmesh is eroded by one agent radius); a Recast or Detour step that fails is
  // named.
  static Result<DetourCrowdRun> Build(const CrowdScenario& scenario,
                                      const DetourCrowdOptions& options = {});
  DetourCrowdRun() = default;

  // One update of 1 / rate seconds; records the agents that came within the arrival tolerance
  // of their target (the crowd simulation's: a tenth of the clearance).
  void Step();
  // The update alone, arrivals not recorded (what the benchmark times: DetourCrowd's own work).
  void Update();

  double time() const { return step_count_ * step_; }
  int size() const { return static_cast<int>(targets_.size()); }
  glm::dvec2 position(int i) const;
  // Seconds from the start, or -1 while it has not arrived.
  double arrival_time(int i) const { return arrival_times_[static_cast<std::size_t>(i)]; }
  int arrived_count() const { return arrived_; }
  int navmesh_polygons() const { return navmesh_polygons_; }
  // Where its target is on the navmesh (the nearest point of it to the scenario's target).
  glm::dvec2 target(int i) const { return targets_[static_cast<std::size_t>(i)]; }

 private:
  struct NavMeshDeleter {
    void operator()(dtNavMesh* mesh) const;
  };
  struct CrowdDeleter {
    void operator()(dtCrowd* crowd) const;
  };

  std::unique_ptr<dtNavMesh, NavMeshDeleter> navmesh_;
  std::unique_ptr<dtCrowd, CrowdDeleter> crowd_;
  std::vector<glm::dvec2> targets_;
  std::vector<double> arrival_times_;
  double tolerance_ = 0.0;
  double step_ = 1.0 / 60.0;
  long long step_count_ = 0;
  int arrived_ = 0;
  int navmesh_polygons_ = 0;
};

}  // namespace md5stage::bench
