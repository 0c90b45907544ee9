// libFuzzer harness: every input is read both as scene JSON (ParseScene) and as a share-link
// payload (DecodeSceneLink). A scene that validates must survive what the viewer does with it:
// written and read back, encoded into a link and decoded, and its routes built and followed.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/path/follower.h"
#include "core/path/route.h"
#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"
#include "fuzz_util.h"

using namespace md5stage;

namespace {

void Exercise(const Scene& scene) {
  FUZZ_CHECK(ValidateScene(scene).ok());
  // Written in both forms and read back.
  const std::string text = WriteScene(scene);
  const Result<Scene> reread = ParseScene("rewritten.json", text);
  if (!reread.ok()) std::fprintf(stderr, "%s\n", reread.error().ToString().c_str());
  FUZZ_CHECK(reread.ok());
  FUZZ_CHECK(reread.value().instances.size() == scene.instances.size());
  SceneWriteOptions packed;
  packed.omit_defaults = true;
  packed.pack_routes = true;
  packed.decimals = kSceneLinkDecimals;
  const Result<Scene> repacked = ParseScene("packed.json", WriteScene(scene, packed));
  if (!repacked.ok()) std::fprintf(stderr, "%s\n", repacked.error().ToString().c_str());
  FUZZ_CHECK(repacked.ok());
  // A link of the shareable part decodes.
  const Result<std::string> link = EncodeSceneLink(WithoutLocalModels(scene));
  if (!link.ok()) std::fprintf(stderr, "%s\n", link.error().ToString().c_str());
  FUZZ_CHECK(link.ok());
  const Result<Scene> decoded = DecodeSceneLink(link.value());
  if (!decoded.ok()) std::fprintf(stderr, "%s\n", decoded.error().ToString().c_str());
  FUZZ_CHECK(decoded.ok());

  // Routes build; instances follow them (or go to their target) at a few times.
  std::vector<std::shared_ptr<const Route>> routes;
  for (const SceneRoute& route : scene.routes) {
    Result<Route> built = Route::Build(route.segments, route.closed);
    FUZZ_CHECK(built.ok());
    routes.push_back(std::make_shared<const Route>(std::move(built).value()));
    (void)routes.back()->FindTightStretches(40.0);
  }
  constexpr double kDegrees = 3.14159265358979323846 / 180.0;
  for (const SceneInstance& instance : scene.instances) {
    Follower follower(Pose2{instance.position, instance.heading_degrees * kDegrees},
                      instance.turn_radius, instance.speed, 0.0);
    if (instance.route >= 0) {
      const Status followed =
          follower.FollowRoute(instance.start_delay, routes[instance.route], instance.route_mode);
      FUZZ_CHECK(followed.ok());
    } else if (instance.target) {
      const glm::dvec2 point = instance.target->position;
      const Status status =
          instance.target->heading_degrees
              ? follower.GoToPose(0.0, Pose2{point, *instance.target->heading_degrees * kDegrees})
              : follower.GoToPoint(0.0, point);
      FUZZ_CHECK(status.ok());
    }
    for (double time : {0.0, 1.0, 37.5, 1e4, 1e6}) {
      const Pose2 pose = follower.PoseAt(time);
      FUZZ_CHECK(IsFinite(pose.position) && std::isfinite(pose.heading));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Result<Scene> scene = ParseScene("fuzz.json", text);
  if (scene.ok()) {
    Exercise(scene.value());
  } else {
    FUZZ_CHECK(!scene.error().message.empty());
  }
  const Result<Scene> linked = DecodeSceneLink(text);
  if (linked.ok()) {
    Exercise(linked.value());
  } else {
    FUZZ_CHECK(linked.error().file == "#scene");
  }
  return 0;
}
