// atan2 for the path hot loops: glibc's costs ~140 instructions per call and a Dubins query
// needs several. Table + short series, within a few 1e-16 of std::atan2 (tested against it).
// Branch-free apart from the rare special values: the octant of random directions is random, and
// mispredicted branches cost more than the arithmetic.
#pragma once

#include <algorithm>
#include <cmath>

namespace md5stage {

inline double FastAtan2(double y, double x) {
  const double ax = std::abs(x);
  const double ay = std::abs(y);
  // Zeros, infinities and NaN are rare: leave their conventions to the library.
  if (!(ax < 1e300 && ay < 1e300) || (ax == 0.0 && ay == 0.0)) return std::atan2(y, x);
  // atan(k/16), k = 0..16.
  static constexpr double kTable[17] = {
      0.0,
      0.06241880999595735,
      0.12435499454676144,
      0.18534794999569476,
      0.24497866312686414,
      0.3028848683749714,
      0.35877067027057225,
      0.4124104415973873,
      0.4636476090008061,
      0.5123894603107377,
      0.5585993153435624,
      0.6022873461349642,
      0.6435011087932844,
      0.6823165548747481,
      0.7188299996216245,
      0.7531512809621944,
      0.7853981633974483,
  };
  const int steep = ay > ax;
  const double z = std::min(ax, ay) / std::max(ax, ay);  // in [0, 1]
  const int k = static_cast<int>(z * 16.0 + 0.5);
  const double c = k * (1.0 / 16.0);
  // atan(z) = atan(c) + atan(u) with |u| <= 1/32: the series to u^9 is exact to ~1e-18.
  const double u = (z - c) / (1.0 + z * c);
  const double u2 = u * u;
  const double series =
      u + u * u2 * (-1.0 / 3.0 + u2 * (1.0 / 5.0 + u2 * (-1.0 / 7.0 + u2 * (1.0 / 9.0))));
  // Steep: π/2 - atan(z); then x < 0: π minus that. One sign and offset from a table (octants of
  // random directions are random: branches here mispredict).
  static constexpr double kOffset[4] = {0.0, 1.5707963267948966, 3.141592653589793,
                                        1.5707963267948966};
  static constexpr double kSign[4] = {1.0, -1.0, -1.0, 1.0};
  const int octant = steep + 2 * (x < 0.0);
  const double angle = kOffset[octant] + kSign[octant] * (kTable[k] + series);
  return std::signbit(y) ? -angle : angle;
}

}  // namespace md5stage
