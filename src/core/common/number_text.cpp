#include "core/common/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace md5stage {

// Reading back is monotonic in the decimals (more never hurts) and 9 significant digits always
// suffice for a float, so a binary search below that takes about four tries; the first decimals
// count whose rounding, done in doubles, gives the float back is usually the answer, and one
// formatted read confirms it (double rounding may rarely disagree with strtof). That shortcut is
// skipped for powers of two, where the answer may be the nearest decimal's neighbour.
void AppendShortestFixedBySearch(float value, std::string& out) {
  if (value == 0.0f || !std::isfinite(value)) {
    out.push_back('0');
    return;
  }
  char buffer[80];
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int low = 0;
  int high = std::max(0, 9 - exponent);  // one spare for log10 rounding at powers of ten
  // At a power of two the float's rounding interval is lopsided, so when the nearest decimal of
  // that many places misses, its neighbour on the other side of the value may still read back
  // (and is then what to_chars picks).
  const auto reads_back = [&](int decimals) {
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, static_cast<double>(value));
    if (std::strtof(buffer, nullptr) == value) return true;
    const double nearest = std::strtod(buffer, nullptr);
    const double step = std::pow(10.0, -decimals);
    const double neighbour = nearest < static_cast<double>(value) ? nearest + step : nearest - step;
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, neighbour);
    return std::strtof(buffer, nullptr) == value;
  };
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  int binary_exponent = 0;
  const bool power_of_two = std::fabs(std::frexp(value, &binary_exponent)) == 0.5f;
  if (high <= 22 && std::fabs(value) < 1e15f && !power_of_two) {
    for (int decimals = 0; decimals <= high; ++decimals) {
      const double scaled = std::nearbyint(static_cast<double>(value) * kPowers[decimals]);
      if (static_cast<float>(scaled / kPowers[decimals]) != value) continue;
      if (reads_back(decimals)) {
        out.append(buffer);
        return;
      }
      break;
    }
  }
  while (low < high) {
    const int middle = (low + high) / 2;
    if (reads_back(middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  reads_back(high);
  out.append(buffer);
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
  AppendShortestFixedBySearch(value, out);
#endif
}

}  // namespace md5stage
