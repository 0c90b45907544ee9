#include "viewer/model_library.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/anim/binding.h"
#include "core/anim/bone_capsules.h"
#include "core/material/decl_lexer.h"
#include "core/material/image_decode.h"
#include "core/material/image_program.h"
#include "core/material/material_parser.h"
#include "core/material/material_resolve.h"
#include "core/md5/md5_writer.h"
#include "viewer/gltf_bridge.h"

namespace md5stage::viewer {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool IsImage(const std::string& extension) {
  return extension == "tga" || extension == "png" || extension == "jpg" || extension == "jpeg" ||
         extension == "bmp" || extension == "dds";
}

bool IsGltfPart(const std::string& extension) {
  return extension == "glb" || extension == "gltf" || extension == "bin";
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

const LoadedModel* ModelLibrary::Find(ModelId id) const { return FindLoadedModel(models_, id); }

int ModelLibrary::IndexOf(ModelId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < models_.size(); ++i) {
    if (models_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

LoadReport ModelLibrary::LoadFiles(std::vector<InputFile> files) {
  LoadReport report;
  ImportGltfFiles(files, report);
  std::vector<const InputFile*> meshes, anims, images, decls;
  for (const InputFile& file : files) {
    const std::string extension = FileExtension(file.name);
    if (IsGltfPart(extension)) continue;  // read by ImportGltfFiles
    if (extension == "md5mesh") {
      meshes.push_back(&file);
    } else if (extension == "md5anim") {
      anims.push_back(&file);
    } else if (IsImage(extension)) {
      images.push_back(&file);
    } else if (material::IsDeclFileName(file.name)) {
      decls.push_back(&file);
    } else {
      report.warnings.push_back(file.name +
                                ": ignored (not .md5mesh, .md5anim, .md5camera, .glb, .gltf, "
                                ".mtr, .shader, .skin or an image)");
    }
  }
  bool materials_changed = false;
  for (const InputFile* file : decls) {
    auto parsed = material::ParseDeclFile(file->name, file->bytes);
    if (!parsed.ok()) {
      report.errors.push_back(parsed.error().ToString());
      continue;
    }
    for (const Diagnostic& warning : parsed.value().warnings) {
      report.warnings.push_back(warning.ToString());
    }
    auto decl = std::make_unique<material::DeclFile>(std::move(parsed).value());
    const auto same = std::find_if(decls_.begin(), decls_.end(), [&](const auto& existing) {
      return material::EqualsIgnoreCase(existing->file, file->name);
    });
    if (same != decls_.end()) {
      *same = std::move(decl);
      decl_texts_[static_cast<size_t>(same - decls_.begin())] = file->bytes;
    } else {
      decls_.push_back(std::move(decl));
      decl_texts_.push_back(file->bytes);
    }
    if (file->source != "local") decl_sources_.push_back(file->source);
    materials_changed = true;
  }
  for (const InputFile* file : images) {
    // Refused at the door (sides, header, data size; nothing allocated), so a bad file never
    // takes the place of the image a model shows: the scene keeps its textures.
    const Status checked = material::CheckImage(file->name, file->bytes);
    if (!checked.ok()) {
      report.errors.push_back(checked.error().ToString());
      continue;
    }
    const auto same = std::find_if(images_.begin(), images_.end(), [&](const StoredImage& image) {
      return material::EqualsIgnoreCase(image.file.name, file->name);
    });
    StoredImage stored{*file, ++next_generation_};
    if (same != images_.end()) {
      *same = std::move(stored);
    } else {
      images_.push_back(std::move(stored));
    }
    materials_changed = true;
  }
  for (const InputFile* file : meshes) {
    auto loaded = cache_->LoadModel(file->name, file->bytes);
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
    auto loaded = cache_->LoadAnimation(file->name, file->bytes);
    if (!loaded.ok()) {
      report.errors.push_back(loaded.error().ToString());
      continue;
    }
    if (BindAnimation(std::move(loaded).value(), *file, report.new_models, report)) {
      ++report.animations_bound;
    }
  }
  // New models resolve their images; every model does when decls or images arrived (a folder's
  // materials or textures may come in a later drop than its mesh), and those whose resolution
  // did not change keep their textures untouched.
  const ResolveContext context(*this);
  for (size_t i = 0; i < models_.size(); ++i) {
    const bool is_new = std::find(report.new_models.begin(), report.new_models.end(),
                                  static_cast<int>(i)) != report.new_models.end();
    if (is_new || materials_changed) ResolveTextures(models_[i], context, report);
  }
  return report;
}

std::vector<std::string> ModelLibrary::SkinsFor(int index) const {
  std::vector<std::string> names;
  if (index < 0 || index >= static_cast<int>(models_.size())) return names;
  const LoadedModel& model = models_[static_cast<size_t>(index)];
  for (const auto& decl : decls_) {
    for (const material::Skin& skin : decl->skins) {
      if (!skin.IsFor(model.mesh_file)) continue;
      if (std::find(names.begin(), names.end(), skin.name) == names.end()) {
        names.push_back(skin.name);
      }
    }
  }
  return names;
}

void ModelLibrary::SetMaterialSources(int index, std::vector<std::string> sources) {
  if (index < 0 || index >= static_cast<int>(models_.size())) return;
  models_[static_cast<size_t>(index)].material_sources = std::move(sources);
}

bool ModelLibrary::HasDeclSource(const std::string& source) const {
  return std::find(decl_sources_.begin(), decl_sources_.end(), source) != decl_sources_.end();
}

const material::Skin* ModelLibrary::FindSkin(const std::string& name) const {
  for (const auto& decl : decls_) {
    for (const material::Skin& skin : decl->skins) {
      if (material::EqualsIgnoreCase(skin.name, name)) return &skin;
    }
  }
  return nullptr;
}

Status ModelLibrary::SetSkin(int index, const std::string& skin, LoadReport* report) {
  if (index < 0 || index >= static_cast<int>(models_.size())) {
    return MakeError("", 0, 0, "model: no such model");
  }
  LoadedModel& model = models_[static_cast<size_t>(index)];
  if (!skin.empty()) {
    const std::vector<std::string> skins = SkinsFor(index);
    const auto found = std::find_if(skins.begin(), skins.end(), [&](const std::string& name) {
      return material::EqualsIgnoreCase(name, skin);
    });
    if (found == skins.end()) {
      std::string known;
      for (const std::string& name : skins) known += (known.empty() ? "" : ", ") + name;
      return MakeError("", 0, 0,
                       "skin: '" + skin + "' is not a loaded skin for model '" + model.name +
                           "' (" + (known.empty() ? "none loaded" : "loaded: " + known) + ")");
    }
    model.skin = *found;
  } else {
    model.skin.clear();
  }
  LoadReport local;
  ResolveTextures(model, ResolveContext(*this), report != nullptr ? *report : local);
  return {};
}

namespace {

// The model's bone capsules (radii by joint); none when the fit refuses the model.
void FitBoneCapsules(const anim::Model& model, std::vector<float>* radii) {
  const anim::Skeleton& skeleton = model.skeleton();
  const size_t joints = static_cast<size_t>(skeleton.joint_count());
  radii->assign(joints, 0.0f);
  std::vector<std::uint32_t> counts(joints);
  anim::BoneCapsuleFitJob fit;
  fit.bind_matrices = skeleton.bind_matrices().data();
  fit.parents = skeleton.parents().data();
  fit.joint_count = joints;
  fit.vertices = model.gpu().vertices.data();
  fit.vertex_count = model.gpu().vertices.size();
  fit.radii = radii->data();
  fit.vertex_counts = counts.data();
  if (!fit.Run().ok()) radii->assign(joints, 0.0f);
}

}  // namespace

int ModelLibrary::AddModel(std::shared_ptr<const anim::Model> model, const InputFile& file) {
  LoadedModel loaded;
  loaded.id = serials_.Next<HandleKind::kModel>();
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
  loaded.gpu_mesh = renderer_->CreateMesh(UploadOf(model));
  loaded.parts.assign(gpu.submeshes.size(), PartMaterial{});
  loaded.part_textures.assign(gpu.submeshes.size(), PartTextures{});
  if (!gpu.vertices.empty()) {
    loaded.bind_min = loaded.bind_max = gpu.vertices[0].position;
    for (const anim::GpuVertex& v : gpu.vertices) {
      loaded.bind_min = glm::min(loaded.bind_min, v.position);
      loaded.bind_max = glm::max(loaded.bind_max, v.position);
    }
  }
  FitBoneCapsules(*model, &loaded.bone_radii);
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

namespace {

std::vector<const material::DeclFile*> DeclPointers(
    const std::vector<std::unique_ptr<material::DeclFile>>& decls) {
  std::vector<const material::DeclFile*> pointers;
  for (const auto& decl : decls) pointers.push_back(decl.get());
  return pointers;
}

}  // namespace

ModelLibrary::ResolveContext::ResolveContext(const ModelLibrary& library)
    : decls(DeclPointers(library.decls_)), table(decls), images([&] {
        std::vector<std::string> names;
        for (const StoredImage& image : library.images_) names.push_back(image.file.name);
        return names;
      }()) {}

std::string ModelLibrary::ResolutionKey(const material::ResolveOutput& resolved) const {
  std::string key;
  for (const material::PartResolution& part : resolved.parts) {
    key += "part " + part.shader_after_skin + " <- " +
           (part.material != nullptr ? part.material->file + ":" + part.material->name : "guess");
    for (const material::ResolvedMap& map : part.maps) {
      key += map.present ? " | " + map.program.ToString() : " | -";
      for (const material::ImageLookup& lookup : map.images) {
        key += " " + std::string(material::LookupHowName(lookup.how)) + ":" + lookup.path;
        if (lookup.file >= 0 && lookup.file < static_cast<int>(images_.size())) {
          key += "#" + std::to_string(images_[static_cast<size_t>(lookup.file)].generation);
        }
      }
    }
    key += "\n";
  }
  for (const Diagnostic& warning : resolved.warnings) key += warning.ToString() + "\n";
  return key;
}

namespace {

// The images the resolved maps name and no file gave, each once.
std::vector<std::string> MissingImages(const material::ResolveOutput& resolved) {
  std::vector<std::string> missing;
  for (const material::PartResolution& part : resolved.parts) {
    for (const material::ResolvedMap& map : part.maps) {
      for (const material::ImageLookup& lookup : map.images) {
        if (lookup.how != material::ImageLookup::How::kMissing) continue;
        if (std::find(missing.begin(), missing.end(), lookup.requested) == missing.end())
          missing.push_back(lookup.requested);
      }
    }
  }
  return missing;
}

}  // namespace

void ModelLibrary::ResolveTextures(LoadedModel& model, const ResolveContext& context,
                                   LoadReport& report) {
  std::vector<std::string> current;
  const auto report_once = [&](const std::string& message, bool error) {
    current.push_back(message);
    if (std::find(model.reported.begin(), model.reported.end(), message) != model.reported.end())
      return;
    model.reported.push_back(message);
    (error ? report.errors : report.warnings).push_back(message);
  };
  const anim::GpuSkinData& gpu = model.model->gpu();
  auto resolved = ResolveNow(model, context);
  if (!resolved.ok()) {
    report_once(resolved.error().ToString(), true);
    model.material_warnings = std::move(current);
    model.resolution_key.clear();
    return;
  }
  std::string key = ResolutionKey(resolved.value());
  if (key == model.resolution_key) return;  // the same maps from the same files: nothing to redo
  model.resolution_key = std::move(key);
  for (const Diagnostic& warning : resolved.value().warnings) {
    report_once(warning.ToString(), false);
  }
  model.missing_images = MissingImages(resolved.value());

  // Decoded once per resolve, by image file; null when the file does not decode.
  std::vector<std::unique_ptr<material::RgbaImage>> decoded(images_.size());
  std::vector<bool> tried(images_.size(), false);
  const auto decode = [&](int file) -> const material::RgbaImage* {
    const size_t f = static_cast<size_t>(file);
    if (!tried[f]) {
      tried[f] = true;
      auto image = material::DecodeImage(images_[f].file.name, images_[f].file.bytes);
      if (image.ok()) {
        decoded[f] = std::make_unique<material::RgbaImage>(std::move(image).value());
      } else {
        report_once(image.error().ToString(), true);
      }
    }
    return decoded[f].get();
  };

  std::vector<std::pair<std::string, TextureHandle>> kept;
  const auto texture_for = [&](const material::PartResolution& part, material::MapKind kind,
                               std::string* file_label) -> TextureHandle {
    const material::ResolvedMap& map = part.map(kind);
    if (!map.present || !map.Complete()) return {};
    std::string key = std::string(material::MapKindName(kind)) + ":" + map.program.ToString();
    std::string files;
    for (const material::ImageLookup& lookup : map.images) {
      if (lookup.how == material::ImageLookup::How::kBuiltin) return {};  // _flat, _white, ...
      key += "|" + lookup.path + "#" +
             std::to_string(images_[static_cast<size_t>(lookup.file)].generation);
      files += (files.empty() ? "" : " + ") + lookup.path;
    }
    // Made already (by this resolve, or an earlier one from the same files): nothing decoded.
    for (auto* list : {&kept, &model.owned_textures}) {
      for (const auto& entry : *list) {
        if (entry.first != key) continue;
        if (list == &model.owned_textures) kept.push_back(entry);
        *file_label = files;
        return entry.second;
      }
    }
    std::vector<const material::RgbaImage*> leaves;
    for (const material::ImageLookup& lookup : map.images) {
      leaves.push_back(decode(lookup.file));
      if (leaves.back() == nullptr) return {};
    }
    material::ImageProgramInput program;
    program.program = &map.program;
    program.images = leaves;
    program.max_side = material::kMaxImageSide;
    auto image = material::EvaluateImageProgram(program);
    if (!image.ok()) {
      Diagnostic error = image.error();
      error.severity = Diagnostic::Severity::kWarning;
      error.file = part.material != nullptr ? part.material->file : model.mesh_file;
      error.message = "material '" + part.shader_after_skin + "': " + error.message;
      report_once(error.ToString(), false);
      return {};
    }
    const material::RgbaImage& rgba = image.value();
    const TextureHandle texture =
        renderer_->CreateTexture(rgba.width, rgba.height, rgba.rgba.data());
    model.gpu_bytes += rgba.rgba.size() * 4 / 3;
    if (kind == material::MapKind::kDiffuse) ++report.textures_bound;
    kept.emplace_back(key, texture);
    *file_label = files;
    return texture;
  };

  const size_t parts = gpu.submeshes.size();
  model.parts.resize(parts);
  model.part_textures.resize(parts);
  for (size_t p = 0; p < parts; ++p) {
    // A new resolution: the diffuse map is replaced below, the rest starts from none.
    model.parts[p] = PartMaterial{std::string(), model.parts[p].diffuse_file, "", ""};
    model.part_textures[p].normal = model.part_textures[p].specular = TextureHandle{};
  }
  for (size_t p = 0; p < parts && p < resolved.value().parts.size(); ++p) {
    const material::PartResolution& part = resolved.value().parts[p];
    PartMaterial& from = model.parts[p];
    PartTextures& drawn = model.part_textures[p];
    if (part.material != nullptr) from.material = part.material->name;
    from.diffuse_file.clear();
    drawn.diffuse = texture_for(part, material::MapKind::kDiffuse, &from.diffuse_file);
    drawn.normal = texture_for(part, material::MapKind::kNormal, &from.normal_file);
    drawn.specular = texture_for(part, material::MapKind::kSpecular, &from.specular_file);
    ++part_applications_;
  }
  for (const auto& entry : model.owned_textures) {
    const bool still_used = std::any_of(kept.begin(), kept.end(),
                                        [&](const auto& k) { return k.second == entry.second; });
    if (!still_used) renderer_->DestroyTexture(entry.second);
  }
  model.owned_textures = std::move(kept);
  model.material_warnings = std::move(current);
}

Result<material::ResolveOutput> ModelLibrary::ResolveNow(const LoadedModel& model,
                                                         const ResolveContext& context) const {
  material::ResolveInput input;
  for (const anim::GpuSubmesh& submesh : model.model->gpu().submeshes) {
    input.shaders.push_back(submesh.shader);
  }
  input.model_name = model.name;
  input.materials = &context.table;
  input.images = &context.images;
  input.skin = model.skin.empty() ? nullptr : FindSkin(model.skin);
  return material::ResolveMaterials(input);
}

std::vector<InputFile> ModelLibrary::MaterialFilesFor(int index) const {
  std::vector<InputFile> out;
  if (index < 0 || index >= static_cast<int>(models_.size())) return out;
  const ResolveContext context(*this);
  auto resolved = ResolveNow(models_[static_cast<size_t>(index)], context);
  if (!resolved.ok()) return out;
  std::vector<const std::string*> decl_names;
  std::vector<int> image_files;
  for (const material::PartResolution& part : resolved.value().parts) {
    if (part.material != nullptr &&
        std::find(decl_names.begin(), decl_names.end(), &part.material->file) == decl_names.end()) {
      decl_names.push_back(&part.material->file);
    }
    for (const material::ResolvedMap& map : part.maps) {
      if (!map.present) continue;
      for (const material::ImageLookup& lookup : map.images) {
        if (lookup.file >= 0 &&
            std::find(image_files.begin(), image_files.end(), lookup.file) == image_files.end()) {
          image_files.push_back(lookup.file);
        }
      }
    }
  }
  for (const std::string* name : decl_names) {
    for (size_t d = 0; d < decls_.size(); ++d) {
      if (decls_[d]->file == *name) {
        out.push_back({decls_[d]->file, decl_texts_[d], "local"});
        break;
      }
    }
  }
  for (const int file : image_files) {
    // The index's files are images_ in order (ResolveContext lists them so).
    out.push_back(images_[static_cast<size_t>(file)].file);
  }
  return out;
}

MeshUpload ModelLibrary::UploadOf(const std::shared_ptr<const anim::Model>& model) {
  const anim::GpuSkinData& gpu = model->gpu();
  MeshUpload upload;
  upload.joint_count = model->skeleton().joint_count();
  upload.vertices = &gpu.vertices;
  upload.indices = &gpu.indices;
  upload.owner = model;
  for (const anim::GpuSubmesh& submesh : gpu.submeshes) {
    upload.parts.push_back({submesh.first_index, submesh.index_count});
  }
  return upload;
}

void ModelLibrary::RecreateGpuObjects() {
  const ResolveContext context(*this);
  LoadReport report;
  for (LoadedModel& model : models_) {
    model.gpu_mesh = renderer_->CreateMesh(UploadOf(model.model));
    // The old handles died with the context: forgotten, not destroyed, and every map remade.
    model.owned_textures.clear();
    for (PartTextures& part : model.part_textures) part = PartTextures{};
    model.resolution_key.clear();
    ResolveTextures(model, context, report);
  }
}

ModelLibrary::~ModelLibrary() {
  for (int index = static_cast<int>(models_.size()) - 1; index >= 0; --index) RemoveModel(index);
}

void ModelLibrary::RemoveModel(int index) {
  if (index < 0 || index >= static_cast<int>(models_.size())) return;
  LoadedModel& model = models_[static_cast<size_t>(index)];
  renderer_->DestroyMesh(model.gpu_mesh);
  // A texture may serve several parts of one model: owned_textures holds each once.
  for (const auto& entry : model.owned_textures) renderer_->DestroyTexture(entry.second);
  models_.erase(models_.begin() + index);
}

}  // namespace md5stage::viewer
