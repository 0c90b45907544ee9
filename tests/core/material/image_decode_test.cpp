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

// A PNG whose IHDR claims width x height (RGBA, 8 bits), with a tiny IDAT: stb_image would
// allocate the whole image before finding the data short.
std::string PngHeader(std::uint32_t width, std::uint32_t height) {
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
  for (std::uint32_t v : {width, height}) {
    for (int i = 3; i >= 0; --i) png += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  png += std::string("\x08\x06\0\0\0", 5) + std::string(4, '\0');  // no CRC check
  png += std::string("\0\0\0\x02IDAT\x78\x9c", 10) + std::string(4, '\0');
  return png + std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12);
}

// A baseline JPEG whose SOF0 claims width x height, and nothing after it.
std::string JpegHeader(int width, int height) {
  std::string jpeg("\xff\xd8\xff\xc0\0\x11\x08", 7);
  for (int v : {height, width}) {
    jpeg += static_cast<char>((v >> 8) & 0xff);
    jpeg += static_cast<char>(v & 0xff);
  }
  return jpeg + std::string("\x03\x01\x11\0\x02\x11\x01\x03\x11\x01\xff\xd9", 12);
}

// A BMP (24-bit, uncompressed) claiming width x height with `pixels` bytes of pixel data.
std::string BmpHeader(std::int32_t width, std::int32_t height, std::size_t pixels) {
  std::string bmp = "BM";
  const auto put32 = [&bmp](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bmp += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put32(static_cast<std::uint32_t>(54 + pixels));
  put32(0);
  put32(54);
  put32(40);
  put32(static_cast<std::uint32_t>(width));
  put32(static_cast<std::uint32_t>(height));
  bmp += std::string("\x01\0\x18\0", 4);  // 1 plane, 24 bits
  put32(0);                               // BI_RGB
  for (int i = 0; i < 5; ++i) put32(0);
  return bmp + std::string(pixels, '\x40');
}

std::string Regression(const std::string& name) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/material/regressions/" + name,
                   std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  EXPECT_FALSE(out.str().empty()) << name;
  return out.str();
}

class BadImageTable : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadImageTable, IsAMessageNamingTheFile) {
  const BadCase& c = GetParam();
  auto decoded = DecodeImage("models/x/bad.tga", c.bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().file, "models/x/bad.tga");
  EXPECT_NE(decoded.error().message.find(c.message_part), std::string::npos)
      << decoded.error().message;
  // The viewer's check at the drop refuses it with the same message, before any pixel exists.
  const Status checked = CheckImage("models/x/bad.tga", c.bytes);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().ToString(), decoded.error().ToString());
}

// The JPEG checks (Huffman tables, the tables each scan uses) pass real encoders' files: a
// baseline grey and colour picture, and a progressive one of 10 scans (DC first, then AC bands
// and refinements, which use only one kind of table each).
TEST(ImageDecode, BaselineAndProgressiveJpegsPassTheChecks) {
  for (const char* name : {"grey16x12.jpg", "rgb16x12.jpg", "rgb16x12_progressive.jpg"}) {
    SCOPED_TRACE(name);
    std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/fuzz/seeds/image/" + name,
                     std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    ASSERT_FALSE(bytes.str().empty());
    const Status checked = CheckImage(name, bytes.str());
    EXPECT_TRUE(checked.ok()) << checked.error().ToString();
    auto decoded = DecodeImage(name, bytes.str());
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(decoded.value().width, 16);
    EXPECT_EQ(decoded.value().height, 12);
  }
}

// fuzz_image finding 6: stb_image copied an empty IDAT chunk to a null buffer (undefined
// behaviour). An empty IDAT before the data is dropped: the picture is the same as without it.
TEST(ImageDecode, AnEmptyIdatChunkDecodesAsWithoutIt) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/fuzz/seeds/image/rgba16x12.png",
                   std::ios::binary);
  std::ostringstream read;
  read << in.rdbuf();
  const std::string png = read.str();
  const size_t idat = png.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  const std::string empty_idat = std::string(4, '\0') + "IDAT" + std::string(4, '\0');
  const std::string with_empty = png.substr(0, idat - 4) + empty_idat + png.substr(idat - 4);
  auto plain = DecodeImage("a.png", png);
  auto padded = DecodeImage("a.png", with_empty);
  ASSERT_TRUE(plain.ok()) << plain.error().ToString();
  ASSERT_TRUE(padded.ok()) << padded.error().ToString();
  EXPECT_EQ(padded.value().rgba, plain.value().rgba);
  // The fuzzer's file (an ICC profile, then an empty IDAT) is read to its end without a fault.
  (void)DecodeImage("png_empty_idat.png", Regression("png_empty_idat.png"));
}

TEST(ImageDecode, CheckImageAcceptsWhatDecodes) {
  for (const TgaOptions options : {TgaOptions{32, false, false}, TgaOptions{24, true, false}}) {
    const std::string tga =
        WriteTga(16, 8, MarkedPicture(16, 8, {1, 2, 3, 4}, {5, 6, 7, 8}), options);
    EXPECT_TRUE(CheckImage("a.tga", tga).ok());
    EXPECT_TRUE(DecodeImage("a.tga", tga).ok());
  }
}

const BadCase kBadCases[] = {
    {"empty", "", "empty image file"},
    {"huge", HugeHeader(), "larger than 8192 pixels a side"},
    {"truncated_raw", Truncated({32, false, false}), "could not decode"},
    {"not_an_image", "MD5Version 10", "not a readable image"},
    // Headers that claim more than the limit, with a few bytes of data: refused before any
    // allocation, the message naming the limit.
    {"png_60000", PngHeader(60000, 60000),
     "image of 60000 x 60000 is larger than 8192 pixels a side"},
    {"jpeg_60000", JpegHeader(60000, 60000),
     "image of 60000 x 60000 is larger than 8192 pixels a side"},
    {"tga_65535_few_bytes", HugeHeader() + std::string(16, '\x7f'),
     "image of 65535 x 65535 is larger than 8192 pixels a side"},
    {"bmp_60000", BmpHeader(60000, 60000, 16),
     "image of 60000 x 60000 is larger than 8192 pixels a side"},
    // Within the limit but with far fewer bytes than the pixels need: refused before stb_image
    // allocates the image (and, for BMP and PNG, before it reads zeros past the end).
    {"png_8192_few_bytes", PngHeader(8192, 8192),
     "could not decode: a 8192 x 8192 PNG needs at least 260120 bytes of compressed data (deflate "
     "packs at most 1032:1), found 59 bytes"},
    {"bmp_8192_few_bytes", BmpHeader(8192, 8192, 16),
     "could not decode: truncated: 201326646 bytes expected, found 70"},
    // fuzz_image finding 1: a DHT segment of more than 256 codes (stb_image 2.27 wrote past its
    // tables).
    {"jpeg_dht_over_256_codes", Regression("dht_over_256_codes.jpg"),
     "could not decode: a JPEG Huffman table"},
    // fuzz_image finding 5: a progressive JPEG whose fill bytes after a scan hide, from a walk of
    // its segments, a DHT of 257 codes that stb_image still reads.
    {"jpeg_dht_after_scan_data", Regression("jpeg_dht_after_scan_data.jpg"),
     "could not decode: a JPEG Huffman table (DHT at byte"},
    // fuzz_image finding 4: a scan whose second component selects AC table 3, which no DHT
    // defines (stb_image decoded with uninitialised memory and read past its symbol array).
    {"jpeg_scan_uses_undefined_ac_table", Regression("jpeg_scan_uses_undefined_ac_table.jpg"),
     "could not decode: a JPEG scan (SOS at byte 593) decodes with AC Huffman table 3, which no "
     "DHT "
     "before it defines"},
    // fuzz_image finding 3: 151 bytes whose second IDAT chunk claims 1,162,215,424 bytes
    // (stb_image grew its buffer to 2 GB before copying them).
    {"png_idat_claims_1gb", Regression("png_idat_claims_1gb.png"),
     "could not decode: truncated: the IDAT chunk at byte 139 claims 1162215424 bytes, the file "
     "has 4 after its header"},
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
