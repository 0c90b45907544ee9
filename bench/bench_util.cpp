#include "bench_util.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "core/md5/md5_parser.h"

namespace md5stage::bench {

std::string SourceDir() { return MD5STAGE_SOURCE_DIR; }
std::string SharedDir() { return MD5STAGE_SHARED_DIR; }

bool IsDirectory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

Corpus LoadCorpus(const std::string& name, const std::string& folder,
                  const std::string& extension) {
  Corpus corpus;
  corpus.name = name;
  // POSIX directory listing rather than <filesystem>: Emscripten's node file system supports it
  // without extra link flags.
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return corpus;
  std::vector<std::string> names;
  while (const dirent* entry = readdir(dir)) {
    const std::string file = entry->d_name;
    if (file.size() > extension.size() &&
        file.compare(file.size() - extension.size(), extension.size(), extension) == 0) {
      names.push_back(file);
    }
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& file : names) {
    BenchFile entry{folder + "/" + file, ReadWholeFile(folder + "/" + file)};
    if (entry.bytes.empty()) continue;
    corpus.total_bytes += entry.bytes.size();
    corpus.files.push_back(std::move(entry));
  }
  return corpus;
}

namespace {

struct CorpusFolders {
  std::string mesh_folder;
  std::string anim_folder;
};

CorpusFolders FoldersOf(const std::string& name) {
  if (name == "walker") {
    const std::string folder = SourceDir() + "/assets/models/walker";
    return {folder, folder};
  }
  if (name == "imprimis_bones") {
    const std::string folder = SharedDir() + "/md5/imprimis_bones";
    return {folder, folder + "/animation"};
  }
  return {};
}

const Corpus& CachedCorpus(const std::string& name, bool mesh) {
  static std::map<std::string, Corpus> cache;
  const std::string key = (mesh ? "mesh/" : "anim/") + name;
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  const CorpusFolders folders = FoldersOf(name);
  Corpus corpus = mesh ? LoadCorpus(name, folders.mesh_folder, ".md5mesh")
                       : LoadCorpus(name, folders.anim_folder, ".md5anim");
  return cache.emplace(key, std::move(corpus)).first->second;
}

std::shared_ptr<const anim::Animation> LoadAnimation(const std::string& path) {
  const std::string bytes = ReadWholeFile(path);
  Result<md5::AnimFile> file = md5::ParseMd5Anim(path, bytes);
  if (!file.ok()) return nullptr;
  return std::make_shared<const anim::Animation>(anim::Animation::FromAnimFile(
      std::make_shared<const md5::AnimFile>(std::move(file).value())));
}

Character LoadCharacter(const std::string& name) {
  Character character;
  character.name = name;
  std::string mesh_path;
  std::vector<std::string> anim_paths;
  if (name == "walker") {
    const std::string folder = SourceDir() + "/assets/models/walker/";
    mesh_path = folder + "walker.md5mesh";
    anim_paths = {folder + "walk.md5anim", folder + "run.md5anim"};
  } else if (name == "imprimis_bones") {
    const std::string folder = SharedDir() + "/md5/imprimis_bones/";
    mesh_path = folder + "model.md5mesh";
    anim_paths = {folder + "animation/run_N.md5anim", folder + "animation/run_E.md5anim"};
  }
  const std::string bytes = ReadWholeFile(mesh_path);
  if (bytes.empty()) return character;
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(mesh_path, bytes);
  if (!mesh.ok()) return character;
  character.model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
  for (const std::string& path : anim_paths) {
    std::shared_ptr<const anim::Animation> animation = LoadAnimation(path);
    if (animation == nullptr || animation->joint_count() != character.joint_count()) continue;
    character.animations.push_back(std::move(animation));
  }
  return character;
}

}  // namespace

const Corpus& MeshCorpus(const std::string& name) { return CachedCorpus(name, true); }
const Corpus& AnimCorpus(const std::string& name) { return CachedCorpus(name, false); }

const Character& GetCharacter(const std::string& name) {
  static std::map<std::string, Character> cache;
  auto found = cache.find(name);
  if (found != cache.end()) return found->second;
  return cache.emplace(name, LoadCharacter(name)).first->second;
}

}  // namespace md5stage::bench
