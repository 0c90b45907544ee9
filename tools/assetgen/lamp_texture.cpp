#include <algorithm>
#include <cmath>
#include <cstdint>

#include "math_util.h"
#include "textures.h"

namespace md5stage::assetgen {

Image PaintLampTexture() {
  const int size = 64;
  Image image(size, size, 3);
  const Vec3 metal(58, 72, 54);
  const Vec3 brass(176, 138, 62);
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px) {
      double u = (px + 0.5) / size, v = (py + 0.5) / size;
      Vec3 colour;
      if (v < 0.26 || v > 0.73) {
        // Cap and base: painted metal with a brass rim at the widest rings.
        colour = (std::abs(v - 0.215) < 0.02 || std::abs(v - 0.86) < 0.03) ? brass : metal;
        colour *= 0.9 + 0.1 * std::cos(u * kTwoPi * 4.0);
      } else {
        // Glass lit from inside: brightest at the flame's height, four frame bars.
        double glow = std::exp(-std::pow((v - 0.5) / 0.16, 2.0));
        colour = Lerp(Vec3(236, 150, 60), Vec3(255, 236, 170), glow);
        double bar = std::abs(std::fmod(u * 4.0 + 0.5, 1.0) - 0.5);
        if (bar < 0.06) colour = metal;
      }
      std::uint8_t* out = image.At(px, py);
      for (int k = 0; k < 3; ++k) {
        out[k] = static_cast<std::uint8_t>(std::clamp(std::lround(colour[k]), 0L, 255L));
      }
    }
  }
  return image;
}

}  // namespace md5stage::assetgen
