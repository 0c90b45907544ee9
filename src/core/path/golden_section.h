// Golden-section search: the minimum of a function that is unimodal on an interval, without
// derivatives (nearest points on curves, fillet fitting).
#pragma once

namespace md5stage {

// The x in [a, b] where f is smallest, to within `tolerance` of the interval (at most 100 steps;
// each keeps 0.618 of it). f is called once per step.
template <typename F>
double MinimizeOn(double a, double b, F f, double tolerance = 1e-15) {
  constexpr double kInvPhi = 0.6180339887498949;
  double x1 = b - kInvPhi * (b - a);
  double x2 = a + kInvPhi * (b - a);
  double f1 = f(x1);
  double f2 = f(x2);
  for (int i = 0; i < 100 && b - a > tolerance; ++i) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - kInvPhi * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + kInvPhi * (b - a);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? x1 : x2;
}

}  // namespace md5stage
