#include "core/common/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

std::string Fixed(float value) {
  std::string out;
  AppendShortestFixed(value, out);
  return out;
}

std::string FixedByDigits(float value) {
  std::string out;
  AppendShortestFixedByDigits(value, out);
  return out;
}

float FloatFromBits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

TEST(ShortestFixedTest, Table) {
  const struct {
    float value;
    const char* text;
  } rows[] = {
      {0.0f, "0"},
      {-0.0f, "0"},
      {std::numeric_limits<float>::infinity(), "0"},
      {-std::numeric_limits<float>::infinity(), "0"},
      {std::nanf(""), "0"},
      {1.0f, "1"},
      {-1.0f, "-1"},
      {0.5f, "0.5"},
      {0.1f, "0.1"},
      {-2.5f, "-2.5"},
      {1.0f / 3.0f, "0.33333334"},
      {100.0f, "100"},
      {1e-10f, "0.0000000001"},
      {123456789.0f, "123456792"},  // the float nearest 123456789; fixed notation shows it whole
      {16777216.0f, "16777216"},
      {0.70710677f, "0.70710677"},
      {std::ldexp(1.0f, -149),  // the smallest subnormal
       "0.000000000000000000000000000000000000000000001"},
      {std::numeric_limits<float>::max(), "340282346638528859811704183484516925440"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(Fixed(row.value), row.text) << row.text;
    EXPECT_EQ(FixedByDigits(row.value), row.text) << row.text;
  }
}

// Float classes where a shortest-digits writer goes wrong if it goes wrong anywhere: whole
// numbers (exact in fixed notation however long), subnormals, powers of ten (their floats lie
// just off them), halfway cases (a decimal exactly between two floats), and the ends of the
// binary exponents' rounding intervals. The wasm writer (Dragonbox digits) writes to_chars' bytes.
TEST(ShortestFixedTest, DigitsWriterMatchesToCharsOnEveryFloatClass) {
  std::vector<float> values;
  for (int i = -2000; i <= 2000; ++i) values.push_back(static_cast<float>(i));  // small integers
  for (const float whole : {8388607.0f, 8388608.0f, 16777215.0f, 16777216.0f, 16777218.0f,
                            2147483648.0f, 1e10f, 3e10f, 1e30f, 1.5e38f}) {
    values.push_back(whole);  // around 2^23, 2^24 and past them: every float there is whole
  }
  for (int e = -45; e <= 38; ++e) {  // powers of ten and their float neighbours
    const float power = std::pow(10.0f, static_cast<float>(e));
    if (power == 0.0f || !std::isfinite(power)) continue;
    values.push_back(power);
    values.push_back(std::nextafter(power, 0.0f));
    values.push_back(std::nextafter(power, std::numeric_limits<float>::infinity()));
  }
  for (std::uint32_t bits = 1; bits < 5000; ++bits) values.push_back(FloatFromBits(bits));
  // Every place the point can fall in the digits: 1 to 9 significant digits, 1 to 45 decimals
  // (the writer lays out 9 digits and moves the whole part left of the point).
  for (int count = 1; count <= 9; ++count) {
    for (int decimals = 1; decimals <= 45; ++decimals) {
      const std::string text =
          std::string("987654321").substr(0, count) + "e-" + std::to_string(decimals);
      values.push_back(std::strtof(text.c_str(), nullptr));
    }
  }
  // The last whole numbers below 2^64 (written from a 64-bit integer) and 2^64 itself (past it).
  const float two_to_64 = std::ldexp(1.0f, 64);
  values.push_back(two_to_64);
  values.push_back(std::nextafter(two_to_64, 0.0f));
  values.push_back(std::nextafter(two_to_64, std::numeric_limits<float>::infinity()));
  values.push_back(FloatFromBits(0x007FFFFFu));  // the largest subnormal
  values.push_back(std::numeric_limits<float>::min());
  // Halfway cases: the midpoint of two neighbouring floats, as a double, then both floats.
  for (const float base : {0.1f, 1.0f, 3.0f, 1000.5f, 1e-5f, 7.0e-39f}) {
    const float next = std::nextafter(base, 2 * base + 1.0f);
    const double middle = (static_cast<double>(base) + next) / 2.0;
    values.push_back(static_cast<float>(middle));
    values.push_back(base);
    values.push_back(next);
  }
  int differences = 0;
  for (const float value : values) {
    for (const float signed_value : {value, -value}) {
      const std::string text = FixedByDigits(signed_value);
      if (text != Fixed(signed_value) && ++differences <= 10) {
        ADD_FAILURE() << text << " != " << Fixed(signed_value);
      }
      if (signed_value != 0.0f) {
        EXPECT_EQ(std::strtof(text.c_str(), nullptr), signed_value) << text;
      }
    }
  }
  EXPECT_EQ(differences, 0) << "of " << 2 * values.size();
}

// What the wasm build writes (Dragonbox digits) must be what the CLI writes (to_chars where the
// library has it), or an MD5 file downloaded from the browser differs from `md5stage convert`'s.
// Every text must read back, and one decimal fewer must not.
TEST(ShortestFixedTest, DigitsWriterWritesWhatToCharsWritesAndNothingShorterReadsBack) {
  std::vector<float> values;
  for (int exponent = -149; exponent <= 127; ++exponent) {  // lopsided rounding intervals
    const float power = std::ldexp(1.0f, exponent);
    values.push_back(power);
    values.push_back(-power);
    values.push_back(std::nextafter(power, 0.0f));
    values.push_back(std::nextafter(power, std::numeric_limits<float>::infinity()));
  }
  std::mt19937 random(20261201);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0xFFFFFFFFu);
  while (values.size() < 60000) {
    const float value = FloatFromBits(bits(random));
    if (std::isfinite(value)) values.push_back(value);
  }
  std::uniform_real_distribution<float> md5_range(-1000.0f, 1000.0f);  // what MD5 files hold
  for (int i = 0; i < 60000; ++i) values.push_back(md5_range(random));

  int differences = 0;
  for (const float value : values) {
    const std::string text = FixedByDigits(value);
    if (text != Fixed(value) && ++differences <= 10) {
      ADD_FAILURE() << text << " != " << Fixed(value);
    }
    ASSERT_EQ(std::strtof(text.c_str(), nullptr), value) << text;
    ASSERT_EQ(text.find_first_of("eE"), std::string::npos) << text;
    const std::size_t point = text.find('.');
    if (point == std::string::npos) continue;
    const int decimals = static_cast<int>(text.size() - point - 1);
    ASSERT_GT(decimals, 0) << text;
    ASSERT_NE(text.back(), '0') << text;
    // No text with one decimal fewer reads back: check both neighbours on that grid.
    char shorter[80];
    std::snprintf(shorter, sizeof shorter, "%.*f", decimals - 1, static_cast<double>(value));
    const double nearest = std::strtod(shorter, nullptr);
    const double step = std::pow(10.0, -(decimals - 1));
    for (const double candidate : {nearest, nearest - step, nearest + step}) {
      std::snprintf(shorter, sizeof shorter, "%.*f", decimals - 1, candidate);
      ASSERT_NE(std::strtof(shorter, nullptr), value) << text << " vs " << shorter;
    }
  }
  EXPECT_EQ(differences, 0) << "of " << values.size();
}

}  // namespace
}  // namespace md5stage
