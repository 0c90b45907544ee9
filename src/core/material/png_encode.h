// Encodes an RGBA8 image as a PNG file (stb_image_write's filters, zlib's deflate), for glTF,
// which takes PNG or JPEG only: maps made from TGA, DDS or an image program are written this way.
#pragma once

#include <string>

#include "core/common/result.h"
#include "core/material/rgba_image.h"

namespace md5stage::material {

// 8-bit RGBA, or RGB when every alpha is 255 (a quarter smaller); the same image gives the same
// bytes. An invalid image (no pixels, sides over kMaxImageSide) is an error naming `name`.
Result<std::string> EncodePng(const std::string& name, const RgbaImage& image);

}  // namespace md5stage::material
