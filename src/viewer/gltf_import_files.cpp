// The viewer's glTF import: dropped .glb/.gltf files become MD5 files of the same batch
// (core/convert). Left out of the lean figures build, which links gltf_absent.cpp instead.
#include "core/convert/gltf_import.h"
#include "core/md5/md5_writer.h"
#include "viewer/gltf_bridge.h"

namespace md5stage::viewer {

// A .glb/.gltf of the batch becomes "<name>.md5mesh" and "<anim>.md5anim" files that then load
// like dropped ones, so everything downstream stays one path. A .gltf's buffers and images are
// looked up among the batch by their URI, then by base name (a drop has no folders). On an
// error the glTF adds nothing (and the batch's other files still load).
void ImportGltfFiles(std::vector<InputFile>& files, LoadReport& report) {
  std::vector<InputFile> imported;
  for (const InputFile& file : files) {
    const std::string extension = FileExtension(file.name);
    if (extension != "glb" && extension != "gltf") continue;
    const convert::GltfFileLookup lookup = [&files](const std::string& uri) -> const std::string* {
      for (const InputFile& other : files) {
        if (other.name == uri) return &other.bytes;
      }
      const std::string base = FileStem(uri) + "." + FileExtension(uri);
      for (const InputFile& other : files) {
        if (FileStem(other.name) + "." + FileExtension(other.name) == base) return &other.bytes;
      }
      return nullptr;
    };
    convert::GltfImportOutput output;
    std::vector<Diagnostic> warnings;
    convert::GltfImportJob job;
    job.file_name = file.name;
    job.bytes = file.bytes;
    job.files = lookup;
    job.output = &output;
    job.warnings = &warnings;
    const Status done = job.Run();
    if (!done.ok()) {
      report.errors.push_back(done.error().ToString());
      continue;
    }
    for (const Diagnostic& warning : warnings) report.warnings.push_back(warning.ToString());
    imported.push_back(
        {FileStem(file.name) + ".md5mesh", md5::WriteMd5Mesh(output.mesh), file.source});
    for (const convert::ImportedAnimation& animation : output.animations) {
      imported.push_back(
          {animation.name + ".md5anim", md5::WriteMd5Anim(animation.file), file.source});
    }
    // Its materials' images and the .mtr naming them: resolved as a dropped folder's are.
    for (convert::ImportedImage& image : output.images) {
      imported.push_back({image.file_name, std::move(image.bytes), file.source});
    }
    const std::string materials = convert::WriteImportedMaterials(output);
    if (!materials.empty()) {
      // "local": a scene refetches the glTF itself, never this decl made from it.
      imported.push_back({FileStem(file.name) + ".mtr", materials, "local"});
    }
  }
  if (imported.empty()) return;
  // Meshes and anims first: a batch's anims bind to its meshes, so the import's order is kept.
  for (InputFile& file : imported) files.push_back(std::move(file));
}

}  // namespace md5stage::viewer
