// Anim-to-mesh binding: by index when count and parents match, warning on differing names,
// errors naming both files otherwise.
#include <gtest/gtest.h>

#include <string>

#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

using testing::kAnimFixture;
using testing::kMeshFixture;
using testing::Replace;

MeshFile Mesh(const std::string& text) {
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", text);
  EXPECT_TRUE(result.ok()) << result.error().ToString();
  return result.value();
}

AnimFile Anim(const std::string& text) {
  Result<AnimFile> result = ParseMd5Anim("a.md5anim", text);
  EXPECT_TRUE(result.ok()) << result.error().ToString();
  return result.value();
}

TEST(Binding, MatchingJointsFitWithoutWarnings) {
  std::vector<Diagnostic> warnings;
  EXPECT_TRUE(CheckAnimFitsMesh(Mesh(kMeshFixture), Anim(kAnimFixture), &warnings).ok());
  EXPECT_TRUE(warnings.empty());
}

TEST(Binding, DifferentNamesWithSameShapeWarnAndBindByIndex) {
  std::vector<Diagnostic> warnings;
  const AnimFile anim = Anim(Replace(kAnimFixture, "\"child\" 0", "\"Child.L\" 0"));
  EXPECT_TRUE(CheckAnimFitsMesh(Mesh(kMeshFixture), anim, &warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].ToString(),
            "a.md5anim:11: warning: 1 of 2 joint names differ from m.md5mesh (first: joint 1 is "
            "\"Child.L\" here and \"child\" there); count, order and parents match, so joints are "
            "bound by index");
}

TEST(Binding, DifferentJointCountIsAnErrorNamingBothFiles) {
  const std::string three_joints = Replace(
      Replace(kMeshFixture, "numJoints 2", "numJoints 3"), "\t\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n",
      "\t\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n\t\"tip\" 1 ( 0 0 2 ) ( 0 0 0 )\n");
  const Status status = CheckAnimFitsMesh(Mesh(three_joints), Anim(kAnimFixture), nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().ToString(),
            "a.md5anim:5: error: expected the 3 joints of m.md5mesh, found 2 joints (a.md5anim "
            "does not fit m.md5mesh)");
}

TEST(Binding, DifferentParentsAreAnErrorNamingBothJoints) {
  const std::string mesh_text = Replace(
      Replace(kMeshFixture, "numJoints 2", "numJoints 3"), "\t\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n",
      "\t\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n\t\"tip\" 1 ( 0 0 2 ) ( 0 0 0 )\n");
  const std::string anim_text =
      Replace(Replace(Replace(kAnimFixture, "numJoints 2", "numJoints 3"), "\t\"child\" 0 40 2\n",
                      "\t\"child\" 0 40 2\n\t\"tip\" 0 0 0\n"),
              "\t( 0 0 1 ) ( 0 0.6 0 )\n", "\t( 0 0 1 ) ( 0 0.6 0 )\n\t( 0 0 2 ) ( 0 0 0 )\n");
  const Status status = CheckAnimFitsMesh(Mesh(mesh_text), Anim(anim_text), nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().ToString(),
            "a.md5anim:12: error: expected joint 2 \"tip\" to have parent 1 like joint 2 \"tip\" "
            "of m.md5mesh, found parent 0 (a.md5anim does not fit m.md5mesh)");
}

}  // namespace
}  // namespace md5stage::md5
