// `md5stage export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf`: the model and its
// animations as glTF 2.0 (core/convert), with each part's diffuse image from the mesh's folder
// embedded when it is PNG or JPEG.
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

#include "cli/command_registry.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/convert/gltf_export.h"
#include "core/material/material_resolve.h"
#include "core/md5/file_reader.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

const char kUsage[] =
    "usage: md5stage export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf\n";

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

void Print(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics) std::fprintf(stderr, "%s\n", d.ToString().c_str());
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

// The image files in the mesh's folder, by name (sorted, so the match is the same everywhere).
std::vector<std::string> ImagesBeside(const std::string& mesh_path) {
  std::vector<std::string> images;
  std::filesystem::path folder = std::filesystem::path(mesh_path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    const std::string ext = Extension(it->path().filename().string());
    if (ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "tga" || ext == "bmp") {
      images.push_back(it->path().string());
    }
  }
  std::sort(images.begin(), images.end());
  return images;
}

int RunExport(const std::vector<std::string>& args) {
  std::string output_path;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-o" || arg == "--output") {
      if (i + 1 >= args.size())
        return UsageError("-o: expected OUT.glb or OUT.gltf, found nothing");
      output_path = args[++i];
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) return UsageError("MESH: expected an .md5mesh file, found nothing");
  if (output_path.empty()) return UsageError("-o: expected OUT.glb or OUT.gltf, found nothing");
  const std::string output_ext = Extension(output_path);
  if (output_ext != "glb" && output_ext != "gltf") {
    return UsageError("-o: expected a name ending in .glb or .gltf, found '" + output_path + "'");
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

  const std::string& mesh_path = positional[0];
  Result<std::string> mesh_bytes = md5::ReadFileBytes(mesh_path);
  if (!mesh_bytes.ok()) {
    std::fprintf(stderr, "%s\n", mesh_bytes.error().ToString().c_str());
    return 1;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(mesh_path, mesh_bytes.value());
  if (!mesh.ok()) {
    std::fprintf(stderr, "%s\n", mesh.error().ToString().c_str());
    return 1;
  }
  Print(mesh.value().warnings);
  const std::shared_ptr<const anim::Model> model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));

  std::vector<anim::Animation> animations;
  std::vector<convert::ExportAnimation> exports;
  animations.reserve(positional.size());
  for (std::size_t i = 1; i < positional.size(); ++i) {
    Result<std::string> bytes = md5::ReadFileBytes(positional[i]);
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
      return 1;
    }
    Result<md5::AnimFile> parsed = md5::ParseMd5Anim(positional[i], bytes.value());
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
      return 1;
    }
    std::vector<Diagnostic> warnings = parsed.value().warnings;
    const Status fits = md5::CheckAnimFitsMesh(model->source(), parsed.value(), &warnings);
    Print(warnings);
    if (!fits.ok()) {
      std::fprintf(stderr, "%s\n", fits.error().ToString().c_str());
      return 1;
    }
    animations.push_back(anim::Animation::FromAnimFile(
        std::make_shared<const md5::AnimFile>(std::move(parsed).value())));
  }
  for (std::size_t i = 0; i < animations.size(); ++i) {
    exports.push_back({&animations[i], md5::FileStemOf(positional[i + 1])});
  }

  // Diffuse images by the viewer's rule, read once each.
  const std::vector<std::string> image_paths = ImagesBeside(mesh_path);
  const material::ImageIndex image_index(image_paths);
  const std::string model_stem = md5::FileStemOf(mesh_path);
  std::vector<int> part_images(static_cast<std::size_t>(model->mesh_count()), -1);
  std::vector<int> image_of_path(image_paths.size(), -1);
  std::vector<std::string> image_bytes;
  std::vector<convert::ExportImage> images;
  image_bytes.reserve(image_paths.size());
  for (int m = 0; m < model->mesh_count(); ++m) {
    const int found = material::GuessImage(image_index, model->mesh(m).shader, model_stem,
                                           material::MapKind::kDiffuse)
                          .file;
    if (found < 0) continue;
    const std::string& path = image_paths[static_cast<std::size_t>(found)];
    const std::string ext = Extension(path);
    if (ext != "png" && ext != "jpg" && ext != "jpeg") {
      std::fprintf(stderr,
                   "%s: warning: the diffuse image of mesh %d is not embedded: glTF takes PNG or "
                   "JPEG, found .%s\n",
                   path.c_str(), m, ext.c_str());
      continue;
    }
    int& index = image_of_path[static_cast<std::size_t>(found)];
    if (index < 0) {
      Result<std::string> bytes = md5::ReadFileBytes(path);
      if (!bytes.ok()) {
        std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
        return 1;
      }
      image_bytes.push_back(std::move(bytes).value());
      index = static_cast<int>(images.size());
      images.push_back(
          {md5::FileStemOf(path) + "." + ext, ext == "png" ? "image/png" : "image/jpeg", nullptr});
    }
    part_images[static_cast<std::size_t>(m)] = index;
  }
  for (std::size_t i = 0; i < images.size(); ++i) images[i].bytes = &image_bytes[i];

  const std::filesystem::path out(output_path);
  const std::string bin_name = out.stem().string() + ".bin";
  convert::GltfFiles files;
  std::vector<Diagnostic> warnings;
  convert::GltfExportJob job;
  job.model = model.get();
  job.animations = exports;
  job.images = images;
  job.part_images = part_images;
  job.container =
      output_ext == "glb" ? convert::GltfContainer::kGlb : convert::GltfContainer::kGltfSeparateBin;
  job.bin_uri = bin_name;
  job.output = &files;
  job.warnings = &warnings;
  const Status done = job.Run();
  Print(warnings);
  if (!done.ok()) {
    std::fprintf(stderr, "md5stage export: %s\n", done.error().ToString().c_str());
    return 1;
  }
  if (!WriteBytes(output_path, files.main)) return 1;
  std::size_t total = files.main.size();
  if (job.container == convert::GltfContainer::kGltfSeparateBin) {
    const std::string bin_path = (out.parent_path() / bin_name).string();
    if (!WriteBytes(bin_path, files.bin)) return 1;
    total += files.bin.size();
  }
  std::printf("%s: %d mesh parts, %d joints, %zu animations, %zu images, %zu bytes\n",
              output_path.c_str(), model->mesh_count(), model->skeleton().joint_count(),
              exports.size(), images.size(), total);
  return 0;
}

static CommandRegistrar reg{
    {"export", "export MESH.md5mesh [ANIM.md5anim ...] -o OUT.glb|OUT.gltf", &RunExport}};

}  // namespace
}  // namespace md5stage::cli
