// libFuzzer harness: a .glb or .gltf with its files -> GltfImportJob (the entry `md5stage convert`
// and the viewer's drop use), then what the viewer does with the result: the md5mesh and md5anims
// written and parsed back. Invariants: a failure is an error naming the file; a success writes
// files the MD5 parser reads, and materials name images that exist.
//
// Input: MAIN [SEPARATOR NAME '\n' BYTES]... with SEPARATOR "\n--file:": the glTF, then the files
// it may name (looked up by URI, as the viewer looks among the dropped files).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/convert/gltf_import.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"
#include "fuzz_util.h"

using namespace md5stage;

namespace {

constexpr std::string_view kSeparator = "\n--file:";

struct NamedFile {
  std::string name;
  std::string bytes;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t end = input.find(kSeparator);
  const std::string main(input.substr(0, end));
  std::vector<NamedFile> files;
  while (end != std::string_view::npos && files.size() < 8) {
    const std::size_t start = end + kSeparator.size();
    end = input.find(kSeparator, start);
    const std::string_view part =
        input.substr(start, end == std::string_view::npos ? end : end - start);
    const std::size_t newline = part.find('\n');
    if (newline == std::string_view::npos) break;
    files.push_back({std::string(part.substr(0, newline)), std::string(part.substr(newline + 1))});
  }
  const bool binary = main.size() >= 4 && main.compare(0, 4, "glTF") == 0;
  const std::string file_name = binary ? "fuzz.glb" : "fuzz.gltf";

  convert::GltfImportOutput output;
  std::vector<Diagnostic> warnings;
  convert::GltfImportJob job;
  job.file_name = file_name;
  job.bytes = main;
  job.files = [&files](const std::string& uri) -> const std::string* {
    for (const NamedFile& file : files) {
      if (file.name == uri) return &file.bytes;
    }
    return nullptr;
  };
  job.options.limits.max_file_bytes = std::size_t{1} << 24;
  job.output = &output;
  job.warnings = &warnings;
  const Status done = job.Run();
  for (const Diagnostic& warning : warnings) {
    FUZZ_CHECK(warning.severity == Diagnostic::Severity::kWarning);
  }
  if (!done.ok()) {
    FUZZ_CHECK(done.error().file == file_name);
    FUZZ_CHECK(!done.error().message.empty());
    FUZZ_CHECK(done.error().severity == Diagnostic::Severity::kError);
    return 0;
  }
  // What the viewer and `convert` do next: write the files, and (the viewer) read them back.
  const std::string mesh_text = md5::WriteMd5Mesh(output.mesh);
  const Result<md5::MeshFile> mesh = md5::ParseMd5Mesh("fuzz.md5mesh", mesh_text);
  if (!mesh.ok()) std::fprintf(stderr, "%s\n", mesh.error().ToString().c_str());
  FUZZ_CHECK(mesh.ok());
  FUZZ_CHECK(mesh.value().joints.size() == output.mesh.joints.size());
  FUZZ_CHECK(mesh.value().meshes.size() == output.mesh.meshes.size());
  for (const convert::ImportedAnimation& animation : output.animations) {
    FUZZ_CHECK(!animation.name.empty());
    const std::string anim_text = md5::WriteMd5Anim(animation.file);
    const Result<md5::AnimFile> anim = md5::ParseMd5Anim("fuzz.md5anim", anim_text);
    if (!anim.ok()) std::fprintf(stderr, "%s\n", anim.error().ToString().c_str());
    FUZZ_CHECK(anim.ok());
    FUZZ_CHECK(anim.value().frame_count == animation.file.frame_count);
    FUZZ_CHECK(anim.value().joint_count == static_cast<int>(output.mesh.joints.size()));
  }
  const int images = static_cast<int>(output.images.size());
  for (const convert::ImportedImage& image : output.images) {
    FUZZ_CHECK(!image.file_name.empty() && image.file_name.find('/') == std::string::npos);
  }
  for (const convert::ImportedMaterial& material : output.materials) {
    FUZZ_CHECK(!material.name.empty());
    for (int index : {material.diffuse_image, material.normal_image, material.specular_image}) {
      FUZZ_CHECK(index >= -1 && index < images);
    }
  }
  (void)convert::WriteImportedMaterials(output);
  return 0;
}
