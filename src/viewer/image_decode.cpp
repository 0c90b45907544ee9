#include "viewer/image_decode.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#define STBI_ONLY_TGA
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_MAX_DIMENSIONS 8192
#include <stb/stb_image.h>

#include <cstring>

namespace md5stage::viewer {

Result<DecodedImage> DecodeImage(const std::string& file_name, std::string_view bytes) {
  if (bytes.empty()) return MakeError(file_name, 0, 0, "empty image file");
  if (bytes.size() > 512u * 1024u * 1024u)
    return MakeError(file_name, 0, 0, "image file too large");
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
    return MakeError(file_name, 0, 0,
                     std::string("not a readable image: ") + stbi_failure_reason());
  }
  if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide) {
    return MakeError(file_name, 0, 0,
                     "image of " + std::to_string(width) + " x " + std::to_string(height) +
                         " is larger than " + std::to_string(kMaxImageSide) + " pixels a side");
  }
  stbi_uc* pixels = stbi_load_from_memory(data, length, &width, &height, &channels, 4);
  if (pixels == nullptr) {
    return MakeError(file_name, 0, 0, std::string("could not decode: ") + stbi_failure_reason());
  }
  DecodedImage image;
  image.width = width;
  image.height = height;
  image.rgba.assign(pixels, pixels + static_cast<size_t>(width) * height * 4);
  stbi_image_free(pixels);
  return image;
}

}  // namespace md5stage::viewer
