#include "core/material/material_resolve.h"

#include <algorithm>

#include "core/material/decl_lexer.h"

namespace md5stage::material {
namespace {

// DDS last: Doom 3 ships compressed copies (dds/models/...) beside its TGAs.
constexpr std::string_view kImageExtensions[] = {"tga", "png", "jpg", "jpeg", "bmp", "dds"};

bool IsImageExtension(std::string_view lower_extension) {
  return std::find(std::begin(kImageExtensions), std::end(kImageExtensions), lower_extension) !=
         std::end(kImageExtensions);
}

std::string NormalisePath(std::string_view name) {
  std::string out = ToLower(name);
  std::replace(out.begin(), out.end(), '\\', '/');
  while (out.rfind("./", 0) == 0) out.erase(0, 2);
  while (!out.empty() && out[0] == '/') out.erase(0, 1);
  return out;
}

// "models/x/body.tga" -> "tga" (lower case), "" when the base name has no extension.
std::string_view ExtensionOf(std::string_view path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot + 1);
}

std::string_view BaseName(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

ImageLookup::How FromMatch(ImageIndex::Match::How how) {
  switch (how) {
    case ImageIndex::Match::How::kPath:
      return ImageLookup::How::kPath;
    case ImageIndex::Match::How::kPathSuffix:
      return ImageLookup::How::kPathSuffix;
    case ImageIndex::Match::How::kBaseName:
      return ImageLookup::How::kBaseName;
    default:
      return ImageLookup::How::kMissing;
  }
}

ImageLookup Lookup(const ImageIndex& images, const std::string& requested) {
  ImageLookup lookup;
  lookup.requested = requested;
  const ImageIndex::Match match = images.Find(requested);
  lookup.how = FromMatch(match.how);
  lookup.file = match.file;
  if (match.file >= 0) {
    lookup.path = images.path(match.file);
  } else if (!requested.empty() && (requested[0] == '_' || requested[0] == '$') &&
             requested.find('/') == std::string::npos) {
    lookup.how = ImageLookup::How::kBuiltin;  // _white, _flat, _black, $lightmap, ...
  }
  return lookup;
}

}  // namespace

std::string CanonicalName(std::string_view name) {
  std::string out = NormalisePath(name);
  const std::string_view extension = ExtensionOf(out);
  if (IsImageExtension(extension)) out.resize(out.size() - extension.size() - 1);
  return out;
}

ImageIndex::ImageIndex(const std::vector<std::string>& paths) : paths_(paths) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::string lower = NormalisePath(paths[i]);
    if (!IsImageExtension(ExtensionOf(lower))) continue;
    const int index = static_cast<int>(i);
    by_path_.emplace(lower, index);
    by_name_[std::string(BaseName(lower))].push_back(static_cast<int>(files_.size()));
    files_.push_back({std::move(lower), index});
  }
}

ImageIndex::Match ImageIndex::Find(std::string_view image) const {
  Match match;
  const std::string stem = CanonicalName(image);
  if (stem.empty() || stem.back() == '/') return match;
  std::vector<std::string_view> extensions;
  const std::string lower = NormalisePath(image);
  const std::string_view given = ExtensionOf(lower);
  if (IsImageExtension(given)) extensions.push_back(given);
  for (std::string_view e : kImageExtensions) {
    if (e != given) extensions.push_back(e);
  }
  // 1: the path from the root.
  for (std::string_view e : extensions) {
    const auto hit = by_path_.find(stem + "." + std::string(e));
    if (hit != by_path_.end()) return {Match::How::kPath, hit->second};
  }
  const std::string_view base = BaseName(stem);
  const bool has_folder = base.size() < stem.size();
  // 2: a file whose path ends in it; 3: a file of that base name.
  for (int pass = has_folder ? 0 : 1; pass < 2; ++pass) {
    for (std::string_view e : extensions) {
      const std::string name = std::string(base) + "." + std::string(e);
      const auto files = by_name_.find(name);
      if (files == by_name_.end()) continue;
      for (int f : files->second) {
        const std::string& path = files_[static_cast<std::size_t>(f)].lower_path;
        const std::string tail = "/" + stem + "." + std::string(e);
        const bool suffix = path.size() > tail.size() &&
                            path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
        if (pass == 1 || suffix) {
          return {pass == 0 ? Match::How::kPathSuffix : Match::How::kBaseName,
                  files_[static_cast<std::size_t>(f)].index};
        }
      }
    }
  }
  return match;
}

MaterialTable::MaterialTable(const std::vector<const DeclFile*>& files) {
  for (const DeclFile* file : files) {
    if (file == nullptr) continue;
    for (const Material& material : file->materials) {
      const auto [it, added] = by_name_.emplace(CanonicalName(material.name), &material);
      if (added) continue;
      const Material& first = *it->second;
      warnings_.push_back(MakeWarning(material.file, material.where.line, material.where.column,
                                      "material '" + material.name +
                                          "' is defined again; the first definition (" +
                                          first.file + ":" + std::to_string(first.where.line) +
                                          ":" + std::to_string(first.where.column) + ") is used"));
    }
  }
}

const Material* MaterialTable::Find(std::string_view shader) const {
  const auto hit = by_name_.find(CanonicalName(shader));
  return hit == by_name_.end() ? nullptr : hit->second;
}

const char* LookupHowName(ImageLookup::How how) {
  switch (how) {
    case ImageLookup::How::kBuiltin:
      return "builtin";
    case ImageLookup::How::kPath:
      return "path";
    case ImageLookup::How::kPathSuffix:
      return "path suffix";
    case ImageLookup::How::kBaseName:
      return "base name";
    default:
      return "missing";
  }
}

bool ResolvedMap::Complete() const {
  if (!present) return false;
  return std::all_of(images.begin(), images.end(), [](const ImageLookup& image) {
    return image.how != ImageLookup::How::kMissing;
  });
}

ImageLookup GuessImage(const ImageIndex& images, std::string_view shader,
                       std::string_view model_name, MapKind kind) {
  static const std::vector<std::string> kSuffixes[kMapKindCount] = {
      {"", "_d", "_diffuse", "_color"}, {"_local", "_n", "_normal"}, {"_s", "_spec"}, {"_h"}, {}};
  const std::string stem = CanonicalName(shader);
  ImageLookup none;
  if (!stem.empty()) {
    for (const std::string& suffix : kSuffixes[static_cast<int>(kind)]) {
      ImageLookup lookup = Lookup(images, stem + suffix);
      if (lookup.how != ImageLookup::How::kMissing && lookup.how != ImageLookup::How::kBuiltin) {
        return lookup;
      }
    }
    return none;
  }
  if (kind != MapKind::kDiffuse) return none;
  // No shader name to go by: a conventionally named diffuse map, or the only image there is.
  const std::string model = CanonicalName(model_name);
  for (const std::string& name :
       {std::string("diffuse"), std::string("skin"), std::string("base"), model}) {
    if (name.empty()) continue;
    ImageLookup lookup = Lookup(images, name);
    if (lookup.how == ImageLookup::How::kPath || lookup.how == ImageLookup::How::kBaseName ||
        lookup.how == ImageLookup::How::kPathSuffix) {
      return lookup;
    }
  }
  if (images.image_count() == 1) return Lookup(images, images.path(images.image_file(0)));
  return none;
}

Status ResolveInput::Validate() const {
  if (materials == nullptr) return MakeError("", 0, 0, "resolve.materials: expected a table");
  if (images == nullptr) return MakeError("", 0, 0, "resolve.images: expected an image index");
  return {};
}

Result<ResolveOutput> ResolveMaterials(const ResolveInput& input) {
  const Status valid = input.Validate();
  if (!valid.ok()) return valid.error();
  ResolveOutput output;
  output.parts.reserve(input.shaders.size());
  for (const std::string& shader : input.shaders) {
    PartResolution part;
    part.shader = shader;
    part.shader_after_skin = input.skin != nullptr ? input.skin->Remap(shader) : shader;
    part.material = input.materials->Find(part.shader_after_skin);
    for (int k = 0; k < kMapKindCount - 1; ++k) {
      const MapKind kind = static_cast<MapKind>(k);
      ResolvedMap& map = part.maps[static_cast<std::size_t>(k)];
      if (part.material == nullptr) {
        ImageLookup guess =
            GuessImage(*input.images, part.shader_after_skin, input.model_name, kind);
        if (guess.how == ImageLookup::How::kMissing) continue;
        map.present = true;
        map.program.text = guess.path;
        map.images.push_back(std::move(guess));
        continue;
      }
      const Stage* stage = part.material->FindStage(kind);
      if (stage == nullptr) continue;
      map.present = true;
      map.program = stage->image;
      map.where = stage->where;
      std::vector<const ImageProgram*> leaves;
      stage->image.CollectImages(&leaves);
      for (const ImageProgram* leaf : leaves) {
        ImageLookup lookup = Lookup(*input.images, leaf->text);
        if (lookup.how == ImageLookup::How::kMissing) {
          output.warnings.push_back(MakeWarning(
              part.material->file, leaf->where.line, leaf->where.column,
              "material '" + part.material->name + "': " + MapKindName(kind) + " image '" +
                  leaf->text + "' not found (tried .tga .png .jpg by path and base name)"));
        }
        map.images.push_back(std::move(lookup));
      }
    }
    output.parts.push_back(std::move(part));
  }
  return output;
}

}  // namespace md5stage::material
