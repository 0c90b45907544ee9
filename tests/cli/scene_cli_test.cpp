#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/scene/scene_json.h"

namespace md5stage {
namespace {

struct CliRun {
  int status;
  std::string out;
  std::string err;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "scene_cli_" + std::to_string(::getpid()) + "_" + name;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs `md5stage ARGS` (arguments are shell words the test controls), capturing both streams.
CliRun RunCli(const std::string& args, const std::string& stdin_text = "") {
  const std::string out = TempPath("out.txt"), err = TempPath("err.txt"), in = TempPath("in.txt");
  WriteFile(in, stdin_text);
  const std::string command = std::string("'") + MD5STAGE_CLI + "' " + args + " <'" + in + "' >'" +
                              out + "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, ReadFile(out), ReadFile(err)};
}

std::string Trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

const char* kSceneJson = R"({
  "version": 1,
  "models": [{"name": "walker", "mesh": "models/walker/walker.md5mesh",
              "anims": ["models/walker/idle.md5anim", "models/walker/walk.md5anim"]},
             {"name": "mine", "mesh": "my_guy.md5mesh", "local": true}],
  "routes": [{"name": "loop", "closed": true,
              "segments": [{"bezier": [[0,0],[100,100.123456789],[200,100],[300,0]]},
                           {"line": [[300,0],[0,0]]}]}],
  "instances": [{"model": "walker", "locomotion": "walk", "idle": "idle", "speed": 70,
                 "route": 0},
                {"model": "mine", "position": [5, 5]}],
  "camera": {"yaw": 10, "distance": 500},
  "time": 2.5
})";

TEST(SceneCliTest, EncodeDecodeRoundTrip) {
  const std::string file = TempPath("scene.json");
  WriteFile(file, kSceneJson);

  // The local model cannot travel unless it is left out on purpose.
  CliRun refused = RunCli("scene encode '" + file + "'");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("#scene: error: models[1].local:"), std::string::npos) << refused.err;

  CliRun encoded = RunCli("scene encode --without-local '" + file + "'");
  ASSERT_EQ(encoded.status, 0) << encoded.err;
  EXPECT_NE(encoded.err.find("left out local model \"mine\""), std::string::npos) << encoded.err;
  const std::string payload = Trim(encoded.out);
  ASSERT_FALSE(payload.empty());
  EXPECT_EQ(
      payload.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
      std::string::npos);

  for (const std::string how : {"arg", "stdin"}) {
    SCOPED_TRACE(how);
    CliRun decoded = how == "arg" ? RunCli("scene decode '#scene=" + payload + "'")
                                  : RunCli("scene decode -", payload + "\n");
    ASSERT_EQ(decoded.status, 0) << decoded.err;
    Result<Scene> back = ParseScene("decoded", decoded.out);
    ASSERT_TRUE(back.ok()) << back.error().ToString() << "\n" << decoded.out;
    const Scene& scene = back.value();
    ASSERT_EQ(scene.models.size(), 1u);
    EXPECT_EQ(scene.models[0].name, "walker");
    ASSERT_EQ(scene.instances.size(), 1u);
    EXPECT_EQ(scene.instances[0].speed, 70);
    ASSERT_EQ(scene.routes.size(), 1u);
    EXPECT_TRUE(scene.routes[0].closed);
    EXPECT_NEAR(scene.routes[0].segments[0].points[1].y, 100.123456789, 1e-6);
    EXPECT_EQ(scene.camera.distance, 500);
    EXPECT_EQ(scene.time, 2.5);
  }
  CliRun compact = RunCli("scene decode --compact " + payload);
  ASSERT_EQ(compact.status, 0) << compact.err;
  EXPECT_EQ(compact.out.rfind("{\"version\":1,\"models\":[{\"name\":\"walker\"", 0), 0u)
      << compact.out;
}

TEST(SceneCliTest, CheckReportsValidAndInvalidScenes) {
  const std::string good = TempPath("good.json"), bad = TempPath("bad.json");
  WriteFile(good, kSceneJson);
  WriteFile(bad, "{\"version\": 1,\n \"time\": \"soon\"}\n");
  CliRun ok = RunCli("scene check '" + good + "'");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out, good + ": ok: 2 models, 1 routes (2 segments), 2 instances\n");
  CliRun broken = RunCli("scene check '" + good + "' '" + bad + "'");
  EXPECT_EQ(broken.status, 1);
  EXPECT_EQ(broken.err,
            bad + ":2:10: error: time: expected a number in [0, 1000000], found \"soon\"\n");
  CliRun missing = RunCli("scene check '" + TempPath("nonexistent.json") + "'");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("cannot open file"), std::string::npos);
}

TEST(SceneCliTest, RejectsBadPayloadsAndUsage) {
  struct Case {
    std::string args;
    int status;
    const char* err_start;
  };
  const Case cases[] = {
      {"scene decode 'not*base64'", 1,
       "#scene:1:4: error: expected a base64url character (A-Z a-z 0-9 - _), found '*'"},
      {"scene decode AAAA", 1, "#scene: error: expected link format 1, found 0"},
      {"scene", 2, "md5stage scene: a subcommand is required"},
      {"scene frobnicate", 2, "md5stage scene: unknown subcommand 'frobnicate'"},
      {"scene decode", 2, "md5stage scene: decode needs a payload"},
      {"scene decode a b", 2, "md5stage scene: decode takes one payload"},
      {"scene encode", 2, "md5stage scene: encode needs a scene file"},
      {"scene encode --fast x.json", 2, "md5stage scene: unexpected argument '--fast'"},
      {"scene check", 2, "md5stage scene: check needs a scene file"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    CliRun run = RunCli(c.args);
    EXPECT_EQ(run.status, c.status);
    EXPECT_EQ(run.err.rfind(c.err_start, 0), 0u) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
}

}  // namespace
}  // namespace md5stage
