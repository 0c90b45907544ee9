// Decimal parsing must agree with strtof bit for bit (correct rounding), including ties,
// subnormals, overflow and the odd literals MD5 exporters write.
#include "core/md5/decimal_parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace md5stage::md5 {
namespace {

std::uint32_t Bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Every way to a float: the inline path the readers call (which falls back to the general one)
// and both general ones on their own (fast_float's, and strtof's, which the figures module uses),
// so each is checked on every literal.
struct FloatParser {
  const char* name;
  const char* (*parse)(const char*, const char*, float*);
};
constexpr FloatParser kFloatParsers[] = {
    {"ParseDecimalFloat", ParseDecimalFloat},
    {"ParseDecimalFloatGeneral", ParseDecimalFloatGeneral},
    {"ParseDecimalFloatByFastFloat", ParseDecimalFloatByFastFloat},
    {"ParseDecimalFloatByStrtof", ParseDecimalFloatByStrtof}};

struct FloatCase {
  const char* text;
  std::size_t consumed;  // characters that form the literal
};

class ParseFloatTable : public ::testing::TestWithParam<FloatCase> {};

TEST_P(ParseFloatTable, MatchesStrtofBitForBit) {
  const FloatCase& c = GetParam();
  const std::size_t length = std::strlen(c.text);
  char* strtof_end = nullptr;
  const float expected = std::strtof(c.text, &strtof_end);
  EXPECT_EQ(static_cast<std::size_t>(strtof_end - c.text), c.consumed) << c.text;
  for (const FloatParser& parser : kFloatParsers) {
    float value = 12345.0f;
    const char* end = parser.parse(c.text, c.text + length, &value);
    ASSERT_NE(end, nullptr) << parser.name << " " << c.text;
    EXPECT_EQ(static_cast<std::size_t>(end - c.text), c.consumed) << parser.name << " " << c.text;
    EXPECT_EQ(Bits(value), Bits(expected))
        << parser.name << " " << c.text << " parsed " << value << " strtof " << expected;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Literals, ParseFloatTable,
    ::testing::Values(
        FloatCase{"0", 1}, FloatCase{"-0", 2}, FloatCase{"-0.000000", 9},
        FloatCase{"0.0000000000", 12}, FloatCase{"1", 1}, FloatCase{"+3", 2}, FloatCase{"-17", 3},
        FloatCase{".5", 2}, FloatCase{"5.", 2}, FloatCase{"-0.7071067691", 13},
        FloatCase{"31.9803333282", 13}, FloatCase{"0.0000019062", 12}, FloatCase{"1e3", 3},
        FloatCase{"1.5E-3", 6}, FloatCase{"-2.5e+10", 8}, FloatCase{"1e", 1}, FloatCase{"1e+", 1},
        FloatCase{"7e-", 1},
        // Exactly halfway between 1 and the next float: ties to even (1), and just above it.
        FloatCase{"1.000000059604644775390625", 26}, FloatCase{"1.0000000596046447753906251", 27},
        FloatCase{"1.0000001788139343261718750", 27},
        // Within a few double ulps of that midpoint with 19 digits: the fast multiply path must
        // notice and fall back to an exact path.
        FloatCase{"1.000000059604644775", 20}, FloatCase{"1.000000059604644776", 20},
        FloatCase{"-0.000000029802322387", 21},
        // Long mantissas (more than 19 digits) and extreme exponents go the slow path.
        FloatCase{"3.14159265358979323846264338327950288", 37},
        FloatCase{"123456789012345678901234567890", 30}, FloatCase{"1e-40", 5},
        FloatCase{"1.4e-45", 7}, FloatCase{"1e-50", 5}, FloatCase{"3.4028235e38", 12},
        FloatCase{"3.4028236e38", 12}, FloatCase{"1e39", 4}, FloatCase{"-1e999", 6},
        FloatCase{"0.000000000000000000000000000000000000000001", 44}, FloatCase{"12abc", 2},
        FloatCase{"1.#QNAN", 2}, FloatCase{"5.e3", 4}, FloatCase{"-.5e-2", 6}, FloatCase{"+.25", 4},
        // 800 significant digits: exact however long (the former general path cut at 80).
        FloatCase{
            "1.00000005960464477539062500000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000001",
            328}));

TEST(ParseDecimalFloat, RejectsTextWithoutDigits) {
  for (const char* text : {"", "-", "+", ".", "-.", "e5", "nan", "inf", "-inf", "+nan", "infinity",
                           "(", "abc", "+-1", "-+1", "--1", ".e5", "-.e5"}) {
    for (const FloatParser& parser : kFloatParsers) {
      float value = 0.0f;
      EXPECT_EQ(parser.parse(text, text + std::strlen(text), &value), nullptr)
          << parser.name << " " << text;
    }
  }
}

TEST(ParseDecimalFloat, ReadsHexAsTheLeadingZero) {
  // strtof would read 8 here; MD5 numbers are decimal, so the literal is "0" and 'x' follows.
  const char text[] = "0x1p3";
  for (const FloatParser& parser : kFloatParsers) {
    float value = 1.0f;
    EXPECT_EQ(parser.parse(text, text + sizeof text - 1, &value), text + 1) << parser.name;
    EXPECT_EQ(value, 0.0f) << parser.name;
  }
}

TEST(ParseDecimalFloat, NegativeZeroKeepsItsSign) {
  for (const char* text : {"-0.000000", "-0", "-0e5", "-.0"}) {
    for (const FloatParser& parser : kFloatParsers) {
      float value = 1.0f;
      ASSERT_NE(parser.parse(text, text + std::strlen(text), &value), nullptr) << parser.name;
      EXPECT_EQ(value, 0.0f) << parser.name << " " << text;
      EXPECT_TRUE(std::signbit(value)) << parser.name << " " << text;
    }
  }
}

TEST(ParseDecimalFloat, StopsAtTheEndOfTheBuffer) {
  const char text[] = "12345";  // the view covers only "12"
  for (const FloatParser& parser : kFloatParsers) {
    float value = 0.0f;
    EXPECT_EQ(parser.parse(text, text + 2, &value), text + 2) << parser.name;
    EXPECT_EQ(value, 12.0f) << parser.name;
  }
}

// Random literals shaped like exporter output and beyond: 1-24 digits, the point anywhere,
// optional exponent. Every one must round exactly like strtof.
TEST(ParseDecimalFloat, RandomLiteralsMatchStrtof) {
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> digit(0, 9);
  std::uniform_int_distribution<int> digit_count(1, 24);
  std::uniform_int_distribution<int> exponent(-46, 40);
  std::uniform_int_distribution<int> coin(0, 3);
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    if (coin(random) == 0) text += '-';
    const int digits = digit_count(random);
    const int point = std::uniform_int_distribution<int>(0, digits)(random);
    for (int d = 0; d < digits; ++d) {
      if (d == point) text += '.';
      text += static_cast<char>('0' + digit(random));
    }
    if (coin(random) == 0) text += "e" + std::to_string(exponent(random));
    const float expected = std::strtof(text.c_str(), nullptr);
    for (const FloatParser& parser : kFloatParsers) {
      float value = 0.0f;
      const char* end = parser.parse(text.data(), text.data() + text.size(), &value);
      ASSERT_NE(end, nullptr) << parser.name << " " << text;
      if (Bits(value) != Bits(expected) && ++mismatches < 10) {
        ADD_FAILURE() << parser.name << " " << text << " parsed " << value << " strtof "
                      << expected;
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// The same inside a long buffer, as in a file: there the inline paths (digit loops without end
// checks, eight-digit SWAR steps) read the literal. Shapes around their limits: 7 and 8 integer
// digits, 6, 8, 10 and 13-16 fraction digits, 15 digits in all, exponents, a second point.
TEST(ParseDecimalFloat, LiteralsInsideLongBuffersMatchStrtof) {
  std::mt19937 random(777);
  std::uniform_int_distribution<int> digit(0, 9);
  std::uniform_int_distribution<int> integer_digits(0, 9);
  std::uniform_int_distribution<int> fraction_digits(0, 17);
  static const char* const kFollowers[] = {" ", ")", "\n", "e5", "E-3", ".5", "x", "e", "5 "};
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    const int sign = static_cast<int>(random() % 3);
    if (sign == 1) text += '-';
    if (sign == 2) text += '+';
    const int integers = integer_digits(random);
    for (int d = 0; d < integers; ++d) text += static_cast<char>('0' + digit(random));
    const int fractions = fraction_digits(random);
    if (fractions > 0 || integers == 0) text += '.';
    for (int d = 0; d < fractions; ++d) text += static_cast<char>('0' + digit(random));
    if (integers == 0 && fractions == 0) text += '0';
    const std::string literal_and_after = text + kFollowers[random() % 9];
    const std::string buffer = literal_and_after + " 0.000000 0.000000 0.000000 )\n";
    char* strtof_end = nullptr;
    const float expected = std::strtof(buffer.c_str(), &strtof_end);
    for (const FloatParser& parser : kFloatParsers) {
      float value = 0.0f;
      const char* end = parser.parse(buffer.data(), buffer.data() + buffer.size(), &value);
      ASSERT_NE(end, nullptr) << parser.name << " " << buffer;
      if ((end != strtof_end || Bits(value) != Bits(expected)) && ++mismatches < 10) {
        ADD_FAILURE() << parser.name << " " << buffer << " parsed " << value << " ("
                      << end - buffer.data() << " chars) strtof " << expected << " ("
                      << strtof_end - buffer.c_str() << " chars)";
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ParseDecimalInt, IntegersInsideLongBuffersMatchStrtoll) {
  for (int digits = 1; digits <= 20; ++digits) {
    for (const char* sign : {"", "-", "+"}) {
      std::string literal = sign;
      for (int d = 0; d < digits; ++d) literal += static_cast<char>('1' + d % 9);
      const std::string buffer = literal + " 12 34 56 78 90 )\n";
      std::int64_t value = 0;
      const char* end = ParseDecimalInt(buffer.data(), buffer.data() + buffer.size(), &value);
      ASSERT_NE(end, nullptr) << buffer;
      EXPECT_EQ(static_cast<std::size_t>(end - buffer.data()), literal.size()) << buffer;
      const long long expected =
          digits <= 18 ? std::strtoll(literal.c_str(), nullptr, 10)
                       : (*sign == '-' ? -999999999999999999LL : 999999999999999999LL);
      EXPECT_EQ(value, expected) << buffer;
    }
  }
}

struct IntCase {
  const char* text;
  std::int64_t value;
  std::size_t consumed;
};

class ParseIntTable : public ::testing::TestWithParam<IntCase> {};

TEST_P(ParseIntTable, ParsesAndSaturates) {
  const IntCase& c = GetParam();
  std::int64_t value = 0;
  const char* end = ParseDecimalInt(c.text, c.text + std::strlen(c.text), &value);
  ASSERT_NE(end, nullptr) << c.text;
  EXPECT_EQ(value, c.value) << c.text;
  EXPECT_EQ(static_cast<std::size_t>(end - c.text), c.consumed) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Literals, ParseIntTable,
    ::testing::Values(IntCase{"0", 0, 1}, IntCase{"-1", -1, 2}, IntCase{"+7", 7, 2},
                      IntCase{"4294967295", 4294967295LL, 10},
                      IntCase{"99999999999999999999999", 999999999999999999LL, 23},
                      IntCase{"-99999999999999999999999", -999999999999999999LL, 24},
                      IntCase{"12.5", 12, 2}));

TEST(ParseDecimalInt, RejectsNonIntegers) {
  for (const char* text : {"", "-", "+", ".5", "x1"}) {
    std::int64_t value = 0;
    EXPECT_EQ(ParseDecimalInt(text, text + std::strlen(text), &value), nullptr) << text;
  }
}

}  // namespace
}  // namespace md5stage::md5
