#include "core/md5/decimal_parser.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace md5stage::md5 {
namespace {

using decimal_detail::kInversePowersOfTen;

constexpr double kExactPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

inline bool IsDigit(char c) { return static_cast<unsigned>(c - '0') < 10u; }

using decimal_detail::IsEightDigits;
using decimal_detail::ParseEightDigits;

// True when the double lies exactly halfway between two adjacent floats: only then can rounding
// the (correctly rounded) double to float differ from rounding the exact decimal value.
inline bool IsFloatMidpoint(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  // Normal floats keep 23 of the double's 52 fraction bits; the 29 dropped bits are 100...0 at a
  // midpoint. Subnormal floats (exponent below 897) are left to strtof.
  if (exponent < 897) return value != 0.0;
  return (bits & ((std::uint64_t{1} << 29) - 1)) == (std::uint64_t{1} << 28);
}

float SlowParse(const char* begin, const char* end) {
  char buffer[128];
  const std::size_t length = static_cast<std::size_t>(end - begin);
  if (length < sizeof buffer) {
    std::memcpy(buffer, begin, length);
    buffer[length] = '\0';
    return std::strtof(buffer, nullptr);
  }
  // Absurdly long literals: keep the sign, 40 significant characters and the exponent. Digits
  // beyond float precision cannot change the result except in pathological ties.
  const char* exponent = begin;
  while (exponent < end && *exponent != 'e' && *exponent != 'E') ++exponent;
  std::size_t head = static_cast<std::size_t>(exponent - begin);
  const std::size_t tail = static_cast<std::size_t>(end - exponent);
  if (tail > 40) return std::strtof("nan", nullptr);  // an exponent this long: caller rejects
  if (head > 80) head = 80;
  std::memcpy(buffer, begin, head);
  std::memcpy(buffer + head, exponent, tail);
  buffer[head + tail] = '\0';
  return std::strtof(buffer, nullptr);
}

// mantissa x 10^exponent10 rounded to float, for mantissa <= 2^53 and |exponent10| <= 22 (both
// exact as doubles): Clinger's fast path. `begin`/`end` are the literal, for the rare tie.
inline float ExactToFloat(std::uint64_t mantissa, int exponent10, bool negative, const char* begin,
                          const char* end) {
  const double exact_mantissa = static_cast<double>(mantissa);
  if (exponent10 < 0) {
    // Multiplying by the rounded reciprocal is within 4 double ulps of the exact quotient. Float
    // rounding only needs 24 of the 53 bits, so unless the result lies within 8 ulps of a float
    // midpoint it rounds exactly like the exact value; that saves the division almost always.
    const double approximate = exact_mantissa * kInversePowersOfTen[-exponent10];
    if (!decimal_detail::IsNearFloatMidpoint(approximate)) {
      const float result = static_cast<float>(approximate);
      return negative ? -result : result;
    }
  }
  const double value = exponent10 < 0 ? exact_mantissa / kExactPowersOfTen[-exponent10]
                                      : exact_mantissa * kExactPowersOfTen[exponent10];
  if (!IsFloatMidpoint(value)) {
    const float result = static_cast<float>(value);
    return negative ? -result : result;
  }
  return SlowParse(begin, end);
}

}  // namespace

const char* ParseDecimalFloatGeneral(const char* begin, const char* end, float* out) {
  const char* p = begin;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  // Every digit goes into the mantissa; more than 19 significant digits could overflow it, which
  // is checked once afterwards (rare) instead of per digit.
  std::uint64_t mantissa = 0;
  const char* integer_start = p;
  p = decimal_detail::AppendDigits(p, end, &mantissa);
  std::int64_t digit_count = p - integer_start;
  int exponent10 = 0;
  if (p < end && *p == '.') {
    ++p;
    const char* fraction_start = p;
    while (end - p >= 8 && IsEightDigits(p)) {
      mantissa = mantissa * 100000000 + ParseEightDigits(p);
      p += 8;
    }
    p = decimal_detail::AppendDigits(p, end, &mantissa);
    const std::int64_t fraction_digits = p - fraction_start;
    digit_count += fraction_digits;
    exponent10 = -static_cast<int>(fraction_digits > 100000 ? 100000 : fraction_digits);
  }
  if (digit_count == 0) return nullptr;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    bool exponent_negative = false;
    if (q < end && (*q == '-' || *q == '+')) {
      exponent_negative = *q == '-';
      ++q;
    }
    if (q < end && IsDigit(*q)) {
      int exponent = 0;
      while (q < end && IsDigit(*q)) {
        if (exponent < 100000) exponent = exponent * 10 + (*q - '0');
        ++q;
      }
      exponent10 += exponent_negative ? -exponent : exponent;
      p = q;
    }
    // "1e" or "1e+" without digits: the literal ends before the 'e' (strtod agrees).
  }
  if (digit_count > 19) {
    // Leading zeros do not count; with more than 19 significant digits the mantissa wrapped.
    int significant = 0;
    bool leading = true;
    for (const char* c = integer_start; c < p && (IsDigit(*c) || *c == '.'); ++c) {
      if (*c == '.' || (leading && *c == '0')) continue;
      leading = false;
      ++significant;
    }
    if (significant > 19) {
      *out = SlowParse(begin, p);
      return p;
    }
  }
  if (mantissa == 0) {
    *out = negative ? -0.0f : 0.0f;
    return p;
  }
  if (mantissa <= (std::uint64_t{1} << 53) && exponent10 >= -22 && exponent10 <= 22) {
    *out = ExactToFloat(mantissa, exponent10, negative, begin, p);
    return p;
  }
  *out = SlowParse(begin, p);
  return p;
}

const char* ParseDecimalIntGeneral(const char* begin, const char* end, std::int64_t* out) {
  const char* p = begin;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  if (p >= end || !IsDigit(*p)) return nullptr;
  constexpr std::int64_t kSaturated = 999999999999999999;
  std::int64_t value = 0;
  while (p < end && IsDigit(*p)) {
    value = value > kSaturated / 10 ? kSaturated : value * 10 + (*p - '0');
    if (value > kSaturated) value = kSaturated;
    ++p;
  }
  *out = negative ? -value : value;
  return p;
}

}  // namespace md5stage::md5
