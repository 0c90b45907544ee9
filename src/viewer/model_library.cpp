#include "viewer/model_library.h"

#include <algorithm>
#include <cctype>

#include "core/anim/binding.h"
#include "core/material/material_resolve.h"
#include "viewer/image_decode.h"

namespace md5stage::viewer {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool IsImage(const std::string& extension) {
  return extension == "tga" || extension == "png" || extension == "jpg" || extension == "jpeg" ||
         extension == "bmp";
}

// The image's bytes for a glTF export (PNG and JPEG only: glTF takes no other), shared with the
// model's other parts that matched the same file.
std::shared_ptr<const std::string> KeptForExport(
    const InputFile& image, const std::vector<std::shared_ptr<const std::string>>& kept) {
  const std::string extension = FileExtension(image.name);
  if (extension != "png" && extension != "jpg" && extension != "jpeg") return nullptr;
  for (const auto& bytes : kept) {
    if (bytes && *bytes == image.bytes) return bytes;
  }
  return std::make_shared<const std::string>(image.bytes);
}

}  // namespace

std::string FileExtension(const std::string& name) {
  const size_t dot = name.find_last_of('.');
  const size_t slash = name.find_last_of("/\\");
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return Lower(name.substr(dot + 1));
}

std::string FileStem(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

int LoadedModel::FindAnimation(const std::string& animation_name) const {
  for (size_t i = 0; i < animation_names.size(); ++i) {
    if (animation_names[i] == animation_name) return static_cast<int>(i);
  }
  return -1;
}

int ModelLibrary::FindModel(const std::string& name) const {
  for (size_t i = 0; i < models_.size(); ++i) {
    if (models_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

LoadReport ModelLibrary::LoadFiles(std::vector<InputFile> files) {
  LoadReport report;
  std::vector<const InputFile*> meshes, anims, images;
  for (const InputFile& file : files) {
    const std::string extension = FileExtension(file.name);
    if (extension == "md5mesh") {
      meshes.push_back(&file);
    } else if (extension == "md5anim") {
      anims.push_back(&file);
    } else if (IsImage(extension)) {
      images.push_back(&file);
    } else {
      report.warnings.push_back(file.name + ": ignored (not .md5mesh, .md5anim or an image)");
    }
  }
  for (const InputFile* file : meshes) {
    auto loaded = cache_.LoadModel(file->name, file->bytes);
    if (!loaded.ok()) {
      report.errors.push_back(loaded.error().ToString());
      continue;
    }
    const int index = AddModel(std::move(loaded).value(), *file);
    report.new_models.push_back(index);
    report.new_models_to_show.push_back(index);
    for (const std::string& warning : models_[static_cast<size_t>(index)].warnings) {
      report.warnings.push_back(warning);
    }
  }
  for (const InputFile* file : anims) {
    auto loaded = cache_.LoadAnimation(file->name, file->bytes);
    if (!loaded.ok()) {
      report.errors.push_back(loaded.error().ToString());
      continue;
    }
    if (BindAnimation(std::move(loaded).value(), *file, report.new_models, report)) {
      ++report.animations_bound;
    }
  }
  if (!images.empty()) {
    // New models first; then older models still missing a texture (textures dropped later).
    std::vector<int> targets = report.new_models;
    for (size_t i = 0; i < models_.size(); ++i) {
      if (std::find(targets.begin(), targets.end(), static_cast<int>(i)) != targets.end()) continue;
      const LoadedModel& model = models_[i];
      if (std::find(model.textures.begin(), model.textures.end(), TextureHandle{}) !=
          model.textures.end()) {
        targets.push_back(static_cast<int>(i));
      }
    }
    for (int index : targets) MatchTextures(models_[static_cast<size_t>(index)], images, report);
  }
  return report;
}

int ModelLibrary::AddModel(std::shared_ptr<const anim::Model> model, const InputFile& file) {
  LoadedModel loaded;
  loaded.name = FileStem(file.name);
  // Two different meshes with one base name stay distinguishable.
  for (int suffix = 2; FindModel(loaded.name) >= 0; ++suffix) {
    loaded.name = FileStem(file.name) + "#" + std::to_string(suffix);
  }
  loaded.mesh_file = file.name;
  loaded.local = file.source == "local";
  loaded.mesh_source = loaded.local ? "" : file.source;
  for (const Diagnostic& warning : model->warnings()) loaded.warnings.push_back(warning.ToString());
  const anim::GpuSkinData& gpu = model->gpu();
  if (gpu.vertices_over_four > 0) {
    loaded.warnings.push_back(file.name + ": " + std::to_string(gpu.vertices_over_four) +
                              " vertices have more than 4 weights; the GPU keeps the 4 largest");
  }
  MeshUpload upload;
  upload.joint_count = model->skeleton().joint_count();
  upload.vertices = &gpu.vertices;
  upload.indices = &gpu.indices;
  for (const anim::GpuSubmesh& submesh : gpu.submeshes) {
    upload.parts.push_back({submesh.first_index, submesh.index_count});
  }
  loaded.gpu_mesh = renderer_->CreateMesh(upload);
  loaded.textures.assign(gpu.submeshes.size(), TextureHandle{});
  loaded.texture_files.assign(gpu.submeshes.size(), "");
  loaded.texture_bytes.assign(gpu.submeshes.size(), nullptr);
  if (!gpu.vertices.empty()) {
    loaded.bind_min = loaded.bind_max = gpu.vertices[0].position;
    for (const anim::GpuVertex& v : gpu.vertices) {
      loaded.bind_min = glm::min(loaded.bind_min, v.position);
      loaded.bind_max = glm::max(loaded.bind_max, v.position);
    }
  }
  loaded.cpu_bytes =
      file.bytes.size() + gpu.vertices.size() * sizeof(anim::GpuVertex) + gpu.indices.size() * 4;
  loaded.gpu_bytes = gpu.vertices.size() * sizeof(anim::GpuVertex) + gpu.indices.size() * 12;
  loaded.model = std::move(model);
  models_.push_back(std::move(loaded));
  return static_cast<int>(models_.size()) - 1;
}

bool ModelLibrary::BindAnimation(std::shared_ptr<const anim::Animation> animation,
                                 const InputFile& file, const std::vector<int>& preferred,
                                 LoadReport& report) {
  // Candidates: meshes of this batch first, then the most recently loaded ones.
  std::vector<int> order = preferred;
  for (int i = static_cast<int>(models_.size()) - 1; i >= 0; --i) {
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  }
  if (order.empty()) {
    report.errors.push_back(file.name + ": error: no mesh is loaded to play this animation on");
    return false;
  }
  std::string first_error;
  for (int index : order) {
    LoadedModel& model = models_[static_cast<size_t>(index)];
    std::vector<Diagnostic> warnings;
    const Status fits = anim::CheckAnimationFitsModel(*model.model, *animation, &warnings);
    if (!fits.ok()) {
      if (first_error.empty()) first_error = fits.error().ToString();
      continue;
    }
    for (const Diagnostic& warning : warnings) report.warnings.push_back(warning.ToString());
    for (const Diagnostic& warning : animation->source().warnings) {
      report.warnings.push_back(warning.ToString());
    }
    const std::string animation_name = FileStem(file.name);
    const int existing = model.FindAnimation(animation_name);
    const anim::Bounds3 kept = anim::UnionOfFrameBounds(*animation, anim::RootMotion::kKeep);
    const anim::Bounds3 stripped =
        anim::UnionOfFrameBounds(*animation, anim::RootMotion::kStripHorizontal);
    if (existing >= 0) {
      model.animations[static_cast<size_t>(existing)] = std::move(animation);
      model.bounds_kept[static_cast<size_t>(existing)] = kept;
      model.bounds_stripped[static_cast<size_t>(existing)] = stripped;
    } else {
      model.animations.push_back(std::move(animation));
      model.bounds_kept.push_back(kept);
      model.bounds_stripped.push_back(stripped);
      model.animation_names.push_back(animation_name);
      if (file.source != "local") model.anim_sources.push_back(file.source);
    }
    model.cpu_bytes += file.bytes.size();
    return true;
  }
  report.errors.push_back(first_error);
  return false;
}

void ModelLibrary::MatchTextures(LoadedModel& model, const std::vector<const InputFile*>& images,
                                 LoadReport& report) {
  const anim::GpuSkinData& gpu = model.model->gpu();
  std::vector<std::pair<const InputFile*, TextureHandle>> uploaded;  // one per image
  std::vector<std::string> names;
  for (const InputFile* image : images) names.push_back(image->name);
  const material::ImageIndex index(names);
  for (size_t part = 0; part < gpu.submeshes.size(); ++part) {
    if (model.textures[part].valid()) continue;
    // The core's guess by the shader's base name (models/x/body -> body.tga, body_d.png, ...).
    const material::ImageLookup guess = material::GuessImage(
        index, gpu.submeshes[part].shader, model.name, material::MapKind::kDiffuse);
    const InputFile* match = guess.file >= 0 ? images[static_cast<size_t>(guess.file)] : nullptr;
    if (match == nullptr) continue;
    const auto reused = std::find_if(uploaded.begin(), uploaded.end(),
                                     [&](const auto& entry) { return entry.first == match; });
    if (reused != uploaded.end()) {
      model.textures[part] = reused->second;
      renderer_->SetPartTexture(model.gpu_mesh, static_cast<int>(part), reused->second);
      model.texture_files[part] = match->name;
      model.texture_bytes[part] = KeptForExport(*match, model.texture_bytes);
      continue;
    }
    auto decoded = DecodeImage(match->name, match->bytes);
    if (!decoded.ok()) {
      report.errors.push_back(decoded.error().ToString());
      continue;
    }
    const DecodedImage& image = decoded.value();
    model.textures[part] = renderer_->CreateTexture(image.width, image.height, image.rgba.data());
    renderer_->SetPartTexture(model.gpu_mesh, static_cast<int>(part), model.textures[part]);
    model.texture_files[part] = match->name;
    model.texture_bytes[part] = KeptForExport(*match, model.texture_bytes);
    model.gpu_bytes += image.rgba.size() * 4 / 3;
    uploaded.emplace_back(match, model.textures[part]);
    ++report.textures_bound;
  }
}

void ModelLibrary::RemoveModel(int index) {
  if (index < 0 || index >= static_cast<int>(models_.size())) return;
  LoadedModel& model = models_[static_cast<size_t>(index)];
  renderer_->DestroyMesh(model.gpu_mesh);
  // A texture may serve several parts of one model: each is destroyed once.
  std::vector<TextureHandle> destroyed;
  for (TextureHandle texture : model.textures) {
    if (!texture.valid()) continue;
    if (std::find(destroyed.begin(), destroyed.end(), texture) != destroyed.end()) continue;
    renderer_->DestroyTexture(texture);
    destroyed.push_back(texture);
  }
  models_.erase(models_.begin() + index);
}

}  // namespace md5stage::viewer
