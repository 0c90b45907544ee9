// A decoded image as the material code passes it around: RGBA8, top row first. Decoders
// (image_decode.h), image programs (image_program.h) and the PNG encoder (png_encode.h) share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace md5stage::material {

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // top row first, 4 bytes a pixel
  bool Valid() const {        // sides > 0 and rgba of width * height * 4 bytes
    return width > 0 && height > 0 &&
           rgba.size() == static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  }
};

// Turns a tangent-space normal map between Doom 3's convention (green leans towards increasing
// v, down the image) and glTF's (towards decreasing v): green becomes 255 - green, exactly the
// negated y under the decode 2 c / 255 - 1. Its own inverse; red, blue and alpha are kept.
inline void InvertGreen(RgbaImage* image) {
  for (std::size_t i = 1; i < image->rgba.size(); i += 4) {
    image->rgba[i] = static_cast<uint8_t>(255 - image->rgba[i]);
  }
}

}  // namespace md5stage::material
