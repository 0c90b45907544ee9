// Number formatting, weight quantisation and the MD5 writers, read back by the core's parsers.
#include "md5_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/md5/md5_parser.h"
#include "text_format.h"

namespace md5stage::assetgen {
namespace {

TEST(FormatFixed, SixDecimalsWithoutNegativeZero) {
  struct Case {
    double value;
    int decimals;
    const char* text;
  };
  const Case cases[] = {
      {0.0, 6, "0.000000"},    {-0.0, 6, "0.000000"}, {-4e-7, 6, "0.000000"},
      {-6e-7, 6, "-0.000001"}, {1.5, 6, "1.500000"},  {-1.5, 6, "-1.500000"},
      {55.0, 3, "55.000"},     {-0.0004, 3, "0.000"}, {123456.789, 2, "123456.79"}};
  for (const Case& c : cases) EXPECT_EQ(FormatFixed(c.value, c.decimals), c.text) << c.value;
}

TEST(QuantizeWeights, SumsExactlyToOneAndDropsZeros) {
  struct Case {
    std::vector<double> biases;
    size_t kept;
  };
  const Case cases[] = {{{1.0 / 3, 1.0 / 3, 1.0 / 3}, 3},
                        {{0.7, 0.2, 0.1}, 3},
                        {{2.0, 2.0}, 2},              // not normalised on input
                        {{0.9999998, 0.0000002}, 1},  // the second rounds to zero
                        {{0.25, 0.25, 0.25, 0.25}, 4}};
  for (const Case& c : cases) {
    SkinMesh mesh;
    SkinVertex vertex;
    for (size_t i = 0; i < c.biases.size(); ++i) vertex.weights.push_back({int(i), c.biases[i]});
    mesh.vertices.push_back(vertex);
    QuantizeWeights(mesh);
    const auto& weights = mesh.vertices[0].weights;
    EXPECT_EQ(weights.size(), c.kept);
    long total = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
      double micro = weights[i].bias * 1e6;
      EXPECT_NEAR(micro, std::round(micro), 1e-6) << "a multiple of 1e-6";
      total += std::lround(micro);
      if (i) {
        EXPECT_GE(weights[i - 1].bias, weights[i].bias) << "sorted by bias";
      }
    }
    EXPECT_EQ(total, 1000000);
  }
}

// Two joints, one bent 90 degrees, one triangle weighted to both.
Skeleton TwoJoints() {
  Skeleton skeleton;
  skeleton.Add("root", -1, Vec3(0, 0, 0));
  skeleton.Add("bent", 0, Vec3(0, 0, 10), RotX(Radians(90.0)));
  return skeleton;
}

SkinMesh OneTriangle() {
  SkinMesh mesh;
  mesh.shader = "models/test/test";
  const Vec3 corners[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 12}};
  for (const Vec3& p : corners) {
    SkinVertex v;
    v.position = p;
    v.u = p.x;
    v.v = p.y;
    v.weights = {{0, 0.75}, {1, 0.25}};
    mesh.vertices.push_back(v);
  }
  mesh.triangles.push_back({0, 1, 2});
  QuantizeWeights(mesh);
  return mesh;
}

TEST(WriteMd5Mesh, ParsesBackWithoutWarningsAndKeepsBindPositions) {
  Skeleton skeleton = TwoJoints();
  std::string text = WriteMd5Mesh(skeleton, {OneTriangle()}, "test");
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh("t.md5mesh", text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const md5::MeshFile& file = parsed.value();
  EXPECT_TRUE(file.warnings.empty());
  ASSERT_EQ(file.joints.size(), 2u);
  EXPECT_EQ(file.joints[1].name, "bent");
  EXPECT_LE(file.joints[1].orientation.w, 0.0f) << "w is derived negative";
  // Rebuild each vertex from its weights with the joints as the file states them.
  const md5::MeshPart& part = file.meshes[0];
  const Vec3 expected[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 12}};
  for (int v = 0; v < 3; ++v) {
    glm::vec3 sum(0.0f);
    for (int w = 0; w < part.vertices[v].weight_count; ++w) {
      const md5::MeshWeight& weight = part.weights[part.vertices[v].first_weight + w];
      const md5::MeshJoint& joint = file.joints[weight.joint];
      sum += weight.bias * (joint.position + joint.orientation * weight.position);
    }
    EXPECT_NEAR(sum.x, expected[v].x, 1e-5);
    EXPECT_NEAR(sum.y, expected[v].y, 1e-5);
    EXPECT_NEAR(sum.z, expected[v].z, 1e-5);
  }
  // Doom 3 winds front faces clockwise: the writer reverses the counter-clockwise input.
  EXPECT_EQ(part.triangles[0].vertices, (std::array<std::uint32_t, 3>{0, 2, 1}));
}

// A frame carries only the components that change over the clip (Doom 3's exporter does the same):
// here the root's Tx alone.
TEST(WriteMd5Anim, ConstantJointsGetFlagZeroAndFramesRoundTrip) {
  Skeleton skeleton = TwoJoints();
  AnimClip clip;
  clip.name = "t";
  clip.frame_rate = 24;
  for (int f = 0; f < 4; ++f) {
    SkeletonPose pose = BindLocalPose(skeleton);
    pose[0].position.x = 3.0 * f;  // only the root moves
    clip.frames.push_back(pose);
  }
  std::string text = WriteMd5Anim(skeleton, {OneTriangle()}, clip);
  Result<md5::AnimFile> parsed = md5::ParseMd5Anim("t.md5anim", text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const md5::AnimFile& file = parsed.value();
  EXPECT_TRUE(file.warnings.empty());
  EXPECT_EQ(file.frame_count, 4);
  EXPECT_EQ(file.frame_rate, 24.0f);
  ASSERT_EQ(file.hierarchy.size(), 2u);
  EXPECT_EQ(file.hierarchy[0].flags, 1);
  EXPECT_EQ(file.hierarchy[1].flags, 0);
  EXPECT_EQ(file.animated_component_count, 1);
  for (int f = 0; f < 4; ++f) EXPECT_EQ(file.frame(f)[0], 3.0f * f);
  // The unanimated joint's pose lives in the baseframe: the bind's parent-relative pose.
  EXPECT_NEAR(file.baseframe[1].position.z, 10.0f, 1e-6);
  Quat q = CanonicalMd5(RotX(Radians(90.0)));
  EXPECT_NEAR(file.baseframe[1].orientation_xyz.x, q.x, 1e-6);
  // Bounds hold the skinned triangle of each frame (it moves with the root).
  ASSERT_EQ(file.bounds.size(), 4u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_LE(file.bounds[f].min.x, 3.0f * f + 1e-5f);
    EXPECT_GE(file.bounds[f].max.x, 3.0f * f + 1.0f - 1e-5f);
  }
}

// Each component that changes gets its flag bit (Tx 1, Ty 2, Tz 4, Qx 8, Qy 16, Qz 32) and its
// place in the frame in that order; the others read back from the baseframe, so every joint's
// pose is frame 0's wherever the clip leaves it.
TEST(WriteMd5Anim, OnlyChangingComponentsAreAnimated) {
  struct Case {
    const char* name;
    bool move_y, move_z, turn_about_z, turn_child;
    int root_flags, child_flags, components;
  };
  const Case cases[] = {
      {"nothing moves", false, false, false, false, 0, 0, 0},
      {"ty", true, false, false, false, 2, 0, 1},
      {"ty tz", true, true, false, false, 6, 0, 2},
      {"tz and a turn about z (qx, qy stay 0)", false, true, true, false, 4 | 32, 0, 2},
      {"the child turns", false, false, false, true, 0, 8 | 16 | 32, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Skeleton skeleton = TwoJoints();
    AnimClip clip;
    clip.name = "t";
    clip.frame_rate = 24;
    std::vector<SkeletonPose> written;
    for (int f = 0; f < 3; ++f) {
      SkeletonPose pose = BindLocalPose(skeleton);
      if (c.move_y) pose[0].position.y = 2.0 * f;
      if (c.move_z) pose[0].position.z = -1.5 * f;
      if (c.turn_about_z) pose[0].orientation = glm::angleAxis(0.3 * f, Vec3(0, 0, 1));
      if (c.turn_child) {
        pose[1].orientation = pose[1].orientation * glm::angleAxis(0.2 * f, Vec3(0, 1, 0));
      }
      clip.frames.push_back(pose);
    }
    Result<md5::AnimFile> parsed =
        md5::ParseMd5Anim("t.md5anim", WriteMd5Anim(skeleton, {OneTriangle()}, clip));
    ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
    const md5::AnimFile& file = parsed.value();
    EXPECT_EQ(file.hierarchy[0].flags, c.root_flags);
    EXPECT_EQ(file.hierarchy[1].flags, c.child_flags);
    EXPECT_EQ(file.animated_component_count, c.components);
    if (c.move_y) {
      // Ty comes first in the root's part of each frame.
      for (int f = 0; f < 3; ++f) EXPECT_EQ(file.frame(f)[0], 2.0f * f);
    }
    if (c.move_y && c.move_z) {
      for (int f = 0; f < 3; ++f) EXPECT_EQ(file.frame(f)[1], -1.5f * f);
    }
  }
}

}  // namespace
}  // namespace md5stage::assetgen
