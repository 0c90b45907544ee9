// "Download glTF" (viewer/gltf_download.h): the exportGltf command and the Model panel's request
// hand the host one .glb per model, read back here by hand (GLB header and chunks, the JSON with
// the project's own parser): animations by name, PNG and JPEG maps embedded byte for byte, TGA
// maps and normal maps (green flipped) re-encoded as PNG, maps that do not decode left out with a
// warning, the same bytes every time, and an export the core rejects reported on the status line
// with nothing handed over.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../glb_reader.h"
#include "../tga_writer.h"
#include "core/common/json.h"
#include "core/material/image_decode.h"
#include "ui/panel_commands.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using md5stage::test::ArrayOf;
using md5stage::test::Glb;
using md5stage::test::ImageBytes;
using md5stage::test::NumberOf;
using md5stage::test::ParseGlb;
using md5stage::test::StringOf;
using test::Command;
using test::Download;
using test::Ok;
using test::ReadBytes;
using test::RecordingHost;

std::string AssetPath(const std::string& relative) { return test::AssetModelPath(relative); }

struct TestStage {
  TestStage() : viewer(&backend, &host) { viewer.SetViewport(1280, 720, 1.0f); }

  // Files from assets/models, optionally renamed (same bytes): {path, name}.
  JsonValue Load(const std::vector<std::pair<std::string, std::string>>& files) {
    for (const auto& [path, name] : files) {
      InputFile file;
      file.name = name;
      file.source = "local";
      file.bytes = ReadBytes(AssetPath(path));
      EXPECT_FALSE(file.bytes.empty()) << path;
      viewer.QueueFile(std::move(file));
    }
    return viewer.LoadQueuedFiles();
  }
  JsonValue Export(const std::string& model) {
    return viewer.Call(Command(R"({"cmd":"exportGltf","model":")" + model + "\"}"));
  }

  NullRenderBackend backend;
  RecordingHost host;
  Stage viewer;
};

TEST(GltfDownloadTest, CommandHandsTheHostTheModelWithItsAnimationsAndImage) {
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.md5mesh", "walker.md5mesh"},
                             {"walker/idle.md5anim", "idle.md5anim"},
                             {"walker/walk.md5anim", "walk.md5anim"},
                             {"walker/walker.png", "walker.png"}})));
  const JsonValue reply = stage.Export("walker");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  ASSERT_EQ(stage.host.downloads.size(), 1u);
  const Download& download = stage.host.downloads[0];
  EXPECT_EQ(download.name, "walker.glb");
  EXPECT_EQ(download.mime_type, "model/gltf-binary");
  EXPECT_EQ(StringOf(reply, "file"), "walker.glb");
  EXPECT_EQ(NumberOf(reply, "bytes"), static_cast<double>(download.bytes.size()));
  EXPECT_EQ(NumberOf(reply, "animations"), 2.0);
  EXPECT_EQ(NumberOf(reply, "images"), 1.0);

  const Glb glb = ParseGlb(download.bytes);
  ASSERT_TRUE(glb.header_ok);
  EXPECT_EQ(glb.version, 2u);
  std::vector<std::string> animation_names;
  for (const JsonValue& animation : ArrayOf(glb.json, "animations")) {
    animation_names.push_back(StringOf(animation, "name"));
  }
  EXPECT_EQ(animation_names, (std::vector<std::string>{"idle", "walk"}));
  EXPECT_EQ(ArrayOf(glb.json, "skins").size(), 1u);
  const JsonArray& images = ArrayOf(glb.json, "images");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(StringOf(images[0], "mimeType"), "image/png");
  EXPECT_EQ(ImageBytes(glb, images[0]), ReadBytes(AssetPath("walker/walker.png")));
  EXPECT_EQ(stage.viewer.StatusLine(), "walker.glb: " + std::to_string(download.bytes.size()) +
                                           " bytes, 2 animation(s), 1 image(s)");
}

TEST(GltfDownloadTest, PanelCommandGivesTheSameBytesAsTheCommandEveryTime) {
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.md5mesh", "walker.md5mesh"},
                             {"walker/run.md5anim", "run.md5anim"},
                             {"walker/walker.png", "walker.png"},
                             {"lamp/lamp.md5mesh", "lamp.md5mesh"},
                             {"lamp/lamp.png", "lamp.png"}})));
  // The Model panel's "Download glTF" of the lamp, the second model loaded.
  const JsonValue command = ui::command::DownloadGltf(stage.viewer.BuildViewerModel(), 1);
  EXPECT_EQ(WriteJson(command), R"({"cmd":"exportGltf","model":"m2"})");
  ASSERT_TRUE(Ok(stage.viewer.Call(command)));
  ASSERT_EQ(stage.host.downloads.size(), 1u);
  EXPECT_EQ(stage.host.downloads[0].name, "lamp.glb");
  ASSERT_TRUE(Ok(stage.Export("lamp")));
  ASSERT_EQ(stage.host.downloads.size(), 2u);
  EXPECT_EQ(stage.host.downloads[1].bytes, stage.host.downloads[0].bytes);

  const Glb lamp = ParseGlb(stage.host.downloads[0].bytes);
  ASSERT_TRUE(lamp.header_ok);
  EXPECT_TRUE(ArrayOf(lamp.json, "animations").empty());  // the lamp has no animation
  ASSERT_EQ(ArrayOf(lamp.json, "images").size(), 1u);
  EXPECT_EQ(ImageBytes(lamp, ArrayOf(lamp.json, "images")[0]),
            ReadBytes(AssetPath("lamp/lamp.png")));

  ASSERT_TRUE(Ok(stage.Export("walker")));
  const Glb walker = ParseGlb(stage.host.downloads[2].bytes);
  ASSERT_EQ(ArrayOf(walker.json, "animations").size(), 1u);
  EXPECT_EQ(StringOf(ArrayOf(walker.json, "animations")[0], "name"), "run");
  EXPECT_EQ(ImageBytes(walker, ArrayOf(walker.json, "images")[0]),
            ReadBytes(AssetPath("walker/walker.png")));
}

TEST(GltfDownloadTest, ImagesDroppedAfterTheMeshAreEmbeddedAndAbsentOnesLeaveNoImage) {
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.md5mesh", "walker.md5mesh"}})));
  ASSERT_TRUE(Ok(stage.Export("walker")));
  const Glb bare = ParseGlb(stage.host.downloads.back().bytes);
  ASSERT_TRUE(bare.header_ok);
  EXPECT_TRUE(ArrayOf(bare.json, "images").empty());
  EXPECT_TRUE(ArrayOf(bare.json, "animations").empty());

  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.png", "textures/walker.png"}})));
  const JsonValue reply = stage.Export("walker");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  const Glb textured = ParseGlb(stage.host.downloads.back().bytes);
  const JsonArray& images = ArrayOf(textured.json, "images");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(StringOf(images[0], "name"), "walker.png");  // the base name, not the folder
  EXPECT_EQ(ImageBytes(textured, images[0]), ReadBytes(AssetPath("walker/walker.png")));
}

// The RGBA pixels of an embedded image, decoded.
material::RgbaImage DecodedImageOf(const Glb& glb, const JsonValue& image) {
  auto decoded = material::DecodeImage(StringOf(image, "name"), ImageBytes(glb, image));
  EXPECT_TRUE(decoded.ok()) << decoded.error().ToString();
  return decoded.ok() ? decoded.value() : material::RgbaImage{};
}

material::RgbaImage DecodedAsset(const std::string& path) {
  auto decoded = material::DecodeImage(path, ReadBytes(AssetPath(path)));
  EXPECT_TRUE(decoded.ok()) << path;
  return decoded.ok() ? decoded.value() : material::RgbaImage{};
}

TEST(GltfDownloadTest, TgaDiffuseIsEmbeddedAsAPngOfTheSamePixels) {
  TestStage stage;
  const material::RgbaImage lamp = DecodedAsset("lamp/lamp.png");
  InputFile tga;
  tga.name = "lamp.tga";
  tga.source = "local";
  tga.bytes = testing::WriteTga(lamp.width, lamp.height, lamp.rgba, {32, true, false});
  stage.viewer.QueueFile(std::move(tga));
  ASSERT_TRUE(Ok(stage.Load({{"lamp/lamp.md5mesh", "lamp.md5mesh"}})));
  const JsonValue reply = stage.Export("lamp");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(NumberOf(reply, "images"), 1.0);
  EXPECT_TRUE(ArrayOf(reply, "warnings").empty()) << WriteJson(reply);
  const Glb glb = ParseGlb(stage.host.downloads.back().bytes);
  ASSERT_TRUE(glb.header_ok);
  const JsonArray& images = ArrayOf(glb.json, "images");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(StringOf(images[0], "name"), "lamp.png");
  EXPECT_EQ(StringOf(images[0], "mimeType"), "image/png");
  const material::RgbaImage embedded = DecodedImageOf(glb, images[0]);
  EXPECT_EQ(embedded.width, lamp.width);
  EXPECT_EQ(embedded.height, lamp.height);
  EXPECT_TRUE(embedded.rgba == lamp.rgba) << "the PNG made from the TGA has other pixels";
}

TEST(GltfDownloadTest, MaterialMapsAreEmbeddedWithTheNormalMapsGreenInGltfsConvention) {
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.md5mesh", "walker.md5mesh"},
                             {"walker/walker.mtr", "materials/walker.mtr"},
                             {"walker/walker.png", "models/walker/walker.png"},
                             {"walker/walker_local.png", "models/walker/walker_local.png"},
                             {"walker/walker_s.png", "models/walker/walker_s.png"}})));
  const JsonValue reply = stage.Export("walker");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(NumberOf(reply, "images"), 3.0);
  const Glb glb = ParseGlb(stage.host.downloads.back().bytes);
  ASSERT_TRUE(glb.header_ok);
  const JsonArray& images = ArrayOf(glb.json, "images");
  const JsonArray& textures = ArrayOf(glb.json, "textures");
  const JsonArray& materials = ArrayOf(glb.json, "materials");
  ASSERT_EQ(images.size(), 3u);
  ASSERT_EQ(materials.size(), 1u);
  const auto image_of = [&](const JsonValue* texture_info) -> const JsonValue& {
    EXPECT_NE(texture_info, nullptr);
    const int texture = static_cast<int>(NumberOf(*texture_info, "index"));
    return images[static_cast<size_t>(NumberOf(textures[static_cast<size_t>(texture)], "source"))];
  };
  const JsonValue& material = materials[0];
  const JsonValue& diffuse =
      image_of(material.Find("pbrMetallicRoughness")->Find("baseColorTexture"));
  const JsonValue& normal = image_of(material.Find("normalTexture"));
  const JsonValue* extensions = material.Find("extensions");
  ASSERT_NE(extensions, nullptr);
  const JsonValue* specular_extension = extensions->Find("KHR_materials_specular");
  ASSERT_NE(specular_extension, nullptr);
  const JsonValue& specular = image_of(specular_extension->Find("specularColorTexture"));
  // PNG maps without a program go in byte for byte; the normal map is re-encoded.
  EXPECT_EQ(ImageBytes(glb, diffuse), ReadBytes(AssetPath("walker/walker.png")));
  EXPECT_EQ(ImageBytes(glb, specular), ReadBytes(AssetPath("walker/walker_s.png")));
  const material::RgbaImage source = DecodedAsset("walker/walker_local.png");
  const material::RgbaImage embedded = DecodedImageOf(glb, normal);
  ASSERT_EQ(embedded.rgba.size(), source.rgba.size());
  size_t changed_green = 0;
  for (size_t i = 0; i < source.rgba.size(); ++i) {
    const int expected = i % 4 == 1 ? 255 - source.rgba[i] : source.rgba[i];
    ASSERT_EQ(embedded.rgba[i], expected) << "byte " << i;
    if (i % 4 == 1 && source.rgba[i] != 255 - source.rgba[i]) ++changed_green;
  }
  EXPECT_GT(changed_green, source.rgba.size() / 8) << "the walker's map has little green to flip";
  bool uses_specular = false;
  for (const JsonValue& name : ArrayOf(glb.json, "extensionsUsed")) {
    uses_specular = uses_specular || name.as_string() == "KHR_materials_specular";
  }
  EXPECT_TRUE(uses_specular);
}

TEST(GltfDownloadTest, MapThatDoesNotDecodeIsLeftOutWithAWarningNamingIt) {
  TestStage stage;
  // A PNG whose header is sound (so the drop keeps it: 2x2, 8-bit RGBA) and whose pixel data
  // is not zlib: only decoding finds that out.
  InputFile broken;
  broken.name = "lamp_local.png";
  broken.source = "local";
  const auto chunk = [](const std::string& type, const std::string& data) {
    const uint32_t n = static_cast<uint32_t>(data.size());
    std::string out{char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
    return out + type + data + std::string(4, '\0');  // stb_image does not check the CRC
  };
  broken.bytes = std::string("\x89PNG\r\n\x1a\n", 8) +
                 chunk("IHDR", std::string("\0\0\0\x02\0\0\0\x02\x08\x06\0\0\0", 13)) +
                 chunk("IDAT", "not zlib data") + chunk("IEND", "");
  stage.viewer.QueueFile(std::move(broken));
  // The viewer reports the file it cannot decode and shows the lamp without its normal map.
  const JsonValue loaded =
      stage.Load({{"lamp/lamp.md5mesh", "lamp.md5mesh"}, {"lamp/lamp.png", "lamp.png"}});
  EXPECT_NE(WriteJson(loaded).find("lamp_local.png"), std::string::npos) << WriteJson(loaded);
  const JsonValue reply = stage.Export("lamp");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(NumberOf(reply, "images"), 1.0);  // the diffuse map
  const JsonArray& warnings = ArrayOf(reply, "warnings");
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].as_string().find("the normal map is not embedded: lamp_local.png"),
            std::string::npos)
      << warnings[0].as_string();
  const Glb glb = ParseGlb(stage.host.downloads.back().bytes);
  ASSERT_TRUE(glb.header_ok);
  EXPECT_EQ(ArrayOf(glb.json, "materials")[0].Find("normalTexture"), nullptr);
}

TEST(GltfDownloadTest, ExportTheCoreRejectsIsAnErrorAndHandsNothingOver) {
  TestStage stage;
  // One joint and a mesh part without triangles: the viewer shows it (nothing to draw), the
  // exporter needs a part with triangles.
  InputFile file;
  file.name = "empty.md5mesh";
  file.source = "local";
  file.bytes =
      "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\n"
      "joints {\n\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
      "mesh {\n\tshader \"empty\"\n\tnumverts 0\n\tnumtris 0\n\tnumweights 0\n}\n";
  stage.viewer.QueueFile(std::move(file));
  const JsonValue loaded = stage.viewer.LoadQueuedFiles();
  ASSERT_TRUE(Ok(loaded)) << WriteJson(loaded);
  const JsonValue reply = stage.Export("empty");
  EXPECT_FALSE(Ok(reply));
  EXPECT_EQ(StringOf(reply, "error").rfind("Download glTF: ", 0), 0u) << WriteJson(reply);
  EXPECT_NE(StringOf(reply, "error").find("expected a mesh part with triangles"), std::string::npos)
      << WriteJson(reply);
  EXPECT_TRUE(stage.host.downloads.empty());
  EXPECT_EQ(stage.viewer.last_error(), StringOf(reply, "error"));
}

}  // namespace
}  // namespace md5stage::viewer
