// The committed assets/ folder is exactly what md5stage_assetgen writes into a temporary folder,
// and every generated file is accepted by the core's own readers with no warning.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

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

// A folder under the system's temporary directory, removed with its contents at scope exit.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "md5stage-assets-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs `md5stage_assetgen OUT` (the developer's regenerate command) and returns its exit status.
int RunGenerator(const std::filesystem::path& out) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl(MD5STAGE_ASSETGEN, MD5STAGE_ASSETGEN, out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every regular file under `root`, as paths relative to it.
std::set<std::string> FilesUnder(const std::filesystem::path& root) {
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files.insert(std::filesystem::relative(entry.path(), root).generic_string());
    }
  }
  return files;
}

// The generator writes into a temporary folder (never into the source tree), and assets/ must be
// exactly that folder: the same files, byte for byte.
TEST(CommittedAssets, EqualAFreshGenerationByteForByte) {
  const TemporaryFolder generated;
  ASSERT_FALSE(generated.path().empty()) << "cannot create a temporary folder";
  ASSERT_EQ(RunGenerator(generated.path()), 0) << MD5STAGE_ASSETGEN << " " << generated.path();
  const std::set<std::string> fresh = FilesUnder(generated.path());
  const std::set<std::string> committed = FilesUnder(AssetsDir());
  ASSERT_FALSE(fresh.empty()) << "the generator wrote nothing";
  const char* regenerate =
      "; regenerate with ./build/native/md5stage_assetgen assets (from the repository root) and "
      "commit";
  for (const std::string& file : fresh) {
    if (committed.count(file) == 0) {
      ADD_FAILURE() << "assets/" << file << " is missing (the generator writes it)" << regenerate;
      continue;
    }
    Result<std::string> want = md5::ReadFileBytes((generated.path() / file).string());
    Result<std::string> have = md5::ReadFileBytes(AssetsDir() + "/" + file);
    ASSERT_TRUE(want.ok()) << want.error().ToString();
    ASSERT_TRUE(have.ok()) << have.error().ToString();
    if (have.value() == want.value()) continue;
    const auto mismatch = std::mismatch(have.value().begin(), have.value().end(),
                                        want.value().begin(), want.value().end());
    ADD_FAILURE() << "assets/" << file
                  << " differs from a fresh generation: " << have.value().size()
                  << " bytes committed, " << want.value().size()
                  << " generated, first difference at byte "
                  << (mismatch.first - have.value().begin()) << regenerate;
  }
  for (const std::string& file : committed) {
    if (fresh.count(file) == 0) {
      ADD_FAILURE() << "assets/" << file
                    << " is not made by the generator: remove it, or make tools/assetgen write it";
    }
  }
}

TEST(CommittedAssets, GeneratorProgramWritesWhatGenerateAssetsMakes) {
  const TemporaryFolder generated;
  ASSERT_FALSE(generated.path().empty()) << "cannot create a temporary folder";
  ASSERT_EQ(RunGenerator(generated.path()), 0);
  std::set<std::string> expected;
  for (const GeneratedFile& file : Assets().files) {
    expected.insert(file.path);
    Result<std::string> written = md5::ReadFileBytes((generated.path() / file.path).string());
    ASSERT_TRUE(written.ok()) << written.error().ToString();
    EXPECT_TRUE(written.value() == file.bytes) << file.path;
  }
  EXPECT_EQ(FilesUnder(generated.path()), expected);
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
