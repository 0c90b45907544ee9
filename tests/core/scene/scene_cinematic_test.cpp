// The scene's optional camera.cinematic (the .md5camera that plays): read, written only when set,
// carried by share links, and refused with the field's name when it is not a camera source.
#include <gtest/gtest.h>

#include <string>

#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"

namespace md5stage {
namespace {

const char kScene[] =
    R"({"version":1,"camera":{"target":[0,0,35],"cinematic":"cameras/walker_orbit.md5camera"}})";

TEST(SceneCinematic, ReadWrittenAndCarriedByLinks) {
  Result<Scene> scene = ParseScene("s.json", kScene);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_EQ(scene.value().camera.cinematic, "cameras/walker_orbit.md5camera");
  const std::string written = WriteJson(SceneToJson(scene.value()));
  EXPECT_NE(written.find(R"("cinematic":"cameras/walker_orbit.md5camera")"), std::string::npos);
  Result<std::string> link = EncodeSceneLink(scene.value());
  ASSERT_TRUE(link.ok());
  Result<Scene> back = DecodeSceneLink(link.value());
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(back.value().camera.cinematic, "cameras/walker_orbit.md5camera");
}

TEST(SceneCinematic, AbsentOrEmptyIsTheOrbitCameraAndIsNotWritten) {
  for (const char* text : {R"({"version":1})", R"({"version":1,"camera":{"cinematic":""}})"}) {
    Result<Scene> scene = ParseScene("s.json", text);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    EXPECT_EQ(scene.value().camera.cinematic, "");
    EXPECT_EQ(WriteJson(SceneToJson(scene.value())).find("cinematic"), std::string::npos);
  }
}

TEST(SceneCinematic, RefusesWhatIsNotACameraSource) {
  for (const char* value : {"3", R"("cameras/walker.md5anim")", R"("/etc/passwd.md5camera")",
                            R"("http://x.org/a.md5camera")", "true"}) {
    const std::string text = std::string(R"({"version":1,"camera":{"cinematic":)") + value + "}}";
    Result<Scene> scene = ParseScene("s.json", text);
    ASSERT_FALSE(scene.ok()) << value;
    EXPECT_NE(scene.error().message.find("camera.cinematic: expected \"\" or the assets-relative "
                                         "path or https:// URL of a .md5camera file"),
              std::string::npos)
        << scene.error().ToString();
  }
}

}  // namespace
}  // namespace md5stage
