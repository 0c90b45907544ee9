// The md5stage benchmark program (native and wasm): registers every benchmark, records where it
// ran, then hands over to Google Benchmark's command line (--benchmark_out=FILE etc.).
#include <benchmark/benchmark.h>

#include "bench_registry.h"

int main(int argc, char** argv) {
  using namespace md5stage::bench;
#ifdef __EMSCRIPTEN__
  benchmark::AddCustomContext("md5stage_platform", "wasm");
#else
  benchmark::AddCustomContext("md5stage_platform", "native");
#endif
#ifdef __wasm_simd128__
  benchmark::AddCustomContext("md5stage_simd128", "on");
#endif
  RegisterParseBenchmarks();
  RegisterDecimalBenchmarks();
#ifdef MD5STAGE_BENCH_ASSIMP
  RegisterAssimpBenchmarks();
#endif
#ifdef MD5STAGE_BENCH_EXPORT
  RegisterExportBenchmarks();
#endif
  RegisterAnimBenchmarks();
  RegisterCrowdBenchmarks();
  RegisterCrowdStepBenchmarks();
#ifdef MD5STAGE_BENCH_DETOUR
  RegisterDetourCrowdBenchmarks();
#endif
  RegisterPathBenchmarks();
  RegisterPlannerBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
