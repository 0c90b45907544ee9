// `md5stage export`: usage errors name the field (exit 2), bad inputs exit 1 with the file's
// message and write nothing, .glb and .gltf + .bin are written and the same run twice.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_test_util.h"

namespace md5stage::testing {
namespace {

const std::string kWalker = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";

std::string Quote(const std::string& path) { return "'" + path + "'"; }

TEST(ExportCommand, UsageErrorsNameTheFieldAndExitTwo) {
  const struct {
    std::string args;
    std::string expected;
  } cases[] = {
      {"", "MESH: expected an .md5mesh file, found nothing"},
      {Quote(kWalker + "walker.md5mesh"), "-o: expected OUT.glb or OUT.gltf, found nothing"},
      {Quote(kWalker + "walker.md5mesh") + " -o",
       "-o: expected OUT.glb or OUT.gltf, found nothing"},
      {Quote(kWalker + "walker.md5mesh") + " -o out.obj",
       "-o: expected a name ending in .glb or .gltf, found 'out.obj'"},
      {Quote(kWalker + "walk.md5anim") + " -o out.glb",
       "MESH: expected an .md5mesh file first, found"},
      {Quote(kWalker + "walker.md5mesh") + " " + Quote(kWalker + "walker.png") + " -o out.glb",
       "ANIM 1: expected an .md5anim file, found"},
      {Quote(kWalker + "walker.md5mesh") + " --fps 3 -o out.glb", "unknown option '--fps'"},
  };
  for (const auto& c : cases) {
    const CliRun run = RunCli("export " + c.args);
    EXPECT_EQ(run.status, 2) << c.args;
    EXPECT_NE(run.err.find(c.expected), std::string::npos) << c.args << "\n" << run.err;
    EXPECT_NE(run.err.find("usage: md5stage export"), std::string::npos);
  }
}

TEST(ExportCommand, AnAnimThatDoesNotFitExitsOneAndWritesNothing) {
  const std::string out = TempPath("misfit.glb");
  std::filesystem::remove(out);
  const CliRun run = RunCli(
      "export " + Quote(std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/lamp/lamp.md5mesh") +
      " " + Quote(kWalker + "walk.md5anim") + " -o " + Quote(out));
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("walk.md5anim"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("does not fit"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(ExportCommand, WritesGlbWithTheTextureBesideTheMeshTheSameEachTime) {
  const std::string first = TempPath("walker1.glb"), second = TempPath("walker2.glb");
  const std::string args = "export " + Quote(kWalker + "walker.md5mesh") + " " +
                           Quote(kWalker + "idle.md5anim") + " " + Quote(kWalker + "walk.md5anim");
  const CliRun run = RunCli(args + " -o " + Quote(first));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("1 mesh parts, 23 joints, 2 animations, 1 images"), std::string::npos)
      << run.out;
  ASSERT_EQ(RunCli(args + " -o " + Quote(second)).status, 0);
  const std::string bytes = ReadFile(first);
  ASSERT_GT(bytes.size(), 20u);
  EXPECT_EQ(bytes.substr(0, 4), "glTF");
  EXPECT_EQ(bytes, ReadFile(second));
  // The PNG beside the mesh is inside, byte for byte.
  EXPECT_NE(bytes.find(ReadFile(kWalker + "walker.png")), std::string::npos);
  EXPECT_NE(bytes.find("\"name\":\"walk\""), std::string::npos);
  EXPECT_NE(bytes.find("\"name\":\"idle\""), std::string::npos);
}

TEST(ExportCommand, GltfGoesWithABinNamedAfterIt) {
  const std::string gltf = TempPath("walker.gltf");
  const std::string bin = TempPath("walker.bin");
  std::filesystem::remove(bin);
  const CliRun run = RunCli("export " + Quote(kWalker + "walker.md5mesh") + " -o " + Quote(gltf));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string text = ReadFile(gltf);
  const std::string bin_name = std::filesystem::path(bin).filename().string();
  EXPECT_NE(text.find("\"uri\": \"" + bin_name + "\""), std::string::npos) << bin_name;
  ASSERT_TRUE(std::filesystem::exists(bin));
  EXPECT_GT(std::filesystem::file_size(bin), 3345u * 56u);
}

}  // namespace
}  // namespace md5stage::testing
