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

// Run-time amplification the file-size bound did not cover. An animation of 20000 joints and
// 2000 frames fits in 646 KB (a frame "frame 0 {}" needs no bytes per joint) and made
// Animation::FromAnimFile allocate 1.1 GB for 20000 x 2000 transforms: the wasm heap's end.
std::string JointFramesBomb(int joints, int frames) {
  std::string text = "MD5Version 10\ncommandline \"\"\nnumFrames " + std::to_string(frames) +
                     "\nnumJoints " + std::to_string(joints) +
                     "\nframeRate 24\nnumAnimatedComponents 0\nhierarchy {\n\"j0\" -1 0 0\n";
  for (int j = 1; j < joints; ++j) text += "\"j" + std::to_string(j) + "\" 0 0 0\n";
  text += "}\nbounds {\n";
  for (int f = 0; f < frames; ++f) text += "(0 0 0)(0 0 0)\n";
  text += "}\nbaseframe {\n";
  for (int j = 0; j < joints; ++j) text += "(0 0 0)(0 0 0)\n";
  text += "}\n";
  for (int f = 0; f < frames; ++f) text += "frame " + std::to_string(f) + " {}\n";
  return text;
}

TEST(Md5Regression, JointsTimesFramesIsLimitedBeforeAnythingIsAllocated) {
  const std::string bomb = JointFramesBomb(20000, 2000);
  EXPECT_LT(bomb.size(), 700000u);
  const Result<AnimFile> anim = ParseMd5Anim("bomb.md5anim", bomb);
  ASSERT_FALSE(anim.ok());
  EXPECT_EQ(anim.error().ToString(),
            "bomb.md5anim:3:11: error: expected numJoints x numFrames of at most 4194304 (the "
            "loader's limit), found 20000 x 2000 = 40000000");
  // At the limit itself (and under a raised limit) the same shape loads.
  EXPECT_TRUE(ParseMd5Anim("ok.md5anim", JointFramesBomb(2048, 2048)).ok());
  Md5Limits raised;
  raised.max_joint_frames = std::int64_t{40000000};
  EXPECT_TRUE(ParseMd5Anim("bomb.md5anim", bomb, raised).ok());
}

// 256 MB of bare vertices ("vert 0(0 0)0 0") would need ~1.8 GB once loaded: the vertices of all
// meshes together are limited (4194304 by default; 5 here to keep the file small).
TEST(Md5Regression, VerticesOfAllMeshesAreLimited) {
  std::string text =
      "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 2\njoints {\n"
      "\"a\" -1 (0 0 0) (0 0 0)\n}\n";
  for (int m = 0; m < 2; ++m) {
    text += "mesh {\nnumverts 3\n";
    for (int v = 0; v < 3; ++v) text += "vert " + std::to_string(v) + "(0 0)0 0\n";
    text += "numtris 0\nnumweights 0\n}\n";
  }
  EXPECT_TRUE(ParseMd5Mesh("m.md5mesh", text).ok());
  Md5Limits limits;
  limits.max_total_vertices = 5;
  const Result<MeshFile> mesh = ParseMd5Mesh("m.md5mesh", text, limits);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().ToString(),
            "m.md5mesh:17:10: error: expected numverts of at most 2 (the loader's limit of 5 "
            "vertices in all meshes), found '3'");
  limits.max_total_vertices = 6;
  EXPECT_TRUE(ParseMd5Mesh("m.md5mesh", text, limits).ok());
}

}  // namespace
}  // namespace md5stage::md5
