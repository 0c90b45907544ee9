#include "image.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace md5stage::assetgen {
namespace {

// stb's deflate keeps up to 2 x level candidate matches per hash bucket (default 8). The textures
// are small, so the long search costs milliseconds; past 256 the walker's texture did not shrink.
constexpr int kCompressionLevel = 256;

void AppendToString(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<std::size_t>(size));
}

std::string EncodeWithFilter(const Image& image, int filter) {
  // Globals of stb's (static in this file): set on every call so nothing else can change them.
  stbi_write_png_compression_level = kCompressionLevel;
  stbi_write_force_png_filter = filter;
  std::string out;
  if (!stbi_write_png_to_func(AppendToString, &out, image.width, image.height, image.channels,
                              image.pixels.data(), image.width * image.channels)) {
    out.clear();
  }
  return out;
}

}  // namespace

std::string EncodePng(const Image& image) {
  if (image.width <= 0 || image.height <= 0 || (image.channels != 3 && image.channels != 4) ||
      image.pixels.size() != static_cast<std::size_t>(image.width) * image.height * image.channels)
    return {};
  // stb's per-row choice (smallest sum of residuals) suits smooth pictures like the preview
  // sheets, but the painted textures are noisy: unfiltered rows made the walker's 25% smaller
  // (87 KB against 115 KB). Both are tried and the smaller kept; either way the same bytes on
  // every run.
  std::string adaptive = EncodeWithFilter(image, -1);
  std::string unfiltered = EncodeWithFilter(image, 0);
  if (adaptive.empty() || unfiltered.empty()) return {};
  return unfiltered.size() <= adaptive.size() ? unfiltered : adaptive;
}

}  // namespace md5stage::assetgen
