// The generator's 8-bit RGB/RGBA images and their PNG files (stb_image_write, deflate-compressed,
// the same bytes on every run).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace md5stage::assetgen {

struct Image {
  int width = 0;
  int height = 0;
  int channels = 3;                  // 3 = RGB, 4 = RGBA
  std::vector<std::uint8_t> pixels;  // row-major, top row first

  Image() = default;
  Image(int w, int h, int c) : width(w), height(h), channels(c), pixels(size_t(w) * h * c, 0) {}
  std::uint8_t* At(int x, int y) { return &pixels[(size_t(y) * width + x) * channels]; }
  const std::uint8_t* At(int x, int y) const { return &pixels[(size_t(y) * width + x) * channels]; }
};

// The bytes of a PNG file holding `image`; empty for an image without pixels or with a channel
// count other than 3 or 4.
std::string EncodePng(const Image& image);

}  // namespace md5stage::assetgen
