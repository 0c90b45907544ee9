// The walker's generated normal and specular maps and material: the normal map encodes unit
// normals facing out of the surface (z > 0) and is bumpy, not flat; the specular map varies by
// material (the buckle shines more than the trousers); walker.mtr names files the set holds.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "assetgen_test_util.h"
#include "textures.h"

namespace md5stage::assetgen {
namespace {

using testing::Assets;
using testing::FindFile;

TEST(WalkerMaps, NormalMapHoldsUnitOutwardNormalsAndBumps) {
  const Image& map = Assets().walker_normal_map;
  ASSERT_EQ(map.width, kWalkerTextureSize);
  ASSERT_EQ(map.channels, 3);
  int tilted = 0;
  for (int y = 0; y < map.height; ++y) {
    for (int x = 0; x < map.width; ++x) {
      const std::uint8_t* p = map.At(x, y);
      const double nx = p[0] / 127.5 - 1.0, ny = p[1] / 127.5 - 1.0, nz = p[2] / 127.5 - 1.0;
      ASSERT_NEAR(std::sqrt(nx * nx + ny * ny + nz * nz), 1.0, 0.02) << x << "," << y;
      ASSERT_GT(nz, 0.3) << x << "," << y;
      tilted += std::fabs(nx) > 0.05 || std::fabs(ny) > 0.05;
    }
  }
  const int texels = map.width * map.height;
  EXPECT_GT(tilted, texels / 5) << "the normal map is nearly flat";
  EXPECT_LT(tilted, texels) << "no flat texel at all: the skin should be smooth";
}

TEST(WalkerMaps, SpecularLevelsFollowTheMaterials) {
  const Image& map = Assets().walker_specular_map;
  ASSERT_EQ(map.width, kWalkerTextureSize);
  int lo = 255, hi = 0;
  for (int y = 0; y < map.height; ++y) {
    for (int x = 0; x < map.width; ++x) {
      const std::uint8_t* p = map.At(x, y);
      ASSERT_TRUE(p[0] == p[1] && p[1] == p[2]) << "grey";
      lo = std::min<int>(lo, p[0]);
      hi = std::max<int>(hi, p[0]);
    }
  }
  EXPECT_LT(lo, 40);   // trousers, seams
  EXPECT_GT(hi, 200);  // the buckle, the eyes
}

TEST(WalkerMaps, TheMaterialNamesTheGeneratedFiles) {
  const GeneratedFile* mtr = FindFile("models/walker/walker.mtr");
  ASSERT_NE(mtr, nullptr);
  EXPECT_NE(mtr->bytes.find("models/walker/walker\n{"), std::string::npos);
  for (const char* stage : {"diffusemap", "bumpmap", "specularmap"}) {
    EXPECT_NE(mtr->bytes.find(stage), std::string::npos) << stage;
  }
  for (const char* image : {"walker.png", "walker_local.png", "walker_s.png"}) {
    EXPECT_NE(mtr->bytes.find(std::string("models/walker/") + image), std::string::npos) << image;
    EXPECT_NE(FindFile(std::string("models/walker/") + image), nullptr) << image;
  }
  EXPECT_NE(FindFile("models/lamp/lamp_local.png"), nullptr);
  EXPECT_NE(FindFile("models/lamp/lamp_s.png"), nullptr);
}

}  // namespace
}  // namespace md5stage::assetgen
