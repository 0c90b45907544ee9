// atan2 for the path hot loops: glibc's costs ~140 instructions per call and a Dubins query
// needs several. Table + short series, within a few 1e-16 of std::atan2 (tested against it).
// Branch-free apart from the rare special values: the octant of random directions is random, and
// mispredicted branches cost more than the arithmetic.
#pragma once

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace md5stage {

namespace fast_atan2_detail {
// atan(k/16), k = 0..16.
inline constexpr double kTable[17] = {
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
// Steep: π/2 - atan(z); then x < 0: π minus that. One sign and offset from a table (octants of
// random directions are random: branches here mispredict).
inline constexpr double kOffset[4] = {0.0, 1.5707963267948966, 3.141592653589793,
                                      1.5707963267948966};
inline constexpr double kSign[4] = {1.0, -1.0, -1.0, 1.0};
}  // namespace fast_atan2_detail

inline double FastAtan2(double y, double x) {
  using namespace fast_atan2_detail;
  const double ax = std::abs(x);
  const double ay = std::abs(y);
  // Zeros, infinities and NaN are rare: leave their conventions to the library.
  if (!(ax < 1e300 && ay < 1e300) || (ax == 0.0 && ay == 0.0)) return std::atan2(y, x);
  const int steep = ay > ax;
  const double z = std::min(ax, ay) / std::max(ax, ay);  // in [0, 1]
  const int k = static_cast<int>(z * 16.0 + 0.5);
  const double c = k * (1.0 / 16.0);
  // atan(z) = atan(c) + atan(u) with |u| <= 1/32: the series to u^9 is exact to ~1e-18.
  const double u = (z - c) / (1.0 + z * c);
  const double u2 = u * u;
  const double series =
      u + u * u2 * (-1.0 / 3.0 + u2 * (1.0 / 5.0 + u2 * (-1.0 / 7.0 + u2 * (1.0 / 9.0))));
  const int octant = steep + 2 * (x < 0.0);
  const double angle = kOffset[octant] + kSign[octant] * (kTable[k] + series);
  return std::signbit(y) ? -angle : angle;
}

// Two FastAtan2 at once, bit for bit the same results (the same operations, lane by lane, and no
// fused multiply-add on either side): the Dubins words come in mirrored pairs whose angles are
// independent, and the divisions of two share one instruction.
inline void FastAtan2Pair(double y0, double x0, double y1, double x1, double* angle0,
                          double* angle1) {
#if defined(__SSE2__)
  using namespace fast_atan2_detail;
  const __m128d y = _mm_set_pd(y1, y0);
  const __m128d x = _mm_set_pd(x1, x0);
  const __m128d sign_bit = _mm_set1_pd(-0.0);
  const __m128d ax = _mm_andnot_pd(sign_bit, x);
  const __m128d ay = _mm_andnot_pd(sign_bit, y);
  const __m128d huge = _mm_set1_pd(1e300);
  const __m128d zero = _mm_setzero_pd();
  const int ordinary =
      _mm_movemask_pd(_mm_and_pd(_mm_and_pd(_mm_cmplt_pd(ax, huge), _mm_cmplt_pd(ay, huge)),
                                 _mm_or_pd(_mm_cmpneq_pd(ax, zero), _mm_cmpneq_pd(ay, zero))));
  if (ordinary != 3) {
    *angle0 = FastAtan2(y0, x0);
    *angle1 = FastAtan2(y1, x1);
    return;
  }
  const int steep = _mm_movemask_pd(_mm_cmpgt_pd(ay, ax));
  const int left = _mm_movemask_pd(_mm_cmplt_pd(x, zero));
  const __m128d z = _mm_div_pd(_mm_min_pd(ax, ay), _mm_max_pd(ax, ay));
  const __m128i k =
      _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(16.0)), _mm_set1_pd(0.5)));
  const __m128d c = _mm_mul_pd(_mm_cvtepi32_pd(k), _mm_set1_pd(1.0 / 16.0));
  const __m128d u = _mm_div_pd(_mm_sub_pd(z, c), _mm_add_pd(_mm_set1_pd(1.0), _mm_mul_pd(z, c)));
  const __m128d u2 = _mm_mul_pd(u, u);
  __m128d poly = _mm_add_pd(_mm_set1_pd(-1.0 / 7.0), _mm_mul_pd(u2, _mm_set1_pd(1.0 / 9.0)));
  poly = _mm_add_pd(_mm_set1_pd(1.0 / 5.0), _mm_mul_pd(u2, poly));
  poly = _mm_add_pd(_mm_set1_pd(-1.0 / 3.0), _mm_mul_pd(u2, poly));
  const __m128d series = _mm_add_pd(u, _mm_mul_pd(_mm_mul_pd(u, u2), poly));
  const int k0 = _mm_cvtsi128_si32(k);
  const int k1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(k, 1));
  const int octant0 = (steep & 1) + 2 * (left & 1);
  const int octant1 = (steep >> 1) + 2 * (left >> 1);
  const __m128d angle =
      _mm_add_pd(_mm_set_pd(kOffset[octant1], kOffset[octant0]),
                 _mm_mul_pd(_mm_set_pd(kSign[octant1], kSign[octant0]),
                            _mm_add_pd(_mm_set_pd(kTable[k1], kTable[k0]), series)));
  // signbit(y) ? -angle : angle
  const __m128d signed_angle = _mm_xor_pd(angle, _mm_and_pd(y, sign_bit));
  *angle0 = _mm_cvtsd_f64(signed_angle);
  *angle1 = _mm_cvtsd_f64(_mm_unpackhi_pd(signed_angle, signed_angle));
#else
  *angle0 = FastAtan2(y0, x0);
  *angle1 = FastAtan2(y1, x1);
#endif
}

}  // namespace md5stage
