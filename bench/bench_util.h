// Shared pieces of the benchmark suite: where the test data lives, reading whole files, and the
// file sets (corpora) the parse benchmarks run over.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/model.h"

namespace md5stage::bench {

// The repository and ../shared folders, baked in at compile time (the wasm build reads them
// through node's file system).
std::string SourceDir();
std::string SharedDir();
bool IsDirectory(const std::string& path);

struct BenchFile {
  std::string path;
  std::string bytes;
};

// A named set of files parsed together in one benchmark iteration.
struct Corpus {
  std::string name;  // "walker", "imprimis_bones", ...
  std::vector<BenchFile> files;
  std::size_t total_bytes = 0;
  bool empty() const { return files.empty(); }
};

// Files with `extension` directly inside `folder`, sorted by name; empty when the folder is
// missing or unreadable (the benchmark then reports that it was skipped).
Corpus LoadCorpus(const std::string& name, const std::string& folder, const std::string& extension);

// The whole file, or an empty string.
std::string ReadWholeFile(const std::string& path);

// The parse corpora: the project's walker (assets/) and ../shared's imprimis_bones (a 2 MB mesh
// and 40 animations). Loaded once; a corpus whose folder is missing is empty.
const Corpus& MeshCorpus(const std::string& name);
const Corpus& AnimCorpus(const std::string& name);
inline const char* const kCorpusNames[] = {"walker", "imprimis_bones"};

// A loaded model with two of its animations (a walk and a run, or two run directions).
struct Character {
  std::string name;
  std::shared_ptr<const anim::Model> model;
  std::vector<std::shared_ptr<const anim::Animation>> animations;
  bool ok() const { return model != nullptr && animations.size() == 2; }
  int joint_count() const { return model->skeleton().joint_count(); }
};
const Character& GetCharacter(const std::string& name);

}  // namespace md5stage::bench
