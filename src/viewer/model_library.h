// The models the viewer has loaded: each mesh parsed once (through the core's resource cache),
// its animations bound by fit, its parts' diffuse, normal and specular images resolved through
// the dropped material decls and skins (core/material), and its GPU data uploaded once for
// every instance to share. Loading a batch is all-or-nothing per file: a bad file is
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
#include "core/convert/gltf_export_maps.h"
#include "core/material/material.h"
#include "core/material/material_resolve.h"
#include "viewer/handles.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {

struct InputFile {
  std::string name;  // base name or relative path, as dropped or fetched
  std::string bytes;
  std::string source;  // "local" for dropped files, else the asset path or https URL it came from
};

// Where one mesh part's look comes from: the material decl it resolved to ("" for none) and what
// its diffuse, normal and specular maps were made from ("" when it has none: no image, a flat
// normal, no specular).
struct PartMaterial {
  std::string material;
  std::string diffuse_file;
  std::string normal_file;
  std::string specular_file;
};

struct LoadedModel {
  ModelId id;
  std::string name;  // the mesh file's base name without extension
  std::string mesh_file;
  std::string mesh_source;  // "" when local
  std::vector<std::string> anim_sources;
  bool local = false;
  std::shared_ptr<const anim::Model> model;
  std::vector<std::shared_ptr<const anim::Animation>> animations;
  std::vector<std::string> animation_names;  // base names: walk.md5anim -> "walk"
  // Per animation: where it can put the model (root motion kept / stripped), for culling.
  std::vector<anim::Bounds3> bounds_kept;
  std::vector<anim::Bounds3> bounds_stripped;
  std::vector<std::string> warnings;
  MeshHandle gpu_mesh;
  std::vector<PartMaterial> parts;  // one per mesh part
  // The maps each part is drawn with, one per mesh part: this stage's, handed to the renderer
  // with every instance (contiguous, as the renderer reads them).
  std::vector<PartTextures> part_textures;
  std::string skin;                           // the skin shown, "" for the mesh's own shaders
  std::vector<std::string> material_sources;  // decls a scene fetched with it (not local)
  std::vector<std::string> missing_images;    // images its materials name that are not loaded
  // Every texture the model owns, by what made it (program, files and their generations), so a
  // re-resolve keeps the unchanged ones and destroys the rest.
  std::vector<std::pair<std::string, TextureHandle>> owned_textures;
  std::vector<std::string> reported;  // resolve messages already shown (each is shown once)
  std::vector<std::string> material_warnings;  // of the current resolution (the Model panel's)
  // What the current resolution was made from (materials, image files and their generations,
  // warnings): a later drop that leaves it the same leaves the model's textures alone.
  std::string resolution_key;
  glm::vec3 bind_min{0.0f};
  glm::vec3 bind_max{0.0f};
  // Per joint: the radius of the capsule from its parent to it, fitted to the bind-pose skin
  // (core/anim/bone_capsules.h; 0: no capsule): what hides a hotspot.
  std::vector<float> bone_radii;
  std::size_t cpu_bytes = 0;
  std::size_t gpu_bytes = 0;

  int FindAnimation(const std::string& animation_name) const;
};

// The model with that handle among `models`, or null: a scan (a stage holds a few models; the
// per-frame loops call this for every character).
inline const LoadedModel* FindLoadedModel(const std::vector<LoadedModel>& models, ModelId id) {
  for (const LoadedModel& model : models) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

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
  // The cache parses each file once for every library that shares it (the stages of one module);
  // null gives the library a cache of its own. Neither pointer is owned; both outlive it.
  explicit ModelLibrary(RenderBackend* renderer, anim::ResourceCache* shared_cache = nullptr)
      : renderer_(renderer), cache_(shared_cache ? shared_cache : &own_cache_) {}
  // Gives back every mesh and texture it holds (a closed stage releases what it used).
  ~ModelLibrary();
  ModelLibrary(const ModelLibrary&) = delete;
  ModelLibrary& operator=(const ModelLibrary&) = delete;

  // Meshes, anims, images (.tga .png .jpg .bmp) and decls (.mtr .shader .skin). Images and decls
  // are kept: materials or images dropped after a mesh re-resolve every model.
  LoadReport LoadFiles(std::vector<InputFile> files);
  void RemoveModel(int index);  // the caller removes instances first
  // After the GPU context was lost and restored (its objects are gone, the renderer is new): each
  // model's mesh and maps are made again from what the library holds.
  void RecreateGpuObjects();
  // The loaded skins meant for the model (naming it, or naming no model), in load order.
  std::vector<std::string> SkinsFor(int index) const;
  // Shows the model under a skin ("" for none) and re-binds its textures; an unknown skin or
  // model is an error naming the field.
  Status SetSkin(int index, const std::string& skin, LoadReport* report);
  void SetMaterialSources(int index, std::vector<std::string> sources);
  // True when a decl file fetched from this source is loaded.
  bool HasDeclSource(const std::string& source) const;
  const std::vector<LoadedModel>& models() const { return models_; }
  // The model's diffuse, normal and specular maps as glTF embeds them ("Download glTF"),
  // resolved as its textures are, from the decls and images loaded now.
  Result<convert::ExportMaps> ExportMaps(int index) const;
  // The loaded files the model's materials come from ("Download MD5"): each decl file defining a
  // material its parts use, then each image file its maps are made from, each once, in the order
  // the parts name them. Empty for a bad index.
  std::vector<InputFile> MaterialFilesFor(int index) const;
  int FindModel(const std::string& name) const;
  // The model with that handle, or null (removed, or never loaded here); its position, or -1.
  const LoadedModel* Find(ModelId id) const;
  int IndexOf(ModelId id) const;
  anim::ResourceCache& cache() { return *cache_; }
  // How many mesh parts had their textures applied (a resolution that changed them): a drop that
  // changes nothing of a model applies nothing.
  int part_applications() const { return part_applications_; }

 private:
  int AddModel(std::shared_ptr<const anim::Model> model, const InputFile& file);
  static MeshUpload UploadOf(const std::shared_ptr<const anim::Model>& model);
  bool BindAnimation(std::shared_ptr<const anim::Animation> animation, const InputFile& file,
                     const std::vector<int>& preferred, LoadReport& report);
  // The decls and images every model's materials resolve against, gathered once per drop.
  struct ResolveContext {
    explicit ResolveContext(const ModelLibrary& library);
    std::vector<const material::DeclFile*> decls;
    material::MaterialTable table;
    material::ImageIndex images;
  };
  void ResolveTextures(LoadedModel& model, const ResolveContext& context, LoadReport& report);
  std::string ResolutionKey(const material::ResolveOutput& resolved) const;
  // The model's parts resolved against what is loaded now (its skin applied).
  Result<material::ResolveOutput> ResolveNow(const LoadedModel& model,
                                             const ResolveContext& context) const;
  const material::Skin* FindSkin(const std::string& name) const;

  struct StoredImage {
    InputFile file;
    int generation = 0;  // a re-dropped file of the same name counts up: its textures remake
  };

  RenderBackend* renderer_;
  anim::ResourceCache own_cache_;
  anim::ResourceCache* cache_;
  std::vector<LoadedModel> models_;
  std::vector<StoredImage> images_;  // every image dropped or fetched, by name
  std::vector<std::unique_ptr<material::DeclFile>> decls_;  // every decl file, by name
  std::vector<std::string> decl_texts_;                     // as decls_: each one's text
  std::vector<std::string> decl_sources_;                   // where each fetched one came from
  int next_generation_ = 0;
  HandleSerials serials_;  // the models' handles
  int part_applications_ = 0;
};

// Lower-case extension without the dot ("md5mesh"), and base name without folders or extension.
std::string FileExtension(const std::string& name);
std::string FileStem(const std::string& name);

}  // namespace md5stage::viewer
