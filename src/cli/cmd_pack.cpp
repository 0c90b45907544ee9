// `md5stage pack MESH.md5mesh [-o OUT.md5pack]`: the mesh's compact form (core/md5/mesh_pack.h)
// beside it, for a figure's `mesh-pack` attribute; the text's warnings are printed, and the pack
// is read back and compared with the text before it is written.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_files.h"
#include "cli/command_registry.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"
#include "core/md5/mesh_pack.h"

namespace md5stage::cli {
namespace {

const char kUsage[] = "usage: md5stage pack MESH.md5mesh [-o OUT.md5pack]\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "md5stage pack: %s\n%s", message.c_str(), kUsage);
  return 2;
}

// MESH.md5mesh -> MESH.md5pack (any other name gains .md5pack).
std::string DefaultOutput(const std::string& mesh_path) {
  const std::string suffix = ".md5mesh";
  if (mesh_path.size() > suffix.size() &&
      mesh_path.compare(mesh_path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return mesh_path.substr(0, mesh_path.size() - suffix.size()) + ".md5pack";
  }
  return mesh_path + ".md5pack";
}

int RunPack(const std::vector<std::string>& args) {
  std::string mesh_path, out_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o") {
      if (i + 1 >= args.size()) return UsageError("-o needs a file name");
      out_path = args[++i];
    } else if (!args[i].empty() && args[i][0] == '-') {
      return UsageError("unknown option '" + args[i] + "'");
    } else if (mesh_path.empty()) {
      mesh_path = args[i];
    } else {
      return UsageError("one mesh at a time, found a second: '" + args[i] + "'");
    }
  }
  if (mesh_path.empty()) return UsageError("MESH.md5mesh is missing");
  if (out_path.empty()) out_path = DefaultOutput(mesh_path);
  Result<std::string> text = md5::ReadFileBytes(mesh_path);
  if (!text.ok()) {
    std::fprintf(stderr, "%s\n", text.error().ToString().c_str());
    return 1;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(mesh_path, text.value());
  if (!mesh.ok()) {
    std::fprintf(stderr, "%s\n", mesh.error().ToString().c_str());
    return 1;
  }
  PrintDiagnostics(mesh.value().warnings);
  Result<std::string> pack = md5::EncodeMeshPack(mesh.value());
  if (!pack.ok()) {
    std::fprintf(stderr, "%s\n", pack.error().ToString().c_str());
    return 1;
  }
  Result<md5::MeshFile> back = md5::DecodeMeshPack(out_path, pack.value());
  if (!back.ok()) {  // a packer bug: the pack is not written
    std::fprintf(stderr, "%s\n", back.error().ToString().c_str());
    return 1;
  }
  if (!WriteBytes(out_path, pack.value())) return 1;
  std::printf("%s: %zu bytes (the text: %zu)\n", out_path.c_str(), pack.value().size(),
              text.value().size());
  return 0;
}

const CommandRegistrar kRegistrar{{"pack", "pack MESH.md5mesh [-o OUT.md5pack]", &RunPack}};

}  // namespace
}  // namespace md5stage::cli
