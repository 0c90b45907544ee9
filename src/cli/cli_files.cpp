#include "cli/cli_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {

void PrintDiagnostics(const std::vector<Diagnostic>& diagnostics) {
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

std::shared_ptr<const anim::Model> LoadMeshModel(const std::string& mesh_path) {
  Result<std::string> mesh_bytes = md5::ReadFileBytes(mesh_path);
  if (!mesh_bytes.ok()) {
    std::fprintf(stderr, "%s\n", mesh_bytes.error().ToString().c_str());
    return nullptr;
  }
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(mesh_path, mesh_bytes.value());
  if (!mesh.ok()) {
    std::fprintf(stderr, "%s\n", mesh.error().ToString().c_str());
    return nullptr;
  }
  PrintDiagnostics(mesh.value().warnings);
  return anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
}

}  // namespace md5stage::cli
