// Parse throughput of the MD5 readers (bytes in memory -> validated MeshFile / AnimFile), and the
// whole load into runtime objects (Model with normals and GPU data, Animation frame arrays).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/md5/md5_parser.h"

namespace md5stage::bench {
namespace {

bool ParseMesh(const BenchFile& file, bool build_runtime) {
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(file.path, file.bytes);
  if (!mesh.ok()) return false;
  if (build_runtime) {
    auto model =
        anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
    benchmark::DoNotOptimize(model.get());
  } else {
    benchmark::DoNotOptimize(mesh.value().meshes.data());
  }
  return true;
}

bool ParseAnim(const BenchFile& file, bool build_runtime) {
  Result<md5::AnimFile> anim = md5::ParseMd5Anim(file.path, file.bytes);
  if (!anim.ok()) return false;
  if (build_runtime) {
    anim::Animation animation = anim::Animation::FromAnimFile(
        std::make_shared<const md5::AnimFile>(std::move(anim).value()));
    benchmark::DoNotOptimize(animation.frame(0));
  } else {
    benchmark::DoNotOptimize(anim.value().frame_components.data());
  }
  return true;
}

void RunCorpus(benchmark::State& state, const Corpus& corpus, bool mesh, bool build_runtime) {
  if (corpus.empty()) {
    state.SkipWithError(("no files for corpus " + corpus.name).c_str());
    return;
  }
  for (const BenchFile& file : corpus.files) {
    if (!(mesh ? ParseMesh(file, build_runtime) : ParseAnim(file, build_runtime))) {
      state.SkipWithError(("parse failed: " + file.path).c_str());
      return;
    }
  }
  for (auto _ : state) {
    for (const BenchFile& file : corpus.files) {
      mesh ? ParseMesh(file, build_runtime) : ParseAnim(file, build_runtime);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(corpus.total_bytes));
  state.counters["files"] = static_cast<double>(corpus.files.size());
}

}  // namespace

void RegisterParseBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string corpus = name;
    benchmark::RegisterBenchmark(("parse_mesh/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, MeshCorpus(corpus), true, false);
    });
    benchmark::RegisterBenchmark(("parse_anim/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, AnimCorpus(corpus), false, false);
    });
    benchmark::RegisterBenchmark(("load_mesh/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, MeshCorpus(corpus), true, true);
    });
    benchmark::RegisterBenchmark(("load_anim/" + corpus).c_str(), [corpus](benchmark::State& s) {
      RunCorpus(s, AnimCorpus(corpus), false, true);
    });
  }
}

}  // namespace md5stage::bench
