// Headless smoke run of the viewer core: opens a scene file as the page does (Stage::OpenScene,
// its files and images fetched from the assets folder through the host), runs N frames with the
// null renderer (update, draw list), and fails on any error. ctest runs it on every demo scene, and
// once on a path that does not exist, which must fail.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "../folder_host.h"
#include "core/common/json.h"
#include "viewer/render_interface.h"
#include "viewer/stage_hub.h"

namespace {

bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream out;
  out << in.rdbuf();
  *bytes = out.str();
  return true;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "viewer_smoke: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using md5stage::JsonValue;
  if (argc < 3) return Fail("usage: md5stage_viewer_smoke ASSETS_DIR SCENE.json [FRAMES]");
  const std::string assets = argv[1];
  const std::string scene_path = argv[2];
  const int frames = argc > 3 ? std::atoi(argv[3]) : 120;
  std::string scene_text;
  if (!ReadFile(scene_path, &scene_text)) return Fail(scene_path + ": cannot open file");
  auto scene = md5stage::ParseJson(scene_path, scene_text);
  if (!scene.ok()) return Fail(scene.error().ToString());

  md5stage::viewer::NullRenderBackend backend;
  // The site is the folder that holds assets/: the URLs the stage asks for are "assets/...".
  const std::string site = assets.substr(0, assets.find_last_of('/') + 1) + ".";
  md5stage::viewer::test::FolderHost host(assets.find('/') == std::string::npos ? "." : site);
  md5stage::viewer::StageHub hub(&backend, &host);
  md5stage::viewer::Stage& viewer = hub.main();
  viewer.SetViewport(1280, 720, 1.0f);
  // The page's own path: the stage opens the scene, asking the host for every file and image.
  viewer.OpenScene(scene.value());
  host.Pump(&hub);
  const JsonValue opened = host.LastOpened(md5stage::viewer::StageHub::kMainStage);
  if (!opened.is_object() || !opened.Find("ok")->as_bool())
    return Fail(md5stage::WriteJson(opened));
  for (const JsonValue& warning : opened.Find("warnings")->as_array())
    std::fprintf(stderr, "viewer_smoke: %s\n", warning.as_string().c_str());

  md5stage::viewer::DrawList list;
  size_t drawn = 0;
  for (int frame = 0; frame < frames; ++frame) {
    viewer.Update(1.0 / 30.0);
    viewer.BuildDrawList(&list);
    viewer.EndFrame();
    drawn += list.instances.size();
    for (const auto& instance : list.instances) {
      if (!instance.mesh.valid() || instance.palette == nullptr) return Fail("invalid draw");
    }
  }
  if (!viewer.last_error().empty()) return Fail(viewer.last_error());
  if (viewer.character_count() == 0 || drawn == 0) return Fail("the scene drew no character");
  std::printf("%s: %d characters, %d frames, %zu instances drawn, %d meshes alive\n",
              scene_path.c_str(), viewer.character_count(), frames, drawn, backend.live_meshes());
  return 0;
}
