// libFuzzer harness: bytes -> ParseSkinFile (.skin: Doom 3 `skin NAME { model M  FROM TO }` decls
// and Quake-style `surface,image` lines), then every skin applied to the shaders it names and
// resolved as the viewer's setSkin does. Invariants: a failure carries a located message in the
// file given; Remap gives a shader the skin names or the shader itself; resolution gives one
// answer per mesh part.
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Result<DeclFile> file = ParseSkinFile("fuzz.skin", bytes);
  if (!file.ok()) {
    FUZZ_CHECK(file.error().file == "fuzz.skin");
    FUZZ_CHECK(!file.error().message.empty());
    FUZZ_CHECK(file.error().severity == Diagnostic::Severity::kError);
    return 0;
  }
  for (const Diagnostic& w : file.value().warnings) {
    FUZZ_CHECK(w.severity == Diagnostic::Severity::kWarning);
    FUZZ_CHECK(w.file == "fuzz.skin" && w.line > 0);
  }
  // The same bytes read through the extension dispatcher give the same skins.
  const Result<DeclFile> by_name = ParseDeclFile("fuzz.skin", bytes);
  FUZZ_CHECK(by_name.ok() && by_name.value().skins.size() == file.value().skins.size());

  const std::vector<std::string> paths = {"models/x/a.tga", "a_local.png", "textures/b_d.jpg"};
  const ImageIndex images(paths);
  const MaterialTable table({&file.value()});
  for (const Skin& skin : file.value().skins) {
    FUZZ_CHECK(skin.file == "fuzz.skin");
    ResolveInput input;
    input.materials = &table;
    input.images = &images;
    input.model_name = "a";
    input.shaders = {"", "a", "models/x/a"};
    for (const SkinRemap& remap : skin.remaps) {
      input.shaders.push_back(remap.from);
      const std::string to = skin.Remap(remap.from);
      bool named = to == remap.from;
      for (const SkinRemap& other : skin.remaps) named = named || to == other.to;
      FUZZ_CHECK(named);
    }
    (void)skin.IsFor("models/x/a.md5mesh");
    input.skin = &skin;
    const Result<ResolveOutput> out = ResolveMaterials(input);
    FUZZ_CHECK(out.ok());
    FUZZ_CHECK(out.value().parts.size() == input.shaders.size());
    if (skin.remaps.size() > 64) break;  // one large skin is enough per input
  }
  return 0;
}
