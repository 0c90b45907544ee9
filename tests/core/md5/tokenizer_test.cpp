// The tokenizer's lexical rules (comments, BOM, CRLF, strings) and the locations and wording of
// its messages.
#include "core/md5/tokenizer.h"

#include <gtest/gtest.h>

#include <string>

namespace md5stage::md5 {
namespace {

TEST(Tokenizer, SkipsCommentsBlanksAndByteOrderMark) {
  const std::string text =
      "\xEF\xBB\xBFword // trailing comment\r\n"
      "\t/* block\n comment */ \"a string\"//no space\r\n"
      "  ( 1 -2.5 ) { }";
  Tokenizer tk("t.md5mesh", text);
  EXPECT_TRUE(tk.ExpectWord("word"));
  EXPECT_EQ(tk.last_location().line, 1);
  EXPECT_EQ(tk.last_location().column, 1);
  std::string_view string;
  EXPECT_TRUE(tk.ReadString(&string));
  EXPECT_EQ(string, "a string");
  EXPECT_EQ(tk.last_location().line, 3);
  EXPECT_EQ(tk.last_location().column, 13);
  float values[2];
  EXPECT_TRUE(tk.ReadFloatTuple("a number", 2, values));
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[1], -2.5f);
  EXPECT_EQ(tk.last_location().line, 4);
  EXPECT_TRUE(tk.ExpectChar('{'));
  EXPECT_TRUE(tk.ExpectChar('}'));
  EXPECT_TRUE(tk.AtEnd());
  EXPECT_TRUE(tk.ok());
}

TEST(Tokenizer, WordsNeedADelimiterAfterThem) {
  Tokenizer tk("t", "numvertsX 3");
  EXPECT_FALSE(tk.PeekWord("numverts"));
  EXPECT_FALSE(tk.ExpectWord("numverts"));
  EXPECT_EQ(tk.error().ToString(), "t:1:1: error: expected 'numverts', found 'numvertsX'");
}

TEST(Tokenizer, NumbersFollowedByPunctuationAreComplete) {
  Tokenizer tk("t", "(1 2)3{");
  float values[2];
  ASSERT_TRUE(tk.ReadFloatTuple("a number", 2, values));
  std::int64_t value = 0;
  ASSERT_TRUE(tk.ReadInt("an integer", &value));
  EXPECT_EQ(value, 3);
  EXPECT_TRUE(tk.ExpectChar('{'));
}

TEST(Tokenizer, StringsMayBeEmptyAndHoldBackslashes) {
  Tokenizer tk("t", "\"\" \"C:\\dir\\file.tga\"");
  std::string_view a, b;
  ASSERT_TRUE(tk.ReadString(&a));
  ASSERT_TRUE(tk.ReadString(&b));
  EXPECT_EQ(a, "");
  EXPECT_EQ(b, "C:\\dir\\file.tga");
}

struct ErrorCase {
  const char* name;
  const char* text;
  const char* expected;  // Diagnostic::ToString()
};

class TokenizerErrors : public ::testing::TestWithParam<ErrorCase> {};

// Each case reads: an integer, a float, a string, in that order.
TEST_P(TokenizerErrors, ReportLocationAndWhatWasFound) {
  const ErrorCase& c = GetParam();
  Tokenizer tk("f.md5", c.text);
  std::int64_t integer = 0;
  float number = 0.0f;
  std::string_view string;
  const bool ok = tk.ReadInt("an integer", &integer) && tk.ReadFloat("a number", &number) &&
                  tk.ReadString(&string);
  EXPECT_FALSE(ok);
  EXPECT_FALSE(tk.ok());
  EXPECT_EQ(tk.error().ToString(), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TokenizerErrors,
    ::testing::Values(
        ErrorCase{"FloatForInt", "1.5 2 \"s\"",
                  "f.md5:1:1: error: expected an integer, found '1.5'"},
        ErrorCase{"Nan", "1\n  nan \"s\"", "f.md5:2:3: error: expected a number, found 'nan'"},
        ErrorCase{"WindowsNan", "1 -1.#IND \"s\"",
                  "f.md5:1:3: error: expected a number, found '-1.#IND'"},
        ErrorCase{"Overflow", "1 1e39 \"s\"",
                  "f.md5:1:3: error: expected a number within float range, found '1e39'"},
        ErrorCase{"UnclosedString", "1 2 \"abc\n\"",
                  "f.md5:1:5: error: expected a closing '\"' on the same line, found end of line"},
        ErrorCase{"StringAtEnd", "1 2 \"abc",
                  "f.md5:1:5: error: expected a closing '\"' on the same line, found end of file"},
        ErrorCase{"EndOfFile", "1 2 // only a comment",
                  "f.md5:1:22: error: expected a quoted string, found end of file"},
        ErrorCase{"CrLfLines", "1\r\n2\r\n\r\n}",
                  "f.md5:4:1: error: expected a quoted string, found '}'"},
        ErrorCase{"ControlCharacters", "\x01x 2 \"s\"",
                  "f.md5:1:1: error: expected an integer, found '?x'"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST(Tokenizer, KeepsOnlyTheFirstError) {
  Tokenizer tk("f", "x y");
  EXPECT_FALSE(tk.ExpectWord("a"));
  EXPECT_FALSE(tk.ExpectWord("y"));
  EXPECT_EQ(tk.error().ToString(), "f:1:1: error: expected 'a', found 'x'");
}

TEST(Tokenizer, LongTokensAreShortenedInMessages) {
  const std::string text(100, 'a');
  Tokenizer tk("f", text);
  EXPECT_FALSE(tk.ExpectChar('{'));
  EXPECT_EQ(tk.error().message, "expected '{', found '" + std::string(40, 'a') + "...'");
}

}  // namespace
}  // namespace md5stage::md5
