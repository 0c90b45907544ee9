// md5::WriteMd5Mesh / WriteMd5Anim / FormatMd5Float: floats read back bit for bit in fixed
// notation, names that would break the file. (Whole converted files are read back in
// tests/core/convert/gltf_import_test.cpp.)
#include "core/md5/md5_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/md5/md5_parser.h"

namespace md5stage::md5 {
namespace {

TEST(Md5Writer, FloatsReadBackBitForBitWithoutExponents) {
  const float values[] = {0.0f,    -0.0f,           1.0f,        -1.5f,    0.1f,       1e-7f,
                          3.4e38f, 1.17549435e-38f, 123456.789f, -2.5e-5f, 0.33333334f};
  for (float v : values) {
    const std::string text = FormatMd5Float(v);
    EXPECT_EQ(text.find_first_of("eE"), std::string::npos) << text;
    EXPECT_NE(text, "-0");
    const float back = std::strtof(text.c_str(), nullptr);
    EXPECT_EQ(back, v == 0.0f ? 0.0f : v) << text;
  }
}

TEST(Md5Writer, RandomFloatsOfEveryMagnitudeReadBackBitForBit) {
  std::uint32_t state = 12345u;
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    state = state * 1664525u + 1013904223u;
    float v;
    std::memcpy(&v, &state, 4);
    if (!std::isfinite(v) || v == 0.0f) continue;
    const std::string text = FormatMd5Float(v);
    ASSERT_EQ(text.find_first_of("eE"), std::string::npos) << text;
    ASSERT_EQ(std::strtof(text.c_str(), nullptr), v) << text;
    ++checked;
  }
  EXPECT_GT(checked, 19800);
  // The fewest decimals: what an exporter would write by hand.
  EXPECT_EQ(FormatMd5Float(0.5f), "0.5");
  EXPECT_EQ(FormatMd5Float(-12.0f), "-12");
  EXPECT_EQ(FormatMd5Float(0.1f), "0.1");
  EXPECT_EQ(FormatMd5Float(0.70710677f), "0.70710677");
}

TEST(Md5Writer, QuotesInNamesDoNotBreakTheFile) {
  MeshFile mesh;
  MeshJoint joint;
  joint.name = "say \"hi\"";
  mesh.joints.push_back(joint);
  MeshPart part;
  part.shader = "a\"b";
  part.vertices.resize(3);
  for (int v = 0; v < 3; ++v) {
    part.vertices[static_cast<size_t>(v)].first_weight = v;
    part.vertices[static_cast<size_t>(v)].weight_count = 1;
    MeshWeight weight;
    weight.bias = 1.0f;
    part.weights.push_back(weight);
  }
  part.triangles.push_back({{0, 1, 2}});
  mesh.meshes.push_back(part);
  Result<MeshFile> back = ParseMd5Mesh("q.md5mesh", WriteMd5Mesh(mesh));
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(back.value().joints[0].name, "say 'hi'");
  EXPECT_EQ(back.value().meshes[0].shader, "a'b");
}

}  // namespace
}  // namespace md5stage::md5
