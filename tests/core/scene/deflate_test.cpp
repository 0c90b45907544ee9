#include "core/scene/deflate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

std::vector<std::uint8_t> FromHex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string Inflate(const std::vector<std::uint8_t>& bytes, std::size_t max_output = 1 << 24) {
  Result<std::string> out = DeflateDecompress("t", bytes.data(), bytes.size(), max_output);
  EXPECT_TRUE(out.ok()) << out.error().ToString();
  return out.ok() ? out.value() : std::string();
}

std::string NumberPairs(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    text += "[" + std::to_string((i * 37) % 101) + "," + std::to_string((i * 53) % 97) + "]";
  }
  return text;
}

// Streams made by zlib (Python's zlib.compressobj with wbits=-15): one of each block type.
TEST(InflateTest, ReadsZlibStreams) {
  struct ZlibCase {
    std::string expected;
    const char* hex;
  };
  const ZlibCase cases[] = {
      {"", "0300"},                                         // fixed, empty
      {"hello hello hello hello", "cb48cdc9c957c8402701"},  // fixed, with a match
      {"abc", "010300fcff616263"},                          // stored
      {"{\"version\":1,\"routes\":[{\"segments\":[{\"bezier\":[[0,0],[100,100],[200,100],"
       "[300,0]]},{\"line\":[[300,0],[0,0]]}]}]}",
       "ab562a4b2d2acecccf53b232d4512aca2f2d492d56b28aae562a4e4dcf4dcd2b81709252ab32538b80cc68031d"
       "83589d684303031d2006b28ce02c6303905c6cad4eb5524e665e2a48314448271a22018200"},
      {NumberPairs(80),  // dynamic
       "1591c10d003108c316f2a385026596eaf65fe3c2b3956345e12dd6f7bc08ff5e1dfa7b7b91f6bd53ecfbbd7ba8"
       "fd3d5b587d2f8a2bbe0f9e8a2dae02599cd00b716711472685c56d27e58dc516778b92d81c93381556a00b97d8"
       "9d56a01647e2640a3821ed5558dc4e52e250780a2c4a621338059c6b537ce1327bd24a9473646e049e24e4bdea"
       "3860933287d2d3c029994da0cc99dc31e3127bd3e22b39f26e43dc6942da9bece18c94381a13d849cd124a4b9c"
       "cd9dca1c798fd133717366e3600a183113377b0a0429711a26b09b9a89039f06c69d2d38b371d0e2afd2b3f165"
       "0a48286f1b5b9ce96f260e4ce0a666e18b4f81e08adf9b331b5f7abc4acf91454aa5f04c1cecfc7e"},
  };
  for (const ZlibCase& c : cases) {
    SCOPED_TRACE(c.hex);
    EXPECT_EQ(Inflate(FromHex(c.hex)), c.expected);
  }
}

std::string RandomBytes(std::size_t size, std::uint32_t seed, int alphabet) {
  std::mt19937 random(seed);
  std::string out(size, '\0');
  for (char& c : out) c = static_cast<char>(random() % alphabet);
  return out;
}

TEST(DeflateTest, RoundTripsAndCompresses) {
  struct RoundTripCase {
    const char* name;
    std::string data;
    double max_ratio;  // compressed size / input size must stay at or below this
  };
  std::string long_run(100000, 'a');
  std::string far_repeat = RandomBytes(20000, 7, 256);
  far_repeat += far_repeat;  // a repeat 20000 bytes back, inside the 32 KB window
  std::string beyond_window = RandomBytes(40000, 8, 256);
  beyond_window += beyond_window;  // 40000 back: out of reach, must still round-trip
  const RoundTripCase cases[] = {
      {"empty", "", 10.0},
      {"one byte", "x", 10.0},
      {"all byte values", RandomBytes(256, 1, 256), 1.1},
      {"random bytes", RandomBytes(100000, 2, 256), 1.01},   // incompressible: stored blocks
      {"four-letter text", RandomBytes(50000, 3, 4), 0.31},  // zlib -9: 0.304
      {"long run", long_run, 0.01},
      {"far repeat", far_repeat, 0.52},
      {"beyond the window", beyond_window, 1.01},
      {"number pairs", NumberPairs(3000), 0.40},  // zlib -9: 0.388
  };
  for (const RoundTripCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<std::uint8_t> compressed = DeflateCompress(c.data);
    EXPECT_EQ(Inflate(compressed), c.data);
    if (!c.data.empty()) {
      EXPECT_LE(static_cast<double>(compressed.size()) / c.data.size(), c.max_ratio)
          << compressed.size() << " bytes from " << c.data.size();
    }
  }
}

TEST(DeflateTest, BeatsOrMatchesZlibOnSmallJson) {
  // zlib -9 makes 265 bytes of NumberPairs(80) (the stream above); ours should be close.
  const std::vector<std::uint8_t> compressed = DeflateCompress(NumberPairs(80));
  EXPECT_LE(compressed.size(), 265u * 11 / 10);
}

TEST(DeflateTest, PresetDictionary) {
  const std::string dictionary = "{\"name\":\"walker\",\"mesh\":\"models/walker/walker.md5mesh\"}";
  const std::string data =
      "{\"name\":\"walker\",\"mesh\":\"models/walker/walker.md5mesh\",\"x\":1}";
  const std::vector<std::uint8_t> with = DeflateCompress(data, dictionary);
  const std::vector<std::uint8_t> without = DeflateCompress(data);
  EXPECT_LT(with.size() * 2, without.size());  // the dictionary turns the text into one match
  Result<std::string> out = DeflateDecompress("t", with.data(), with.size(), 1000, dictionary);
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(out.value(), data);
  // The output bound counts the output only, not the dictionary.
  EXPECT_TRUE(DeflateDecompress("t", with.data(), with.size(), data.size(), dictionary).ok());
  EXPECT_FALSE(DeflateDecompress("t", with.data(), with.size(), data.size() - 1, dictionary).ok());
  // Without the dictionary the first match points before the start.
  Result<std::string> missing = DeflateDecompress("t", with.data(), with.size(), 1000);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("expected a distance within the 0 bytes written"),
            std::string::npos)
      << missing.error().message;
  // A stream made without a dictionary reads the same with one.
  Result<std::string> plain =
      DeflateDecompress("t", without.data(), without.size(), 1000, dictionary);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain.value(), data);
}

struct BadStreamCase {
  const char* name;
  std::vector<std::uint8_t> bytes;
  const char* message;
};

TEST(InflateTest, RejectsMalformedStreams) {
  const BadStreamCase cases[] = {
      {"no data",
       {},
       "t: error: compressed data at byte 0: expected more compressed data, "
       "found the end of the data"},
      {"block type 3",
       {0x07},
       "t: error: compressed data at byte 1: expected a block type 0, 1 "
       "or 2, found 3"},
      {"stored length check",
       {0x01, 0x03, 0x00, 0xfc, 0xfe, 'a', 'b', 'c'},
       "t: error: compressed data at byte 1: expected a stored block length and its complement, "
       "found 3 and 65276"},
      {"stored block cut short",
       {0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b'},
       "t: error: compressed data at byte 7: expected more compressed data, found the end of the "
       "data"},
      {"bytes after the final block",
       {0x03, 0x00, 0x00},
       "t: error: compressed data at byte 2: expected end of data after the final block, found 1 "
       "more bytes"},
      // Fixed block whose first symbol is a match (length 3, distance 1) with nothing written.
      {"distance before the start",
       {0x03, 0x02, 0x00},
       "t: error: compressed data at byte 2: expected a distance within the 0 bytes written, "
       "found 1"},
      // Fixed block with literal/length code 286 (11000110 in 8 bits).
      {"length code 286",
       {0x1b, 0x03},
       "t: error: compressed data at byte 2: expected a length code 257-285, found 286"},
      // Dynamic block declaring 30 + 257 literal/length codes (HLIT = 30).
      {"too many length codes",
       {0xf5, 0x00, 0x00},
       "t: error: compressed data at byte 3: expected at most 286 literal/length codes, found 287"},
  };
  for (const BadStreamCase& c : cases) {
    SCOPED_TRACE(c.name);
    Result<std::string> out = DeflateDecompress("t", c.bytes.data(), c.bytes.size(), 1000);
    ASSERT_FALSE(out.ok()) << out.value();
    EXPECT_EQ(out.error().ToString(), c.message);
  }
}

TEST(InflateTest, OutputBoundStopsDecompressionBombs) {
  const std::string zeros(1 << 20, '\0');
  const std::vector<std::uint8_t> bomb = DeflateCompress(zeros);
  EXPECT_LT(bomb.size(), 2000u);  // about 1000:1, DEFLATE's limit
  Result<std::string> bounded = DeflateDecompress("b", bomb.data(), bomb.size(), 4096);
  ASSERT_FALSE(bounded.ok());
  EXPECT_NE(bounded.error().message.find("expected at most 4096 bytes of output, found more"),
            std::string::npos)
      << bounded.error().message;
  // Exactly at the bound is fine.
  Result<std::string> exact = DeflateDecompress("b", bomb.data(), bomb.size(), zeros.size());
  ASSERT_TRUE(exact.ok()) << exact.error().ToString();
  EXPECT_EQ(exact.value().size(), zeros.size());
  // Stored blocks obey the bound too.
  const std::string random = RandomBytes(5000, 9, 256);
  const std::vector<std::uint8_t> stored = DeflateCompress(random);
  EXPECT_FALSE(DeflateDecompress("b", stored.data(), stored.size(), 4999).ok());
  EXPECT_TRUE(DeflateDecompress("b", stored.data(), stored.size(), 5000).ok());
}

TEST(InflateTest, TruncatedAndCorruptedStreamsFailCleanly) {
  const std::string text = NumberPairs(400) + RandomBytes(300, 4, 256);
  const std::vector<std::uint8_t> good = DeflateCompress(text);
  ASSERT_EQ(Inflate(good), text);
  for (std::size_t length = 0; length < good.size(); ++length) {
    Result<std::string> out = DeflateDecompress("t", good.data(), length, 1 << 20);
    EXPECT_FALSE(out.ok()) << "prefix of " << length << " bytes decoded";
  }
  // Flipped bits: any outcome but a crash, an overrun of the bound, or silent success with the
  // original text (a flip always changes something).
  std::mt19937 random(5);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::uint8_t> bad = good;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) bad[random() % bad.size()] ^= 1u << (random() % 8);
    Result<std::string> out = DeflateDecompress("t", bad.data(), bad.size(), 1 << 16);
    if (out.ok()) {
      EXPECT_LE(out.value().size(), 1u << 16);
    }
  }
  // Pure noise.
  for (int trial = 0; trial < 500; ++trial) {
    const std::string noise = RandomBytes(1 + trial, 100 + trial, 256);
    Result<std::string> out = DeflateDecompress(
        "t", reinterpret_cast<const std::uint8_t*>(noise.data()), noise.size(), 1 << 16);
    if (out.ok()) {
      EXPECT_LE(out.value().size(), 1u << 16);
    }
  }
}

}  // namespace
}  // namespace md5stage
