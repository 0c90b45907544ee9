// Registration entry points of the benchmark files (benchmarks over data files are registered at
// start-up, one per corpus, so their names say which files they read).
#pragma once

namespace md5stage::bench {

void RegisterParseBenchmarks();
void RegisterDecimalBenchmarks();
void RegisterAnimBenchmarks();
void RegisterCrowdBenchmarks();
void RegisterCrowdStepBenchmarks();
void RegisterPathBenchmarks();
void RegisterPlannerBenchmarks();
#ifdef MD5STAGE_BENCH_ASSIMP
void RegisterAssimpBenchmarks();
#endif
#ifdef MD5STAGE_BENCH_EXPORT
void RegisterExportBenchmarks();
#endif
#ifdef MD5STAGE_BENCH_DETOUR
void RegisterDetourCrowdBenchmarks();  // native only, where librecast-dev is installed
#endif

}  // namespace md5stage::bench
