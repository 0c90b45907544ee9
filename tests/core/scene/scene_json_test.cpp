#include "core/scene/scene_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "core/scene/share_link.h"
#include "scene_test_util.h"

namespace md5stage {
namespace {

using testing_util::ExpectScenesNear;
using testing_util::FullScene;

struct RejectCase {
  std::string json;
  std::string message;  // without the location
};

std::string DocExample() {
  std::ifstream file(std::string(MD5STAGE_SOURCE_DIR) + "/docs/scene-format.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const std::size_t begin = doc.find("```json\n");
  const std::size_t end = doc.find("```", begin + 8);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return doc.substr(begin + 8, end - begin - 8);
}

TEST(SceneJsonTest, ReadsTheDocumentedExample) {
  const std::string example = DocExample();
  ASSERT_FALSE(example.empty()) << "no ```json block in docs/scene-format.md";
  Result<Scene> read = ParseScene("scene-format.md", example);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  const Scene& scene = read.value();
  ASSERT_EQ(scene.models.size(), 2u);
  EXPECT_EQ(scene.models[0].name, "walker");
  EXPECT_EQ(scene.models[0].anims.size(), 2u);
  EXPECT_TRUE(scene.models[1].anims.empty());
  ASSERT_EQ(scene.routes.size(), 1u);
  EXPECT_EQ(scene.routes[0].name, "figure8");
  EXPECT_TRUE(scene.routes[0].closed);
  ASSERT_EQ(scene.routes[0].segments.size(), 2u);
  EXPECT_EQ(scene.routes[0].segments[0],
            RouteSegment::Bezier({0, 0}, {100, 100}, {200, 100}, {300, 0}));
  EXPECT_EQ(scene.routes[0].segments[1], RouteSegment::Line({300, 0}, {0, 0}));
  ASSERT_EQ(scene.instances.size(), 2u);
  const SceneInstance& walker = scene.instances[0];
  EXPECT_EQ(walker.animation, "idle");
  EXPECT_EQ(walker.locomotion, "walk");
  EXPECT_EQ(walker.speed, 55);
  EXPECT_EQ(walker.turn_radius, 40);
  EXPECT_EQ(walker.route, 0);
  EXPECT_EQ(walker.route_mode, PlayMode::kLoop);
  EXPECT_EQ(walker.start_delay, 2);
  EXPECT_FALSE(walker.target.has_value());
  ASSERT_EQ(walker.attachments.size(), 1u);
  EXPECT_EQ(walker.attachments[0].joint, "tag_hand_r");
  const SceneInstance& goer = scene.instances[1];
  EXPECT_EQ(goer.route, -1);
  ASSERT_TRUE(goer.target.has_value());
  EXPECT_EQ(goer.target->position, glm::dvec2(200, 100));
  EXPECT_EQ(goer.target->heading_degrees, 90.0);
  EXPECT_EQ(goer.position, glm::dvec2(-100, 50));
  EXPECT_EQ(scene.camera.distance, 300);
  EXPECT_TRUE(scene.display.turn_circles);
  EXPECT_TRUE(scene.playing);
}

// `construction` and `clearance` came after format 1's links: off by default, written only when
// on, so scenes and links made before them keep their bytes and open with them off; one made with
// one on keeps it.
TEST(SceneJsonTest, LaterDisplayTogglesAreOptionalAndRoundTrip) {
  struct Later {
    const char* name;
    bool DisplayToggles::*member;
  };
  for (const Later& toggle : {Later{"construction", &DisplayToggles::construction},
                              Later{"clearance", &DisplayToggles::clearance}}) {
    SCOPED_TRACE(toggle.name);
    const std::string name = toggle.name;
    Result<Scene> old = ParseScene("old.json", R"({"version": 1, "display": {"grid": false}})");
    ASSERT_TRUE(old.ok()) << old.error().ToString();
    EXPECT_FALSE(old.value().display.*toggle.member);
    const std::string full = WriteScene(old.value());
    EXPECT_EQ(full.find(name), std::string::npos) << full;
    EXPECT_NE(full.find("\"turn_circles\":true"), std::string::npos) << full;

    Scene on = old.value();
    on.display.*toggle.member = true;
    const std::string written = WriteScene(on);
    EXPECT_NE(written.find("\"" + name + "\":true"), std::string::npos) << written;
    Result<Scene> reread = ParseScene("on.json", written);
    ASSERT_TRUE(reread.ok()) << reread.error().ToString();
    EXPECT_TRUE(reread.value().display.*toggle.member);

    Result<std::string> link = EncodeSceneLink(on);
    ASSERT_TRUE(link.ok()) << link.error().ToString();
    Result<Scene> decoded = DecodeSceneLink(link.value());
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_TRUE(decoded.value().display.*toggle.member);
    Result<std::string> old_link = EncodeSceneLink(old.value());
    ASSERT_TRUE(old_link.ok());
    Result<Scene> old_decoded = DecodeSceneLink(old_link.value());
    ASSERT_TRUE(old_decoded.ok());
    EXPECT_FALSE(old_decoded.value().display.*toggle.member);

    Result<Scene> bad =
        ParseScene("bad.json", R"({"version": 1, "display": {")" + name + R"(": 1}})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().ToString().find("display." + name), std::string::npos)
        << bad.error().ToString();
  }
}

// `avoidance` came after format 1's links too: off by default, written only when on (even in a
// full scene), so every scene and link made before reads and writes byte for byte as before.
TEST(SceneJsonTest, AvoidanceIsOptionalAndRoundTrips) {
  Result<Scene> old = ParseScene("old.json", R"({"version": 1, "display": {"grid": false}})");
  ASSERT_TRUE(old.ok()) << old.error().ToString();
  EXPECT_FALSE(old.value().avoidance);
  for (bool omit_defaults : {false, true}) {
    SceneWriteOptions options;
    options.omit_defaults = omit_defaults;
    const std::string text = WriteScene(old.value(), options);
    EXPECT_EQ(text.find("avoidance"), std::string::npos) << text;
  }
  Result<std::string> old_link = EncodeSceneLink(old.value());
  ASSERT_TRUE(old_link.ok());
  Result<Scene> old_decoded = DecodeSceneLink(old_link.value());
  ASSERT_TRUE(old_decoded.ok());
  EXPECT_FALSE(old_decoded.value().avoidance);

  Scene on = old.value();
  on.avoidance = true;
  const std::string written = WriteScene(on);
  EXPECT_NE(written.find("\"avoidance\":true"), std::string::npos) << written;
  Result<Scene> reread = ParseScene("on.json", written);
  ASSERT_TRUE(reread.ok()) << reread.error().ToString();
  EXPECT_TRUE(reread.value().avoidance);
  Result<std::string> link = EncodeSceneLink(on);
  ASSERT_TRUE(link.ok()) << link.error().ToString();
  EXPECT_NE(link.value(), old_link.value());
  Result<Scene> decoded = DecodeSceneLink(link.value());
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_TRUE(decoded.value().avoidance);

  Result<Scene> bad = ParseScene("bad.json", R"({"version": 1, "avoidance": "yes"})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().ToString().find("avoidance: expected true or false"), std::string::npos)
      << bad.error().ToString();
}

TEST(SceneJsonTest, MinimalSceneTakesDefaults) {
  Result<Scene> read = ParseScene("s.json", "{\"version\": 1}");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  ExpectScenesNear(read.value(), Scene(), 0.0);
  SceneWriteOptions compact;
  compact.omit_defaults = true;
  EXPECT_EQ(WriteScene(Scene(), compact), "{\"version\":1}");
}

TEST(SceneJsonTest, RoundTripsExactly) {
  const Scene scene = FullScene();
  ASSERT_TRUE(ValidateScene(scene).ok()) << ValidateScene(scene).error().ToString();
  for (bool omit_defaults : {false, true}) {
    for (int indent : {0, 2}) {
      SCOPED_TRACE(std::to_string(omit_defaults) + " " + std::to_string(indent));
      SceneWriteOptions options;
      options.omit_defaults = omit_defaults;
      options.indent = indent;
      const std::string text = WriteScene(scene, options);
      Result<Scene> read = ParseScene("s.json", text);
      ASSERT_TRUE(read.ok()) << read.error().ToString() << "\n" << text;
      ExpectScenesNear(read.value(), scene, 0.0);
    }
  }
  // Defaults are written out when not omitted, so a reader sees every field.
  const std::string full = WriteScene(Scene());
  for (const char* key : {"\"models\"", "\"camera\"", "\"display\"", "\"time\"", "\"playing\""}) {
    EXPECT_NE(full.find(key), std::string::npos) << key;
  }
}

TEST(SceneJsonTest, RoundingKeepsJoinsJoined) {
  // Two sides of a join that differ within the join tolerance, straddling a rounding boundary.
  Scene scene;
  SceneRoute route;
  route.closed = true;
  route.segments.push_back(RouteSegment::Line({0.0000004999999, 0}, {10.0000005, 0}));
  route.segments.push_back(RouteSegment::Line({10.0000004999999, 0}, {10, 10}));
  route.segments.push_back(RouteSegment::Line({10, 10}, {0.0000005000001, 0}));
  scene.routes.push_back(route);
  ASSERT_TRUE(ValidateScene(scene).ok()) << ValidateScene(scene).error().ToString();
  SceneWriteOptions options;
  options.decimals = 6;
  const std::string text = WriteScene(scene, options);
  Result<Scene> read = ParseScene("s.json", text);
  ASSERT_TRUE(read.ok()) << read.error().ToString() << "\n" << text;
  ExpectScenesNear(read.value(), scene, 1e-6);
}

TEST(SceneJsonTest, ReadsPackedRoutes) {
  // Start (1, 2); a Bezier through (1.5, 2), (2, 2.5) to (2, 3); a line to (0, 3); scale 10.
  Result<Scene> read = ParseScene(
      "p.json",
      R"({"version":1,"routes":[{"name":"p","kinds":"bl","scale":10,)"
      R"("deltas":[10,20, 5,0, 5,5, 0,5, -20,0]},)"
      R"({"closed":true,"kinds":"lll","deltas":[0,0, 1000000,0, 0,1000000, -1000000,-1000000]}]})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  const Scene& scene = read.value();
  ASSERT_EQ(scene.routes.size(), 2u);
  ASSERT_EQ(scene.routes[0].segments.size(), 2u);
  EXPECT_EQ(scene.routes[0].name, "p");
  EXPECT_EQ(scene.routes[0].segments[0], RouteSegment::Bezier({1, 2}, {1.5, 2}, {2, 2.5}, {2, 3}));
  EXPECT_EQ(scene.routes[0].segments[1], RouteSegment::Line({2, 3}, {0, 3}));
  ASSERT_EQ(scene.routes[1].segments.size(), 3u);  // default scale: millionths
  EXPECT_EQ(scene.routes[1].segments[1], RouteSegment::Line({1, 0}, {1, 1}));
  EXPECT_EQ(scene.routes[1].segments[2], RouteSegment::Line({1, 1}, {0, 0}));
}

TEST(SceneJsonTest, PackedRoutesRoundTrip) {
  Scene scene = FullScene();  // unrounded Beziers, a line, a closed route
  SceneWriteOptions options;
  options.pack_routes = true;
  options.decimals = 6;
  const std::string text = WriteScene(scene, options);
  EXPECT_EQ(text.find("\"segments\""), std::string::npos);
  Result<Scene> read = ParseScene("p.json", text);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  ExpectScenesNear(read.value(), scene, 1e-6);
  // Points on a coarse grid get a coarse scale and read back exactly.
  Scene grid;
  SceneRoute route;
  route.closed = true;
  route.segments = {RouteSegment::Line({0, 0}, {12.5, 0}),
                    RouteSegment::Bezier({12.5, 0}, {20, 5}, {20, 10}, {12.5, 15}),
                    RouteSegment::Line({12.5, 15}, {0, 0})};
  grid.routes.push_back(route);
  const std::string grid_text = WriteScene(grid, options);
  EXPECT_NE(grid_text.find("\"scale\":10,"), std::string::npos) << grid_text;
  Result<Scene> grid_read = ParseScene("p.json", grid_text);
  ASSERT_TRUE(grid_read.ok()) << grid_read.error().ToString();
  ExpectScenesNear(grid_read.value(), grid, 0.0);
}

TEST(SceneJsonTest, RejectsBrokenPackedRoutes) {
  const RejectCase cases[] = {
      {R"({"version":1,"routes":[{"kinds":"b","deltas":[0,0,1,1,2,2,3,3],"segments":[]}]})",
       "routes[0]: expected \"segments\" or the packed \"kinds\" and \"deltas\", found both"},
      {R"({"version":1,"routes":[{"deltas":[0,0,1,1]}]})",
       "routes[0].kinds: expected a string of 1 to 4096 'b' and 'l', found nothing"},
      {R"({"version":1,"routes":[{"kinds":"","deltas":[0,0]}]})",
       "routes[0].kinds: expected a string of 1 to 4096 'b' and 'l', found \"\""},
      {R"({"version":1,"routes":[{"kinds":"bx","deltas":[0,0]}]})",
       "routes[0].kinds: expected a string of 1 to 4096 'b' and 'l', found \"bx\""},
      {R"({"version":1,"routes":[{"kinds":"l","scale":3,"deltas":[0,0,1,1]}]})",
       "routes[0].scale: expected 1, 10, 100, ... or 1000000, found 3"},
      {R"({"version":1,"routes":[{"kinds":"l","scale":1e7,"deltas":[0,0,1,1]}]})",
       "routes[0].scale: expected 1, 10, 100, ... or 1000000, found 10000000"},
      {R"({"version":1,"routes":[{"kinds":"bl","deltas":[0,0,1,1,2,2,3,3]}]})",
       "routes[0].deltas: expected an array of 10 integers, found an array of 8"},
      {R"({"version":1,"routes":[{"kinds":"l","deltas":"0,0,1,1"}]})",
       "routes[0].deltas: expected an array of 4 integers, found \"0,0,1,1\""},
      {R"({"version":1,"routes":[{"kinds":"l","deltas":[0,0,1.5,1]}]})",
       "routes[0].deltas[2]: expected an integer keeping the point within [-1000000000000, "
       "1000000000000], found 1.5"},
      {R"({"version":1,"routes":[{"kinds":"l","scale":1,"deltas":[0,0,"1",1]}]})",
       "routes[0].deltas[2]: expected an integer keeping the point within [-1000000, 1000000], "
       "found \"1\""},
      {R"({"version":1,"routes":[{"kinds":"l","scale":1,"deltas":[999999,0,2,0]}]})",
       "routes[0].deltas[2]: expected an integer keeping the point within [-1000000, 1000000], "
       "found 2"},
      {R"({"version":1,"routes":[{"kinds":"l","scale":1,"deltas":[0,0,1e300,0]}]})",
       "routes[0].deltas[2]: expected an integer keeping the point within [-1000000, 1000000], "
       "found 1e+300"},
      {R"({"version":1,"routes":[{"closed":true,"kinds":"ll","scale":1,"deltas":[0,0,5,0,0,5]}]})",
       "routes[0].deltas: expected the last point to be the start [0, 0] (the route is closed), "
       "found [5, 5]"},
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.json);
    Result<Scene> read = ParseScene("s.json", c.json);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message, c.message);
  }
}

TEST(SceneJsonTest, IgnoresUnknownFields) {
  Result<Scene> read = ParseScene(
      "s.json",
      R"({"version":1,"future":{"deep":[1,2,{"x":null}]},"models":[{"name":"m","mesh":"m.md5mesh",
          "color":"red"}],"instances":[{"model":"m","glow":true,"target":null}],
          "camera":{"fov":60},"display":{"fog":true}})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  EXPECT_EQ(read.value().instances.size(), 1u);
  EXPECT_FALSE(read.value().instances[0].target.has_value());
}

// A scene document around one instance (and optionally more root members).
std::string Doc(const std::string& instance, const std::string& extra = "") {
  return R"({"version":1,"models":[{"name":"walker","mesh":"models/walker/walker.md5mesh",)"
         R"("anims":["models/walker/idle.md5anim","models/walker/walk.md5anim"]},)"
         R"({"name":"lamp","mesh":"https://example.org/lamp.md5mesh"}],)"
         R"("routes":[{"segments":[{"line":[[0,0],[100,0]]}]}],"instances":[)" +
         instance + "]" + extra + "}";
}

std::string Repeat(const std::string& item, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i > 0 ? "," : "") + item;
  return out;
}

TEST(SceneJsonTest, RejectsWrongTypesAndValuesNamingTheField) {
  const std::string coord = "a number in [-1000000, 1000000]";
  const std::string name = "a name of 1 to 128 characters";
  const std::string source = "an assets-relative path or an https:// URL";
  const RejectCase cases[] = {
      // root
      {"[]", "scene: expected an object, found an empty array"},
      {"{}", "version: expected 1, found nothing"},
      {"{\"version\":2}", "version: expected 1, found 2"},
      {"{\"version\":\"1\"}", "version: expected 1, found \"1\""},
      {"{\"version\":1,\"models\":{}}", "models: expected an array of models, found an object"},
      {"{\"version\":1,\"time\":-1}", "time: expected a number in [0, 1000000], found -1"},
      {"{\"version\":1,\"playing\":1}", "playing: expected true or false, found 1"},
      {"{\"version\":1,\"camera\":[]}", "camera: expected an object, found an empty array"},
      {"{\"version\":1,\"camera\":{\"pitch\":95}}",
       "camera.pitch: expected a number in [-90, 90], found 95"},
      {"{\"version\":1,\"camera\":{\"distance\":0}}",
       "camera.distance: expected a number in [0.001, 1000000], found 0"},
      // fuzz_scene: 5e-324 passed "> 0" and arrived as 0 through a share link (6 decimals).
      {"{\"version\":1,\"camera\":{\"distance\":5e-324}}",
       "camera.distance: expected a number in [0.001, 1000000], found 5e-324"},
      {"{\"version\":1,\"camera\":{\"target\":[0,0]}}",
       "camera.target: expected an [x, y, z] array, found [0, 0]"},
      {"{\"version\":1,\"display\":{\"grid\":\"yes\"}}",
       "display.grid: expected true or false, found \"yes\""},
      // models
      {"{\"version\":1,\"models\":[" + Repeat("{}", 65) + "]}",
       "models: expected at most 64 models, found 65"},
      {"{\"version\":1,\"models\":[5]}", "models[0]: expected an object, found 5"},
      {"{\"version\":1,\"models\":[{\"mesh\":\"a.md5mesh\"}]}",
       "models[0].name: expected " + name + ", found nothing"},
      {"{\"version\":1,\"models\":[{\"name\":\"\",\"mesh\":\"a.md5mesh\"}]}",
       "models[0].name: expected " + name + ", found \"\""},
      {"{\"version\":1,\"models\":[{\"name\":\"" + std::string(129, 'n') +
           "\",\"mesh\":\"a.md5mesh\"}]}",
       "models[0].name: expected " + name + ", found \"" + std::string(40, 'n') + "\"..."},
      {"{\"version\":1,\"models\":[{\"name\":\"a\\nb\",\"mesh\":\"a.md5mesh\"}]}",
       "models[0].name: expected " + name + ", found \"a\\nb\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a.md5mesh\"},"
       "{\"name\":\"m\",\"mesh\":\"b.md5mesh\"}]}",
       "models[1].name: expected a unique model name, found \"m\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\"}]}",
       "models[0].mesh: expected " + source + ", found nothing"},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":7}]}",
       "models[0].mesh: expected " + source + ", found 7"},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"../secret.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"../secret.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a/../../b.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"a/../../b.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"/etc/passwd\"}]}",
       "models[0].mesh: expected " + source + ", found \"/etc/passwd\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"javascript:alert(1)\"}]}",
       "models[0].mesh: expected " + source + ", found \"javascript:alert(1)\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"http://x.org/a.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"http://x.org/a.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"https:///a.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"https:///a.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a\\\\b.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"a\\\\b.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a//b.md5mesh\"}]}",
       "models[0].mesh: expected " + source + ", found \"a//b.md5mesh\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a.md5mesh\",\"anims\":\"walk\"}]}",
       "models[0].anims: expected an array of anims, found \"walk\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a.md5mesh\",\"anims\":[\"a/walk."
       "md5anim\",\"b/walk.md5anim\"]}]}",
       "models[0].anims[1]: expected an anim with a name of its own, found \"b/walk.md5anim\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a.md5mesh\",\"anims\":[\"a/\"]}]}",
       "models[0].anims[0]: expected " + source + ", found \"a/\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"a.md5mesh\",\"local\":\"no\"}]}",
       "models[0].local: expected true or false, found \"no\""},
      {"{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"\",\"local\":true}]}",
       "models[0].mesh: expected a file name, found \"\""},
      // routes
      {"{\"version\":1,\"routes\":[{}]}",
       "routes[0].segments: expected an array of segments, found nothing"},
      {"{\"version\":1,\"routes\":[{\"segments\":[]}]}",
       "routes[0].segments: expected at least 1 segment, found an empty array"},
      {"{\"version\":1,\"routes\":[{\"name\":3,\"segments\":[]}]}",
       "routes[0].name: expected a name of 0 to 128 characters, found 3"},
      {"{\"version\":1,\"routes\":[{\"closed\":1,\"segments\":[]}]}",
       "routes[0].closed: expected true or false, found 1"},
      {"{\"version\":1,\"routes\":[{\"segments\":[" + Repeat("{\"line\":[[0,0],[0,0]]}", 4097) +
           "]}]}",
       "routes[0].segments: expected at most 4096 segments, found 4097"},
      {"{\"version\":1,\"routes\":[{\"segments\":[{}]}]}",
       "routes[0].segments[0]: expected a \"line\" or a \"bezier\" member, found neither"},
      {"{\"version\":1,\"routes\":[{\"segments\":[{\"line\":[[0,0],[1,0]],\"bezier\":[]}]}]}",
       "routes[0].segments[0]: expected a \"line\" or a \"bezier\" member, found both"},
      {"{\"version\":1,\"routes\":[{\"segments\":[{\"line\":[[0,0],[1]]}]}]}",
       "routes[0].segments[0].line[1]: expected a point [x, y] of two finite numbers, found [1]"},
      {"{\"version\":1,\"routes\":[{\"segments\":[{\"line\":[[0,0],[1,2e6]]}]}]}",
       "routes[0].segments[0].line[1][1]: expected " + coord + ", found 2000000"},
      {"{\"version\":1,\"routes\":[{\"segments\":[{\"line\":[[0,0],[1,0]]},"
       "{\"line\":[[2,0],[3,0]]}]}]}",
       "routes[0].segments[1].line[0]: expected the end of segments[0] [1, 0], found [2, 0]"},
      {"{\"version\":1,\"routes\":[{\"closed\":true,\"segments\":[{\"line\":[[0,0],[1,0]]}]}]}",
       "routes[0].closed: the route ends at [1, 0] but starts at [0, 0]"},
      // instances
      {Doc("5"), "instances[0]: expected an object, found 5"},
      {Doc("{}"), "instances[0].model: expected " + name + ", found nothing"},
      {Doc("{\"model\":\"ghost\"}"),
       "instances[0].model: expected the name of a model, found \"ghost\""},
      {Doc("{\"model\":\"<script>alert(1)</script>\"}"),
       "instances[0].model: expected the name of a model, found \"<script>alert(1)</script>\""},
      {Doc("{\"model\":\"walker\",\"speed\":\"fast\"}"),
       "instances[0].speed: expected a number in [0, 100000], found \"fast\""},
      {Doc("{\"model\":\"walker\",\"speed\":-1}"),
       "instances[0].speed: expected a number in [0, 100000], found -1"},
      {Doc("{\"model\":\"walker\",\"turn_radius\":true}"),
       "instances[0].turn_radius: expected a number in [0, 100000], found true"},
      {Doc("{\"model\":\"walker\",\"clearance\":-2}"),
       "instances[0].clearance: expected a number in [0, 1000000], found -2"},
      {Doc("{\"model\":\"walker\",\"clearance\":null}"),
       "instances[0].clearance: expected a number in [0, 1000000], found null"},
      {Doc("{\"model\":\"walker\",\"rate\":1000}"),
       "instances[0].rate: expected a number in [-100, 100], found 1000"},
      {Doc("{\"model\":\"walker\",\"time\":-0.5}"),
       "instances[0].time: expected a number in [0, 1000000], found -0.5"},
      {Doc("{\"model\":\"walker\",\"start_delay\":[]}"),
       "instances[0].start_delay: expected a number in [0, 1000000], found an empty array"},
      {Doc("{\"model\":\"walker\",\"heading\":1e300}"),
       "instances[0].heading: expected " + coord + ", found 1e+300"},
      {Doc("{\"model\":\"walker\",\"position\":[1]}"),
       "instances[0].position: expected an [x, y] array, found [1]"},
      {Doc("{\"model\":\"walker\",\"position\":[1,\"a\"]}"),
       "instances[0].position[1]: expected " + coord + ", found \"a\""},
      {Doc("{\"model\":\"walker\",\"position\":{\"x\":1,\"y\":2}}"),
       "instances[0].position: expected an [x, y] array, found an object"},
      {Doc("{\"model\":\"walker\",\"animation\":\"run\"}"),
       "instances[0].animation: expected an anim name of model \"walker\", found \"run\""},
      {Doc("{\"model\":\"lamp\",\"idle\":\"idle\"}"),
       "instances[0].idle: expected an anim name of model \"lamp\", found \"idle\""},
      {Doc("{\"model\":\"walker\",\"locomotion\":5}"),
       "instances[0].locomotion: expected a name of 0 to 128 characters, found 5"},
      {Doc("{\"model\":\"walker\",\"mode\":\"bounce\"}"),
       "instances[0].mode: expected \"loop\", \"once\" or \"pingpong\", found \"bounce\""},
      {Doc("{\"model\":\"walker\",\"route_mode\":\"LOOP\"}"),
       "instances[0].route_mode: expected \"loop\", \"once\" or \"pingpong\", found \"LOOP\""},
      {Doc("{\"model\":\"walker\",\"route\":1}"),
       "instances[0].route: expected a number in [-1, 0], found 1"},
      {Doc("{\"model\":\"walker\",\"route\":-2}"),
       "instances[0].route: expected a number in [-1, 0], found -2"},
      {Doc("{\"model\":\"walker\",\"route\":-0.5}"),
       "instances[0].route: expected an integer in [-1, 0], found -0.5"},
      {Doc("{\"model\":\"walker\",\"route\":\"0\"}"),
       "instances[0].route: expected a number in [-1, 0], found \"0\""},
      {Doc("{\"model\":\"walker\",\"route\":0,\"target\":{\"x\":1,\"y\":2}}"),
       "instances[0].target: expected a route or a target, found both"},
      {Doc("{\"model\":\"walker\",\"target\":[1,2]}"),
       "instances[0].target: expected an object, found [1, 2]"},
      {Doc("{\"model\":\"walker\",\"target\":{\"x\":1}}"),
       "instances[0].target.y: expected " + coord + ", found nothing"},
      {Doc("{\"model\":\"walker\",\"target\":{\"x\":1,\"y\":2,\"heading\":\"north\"}}"),
       "instances[0].target.heading: expected " + coord + ", found \"north\""},
      {Doc("{\"model\":\"walker\",\"attachments\":{}}"),
       "instances[0].attachments: expected an array of attachments, found an object"},
      {Doc("{\"model\":\"walker\",\"attachments\":[" +
           Repeat("{\"model\":\"lamp\",\"joint\":\"j\"}", 17) + "]}"),
       "instances[0].attachments: expected at most 16 attachments, found 17"},
      {Doc("{\"model\":\"walker\",\"attachments\":[{\"model\":\"lamp\"}]}"),
       "instances[0].attachments[0].joint: expected " + name + ", found nothing"},
      {Doc("{\"model\":\"walker\",\"attachments\":[{\"model\":\"x\",\"joint\":\"j\"}]}"),
       "instances[0].attachments[0].model: expected the name of a model, found \"x\""},
      {Doc("{\"model\":\"walker\",\"attachments\":[{\"model\":\"lamp\",\"joint\":\"j\","
           "\"offset\":[0,0]}]}"),
       "instances[0].attachments[0].offset: expected an [x, y, z] array, found [0, 0]"},
      {Doc("{\"model\":\"walker\",\"attachments\":[{\"model\":\"lamp\",\"joint\":\"j\","
           "\"rotation\":[0,0,\"90\"]}]}"),
       "instances[0].attachments[0].rotation[2]: expected " + coord + ", found \"90\""},
      {Doc("{\"model\":\"walker\"},{\"model\":\"walker\",\"speed\":null}"),
       "instances[1].speed: expected a number in [0, 100000], found null"},
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.json.substr(0, 300));
    Result<Scene> read = ParseScene("s.json", c.json);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message, c.message);
    EXPECT_EQ(read.error().file, "s.json");
  }
}

TEST(SceneJsonTest, ObstaclesAreOptionalAndRoundTrip) {
  Result<Scene> none = ParseScene("s.json", "{\"version\": 1}");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none.value().obstacles.empty());
  // Omitted when empty, written when not omitting defaults.
  EXPECT_EQ(WriteScene(Scene(),
                       [] {
                         SceneWriteOptions o;
                         o.omit_defaults = true;
                         return o;
                       }())
                .find("obstacles"),
            std::string::npos);
  EXPECT_NE(WriteScene(Scene()).find("\"obstacles\":[]"), std::string::npos);
  Result<Scene> read =
      ParseScene("s.json", R"({"version":1,"obstacles":[{"circle":{"centre":[10,20],"radius":5}},)"
                           R"({"polygon":[[0,0],[40,0],[40,10],[10,10],[10,40],[0,40]]}]})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  const ObstacleSet& set = read.value().obstacles;
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set.obstacles()[0].kind, Obstacle::Kind::kCircle);
  EXPECT_EQ(set.obstacles()[0].centre, glm::dvec2(10, 20));
  EXPECT_EQ(set.obstacles()[0].radius, 5.0);
  EXPECT_EQ(set.obstacles()[1].vertices.size(), 6u);
  EXPECT_EQ(set.obstacles()[1].bounds.max, glm::dvec2(40, 40));  // validated: bounds filled
  Result<Scene> again = ParseScene("s.json", WriteScene(read.value()));
  ASSERT_TRUE(again.ok());
  ExpectScenesNear(again.value(), read.value(), 0.0);
}

// A character's clearance travels only when it was set: absent, the viewer derives it from the
// model, so "absent" and "0" must stay different.
TEST(SceneJsonTest, ClearanceIsOptionalAndRoundTrips) {
  const std::string models = R"("models":[{"name":"walker","mesh":"m.md5mesh"}])";
  Result<Scene> none =
      ParseScene("s.json", "{\"version\":1," + models + R"(,"instances":[{"model":"walker"}]})");
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_FALSE(none.value().instances[0].clearance.has_value());
  EXPECT_EQ(WriteScene(none.value()).find("clearance"), std::string::npos);
  for (double clearance : {0.0, 12.5, 1e6}) {
    Scene scene = none.value();
    scene.instances[0].clearance = clearance;
    Result<Scene> again = ParseScene("s.json", WriteScene(scene));
    ASSERT_TRUE(again.ok()) << again.error().ToString();
    ASSERT_TRUE(again.value().instances[0].clearance.has_value()) << clearance;
    EXPECT_EQ(*again.value().instances[0].clearance, clearance);
  }
}

// Obstacles are read by the path core's obstacle reader: its messages, with the scene's file.
TEST(SceneJsonTest, BadObstaclesNameTheField) {
  const RejectCase cases[] = {
      {R"({"version":1,"obstacles":5})", "obstacles: expected an array of at most 1024 obstacles"},
      {R"({"version":1,"obstacles":[{"circle":{"centre":[0,0],"radius":1}},{},{}]})",
       "obstacles[1]: expected a \"circle\" or a \"polygon\" member, found neither"},
      {R"({"version":1,"obstacles":[{"circle":{"centre":[0,0],"radius":0}}]})",
       "obstacles[0].circle.radius: expected a number > 0"},
      {R"({"version":1,"obstacles":[{"circle":{"centre":[0,0],"radius":1}},{"circle":)"
       R"({"centre":[0,0],"radius":1}},{"polygon":[[0,0],[1,"x"],[1,1]]}]})",
       "obstacles[2].polygon[1]: expected a point [x, y]"},
      {R"({"version":1,"obstacles":[{"polygon":[[0,0],[1,0]]}]})",
       "obstacles[0].polygon: expected an array of 3 to 256 points"},
      {R"({"version":1,"obstacles":[{"polygon":[[0,0],[10,10],[10,0],[0,10]]}]})",
       "obstacles[0]"},  // edges cross
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.json);
    Result<Scene> read = ParseScene("s.json", c.json);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message.rfind(c.message, 0), 0u) << read.error().message;
    EXPECT_EQ(read.error().file, "s.json");
    EXPECT_GT(read.error().line, 0);
  }
}

// Segment lists are read by the path core's route JSON reader; the scene prefixes its path. Only
// the part before "found" is checked: how values are described is that reader's business.
TEST(SceneJsonTest, SegmentErrorsComeFromTheRouteReaderWithTheScenePath) {
  const RejectCase cases[] = {
      {R"({"version":1,"routes":[{"segments":[{"bezier":[[0,0],[1,0],[2,0]]}]}]})",
       "routes[0].segments[0].bezier: expected an array of 4 points, found "},
      {R"({"version":1,"routes":[{"segments":[{"line":[[0,0],[1,0],[2,0]]}]}]})",
       "routes[0].segments[0].line: expected an array of 2 points, found "},
      {R"({"version":1,"routes":[{"segments":[{"line":[[0,0],[1,null]]}]}]})",
       "routes[0].segments[0].line[1]: expected a point [x, y] of two finite numbers, found "},
      {R"({"version":1,"routes":[{},{"segments":[5]}]})",
       "routes[0].segments: expected an array of segments, found nothing"},
      {R"({"version":1,"routes":[{"segments":[{"line":[[0,0],[1,0]]}]},{"segments":[5]}]})",
       "routes[1].segments[0]: expected an object, found "},
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.json);
    Result<Scene> read = ParseScene("s.json", c.json);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message.rfind(c.message, 0), 0u) << read.error().message;
    EXPECT_EQ(read.error().file, "s.json");
    EXPECT_GT(read.error().line, 0);
  }
}

TEST(SceneJsonTest, ErrorsPointAtTheValue) {
  const std::string text =
      "{\n"
      "  \"version\": 1,\n"
      "  \"models\": [{\"name\": \"m\", \"mesh\": \"m.md5mesh\"}],\n"
      "  \"instances\": [\n"
      "    {\"model\": \"m\",\n"
      "     \"speed\": \"fast\"}\n"
      "  ]\n"
      "}\n";
  Result<Scene> read = ParseScene("walk.json", text);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().ToString(),
            "walk.json:6:15: error: instances[0].speed: expected a number in [0, 100000], found "
            "\"fast\"");
  // A missing member is reported at the object that lacks it.
  Result<Scene> missing =
      ParseScene("m.json", "{\"version\": 1,\n \"models\": [ {\"name\": \"m\"}]}");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().line, 2);
  EXPECT_EQ(missing.error().column, 14);
  // JSON syntax errors come through with their own location.
  Result<Scene> broken = ParseScene("b.json", "{\"version\": 1,}");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().ToString(), "b.json:1:15: error: expected a string key, found '}'");
}

TEST(SceneJsonTest, SizeIsBounded) {
  std::string text = "{\"version\":1,\"pad\":\"" + std::string(kMaxSceneJsonBytes, 'x') + "\"}";
  Result<Scene> read = ParseScene("big.json", text);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("expected at most 1048576 bytes of JSON"), std::string::npos)
      << read.error().message;
}

TEST(SceneJsonTest, ValidatesScenesBuiltInCode) {
  struct Case {
    const char* name;
    void (*mutate)(Scene&);
    const char* message;  // empty: valid
  };
  const Case cases[] = {
      {"full scene", [](Scene&) {}, ""},
      {"negative speed", [](Scene& s) { s.instances[2].speed = -3; },
       "instances[2].speed: expected a number in [0, 100000], found -3"},
      {"NaN position",
       [](Scene& s) { s.instances[0].position.x = std::numeric_limits<double>::quiet_NaN(); },
       "instances[0].position[0]: expected a number in [-1000000, 1000000], found nan"},
      {"route out of range", [](Scene& s) { s.instances[1].route = 9; },
       "instances[1].route: expected a number in [-1, 4], found 9"},
      {"both route and target", [](Scene& s) { s.instances[0].target = SceneTarget{}; },
       "instances[0].target: expected a route or a target, found both"},
      {"broken join", [](Scene& s) { s.routes[2].segments[3].points[0].x += 0.01; },
       nullptr},  // message checked by prefix below
      {"unknown attachment model", [](Scene& s) { s.instances[0].attachments[0].model = "x"; },
       "instances[0].attachments[0].model: expected the name of a model, found \"x\""},
      {"empty route", [](Scene& s) { s.routes[0].segments.clear(); },
       "routes[0].segments: expected at least 1 segment, found an empty array"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Scene scene = FullScene();
    c.mutate(scene);
    Status status = ValidateScene(scene);
    if (c.message == nullptr) {
      ASSERT_FALSE(status.ok());
      EXPECT_EQ(status.error().message.rfind(
                    "routes[2].segments[3].bezier[0]: expected the end of segments[2] [", 0),
                0u)
          << status.error().message;
    } else if (c.message[0] == '\0') {
      EXPECT_TRUE(status.ok()) << status.error().ToString();
    } else {
      ASSERT_FALSE(status.ok());
      EXPECT_EQ(status.error().message, c.message);
      EXPECT_EQ(status.error().line, 0);
    }
  }
}

TEST(SceneTest, AnimNameFromSource) {
  const std::pair<const char*, const char*> cases[] = {
      {"models/walker/walk.md5anim", "walk"},
      {"walk.md5anim", "walk"},
      {"walk", "walk"},
      {"https://example.org/a/run.md5anim?raw=1#x", "run"},
      {"a/b.c/idle.MD5ANIM", "idle"},
      {"a/.hidden", ".hidden"},
      {"dir/", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(AnimNameFromSource(c.first), c.second) << c.first;
}

TEST(SceneTest, WithoutLocalModelsDropsThemAndTheirUses) {
  Scene scene = FullScene();
  scene.models.push_back({"dropped", "my_guy.md5mesh", {"dance.md5anim"}, true, {}, ""});
  SceneInstance local;
  local.model = "dropped";
  scene.instances.insert(scene.instances.begin() + 1, local);
  SceneAttachment attachment;
  attachment.model = "dropped";
  attachment.joint = "head";
  scene.instances[0].attachments.push_back(attachment);
  ASSERT_TRUE(ValidateScene(scene).ok()) << ValidateScene(scene).error().ToString();

  std::vector<std::string> dropped;
  const Scene travelling = WithoutLocalModels(scene, &dropped);
  EXPECT_EQ(dropped, std::vector<std::string>{"dropped"});
  ExpectScenesNear(travelling, FullScene(), 0.0);
  EXPECT_TRUE(ValidateScene(travelling).ok());
}

// A model's materials (decl sources fetched with it) and skin: optional, written only when set
// (so older scenes and share links read and write the same), wrong types name the field.
TEST(SceneJsonTest, ModelMaterialsAndSkinAreOptionalAndRoundTrip) {
  const std::string base =
      R"({"version":1,"models":[{"name":"hero","mesh":"models/hero/hero.md5mesh")";
  Result<Scene> plain = ParseScene("s.json", base + "}]}");
  ASSERT_TRUE(plain.ok()) << plain.error().ToString();
  EXPECT_TRUE(plain.value().models[0].materials.empty());
  EXPECT_EQ(plain.value().models[0].skin, "");
  EXPECT_EQ(WriteScene(plain.value()).find("skin"), std::string::npos);
  EXPECT_EQ(WriteScene(plain.value()).find("materials"), std::string::npos);

  Result<Scene> read = ParseScene(
      "s.json",
      base +
          R"(,"materials":["models/hero/hero.mtr","https://x.org/h.skin"],"skin":"skins/hero/red"}]})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  EXPECT_EQ(read.value().models[0].materials,
            (std::vector<std::string>{"models/hero/hero.mtr", "https://x.org/h.skin"}));
  EXPECT_EQ(read.value().models[0].skin, "skins/hero/red");
  Result<Scene> again = ParseScene("s.json", WriteScene(read.value()));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().models[0].materials, read.value().models[0].materials);
  EXPECT_EQ(again.value().models[0].skin, "skins/hero/red");

  const RejectCase cases[] = {
      {base + R"(,"skin":5}]})", "models[0].skin: expected a name of 0 to 128 characters, found 5"},
      {base + R"(,"materials":"x.mtr"}]})",
       "models[0].materials: expected an array of materials, found \"x.mtr\""},
      {base + R"(,"materials":["../x.mtr"]}]})",
       "models[0].materials[0]: expected an assets-relative path or an https:// URL, found "
       "\"../x.mtr\""},
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.json);
    Result<Scene> bad = ParseScene("s.json", c.json);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, c.message);
  }
}

}  // namespace
}  // namespace md5stage
