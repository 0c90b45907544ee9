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

#include "cli/cli_files.h"
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

// What `convert` was asked for.
struct ConvertOptions {
  std::string input;       // a .glb or .gltf file
  std::string output_dir;  // -o
  float fps = 0.0f;        // --fps (0: the importer's default)
};

// The options from the arguments: 0, or the usage error's exit code.
int ParseConvertArguments(const std::vector<std::string>& args, ConvertOptions* options) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-o" || arg == "--output") {
      if (i + 1 >= args.size()) return UsageError("-o: expected a folder, found nothing");
      options->output_dir = args[++i];
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
      options->fps = static_cast<float>(value);
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
  if (options->output_dir.empty()) return UsageError("-o: expected a folder, found nothing");
  options->input = positional[0];
  const std::string ext = LowerExtension(options->input);
  if (ext != ".glb" && ext != ".gltf") {
    return UsageError("IN: expected a name ending in .glb or .gltf, found '" + options->input +
                      "'");
  }
  return 0;
}

// A .gltf's buffers, from its folder: relative names only, never above it; each read once.
class FolderFiles {
 public:
  explicit FolderFiles(std::filesystem::path folder) : folder_(std::move(folder)) {}

  const std::string* Find(const std::string& uri) {
    const std::filesystem::path relative(uri);
    if (relative.is_absolute()) return nullptr;
    for (const auto& part : relative) {
      if (part == "..") return nullptr;
    }
    auto it = loaded_.find(uri);
    if (it == loaded_.end()) {
      Result<std::string> file = md5::ReadFileBytes((folder_ / relative).string());
      it = loaded_
               .emplace(uri, file.ok() ? std::make_unique<std::string>(std::move(file).value())
                                       : nullptr)
               .first;
    }
    return it->second.get();
  }

 private:
  std::filesystem::path folder_;
  std::map<std::string, std::unique_ptr<std::string>> loaded_;
};

// The input imported (its warnings printed): whether it was.
bool ImportGltf(const ConvertOptions& options, convert::GltfImportOutput* imported) {
  Result<std::string> bytes = md5::ReadFileBytes(options.input);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
    return false;
  }
  FolderFiles files(std::filesystem::path(options.input).parent_path());
  std::vector<Diagnostic> warnings;
  convert::GltfImportJob job;
  job.file_name = options.input;
  job.bytes = bytes.value();
  job.files = [&files](const std::string& uri) { return files.Find(uri); };
  job.options.fps = options.fps;
  job.output = imported;
  job.warnings = &warnings;
  const Status done = job.Run();
  for (const Diagnostic& d : warnings) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  if (!done.ok()) {
    std::fprintf(stderr, "%s\n", done.error().ToString().c_str());
    return false;
  }
  return true;
}

bool CreateOutputFolder(const std::string& output_dir) {
  std::error_code error;
  std::filesystem::create_directories(output_dir, error);
  if (error || !std::filesystem::is_directory(output_dir)) {
    std::fprintf(stderr, "%s: error: cannot create folder: %s\n", output_dir.c_str(),
                 error.message().c_str());
    return false;
  }
  return true;
}

// The texts `convert` writes, each already parsed back (and the animations bound to the mesh).
struct ConvertedFiles {
  std::string mesh_path, mesh_text;
  std::vector<std::pair<std::string, std::string>> anims;  // (path, text)
  std::string materials_path, materials_text;              // no text: no materials
};

// The imported asset as texts, each parsed back: whether all read back (else which did not is
// printed).
bool PrepareCheckedFiles(const ConvertOptions& options, const convert::GltfImportOutput& imported,
                         ConvertedFiles* files) {
  const std::filesystem::path out(options.output_dir);
  files->mesh_path = (out / (md5::FileStemOf(options.input) + ".md5mesh")).string();
  files->mesh_text = md5::WriteMd5Mesh(imported.mesh);
  Result<md5::MeshFile> mesh_back = md5::ParseMd5Mesh(files->mesh_path, files->mesh_text);
  if (!mesh_back.ok()) {
    std::fprintf(stderr, "md5stage convert: the written mesh does not read back: %s\n",
                 mesh_back.error().ToString().c_str());
    return false;
  }
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
      return false;
    }
    files->anims.emplace_back(path, std::move(text));
  }
  // The materials' images as they are, and an .mtr naming them that must parse back too.
  files->materials_text = convert::WriteImportedMaterials(imported);
  files->materials_path = (out / (md5::FileStemOf(options.input) + ".mtr")).string();
  if (!files->materials_text.empty()) {
    auto decl = material::ParseDeclFile(files->materials_path, files->materials_text);
    if (!decl.ok() || decl.value().materials.size() != imported.materials.size()) {
      std::fprintf(stderr, "md5stage convert: the written materials do not read back: %s\n",
                   decl.ok() ? "a material is missing" : decl.error().ToString().c_str());
      return false;
    }
  }
  return true;
}

// Every file written, a line each on what it holds: whether all were.
bool WriteFiles(const ConvertOptions& options, const convert::GltfImportOutput& imported,
                const ConvertedFiles& files) {
  if (!WriteBytes(files.mesh_path, files.mesh_text)) return false;
  const md5::MeshFile& mesh = imported.mesh;
  std::printf("%s: %zu mesh parts, %zu joints, %d vertices, %d triangles\n",
              files.mesh_path.c_str(), mesh.meshes.size(), mesh.joints.size(), mesh.vertex_count(),
              mesh.triangle_count());
  for (std::size_t i = 0; i < files.anims.size(); ++i) {
    if (!WriteBytes(files.anims[i].first, files.anims[i].second)) return false;
    const md5::AnimFile& anim = imported.animations[i].file;
    std::printf("%s: %d frames at %g fps, %d animated components\n", files.anims[i].first.c_str(),
                anim.frame_count, anim.frame_rate, anim.animated_component_count);
  }
  const std::filesystem::path out(options.output_dir);
  for (const convert::ImportedImage& image : imported.images) {
    const std::string path = (out / image.file_name).string();
    if (!WriteBytes(path, image.bytes)) return false;
    std::printf("%s: %zu bytes\n", path.c_str(), image.bytes.size());
  }
  if (!files.materials_text.empty()) {
    if (!WriteBytes(files.materials_path, files.materials_text)) return false;
    std::printf("%s: %zu materials\n", files.materials_path.c_str(), imported.materials.size());
  }
  return true;
}

// Everything is written only once every file has parsed back and bound to the mesh.
int RunConvert(const std::vector<std::string>& args) {
  ConvertOptions options;
  if (const int usage = ParseConvertArguments(args, &options); usage != 0) return usage;
  convert::GltfImportOutput imported;
  if (!ImportGltf(options, &imported)) return 1;
  if (!CreateOutputFolder(options.output_dir)) return 1;
  ConvertedFiles files;
  if (!PrepareCheckedFiles(options, imported, &files)) return 1;
  return WriteFiles(options, imported, files) ? 0 : 1;
}

static CommandRegistrar reg{{"convert", "convert IN.glb|IN.gltf -o DIR [--fps N]", &RunConvert}};

}  // namespace
}  // namespace md5stage::cli
