#include "core/md5/decimal_parser.h"

#include <fast_float/fast_float.h>

#include <system_error>

namespace md5stage::md5 {
namespace {

inline bool IsDigit(char c) { return static_cast<unsigned>(c - '0') < 10u; }

}  // namespace

const char* ParseDecimalFloatGeneral(const char* begin, const char* end, float* out) {
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
