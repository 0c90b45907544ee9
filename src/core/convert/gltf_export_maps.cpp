#include "core/convert/gltf_export_maps.h"

#include <utility>

#include "core/material/image_decode.h"
#include "core/material/image_program.h"
#include "core/material/png_encode.h"
#include "core/md5/file_stem.h"

namespace md5stage::convert {
namespace {

using material::ImageLookup;
using material::MapKind;
using material::ResolvedMap;

struct Builder {
  const ExportMapsInput& input;
  ExportMaps out;
  std::vector<std::pair<std::string, int>> made;  // what made an image -> its index
  // Decoded once per build, by file; null when the file does not decode (error kept).
  std::vector<std::unique_ptr<material::RgbaImage>> decoded;
  std::vector<std::string> decode_errors;
  std::vector<bool> tried;

  explicit Builder(const ExportMapsInput& in)
      : input(in),
        decoded(in.files.size),
        decode_errors(in.files.size),
        tried(in.files.size, false) {}

  const material::RgbaImage* Decode(int file, std::string* error) {
    const std::size_t f = static_cast<std::size_t>(file);
    if (!tried[f]) {
      tried[f] = true;
      auto image = material::DecodeImage(input.files[f].name, *input.files[f].bytes);
      if (image.ok()) {
        decoded[f] = std::make_unique<material::RgbaImage>(std::move(image).value());
      } else {
        decode_errors[f] = image.error().ToString();
      }
    }
    if (decoded[f] == nullptr) *error = decode_errors[f];
    return decoded[f].get();
  }

  int Add(std::string key, std::string name, std::string mime_type, std::string bytes) {
    auto owned = std::make_shared<const std::string>(std::move(bytes));
    out.images.push_back({std::move(name), std::move(mime_type), owned.get()});
    out.bytes.push_back(std::move(owned));
    made.emplace_back(std::move(key), static_cast<int>(out.images.size()) - 1);
    return static_cast<int>(out.images.size()) - 1;
  }

  // The image index of one map, or -1 (with a warning when the map is declared but unusable).
  int MapImage(std::size_t part_index, const material::PartResolution& part, MapKind kind) {
    const ResolvedMap& map = part.map(kind);
    if (!map.present || !map.Complete() || map.images.empty()) return -1;
    for (const ImageLookup& lookup : map.images) {
      if (lookup.how == ImageLookup::How::kBuiltin) return -1;  // _flat, _white: nothing to add
    }
    const bool normal = kind == MapKind::kNormal;
    std::string key = std::string(material::MapKindName(kind)) + ":" + map.program.ToString();
    for (const ImageLookup& lookup : map.images) key += "|" + std::to_string(lookup.file);
    for (const auto& entry : made) {
      if (entry.first == key) return entry.second;
    }
    const SourceImageFile& first = input.files[static_cast<std::size_t>(map.images[0].file)];
    const bool plain = map.program.op == material::ImageProgram::Op::kImage;
    if (plain && !normal) {
      const std::string mime_type = material::EmbeddableMimeType(*first.bytes);
      if (!mime_type.empty()) {
        const std::size_t slash = first.name.find_last_of("/\\");
        return Add(key, slash == std::string::npos ? first.name : first.name.substr(slash + 1),
                   mime_type, *first.bytes);
      }
    }
    const auto warn = [&](const std::string& why) {
      const std::string file = part.material != nullptr ? part.material->file : "";
      out.warnings.push_back(MakeWarning(
          file, part.material != nullptr ? map.where.line : 0,
          part.material != nullptr ? map.where.column : 0,
          "mesh " + std::to_string(part_index) + " (" + part.shader_after_skin + "): the " +
              material::MapKindName(kind) + " map is not embedded: " + why));
      return -1;
    };
    std::vector<const material::RgbaImage*> leaves;
    for (const ImageLookup& lookup : map.images) {
      std::string error;
      leaves.push_back(Decode(lookup.file, &error));
      if (leaves.back() == nullptr) return warn(error);
    }
    material::ImageProgramInput program;
    program.program = &map.program;
    program.images = leaves;
    program.max_side = material::kMaxImageSide;
    auto image = material::EvaluateImageProgram(program);
    if (!image.ok()) return warn(image.error().message);
    if (normal) material::InvertGreen(&image.value());
    const std::string name = md5::FileStemOf(first.name) + ".png";
    auto png = material::EncodePng(name, image.value());
    if (!png.ok()) return warn(png.error().message);
    return Add(key, name, "image/png", std::move(png).value());
  }
};

}  // namespace

Status ExportMapsInput::Validate() const {
  if (resolution == nullptr) return MakeError("", 0, 0, "resolution: expected the parts' maps");
  for (std::size_t p = 0; p < resolution->parts.size(); ++p) {
    for (const ResolvedMap& map : resolution->parts[p].maps) {
      for (const ImageLookup& lookup : map.images) {
        if (lookup.how == ImageLookup::How::kMissing || lookup.how == ImageLookup::How::kBuiltin)
          continue;
        if (lookup.file < 0 || lookup.file >= static_cast<int>(files.size)) {
          return MakeError("", 0, 0,
                           "resolution.parts[" + std::to_string(p) + "]: image '" +
                               lookup.requested + "' is file " + std::to_string(lookup.file) +
                               ", expected an index below " + std::to_string(files.size));
        }
        const SourceImageFile& file = files[static_cast<std::size_t>(lookup.file)];
        if (file.bytes == nullptr) {
          return MakeError("", 0, 0,
                           "files[" + std::to_string(lookup.file) + "] (" + file.name +
                               ").bytes: expected the file's bytes, found none");
        }
      }
    }
  }
  return Status();
}

Result<ExportMaps> BuildExportMaps(const ExportMapsInput& input) {
  const Status valid = input.Validate();
  if (!valid.ok()) return valid.error();
  Builder builder(input);
  bool any = false;
  for (std::size_t p = 0; p < input.resolution->parts.size(); ++p) {
    const material::PartResolution& part = input.resolution->parts[p];
    ExportPartMaps maps;
    maps.diffuse = builder.MapImage(p, part, MapKind::kDiffuse);
    maps.normal = builder.MapImage(p, part, MapKind::kNormal);
    maps.specular = builder.MapImage(p, part, MapKind::kSpecular);
    any = any || maps.diffuse >= 0 || maps.normal >= 0 || maps.specular >= 0;
    builder.out.parts.push_back(maps);
  }
  if (!any) builder.out.parts.clear();
  return std::move(builder.out);
}

}  // namespace md5stage::convert
