// Locale-independent number parsing for the MD5 tokenizer: decimal floats correctly rounded to
// float without allocating (Clinger's fast path, strtof only for rare long or extreme literals).
#pragma once

#include <cstdint>

namespace md5stage::md5 {

// Parses [+-]digits[.digits][(e|E)[+-]digits] (digits may be on either side of the point) at
// [begin, end). Returns the end of the literal, or nullptr when no number starts at begin. The
// result may be +-inf when the literal overflows float; the caller decides whether that is an
// error.
const char* ParseDecimalFloat(const char* begin, const char* end, float* out);

// Parses [+-]digits at [begin, end) into a 64-bit value; literals longer than 18 digits saturate
// to +-999999999999999999 so range checks still reject them. Returns the end or nullptr.
const char* ParseDecimalInt(const char* begin, const char* end, std::int64_t* out);

}  // namespace md5stage::md5
