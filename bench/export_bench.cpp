// glTF export (core/convert, native and wasm): the whole
// GltfExportJob for a loaded model and its animations, warnings included (the 4-weight error
// scan over every frame), as `md5stage export` runs it; parsing is left out. And the way back:
// GltfImportJob on that export plus writing the MD5 text, as `md5stage convert` runs it.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/convert/gltf_export.h"
#include "core/convert/gltf_import.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"

namespace md5stage::bench {
namespace {

struct LoadedCorpus {
  std::shared_ptr<const anim::Model> model;
  std::vector<anim::Animation> animations;
  std::vector<convert::ExportAnimation> exports;
};

// The corpus's first mesh and all its anims, parsed; false (and the state skipped) on failure.
bool LoadCorpus(benchmark::State& state, const std::string& corpus, LoadedCorpus* loaded) {
  const Corpus& meshes = MeshCorpus(corpus);
  const Corpus& anims = AnimCorpus(corpus);
  if (meshes.empty()) {
    state.SkipWithError(("no files for corpus " + corpus).c_str());
    return false;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(meshes.files[0].path, meshes.files[0].bytes);
  if (!mesh.ok()) {
    state.SkipWithError("mesh parse failed");
    return false;
  }
  loaded->model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
  loaded->animations.reserve(anims.files.size());
  for (const BenchFile& file : anims.files) {
    Result<md5::AnimFile> parsed = md5::ParseMd5Anim(file.path, file.bytes);
    if (!parsed.ok()) {
      state.SkipWithError(("anim parse failed: " + file.path).c_str());
      return false;
    }
    loaded->animations.push_back(anim::Animation::FromAnimFile(
        std::make_shared<const md5::AnimFile>(std::move(parsed).value())));
    loaded->exports.push_back({&loaded->animations.back(), md5::FileStemOf(file.path)});
  }
  return true;
}

void ExportCorpus(benchmark::State& state, const std::string& corpus) {
  LoadedCorpus loaded;
  if (!LoadCorpus(state, corpus, &loaded)) return;
  const std::shared_ptr<const anim::Model>& model = loaded.model;
  const std::vector<convert::ExportAnimation>& exports = loaded.exports;
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

void ConvertCorpus(benchmark::State& state, const std::string& corpus) {
  LoadedCorpus loaded;
  if (!LoadCorpus(state, corpus, &loaded)) return;
  convert::GltfFiles files;
  convert::GltfExportJob export_job;
  export_job.model = loaded.model.get();
  export_job.animations = loaded.exports;
  export_job.output = &files;
  if (!export_job.Run().ok()) {
    state.SkipWithError("export failed");
    return;
  }
  convert::GltfImportOutput imported;
  std::vector<Diagnostic> warnings;
  convert::GltfImportJob job;
  job.file_name = corpus + ".glb";
  job.bytes = files.main;
  job.output = &imported;
  job.warnings = &warnings;
  std::size_t md5_bytes = 0;
  for (auto _ : state) {
    warnings.clear();
    if (!job.Run().ok()) {
      state.SkipWithError("import failed");
      return;
    }
    md5_bytes = md5::WriteMd5Mesh(imported.mesh).size();
    for (const convert::ImportedAnimation& a : imported.animations) {
      md5_bytes += md5::WriteMd5Anim(a.file).size();
    }
    benchmark::DoNotOptimize(md5_bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(files.main.size()));
  state.counters["anims"] = static_cast<double>(imported.animations.size());
  state.counters["glb_bytes"] = static_cast<double>(files.main.size());
  state.counters["md5_bytes"] = static_cast<double>(md5_bytes);
}

}  // namespace

void RegisterExportBenchmarks() {
  // The 39-anim model: the import's worst case in the corpus.
  benchmark::RegisterBenchmark("convert_glb/imprimis_bones", [](benchmark::State& s) {
    ConvertCorpus(s, "imprimis_bones");
  })->Unit(benchmark::kMillisecond);
  for (const char* name : kCorpusNames) {
    const std::string corpus = name;
    benchmark::RegisterBenchmark(("export_glb/" + corpus).c_str(), [corpus](benchmark::State& s) {
      ExportCorpus(s, corpus);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace md5stage::bench
