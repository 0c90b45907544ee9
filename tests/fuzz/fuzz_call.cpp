// libFuzzer harness: the page's command dispatcher. Each line of the input is one command's JSON
// (what md5stage_call hands over), given to a fresh Stage that has a small model ("walker", two
// joints, with a "walk" anim and an image) loaded; a frame runs between commands. Invariants:
// every reply is an object with a bool "ok" (the data commands' - state, clock, sceneJson - are
// objects without it, getRoutes' an array), a failure names what is wrong in "error"; replies
// and the state are JSON that reads back; the renderer is never asked to free what it did not
// make.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "core/common/json.h"
#include "fuzz_util.h"
#include "viewer/render_interface.h"
#include "viewer/stage.h"

using namespace md5stage;
using namespace md5stage::viewer;

namespace {

std::string ReadSeed(const char* relative) {
  std::ifstream in(std::string(MD5STAGE_FUZZ_SEEDS) + "/" + relative, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const std::string& Mesh() {
  static const std::string bytes = ReadSeed("md5mesh/two_joints.md5mesh");
  return bytes;
}
const std::string& Anim() {
  static const std::string bytes = ReadSeed("md5anim/two_joints.md5anim");
  return bytes;
}
// A 2 x 2 TGA (uncompressed, 32-bit) for the model's "skin" shader.
const std::string& Image() {
  static const std::string bytes = [] {
    std::string tga(18, '\0');
    tga[2] = 2, tga[12] = 2, tga[14] = 2, tga[16] = 32, tga[17] = 0x28;
    tga += std::string(16, '\x7f');
    return tga;
  }();
  return bytes;
}

void CheckReply(const JsonValue& reply) {
  FUZZ_CHECK(reply.is_object() || reply.is_array());
  const JsonValue* ok = reply.is_object() ? reply.Find("ok") : nullptr;
  FUZZ_CHECK(ok == nullptr || ok->is_bool());
  if (ok != nullptr && !ok->as_bool()) {
    const JsonValue* error = reply.Find("error");
    FUZZ_CHECK(error != nullptr && error->is_string() && !error->as_string().empty());
  }
  const std::string text = WriteJson(reply);
  const Result<JsonValue> back = ParseJson("reply", text, JsonLimits{std::size_t{256} << 20, 256});
  if (!back.ok()) std::fprintf(stderr, "%s\n", back.error().ToString().c_str());
  FUZZ_CHECK(back.ok());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (Mesh().empty() || Anim().empty()) {
    std::fprintf(stderr, "fuzz_call: the seed model is missing under %s\n", MD5STAGE_FUZZ_SEEDS);
    std::abort();
  }
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  NullRenderBackend backend;
  {
    Stage viewer(&backend, nullptr);
    viewer.SetViewport(320, 240, 1.0f);
    viewer.QueueFile({"walker.md5mesh", Mesh(), "local"});
    viewer.QueueFile({"walk.md5anim", Anim(), "local"});
    viewer.QueueFile({"skin.tga", Image(), "local"});
    CheckReply(viewer.LoadQueuedFiles());
    std::size_t start = 0;
    for (int command = 0; command < 16 && start <= input.size(); ++command) {
      std::size_t end = input.find('\n', start);
      if (end == std::string_view::npos) end = input.size();
      const Result<JsonValue> parsed = ParseJson("command", input.substr(start, end - start));
      start = end + 1;
      if (!parsed.ok()) continue;
      CheckReply(viewer.Call(parsed.value()));
      viewer.Update(1.0 / 30.0);
      DrawList list;
      viewer.BuildDrawList(&list);
      viewer.EndFrame();
    }
    const JsonValue state = viewer.State();
    FUZZ_CHECK(state.is_object());
    FUZZ_CHECK(ParseJson("state", WriteJson(state), JsonLimits{std::size_t{256} << 20, 256}).ok());
    (void)viewer.BuildViewerModel();
  }
  FUZZ_CHECK(backend.bad_destroys() == 0);
  FUZZ_CHECK(backend.live_meshes() >= 0 && backend.live_textures() >= 0);
  return 0;
}
