// Materials and skins in the viewer: a dropped Doom 3-style folder (mesh, materials/*.mtr,
// _d/_local/_s TGAs under models/...) binds diffuse, normal and specular maps; materials or
// images dropped later re-resolve; a missing image is one warning naming material and file and
// the model keeps drawing; broken decls and images are messages that lose nothing; image
// programs make normal maps; skins switch by command and travel in scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../tga_writer.h"
#include "core/common/json.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

using testing::MarkedPicture;
using testing::WriteTga;

// Two parts: "models/hero/body" and "models/hero/head".
std::string HeroMesh() {
  std::string mesh =
      "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 2\n"
      "joints {\n\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n";
  for (const char* shader : {"models/hero/body", "models/hero/head"}) {
    mesh += std::string("mesh {\n\tshader \"") + shader +
            "\"\n\tnumverts 3\n"
            "\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n\tvert 2 ( 0 1 ) 2 1\n"
            "\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 3\n"
            "\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 0 1 ( 10 0 0 )\n\tweight 2 0 1 ( 0 0 10 )\n}\n";
  }
  return mesh;
}

std::string Tga(uint8_t r, uint8_t g, uint8_t b) {
  return WriteTga(4, 4, MarkedPicture(4, 4, {r, g, b, 255}, {r, g, b, 255}));
}

const char kHeroMtr[] = R"(// the hero's materials
models/hero/body
{
	diffusemap	models/hero/body_d.tga
	bumpmap		models/hero/body_local.tga
	specularmap	models/hero/body_s.tga
}
models/hero/head
{
	{ blend diffusemap map models/hero/head_d.tga }
	bumpmap addnormals( models/hero/head_local.tga, heightmap( models/hero/head_h.tga, 4 ) )
}
models/hero/red_body
{
	diffusemap models/hero/red_d.tga
	bumpmap models/hero/body_local.tga
}
)";

const char kHeroSkin[] = R"(skin skins/hero/red
{
	model models/hero/hero.md5mesh
	models/hero/body models/hero/red_body
}
skin skins/other/blue
{
	model models/other/other.md5mesh
	* models/other/blue
}
)";

class MaterialsTest : public ::testing::Test {
 protected:
  MaterialsTest() : viewer_(&backend_, nullptr) { viewer_.SetViewport(640, 480, 1.0f); }

  void Queue(const std::string& name, std::string bytes) {
    InputFile file;
    file.name = name;
    file.bytes = std::move(bytes);
    file.source = "local";
    viewer_.QueueFile(std::move(file));
  }
  void QueueHeroFolder(bool with_head_height = true) {
    Queue("models/hero/hero.md5mesh", HeroMesh());
    Queue("materials/hero.mtr", kHeroMtr);
    Queue("models/hero/body_d.tga", Tga(200, 50, 50));
    Queue("models/hero/body_local.tga", Tga(128, 128, 255));
    Queue("models/hero/body_s.tga", Tga(90, 90, 90));
    Queue("models/hero/head_d.tga", Tga(50, 200, 50));
    Queue("models/hero/head_local.tga", Tga(128, 128, 255));
    if (with_head_height) Queue("models/hero/head_h.tga", Tga(60, 60, 60));
  }
  static std::vector<std::string> Strings(const JsonValue& reply, const char* key) {
    std::vector<std::string> out;
    const JsonValue* list = reply.Find(key);
    if (list == nullptr || !list->is_array()) return out;
    for (const JsonValue& item : list->as_array()) out.push_back(item.as_string());
    return out;
  }
  static int CountContaining(const std::vector<std::string>& lines, const std::string& part) {
    return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
      return l.find(part) != std::string::npos;
    }));
  }
  JsonValue Call(const std::string& json) {
    auto parsed = ParseJson("test", json);
    EXPECT_TRUE(parsed.ok());
    return viewer_.Call(parsed.value());
  }
  static bool Ok(const JsonValue& reply) { return reply.Find("ok") && reply.Find("ok")->as_bool(); }
  const LoadedModel& Hero() { return viewer_.models().at(0); }

  NullRenderBackend backend_;
  Stage viewer_;
};

TEST_F(MaterialsTest, DoomFolderBindsDiffuseNormalAndSpecular) {
  QueueHeroFolder();
  const JsonValue reply = viewer_.LoadQueuedFiles();
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  const LoadedModel& hero = Hero();
  ASSERT_EQ(hero.parts.size(), 2u);
  EXPECT_EQ(hero.parts[0].material, "models/hero/body");
  EXPECT_EQ(hero.parts[1].material, "models/hero/head");
  EXPECT_EQ(hero.parts[0].diffuse_file, "models/hero/body_d.tga");
  EXPECT_EQ(hero.parts[0].normal_file, "models/hero/body_local.tga");
  EXPECT_EQ(hero.parts[0].specular_file, "models/hero/body_s.tga");
  EXPECT_EQ(hero.parts[1].diffuse_file, "models/hero/head_d.tga");
  EXPECT_EQ(hero.parts[1].normal_file, "models/hero/head_local.tga + models/hero/head_h.tga");
  EXPECT_EQ(hero.parts[1].specular_file, "");
  for (int p = 0; p < 2; ++p) {
    EXPECT_TRUE(hero.part_textures[p].diffuse.valid());
    EXPECT_TRUE(hero.part_textures[p].normal.valid());
  }
  EXPECT_TRUE(hero.part_textures[0].specular.valid());
  EXPECT_FALSE(hero.part_textures[1].specular.valid());
  // body_d, body_local, body_s, head_d, and the head's evaluated addnormals program.
  EXPECT_EQ(backend_.live_textures(), 5);
  EXPECT_TRUE(Strings(reply, "warnings").empty()) << WriteJson(reply);
}

TEST_F(MaterialsTest, MaterialsDroppedLaterReResolve) {
  Queue("models/hero/hero.md5mesh", HeroMesh());
  Queue("models/hero/body_d.tga", Tga(200, 50, 50));
  Queue("models/hero/body_local.tga", Tga(128, 128, 255));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  // Without a material: the guess by the shader's base name finds body_d and body_local.
  EXPECT_EQ(Hero().parts[0].diffuse_file, "models/hero/body_d.tga");
  EXPECT_EQ(Hero().parts[0].normal_file, "models/hero/body_local.tga");
  EXPECT_EQ(Hero().parts[0].material, "");
  const TextureHandle diffuse = Hero().part_textures[0].diffuse;
  Queue("materials/hero.mtr", kHeroMtr);
  Queue("models/hero/body_s.tga", Tga(90, 90, 90));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  EXPECT_EQ(Hero().parts[0].material, "models/hero/body");
  EXPECT_EQ(Hero().parts[0].specular_file, "models/hero/body_s.tga");
  EXPECT_TRUE(Hero().part_textures[0].specular.valid());
  // The same file through the material: the texture made from it is kept, not made again.
  EXPECT_EQ(Hero().part_textures[0].diffuse, diffuse);
  EXPECT_EQ(backend_.live_textures(), 3);
  EXPECT_EQ(backend_.bad_destroys(), 0);
}

// Decls and images that arrive later re-resolve every model, but a model whose maps come from the
// same files as before is left alone: no texture remade, no part re-applied.
TEST_F(MaterialsTest, LaterDropsReapplyOnlyTheModelsTheyChange) {
  QueueHeroFolder();
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  const int after_hero = viewer_.library().part_applications();
  const int hero_textures = backend_.live_textures();
  EXPECT_EQ(after_hero, 2);  // its two parts

  // Another model (parts "models/other/torso" and "face") and its own image: the hero keeps
  // everything.
  std::string other = HeroMesh();
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"models/hero/body", "models/other/torso"},
        {"models/hero/head", "models/other/face"}}) {
    other.replace(other.find(from), from.size(), to);
  }
  Queue("models/other/other.md5mesh", other);
  Queue("models/other/torso_d.tga", Tga(20, 20, 220));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  EXPECT_EQ(viewer_.library().part_applications() - after_hero, 2)
      << "only the new model's two parts";
  EXPECT_EQ(viewer_.models().at(1).parts[0].diffuse_file, "models/other/torso_d.tga");
  const int after_other = viewer_.library().part_applications();
  const int textures_after_other = backend_.live_textures();
  EXPECT_EQ(textures_after_other, hero_textures + 1) << "the other model's one diffuse map";

  // A decl no model uses and an image nobody names: nothing is re-applied.
  Queue("materials/unused.mtr", "models/nobody/none { diffusemap models/nobody/none_d.tga }");
  Queue("models/nobody/none_d.tga", Tga(1, 2, 3));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  EXPECT_EQ(viewer_.library().part_applications(), after_other);

  // The hero's diffuse image dropped again with new bytes: the hero (only) is re-applied, and
  // its old diffuse texture is replaced, not leaked.
  const TextureHandle old_diffuse = Hero().part_textures[0].diffuse;
  Queue("models/hero/body_d.tga", Tga(10, 250, 10));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  EXPECT_EQ(viewer_.library().part_applications() - after_other, 2);
  EXPECT_NE(Hero().part_textures[0].diffuse, old_diffuse);
  EXPECT_EQ(backend_.bad_destroys(), 0);
  // Exactly as many textures as before the drop: the new diffuse made, the old one freed (an
  // image nobody names makes none).
  EXPECT_EQ(backend_.live_textures(), textures_after_other);
}

TEST_F(MaterialsTest, MissingImageIsOneWarningAndTheModelStillDraws) {
  QueueHeroFolder(false);
  const JsonValue reply = viewer_.LoadQueuedFiles();
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  const std::vector<std::string> warnings = Strings(reply, "warnings");
  EXPECT_EQ(CountContaining(warnings, "material 'models/hero/head'"), 1) << WriteJson(reply);
  EXPECT_EQ(CountContaining(warnings, "models/hero/head_h.tga"), 1);
  EXPECT_EQ(CountContaining(warnings, "materials/hero.mtr:"), 1);
  // The head keeps its diffuse map and falls back to a flat normal.
  EXPECT_TRUE(Hero().part_textures[1].diffuse.valid());
  EXPECT_FALSE(Hero().part_textures[1].normal.valid());
  viewer_.Update(1.0 / 30.0);
  DrawList list;
  viewer_.BuildDrawList(&list);
  EXPECT_EQ(list.instances.size(), 1u);
  // A later, unrelated drop does not repeat it; the image arriving mends the map.
  Queue("unrelated.tga", Tga(1, 2, 3));
  EXPECT_EQ(CountContaining(Strings(viewer_.LoadQueuedFiles(), "warnings"), "head_h"), 0);
  // Found by base name, with another extension and folder than the decl names.
  Queue("textures/HEAD_H.png", std::string());  // an empty file: never decoded (the .tga wins)
  Queue("other/head_h.tga", Tga(60, 60, 60));
  viewer_.LoadQueuedFiles();
  EXPECT_TRUE(Hero().part_textures[1].normal.valid());
}

TEST_F(MaterialsTest, BrokenDeclIsAnErrorAndLosesNothing) {
  QueueHeroFolder();
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  const int textures = backend_.live_textures();
  Queue("materials/broken.mtr", "models/x/y\n{\n  diffusemap models/x/y_d.tga\n");
  const JsonValue reply = viewer_.LoadQueuedFiles();
  EXPECT_FALSE(Ok(reply));
  const std::vector<std::string> errors = Strings(reply, "errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("materials/broken.mtr:", 0), 0u) << errors[0];
  EXPECT_EQ(viewer_.character_count(), 1);
  EXPECT_EQ(Hero().parts[0].material, "models/hero/body");
  EXPECT_EQ(backend_.live_textures(), textures);
}

TEST_F(MaterialsTest, BrokenImageIsAMessageAndTheRestBinds) {
  Queue("models/hero/hero.md5mesh", HeroMesh());
  Queue("materials/hero.mtr", kHeroMtr);
  const std::string whole = Tga(200, 50, 50);
  Queue("models/hero/body_d.tga", whole.substr(0, 30));  // truncated
  Queue("models/hero/body_local.tga", Tga(128, 128, 255));
  Queue("dds/models/hero/body_s.dds", "DDS ");  // found for body_s.tga, and truncated
  const JsonValue reply = viewer_.LoadQueuedFiles();
  EXPECT_EQ(CountContaining(Strings(reply, "errors"), "models/hero/body_d.tga"), 1)
      << WriteJson(reply);
  EXPECT_EQ(
      CountContaining(Strings(reply, "errors"), "dds/models/hero/body_s.dds: error: truncated"), 1);
  ASSERT_EQ(viewer_.models().size(), 1u);
  EXPECT_FALSE(Hero().part_textures[0].diffuse.valid());
  EXPECT_TRUE(Hero().part_textures[0].normal.valid());
  EXPECT_FALSE(Hero().part_textures[0].specular.valid());
}

// Headers claiming more than the limit over an image a model shows: each refused at the drop
// with the limit named, and the model keeps the texture it had (nothing re-applied, made or
// freed).
TEST_F(MaterialsTest, HostileImageOverAShownOneIsRefusedAndTheTextureKept) {
  QueueHeroFolder();
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  const TextureHandle diffuse = Hero().part_textures[0].diffuse;
  const int updates = viewer_.library().part_applications();
  const int textures = backend_.live_textures();
  std::string tga = Tga(1, 2, 3);
  tga[12] = tga[13] = tga[14] = tga[15] = static_cast<char>(0xff);  // 65535 a side
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
  for (const int shift : {24, 16, 8, 0, 24, 16, 8, 0}) {
    png += static_cast<char>((60000u >> shift) & 0xff);  // width, then height
  }
  png += std::string("\x08\x06\0\0\0", 5) + std::string(4, '\0');
  std::string dds = "DDS " + std::string(124, '\0');
  const auto put = [&dds](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) dds[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put(4, 124);
  put(12, 65535);
  put(16, 65535);
  put(76, 32);
  put(80, 4);           // a four-cc
  put(84, 0x31545844);  // "DXT1"
  const struct {
    const char* name;
    std::string bytes;
    std::string error;
  } rows[] = {
      {"tga 65535 x 65535", tga + std::string(16, '\x7f'),
       "models/hero/body_d.tga: error: image of 65535 x 65535 is larger than 8192 pixels a side"},
      {"png 60000 x 60000", png,
       "models/hero/body_d.tga: error: image of 60000 x 60000 is larger than 8192 pixels a side"},
      {"dds 65535 x 65535", dds + std::string(16, '\0'),
       "models/hero/body_d.tga: error: image of 65535 x 65535 is larger than 8192 pixels a side "
       "(or empty)"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    Queue("models/hero/body_d.tga", row.bytes);
    const JsonValue reply = viewer_.LoadQueuedFiles();
    EXPECT_FALSE(Ok(reply));
    EXPECT_EQ(Strings(reply, "errors"), std::vector<std::string>{row.error}) << WriteJson(reply);
    EXPECT_EQ(Strings(reply, "warnings"), std::vector<std::string>{}) << WriteJson(reply);
    EXPECT_EQ(Hero().part_textures[0].diffuse, diffuse);
    EXPECT_EQ(viewer_.library().part_applications(), updates);
    EXPECT_EQ(backend_.live_textures(), textures);
  }
  // A good image of that name still replaces it.
  Queue("models/hero/body_d.tga", Tga(10, 250, 10));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  EXPECT_NE(Hero().part_textures[0].diffuse, diffuse);
  EXPECT_EQ(backend_.live_textures(), textures);
}

TEST_F(MaterialsTest, SkinsSwitchByCommandAndTravelInScenes) {
  QueueHeroFolder();
  Queue("skins/hero.skin", kHeroSkin);
  Queue("models/hero/red_d.tga", Tga(255, 0, 0));
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  const JsonValue state = Call(R"({"cmd":"state"})");
  const JsonValue& model = state.Find("models")->as_array()[0];
  // Only the skin that names this model (the other names models/other/other.md5mesh).
  EXPECT_EQ(WriteJson(*model.Find("skins")), R"(["skins/hero/red"])");
  const TextureHandle before = Hero().part_textures[0].diffuse;

  ASSERT_TRUE(Ok(Call(R"({"cmd":"setSkin","model":"hero","skin":"skins/hero/red"})")));
  EXPECT_EQ(Hero().skin, "skins/hero/red");
  EXPECT_EQ(Hero().parts[0].material, "models/hero/red_body");
  EXPECT_EQ(Hero().parts[0].diffuse_file, "models/hero/red_d.tga");
  EXPECT_NE(Hero().part_textures[0].diffuse, before);
  EXPECT_EQ(Hero().parts[1].material, "models/hero/head");  // not remapped

  const JsonValue scene = Call(R"({"cmd":"sceneJson"})");
  EXPECT_NE(WriteJson(scene).find(R"("skin":"skins/hero/red")"), std::string::npos)
      << WriteJson(scene);

  ASSERT_TRUE(Ok(Call(R"({"cmd":"setSkin","model":"hero","skin":""})")));
  EXPECT_EQ(Hero().parts[0].diffuse_file, "models/hero/body_d.tga");
  EXPECT_EQ(backend_.bad_destroys(), 0);

  const JsonValue unknown = Call(R"({"cmd":"setSkin","model":"hero","skin":"skins/other/blue"})");
  EXPECT_FALSE(Ok(unknown));
  EXPECT_EQ(unknown.Find("error")->as_string().rfind("setSkin.skin: expected", 0), 0u)
      << WriteJson(unknown);
  const JsonValue no_model = Call(R"({"cmd":"setSkin","model":"nobody","skin":""})");
  EXPECT_EQ(no_model.Find("error")->as_string().rfind("setSkin.model:", 0), 0u);
  const JsonValue no_field = Call(R"({"cmd":"setSkin","model":"hero"})");
  EXPECT_EQ(no_field.Find("error")->as_string().rfind("setSkin.skin:", 0), 0u);
}

TEST_F(MaterialsTest, ScenesFetchMaterialsAndApplyTheSkin) {
  // As the page fetches a scene's files: sources are assets paths, not "local".
  for (const auto& [name, bytes] :
       std::vector<std::pair<std::string, std::string>>{{"hero.md5mesh", HeroMesh()},
                                                        {"hero.mtr", kHeroMtr},
                                                        {"hero.skin", kHeroSkin},
                                                        {"red_d.tga", Tga(255, 0, 0)},
                                                        {"body_d.tga", Tga(200, 50, 50)}}) {
    InputFile file;
    file.name = name;
    file.bytes = bytes;
    file.source = "models/hero/" + name;
    viewer_.QueueFile(std::move(file));
  }
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  const std::string scene =
      R"({"version":1,"models":[{"name":"hero","mesh":"models/hero/hero.md5mesh",)"
      R"("materials":["models/hero/hero.mtr","models/hero/hero.skin","models/hero/more.mtr"],)"
      R"("skin":"skins/hero/red"}],"instances":[{"model":"hero"}]})";
  const JsonValue prepared = Call(R"({"cmd":"prepareScene","scene":)" + scene + "}");
  ASSERT_TRUE(Ok(prepared)) << WriteJson(prepared);
  // Loaded decls are not fetched again; the one not loaded is, before the mesh would be.
  EXPECT_EQ(WriteJson(*prepared.Find("files")),
            R"([{"source":"models/hero/more.mtr","url":"assets/models/hero/more.mtr"}])");
  const JsonValue applied = Call(R"({"cmd":"applyScene"})");
  ASSERT_TRUE(Ok(applied)) << WriteJson(applied);
  EXPECT_EQ(Hero().skin, "skins/hero/red");
  EXPECT_EQ(Hero().parts[0].diffuse_file, "red_d.tga");
  const JsonValue written = Call(R"({"cmd":"sceneJson"})");
  const std::string text = WriteJson(written);
  EXPECT_NE(text.find(R"("materials":["models/hero/hero.mtr","models/hero/hero.skin",)"
                      R"("models/hero/more.mtr"],"skin":"skins/hero/red")"),
            std::string::npos)
      << text;
  // A skin the scene names that is not loaded: the scene opens, with a message naming it.
  const std::string bad =
      R"({"version":1,"models":[{"name":"hero","mesh":"models/hero/hero.md5mesh",)"
      R"("skin":"skins/none"}],"instances":[{"model":"hero"}]})";
  ASSERT_TRUE(Ok(Call(R"({"cmd":"prepareScene","scene":)" + bad + "}")));
  const JsonValue partly = Call(R"({"cmd":"applyScene"})");
  EXPECT_NE(WriteJson(partly).find("models[0].skin: 'skins/none' is not a loaded skin"),
            std::string::npos)
      << WriteJson(partly);
  EXPECT_EQ(viewer_.character_count(), 1);
}

// The images a fetched model's materials name and no file gave are asked for next to the mesh.
TEST_F(MaterialsTest, FetchedModelsAskForTheImagesTheirMaterialsName) {
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"hero.mtr", kHeroMtr}, {"hero.md5mesh", HeroMesh()}}) {
    InputFile file;
    file.name = name;
    file.bytes = bytes;
    file.source = "models/hero/" + name;
    viewer_.QueueFile(std::move(file));
  }
  const JsonValue reply = viewer_.LoadQueuedFiles();
  const std::string requests = WriteJson(*reply.Find("texture_requests"));
  for (const char* image : {"body_d", "body_local", "body_s", "head_d", "head_local", "head_h"}) {
    EXPECT_NE(requests.find(std::string("[\"models/hero/") + image + ".png\"]"), std::string::npos)
        << image << " in " << requests;
  }
}

TEST_F(MaterialsTest, RemovingTheModelReleasesEveryMapOnce) {
  QueueHeroFolder();
  ASSERT_TRUE(Ok(viewer_.LoadQueuedFiles()));
  ASSERT_TRUE(Ok(Call(R"({"cmd":"removeModel","model":"hero"})")));
  EXPECT_EQ(backend_.live_textures(), 0);
  EXPECT_EQ(backend_.bad_destroys(), 0);
}

}  // namespace
}  // namespace md5stage::viewer
