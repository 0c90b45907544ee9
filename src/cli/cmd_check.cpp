// `md5stage check MESH ANIM...`: does each anim fit the mesh (joint count and parents; differing
// names only warn)? Also reports how far the 4-influence GPU path strays over each anim's frames.
// `md5stage check MESH --materials DIR [--skin NAME] [--json]`: which images each mesh part
// resolves to through the folder's material decls (see cli/decl_cli.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_files.h"
#include "cli/command_registry.h"
#include "cli/decl_cli.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

// Worst GPU-path error over every frame of the animation.
void ReportGpuError(const anim::Model& model, const anim::Animation& animation) {
  const anim::AnimationSkinningError error = anim::MeasureGpuSkinningError(model, animation);
  const anim::SkinningError& worst = error.worst;
  if (error.frame >= 0) {
    std::printf(
        "  GPU path (4 weights per vertex): worst vertex error %.6g units (mesh %d, vert "
        "%d, frame %d)\n",
        worst.distance, worst.mesh, worst.vertex, error.frame);
  }
}

constexpr const char* kUsage =
    "usage: md5stage check MESH ANIM...\n"
    "       md5stage check MESH --materials DIR [--skin NAME] [--json]\n";

int RunCheck(const std::vector<std::string>& args) {
  MaterialCheckOptions materials;
  bool with_materials = false;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--materials" || arg == "--skin") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "md5stage check: %s: expected a value, found nothing\n%s", arg.c_str(),
                     kUsage);
        return 2;
      }
      (arg == "--materials" ? materials.folder : materials.skin) = args[++i];
      with_materials |= arg == "--materials";
    } else if (arg == "--json") {
      materials.json = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "md5stage check: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    } else {
      positional.push_back(arg);
    }
  }
  if (with_materials) {
    if (positional.size() != 1) {
      std::fprintf(stderr, "md5stage check: --materials: expected one MESH, found %zu files\n%s",
                   positional.size(), kUsage);
      return 2;
    }
    materials.mesh = positional[0];
    return RunMaterialCheck(materials);
  }
  if (!materials.skin.empty() || materials.json) {
    std::fprintf(stderr, "md5stage check: --skin and --json need --materials DIR\n%s", kUsage);
    return 2;
  }
  if (positional.size() < 2) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  const std::vector<std::string>& files = positional;
  Result<std::string> mesh_bytes = md5::ReadFileBytes(files[0]);
  if (!mesh_bytes.ok()) {
    std::fprintf(stderr, "%s\n", mesh_bytes.error().ToString().c_str());
    return 1;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(files[0], mesh_bytes.value());
  if (!mesh.ok()) {
    std::fprintf(stderr, "%s\n", mesh.error().ToString().c_str());
    return 1;
  }
  PrintDiagnostics(mesh.value().warnings);
  const bool report_gpu_error = mesh.value().max_weights_per_vertex() > 4;
  const std::shared_ptr<const anim::Model> model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh.value()));
  bool all_fit = true;
  for (std::size_t i = 1; i < files.size(); ++i) {
    Result<std::string> bytes = md5::ReadFileBytes(files[i]);
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s\n", bytes.error().ToString().c_str());
      all_fit = false;
      continue;
    }
    Result<md5::AnimFile> parsed = md5::ParseMd5Anim(files[i], bytes.value());
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
      all_fit = false;
      continue;
    }
    PrintDiagnostics(parsed.value().warnings);
    std::vector<Diagnostic> warnings;
    const Status fits = md5::CheckAnimFitsMesh(mesh.value(), parsed.value(), &warnings);
    PrintDiagnostics(warnings);
    if (!fits.ok()) {
      std::fprintf(stderr, "%s\n", fits.error().ToString().c_str());
      all_fit = false;
      continue;
    }
    std::printf("%s: fits %s (%d joints, %d frames)\n", files[i].c_str(), files[0].c_str(),
                parsed.value().joint_count, parsed.value().frame_count);
    if (report_gpu_error) {
      const anim::Animation animation = anim::Animation::FromAnimFile(
          std::make_shared<const md5::AnimFile>(std::move(parsed).value()));
      ReportGpuError(*model, animation);
    }
  }
  return all_fit ? 0 : 1;
}

static CommandRegistrar reg{
    {"check", "check MESH ANIM... | check MESH --materials DIR [--skin NAME] [--json]", &RunCheck}};

}  // namespace
}  // namespace md5stage::cli
