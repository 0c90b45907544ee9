// Shared by the libFuzzer harnesses: numbers that favour what breaks geometry code (NaN,
// infinities, huge, tiny, signed zero) and a check that turns a broken invariant into a crash.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

// A broken invariant is a finding like a sanitizer report: print it and abort.
#define FUZZ_CHECK(condition)                                                                  \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__); \
      std::abort();                                                                            \
    }                                                                                          \
  } while (false)

namespace md5stage::fuzz {

// Two vectors of plain structs hold the same bytes (for results that must match bit for bit).
template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Mostly ordinary values, often the special ones, sometimes any bit pattern at all.
inline double ConsumeEdgyDouble(FuzzedDataProvider& input) {
  static constexpr double kSpecial[] = {
      0.0,
      -0.0,
      1.0,
      -1.0,
      0.5,
      3.14159265358979323846,
      -3.14159265358979323846,
      6.28318530717958647692,
      1e-9,
      -1e-9,
      1e-300,
      std::numeric_limits<double>::denorm_min(),
      1e6,
      -1e6,
      1e9,
      1e15,
      -1e15,
      1e300,
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::lowest(),
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::quiet_NaN(),
  };
  constexpr int kSpecialCount = sizeof(kSpecial) / sizeof(kSpecial[0]);
  const unsigned choice = input.ConsumeIntegral<unsigned char>();
  if (choice < 64) return kSpecial[choice % kSpecialCount];
  if (choice < 192) return input.ConsumeFloatingPointInRange(-1000.0, 1000.0);
  if (choice < 224) return static_cast<double>(input.ConsumeIntegralInRange<int>(-300, 300));
  return input.ConsumeFloatingPoint<double>();
}

// True when every value lies within `bound` (which also rules out NaN).
inline bool AllWithin(std::initializer_list<double> values, double bound) {
  for (double v : values) {
    if (!(std::abs(v) <= bound)) return false;
  }
  return true;
}

}  // namespace md5stage::fuzz
