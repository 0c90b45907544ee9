// The md5stage command's info, check and pose subcommands, run as a process; and the bind-pose
// cross-check of `pose` against Assimp (an independent MD5 implementation) on ../shared/md5.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../core/md5/test_fixtures.h"
#include "../shared_data.h"
#include "core/common/json.h"

namespace md5stage {
namespace {

namespace fs = std::filesystem;
using md5::testing::kAnimFixture;
using md5::testing::kMeshFixture;
using md5::testing::Replace;

struct ProcessResult {
  int status = -1;
  std::string out;
  std::string err;
};

std::string Quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path TempDir() {
  // One folder per process: ctest runs tests of this program in parallel, and the native and
  // sanitizer builds may run at once; a shared stderr.txt would mix their outputs.
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("md5stage_md5_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path WriteFile(const std::string& name, const std::string& text) {
  const fs::path path = TempDir() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

ProcessResult RunProgram(const std::string& program, const std::vector<std::string>& args) {
  const fs::path err_path = TempDir() / "stderr.txt";
  std::string command = Quote(program);
  for (const std::string& arg : args) command += " " + Quote(arg);
  command += " 2>" + Quote(err_path.string());
  ProcessResult run;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, got);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadText(err_path);
  return run;
}

ProcessResult Md5stage(const std::vector<std::string>& args) {
  return RunProgram(MD5STAGE_CLI, args);
}

struct Obj {
  std::vector<std::string> objects;
  std::vector<glm::vec3> vertices;
  std::vector<glm::vec2> uvs;
  std::vector<std::vector<int>> faces;  // vertex indices, 1-based as written
};

Obj ReadObj(const fs::path& path) {
  Obj obj;
  std::istringstream lines(ReadText(path));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "o") {
      obj.objects.push_back(line.size() > 2 ? line.substr(2) : "");
    } else if (tag == "v") {
      glm::vec3 v;
      fields >> v.x >> v.y >> v.z;
      obj.vertices.push_back(v);
    } else if (tag == "vt") {
      glm::vec2 uv;
      fields >> uv.x >> uv.y;
      obj.uvs.push_back(uv);
    } else if (tag == "f") {
      std::vector<int> face;
      std::string corner;
      while (fields >> corner) face.push_back(std::stoi(corner.substr(0, corner.find('/'))));
      obj.faces.push_back(face);
    }
  }
  return obj;
}

::testing::AssertionResult Near(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-5f) {
  if (glm::length(a - b) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                       << b.x << ", " << b.y << ", " << b.z << ")";
}

TEST(InfoCommand, DescribesMeshesAndAnims) {
  const fs::path mesh = WriteFile("info.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("info.md5anim", kAnimFixture);
  const ProcessResult run = Md5stage({"info", mesh.string(), anim.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, mesh.string() +
                         ": mesh, 2 joints, 1 meshes, 3 vertices, 1 triangles, 3 weights, at most "
                         "1 weights per vertex\n" +
                         anim.string() +
                         ": anim, 2 joints, 3 frames at 10 fps, 4 animated components, 0.200000003 "
                         "s\n");
  EXPECT_EQ(run.err, "");
}

TEST(InfoCommand, JsonHasTheDocumentedKeys) {
  const fs::path mesh = WriteFile("json.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("json.md5anim", kAnimFixture);
  const ProcessResult one = Md5stage({"info", mesh.string(), "--json"});
  ASSERT_EQ(one.status, 0) << one.err;
  Result<JsonValue> object = ParseJson("stdout", one.out);
  ASSERT_TRUE(object.ok()) << object.error().ToString() << "\n" << one.out;
  const JsonValue& m = object.value();
  ASSERT_TRUE(m.is_object());
  EXPECT_EQ(m.Find("kind")->as_string(), "mesh");
  EXPECT_EQ(m.Find("joints")->as_number(), 2);
  EXPECT_EQ(m.Find("meshes")->as_number(), 1);
  EXPECT_EQ(m.Find("vertices")->as_number(), 3);
  EXPECT_EQ(m.Find("triangles")->as_number(), 1);
  EXPECT_EQ(m.Find("weights")->as_number(), 3);
  EXPECT_EQ(m.Find("max_weights_per_vertex")->as_number(), 1);

  const ProcessResult two = Md5stage({"info", "--json", mesh.string(), anim.string()});
  ASSERT_EQ(two.status, 0) << two.err;
  Result<JsonValue> array = ParseJson("stdout", two.out);
  ASSERT_TRUE(array.ok()) << array.error().ToString();
  ASSERT_TRUE(array.value().is_array());
  ASSERT_EQ(array.value().as_array().size(), 2u);
  const JsonValue& a = array.value().as_array()[1];
  EXPECT_EQ(a.Find("kind")->as_string(), "anim");
  EXPECT_EQ(a.Find("joints")->as_number(), 2);
  EXPECT_EQ(a.Find("frames")->as_number(), 3);
  EXPECT_EQ(a.Find("frame_rate")->as_number(), 10);
  EXPECT_EQ(a.Find("animated_components")->as_number(), 4);
  EXPECT_NEAR(a.Find("duration")->as_number(), 0.2, 1e-6);
}

// --json goes through the core's writer: a file name with quotes, a backslash and a tab comes
// back as the same string, a file that fails has its located error in "error", and the frame rate
// and duration carry the digits the text line shows.
TEST(InfoCommand, JsonEscapesNamesAndReportsErrorsPerFile) {
  const fs::path odd = WriteFile("q\"uo\\te\t.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("rate.md5anim", kAnimFixture);
  const fs::path bad =
      WriteFile("bad_json.md5mesh", Replace(kMeshFixture, "tri 0 0 1 2", "tri 0 0 1 7"));
  const ProcessResult run = Md5stage({"info", "--json", odd.string(), bad.string(), anim.string()});
  EXPECT_EQ(run.status, 1);
  Result<JsonValue> parsed = ParseJson("stdout", run.out);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString() << "\n" << run.out;
  const JsonArray& files = parsed.value().as_array();
  ASSERT_EQ(files.size(), 3u) << run.out;
  EXPECT_EQ(files[0].Find("file")->as_string(), odd.string());
  EXPECT_EQ(files[0].Find("kind")->as_string(), "mesh");
  EXPECT_TRUE(files[0].Find("warnings")->is_array());
  EXPECT_EQ(files[1].Find("file")->as_string(), bad.string());
  ASSERT_NE(files[1].Find("error"), nullptr) << run.out;
  EXPECT_EQ(files[1].Find("error")->as_string(),
            bad.string() + ":19:12: error: expected a vertex index from 0 to 2, found '7'");
  EXPECT_EQ(files[1].Find("joints"), nullptr);
  EXPECT_EQ(FormatJsonNumber(files[2].Find("duration")->as_number()), "0.200000003");
  EXPECT_EQ(FormatJsonNumber(files[2].Find("frame_rate")->as_number()), "10");
}

TEST(InfoCommand, InvalidFilesExitOneWithLocatedErrors) {
  const fs::path good = WriteFile("good.md5mesh", kMeshFixture);
  const fs::path bad =
      WriteFile("bad.md5mesh", Replace(kMeshFixture, "tri 0 0 1 2", "tri 0 0 1 7"));
  const ProcessResult run = Md5stage({"info", good.string(), bad.string()});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            bad.string() + ":19:12: error: expected a vertex index from 0 to 2, found '7'\n");
  EXPECT_NE(run.out.find("good.md5mesh: mesh"), std::string::npos);
  const ProcessResult missing = Md5stage({"info", (TempDir() / "missing.md5anim").string()});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("missing.md5anim: error: cannot open file"), std::string::npos);
}

TEST(InfoCommand, WarningsGoToStderrAndKeepExitZero) {
  const fs::path mesh =
      WriteFile("warn.md5mesh", Replace(kMeshFixture, "weight 0 0 1", "weight 0 0 0.5"));
  const ProcessResult run = Md5stage({"info", mesh.string()});
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.err.find(mesh.string() + ":15:17: warning: mesh 0 (shader \"skin\"): 1 of 3 "
                                         "vertices have weights that do not sum to 1"),
            std::string::npos)
      << run.err;
}

TEST(InfoCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(Md5stage({"info"}).status, 2);
  EXPECT_EQ(Md5stage({"info", "--yaml", "x.md5mesh"}).status, 2);
}

TEST(CheckCommand, FittingAnimsExitZero) {
  const fs::path mesh = WriteFile("check.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("check.md5anim", kAnimFixture);
  const fs::path renamed =
      WriteFile("renamed.md5anim", Replace(kAnimFixture, "\"child\" 0", "\"Child\" 0"));
  const ProcessResult run = Md5stage({"check", mesh.string(), anim.string(), renamed.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(anim.string() + ": fits " + mesh.string() + " (2 joints, 3 frames)"),
            std::string::npos);
  EXPECT_NE(run.err.find(renamed.string() + ":11: warning: 1 of 2 joint names differ from " +
                         mesh.string()),
            std::string::npos)
      << run.err;
}

TEST(CheckCommand, AnAnimThatDoesNotFitExitsOne) {
  const fs::path mesh = WriteFile("check2.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("check2.md5anim", kAnimFixture);
  const std::string one_joint =
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n";
  const fs::path other = WriteFile("one_joint.md5anim", one_joint);
  const ProcessResult run = Md5stage({"check", mesh.string(), other.string(), anim.string()});
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(
      run.err.find(other.string() + ":3: error: expected the 2 joints of " + mesh.string() +
                   ", found 1 joints (" + other.string() + " does not fit " + mesh.string() + ")"),
      std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find(anim.string() + ": fits"), std::string::npos);
  EXPECT_EQ(Md5stage({"check", mesh.string()}).status, 2);
}

TEST(PoseCommand, BindPoseObjInFileOrderAndCoordinates) {
  const fs::path mesh = WriteFile("pose.md5mesh", kMeshFixture);
  const fs::path out = TempDir() / "bind.obj";
  const ProcessResult run = Md5stage({"pose", mesh.string(), "--obj", out.string()});
  ASSERT_EQ(run.status, 0) << run.err;
  const Obj obj = ReadObj(out);
  EXPECT_EQ(obj.objects, std::vector<std::string>{"skin"});
  ASSERT_EQ(obj.vertices.size(), 3u);
  EXPECT_TRUE(Near(obj.vertices[0], {0, 0, 0}));
  EXPECT_TRUE(Near(obj.vertices[1], {1, 0, 0}));
  EXPECT_TRUE(Near(obj.vertices[2], {0, 1, 1}));  // the child's (0,1,0), child at z = 1
  ASSERT_EQ(obj.uvs.size(), 3u);
  EXPECT_EQ(obj.uvs[1], glm::vec2(1, 0));
  EXPECT_EQ(obj.faces, (std::vector<std::vector<int>>{{1, 2, 3}}));
}

// kAnimFixture on kMeshFixture, worked out: the root is at (tx, ty, 0) unrotated; the child sits
// 1 above it turned by the MD5 quaternion of (qx, 0.6, qz).
std::vector<glm::vec3> ExpectedPose(glm::vec2 root, glm::vec3 child_xyz) {
  const float r = 1 - glm::dot(child_xyz, child_xyz);
  const glm::quat q(-std::sqrt(r), child_xyz.x, child_xyz.y, child_xyz.z);
  const glm::vec3 origin(root, 0);
  return {origin, origin + glm::vec3(1, 0, 0),
          origin + glm::vec3(0, 0, 1) + q * glm::vec3(0, 1, 0)};
}

TEST(PoseCommand, FramesAndInterpolatedLoopingTimes) {
  const fs::path mesh = WriteFile("posea.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("posea.md5anim", kAnimFixture);
  const fs::path out = TempDir() / "anim.obj";
  struct Case {
    std::vector<std::string> option;
    std::vector<glm::vec3> expected;
  };
  const std::vector<glm::vec3> frame1 = ExpectedPose({1, 2}, {0.5f, 0.6f, 0});
  const std::vector<glm::vec3> frame2 = ExpectedPose({2, 4}, {0, 0.6f, 0.6f});
  // Halfway between frames 0 and 1: nlerp of the child's rotations.
  const glm::quat q0(-0.8f, 0, 0.6f, 0);
  const glm::quat q1(-std::sqrt(0.39f), 0.5f, 0.6f, 0);
  const glm::quat half = glm::normalize(q0 * 0.5f + q1 * 0.5f);
  const std::vector<glm::vec3> between = {
      {0.5f, 1, 0}, {1.5f, 1, 0}, glm::vec3(0.5f, 1, 1) + half * glm::vec3(0, 1, 0)};
  const std::vector<Case> cases = {{{"--frame", "1"}, frame1},
                                   {{"--frame", "2"}, frame2},
                                   {{"--time", "0.1"}, frame1},
                                   {{"--time", "0.05"}, between},
                                   {{"--time", "0.25"}, between},  // loops past the end
                                   {{}, ExpectedPose({0, 0}, {0, 0.6f, 0})}};
  for (const Case& c : cases) {
    std::vector<std::string> args = {"pose", mesh.string(), anim.string(), "--obj", out.string()};
    args.insert(args.end(), c.option.begin(), c.option.end());
    const ProcessResult run = Md5stage(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const Obj obj = ReadObj(out);
    ASSERT_EQ(obj.vertices.size(), 3u);
    for (int v = 0; v < 3; ++v) {
      EXPECT_TRUE(Near(obj.vertices[v], c.expected[v], 1e-4f))
          << (c.option.empty() ? "default" : c.option[0] + " " + c.option[1]) << " vertex " << v;
    }
  }
}

TEST(PoseCommand, PlainWeightedSumUnlessNormalize) {
  const fs::path mesh = WriteFile(
      "half.md5mesh", Replace(kMeshFixture, "weight 1 0 1 ( 1 0 0 )", "weight 1 0 0.5 ( 1 0 0 )"));
  const fs::path out = TempDir() / "half.obj";
  ASSERT_EQ(Md5stage({"pose", mesh.string(), "--obj", out.string()}).status, 0);
  EXPECT_TRUE(Near(ReadObj(out).vertices[1], {0.5f, 0, 0}));
  ASSERT_EQ(Md5stage({"pose", mesh.string(), "--normalize", "--obj", out.string()}).status, 0);
  EXPECT_TRUE(Near(ReadObj(out).vertices[1], {1, 0, 0}));
}

TEST(PoseCommand, RejectsBadArguments) {
  const fs::path mesh = WriteFile("args.md5mesh", kMeshFixture);
  const fs::path anim = WriteFile("args.md5anim", kAnimFixture);
  const std::string out = (TempDir() / "args.obj").string();
  EXPECT_EQ(Md5stage({"pose", mesh.string()}).status, 2);  // no --obj
  EXPECT_EQ(Md5stage({"pose", mesh.string(), "--frame", "1", "--obj", out}).status, 2);
  EXPECT_EQ(Md5stage({"pose", mesh.string(), anim.string(), "--frame", "x", "--obj", out}).status,
            2);
  EXPECT_EQ(Md5stage({"pose", mesh.string(), anim.string(), "--frame", "1", "--time", "0.1",
                      "--obj", out})
                .status,
            2);
  const ProcessResult beyond =
      Md5stage({"pose", mesh.string(), anim.string(), "--frame", "3", "--obj", out});
  EXPECT_EQ(beyond.status, 1);
  EXPECT_NE(beyond.err.find("expected --frame from 0 to 2"), std::string::npos) << beyond.err;
  const fs::path bad =
      WriteFile("args_bad.md5mesh", Replace(kMeshFixture, "MD5Version 10", "MD5Version 4"));
  const ProcessResult invalid = Md5stage({"pose", bad.string(), "--obj", out});
  EXPECT_EQ(invalid.status, 1);
  EXPECT_EQ(invalid.err, bad.string() + ":1:12: error: expected MD5Version 10, found '4'\n");
}

// ---- Cross-check against Assimp -------------------------------------------------------------

const fs::path kSharedMd5 = fs::path(MD5STAGE_SHARED_DIR) / "md5";
const char kAssimp[] = "/usr/bin/assimp";

// Largest distance from a point of `a` to its nearest point of `b`.
float OneWayDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float worst = 0.0f;
  for (const glm::vec3& p : a) {
    float nearest = 1e30f;
    for (const glm::vec3& q : b) {
      const glm::vec3 d = p - q;
      nearest = std::min(nearest, glm::dot(d, d));
    }
    worst = std::max(worst, std::sqrt(nearest));
  }
  return worst;
}

TEST(PoseCommand, BindPoseMatchesAssimpOnEverySharedMesh) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::exists(kSharedMd5));
  MD5STAGE_SKIP_WITHOUT_TOOL(fs::exists(kAssimp),
                             std::string(kAssimp) + " (Debian package assimp-utils)");
  int meshes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSharedMd5)) {
    // Not the broken files, nor the MD5Version 11/12 meshes that must be refused.
    if (entry.path().extension() != ".md5mesh" ||
        entry.path().parent_path().filename() == "assimp_invalid" ||
        entry.path().parent_path().filename() == "extensions") {
      continue;
    }
    const std::string name =
        entry.path().parent_path().filename().string() + "_" + entry.path().stem().string();
    const fs::path ours = TempDir() / (name + ".md5stage.obj");
    const fs::path theirs = TempDir() / (name + ".assimp.obj");
    const ProcessResult pose = Md5stage({"pose", entry.path().string(), "--obj", ours.string()});
    ASSERT_EQ(pose.status, 0) << pose.err;
    const ProcessResult assimp =
        RunProgram(kAssimp, {"export", entry.path().string(), theirs.string()});
    ASSERT_EQ(assimp.status, 0) << entry.path() << "\n" << assimp.out << assimp.err;
    // Assimp's export turns Z-up into Y-up: (x, y, z) -> (x, z, -y).
    std::vector<glm::vec3> mine;
    for (const glm::vec3& v : ReadObj(ours).vertices) mine.push_back({v.x, v.z, -v.y});
    const std::vector<glm::vec3> reference = ReadObj(theirs).vertices;
    ASSERT_FALSE(mine.empty());
    ASSERT_FALSE(reference.empty()) << entry.path();
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& v : mine) {
      lo = glm::min(lo, v);
      hi = glm::max(hi, v);
    }
    const float tolerance = 1e-4f * glm::length(hi - lo);
    // Assimp merges duplicate vertices, so compare point sets both ways.
    EXPECT_LE(OneWayDistance(mine, reference), tolerance) << entry.path();
    EXPECT_LE(OneWayDistance(reference, mine), tolerance) << entry.path();
    ++meshes;
  }
  EXPECT_GE(meshes, 14);
}

}  // namespace
}  // namespace md5stage
