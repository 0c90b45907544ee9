// Interim normal and specular maps for the shading, until the model library resolves .mtr
// materials (issue 17's materials part replaces this): a mesh part's maps guessed by its
// shader's base name with the core's suffix rule (x_local / x_n / x_normal, x_s / x_spec), from
// the images of each loaded batch, as the diffuse image is.
#include <algorithm>

#include "core/material/material_resolve.h"
#include "viewer/image_decode.h"
#include "viewer/viewer.h"

namespace md5stage::viewer {

bool IsImageFileName(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* ext : {".png", ".tga", ".jpg", ".jpeg"}) {
    const std::string e(ext);
    if (lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}

void Viewer::BindGuessedMaps(const std::vector<InputFile>& images,
                             std::vector<std::string>* warnings) {
  if (images.empty()) return;
  std::vector<std::string> names;
  for (const InputFile& image : images) names.push_back(image.name);
  const material::ImageIndex index(names);
  std::vector<TextureHandle> uploaded(images.size());  // one texture per image of the batch
  for (const LoadedModel& model : library_->models()) {
    const anim::GpuSkinData& gpu = model.model->gpu();
    for (size_t part = 0; part < gpu.submeshes.size(); ++part) {
      auto entry = std::find_if(guessed_maps_.begin(), guessed_maps_.end(), [&](const auto& e) {
        return e.mesh == model.gpu_mesh && e.part == static_cast<int>(part);
      });
      if (entry == guessed_maps_.end()) {
        guessed_maps_.push_back({model.gpu_mesh, static_cast<int>(part), {}, {}});
        entry = guessed_maps_.end() - 1;
      }
      bool changed = false;
      for (material::MapKind kind : {material::MapKind::kNormal, material::MapKind::kSpecular}) {
        TextureHandle& slot = kind == material::MapKind::kNormal ? entry->normal : entry->specular;
        if (slot.valid()) continue;
        const material::ImageLookup guess =
            material::GuessImage(index, gpu.submeshes[part].shader, model.name, kind);
        if (guess.file < 0) continue;
        const size_t file = static_cast<size_t>(guess.file);
        if (!uploaded[file].valid()) {
          auto decoded = DecodeImage(images[file].name, images[file].bytes);
          if (!decoded.ok()) {
            warnings->push_back(decoded.error().ToString());
            continue;
          }
          const DecodedImage& image = decoded.value();
          uploaded[file] = backend_->CreateTexture(image.width, image.height, image.rgba.data());
          owned_map_textures_.push_back(uploaded[file]);
        }
        slot = uploaded[file];
        changed = true;
      }
      if (changed) {
        backend_->SetPartMaps(model.gpu_mesh, static_cast<int>(part), entry->normal,
                              entry->specular);
      }
    }
  }
}

void Viewer::ReleaseGuessedMaps(MeshHandle mesh) {
  std::vector<TextureHandle> released;
  for (const GuessedMaps& e : guessed_maps_) {
    if (e.mesh != mesh) continue;
    for (TextureHandle texture : {e.normal, e.specular}) {
      if (texture.valid()) released.push_back(texture);
    }
  }
  guessed_maps_.erase(std::remove_if(guessed_maps_.begin(), guessed_maps_.end(),
                                     [&](const GuessedMaps& e) { return e.mesh == mesh; }),
                      guessed_maps_.end());
  // A texture still used by another mesh's part stays.
  for (TextureHandle texture : released) {
    const bool in_use = std::any_of(guessed_maps_.begin(), guessed_maps_.end(), [&](const auto& e) {
      return e.normal == texture || e.specular == texture;
    });
    const auto owned = std::find(owned_map_textures_.begin(), owned_map_textures_.end(), texture);
    if (in_use || owned == owned_map_textures_.end()) continue;
    backend_->DestroyTexture(texture);
    owned_map_textures_.erase(owned);
  }
}

}  // namespace md5stage::viewer
