// The crowd step side by side with DetourCrowd (issue 45; native only): on each scenario (the
// field of 100, 1,000 and 5,000 walkers, the `swap` and `crossing` demos), a step of the crowd
// simulation (followers' arc-and-line steering plus the giving-way job) against an update of
// DetourCrowd (bench/detour_crowd.h), both from the state after 2 s for 2 s of steps at 60 Hz:
// CPU time per character. Each benchmark also reports its side's mean arrival time over a run from
// the start until every character arrives or the cap, counters bench/report.py turns into the
// ratios ours / DetourCrowd.
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "crowd_scenarios.h"
#include "detour_crowd.h"

namespace md5stage::bench {
namespace {

constexpr int kWarmUpSteps = 120;  // 2 s at 60 Hz: the walkers have met their neighbours
constexpr int kTimedSteps = 120;

// Where and when the characters arrived in a run from the start, capped at three times the
// slowest one's straight-line time alone plus 5 s, and how close two came.
struct ArrivalSummary {
  int characters = 0;
  int arrived = 0;
  double mean = 0.0;         // over those that arrived, seconds
  double mean_capped = 0.0;  // over all, one that never arrived counted at the cap (a bound)
  double latest = 0.0;       // seconds
  double cap = 0.0;          // seconds simulated at most
  // The least distance between two characters after any step, over the sum of their
  // clearances (below 1: they overlapped), and the steps after which some pair overlapped.
  double least_separation = 1e300;
  int overlapping_steps = 0;
};

// The least distance between two of the characters over twice their clearance (the scenarios'
// characters share one), through a grid of cells that wide.
class SeparationCheck {
 public:
  explicit SeparationCheck(double clearance) : cell_(2.0 * clearance) {}

  template <typename Run>
  double Least(const Run& run) {
    for (auto& cell : cells_) cell.second.clear();
    positions_.resize(static_cast<std::size_t>(run.size()));
    for (int i = 0; i < run.size(); ++i) {
      positions_[static_cast<std::size_t>(i)] = run.position(i);
      cells_[Key(positions_[static_cast<std::size_t>(i)], 0, 0)].push_back(i);
    }
    double least = 1e300;
    for (int i = 0; i < run.size(); ++i) {
      const glm::dvec2 p = positions_[static_cast<std::size_t>(i)];
      for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
          auto found = cells_.find(Key(p, dx, dy));
          if (found == cells_.end()) continue;
          for (int j : found->second) {
            if (j > i) {
              least = std::min(least, glm::distance(p, positions_[static_cast<std::size_t>(j)]));
            }
          }
        }
      }
    }
    return least / cell_;
  }

 private:
  std::int64_t Key(glm::dvec2 p, int dx, int dy) const {
    const auto x = static_cast<std::int64_t>(std::floor(p.x / cell_)) + dx;
    const auto y = static_cast<std::int64_t>(std::floor(p.y / cell_)) + dy;
    return x * 4294967296LL + (y & 0xffffffffLL);
  }

  double cell_;
  std::vector<glm::dvec2> positions_;
  std::unordered_map<std::int64_t, std::vector<int>> cells_;
};

template <typename Run>
ArrivalSummary RunToArrival(Run& run, double clearance, double cap) {
  ArrivalSummary summary;
  SeparationCheck separation(clearance);
  const int steps = static_cast<int>(cap * 60.0);
  for (int s = 0; s < steps; ++s) {
    bool all = true;
    for (int i = 0; i < run.size() && all; ++i) all = run.arrival_time(i) >= 0.0;
    if (all) break;
    run.Step();
    const double least = separation.Least(run);
    summary.least_separation = std::min(summary.least_separation, least);
    if (least < 1.0 - 1e-9) ++summary.overlapping_steps;
  }
  summary.characters = run.size();
  summary.cap = cap;
  double total = 0.0;
  for (int i = 0; i < run.size(); ++i) {
    const double t = run.arrival_time(i);
    if (t < 0.0) continue;
    ++summary.arrived;
    total += t;
    summary.latest = std::max(summary.latest, t);
  }
  summary.mean = summary.arrived > 0 ? total / summary.arrived : 0.0;
  summary.mean_capped =
      run.size() > 0 ? (total + (run.size() - summary.arrived) * cap) / run.size() : 0.0;
  return summary;
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The crowd simulation's Step() returns a Status; DetourCrowd's update nothing.
struct OursRun {
  CrowdSimulation sim;
  void Step() { (void)sim.Step(); }
  int size() const { return sim.size(); }
  double arrival_time(int i) const { return sim.arrival_time(i); }
  glm::dvec2 position(int i) const { return sim.agent(i).pose.position; }
};

Result<CrowdScenario> ScenarioNamed(const std::string& name) {
  if (name == "swap" || name == "crossing") {
    return SceneScenario(name, SourceDir() + "/assets/scenes/" + name + ".json");
  }
  return FieldScenario(std::stoi(name.substr(name.find('_') + 1)));
}

// Arrivals are computed once per scenario and side (the runs are deterministic), not per
// repetition.
const ArrivalSummary& OursArrival(const CrowdScenario& scenario) {
  static std::map<std::string, ArrivalSummary> done;
  auto found = done.find(scenario.name);
  if (found != done.end()) return found->second;
  OursRun run{CrowdSimulation::Build(scenario.characters, scenario.obstacles).value()};
  return done[scenario.name] = RunToArrival(run, scenario.characters[0].clearance,
                                            3.0 * LongestStraightTime(scenario) + 5.0);
}

const ArrivalSummary& DetourArrival(const CrowdScenario& scenario) {
  static std::map<std::string, ArrivalSummary> done;
  auto found = done.find(scenario.name);
  if (found != done.end()) return found->second;
  DetourCrowdRun run = DetourCrowdRun::Build(scenario).value();
  return done[scenario.name] = RunToArrival(run, scenario.characters[0].clearance,
                                            3.0 * LongestStraightTime(scenario) + 5.0);
}

void ReportArrival(benchmark::State& state, const ArrivalSummary& arrival) {
  state.counters["characters"] = arrival.characters;
  state.counters["arrived"] = arrival.arrived;
  state.counters["mean_arrival_s"] = arrival.mean;
  state.counters["mean_arrival_capped_s"] = arrival.mean_capped;
  state.counters["latest_arrival_s"] = arrival.latest;
  state.counters["cap_s"] = arrival.cap;
  state.counters["least_separation"] = arrival.least_separation;
  state.counters["overlapping_steps"] = arrival.overlapping_steps;
}

void OursBench(benchmark::State& state, const std::string& name) {
  Result<CrowdScenario> scenario = ScenarioNamed(name);
  if (!scenario.ok()) {
    state.SkipWithError(scenario.error().ToString().c_str());
    return;
  }
  Result<CrowdSimulation> built =
      CrowdSimulation::Build(scenario.value().characters, scenario.value().obstacles);
  if (!built.ok()) {
    state.SkipWithError(built.error().ToString().c_str());
    return;
  }
  CrowdSimulation sim = std::move(built.value());
  for (int s = 0; s < kWarmUpSteps; ++s) sim.Step();
  const int replans_before = sim.replans();
  // Keeping to the plans round the obstacles, re-plans included, is the planner's own budget
  // (CrowdSimulation::PlanDue, issue 45: "not part of a step's cost"): run before each timed step
  // with the timer paused, its CPU time reported apart.
  double plan_seconds = 0.0;
  for (auto _ : state) {
    state.PauseTiming();
    const double plan_start = ProcessCpuSeconds();
    sim.PlanDue();
    plan_seconds += ProcessCpuSeconds() - plan_start;
    state.ResumeTiming();
    benchmark::DoNotOptimize(sim.Step());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * sim.size());
  // Re-plans made before the timed steps (outside their time), and what keeping to the plans
  // cost a character a step.
  state.counters["replans"] = sim.replans() - replans_before;
  state.counters["plan_ns_per_character"] =
      state.iterations() > 0 ? 1e9 * plan_seconds / (state.iterations() * sim.size()) : 0.0;
  ReportArrival(state, OursArrival(scenario.value()));
}

void DetourBench(benchmark::State& state, const std::string& name) {
  Result<CrowdScenario> scenario = ScenarioNamed(name);
  if (!scenario.ok()) {
    state.SkipWithError(scenario.error().ToString().c_str());
    return;
  }
  Result<DetourCrowdRun> built = DetourCrowdRun::Build(scenario.value());
  if (!built.ok()) {
    state.SkipWithError(built.error().ToString().c_str());
    return;
  }
  DetourCrowdRun run = std::move(built.value());
  for (int s = 0; s < kWarmUpSteps; ++s) run.Step();
  for (auto _ : state) {
    run.Update();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * run.size());
  state.counters["navmesh_polygons"] = run.navmesh_polygons();
  ReportArrival(state, DetourArrival(scenario.value()));
}

}  // namespace

void RegisterDetourCrowdBenchmarks() {
  for (const char* name : {"field_100", "field_1000", "field_5000", "swap", "crossing"}) {
    const std::string scenario = name;
    benchmark::RegisterBenchmark(("giveway_md5stage/" + scenario).c_str(),
                                 [scenario](benchmark::State& s) { OursBench(s, scenario); })
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(kTimedSteps);
    benchmark::RegisterBenchmark(("giveway_detourcrowd/" + scenario).c_str(),
                                 [scenario](benchmark::State& s) { DetourBench(s, scenario); })
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(kTimedSteps);
  }
}

}  // namespace md5stage::bench
