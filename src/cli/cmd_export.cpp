// `md5stage export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf`: the model and its
// animations as glTF 2.0 (core/convert), with each part's diffuse, normal and specular maps
// resolved from the decls and images of the mesh's folder (or --materials DIR) embedded.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "cli/cli_files.h"
#include "cli/command_registry.h"
#include "cli/decl_cli.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/convert/gltf_export.h"
#include "core/convert/gltf_export_maps.h"
#include "core/material/material_resolve.h"
#include "core/md5/file_reader.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

const char kUsage[] =
    "usage: md5stage export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf\n"
    "                       [--materials DIR] [--skin NAME]\n"
    "  --materials DIR  decls and images under DIR (default: the mesh's folder)\n"
    "  --skin NAME      a skin decl of DIR to apply\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "md5stage export: %s\n%s", message.c_str(), kUsage);
  return 2;
}

std::string Extension(const std::string& name) {
  const std::string stem = md5::FileStemOf(name);
  const std::size_t slash = name.find_last_of("/\\");
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  if (base.size() <= stem.size() + 1) return "";
  std::string ext = base.substr(stem.size() + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// What `export` was asked for.
struct ExportOptions {
  std::string mesh_path;
  std::vector<std::string> anim_paths;
  std::string output_path;       // -o
  std::string output_ext;        // "glb" or "gltf"
  std::string materials_folder;  // --materials (default: the mesh's folder)
  std::string skin_name;         // --skin
};

// The options from the arguments: 0, or the usage error's exit code.
int ParseExportArguments(const std::vector<std::string>& args, ExportOptions* options) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-o" || arg == "--output") {
      if (i + 1 >= args.size())
        return UsageError("-o: expected OUT.glb or OUT.gltf, found nothing");
      options->output_path = args[++i];
    } else if (arg == "--materials") {
      if (i + 1 >= args.size()) return UsageError("--materials: expected a folder, found nothing");
      options->materials_folder = args[++i];
    } else if (arg == "--skin") {
      if (i + 1 >= args.size()) return UsageError("--skin: expected a skin's name, found nothing");
      options->skin_name = args[++i];
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) return UsageError("MESH: expected an .md5mesh file, found nothing");
  if (options->output_path.empty()) {
    return UsageError("-o: expected OUT.glb or OUT.gltf, found nothing");
  }
  options->output_ext = Extension(options->output_path);
  if (options->output_ext != "glb" && options->output_ext != "gltf") {
    return UsageError("-o: expected a name ending in .glb or .gltf, found '" +
                      options->output_path + "'");
  }
  if (Extension(positional[0]) != "md5mesh") {
    return UsageError("MESH: expected an .md5mesh file first, found '" + positional[0] + "'");
  }
  for (std::size_t i = 1; i < positional.size(); ++i) {
    if (Extension(positional[i]) != "md5anim") {
      return UsageError("ANIM " + std::to_string(i) + ": expected an .md5anim file, found '" +
                        positional[i] + "'");
    }
  }
  options->mesh_path = positional[0];
  options->anim_paths.assign(positional.begin() + 1, positional.end());
  if (options->materials_folder.empty()) {
    options->materials_folder = std::filesystem::path(options->mesh_path).parent_path().string();
    if (options->materials_folder.empty()) options->materials_folder = ".";
  }
  return 0;
}

// Each animation read, parsed and checked against the model (warnings printed): whether all
// were.
bool LoadAnimations(const std::vector<std::string>& anim_paths, const anim::Model& model,
                    std::vector<anim::Animation>* animations) {
  animations->reserve(anim_paths.size() + 1);
  for (const std::string& path : anim_paths) {
    Result<std::string> bytes = md5::ReadFileBytes(path);
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
      return false;
    }
    Result<md5::AnimFile> parsed = md5::ParseMd5Anim(path, bytes.value());
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
      return false;
    }
    std::vector<Diagnostic> warnings = parsed.value().warnings;
    const Status fits = md5::CheckAnimFitsMesh(model.source(), parsed.value(), &warnings);
    PrintDiagnostics(warnings);
    if (!fits.ok()) {
      std::fprintf(stderr, "%s\n", fits.error().ToString().c_str());
      return false;
    }
    animations->push_back(anim::Animation::FromAnimFile(
        std::make_shared<const md5::AnimFile>(std::move(parsed).value())));
  }
  return true;
}

// Each part's maps as the viewer resolves them, from the decls and images of the folder, with
// what the maps point into.
struct FolderMaps {
  std::unique_ptr<MaterialFolder> folder;
  material::ResolveOutput resolved;
  std::vector<std::string> image_bytes;  // per folder file, read when a map looks it up
  std::vector<convert::SourceImageFile> image_files;
  convert::ExportMaps maps;
};

// The model's maps from the materials folder: 0, or the exit code (the error printed).
int ResolveMaps(const ExportOptions& options, const anim::Model& model, FolderMaps* out) {
  Result<std::unique_ptr<MaterialFolder>> folder = ReadMaterialFolder(options.materials_folder);
  if (!folder.ok()) return UsageError(folder.error().message);
  out->folder = std::move(folder).value();
  std::vector<std::string> shaders;
  for (int m = 0; m < model.mesh_count(); ++m) shaders.push_back(model.mesh(m).shader);
  Result<material::ResolveOutput> resolved = ResolveFolderMaterials(
      *out->folder, shaders, md5::FileStemOf(options.mesh_path), options.skin_name);
  if (!resolved.ok()) return UsageError(resolved.error().message);
  out->resolved = std::move(resolved).value();
  PrintDiagnostics(out->resolved.warnings);
  const std::vector<std::string>& paths = out->folder->paths;
  out->image_bytes.assign(paths.size(), std::string());
  out->image_files.assign(paths.size(), convert::SourceImageFile());
  for (const material::PartResolution& part : out->resolved.parts) {
    for (const material::ResolvedMap& map : part.maps) {
      for (const material::ImageLookup& lookup : map.images) {
        const std::size_t f = static_cast<std::size_t>(lookup.file);
        if (lookup.file < 0 || out->image_files[f].bytes) continue;
        Result<std::string> bytes = md5::ReadFileBytes(
            (std::filesystem::path(options.materials_folder) / paths[f]).string());
        if (!bytes.ok()) {
          std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
          return 1;
        }
        out->image_bytes[f] = std::move(bytes).value();
        out->image_files[f] = {paths[f], &out->image_bytes[f]};
      }
    }
  }
  convert::ExportMapsInput maps_input;
  maps_input.resolution = &out->resolved;
  maps_input.files = out->image_files;
  Result<convert::ExportMaps> maps = convert::BuildExportMaps(maps_input);
  if (!maps.ok()) {
    std::fprintf(stderr, "md5stage export: %s\n", maps.error().ToString().c_str());
    return 1;
  }
  out->maps = std::move(maps).value();
  PrintDiagnostics(out->maps.warnings);
  return 0;
}

// The glTF exported and written (a .gltf's buffer beside it), and a line on what it holds:
// whether it was.
bool WriteGltf(const ExportOptions& options, const anim::Model& model,
               const std::vector<convert::ExportAnimation>& exports, const FolderMaps& maps) {
  const std::filesystem::path out(options.output_path);
  const std::string bin_name = out.stem().string() + ".bin";
  convert::GltfFiles files;
  std::vector<Diagnostic> warnings;
  convert::GltfExportJob job;
  job.model = &model;
  job.animations = exports;
  job.images = maps.maps.images;
  job.part_maps = maps.maps.parts;
  job.container = options.output_ext == "glb" ? convert::GltfContainer::kGlb
                                              : convert::GltfContainer::kGltfSeparateBin;
  job.bin_uri = bin_name;
  job.output = &files;
  job.warnings = &warnings;
  const Status done = job.Run();
  PrintDiagnostics(warnings);
  if (!done.ok()) {
    std::fprintf(stderr, "md5stage export: %s\n", done.error().ToString().c_str());
    return false;
  }
  if (!WriteBytes(options.output_path, files.main)) return false;
  std::size_t total = files.main.size();
  if (job.container == convert::GltfContainer::kGltfSeparateBin) {
    const std::string bin_path = (out.parent_path() / bin_name).string();
    if (!WriteBytes(bin_path, files.bin)) return false;
    total += files.bin.size();
  }
  std::printf("%s: %d mesh parts, %d joints, %zu animations, %zu images, %zu bytes\n",
              options.output_path.c_str(), model.mesh_count(), model.skeleton().joint_count(),
              exports.size(), maps.maps.images.size(), total);
  return true;
}

int RunExport(const std::vector<std::string>& args) {
  ExportOptions options;
  if (const int usage = ParseExportArguments(args, &options); usage != 0) return usage;
  const std::shared_ptr<const anim::Model> model = LoadMeshModel(options.mesh_path);
  if (model == nullptr) return 1;
  std::vector<anim::Animation> animations;
  if (!LoadAnimations(options.anim_paths, *model, &animations)) return 1;
  std::vector<convert::ExportAnimation> exports;
  for (std::size_t i = 0; i < animations.size(); ++i) {
    exports.push_back({&animations[i], md5::FileStemOf(options.anim_paths[i])});
  }
  FolderMaps maps;
  if (const int failed = ResolveMaps(options, *model, &maps); failed != 0) return failed;
  return WriteGltf(options, *model, exports, maps) ? 0 : 1;
}

static CommandRegistrar reg{
    {"export", "export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf", &RunExport}};

}  // namespace
}  // namespace md5stage::cli
