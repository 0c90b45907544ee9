// glTF export (core/convert, native and wasm): the whole
// GltfExportJob for a loaded model and its animations, warnings included (the 4-weight error
// scan over every frame), as `md5stage export` runs it; parsing is left out. And the way back:
// GltfImportJob on that export plus writing the MD5 text, as `md5stage convert` runs it. And the
// maps an export embeds (BuildExportMaps): the walker's as PNGs and as a Doom 3 mod's RLE TGAs.
#include <benchmark/benchmark.h>
#include <stb/stb_image_write.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/convert/gltf_export.h"
#include "core/convert/gltf_export_maps.h"
#include "core/convert/gltf_import.h"
#include "core/material/image_decode.h"
#include "core/material/material_parser.h"
#include "core/material/material_resolve.h"
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

// The walker's diffuse, normal and specular maps resolved from a decl and made into glTF images:
// as PNGs (diffuse and specular embedded as they are, the normal map decoded, its green inverted
// and encoded) or as RLE TGAs (all three decoded and encoded).
void ExportWalkerMaps(benchmark::State& state, bool tga) {
  const std::string folder = SourceDir() + "/assets/models/walker/";
  std::vector<std::pair<std::string, std::string>> files;
  std::string decl = "models/walker/walker\n{\n";
  const char* const kMaps[][2] = {
      {"walker", "diffusemap"}, {"walker_local", "bumpmap"}, {"walker_s", "specularmap"}};
  for (const auto& map : kMaps) {
    std::string bytes = ReadWholeFile(folder + map[0] + ".png");
    std::string name = std::string("models/walker/") + map[0] + (tga ? ".tga" : ".png");
    if (tga) {
      auto image = material::DecodeImage(name, bytes);
      if (!image.ok()) {
        state.SkipWithError("walker map does not decode");
        return;
      }
      bytes.clear();
      const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<std::size_t>(size));
      };
      stbi_write_tga_to_func(append, &bytes, image.value().width, image.value().height, 4,
                             image.value().rgba.data());
    }
    decl += std::string("\t") + map[1] + " " + name + "\n";
    files.emplace_back(std::move(name), std::move(bytes));
  }
  decl += "}\n";
  auto parsed = material::ParseDeclFile("walker.mtr", decl);
  if (!parsed.ok()) {
    state.SkipWithError("decl does not parse");
    return;
  }
  const material::MaterialTable table({&parsed.value()});
  std::vector<std::string> paths;
  std::vector<convert::SourceImageFile> sources;
  for (const auto& file : files) paths.push_back(file.first);
  for (const auto& file : files) sources.push_back({file.first, &file.second});
  const material::ImageIndex images(paths);
  material::ResolveInput input;
  input.shaders = {"models/walker/walker"};
  input.model_name = "walker";
  input.materials = &table;
  input.images = &images;
  auto resolved = material::ResolveMaterials(input);
  if (!resolved.ok()) {
    state.SkipWithError("resolve failed");
    return;
  }
  convert::ExportMapsInput maps;
  maps.resolution = &resolved.value();
  maps.files = sources;
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto built = convert::BuildExportMaps(maps);
    if (!built.ok() || built.value().images.size() != 3) {
      state.SkipWithError("maps not built");
      return;
    }
    bytes = 0;
    for (const convert::ExportImage& image : built.value().images) bytes += image.bytes->size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["png_bytes"] = static_cast<double>(bytes);
}

}  // namespace

void RegisterExportBenchmarks() {
  benchmark::RegisterBenchmark("export_maps/walker_png", [](benchmark::State& s) {
    ExportWalkerMaps(s, false);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("export_maps/walker_tga", [](benchmark::State& s) {
    ExportWalkerMaps(s, true);
  })->Unit(benchmark::kMillisecond);
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
