// libFuzzer harness: bytes -> the material decl parser (.mtr) and the skin parser (.skin), then
// resolution of every material and skin against a few image paths. Invariants: a failure carries
// a located message in the file given; image programs stay within the depth limit; resolution
// gives one answer per shader, and a found image is one of the paths given.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/material/material_parser.h"
#include "core/material/material_resolve.h"
#include "fuzz_util.h"

using namespace md5stage;
using namespace md5stage::material;

namespace {

int Depth(const ImageProgram& program) {
  int deepest = 0;
  for (const ImageProgram& arg : program.args) deepest = std::max(deepest, Depth(arg));
  return deepest + 1;
}

void CheckFile(const Result<DeclFile>& file, const char* name, const DeclLimits& limits) {
  if (!file.ok()) {
    FUZZ_CHECK(file.error().file == name);
    FUZZ_CHECK(!file.error().message.empty());
    FUZZ_CHECK(file.error().severity == Diagnostic::Severity::kError);
    return;
  }
  for (const Material& m : file.value().materials) {
    for (const Stage& s : m.stages) {
      FUZZ_CHECK(Depth(s.image) <= limits.max_program_depth + 1);
    }
  }
  for (const Diagnostic& w : file.value().warnings) {
    FUZZ_CHECK(w.severity == Diagnostic::Severity::kWarning);
    FUZZ_CHECK(w.line > 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  DeclLimits limits;
  limits.max_token_bytes = 256;
  limits.max_brace_depth = 8;
  limits.max_program_depth = 6;
  const Result<DeclFile> mtr = ParseMaterialFile("fuzz.mtr", bytes, limits);
  CheckFile(mtr, "fuzz.mtr", limits);
  const Result<DeclFile> skin = ParseSkinFile("fuzz.skin", bytes, limits);
  CheckFile(skin, "fuzz.skin", limits);
  // Parsing is deterministic.
  const Result<DeclFile> again = ParseMaterialFile("fuzz.mtr", bytes, limits);
  FUZZ_CHECK(again.ok() == mtr.ok());
  if (mtr.ok()) FUZZ_CHECK(again.value().materials.size() == mtr.value().materials.size());

  const std::vector<std::string> paths = {"models/x/a.tga", "a_local.png", "textures/b_d.jpg",
                                          "readme.txt"};
  const ImageIndex images(paths);
  std::vector<const DeclFile*> files;
  if (mtr.ok()) files.push_back(&mtr.value());
  if (skin.ok()) files.push_back(&skin.value());
  const MaterialTable table(files);
  ResolveInput input;
  input.materials = &table;
  input.images = &images;
  input.model_name = "a";
  input.shaders = {"", "a", "models/x/a"};
  for (const DeclFile* file : files) {
    for (const Material& m : file->materials) input.shaders.push_back(m.name);
    for (const Skin& s : file->skins) {
      for (const SkinRemap& r : s.remaps) input.shaders.push_back(r.from);
    }
  }
  std::vector<const Skin*> skins = {nullptr};
  if (skin.ok() && !skin.value().skins.empty()) skins.push_back(&skin.value().skins[0]);
  for (const Skin* s : skins) {
    input.skin = s;
    const Result<ResolveOutput> out = ResolveMaterials(input);
    FUZZ_CHECK(out.ok());
    FUZZ_CHECK(out.value().parts.size() == input.shaders.size());
    for (const PartResolution& part : out.value().parts) {
      for (const ResolvedMap& map : part.maps) {
        for (const ImageLookup& image : map.images) {
          if (image.file >= 0) {
            FUZZ_CHECK(image.file < static_cast<int>(paths.size()));
            FUZZ_CHECK(image.path == paths[static_cast<std::size_t>(image.file)]);
          }
        }
      }
    }
  }
  return 0;
}
