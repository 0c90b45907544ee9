// "Download glTF" (viewer/gltf_download.h): the exportGltf command and the Model panel's request
// hand the host one .glb per model, read back here by hand (GLB header and chunks, the JSON with
// the project's own parser): animations by name, diffuse images embedded byte for byte when glTF
// takes them (PNG, JPEG) and left out with a warning when not, the same bytes every time, and an
// export the core rejects reported on the status line with nothing handed over.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "viewer/viewer.h"

namespace md5stage::viewer {
namespace {

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string AssetPath(const std::string& relative) {
  return std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/" + relative;
}

struct Download {
  std::string name;
  std::string mime_type;
  std::string bytes;
};

class RecordingHost : public ViewerHost {
 public:
  void DownloadFile(const std::string& name, const std::string& mime_type,
                    const std::string& bytes) override {
    downloads.push_back({name, mime_type, bytes});
  }
  std::vector<Download> downloads;
};

uint32_t ReadU32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  if (at + 4 <= bytes.size()) std::memcpy(&value, bytes.data() + at, 4);  // GLB is little-endian
  return value;
}

// A .glb's parts: header fields, the JSON chunk parsed, the BIN chunk's bytes.
struct Glb {
  bool header_ok = false;
  uint32_t version = 0;
  JsonValue json;
  std::string bin;
};

Glb ParseGlb(const std::string& bytes) {
  Glb glb;
  if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return glb;
  glb.version = ReadU32(bytes, 4);
  if (ReadU32(bytes, 8) != bytes.size()) return glb;
  const uint32_t json_length = ReadU32(bytes, 12);
  if (ReadU32(bytes, 16) != 0x4E4F534Au || 20 + json_length > bytes.size()) return glb;
  JsonLimits limits;
  limits.max_bytes = json_length;
  auto json = ParseJson("glb", std::string_view(bytes).substr(20, json_length), limits);
  if (!json.ok()) return glb;
  glb.json = std::move(json).value();
  const size_t bin_at = 20 + json_length;
  if (bin_at + 8 <= bytes.size()) {
    const uint32_t bin_length = ReadU32(bytes, bin_at);
    if (ReadU32(bytes, bin_at + 4) != 0x004E4942u || bin_at + 8 + bin_length > bytes.size()) {
      return glb;
    }
    glb.bin = bytes.substr(bin_at + 8, bin_length);
  }
  glb.header_ok = true;
  return glb;
}

const JsonArray& ArrayOf(const JsonValue& object, const char* key) {
  static const JsonArray kEmpty;
  const JsonValue* value = object.Find(key);
  return value && value->is_array() ? value->as_array() : kEmpty;
}
std::string StringOf(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  return value && value->is_string() ? value->as_string() : "";
}
double NumberOf(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  return value && value->is_number() ? value->as_number() : -1.0;
}
bool Ok(const JsonValue& reply) {
  const JsonValue* ok = reply.Find("ok");
  return ok && ok->is_bool() && ok->as_bool();
}

// An image's bytes as the .glb holds them (through its bufferView into the BIN chunk).
std::string ImageBytes(const Glb& glb, const JsonValue& image) {
  const JsonArray& views = ArrayOf(glb.json, "bufferViews");
  const double view_index = NumberOf(image, "bufferView");
  if (view_index < 0 || view_index >= static_cast<double>(views.size())) return "";
  const JsonValue& view = views[static_cast<size_t>(view_index)];
  const double offset = std::max(0.0, NumberOf(view, "byteOffset"));
  const double length = NumberOf(view, "byteLength");
  if (length < 0 || offset + length > static_cast<double>(glb.bin.size())) return "";
  return glb.bin.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
}

JsonValue Command(const std::string& text) {
  auto parsed = ParseJson("test", text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? parsed.value() : JsonValue::MakeObject();
}

struct Stage {
  Stage() : viewer(&backend, &host) { viewer.SetViewport(1280, 720, 1.0f); }

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
  Viewer viewer;
};

TEST(GltfDownloadTest, CommandHandsTheHostTheModelWithItsAnimationsAndImage) {
  Stage stage;
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

TEST(GltfDownloadTest, PanelRequestGivesTheSameBytesAsTheCommandEveryTime) {
  Stage stage;
  ASSERT_TRUE(Ok(stage.Load({{"walker/walker.md5mesh", "walker.md5mesh"},
                             {"walker/run.md5anim", "run.md5anim"},
                             {"walker/walker.png", "walker.png"},
                             {"lamp/lamp.md5mesh", "lamp.md5mesh"},
                             {"lamp/lamp.png", "lamp.png"}})));
  ui::ViewerRequests requests;
  requests.download_gltf = 1;  // the lamp: the second model loaded
  stage.viewer.ApplyRequests(requests);
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
  Stage stage;
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

TEST(GltfDownloadTest, ImageGltfCannotTakeIsLeftOutWithAWarning) {
  Stage stage;
  // stb decodes by content, so the viewer shows this texture; glTF takes only PNG and JPEG files.
  ASSERT_TRUE(
      Ok(stage.Load({{"lamp/lamp.md5mesh", "lamp.md5mesh"}, {"lamp/lamp.png", "lamp.tga"}})));
  const JsonValue reply = stage.Export("lamp");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(NumberOf(reply, "images"), 0.0);
  const JsonArray& warnings = ArrayOf(reply, "warnings");
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].as_string().find("lamp.tga: warning: the diffuse image of mesh 0 is not "
                                         "embedded: glTF takes PNG or JPEG, found .tga"),
            std::string::npos)
      << warnings[0].as_string();
  const Glb glb = ParseGlb(stage.host.downloads.back().bytes);
  ASSERT_TRUE(glb.header_ok);
  EXPECT_TRUE(ArrayOf(glb.json, "images").empty());
}

TEST(GltfDownloadTest, ExportTheCoreRejectsIsAnErrorAndHandsNothingOver) {
  Stage stage;
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
