#include "core/scene/base64url.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

std::vector<std::uint8_t> Bytes(const std::string& text) {
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

TEST(Base64UrlTest, Rfc4648VectorsWithoutPadding) {
  struct Case {
    std::vector<std::uint8_t> bytes;
    const char* text;
  };
  const Case cases[] = {
      {Bytes(""), ""},
      {Bytes("f"), "Zg"},
      {Bytes("fo"), "Zm8"},
      {Bytes("foo"), "Zm9v"},
      {Bytes("foob"), "Zm9vYg"},
      {Bytes("fooba"), "Zm9vYmE"},
      {Bytes("foobar"), "Zm9vYmFy"},
      {{0xfb, 0xff}, "-_8"},  // "+/8=" in the standard alphabet
      {{0x00, 0x10, 0x83, 0x10, 0x51, 0x87, 0x20, 0x92, 0x8b, 0x30, 0xd3, 0x8f,
        0x41, 0x14, 0x93, 0x51, 0x55, 0x97, 0x61, 0x96, 0x9b, 0x71, 0xd7, 0x9f,
        0x82, 0x18, 0xa3, 0x92, 0x59, 0xa7, 0xa2, 0x9a, 0xab, 0xb2, 0xdb, 0xaf,
        0xc3, 0x1c, 0xb3, 0xd3, 0x5d, 0xb7, 0xe3, 0x9e, 0xbb, 0xf3, 0xdf, 0xbf},
       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(Base64UrlEncode(c.bytes.data(), c.bytes.size()), c.text);
    Result<std::vector<std::uint8_t>> decoded = Base64UrlDecode("t", c.text, 1000);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(decoded.value(), c.bytes);
  }
}

TEST(Base64UrlTest, ToleratesPadding) {
  const char* padded[] = {"Zg==", "Zm8=", "Zm9v"};
  const char* expected[] = {"f", "fo", "foo"};
  for (int i = 0; i < 3; ++i) {
    Result<std::vector<std::uint8_t>> decoded = Base64UrlDecode("t", padded[i], 1000);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(decoded.value(), Bytes(expected[i]));
  }
}

TEST(Base64UrlTest, RejectsMalformedText) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {"Zm9v+A", "t:1:5: error: expected a base64url character (A-Z a-z 0-9 - _), found '+'"},
      {"Zm/v", "t:1:3: error: expected a base64url character (A-Z a-z 0-9 - _), found '/'"},
      {"Zm9 vA", "t:1:4: error: expected a base64url character (A-Z a-z 0-9 - _), found ' '"},
      {"Zm9%", "t:1:4: error: expected a base64url character (A-Z a-z 0-9 - _), found '%'"},
      {std::string("Zm\0v", 4),
       "t:1:3: error: expected a base64url character (A-Z a-z 0-9 - _), found byte 0x00"},
      {"Zm9v\xc3\xa9",
       "t:1:5: error: expected a base64url character (A-Z a-z 0-9 - _), found "
       "byte 0xc3"},
      {"Z=m9", "t:1:2: error: expected a base64url character (A-Z a-z 0-9 - _), found '='"},
      {"Zm9vY",
       "t:1:5: error: expected a base64url length that is not 1 more than a multiple of "
       "4, found 5 characters"},
      {"Zh", "t:1:2: error: expected zero unused bits in the last character, found 'h'"},
      {"Zm9", "t:1:3: error: expected zero unused bits in the last character, found '9'"},
      {"Zg=", "t:1:3: error: expected padding to a multiple of 4 characters, found 3 characters"},
      {"AAAAAAAAAAA", "t: error: expected at most 10 characters of base64url, found 11"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Result<std::vector<std::uint8_t>> decoded = Base64UrlDecode("t", c.text, 10);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error().ToString(), c.message);
  }
}

TEST(Base64UrlTest, RandomBytesRoundTrip) {
  std::mt19937 random(11);
  for (std::size_t size = 0; size < 300; ++size) {
    std::vector<std::uint8_t> bytes(size);
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    const std::string text = Base64UrlEncode(bytes.data(), bytes.size());
    EXPECT_EQ(text.size(), (size * 4 + 2) / 3);
    Result<std::vector<std::uint8_t>> decoded = Base64UrlDecode("t", text, 1000);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(decoded.value(), bytes);
  }
}

}  // namespace
}  // namespace md5stage
