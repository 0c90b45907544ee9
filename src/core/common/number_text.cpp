#include "core/common/number_text.h"

// {fmt} header-only: only its Dragonbox shortest-digits search is used (no formatting, no
// library to link, in the native and the wasm build alike).
#ifndef FMT_HEADER_ONLY
#define FMT_HEADER_ONLY
#endif
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace md5stage {

void AppendShortestFixedByDigits(float value, std::string& out) {
  if (value == 0.0f || !std::isfinite(value)) {
    out.push_back('0');
    return;
  }
  // value = significand x 10^exponent with the fewest digits that read back to it (the nearest
  // such when there are several): what to_chars finds too.
  const fmt::detail::dragonbox::decimal_fp<float> decimal =
      fmt::detail::dragonbox::to_decimal(value);
  // The text is laid out here and appended once: in the wasm build std::string's members are
  // calls into a size-optimised libc++, a tenth of the work per character appended.
  char text[64];  // FLT_MAX is 39 digits; the smallest subnormal 47 characters with "-0."
  char* end = text;
  if (value < 0.0f) *end++ = '-';
  if (decimal.exponent >= 0) {
    // A whole number: fixed notation with no decimals, as to_chars and printf write it, is its
    // exact value (340282346638528859811704183484516925440 for FLT_MAX, not 34028235 and zeros).
    end += std::snprintf(end, sizeof text - 1, "%.0f", std::fabs(static_cast<double>(value)));
    out.append(text, static_cast<std::size_t>(end - text));
    return;
  }
  char digits[16];
  const int count = static_cast<int>(
      std::to_chars(digits, digits + sizeof digits, decimal.significand).ptr - digits);
  const int decimals = -decimal.exponent;
  if (count > decimals) {  // digits before the point
    end = std::copy(digits, digits + (count - decimals), end);
    *end++ = '.';
    end = std::copy(digits + (count - decimals), digits + count, end);
  } else {
    *end++ = '0';
    *end++ = '.';
    end = std::fill_n(end, decimals - count, '0');
    end = std::copy(digits, digits + count, end);
  }
  out.append(text, static_cast<std::size_t>(end - text));
}

void AppendShortestFixed(float value, std::string& out) {
#if MD5STAGE_HAVE_FLOATING_TO_CHARS
  if (value == 0.0f || !std::isfinite(value)) {
    out.push_back('0');
    return;
  }
  char buffer[64];  // FLT_MAX in fixed notation is 39 digits
  const std::to_chars_result end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  out.append(buffer, end.ptr);
#else
  AppendShortestFixedByDigits(value, out);
#endif
}

}  // namespace md5stage
