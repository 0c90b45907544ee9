// The viewer's image decoder on files written by the test: TGA uncompressed and RLE, 24 and 32
// bits, bottom and top origin (the top-left pixel stays top-left); PNGs (8 and 16 bit, grey with
// alpha) and a large TGA from ../shared; huge and truncated files fail with a message naming
// the file.
#include "core/material/image_decode.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "../../tga_writer.h"

namespace md5stage::material {
namespace {

using testing::MarkedPicture;
using testing::TgaOptions;
using testing::WriteTga;

struct TgaCase {
  const char* name;
  TgaOptions options;
};

class TgaTable : public ::testing::TestWithParam<TgaCase> {};

TEST_P(TgaTable, DecodesTopLeftFirst) {
  const TgaCase& c = GetParam();
  const std::vector<uint8_t> picture = MarkedPicture(5, 3, {10, 20, 30, 200}, {250, 128, 5, 100});
  auto decoded = DecodeImage("x.tga", WriteTga(5, 3, picture, c.options));
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(decoded.value().width, 5);
  EXPECT_EQ(decoded.value().height, 3);
  std::vector<uint8_t> expected = picture;
  if (c.options.bits == 24) {
    for (size_t i = 3; i < expected.size(); i += 4) expected[i] = 255;  // no alpha: opaque
  }
  EXPECT_EQ(decoded.value().rgba, expected);
}

const TgaCase kTgaCases[] = {
    {"raw24_bottom", {24, false, false}}, {"raw24_top", {24, false, true}},
    {"raw32_bottom", {32, false, false}}, {"raw32_top", {32, false, true}},
    {"rle24_bottom", {24, true, false}},  {"rle24_top", {24, true, true}},
    {"rle32_bottom", {32, true, false}},  {"rle32_top", {32, true, true}},
};
INSTANTIATE_TEST_SUITE_P(Cases, TgaTable, ::testing::ValuesIn(kTgaCases),
                         [](const auto& info) { return std::string(info.param.name); });

struct BadCase {
  const char* name;
  std::string bytes;
  const char* message_part;
};

std::string Truncated(TgaOptions options) {
  const std::string whole =
      WriteTga(64, 64, MarkedPicture(64, 64, {1, 2, 3, 4}, {5, 6, 7, 8}), options);
  return whole.substr(0, whole.size() / 2);
}

std::string HugeHeader() {
  std::string header = WriteTga(1, 1, {1, 2, 3, 4});
  header[12] = header[13] = header[14] = header[15] = static_cast<char>(0xff);  // 65535 a side
  return header;
}

class BadImageTable : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadImageTable, IsAMessageNamingTheFile) {
  const BadCase& c = GetParam();
  auto decoded = DecodeImage("models/x/bad.tga", c.bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().file, "models/x/bad.tga");
  EXPECT_NE(decoded.error().message.find(c.message_part), std::string::npos)
      << decoded.error().message;
}

const BadCase kBadCases[] = {
    {"empty", "", "empty image file"},
    {"huge", HugeHeader(), "larger than 8192 pixels a side"},
    {"truncated_raw", Truncated({32, false, false}), "could not decode"},
    {"not_an_image", "MD5Version 10", "not a readable image"},
};
INSTANTIATE_TEST_SUITE_P(Cases, BadImageTable, ::testing::ValuesIn(kBadCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ImageDecode, TruncatedRleIsNeverACrash) {
  // stb_image fills what the packets give; whichever way, a result or a message.
  const std::string truncated = Truncated({24, true, false});
  for (size_t length = 18; length < truncated.size(); length += 7) {
    auto decoded = DecodeImage("x.tga", std::string_view(truncated).substr(0, length));
    if (decoded.ok()) {
      EXPECT_EQ(decoded.value().rgba.size(), 64u * 64u * 4u);
    }
  }
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(ImageDecode, SharedPngAndTga) {
  const std::string root = std::string(MD5STAGE_SHARED_DIR) + "/md5/darkradiant_decls/textures/";
  MD5STAGE_SKIP_WITHOUT_SHARED(!ReadBytes(root + "a_1024x512.tga").empty());
  struct Case {
    const char* file;
    int width, height;
  };
  for (const Case& c :
       {Case{"a_1024x512.tga", 1024, 512}, Case{"pngs/twentyone_8bit.png", 0, 0},
        Case{"pngs/twentyone_16bit.png", 0, 0}, Case{"pngs/transparent_greyscale.png", 0, 0}}) {
    auto decoded = DecodeImage(c.file, ReadBytes(root + c.file));
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    if (c.width > 0) {
      EXPECT_EQ(decoded.value().width, c.width) << c.file;
      EXPECT_EQ(decoded.value().height, c.height) << c.file;
    }
    EXPECT_EQ(decoded.value().rgba.size(),
              static_cast<size_t>(decoded.value().width) * decoded.value().height * 4);
  }
}

}  // namespace
}  // namespace md5stage::material
