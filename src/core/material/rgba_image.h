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

}  // namespace md5stage::material
