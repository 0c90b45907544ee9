// The DDS decoder on blocks written by hand from the BC1/BC2/BC3 definitions (end points,
// interpolated colours, DXT1's transparent mode, DXT3's nibbles, DXT5's two alpha modes, images
// not a multiple of 4), uncompressed masks, and bad files; then the DarkRadiant test DDS files
// of ../shared (sizes, mips, BC5 refused by name, a file that is not DDS).
#include "core/material/dds_decode.h"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "core/material/image_decode.h"

namespace md5stage::material {
namespace {

void PutU32(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

std::string Header(int width, int height, const char* four_cc) {
  std::string h(128, '\0');
  h.replace(0, 4, "DDS ");
  PutU32(h, 4, 124);
  PutU32(h, 12, static_cast<uint32_t>(height));
  PutU32(h, 16, static_cast<uint32_t>(width));
  PutU32(h, 76, 32);
  PutU32(h, 80, 0x4);
  h.replace(84, 4, std::string(four_cc, 4));
  return h;
}

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += static_cast<char>(v);
  return out;
}

using Rgba = std::array<int, 4>;

Rgba At(const RgbaImage& image, int x, int y) {
  const uint8_t* p = image.rgba.data() + (y * image.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

// c0 = pure red (0xF800), c1 = pure blue (0x001F); row 0 indices 0 1 2 3, the rest 0.
const std::string kRedBlueColours = Bytes({0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x00, 0x00, 0x00});

TEST(DdsDecode, Dxt1FourColours) {
  auto image = DecodeDds("a.dds", Header(4, 4, "DXT1") + kRedBlueColours);
  ASSERT_TRUE(image.ok()) << image.error().ToString();
  EXPECT_EQ(At(image.value(), 0, 0), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(At(image.value(), 1, 0), (Rgba{0, 0, 255, 255}));
  EXPECT_EQ(At(image.value(), 2, 0), (Rgba{170, 0, 85, 255}));  // (2 c0 + c1) / 3
  EXPECT_EQ(At(image.value(), 3, 0), (Rgba{85, 0, 170, 255}));  // (c0 + 2 c1) / 3
  EXPECT_EQ(At(image.value(), 3, 3), (Rgba{255, 0, 0, 255}));
}

TEST(DdsDecode, Dxt1ThreeColoursAndTransparent) {
  // c0 <= c1: blue first, red second: index 2 is the mean, index 3 transparent black.
  const std::string block = Bytes({0x1F, 0x00, 0x00, 0xF8, 0xE4, 0x00, 0x00, 0x00});
  auto image = DecodeDds("a.dds", Header(4, 4, "DXT1") + block);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(At(image.value(), 2, 0), (Rgba{127, 0, 127, 255}));
  EXPECT_EQ(At(image.value(), 3, 0), (Rgba{0, 0, 0, 0}));
}

TEST(DdsDecode, Dxt3ExplicitAlphaAndFourColoursAlways) {
  // Alpha nibbles of row 0: 0, 15, 5, 10; the colour block has c0 <= c1 but DXT3 keeps four.
  const std::string alpha = Bytes({0xF0, 0xA5, 0, 0, 0, 0, 0, 0});
  const std::string colour = Bytes({0x1F, 0x00, 0x00, 0xF8, 0xE4, 0x00, 0x00, 0x00});
  auto image = DecodeDds("a.dds", Header(4, 4, "DXT3") + alpha + colour);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(At(image.value(), 0, 0)[3], 0);
  EXPECT_EQ(At(image.value(), 1, 0)[3], 255);
  EXPECT_EQ(At(image.value(), 2, 0)[3], 85);
  EXPECT_EQ(At(image.value(), 3, 0)[3], 170);
  EXPECT_EQ(At(image.value(), 3, 0), (Rgba{170, 0, 85, 170}));  // (c0 + 2 c1) / 3, opaque mode
}

TEST(DdsDecode, Dxt5AlphaModes) {
  // a0 = 255 > a1 = 0: eight values; row 0 indices 0 1 2 7 (3 bits each, little-endian).
  // bits: 000 001 010 111 -> 0b111'010'001'000 = 0xE88.
  const std::string eight = Bytes({255, 0, 0x88, 0x0E, 0, 0, 0, 0});
  auto image = DecodeDds("a.dds", Header(4, 4, "DXT5") + eight + kRedBlueColours);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(At(image.value(), 0, 0)[3], 255);
  EXPECT_EQ(At(image.value(), 1, 0)[3], 0);
  EXPECT_EQ(At(image.value(), 2, 0)[3], 218);  // (6 a0 + a1) / 7
  EXPECT_EQ(At(image.value(), 3, 0)[3], 36);   // (a0 + 6 a1) / 7
  // a0 = 0 <= a1 = 255: six values plus 0 (index 6) and 255 (index 7); indices 2 6 7 5.
  // bits: 010 110 111 101 -> 0b101'111'110'010 = 0xBF2.
  const std::string six = Bytes({0, 255, 0xF2, 0x0B, 0, 0, 0, 0});
  image = DecodeDds("a.dds", Header(4, 4, "DXT5") + six + kRedBlueColours);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(At(image.value(), 0, 0)[3], 51);  // (4 a0 + a1) / 5
  EXPECT_EQ(At(image.value(), 1, 0)[3], 0);
  EXPECT_EQ(At(image.value(), 2, 0)[3], 255);
  EXPECT_EQ(At(image.value(), 3, 0)[3], 204);  // (a0 + 4 a1) / 5
}

TEST(DdsDecode, SizesNotAMultipleOfFourAreClipped) {
  // 5 x 3: two blocks across, one down; the second block is all blue (indices 1).
  const std::string blue = Bytes({0x00, 0xF8, 0x1F, 0x00, 0x55, 0x55, 0x55, 0x55});
  auto image = DecodeDds("a.dds", Header(5, 3, "DXT1") + kRedBlueColours + blue);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(image.value().width, 5);
  EXPECT_EQ(image.value().height, 3);
  EXPECT_EQ(image.value().rgba.size(), 5u * 3u * 4u);
  EXPECT_EQ(At(image.value(), 4, 2), (Rgba{0, 0, 255, 255}));
}

TEST(DdsDecode, UncompressedByMasks) {
  std::string header = Header(2, 1, "\0\0\0\0");
  PutU32(header, 80, 0x40 | 0x1);  // RGB with alpha
  PutU32(header, 84, 0);
  PutU32(header, 88, 32);
  PutU32(header, 92, 0x00ff0000);  // BGRA in memory, as DirectX writes A8R8G8B8
  PutU32(header, 96, 0x0000ff00);
  PutU32(header, 100, 0x000000ff);
  PutU32(header, 104, 0xff000000);
  auto image = DecodeDds("a.dds", header + Bytes({10, 20, 30, 40, 50, 60, 70, 80}));
  ASSERT_TRUE(image.ok()) << image.error().ToString();
  EXPECT_EQ(At(image.value(), 0, 0), (Rgba{30, 20, 10, 40}));
  EXPECT_EQ(At(image.value(), 1, 0), (Rgba{70, 60, 50, 80}));
}

struct BadCase {
  const char* name;
  std::string bytes;
  const char* message_part;
};

std::string HugeDxt1() {
  std::string h = Header(4, 4, "DXT1");
  PutU32(h, 16, 100000);
  return h;
}

// 65535 x 65535 with a few bytes of data, compressed and uncompressed (32-bit masks).
std::string Huge65535(bool compressed) {
  std::string h = Header(65535, 65535, "DXT1");
  if (!compressed) {
    PutU32(h, 80, 0x41);  // RGB + alpha pixels
    PutU32(h, 88, 32);
    PutU32(h, 92, 0xff0000);
    PutU32(h, 96, 0xff00);
    PutU32(h, 100, 0xff);
    PutU32(h, 104, 0xff000000);
  }
  return h + std::string(16, '\0');
}

class BadDdsTable : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadDdsTable, IsAMessageNamingTheFile) {
  const BadCase& c = GetParam();
  auto image = DecodeImage("x/bad.dds", c.bytes);  // through the viewer's decoder
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().file, "x/bad.dds");
  EXPECT_NE(image.error().message.find(c.message_part), std::string::npos) << image.error().message;
  // The check the viewer makes at the drop gives the same message, allocating nothing.
  const Status checked = CheckImage("x/bad.dds", c.bytes);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().ToString(), image.error().ToString());
}

const BadCase kBadCases[] = {
    {"short_header", "DDS 1234", "truncated: a DDS header is 128 bytes"},
    {"bad_sizes", std::string("DDS ") + std::string(124, '\0'), "not a DDS header"},
    {"truncated_blocks", Header(8, 8, "DXT5") + std::string(40, '\0'),
     "truncated: 64 bytes of blocks expected, found 40"},
    {"huge", HugeDxt1(), "larger than 8192 pixels a side"},
    {"dxt1_65535_few_bytes", Huge65535(true),
     "image of 65535 x 65535 is larger than 8192 pixels a side (or empty)"},
    {"rgba_65535_few_bytes", Huge65535(false),
     "image of 65535 x 65535 is larger than 8192 pixels a side (or empty)"},
    {"bc5", Header(4, 4, "ATI2") + std::string(16, '\0'), "DDS format 'ATI2' is not supported"},
    {"dx10", Header(4, 4, "DX10") + std::string(40, '\0'), "DDS format 'DX10' is not supported"},
};
INSTANTIATE_TEST_SUITE_P(Cases, BadDdsTable, ::testing::ValuesIn(kBadCases),
                         [](const auto& info) { return std::string(info.param.name); });

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(DdsDecode, DarkRadiantTestFiles) {
  const std::string root =
      std::string(MD5STAGE_SHARED_DIR) + "/md5/darkradiant_decls/textures/dds/";
  MD5STAGE_SKIP_WITHOUT_SHARED(!ReadBytes(root + "test_128x128_dxt1.dds").empty());
  struct Case {
    const char* file;
    int width, height;  // 0: refused
  };
  for (const Case& c :
       {Case{"test_128x128_dxt1.dds", 128, 128}, Case{"test_60x128_dxt5.dds", 60, 128},
        Case{"test_60x128_dxt5_mips.dds", 60, 128}, Case{"test_16x16_uncomp.dds", 16, 16},
        Case{"test_10x16_uncomp.dds", 10, 16}, Case{"test_16x16_bc5.dds", 0, 0},
        Case{"not_a_dds.dds", 0, 0}}) {
    SCOPED_TRACE(c.file);
    auto image = DecodeImage(c.file, ReadBytes(root + c.file));
    if (c.width == 0) {
      EXPECT_FALSE(image.ok());
      continue;
    }
    ASSERT_TRUE(image.ok()) << image.error().ToString();
    EXPECT_EQ(image.value().width, c.width);
    EXPECT_EQ(image.value().height, c.height);
    // Not one flat colour: the blocks were read.
    bool varies = false;
    for (size_t i = 4; i < image.value().rgba.size() && !varies; ++i)
      varies = image.value().rgba[i] != image.value().rgba[i % 4];
    EXPECT_TRUE(varies);
  }
  // The mip chain changes nothing of the first level.
  EXPECT_EQ(DecodeImage("a", ReadBytes(root + "test_60x128_dxt5.dds")).value().rgba,
            DecodeImage("b", ReadBytes(root + "test_60x128_dxt5_mips.dds")).value().rgba);
}

}  // namespace
}  // namespace md5stage::material
