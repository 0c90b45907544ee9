// The committed assets/ folder is exactly a fresh generation, and every file is accepted by the
// core's own readers with no warning.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "assetgen_test_util.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "core/scene/scene_json.h"

namespace md5stage::assetgen {
namespace {

using testing::Assets;
using testing::AssetsDir;
using testing::FindFile;

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ';')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

TEST(CommittedAssets, EqualAFreshGenerationByteForByte) {
  for (const GeneratedFile& file : Assets().files) {
    Result<std::string> committed = md5::ReadFileBytes(AssetsDir() + "/" + file.path);
    ASSERT_TRUE(committed.ok()) << committed.error().ToString()
                                << " (build the md5stage_assets target)";
    EXPECT_TRUE(committed.value() == file.bytes)
        << "assets/" << file.path << " is stale: rebuild the md5stage_assets target and commit";
  }
}

TEST(CommittedAssets, FolderHoldsOnlyGeneratedFiles) {
  std::set<std::string> generated;
  for (const GeneratedFile& file : Assets().files) generated.insert(file.path);
  std::set<std::string> present;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(AssetsDir())) {
    if (!entry.is_regular_file()) continue;
    present.insert(std::filesystem::relative(entry.path(), AssetsDir()).generic_string());
  }
  EXPECT_EQ(present, generated);
}

TEST(CommittedAssets, CMakeOutputListMatchesTheGenerator) {
  std::vector<std::string> listed = Split(MD5STAGE_ASSET_FILES);
  std::vector<std::string> generated;
  for (const GeneratedFile& file : Assets().files) generated.push_back(file.path);
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, generated);
}

TEST(Generator, IsDeterministic) {
  AssetSet again = GenerateAssets();
  ASSERT_EQ(again.files.size(), Assets().files.size());
  for (size_t i = 0; i < again.files.size(); ++i) {
    EXPECT_EQ(again.files[i].path, Assets().files[i].path);
    EXPECT_TRUE(again.files[i].bytes == Assets().files[i].bytes) << again.files[i].path;
  }
}

TEST(GeneratedMd5, ParsesWithoutWarningsAndAnimsFitTheMesh) {
  const std::pair<const char*, std::vector<const char*>> models[] = {
      {"models/walker/walker.md5mesh",
       {"models/walker/idle.md5anim", "models/walker/walk.md5anim", "models/walker/run.md5anim",
        "models/walker/wave.md5anim"}},
      {"models/lamp/lamp.md5mesh", {}}};
  for (const auto& [mesh_path, anim_paths] : models) {
    const GeneratedFile* mesh_file = FindFile(mesh_path);
    ASSERT_NE(mesh_file, nullptr) << mesh_path;
    Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(mesh_path, mesh_file->bytes);
    ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
    EXPECT_TRUE(mesh.value().warnings.empty()) << mesh.value().warnings[0].ToString();
    EXPECT_LE(mesh.value().max_weights_per_vertex(), 4);
    for (const md5::MeshJoint& joint : mesh.value().joints) {
      EXPECT_LE(joint.orientation.w, 0.0f) << joint.name;
    }
    for (const char* anim_path : anim_paths) {
      const GeneratedFile* anim_file = FindFile(anim_path);
      ASSERT_NE(anim_file, nullptr) << anim_path;
      Result<md5::AnimFile> anim = md5::ParseMd5Anim(anim_path, anim_file->bytes);
      ASSERT_TRUE(anim.ok()) << anim.error().ToString();
      EXPECT_TRUE(anim.value().warnings.empty()) << anim.value().warnings[0].ToString();
      EXPECT_EQ(anim.value().frame_rate, 30.0f);
      std::vector<Diagnostic> binding_warnings;
      Status fits = md5::CheckAnimFitsMesh(mesh.value(), anim.value(), &binding_warnings);
      EXPECT_TRUE(fits.ok()) << anim_path;
      EXPECT_TRUE(binding_warnings.empty()) << anim_path << ": joint names differ";
    }
  }
}

TEST(GeneratedScenes, ParseAndReferenceTheGeneratedModels) {
  struct Expected {
    const char* path;
    size_t min_instances, routes;
    bool lamp;
  };
  const Expected expected[] = {{"scenes/default.json", 1, 1, false},
                               {"scenes/turns.json", 3, 0, false},
                               {"scenes/attach.json", 1, 1, true},
                               {"scenes/crowd.json", 40, 40, false}};
  for (const Expected& e : expected) {
    const GeneratedFile* file = FindFile(e.path);
    ASSERT_NE(file, nullptr) << e.path;
    Result<Scene> scene = ParseScene(e.path, file->bytes);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    const Scene& s = scene.value();
    EXPECT_GE(s.instances.size(), e.min_instances) << e.path;
    EXPECT_GE(s.routes.size(), e.routes) << e.path;
    for (const SceneModel& model : s.models) {
      ASSERT_NE(FindFile(model.mesh), nullptr) << e.path << ": " << model.mesh;
      for (const std::string& anim : model.anims) EXPECT_NE(FindFile(anim), nullptr) << anim;
    }
    bool carries_lamp = false;
    for (const SceneInstance& instance : s.instances) {
      for (const SceneAttachment& a : instance.attachments) {
        carries_lamp |= a.model == "lamp" && a.joint == "tag_hand_r";
      }
    }
    EXPECT_EQ(carries_lamp, e.lamp) << e.path;
  }
}

TEST(GeneratedScenes, TurnsSendsThreeRadiiToOnePointAndCrowdRoutesAreOwn) {
  Result<Scene> turns = ParseScene("turns.json", FindFile("scenes/turns.json")->bytes);
  ASSERT_TRUE(turns.ok());
  std::set<double> radii;
  for (const SceneInstance& i : turns.value().instances) {
    ASSERT_TRUE(i.target.has_value());
    EXPECT_EQ(i.target->position, turns.value().instances[0].target->position);
    radii.insert(i.turn_radius);
  }
  EXPECT_EQ(radii.size(), 3u);
  Result<Scene> crowd = ParseScene("crowd.json", FindFile("scenes/crowd.json")->bytes);
  ASSERT_TRUE(crowd.ok());
  std::set<int> routes;
  for (const SceneInstance& i : crowd.value().instances) routes.insert(i.route);
  EXPECT_EQ(routes.size(), crowd.value().instances.size()) << "each walker on its own route";
  EXPECT_EQ(routes.count(-1), 0u);
}

}  // namespace
}  // namespace md5stage::assetgen
