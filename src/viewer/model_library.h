// The models the viewer has loaded: each mesh parsed once (through the core's resource cache),
// its animations bound by fit, its textures matched by shader name, and its GPU data uploaded
// once for every instance to share. Loading a batch is all-or-nothing per file: a bad file is
// reported and leaves everything already loaded as it was.
#pragma once

#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/animation_bounds.h"
#include "core/anim/model.h"
#include "core/anim/resource_cache.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {

struct InputFile {
  std::string name;  // base name or relative path, as dropped or fetched
  std::string bytes;
  std::string source;  // "local" for dropped files, else the asset path or https URL it came from
};

struct LoadedModel {
  std::string name;  // the mesh file's base name without extension
  std::string mesh_file;
  std::string mesh_source;  // "" when local
  std::vector<std::string> anim_sources;
  bool local = false;
  std::shared_ptr<const anim::Model> model;
  std::vector<std::shared_ptr<const anim::Animation>> animations;
  std::vector<std::string> animation_names;  // base names: walk.md5anim -> "walk"
  std::vector<std::string> texture_files;    // per mesh part, "" when none was found
  // Per animation: where it can put the model (root motion kept / stripped), for culling.
  std::vector<anim::Bounds3> bounds_kept;
  std::vector<anim::Bounds3> bounds_stripped;
  std::vector<std::string> warnings;
  MeshHandle gpu_mesh;
  std::vector<TextureHandle> textures;  // per mesh part; none when no image matched
  // Per mesh part, the matched image file's bytes when glTF can embed them (PNG, JPEG), for
  // "Download glTF"; null otherwise. Parts matching one file share one copy.
  std::vector<std::shared_ptr<const std::string>> texture_bytes;
  glm::vec3 bind_min{0.0f};
  glm::vec3 bind_max{0.0f};
  std::size_t cpu_bytes = 0;
  std::size_t gpu_bytes = 0;

  int FindAnimation(const std::string& animation_name) const;
};

struct LoadReport {
  std::vector<std::string> errors;  // "file:line:col: error: ..." per rejected file
  std::vector<std::string> warnings;
  std::vector<int> new_models;          // indices into ModelLibrary::models()
  std::vector<int> new_models_to_show;  // the new ones that get a character (the app decides)
  int animations_bound = 0;
  int textures_bound = 0;
};

class ModelLibrary {
 public:
  explicit ModelLibrary(RenderBackend* renderer) : renderer_(renderer) {}

  LoadReport LoadFiles(std::vector<InputFile> files);
  void RemoveModel(int index);  // the caller removes instances first
  const std::vector<LoadedModel>& models() const { return models_; }
  int FindModel(const std::string& name) const;
  anim::ResourceCache& cache() { return cache_; }

 private:
  int AddModel(std::shared_ptr<const anim::Model> model, const InputFile& file);
  bool BindAnimation(std::shared_ptr<const anim::Animation> animation, const InputFile& file,
                     const std::vector<int>& preferred, LoadReport& report);
  void MatchTextures(LoadedModel& model, const std::vector<const InputFile*>& images,
                     LoadReport& report);

  RenderBackend* renderer_;
  anim::ResourceCache cache_;
  std::vector<LoadedModel> models_;
};

// Lower-case extension without the dot ("md5mesh"), and base name without folders or extension.
std::string FileExtension(const std::string& name);
std::string FileStem(const std::string& name);

}  // namespace md5stage::viewer
