// Decodes texture files (TGA, PNG, JPG, BMP) from bytes with stb_image, DDS with dds_decode.h,
// with size limits and errors as values: a bad or truncated texture is reported, never fatal.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/material/rgba_image.h"

namespace md5stage::material {

constexpr int kMaxImageSide = 8192;

// Every check DecodeImage makes before it allocates pixels (sides within kMaxImageSide, the
// header readable, the data long enough for the sides): what the viewer asks of a dropped image
// before it takes the place of one a model already shows.
Status CheckImage(const std::string& file_name, std::string_view bytes);

Result<RgbaImage> DecodeImage(const std::string& file_name, std::string_view bytes);

// "image/png" or "image/jpeg" by the file's signature (what glTF can embed as it is), else "".
const char* EmbeddableMimeType(std::string_view bytes);

}  // namespace md5stage::material
