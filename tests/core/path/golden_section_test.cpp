// MinimizeOn: minima inside the interval, at its ends, flat and kinked functions.
#include "core/path/golden_section.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace md5stage {
namespace {

struct MinimizeCase {
  const char* name;
  double a, b;
  std::function<double(double)> f;
  double expected;
  double tolerance;
};

TEST(GoldenSection, FindsTheMinimum) {
  const MinimizeCase cases[] = {
      {"parabola", 0.0, 1.0, [](double x) { return (x - 0.3) * (x - 0.3); }, 0.3, 1e-7},
      {"kink", -1.0, 2.0, [](double x) { return std::abs(x - 1.25); }, 1.25, 1e-14},
      {"minimum at the left end", 0.0, 1.0, [](double x) { return x; }, 0.0, 1e-14},
      {"minimum at the right end", 0.0, 1.0, [](double x) { return -x; }, 1.0, 1e-14},
      {"cosine", 0.0, 6.0, [](double x) { return std::cos(x); }, 3.141592653589793, 1e-7},
      {"wide interval", -1e6, 1e6, [](double x) { return std::abs(x - 12345.0); }, 12345.0, 1e-6},
  };
  for (const MinimizeCase& c : cases) {
    EXPECT_NEAR(MinimizeOn(c.a, c.b, c.f), c.expected, c.tolerance) << c.name;
  }
}

TEST(GoldenSection, StopsAtTheToleranceAndAfterAHundredSteps) {
  int calls = 0;
  const auto counted = [&](double x) {
    ++calls;
    return (x - 0.5) * (x - 0.5);
  };
  MinimizeOn(0.0, 1.0, counted, 1e-3);
  // 0.618^k <= 1e-3 after 15 steps: two first calls and one per step.
  EXPECT_EQ(calls, 2 + 15);
  calls = 0;
  MinimizeOn(0.0, 1e300, counted, 0.0);
  EXPECT_EQ(calls, 2 + 100);
}

}  // namespace
}  // namespace md5stage
