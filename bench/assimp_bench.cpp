// Assimp (Debian's libassimp) importing the same MD5 files from memory, for the side-by-side
// ratio: one file per import, no post-processing, so it reads and converts and nothing more.
#include <assimp/config.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <string>

#include "bench_registry.h"
#include "bench_util.h"

namespace md5stage::bench {
namespace {

bool Import(Assimp::Importer& importer, const BenchFile& file, const char* hint) {
  const aiScene* scene = importer.ReadFileFromMemory(file.bytes.data(), file.bytes.size(), 0, hint);
  benchmark::DoNotOptimize(scene);
  const bool ok = scene != nullptr;
  importer.FreeScene();
  return ok;
}

void RunCorpus(benchmark::State& state, const Corpus& corpus, bool mesh) {
  if (corpus.empty()) {
    state.SkipWithError(("no files for corpus " + corpus.name).c_str());
    return;
  }
  Assimp::Importer importer;
  // Without this an .md5mesh import also looks for an .md5anim of the same name.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, true);
  const char* hint = mesh ? "md5mesh" : "md5anim";
  for (const BenchFile& file : corpus.files) {
    if (!Import(importer, file, hint)) {
      state.SkipWithError(
          ("Assimp failed on " + file.path + ": " + importer.GetErrorString()).c_str());
      return;
    }
  }
  for (auto _ : state) {
    for (const BenchFile& file : corpus.files) Import(importer, file, hint);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(corpus.total_bytes));
  state.counters["files"] = static_cast<double>(corpus.files.size());
}

}  // namespace

void RegisterAssimpBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string corpus = name;
    benchmark::RegisterBenchmark(("assimp_mesh/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, MeshCorpus(corpus), true);
    });
    benchmark::RegisterBenchmark(("assimp_anim/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, AnimCorpus(corpus), false);
    });
  }
}

}  // namespace md5stage::bench
