// Inputs the fuzzers (tests/fuzz) found to break an invariant, as hand-made files in
// tests/core/md5/regressions/ (also seeds for tests/fuzz/run.sh): each stays fixed.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "core/md5/md5_parser.h"

namespace md5stage::md5 {
namespace {

std::string ReadRegression(const std::string& name) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/md5/regressions/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

float Length(const glm::quat& q) {
  return std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
}

// fuzz_md5anim: an orientation component of -1e31 squared to infinity and normalized to the zero
// quaternion, so a sampled joint had no rotation at all (a collapsed limb on screen).
struct QuatCase {
  const char* name;
  glm::vec3 xyz;
  glm::quat expected;  // (w, x, y, z)
};

TEST(Md5Regression, QuatFromXyzIsUnitForHugeComponents) {
  const QuatCase cases[] = {
      {"one_huge", {-1e31f, 0.0f, 0.0f}, {0.0f, -1.0f, 0.0f, 0.0f}},
      {"float_max", {3.4e38f, -3.4e38f, 0.0f}, {0.0f, 0.70710678f, -0.70710678f, 0.0f}},
      {"all_huge", {1e20f, 1e20f, 1e20f}, {0.0f, 0.57735027f, 0.57735027f, 0.57735027f}},
      {"just_above_one", {1.0000001f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f}},
      // Within range nothing changes: w = -sqrt(1 - |xyz|^2).
      {"ordinary", {0.0f, 0.6f, 0.0f}, {-0.8f, 0.0f, 0.6f, 0.0f}},
  };
  for (const QuatCase& c : cases) {
    SCOPED_TRACE(c.name);
    const glm::quat q = QuatFromXyz(c.xyz);
    EXPECT_NEAR(Length(q), 1.0f, 1e-6f);
    EXPECT_NEAR(q.w, c.expected.w, 1e-6f);
    EXPECT_NEAR(q.x, c.expected.x, 1e-6f);
    EXPECT_NEAR(q.y, c.expected.y, 1e-6f);
    EXPECT_NEAR(q.z, c.expected.z, 1e-6f);
  }
}

TEST(Md5Regression, FilesWithHugeOrientationsLoadWithUnitRotations) {
  const Result<AnimFile> anim =
      ParseMd5Anim("a.md5anim", ReadRegression("huge_quaternion_component.md5anim"));
  ASSERT_TRUE(anim.ok()) << anim.error().ToString();
  EXPECT_FLOAT_EQ(anim.value().frame(1)[2], -1e31f);
  const Result<MeshFile> mesh =
      ParseMd5Mesh("m.md5mesh", ReadRegression("huge_joint_orientation.md5mesh"));
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  for (const MeshJoint& joint : mesh.value().joints) {
    EXPECT_NEAR(Length(joint.orientation), 1.0f, 1e-6f) << joint.name;
  }
}

// Error messages end up in JSON replies and on screen: bytes that are not UTF-8 (a PNG renamed to
// .md5mesh starts with 0x89) used to be copied raw into "found '...'".
struct FoundCase {
  const char* name;
  std::string bytes;
  const char* error;
};

TEST(Md5Regression, FoundTokensShowOnlyPrintableUtf8) {
  const FoundCase cases[] = {
      {"png", ReadRegression("png_named.md5mesh"),
       "pic.md5mesh:1:1: error: expected 'MD5Version', found '?PNG'"},
      {"utf8_kept", "MD5Versi\xc3\xb3n 10\n",
       "pic.md5mesh:1:1: error: expected 'MD5Version', found 'MD5Versi\xc3\xb3n'"},
      {"cut_utf8_sequence", "\xe2\x82 10\n",
       "pic.md5mesh:1:1: error: expected 'MD5Version', found '?"
       "?'"},
      {"long_token_cut_at_40_characters", std::string(30, 'a') + std::string(20, '\xc3') + " 1",
       "pic.md5mesh:1:1: error: expected 'MD5Version', found 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
       "??????????...'"},
      {"control_characters", "\x01\x02 10\n",
       "pic.md5mesh:1:1: error: expected 'MD5Version', found '?"
       "?'"},
  };
  for (const FoundCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Result<MeshFile> mesh = ParseMd5Mesh("pic.md5mesh", c.bytes);
    ASSERT_FALSE(mesh.ok());
    EXPECT_EQ(mesh.error().ToString(), c.error);
  }
}

}  // namespace
}  // namespace md5stage::md5
