// `md5stage convert IN.glb|IN.gltf -o DIR [--fps N]`: a skinned glTF 2.0 asset as
// DIR/<name>.md5mesh and one DIR/<anim>.md5anim per animation (core/convert's importer), plus the
// materials' PNG/JPEG images and DIR/<name>.mtr naming them; each written text parsed back first.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "cli/command_registry.h"
#include "core/convert/gltf_import.h"
#include "core/material/material_parser.h"
#include "core/md5/file_reader.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"

namespace md5stage::cli {
namespace {

const char kUsage[] = "usage: md5stage convert IN.glb|IN.gltf -o DIR [--fps N]\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "md5stage convert: %s\n%s", message.c_str(), kUsage);
  return 2;
}

std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "%s: error: cannot write file: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  if (std::fclose(out) != 0 || !written) {
    std::fprintf(stderr, "%s: error: cannot write file\n", path.c_str());
    return false;
  }
  return true;
}

int RunConvert(const std::vector<std::string>& args) {
  std::string output_dir;
  std::vector<std::string> positional;
  float fps = 0.0f;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-o" || arg == "--output") {
      if (i + 1 >= args.size()) return UsageError("-o: expected a folder, found nothing");
      output_dir = args[++i];
    } else if (arg == "--fps") {
      if (i + 1 >= args.size()) return UsageError("--fps: expected a number, found nothing");
      const std::string& text = args[++i];
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !(value > 0.0) ||
          !(value <= 10000.0)) {
        return UsageError("--fps: expected a number above 0 and at most 10000, found '" + text +
                          "'");
      }
      fps = static_cast<float>(value);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) return UsageError("IN: expected a .glb or .gltf file, found nothing");
  if (positional.size() > 1) {
    return UsageError("IN: expected one .glb or .gltf file, found " +
                      std::to_string(positional.size()) + " files");
  }
  if (output_dir.empty()) return UsageError("-o: expected a folder, found nothing");
  const std::string& input = positional[0];
  const std::string ext = LowerExtension(input);
  if (ext != ".glb" && ext != ".gltf") {
    return UsageError("IN: expected a name ending in .glb or .gltf, found '" + input + "'");
  }

  Result<std::string> bytes = md5::ReadFileBytes(input);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
    return 1;
  }
  // A .gltf's buffers, from its folder: relative names only, never above it.
  const std::filesystem::path folder = std::filesystem::path(input).parent_path();
  std::map<std::string, std::unique_ptr<std::string>> loaded;
  const convert::GltfFileLookup lookup = [&](const std::string& uri) -> const std::string* {
    const std::filesystem::path relative(uri);
    if (relative.is_absolute()) return nullptr;
    for (const auto& part : relative) {
      if (part == "..") return nullptr;
    }
    auto it = loaded.find(uri);
    if (it == loaded.end()) {
      Result<std::string> file = md5::ReadFileBytes((folder / relative).string());
      it = loaded
               .emplace(uri, file.ok() ? std::make_unique<std::string>(std::move(file).value())
                                       : nullptr)
               .first;
    }
    return it->second.get();
  };

  convert::GltfImportOutput imported;
  std::vector<Diagnostic> warnings;
  convert::GltfImportJob job;
  job.file_name = input;
  job.bytes = bytes.value();
  job.files = lookup;
  job.options.fps = fps;
  job.output = &imported;
  job.warnings = &warnings;
  const Status done = job.Run();
  for (const Diagnostic& d : warnings) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  if (!done.ok()) {
    std::fprintf(stderr, "%s\n", done.error().ToString().c_str());
    return 1;
  }

  std::error_code error;
  std::filesystem::create_directories(output_dir, error);
  if (error || !std::filesystem::is_directory(output_dir)) {
    std::fprintf(stderr, "%s: error: cannot create folder: %s\n", output_dir.c_str(),
                 error.message().c_str());
    return 1;
  }
  const std::filesystem::path out(output_dir);
  // Everything is written only once every file has parsed back and bound to the mesh.
  const std::string mesh_path = (out / (md5::FileStemOf(input) + ".md5mesh")).string();
  const std::string mesh_text = md5::WriteMd5Mesh(imported.mesh);
  Result<md5::MeshFile> mesh_back = md5::ParseMd5Mesh(mesh_path, mesh_text);
  if (!mesh_back.ok()) {
    std::fprintf(stderr, "md5stage convert: the written mesh does not read back: %s\n",
                 mesh_back.error().ToString().c_str());
    return 1;
  }
  std::vector<std::pair<std::string, std::string>> anim_files;
  for (const convert::ImportedAnimation& animation : imported.animations) {
    const std::string path = (out / (animation.name + ".md5anim")).string();
    std::string text = md5::WriteMd5Anim(animation.file);
    Result<md5::AnimFile> back = md5::ParseMd5Anim(path, text);
    std::vector<Diagnostic> ignored;
    const Status fits = back.ok()
                            ? md5::CheckAnimFitsMesh(mesh_back.value(), back.value(), &ignored)
                            : Status(back.error());
    if (!fits.ok()) {
      std::fprintf(stderr, "md5stage convert: the written animation does not read back: %s\n",
                   fits.error().ToString().c_str());
      return 1;
    }
    anim_files.emplace_back(path, std::move(text));
  }
  // The materials' images as they are, and an .mtr naming them that must parse back too.
  const std::string materials_text = convert::WriteImportedMaterials(imported);
  const std::string materials_path = (out / (md5::FileStemOf(input) + ".mtr")).string();
  if (!materials_text.empty()) {
    auto decl = material::ParseDeclFile(materials_path, materials_text);
    if (!decl.ok() || decl.value().materials.size() != imported.materials.size()) {
      std::fprintf(stderr, "md5stage convert: the written materials do not read back: %s\n",
                   decl.ok() ? "a material is missing" : decl.error().ToString().c_str());
      return 1;
    }
  }
  if (!WriteBytes(mesh_path, mesh_text)) return 1;
  const md5::MeshFile& mesh = imported.mesh;
  std::printf("%s: %zu mesh parts, %zu joints, %d vertices, %d triangles\n", mesh_path.c_str(),
              mesh.meshes.size(), mesh.joints.size(), mesh.vertex_count(), mesh.triangle_count());
  for (std::size_t i = 0; i < anim_files.size(); ++i) {
    if (!WriteBytes(anim_files[i].first, anim_files[i].second)) return 1;
    const md5::AnimFile& anim = imported.animations[i].file;
    std::printf("%s: %d frames at %g fps, %d animated components\n", anim_files[i].first.c_str(),
                anim.frame_count, anim.frame_rate, anim.animated_component_count);
  }
  for (const convert::ImportedImage& image : imported.images) {
    const std::string path = (out / image.file_name).string();
    if (!WriteBytes(path, image.bytes)) return 1;
    std::printf("%s: %zu bytes\n", path.c_str(), image.bytes.size());
  }
  if (!materials_text.empty()) {
    if (!WriteBytes(materials_path, materials_text)) return 1;
    std::printf("%s: %zu materials\n", materials_path.c_str(), imported.materials.size());
  }
  return 0;
}

static CommandRegistrar reg{{"convert", "convert IN.glb|IN.gltf -o DIR [--fps N]", &RunConvert}};

}  // namespace
}  // namespace md5stage::cli
