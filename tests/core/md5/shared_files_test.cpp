// Real files from other exporters (../shared/md5): every mesh and anim loads, every anim fits
// the mesh it ships with, and Assimp's crafted broken files fail with clear errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"

namespace md5stage::md5 {
namespace {

namespace fs = std::filesystem;

const fs::path kSharedMd5 = fs::path(MD5STAGE_SHARED_DIR) / "md5";

std::vector<fs::path> FilesWithExtension(const std::string& extension) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSharedMd5)) {
    // Left out: the broken files and the MD5Version 11/12 meshes, which must be refused (below).
    const fs::path folder = entry.path().parent_path().filename();
    if (entry.path().extension() == extension && folder != "assimp_invalid" &&
        folder != "extensions") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

#define SKIP_WITHOUT_SHARED() MD5STAGE_SKIP_WITHOUT_SHARED(fs::exists(kSharedMd5))

TEST(SharedFiles, EveryMeshLoads) {
  SKIP_WITHOUT_SHARED();
  const std::vector<fs::path> meshes = FilesWithExtension(".md5mesh");
  EXPECT_GE(meshes.size(), 14u);
  for (const fs::path& path : meshes) {
    Result<std::string> bytes = ReadFileBytes(path.string());
    ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
    Result<MeshFile> mesh = ParseMd5Mesh(path.string(), bytes.value());
    ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
    EXPECT_GT(mesh.value().joints.size(), 0u) << path;
    EXPECT_GT(mesh.value().vertex_count(), 0) << path;
    EXPECT_GT(mesh.value().triangle_count(), 0) << path;
  }
}

TEST(SharedFiles, OtherMd5VersionsAreRefused) {
  SKIP_WITHOUT_SHARED();
  const fs::path folder = kSharedMd5 / "darkradiant_decls" / "extensions";
  int refused = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".md5mesh") continue;
    Result<std::string> bytes = ReadFileBytes(entry.path().string());
    ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
    Result<MeshFile> mesh = ParseMd5Mesh(entry.path().filename().string(), bytes.value());
    ASSERT_FALSE(mesh.ok()) << entry.path();
    EXPECT_NE(mesh.error().ToString().find("expected MD5Version 10, found '1"), std::string::npos)
        << mesh.error().ToString();
    ++refused;
  }
  EXPECT_EQ(refused, 2);
}

TEST(SharedFiles, KnownFactsOfTheHumanoid) {
  SKIP_WITHOUT_SHARED();
  const fs::path path = kSharedMd5 / "imprimis_bones" / "model.md5mesh";
  Result<std::string> bytes = ReadFileBytes(path.string());
  ASSERT_TRUE(bytes.ok());
  Result<MeshFile> mesh = ParseMd5Mesh("model.md5mesh", bytes.value());
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  // Facts stated in ../shared/md5/README.md.
  EXPECT_EQ(mesh.value().joints.size(), 59u);
  EXPECT_EQ(mesh.value().vertex_count(), 3189);
  EXPECT_EQ(mesh.value().weight_count(), 23455);
  EXPECT_EQ(mesh.value().max_weights_per_vertex(), 16);
  bool has_tag_weapon = false;
  for (const MeshJoint& joint : mesh.value().joints) has_tag_weapon |= joint.name == "tag_weapon";
  EXPECT_TRUE(has_tag_weapon);
  // The mesh has no shader line; more than 4 weights per vertex is reported.
  EXPECT_EQ(mesh.value().meshes[0].shader, "");
  ASSERT_EQ(mesh.value().warnings.size(), 1u);
  EXPECT_NE(mesh.value().warnings[0].message.find("more than 4 weights (up to 16)"),
            std::string::npos);
}

TEST(SharedFiles, MineWarnsAboutWeightsNotSummingToOne) {
  SKIP_WITHOUT_SHARED();
  const fs::path path = kSharedMd5 / "redeclipse_weapons" / "mine" / "mine.md5mesh";
  Result<std::string> bytes = ReadFileBytes(path.string());
  ASSERT_TRUE(bytes.ok());
  Result<MeshFile> mesh = ParseMd5Mesh("mine.md5mesh", bytes.value());
  ASSERT_TRUE(mesh.ok());
  ASSERT_EQ(mesh.value().warnings.size(), 1u);
  EXPECT_NE(mesh.value().warnings[0].message.find("do not sum to 1 (vert 0 sums to 0.5)"),
            std::string::npos)
      << mesh.value().warnings[0].message;
}

// Each anim fits the mesh of its folder (imprimis_bones keeps anims in animation/).
TEST(SharedFiles, EveryAnimLoadsAndFitsItsMesh) {
  SKIP_WITHOUT_SHARED();
  const std::vector<fs::path> anims = FilesWithExtension(".md5anim");
  EXPECT_GE(anims.size(), 80u);
  for (const fs::path& path : anims) {
    Result<std::string> bytes = ReadFileBytes(path.string());
    ASSERT_TRUE(bytes.ok());
    Result<AnimFile> anim = ParseMd5Anim(path.string(), bytes.value());
    ASSERT_TRUE(anim.ok()) << anim.error().ToString();
    EXPECT_GT(anim.value().frame_count, 0);
    fs::path folder = path.parent_path();
    if (folder.filename() == "animation") folder = folder.parent_path();
    int meshes_checked = 0;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".md5mesh") continue;
      Result<std::string> mesh_bytes = ReadFileBytes(entry.path().string());
      Result<MeshFile> mesh = ParseMd5Mesh(entry.path().string(), mesh_bytes.value());
      ASSERT_TRUE(mesh.ok());
      std::vector<Diagnostic> warnings;
      const Status fits = CheckAnimFitsMesh(mesh.value(), anim.value(), &warnings);
      EXPECT_TRUE(fits.ok()) << fits.error().ToString();
      ++meshes_checked;
    }
    EXPECT_GT(meshes_checked, 0) << path;
  }
}

struct InvalidCase {
  const char* file;
  int line;
  const char* message;
};

class AssimpInvalid : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(AssimpInvalid, FailsWithAClearError) {
  SKIP_WITHOUT_SHARED();
  const fs::path path = kSharedMd5 / "assimp_invalid" / GetParam().file;
  Result<std::string> bytes = ReadFileBytes(path.string());
  ASSERT_TRUE(bytes.ok());
  Result<MeshFile> mesh = ParseMd5Mesh(GetParam().file, bytes.value());
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().line, GetParam().line);
  EXPECT_EQ(mesh.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Files, AssimpInvalid,
    ::testing::Values(InvalidCase{"InvalidBoneIndex.md5mesh", 23,
                                  "expected a joint index from 0 to 0, found '999'"},
                      InvalidCase{"OverflowingTriangleIndex.md5mesh", 18,
                                  "expected triangle index 0, found '4294967295'"},
                      InvalidCase{"OverflowingVertexIndex.md5mesh", 15,
                                  "expected vertex index 0, found '4294967295'"},
                      InvalidCase{"OverflowingWeightIndex.md5mesh", 21,
                                  "expected weight index 0, found '4294967295'"}));

TEST(FileReader, MissingFileIsAnErrorNamingIt) {
  Result<std::string> bytes = ReadFileBytes("/nonexistent/dir/x.md5mesh");
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error().file, "/nonexistent/dir/x.md5mesh");
  EXPECT_NE(bytes.error().message.find("cannot open file"), std::string::npos);
}

TEST(FileReader, FilesAboveTheLimitAreRefused) {
  SKIP_WITHOUT_SHARED();
  const fs::path path = kSharedMd5 / "assimp_simplecube" / "SimpleCube.md5mesh";
  Result<std::string> bytes = ReadFileBytes(path.string(), 100);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.error().message.find("expected a file of at most 100 bytes"), std::string::npos);
  Result<std::string> whole = ReadFileBytes(path.string());
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole.value().size(), fs::file_size(path));
}

}  // namespace
}  // namespace md5stage::md5
