// The crowd update: 1,000 characters per frame (route follow + sample + skeleton + palette).
#include <benchmark/benchmark.h>

#include <string>

#include "bench_registry.h"
#include "bench_util.h"
#include "crowd.h"

namespace md5stage::bench {
namespace {

void CrowdUpdate(benchmark::State& state, const Character& character, int count) {
  if (!character.ok()) {
    state.SkipWithError(("character not available: " + character.name).c_str());
    return;
  }
  Crowd crowd(character.model, character.animations, count, 16);
  double time = 5.0;
  if (!crowd.Update(time)) {
    state.SkipWithError("crowd update failed");
    return;
  }
  for (auto _ : state) {
    time += 1.0 / 60.0;
    benchmark::DoNotOptimize(crowd.Update(time));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * count);
  state.counters["characters"] = count;
  state.counters["joints"] = crowd.joint_count();
}

}  // namespace

void RegisterCrowdBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string character = name;
    benchmark::RegisterBenchmark(("crowd_1000/" + character).c_str(), [character](
                                                                          benchmark::State& s) {
      CrowdUpdate(s, GetCharacter(character), 1000);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace md5stage::bench
