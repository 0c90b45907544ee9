// `md5stage export`: usage errors name the field (exit 2), bad inputs exit 1 with the file's
// message and write nothing, .glb and .gltf + .bin are written and the same run twice.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../tga_writer.h"
#include "cli_test_util.h"
#include "core/material/image_decode.h"

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
      {Quote(kWalker + "walker.md5mesh") + " -o out.glb --materials",
       "--materials: expected a folder, found nothing"},
      {Quote(kWalker + "walker.md5mesh") + " -o out.glb --materials " +
           Quote(kWalker + "walker.png"),
       "--materials: expected a folder, found '"},
      {Quote(kWalker + "walker.md5mesh") + " -o out.glb --skin", "--skin: expected a skin's name"},
      {Quote(kWalker + "walker.md5mesh") + " -o out.glb --skin nope",
       "--skin: expected a skin defined under"},
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

TEST(ExportCommand, WritesGlbWithTheMapsOfTheMaterialBesideTheMeshTheSameEachTime) {
  const std::string first = TempPath("walker1.glb"), second = TempPath("walker2.glb");
  const std::string args = "export " + Quote(kWalker + "walker.md5mesh") + " " +
                           Quote(kWalker + "idle.md5anim") + " " + Quote(kWalker + "walk.md5anim");
  const CliRun run = RunCli(args + " -o " + Quote(first));
  ASSERT_EQ(run.status, 0) << run.err;
  // walker.mtr names the diffuse, normal and specular maps.
  EXPECT_NE(run.out.find("1 mesh parts, 23 joints, 2 animations, 3 images"), std::string::npos)
      << run.out;
  EXPECT_EQ(run.err, "");
  ASSERT_EQ(RunCli(args + " -o " + Quote(second)).status, 0);
  const std::string bytes = ReadFile(first);
  ASSERT_GT(bytes.size(), 20u);
  EXPECT_EQ(bytes.substr(0, 4), "glTF");
  EXPECT_EQ(bytes, ReadFile(second));
  // The diffuse and specular PNGs are inside byte for byte; the normal map is re-encoded.
  EXPECT_NE(bytes.find(ReadFile(kWalker + "walker.png")), std::string::npos);
  EXPECT_NE(bytes.find(ReadFile(kWalker + "walker_s.png")), std::string::npos);
  EXPECT_EQ(bytes.find(ReadFile(kWalker + "walker_local.png")), std::string::npos);
  EXPECT_NE(bytes.find("\"normalTexture\""), std::string::npos);
  EXPECT_NE(bytes.find("\"KHR_materials_specular\""), std::string::npos);
  EXPECT_NE(bytes.find("\"TANGENT\""), std::string::npos);
  EXPECT_NE(bytes.find("\"name\":\"walk\""), std::string::npos);
  EXPECT_NE(bytes.find("\"name\":\"idle\""), std::string::npos);
}

TEST(ExportCommand, MaterialsFolderGivesTgaMapsAsPngs) {
  // A Doom 3 layout: the mesh in one folder, the decl and TGAs under another.
  const std::filesystem::path root = TempPath("tga_mod");
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "materials");
  std::filesystem::create_directories(root / "models/walker");
  {
    std::ofstream(root / "materials/walker.mtr")
        << "models/walker/walker\n{\n\tdiffusemap models/walker/walker_d.tga\n"
           "\tbumpmap heightmap(models/walker/walker_h.tga, 4)\n}\n";
    const std::vector<uint8_t> picture = MarkedPicture(4, 2, {200, 100, 50, 255}, {1, 2, 3, 255});
    std::ofstream(root / "models/walker/walker_d.tga", std::ios::binary)
        << WriteTga(4, 2, picture, {24, true, false});
    std::ofstream(root / "models/walker/walker_h.tga", std::ios::binary)
        << WriteTga(4, 2, picture, {32, false, true});
  }
  const std::string out = TempPath("tga_mod.glb");
  const CliRun run = RunCli("export " + Quote(kWalker + "walker.md5mesh") + " --materials " +
                            Quote(root.string()) + " -o " + Quote(out));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("2 images"), std::string::npos) << run.out;
  const std::string bytes = ReadFile(out);
  EXPECT_NE(bytes.find("\"walker_d.png\""), std::string::npos);
  EXPECT_NE(bytes.find("\"walker_h.png\""), std::string::npos);  // the heightmap's normal map
  EXPECT_NE(bytes.find("\"mimeType\":\"image/png\""), std::string::npos);
  EXPECT_EQ(bytes.find("image/tga"), std::string::npos);
}

TEST(ExportCommand, ConvertBackGivesTheMaterialsMapsAgain) {
  const std::string glb = TempPath("maps_round_trip.glb");
  const std::filesystem::path dir = TempPath("maps_round_trip");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(RunCli("export " + Quote(kWalker + "walker.md5mesh") + " -o " + Quote(glb)).status, 0);
  const CliRun run = RunCli("convert " + Quote(glb) + " -o " + Quote(dir.string()));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string stem = std::filesystem::path(glb).stem().string();
  const std::string mtr = ReadFile((dir / (stem + ".mtr")).string());
  EXPECT_NE(mtr.find("diffusemap\twalker.png"), std::string::npos) << mtr;
  EXPECT_NE(mtr.find("bumpmap\t\twalker_local.png"), std::string::npos) << mtr;
  EXPECT_NE(mtr.find("specularmap\twalker_s.png"), std::string::npos) << mtr;
  EXPECT_EQ(ReadFile((dir / "walker.png").string()), ReadFile(kWalker + "walker.png"));
  EXPECT_EQ(ReadFile((dir / "walker_s.png").string()), ReadFile(kWalker + "walker_s.png"));
  // The normal map went to glTF's green and back: the same pixels, in another PNG.
  auto source = material::DecodeImage("source", ReadFile(kWalker + "walker_local.png"));
  auto back = material::DecodeImage("back", ReadFile((dir / "walker_local.png").string()));
  ASSERT_TRUE(source.ok() && back.ok());
  EXPECT_EQ(back.value().width, source.value().width);
  EXPECT_TRUE(back.value().rgba == source.value().rgba);
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
