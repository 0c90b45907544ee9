// sin and cos of one angle for the path hot loops (glibc's sincos is ~120 branchy instructions):
// Cody-Waite reduction by π/2 and Taylor polynomials, within 2 ulp of the library (tested).
#pragma once

#include <cmath>
#include <cstdint>

namespace md5stage {

struct SinCos {
  double s, c;
};

inline SinCos FastSinCos(double x) {
  // Beyond ~1e6 rad the three-part π/2 below no longer reduces exactly; NaN and infinities also
  // fail the test. Headings are almost always within a few turns.
  if (!(std::abs(x) < 1e6)) return {std::sin(x), std::cos(x)};
  // Nearest multiple of π/2 by the 1.5·2^52 rounding trick (floor/nearbyint are library calls
  // without SSE4.1).
  constexpr double kRound = 6755399441055744.0;
  const double k = (x * 0.63661977236758134 + kRound) - kRound;
  // π/2 in three pieces of 33, 33 and 53 bits: k·piece is exact for |k| < 2^20.
  const double r =
      ((x - k * 1.5707963267341256) - k * 6.077100506303966e-11) - k * 2.0222662487959506e-21;
  const double z = r * r;
  // Taylor series: the first omitted terms are below 1e-19 on |r| <= π/4.
  // Taylor series (the first omitted terms are below 1e-19 on |r| <= π/4), evaluated by
  // Estrin's scheme: a short dependency chain matters more than a few multiplies here.
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double sin_poly =
      ((-1.0 / 6.0 + z * (1.0 / 120.0)) + z2 * (-1.0 / 5040.0 + z * (1.0 / 362880.0))) +
      z4 * ((-1.0 / 39916800.0 + z * (1.0 / 6227020800.0)) +
            z2 * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0)));
  const double sin_r = r + (r * z) * sin_poly;
  const double cos_poly =
      ((1.0 / 24.0 + z * (-1.0 / 720.0)) + z2 * (1.0 / 40320.0 + z * (-1.0 / 3628800.0))) +
      z4 * ((1.0 / 479001600.0 + z * (-1.0 / 87178291200.0)) +
            z2 * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0)));
  const double tail = z2 * cos_poly;
  const double half_z = 0.5 * z;
  const double one_minus = 1.0 - half_z;
  // 1 - z/2 rounds; add back what the rounding lost before the tail.
  const double cos_r = one_minus + (((1.0 - one_minus) - half_z) + tail);
  // Quadrant by table, not branches: random headings would mispredict them.
  const int quadrant = static_cast<int>(static_cast<std::int64_t>(k) & 3);
  static constexpr double kSinSign[4] = {1.0, 1.0, -1.0, -1.0};
  static constexpr double kCosSign[4] = {1.0, -1.0, -1.0, 1.0};
  const double values[2] = {sin_r, cos_r};
  const int odd = quadrant & 1;
  return {kSinSign[quadrant] * values[odd], kCosSign[quadrant] * values[odd ^ 1]};
}

}  // namespace md5stage
