#include "core/md5/decimal_parser.h"

#include <fast_float/fast_float.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace md5stage::md5 {
namespace {

inline bool IsDigit(char c) { return static_cast<unsigned>(c - '0') < 10u; }

}  // namespace

const char* ParseDecimalFloatByFastFloat(const char* begin, const char* end, float* out) {
  // The sign is read here: fast_float (like std::from_chars) refuses a leading '+', and it would
  // read "inf" and "nan", which are not numbers in an MD5 file.
  const char* p = begin;
  const bool negative = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+')) ++p;
  if (p == end || !(IsDigit(*p) || *p == '.')) return nullptr;
  float value = 0.0f;
  // Correctly rounded for any length (its exact big-decimal path for the rare hard cases), no
  // locale, no allocation; overflow gives inf and underflow 0 with no error, as strtof does.
  const fast_float::from_chars_result result = fast_float::from_chars(p, end, value);
  if (result.ec != std::errc()) return nullptr;  // "." or ".e5": no digits
  *out = negative ? -value : value;
  return result.ptr;
}

const char* ParseDecimalFloatByStrtof(const char* begin, const char* end, float* out) {
  const char* p = begin;
  const bool negative = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+')) ++p;
  // The literal's extent, read as fast_float reads it: digits with at most one point (a digit on
  // either side), then an exponent only where digits follow its sign. strtof never sees the
  // rest, so it cannot read hex, "inf" or "nan", nor past `end`.
  const char* literal_end = p;
  while (literal_end < end && IsDigit(*literal_end)) ++literal_end;
  bool has_digits = literal_end != p;
  if (literal_end < end && *literal_end == '.') {
    const char* const fraction = ++literal_end;
    while (literal_end < end && IsDigit(*literal_end)) ++literal_end;
    has_digits = has_digits || literal_end != fraction;
  }
  if (!has_digits) return nullptr;
  if (literal_end < end && (*literal_end | 0x20) == 'e') {
    const char* exponent = literal_end + 1;
    if (exponent < end && (*exponent == '-' || *exponent == '+')) ++exponent;
    if (exponent < end && IsDigit(*exponent)) {
      while (exponent < end && IsDigit(*exponent)) ++exponent;
      literal_end = exponent;
    }
  }
  // strtof reads a terminated string: a copy on the stack, on the heap only for the rare literal
  // longer than it (correctly rounded at any length, as fast_float is).
  const std::size_t length = static_cast<std::size_t>(literal_end - p);
  char small[64];
  std::string large;
  char* copy = small;
  if (length >= sizeof small) {
    large.assign(p, length);
    copy = large.data();
  } else {
    std::memcpy(small, p, length);
    small[length] = '\0';
  }
  const float value = std::strtof(copy, nullptr);
  *out = negative ? -value : value;
  return literal_end;
}

const char* ParseDecimalFloatGeneral(const char* begin, const char* end, float* out) {
#if MD5STAGE_DECIMAL_BY_STRTOF
  return ParseDecimalFloatByStrtof(begin, end, out);
#else
  return ParseDecimalFloatByFastFloat(begin, end, out);
#endif
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
