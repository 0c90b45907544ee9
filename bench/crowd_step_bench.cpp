// Characters giving way (src/core/crowd): one fixed step of 100, 1,000 and 5,000 walkers in a
// field, each heading for a point a few hundred units off through the others. The step job alone
// (what issue 45 bounds: 1,000 characters at most 1 ms natively) and the whole simulation step
// (followers' arc-and-line steering, then the job).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "core/crowd/crowd_simulation.h"
#include "crowd_scenarios.h"

namespace md5stage::bench {
namespace {

// The field's walkers (crowd_scenarios.h) after `warm_up` steps, when they have met their
// neighbours.
CrowdSimulation FieldSimulation(int count, int warm_up) {
  const CrowdScenario field = FieldScenario(count);
  CrowdSimulation sim = CrowdSimulation::Build(field.characters, ObstacleSet{}).value();
  for (int s = 0; s < warm_up; ++s) sim.Step();
  return sim;
}

void CrowdStepJobBench(benchmark::State& state, int count) {
  const CrowdSimulation sim = FieldSimulation(count, 120);
  std::vector<CrowdAgent> agents;
  for (int i = 0; i < count; ++i) agents.push_back(sim.agent(i));
  std::vector<CrowdMotion> motions(agents.size());
  CrowdScratch scratch;
  scratch.Reserve(count);
  CrowdStepJob job;
  job.agents = agents.data();
  job.count = count;
  job.scratch = &scratch;
  job.motions = motions.data();
  if (!job.Run().ok()) {
    state.SkipWithError("crowd step failed");
    return;
  }
  int moving = 0;
  for (const CrowdMotion& m : motions) moving += m.speed > 0.0 ? 1 : 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(job.Run());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * count);
  state.counters["characters"] = count;
  state.counters["moving"] = moving;
}

void CrowdSimulationStepBench(benchmark::State& state, int count) {
  CrowdSimulation sim = FieldSimulation(count, 120);
  for (auto _ : state) {
    benchmark::DoNotOptimize(sim.Step());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * count);
  state.counters["characters"] = count;
}

}  // namespace

void RegisterCrowdStepBenchmarks() {
  for (int count : {100, 1000, 5000}) {
    benchmark::RegisterBenchmark(("crowd_step_job/" + std::to_string(count)).c_str(),
                                 [count](benchmark::State& s) { CrowdStepJobBench(s, count); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("crowd_simulation_step/" + std::to_string(count)).c_str(),
        [count](benchmark::State& s) { CrowdSimulationStepBench(s, count); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(120);  // steps 120 to 240: the walkers are still on their way
  }
}

}  // namespace md5stage::bench
