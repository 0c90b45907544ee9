// glTF export (core/convert, native and wasm): the whole
// GltfExportJob for a loaded model and its animations, warnings included (the 4-weight error
// scan over every frame), as `md5stage export` runs it; parsing is left out.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/convert/gltf_export.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_parser.h"

namespace md5stage::bench {
namespace {

void ExportCorpus(benchmark::State& state, const std::string& corpus) {
  const Corpus& meshes = MeshCorpus(corpus);
  const Corpus& anims = AnimCorpus(corpus);
  if (meshes.empty()) {
    state.SkipWithError(("no files for corpus " + corpus).c_str());
    return;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(meshes.files[0].path, meshes.files[0].bytes);
  if (!mesh.ok()) {
    state.SkipWithError("mesh parse failed");
    return;
  }
  auto model = anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
  std::vector<anim::Animation> animations;
  std::vector<convert::ExportAnimation> exports;
  animations.reserve(anims.files.size());
  for (const BenchFile& file : anims.files) {
    Result<md5::AnimFile> parsed = md5::ParseMd5Anim(file.path, file.bytes);
    if (!parsed.ok()) {
      state.SkipWithError(("anim parse failed: " + file.path).c_str());
      return;
    }
    animations.push_back(anim::Animation::FromAnimFile(
        std::make_shared<const md5::AnimFile>(std::move(parsed).value())));
    exports.push_back({&animations.back(), md5::FileStemOf(file.path)});
  }
  convert::GltfFiles files;
  std::vector<Diagnostic> warnings;
  convert::GltfExportJob job;
  job.model = model.get();
  job.animations = exports;
  job.output = &files;
  job.warnings = &warnings;
  if (!job.Run().ok()) {
    state.SkipWithError("export failed");
    return;
  }
  for (auto _ : state) {
    warnings.clear();
    job.Run();
    benchmark::DoNotOptimize(files.main.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(files.main.size()));
  state.counters["anims"] = static_cast<double>(exports.size());
  state.counters["glb_bytes"] = static_cast<double>(files.main.size());
}

}  // namespace

void RegisterExportBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string corpus = name;
    benchmark::RegisterBenchmark(("export_glb/" + corpus).c_str(), [corpus](benchmark::State& s) {
      ExportCorpus(s, corpus);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace md5stage::bench
