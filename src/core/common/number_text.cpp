#include "core/common/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/common/dragonbox.h"

namespace md5stage {
namespace {

// "00" to "99": two digits a division.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void WritePair(std::uint32_t pair, char* at) {
  at[0] = kDigitPairs[2 * pair];
  at[1] = kDigitPairs[2 * pair + 1];
}

// Writes the 9 decimal digits of `value` (below 10^9: every float significand Dragonbox gives)
// with leading zeros at `at`: the same steps for every value, no loop to mispredict.
void WriteNineDigits(std::uint32_t value, char* at) {
  const std::uint32_t low8 = value % 100000000u;
  at[0] = static_cast<char>('0' + value / 100000000u);
  const std::uint32_t high4 = low8 / 10000u;
  const std::uint32_t low4 = low8 % 10000u;
  WritePair(high4 / 100u, at + 1);
  WritePair(high4 % 100u, at + 3);
  WritePair(low4 / 100u, at + 5);
  WritePair(low4 % 100u, at + 7);
}

// Writes every decimal digit of `value` so they end at `end`; returns where they start.
char* WriteWholeNumber(std::uint64_t value, char* end) {
  do {
    *--end = static_cast<char>('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  return end;
}

}  // namespace

void AppendShortestFixedByDigits(float value, std::string& out) {
  if (value == 0.0f || !std::isfinite(value)) {
    out.push_back('0');
    return;
  }
  const float magnitude = std::fabs(value);
  // magnitude = significand x 10^exponent with the fewest digits that read back to it (the
  // nearest such when there are several): what to_chars finds too.
  const fmt::detail::dragonbox::decimal_fp<float> decimal =
      fmt::detail::dragonbox::to_decimal(magnitude);
  // The text is laid out here and appended once: in the wasm build std::string's members are
  // calls into a size-optimised libc++, dearer than the layout.
  char text[64];  // the smallest subnormal is 47 characters with "-0.", FLT_MAX 39 digits
  char* const end = text + sizeof text;
  char* start = nullptr;
  if (decimal.exponent < 0) {
    // The significand's 9 digits end the text, zeros before them: its last `decimals` characters
    // are the decimals (zeros first below 0.1), and the `whole` before them the whole part ("0"
    // when the digits are all decimals). The whole part then moves one left for the point: a
    // fixed 16-byte move, as every part here is a fixed number of steps.
    const int decimals = -decimal.exponent;  // 1 to 45
    const int digits = fmt::detail::count_digits(decimal.significand);
    const int whole = std::max(digits - decimals, 1);
    std::memset(text, '0', sizeof text - 9);
    WriteNineDigits(decimal.significand, end - 9);
    char* const point = end - decimals - 1;
    std::memmove(point - 16, point - 15, 16);
    *point = '.';
    start = point - whole;
  } else if (magnitude < 18446744073709551616.0f) {
    // A whole number: fixed notation with no decimals, as to_chars and printf write it, is its
    // exact value (340282346638528859811704183484516925440 for FLT_MAX, not 34028235 and zeros);
    // below 2^64 the conversion to an integer is that value exactly.
    start = WriteWholeNumber(static_cast<std::uint64_t>(magnitude), end);
  } else {
    if (value < 0.0f) out.push_back('-');
    const int length = std::snprintf(text, sizeof text, "%.0f", static_cast<double>(magnitude));
    out.append(text, static_cast<std::size_t>(length));
    return;
  }
  if (value < 0.0f) *--start = '-';
  out.append(start, static_cast<std::size_t>(end - start));
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
