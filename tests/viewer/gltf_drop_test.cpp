// Dropping glTF into the viewer (model_library.cpp's import) and "Download MD5"
// (viewer/md5_download.h): a .glb or a .gltf with its .bin, made by the core's exporter from the
// walker, loads as an MD5 model with its animations and poses like the walker; a broken one is an
// error naming the glTF field that leaves the scene as it was; exportMd5 hands the host files that
// parse back and bind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../shared_data.h"
#include "../skinned_positions.h"
#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/anim/pose.h"
#include "core/common/json.h"
#include "core/convert/gltf_export.h"
#include "core/convert/gltf_import.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"
#include "ui/panel_commands.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::Command;
using test::Download;
using test::Ok;
using test::ReadBytes;
using test::RecordingHost;
using test::Strings;

std::string WalkerPath(const std::string& file) { return test::AssetModelPath("walker/" + file); }

// GPU-path skinned positions (4 weights, as glTF holds them) at a frame; bind pose when null.
std::vector<glm::vec3> Skinned(const anim::Model& model, const anim::Animation* animation,
                               int frame) {
  return md5stage::test::GpuSkinnedPositions(model, animation, frame);
}

// The walker as parsed from its files: the reference the imports are compared with.
struct Walker {
  Walker() {
    auto mesh = md5::ParseMd5Mesh("walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh")));
    EXPECT_TRUE(mesh.ok());
    model = anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh.value()));
    for (const char* name : {"walk", "run"}) {
      const std::string file = std::string(name) + ".md5anim";
      auto anim = md5::ParseMd5Anim(file, ReadBytes(WalkerPath(file)));
      EXPECT_TRUE(anim.ok()) << file;
      animations.push_back(std::make_shared<const anim::Animation>(
          anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(anim.value()))));
      names.push_back(name);
    }
  }
  // With `png`, every part's diffuse image is it, embedded as "walker.png".
  convert::GltfFiles Export(convert::GltfContainer container,
                            const std::string* png = nullptr) const {
    std::vector<convert::ExportAnimation> exports;
    for (size_t i = 0; i < animations.size(); ++i) {
      exports.push_back({animations[i].get(), names[i]});
    }
    convert::GltfFiles files;
    convert::GltfExportJob job;
    job.model = model.get();
    job.animations = exports;
    job.container = container;
    job.bin_uri = "walker.bin";
    const std::vector<convert::ExportImage> images = {{"walker.png", "image/png", png}};
    const std::vector<convert::ExportPartMaps> part_maps(static_cast<size_t>(model->mesh_count()),
                                                         convert::ExportPartMaps{0, -1, -1});
    if (png != nullptr) {
      job.images = images;
      job.part_maps = part_maps;
    }
    job.output = &files;
    EXPECT_TRUE(job.Run().ok());
    return files;
  }
  std::shared_ptr<const anim::Model> model;
  std::vector<std::shared_ptr<const anim::Animation>> animations;
  std::vector<std::string> names;
};

struct TestStage {
  TestStage() : viewer(&backend, &host) { viewer.SetViewport(1280, 720, 1.0f); }
  JsonValue Drop(const std::vector<std::pair<std::string, std::string>>& files) {
    for (const auto& [name, bytes] : files) viewer.QueueFile({name, bytes, "local"});
    return viewer.LoadQueuedFiles();
  }
  NullRenderBackend backend;
  RecordingHost host;
  Stage viewer;
};

// The dropped model poses like the walker within 1e-4 of its extent, at a few frames of each
// animation (the import's joint order and vertex order follow the export's).
void ExpectPosesLikeTheWalker(const LoadedModel& loaded, const Walker& walker) {
  ASSERT_EQ(loaded.animation_names.size(), 2u);
  const std::vector<glm::vec3> bind = Skinned(*walker.model, nullptr, 0);
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : bind) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const float tolerance = 1e-4f * glm::length(hi - lo);
  const auto compare = [&](const std::vector<glm::vec3>& expected,
                           const std::vector<glm::vec3>& actual, const std::string& pose) {
    ASSERT_EQ(actual.size(), expected.size()) << pose;
    float worst = 0.0f;
    for (size_t v = 0; v < expected.size(); ++v) {
      worst = std::max(worst, glm::length(expected[v] - actual[v]));
    }
    EXPECT_LE(worst, tolerance) << pose;
  };
  compare(bind, Skinned(*loaded.model, nullptr, 0), "bind pose");
  for (size_t a = 0; a < walker.names.size(); ++a) {
    const int index = loaded.FindAnimation(walker.names[a]);
    ASSERT_GE(index, 0) << walker.names[a];
    const anim::Animation& mine = *loaded.animations[static_cast<size_t>(index)];
    const anim::Animation& theirs = *walker.animations[a];
    ASSERT_EQ(mine.frame_count(), theirs.frame_count());
    for (int frame : {0, theirs.frame_count() / 3, theirs.frame_count() - 1}) {
      compare(Skinned(*walker.model, &theirs, frame), Skinned(*loaded.model, &mine, frame),
              walker.names[a] + " frame " + std::to_string(frame));
    }
  }
}

TEST(GltfDropTest, DroppedGlbLoadsAsAModelWithItsAnimationsAndPosesLikeTheWalker) {
  const Walker walker;
  const convert::GltfFiles glb = walker.Export(convert::GltfContainer::kGlb);
  TestStage stage;
  const JsonValue reply = stage.Drop({{"walker.glb", glb.main}});
  ASSERT_TRUE(Ok(reply)) << Strings(reply, "errors").front();
  EXPECT_EQ(Strings(reply, "models"), std::vector<std::string>{"walker"});
  ASSERT_EQ(stage.viewer.models().size(), 1u);
  EXPECT_EQ(stage.viewer.characters().size(), 1u);
  EXPECT_EQ(stage.viewer.StatusLine(), "Loaded 1 model(s), 2 animation(s), 0 texture(s)");
  ExpectPosesLikeTheWalker(stage.viewer.models()[0], walker);
}

TEST(GltfDropTest, GltfWithItsBinAndImageLoadsTheBinAndBindsTheImage) {
  const Walker walker;
  const convert::GltfFiles gltf = walker.Export(convert::GltfContainer::kGltfSeparateBin);
  ASSERT_FALSE(gltf.bin.empty());
  TestStage stage;
  // The image is named as the walker's shader, as md5 material lookup finds it.
  const JsonValue reply = stage.Drop({{"walker.gltf", gltf.main},
                                      {"walker.bin", gltf.bin},
                                      {"walker.png", ReadBytes(WalkerPath("walker.png"))}});
  ASSERT_TRUE(Ok(reply)) << Strings(reply, "errors").front();
  for (const std::string& warning : Strings(reply, "warnings")) {
    EXPECT_EQ(warning.find("ignored"), std::string::npos) << warning;  // .gltf/.bin are taken
  }
  ASSERT_EQ(stage.viewer.models().size(), 1u);
  const LoadedModel& loaded = stage.viewer.models()[0];
  ExpectPosesLikeTheWalker(loaded, walker);
  ASSERT_FALSE(loaded.parts.empty());
  EXPECT_EQ(loaded.parts[0].diffuse_file, "walker.png");
}

// A .glb that embeds its diffuse image (as "Download glTF" makes it) needs nothing else: the image
// comes out of its BIN chunk with an .mtr naming it, and binds to every part.
TEST(GltfDropTest, GlbWithAnEmbeddedImageBindsItAlone) {
  const Walker walker;
  const std::string png = ReadBytes(WalkerPath("walker.png"));
  ASSERT_FALSE(png.empty());
  const convert::GltfFiles glb = walker.Export(convert::GltfContainer::kGlb, &png);
  TestStage stage;
  const JsonValue reply = stage.Drop({{"walker.glb", glb.main}});
  ASSERT_TRUE(Ok(reply)) << Strings(reply, "errors").front();
  EXPECT_TRUE(Strings(reply, "warnings").empty()) << Strings(reply, "warnings").front();
  ASSERT_EQ(stage.viewer.models().size(), 1u);
  const LoadedModel& loaded = stage.viewer.models()[0];
  ExpectPosesLikeTheWalker(loaded, walker);
  ASSERT_FALSE(loaded.parts.empty());
  for (size_t p = 0; p < loaded.parts.size(); ++p) {
    EXPECT_TRUE(loaded.part_textures[p].diffuse.valid()) << "part " << p;
    EXPECT_EQ(loaded.parts[p].diffuse_file, "walker.png") << "part " << p;
    EXPECT_FALSE(loaded.parts[p].material.empty()) << "part " << p << ": through the .mtr";
  }
  EXPECT_EQ(stage.backend.live_textures(), 1);  // one image, one texture for every part
}

// glTF made by other tools (../shared/gltf: Blender's RiggedSimple.glb, Khronos' SimpleSkin.gltf
// with data: URIs): dropped, each shows as a model with its animation, posed as `md5stage convert`
// of the same file poses it (the CLI's conversion is checked against an independent glTF
// evaluator by tests/gltf/check_imports.mjs).
TEST(GltfDropTest, GltfFromOtherToolsLoadsAsConvertMakesIt) {
  const std::string root = std::string(MD5STAGE_SHARED_DIR) + "/gltf/";
  const std::string rigged = ReadBytes(root + "RiggedSimple/RiggedSimple.glb");
  const std::string simple = ReadBytes(root + "SimpleSkin/SimpleSkin.gltf");
  MD5STAGE_SKIP_WITHOUT_SHARED(!rigged.empty() && !simple.empty());
  for (const auto& [name, bytes] : {std::pair<std::string, std::string>{"RiggedSimple.glb", rigged},
                                    {"SimpleSkin.gltf", simple}}) {
    SCOPED_TRACE(name);
    convert::GltfImportOutput converted;
    convert::GltfImportJob job;
    job.file_name = name;
    job.bytes = bytes;
    job.output = &converted;
    ASSERT_TRUE(job.Run().ok());
    auto mesh = md5::ParseMd5Mesh("m.md5mesh", md5::WriteMd5Mesh(converted.mesh));
    ASSERT_TRUE(mesh.ok());
    const auto reference = anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh.value()));

    TestStage stage;
    const JsonValue reply = stage.Drop({{name, bytes}});
    ASSERT_TRUE(Ok(reply)) << Strings(reply, "errors").front();
    ASSERT_EQ(stage.viewer.models().size(), 1u);
    EXPECT_EQ(stage.viewer.characters().size(), 1u);
    const LoadedModel& loaded = stage.viewer.models()[0];
    ASSERT_EQ(loaded.animations.size(), converted.animations.size());
    ASSERT_FALSE(loaded.animations.empty());
    const std::vector<glm::vec3> bind = Skinned(*reference, nullptr, 0);
    const float tolerance = 1e-5f * md5stage::test::Extent(bind);
    EXPECT_LE(md5stage::test::WorstDistance(bind, Skinned(*loaded.model, nullptr, 0)), tolerance);
    for (size_t a = 0; a < converted.animations.size(); ++a) {
      auto file = md5::ParseMd5Anim("a.md5anim", md5::WriteMd5Anim(converted.animations[a].file));
      ASSERT_TRUE(file.ok());
      const anim::Animation theirs =
          anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(file.value()));
      const int index = loaded.FindAnimation(converted.animations[a].name);
      ASSERT_GE(index, 0) << converted.animations[a].name;
      const anim::Animation& mine = *loaded.animations[static_cast<size_t>(index)];
      ASSERT_EQ(mine.frame_count(), theirs.frame_count());
      for (int frame = 0; frame < theirs.frame_count(); frame += 7) {
        EXPECT_LE(md5stage::test::WorstDistance(Skinned(*reference, &theirs, frame),
                                                Skinned(*loaded.model, &mine, frame)),
                  tolerance)
            << "frame " << frame;
      }
    }
  }
}

// The core's reader (tinygltf) names the missing file, which is what the person must drop.
TEST(GltfDropTest, GltfWithoutItsBinIsAnErrorNamingTheMissingFile) {
  const Walker walker;
  const convert::GltfFiles gltf = walker.Export(convert::GltfContainer::kGltfSeparateBin);
  TestStage stage;
  const JsonValue reply = stage.Drop({{"walker.gltf", gltf.main}});
  EXPECT_FALSE(Ok(reply));
  const std::vector<std::string> errors = Strings(reply, "errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("walker.gltf: error:", 0), 0u) << errors[0];
  EXPECT_NE(errors[0].find("walker.bin"), std::string::npos) << errors[0];
  EXPECT_TRUE(stage.viewer.models().empty());
}

TEST(GltfDropTest, BrokenGlbIsAnErrorNamingTheFieldAndLeavesTheSceneAsItWas) {
  const Walker walker;
  std::string glb = walker.Export(convert::GltfContainer::kGlb).main;
  // Same length, so the GLB chunks stay whole: the asset has no "skins" any more.
  const size_t at = glb.find("\"skins\"");
  ASSERT_NE(at, std::string::npos);
  glb.replace(at, 7, "\"skinz\"");
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Drop({{"walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh"))},
                             {"walk.md5anim", ReadBytes(WalkerPath("walk.md5anim"))}})));
  const std::string status_before = stage.viewer.StatusLine();
  const JsonValue reply = stage.Drop({{"broken.glb", glb}});
  EXPECT_FALSE(Ok(reply));
  const std::vector<std::string> errors = Strings(reply, "errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("broken.glb"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("skins: expected a skin"), std::string::npos) << errors[0];
  EXPECT_NE(stage.viewer.StatusLine(), status_before);  // the error is shown
  ASSERT_EQ(stage.viewer.models().size(), 1u);
  EXPECT_EQ(stage.viewer.models()[0].name, "walker");
  EXPECT_EQ(stage.viewer.models()[0].animation_names, std::vector<std::string>{"walk"});
  EXPECT_EQ(stage.viewer.characters().size(), 1u);
}

// Files that pass a limit (issue 28): each refused with the limit named, the scene kept.
TEST(GltfDropTest, FilesPastALimitAreRefusedNamingItAndLeaveTheSceneAsItWas) {
  const std::string deep = R"({"asset":{"version":"2.0"},"extras":)" + std::string(200000, '[') +
                           std::string(200000, ']') + "}";
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\xea\x60\0\0\xea\x60\x08\x06\0\0\0", 29);
  png += std::string(40, '\0');
  std::string tga(18, '\0');
  tga[2] = 2, tga[12] = tga[13] = tga[14] = tga[15] = '\xff', tga[16] = 32;
  tga += std::string(16, '\x7f');
  const struct {
    InputFile file;
    const char* message;
  } rows[] = {
      {{"deep.gltf", deep, "local"},
       "deep.gltf:1:100: error: expected JSON nested at most 64 arrays and objects deep (the "
       "limit), found deeper"},
      {{"models/walker/walker.png", png, "local"},
       "models/walker/walker.png: error: image of 60000 x 60000 is larger than 8192 pixels a side"},
      {{"models/walker/walker.tga", tga, "local"},
       "models/walker/walker.tga: error: image of 65535 x 65535 is larger than 8192 pixels a side"},
      {{"far.md5camera",
        "MD5Version 10\ncommandline \"\"\nnumFrames 2147483648\nframeRate 24\nnumCuts 0\n",
        "local"},
       "far.md5camera:3:11: error: expected numFrames of at most 1048576 (the loader's limit), "
       "found '2147483648'"},
  };
  for (const auto& row : rows) {
    TestStage stage;
    ASSERT_TRUE(Ok(stage.Drop({{"walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh"))},
                               {"walk.md5anim", ReadBytes(WalkerPath("walk.md5anim"))}})));
    const JsonValue reply = stage.Drop({{row.file.name, row.file.bytes}});
    std::vector<std::string> said = Strings(reply, "errors");
    for (const std::string& warning : Strings(reply, "warnings")) said.push_back(warning);
    EXPECT_NE(std::find(said.begin(), said.end(), row.message), said.end())
        << row.file.name << ": " << WriteJson(reply);
    ASSERT_EQ(stage.viewer.models().size(), 1u) << row.file.name;
    EXPECT_EQ(stage.viewer.models()[0].name, "walker");
    EXPECT_EQ(stage.viewer.models()[0].animation_names, std::vector<std::string>{"walk"});
    EXPECT_EQ(stage.viewer.characters().size(), 1u);
  }
}

TEST(GltfDropTest, ExportMd5HandsTheMeshAndEachAnimationThatParseBackAndBind) {
  const Walker walker;
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Drop({{"walker.glb", walker.Export(convert::GltfContainer::kGlb).main}})));
  const JsonValue reply = stage.viewer.Call(Command(R"({"cmd":"exportMd5","model":"walker"})"));
  ASSERT_TRUE(Ok(reply));
  ASSERT_EQ(stage.host.downloads.size(), 3u);
  EXPECT_EQ(Strings(reply, "files"),
            (std::vector<std::string>{"walker.md5mesh", "walk.md5anim", "run.md5anim"}));
  const Download& mesh_download = stage.host.downloads[0];
  EXPECT_EQ(mesh_download.name, "walker.md5mesh");
  EXPECT_EQ(mesh_download.bytes.rfind("MD5Version 10", 0), 0u);
  auto mesh = md5::ParseMd5Mesh(mesh_download.name, mesh_download.bytes);
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  EXPECT_EQ(mesh.value().joints.size(), walker.model->source().joints.size());
  for (size_t i = 1; i < stage.host.downloads.size(); ++i) {
    const Download& download = stage.host.downloads[i];
    EXPECT_EQ(download.mime_type, "text/plain");
    auto anim = md5::ParseMd5Anim(download.name, download.bytes);
    ASSERT_TRUE(anim.ok()) << anim.error().ToString();
    std::vector<Diagnostic> warnings;
    EXPECT_TRUE(md5::CheckAnimFitsMesh(mesh.value(), anim.value(), &warnings).ok());
  }

  // Dropped back in, the files load as the same model again (a second "walker#2").
  std::vector<std::pair<std::string, std::string>> again;
  for (const Download& download : stage.host.downloads)
    again.push_back({download.name, download.bytes});
  const JsonValue reloaded = stage.Drop(again);
  ASSERT_TRUE(Ok(reloaded));
  ASSERT_EQ(stage.viewer.models().size(), 2u);
  ExpectPosesLikeTheWalker(stage.viewer.models()[1], walker);
}

TEST(GltfDropTest, ExportMd5OfAGlbWithMapsHandsItsMtrAndImagesThatBindAgain) {
  // A Doom 3 folder's walker, exported with its three maps, dropped as one .glb.
  TestStage source;
  ASSERT_TRUE(
      Ok(source.Drop({{"walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh"))},
                      {"idle.md5anim", ReadBytes(WalkerPath("idle.md5anim"))},
                      {"materials/walker.mtr", ReadBytes(WalkerPath("walker.mtr"))},
                      {"models/walker/walker.png", ReadBytes(WalkerPath("walker.png"))},
                      {"models/walker/walker_local.png", ReadBytes(WalkerPath("walker_local.png"))},
                      {"models/walker/walker_s.png", ReadBytes(WalkerPath("walker_s.png"))}})));
  ASSERT_TRUE(Ok(source.viewer.Call(Command(R"({"cmd":"exportGltf","model":"walker"})"))));
  const std::string glb = source.host.downloads.back().bytes;

  TestStage stage;
  ASSERT_TRUE(Ok(stage.Drop({{"hero.glb", glb}})));
  const JsonValue reply = stage.viewer.Call(Command(R"({"cmd":"exportMd5","model":"hero"})"));
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(Strings(reply, "files"),
            (std::vector<std::string>{"hero.md5mesh", "idle.md5anim", "hero.mtr", "walker.png",
                                      "walker_local.png", "walker_s.png"}));
  EXPECT_EQ(stage.host.downloads[3].mime_type, "image/png");
  EXPECT_EQ(stage.host.downloads[3].bytes, ReadBytes(WalkerPath("walker.png")));
  EXPECT_NE(stage.viewer.StatusLine().find("hero.md5mesh + 1 animation(s) + 4 material file(s)"),
            std::string::npos)
      << stage.viewer.StatusLine();

  // The six files dropped on a fresh viewer: the hero with all three maps bound.
  TestStage again;
  std::vector<std::pair<std::string, std::string>> files;
  for (const Download& download : stage.host.downloads)
    files.push_back({download.name, download.bytes});
  ASSERT_TRUE(Ok(again.Drop(files)));
  const LoadedModel& hero = again.viewer.models()[0];
  ASSERT_EQ(hero.parts.size(), 1u);
  EXPECT_EQ(hero.parts[0].diffuse_file, "walker.png");
  EXPECT_EQ(hero.parts[0].normal_file, "walker_local.png");
  EXPECT_EQ(hero.parts[0].specular_file, "walker_s.png");
  EXPECT_TRUE(hero.material_warnings.empty());
}

TEST(GltfDropTest, PanelCommandDownloadsTheMd5FilesOfThatModel) {
  TestStage stage;
  ASSERT_TRUE(Ok(stage.Drop({{"walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh"))},
                             {"run.md5anim", ReadBytes(WalkerPath("run.md5anim"))}})));
  const JsonValue command = ui::command::DownloadMd5(stage.viewer.BuildViewerModel(), 0);
  EXPECT_EQ(WriteJson(command), R"({"cmd":"exportMd5","model":"m1"})");
  ASSERT_TRUE(Ok(stage.viewer.Call(command)));
  ASSERT_EQ(stage.host.downloads.size(), 2u);
  EXPECT_EQ(stage.host.downloads[0].name, "walker.md5mesh");
  EXPECT_EQ(stage.host.downloads[1].name, "run.md5anim");
  // The writer's text of the parsed walker: it parses to the same joints as the file dropped.
  auto mesh = md5::ParseMd5Mesh("walker.md5mesh", stage.host.downloads[0].bytes);
  ASSERT_TRUE(mesh.ok());
  auto original = md5::ParseMd5Mesh("walker.md5mesh", ReadBytes(WalkerPath("walker.md5mesh")));
  ASSERT_TRUE(original.ok());
  ASSERT_EQ(mesh.value().joints.size(), original.value().joints.size());
  for (size_t j = 0; j < mesh.value().joints.size(); ++j) {
    EXPECT_EQ(mesh.value().joints[j].name, original.value().joints[j].name);
    EXPECT_EQ(mesh.value().joints[j].position, original.value().joints[j].position);
  }
}

}  // namespace
}  // namespace md5stage::viewer
