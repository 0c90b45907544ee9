// Planning among obstacles (ObstaclePlanJob, default budget): a 1,000 x 1,000 field with 40 seeded
// obstacles and turning radius 40, 100 fixed queries; per-query times (median, 95th, max) and
// expansions as counters; 100 characters replanning a short hop in one frame; and the quality
// test's 164 generated cases (planner_cases.h). Fixed-seed numbers of our own, so native and wasm
// answer exactly the same queries.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "bench_registry.h"
#include "core/path/obstacle_planner.h"
#include "core/path/obstacles.h"
#include "planner_cases.h"
#include "planner_field.h"

namespace md5stage::bench {
namespace {

using namespace planner_field;

struct Planner {
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
};

void Run(const ObstacleSet& field, const Query& q, Planner* planner, bool other_side) {
  ObstaclePlanJob job;
  job.start = q.start;
  job.goal = q.goal;
  job.has_goal_heading = q.has_heading;
  job.goal_heading = q.heading;
  job.turning_radius = kRadius;
  job.clearance = kClearance;
  job.obstacles = &field;
  job.scratch = &planner->scratch;
  job.path = &planner->path;
  job.result = &planner->result;
  job.limits.other_side = other_side;
  const Status status = job.Run();
  benchmark::DoNotOptimize(status.ok());
}

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const std::size_t i = static_cast<std::size_t>(p * (values.size() - 1) + 0.5);
  return values[std::min(i, values.size() - 1)];
}

// One iteration plans all 100 queries, each timed; the counters are over the queries, each at its
// best time over the iterations (the machine is shared: other load only slows a query down).
void PlanField(benchmark::State& state, double hop, bool other_side = true) {
  const ObstacleSet field = MakeField(2026);
  if (field.size() != kObstacleCount) {
    state.SkipWithError("field build failed");
    return;
  }
  const std::vector<Query> queries = MakeQueries(field, hop, hop > 0.0 ? 18 : 17);
  Planner planner;
  for (const Query& q : queries) Run(field, q, &planner, other_side);  // grow the scratch once
  std::vector<double> best_ms(queries.size(), 1e300);
  double expansions = 0.0, found = 0.0, direct = 0.0;
  for (auto _ : state) {
    expansions = found = direct = 0.0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const auto started = std::chrono::steady_clock::now();
      Run(field, queries[i], &planner, other_side);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      best_ms[i] = std::min(best_ms[i], ms);
      expansions += planner.result.expansions;
      found += planner.result.found() ? 1.0 : 0.0;
      direct += planner.result.direct ? 1.0 : 0.0;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kQueryCount);
  state.counters["median_ms"] = Percentile(best_ms, 0.5);
  state.counters["p95_ms"] = Percentile(best_ms, 0.95);
  state.counters["max_ms"] = Percentile(best_ms, 1.0);
  state.counters["expansions"] = expansions / kQueryCount;
  state.counters["found"] = found;
  state.counters["direct"] = direct;
}

// The 164 generated cases (mazes, circle, polygon and mixed fields, radius 10-80, clearance 0-20),
// each its own field: counters as PlanField's.
void PlanCases(benchmark::State& state) {
  std::vector<planner_cases::Case> cases;
  for (int i = 0; i < planner_cases::kCaseCount; ++i) cases.push_back(planner_cases::MakeCase(i));
  Planner planner;
  auto run = [&](const planner_cases::Case& c) {
    ObstaclePlanJob job =
        planner_cases::PlanJobFor(c, &planner.scratch, &planner.path, &planner.result);
    const Status status = job.Run();
    benchmark::DoNotOptimize(status.ok());
  };
  for (const planner_cases::Case& c : cases) run(c);  // grow the scratch once
  std::vector<double> best_ms(cases.size(), 1e300);
  double expansions = 0.0, found = 0.0;
  for (auto _ : state) {
    expansions = found = 0.0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto started = std::chrono::steady_clock::now();
      run(cases[i]);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      best_ms[i] = std::min(best_ms[i], ms);
      expansions += planner.result.expansions;
      found += planner.result.found() ? 1.0 : 0.0;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * planner_cases::kCaseCount);
  state.counters["median_ms"] = Percentile(best_ms, 0.5);
  state.counters["p95_ms"] = Percentile(best_ms, 0.95);
  state.counters["max_ms"] = Percentile(best_ms, 1.0);
  state.counters["expansions"] = expansions / planner_cases::kCaseCount;
  state.counters["found"] = found;
}

}  // namespace

void RegisterPlannerBenchmarks() {
  // The quality test's generated cases: time per query (counters: its distribution).
  benchmark::RegisterBenchmark("plan/cases_164", PlanCases)->Unit(benchmark::kMillisecond);
  // Start and goal anywhere in the field: time per query (counters: its distribution).
  benchmark::RegisterBenchmark("plan/field_1000_40", [](benchmark::State& s) {
    PlanField(s, 0.0);
  })->Unit(benchmark::kMillisecond);
  // The same without the other-side pass (the planner before issue 44): what the pass costs.
  benchmark::RegisterBenchmark("plan/field_1000_40_no_other_side", [](benchmark::State& s) {
    PlanField(s, 0.0, false);
  })->Unit(benchmark::kMillisecond);
  // 100 characters each given a new target up to 250 away in one frame: time per frame.
  benchmark::RegisterBenchmark("plan_frame_100/field_1000_40", [](benchmark::State& s) {
    PlanField(s, 250.0);
  })->Unit(benchmark::kMillisecond);
}

}  // namespace md5stage::bench
