// `md5stage pack`: the mesh's pack beside it (or at -o), read back by the core as the mesh it was
// made from; wrong arguments are errors naming what is wrong, and a broken mesh writes nothing.
#include <gtest/gtest.h>

#include <string>

#include "../core/md5/test_fixtures.h"
#include "cli_test_util.h"
#include "core/md5/mesh_pack.h"

namespace md5stage {
namespace {

using testing::ReadFile;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

TEST(PackCommand, WritesThePackBesideTheMesh) {
  const std::string mesh = WriteTempFile("packed.md5mesh", md5::testing::kMeshFixture);
  const std::string beside = TempPath("packed.md5pack");
  std::remove(beside.c_str());
  const testing::CliRun run = RunCli("pack '" + mesh + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(beside), std::string::npos) << run.out;
  Result<md5::MeshFile> back = md5::DecodeMeshPack("packed.md5mesh", ReadFile(beside));
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(back.value().joints.size(), 2u);
  EXPECT_EQ(back.value().meshes[0].triangles.size(), 1u);
}

TEST(PackCommand, WritesWhereOSays) {
  const std::string mesh = WriteTempFile("named.md5mesh", md5::testing::kMeshFixture);
  const std::string out = TempPath("elsewhere.bin");
  const testing::CliRun run = RunCli("pack '" + mesh + "' -o '" + out + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(md5::IsMeshPack(ReadFile(out)));
}

TEST(PackCommand, ErrorsNameWhatIsWrong) {
  const std::string mesh = WriteTempFile("args.md5mesh", md5::testing::kMeshFixture);
  const std::string broken =
      WriteTempFile("broken.md5mesh",
                    md5::testing::Replace(md5::testing::kMeshFixture, "numverts 3", "numverts x"));
  struct Case {
    std::string args;
    int status;
    const char* message_part;
  };
  const Case cases[] = {
      {"pack", 2, "MESH.md5mesh is missing"},
      {"pack '" + mesh + "' '" + mesh + "'", 2, "one mesh at a time"},
      {"pack '" + mesh + "' --level 9", 2, "unknown option '--level'"},
      {"pack '" + mesh + "' -o", 2, "-o needs a file name"},
      {"pack '" + TempPath("missing.md5mesh") + "'", 1, "missing.md5mesh"},
      {"pack '" + broken + "' -o '" + TempPath("broken.md5pack") + "'", 1, "broken.md5mesh:14:"},
  };
  for (const Case& c : cases) {
    const testing::CliRun run = RunCli(c.args);
    EXPECT_EQ(run.status, c.status) << c.args << ": " << run.err;
    EXPECT_NE(run.err.find(c.message_part), std::string::npos) << c.args << ": " << run.err;
  }
  EXPECT_EQ(ReadFile(TempPath("broken.md5pack")), "");  // nothing written for a broken mesh
}

}  // namespace
}  // namespace md5stage
