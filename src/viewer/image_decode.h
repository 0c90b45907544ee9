// Decodes texture files (TGA, PNG, JPG, BMP) from bytes with stb_image, DDS with dds_decode.h,
// with size limits and errors as values: a bad or truncated texture is reported, never fatal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace md5stage::viewer {

struct DecodedImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // top row first
};

constexpr int kMaxImageSide = 8192;

Result<DecodedImage> DecodeImage(const std::string& file_name, std::string_view bytes);

}  // namespace md5stage::viewer
