// Content keys tell byte strings apart by size and two independent hashes: a string made to
// collide in the 64-bit hash is still another key.
#include "core/common/content_key.h"

#include <gtest/gtest.h>

#include <string>

#include "colliding_bytes.h"

namespace md5stage {
namespace {

bool AnyByte(unsigned char) { return true; }

TEST(ContentKeyTest, TellsContentApart) {
  const std::string text = "joints {\n\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n";
  const std::string collided = testing::CollideMixHash(text, 8, AnyByte);
  ASSERT_FALSE(collided.empty());
  ASSERT_NE(collided, text);
  const struct {
    const char* name;
    std::string a, b;
    bool same_mix;
    bool same_key;
  } rows[] = {
      {"the same bytes", text, std::string(text), true, true},
      {"empty and empty", "", "", true, true},
      {"one byte changed", text, text.substr(0, 5) + "X" + text.substr(6), false, false},
      {"a zero byte appended to the tail", "abc", std::string("abc\0", 4), false, false},
      {"a zero word appended", "abcdefgh", std::string("abcdefgh\0\0\0\0\0\0\0\0", 16), false,
       false},
      {"made to collide in the 64-bit hash", text, collided, true, false},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    const ContentKey a = MakeContentKey(row.a), b = MakeContentKey(row.b);
    EXPECT_EQ(a.mix == b.mix, row.same_mix);
    EXPECT_EQ(a == b, row.same_key);
    EXPECT_EQ(a.size, row.a.size());
    if (row.same_key) {
      EXPECT_EQ(ContentKeyHash()(a), ContentKeyHash()(b));
    }
  }
}

TEST(ContentKeyTest, CrcIsZlibsOverTheWholeInput) {
  // The CRC-32 check value of "123456789" (the standard's test vector).
  EXPECT_EQ(MakeContentKey("123456789").crc, 0xCBF43926u);
  EXPECT_EQ(MakeContentKey("").crc, 0u);
}

}  // namespace
}  // namespace md5stage
