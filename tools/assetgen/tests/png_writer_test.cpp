// The PNG encoder against published check values and an independent reader of what it writes.
#include "png_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace md5stage::assetgen {
namespace {

std::vector<std::uint8_t> Bytes(const std::string& text) {
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

// Bit-at-a-time CRC-32, written independently of the table-driven encoder.
std::uint32_t SlowCrc32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::uint32_t BigEndian(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) |
         (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

// Reads a zlib stream made only of stored deflate blocks; fails the test on anything else.
std::vector<std::uint8_t> InflateStored(const std::vector<std::uint8_t>& z) {
  std::vector<std::uint8_t> out;
  EXPECT_GE(z.size(), 6u);
  EXPECT_EQ((z[0] * 256 + z[1]) % 31, 0) << "zlib header check bits";
  EXPECT_EQ(z[0] & 0x0F, 8) << "compression method deflate";
  EXPECT_EQ(z[1] & 0x20, 0) << "no preset dictionary";
  std::size_t at = 2;
  bool final_block = false;
  while (!final_block && at + 5 <= z.size()) {
    final_block = z[at] & 1;
    EXPECT_EQ((z[at] >> 1) & 3, 0) << "stored block";
    std::size_t length = z[at + 1] | (z[at + 2] << 8);
    std::size_t complement = z[at + 3] | (z[at + 4] << 8);
    EXPECT_EQ(length ^ 0xFFFF, complement);
    at += 5;
    EXPECT_LE(at + length, z.size());
    if (at + length > z.size()) break;
    out.insert(out.end(), z.begin() + at, z.begin() + at + length);
    at += length;
  }
  EXPECT_TRUE(final_block);
  EXPECT_EQ(at + 4, z.size()) << "Adler-32 trailer ends the stream";
  if (at + 4 == z.size()) {
    std::uint32_t stored =
        (std::uint32_t(z[at]) << 24) | (z[at + 1] << 16) | (z[at + 2] << 8) | z[at + 3];
    EXPECT_EQ(stored, Adler32(out.data(), out.size()));
  }
  return out;
}

TEST(Crc32, MatchesCheckValues) {
  struct Case {
    std::string input;
    std::uint32_t crc;
  };
  const Case cases[] = {{"", 0x00000000u},
                        {"123456789", 0xCBF43926u},
                        {"The quick brown fox jumps over the lazy dog", 0x414FA339u},
                        {"IEND", 0xAE426082u}};
  for (const Case& c : cases) {
    auto bytes = Bytes(c.input);
    EXPECT_EQ(Crc32(bytes.data(), bytes.size()), c.crc) << c.input;
    EXPECT_EQ(SlowCrc32(bytes.data(), bytes.size()), c.crc) << c.input;
  }
}

TEST(Crc32, ContinuesAcrossCalls) {
  auto bytes = Bytes("123456789");
  std::uint32_t first = Crc32(bytes.data(), 4);
  EXPECT_EQ(Crc32(bytes.data() + 4, 5, first), 0xCBF43926u);
}

TEST(Adler32, MatchesCheckValues) {
  struct Case {
    std::string input;
    std::uint32_t adler;
  };
  const Case cases[] = {{"", 0x00000001u}, {"a", 0x00620062u}, {"Wikipedia", 0x11E60398u}};
  for (const Case& c : cases) {
    auto bytes = Bytes(c.input);
    EXPECT_EQ(Adler32(bytes.data(), bytes.size()), c.adler) << c.input;
  }
}

TEST(Adler32, ReducesModuloOver5552Bytes) {
  // 0xFF bytes overflow the sums quickly; compare against the definition in 64-bit arithmetic.
  std::vector<std::uint8_t> data(100000, 0xFF);
  std::uint64_t a = 1, b = 0;
  for (std::uint8_t byte : data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  EXPECT_EQ(Adler32(data.data(), data.size()), static_cast<std::uint32_t>((b << 16) | a));
}

TEST(ZlibStore, RoundTripsAcrossBlockBoundaries) {
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65535}, std::size_t{65536},
                           std::size_t{200000}}) {
    std::vector<std::uint8_t> data(size);
    for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<std::uint8_t>(i * 31 + i / 7);
    std::vector<std::uint8_t> stream = ZlibStore(data);
    std::size_t blocks = size == 0 ? 1 : (size + 65534) / 65535;
    EXPECT_EQ(stream.size(), 2 + blocks * 5 + size + 4) << size;
    EXPECT_EQ(InflateStored(stream), data) << size;
  }
}

TEST(EncodePng, WritesValidChunksAndPixels) {
  for (int channels : {3, 4}) {
    Image image(5, 3, channels);
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x)
        for (int c = 0; c < channels; ++c)
          image.At(x, y)[c] = static_cast<std::uint8_t>(x * 50 + y * 7 + c);
    std::string png = EncodePng(image);
    ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::size_t at = 8;
    std::vector<std::string> types;
    std::vector<std::uint8_t> idat;
    while (at + 12 <= png.size()) {
      std::uint32_t length = BigEndian(png, at);
      std::string type = png.substr(at + 4, 4);
      ASSERT_LE(at + 12 + length, png.size());
      const auto* typed = reinterpret_cast<const std::uint8_t*>(png.data() + at + 4);
      EXPECT_EQ(BigEndian(png, at + 8 + length), SlowCrc32(typed, 4 + length)) << type;
      if (type == "IHDR") {
        ASSERT_EQ(length, 13u);
        EXPECT_EQ(BigEndian(png, at + 8), 5u);
        EXPECT_EQ(BigEndian(png, at + 12), 3u);
        EXPECT_EQ(png[at + 16], 8) << "bit depth";
        EXPECT_EQ(png[at + 17], channels == 4 ? 6 : 2) << "colour type";
        EXPECT_EQ(png[at + 20], 0) << "no interlace";
      }
      if (type == "IDAT")
        idat.insert(idat.end(), png.begin() + at + 8, png.begin() + at + 8 + length);
      types.push_back(type);
      at += 12 + length;
    }
    EXPECT_EQ(at, png.size());
    EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
    std::vector<std::uint8_t> raw = InflateStored(idat);
    ASSERT_EQ(raw.size(), 3u * (1 + 5 * channels));
    for (int y = 0; y < 3; ++y) {
      EXPECT_EQ(raw[y * (1 + 5 * channels)], 0) << "filter None";
      for (int i = 0; i < 5 * channels; ++i) {
        EXPECT_EQ(raw[y * (1 + 5 * channels) + 1 + i], image.pixels[y * 5 * channels + i]);
      }
    }
  }
}

}  // namespace
}  // namespace md5stage::assetgen
