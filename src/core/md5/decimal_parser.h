// Locale-independent number parsing for the MD5 tokenizer: decimal floats correctly rounded to
// float without allocating (an inline path for what exporters write, fast_float for the rest).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the eight-digit SWAR steps assume a little-endian host (x86, ARM, wasm)"
#endif

namespace md5stage::md5 {

// Any literal: the general paths the inline ones below fall back to (floats: correctly rounded at
// any length; "inf", "nan" and hex are not numbers here).
const char* ParseDecimalFloatGeneral(const char* begin, const char* end, float* out);
// The two general float paths, which read and round alike: fast_float's (no allocation, fast on
// hard cases), and the C library's strtof on a copy of the literal. ParseDecimalFloatGeneral is
// fast_float's except where MD5STAGE_DECIMAL_BY_STRTOF is set: the figures module, whose
// C library already holds strtof (JSON numbers) and which would otherwise carry fast_float's
// 10 KB table of powers of five for the few literals the inline path leaves (docs/design.md).
const char* ParseDecimalFloatByFastFloat(const char* begin, const char* end, float* out);
const char* ParseDecimalFloatByStrtof(const char* begin, const char* end, float* out);
const char* ParseDecimalIntGeneral(const char* begin, const char* end, std::int64_t* out);

namespace decimal_detail {

inline constexpr double kInversePowersOfTen[] = {
    1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8,  1e-9,  1e-10, 1e-11,
    1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22};

inline constexpr std::uint32_t kPowersOfTen[] = {1,      10,      100,      1000,     10000,
                                                 100000, 1000000, 10000000, 100000000};

inline std::uint64_t LoadEight(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  return word;  // little-endian: byte 0 is the first character
}

inline bool IsEightDigits(const char* p) {
  const std::uint64_t word = LoadEight(p);
  return (((word & 0xF0F0F0F0F0F0F0F0ull) |
           (((word + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
          0x3333333333333333ull);
}

inline std::uint32_t ParseEightDigits(const char* p) {
  std::uint64_t word = LoadEight(p) - 0x3030303030303030ull;
  word = (word * 10) + (word >> 8);
  word = (((word & 0x000000FF000000FFull) * 0x000F424000000064ull) +
          (((word >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >>
         32;
  return static_cast<std::uint32_t>(word);
}

// Index (0-7) of the first byte of `word` that is not an ASCII digit, 8 when all are. A carry out
// of a non-digit byte >= 0xFA can only disturb the bytes after it, never the first one.
inline int LeadingDigitCount(std::uint64_t word) {
  const std::uint64_t classified =
      ((word & 0xF0F0F0F0F0F0F0F0ull) |
       (((word + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ^
      0x3333333333333333ull;
  if (classified == 0) return 8;
  return __builtin_ctzll(classified) >> 3;
}

// The value of the first `count` (1-7) digit bytes of `word`: they move to the top and the bytes
// below fill with '0', so one eight-digit SWAR step reads them with leading zeros.
inline std::uint32_t ParseLeadingDigits(std::uint64_t word, int count) {
  const int shift = 8 * (8 - count);
  word = (word << shift) | (0x3030303030303030ull >> (64 - shift));
  std::uint64_t digits = word - 0x3030303030303030ull;
  digits = (digits * 10) + (digits >> 8);
  digits = (((digits & 0x000000FF000000FFull) * 0x000F424000000064ull) +
            (((digits >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >>
           32;
  return static_cast<std::uint32_t>(digits);
}

// Appends the digits from p to *value, stopping at the first non-digit or at `limit` (bytes up
// to limit - 1 must be readable); returns where it stopped. Past 19 digits the value wraps:
// callers bound the count or check it afterwards.
inline const char* AppendDigits(const char* p, const char* limit, std::uint64_t* value) {
  unsigned digit;
  while (p < limit && (digit = static_cast<unsigned>(*p - '0')) < 10) {
    *value = *value * 10 + digit;
    ++p;
  }
  return p;
}

// True when the double is within 8 of its ulps of a float midpoint (where rounding an
// approximate quotient could differ from rounding the exact value), or outside the range of
// normal floats: both are left to the exact paths.
inline bool IsNearFloatMidpoint(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  if (exponent < 897 || exponent > 1150) return true;
  const std::int64_t dropped = static_cast<std::int64_t>(bits & ((std::uint64_t{1} << 29) - 1));
  const std::int64_t distance = dropped - (std::int64_t{1} << 28);
  return distance >= -8 && distance <= 8;
}

}  // namespace decimal_detail

// Parses [+-]digits[.digits][(e|E)[+-]digits] (digits may be on either side of the point) at
// [begin, end). Returns the end of the literal, or nullptr when no number starts at begin. The
// result may be +-inf when the literal overflows float; the caller decides whether that is an
// error.
//
// Inline for what exporters write ("-0.7071067691" or "38.500000": 1-7 integer digits, a point,
// fraction digits, at most 15 digits in all, no exponent), with no end checks inside the digit
// loops: anything else, or fewer than 32 bytes left, takes the general path.
inline const char* ParseDecimalFloat(const char* begin, const char* end, float* out) {
  using namespace decimal_detail;
  if (end - begin >= 32) {
    const bool negative = *begin == '-';
    const char* p = begin + (negative || *begin == '+');
    const char* const integer_start = p;
    std::uint64_t mantissa = 0;
    p = AppendDigits(p, integer_start + 8, &mantissa);
    if (p != integer_start && p != integer_start + 8 && *p == '.') {
      const char* const fraction_start = ++p;
      const char* const fraction_limit =
          fraction_start + (15 - (fraction_start - 1 - integer_start));
      // The fraction's first up to eight digits in one SWAR step, the rest (ten-digit
      // fractions like "0.5492429733") one by one.
      const std::uint64_t word = LoadEight(p);
      const int leading = LeadingDigitCount(word);
      if (leading == 8) {
        mantissa = mantissa * 100000000 + ParseEightDigits(p);
        p = AppendDigits(p + 8, fraction_limit, &mantissa);
      } else if (leading != 0) {
        mantissa = mantissa * kPowersOfTen[leading] + ParseLeadingDigits(word, leading);
        p += leading;
      }
      const auto fraction_digits = p - fraction_start;
      if (fraction_digits != 0 && p != fraction_limit && (*p | 0x20) != 'e') {
        // At most 15 digits: the mantissa is exact as a double.
        if (mantissa == 0) {
          *out = negative ? -0.0f : 0.0f;
          return p;
        }
        // Times the rounded reciprocal is within 4 double ulps of the quotient, which rounds to
        // float like the exact value unless it lies near a float midpoint.
        const double approximate =
            static_cast<double>(mantissa) * kInversePowersOfTen[fraction_digits];
        if (!IsNearFloatMidpoint(approximate)) {
          const float result = static_cast<float>(approximate);
          *out = negative ? -result : result;
          return p;
        }
      }
    }
  }
  return ParseDecimalFloatGeneral(begin, end, out);
}

// Parses [+-]digits at [begin, end) into a 64-bit value; literals longer than 18 digits saturate
// to +-999999999999999999 so range checks still reject them. Returns the end or nullptr.
// Indices and counts are short: up to eight digits inline without end checks.
inline const char* ParseDecimalInt(const char* begin, const char* end, std::int64_t* out) {
  using namespace decimal_detail;
  if (end - begin >= 11) {
    const bool negative = *begin == '-';
    const char* const start = begin + (negative || *begin == '+');
    std::uint64_t value = 0;
    const char* const p = AppendDigits(start, start + 9, &value);
    if (p != start && p != start + 9) {
      *out = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
      return p;
    }
  }
  return ParseDecimalIntGeneral(begin, end, out);
}

}  // namespace md5stage::md5
