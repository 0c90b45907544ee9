#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "textures.h"
#include "walker_body.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

using Colour = Vec3;  // 0..255

const Colour kSkin(226, 174, 140);
const Colour kHair(72, 48, 32);
const Colour kShirt(46, 116, 166);
const Colour kShirtBand(236, 168, 52);
const Colour kTrim(232, 232, 222);
const Colour kBelt(58, 40, 28);
const Colour kBuckle(206, 176, 84);
const Colour kTrousers(66, 72, 92);
const Colour kSeam(48, 52, 68);
const Colour kShoe(112, 64, 38);
const Colour kSole(38, 34, 32);
const Colour kEyeWhite(244, 244, 240);
const Colour kIris(58, 86, 62);
const Colour kLips(172, 96, 84);

// Small deterministic grain so flat areas do not look plastic.
double Grain(int x, int y) {
  std::uint32_t h =
      static_cast<std::uint32_t>(x) * 73856093u ^ static_cast<std::uint32_t>(y) * 19349663u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return (static_cast<double>(h & 0xFFFF) / 65535.0 - 0.5) * 0.07;
}

bool InEllipse(double y, double z, double cy, double cz, double ry, double rz) {
  double dy = (y - cy) / ry, dz = (z - cz) / rz;
  return dy * dy + dz * dz <= 1.0;
}

// The colour of the body views at (y, z) of the bind pose.
Colour BodyColour(bool front, double y, double z) {
  const WalkerDimensions& d = Walker();
  double ay = std::abs(y);
  // Position along and across the arm, measured in the (|y|, z) plane of the A-pose.
  double c = std::cos(d.bind_arm_drop), s = std::sin(d.bind_arm_drop);
  double along = (ay - d.shoulder_half_width) * c - (z - d.shoulder_height) * s;
  double across = std::abs((ay - d.shoulder_half_width) * s + (z - d.shoulder_height) * c);
  bool arm = ay > 9.0 || (along > 2.5 && across < 3.4 && z < 56.0);
  if (arm && z > 30.0) {
    if (along < 8.0) return kShirt;
    if (along < 8.7) return kTrim;
    return kSkin;
  }
  if (z > 58.6 && ay < 3.4) return kSkin;  // neck
  if (z > 41.0) {
    // A round collar in front, a higher one behind.
    double collar = front ? 55.9 + 0.34 * ay * ay : 57.8 + 0.12 * ay * ay;
    if (ay < 3.2 && z > collar + 0.6) return kSkin;
    if (ay < 3.6 && z > collar) return kTrim;
    if (z > 48.6 && z < 50.6) return kShirtBand;
    if (z < 41.8) return kTrim;  // hem
    return kShirt;
  }
  if (z > 39.4) {
    if (front && ay < 0.9 && z > 39.6 && z < 40.8) return kBuckle;
    return kBelt;
  }
  if (z > 3.3) {
    double leg_centre = d.hip_half_width;
    if (!front && z > 33.0 && z < 37.5 && std::abs(ay - 3.2) < 1.9) {
      bool edge = std::abs(ay - 3.2) > 1.6 || z > 37.2 || z < 33.3;
      return edge ? kSeam : kTrousers * 0.94;  // back pockets
    }
    if (z < 4.1) return kSeam;                                                 // hem
    if (z < 36.0 && std::abs(ay - leg_centre) < 0.12) return kTrousers * 0.9;  // crease
    return kTrousers;
  }
  if (z < 0.7) return kSole;
  return kShoe;
}

// The colour of the head views at (y, z).
Colour HeadColour(bool front, double y, double z) {
  double ay = std::abs(y);
  if (!front) return z > 62.2 + 0.1 * ay ? kHair : kSkin;
  if (z > 68.3 - 0.12 * ay * ay || (ay > 2.9 && z > 64.6)) return kHair;
  if (z > 66.9 && z < 67.3 && std::abs(ay - 1.4) < 0.75) return kHair;  // brows
  if (InEllipse(ay, z, 1.35, 66.05, 0.55, 0.36)) {
    if (InEllipse(ay, z, 1.35, 66.0, 0.26, 0.28)) return kIris * 0.7;
    return kEyeWhite;
  }
  if (z > 63.25 && z < 63.6 && ay < 0.95 - (63.6 - z)) return kLips;
  if (InEllipse(ay, z, 2.2, 64.6, 0.8, 0.55)) return kSkin * 0.97 + Colour(230, 150, 150) * 0.03;
  return kSkin;
}

}  // namespace

Vec3 WalkerBaseColour(int px, int py, int size) {
  using L = WalkerUvLayout;
  double u = (px + 0.5) / size, v = (py + 0.5) / size;
  bool front = u < 0.5;
  double half_u = front ? u : u - 0.5;
  // The head views, with a texel of margin so filtering never reaches the body colours.
  double margin = 1.5 / size;
  if (half_u > L::kHeadU0 - margin && half_u < L::kHeadU0 + L::kHeadWidth + margin &&
      v > L::kHeadV0 - margin && v < L::kHeadV0 + L::kHeadHeight + margin) {
    double s = (half_u - L::kHeadU0) / L::kHeadWidth;
    if (!front) s = 1.0 - s;
    double y = L::kHeadYMin + s * (L::kHeadYMax - L::kHeadYMin);
    double z = L::kHeadZMax - (v - L::kHeadV0) / L::kHeadHeight * (L::kHeadZMax - L::kHeadZMin);
    return HeadColour(front, y, z);
  }
  double s = front ? u / 0.5 : (1.0 - u) / 0.5;
  double y = L::kYMin + s * (L::kYMax - L::kYMin);
  double z = L::kZMax - v * (L::kZMax - L::kZMin);
  return BodyColour(front, y, z);
}

Image PaintWalkerTexture() {
  const int size = kWalkerTextureSize;
  Image image(size, size, 3);
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px) {
      Colour colour = WalkerBaseColour(px, py, size);
      colour *= 1.0 + Grain(px, py);
      std::uint8_t* out = image.At(px, py);
      for (int k = 0; k < 3; ++k) {
        out[k] = static_cast<std::uint8_t>(std::clamp(std::lround(colour[k]), 0L, 255L));
      }
    }
  }
  return image;
}

namespace {

// What the maps know of a texel: its height (texels; raised bands and dents, fabric weave) and
// its specular level (0..255).
struct Surface {
  double height = 0.0;
  double specular = 0.0;
};

Surface SurfaceAt(int px, int py, int size) {
  const Colour c = WalkerBaseColour(px, py, size);
  // Fabric: a fine plain weave, two texels a thread.
  const double weave = ((px / 2 + py / 2) % 2 == 0 ? 0.35 : -0.35);
  if (c == kShirt) return {weave, 40};
  if (c == kShirtBand) return {0.8 + weave, 55};
  if (c == kTrim) return {1.0 + 0.5 * weave, 50};
  if (c == kTrousers || c == kTrousers * 0.94) return {weave * 0.8 + 0.2 * ((py % 6) < 3), 30};
  if (c == kTrousers * 0.9) return {-0.8, 25};  // crease
  if (c == kSeam) return {-1.2, 20};
  if (c == kBelt) return {1.6 + (px % 5 == 0 ? -0.6 : 0.0), 150};  // stitched leather
  if (c == kBuckle) return {2.6, 235};
  if (c == kShoe) return {0.6 + 0.25 * Grain(px, py) * 14.0, 140};
  if (c == kSole) return {-0.4 + ((px + py) % 3 == 0 ? -0.5 : 0.0), 25};
  if (c == kHair) return {0.5 * (((px * 3 + py) / 2) % 3 - 1), 70};  // strands
  if (c == kEyeWhite || c == kIris * 0.7) return {0.4, 245};
  if (c == kLips) return {0.3, 120};
  return {0.0, 75};  // skin: smooth, a soft sheen
}

}  // namespace

Image PaintWalkerNormalMap() {
  const int size = kWalkerTextureSize;
  std::vector<double> height(static_cast<size_t>(size) * size);
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px)
      height[size_t(py) * size + px] = SurfaceAt(px, py, size).height;
  }
  const auto h = [&](int x, int y) {
    return height[size_t(std::clamp(y, 0, size - 1)) * size + std::clamp(x, 0, size - 1)];
  };
  // The slope of the height (texels per texel) over 2 texels, tilted at this strength.
  const double strength = 0.45;
  Image image(size, size, 3);
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px) {
      const double du = (h(px + 1, py) - h(px - 1, py)) * 0.5;
      const double dv = (h(px, py + 1) - h(px, py - 1)) * 0.5;
      Vec3 n(-du * strength, -dv * strength, 1.0);
      n /= std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
      std::uint8_t* out = image.At(px, py);
      for (int k = 0; k < 3; ++k) {
        out[k] = static_cast<std::uint8_t>(
            std::clamp(std::lround((n[k] * 0.5 + 0.5) * 255.0), 0L, 255L));
      }
    }
  }
  return image;
}

Image PaintWalkerSpecularMap() {
  const int size = kWalkerTextureSize;
  Image image(size, size, 3);
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px) {
      const double level = SurfaceAt(px, py, size).specular * (1.0 + 2.0 * Grain(px + 7, py + 3));
      std::uint8_t* out = image.At(px, py);
      const auto grey = static_cast<std::uint8_t>(std::clamp(std::lround(level), 0L, 255L));
      out[0] = out[1] = out[2] = grey;
    }
  }
  return image;
}

}  // namespace md5stage::assetgen
