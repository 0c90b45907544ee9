#include "image.h"

#include "core/common/zlib_deflate.h"

namespace {

// The PNG's deflate stream by zlib at its best level (Debian's zlib1g: the same bytes on every
// run): stb_image_write's own deflate, even at its longest search, left the walker's three maps
// 46 KB (29%) larger than zlib does with the same unfiltered rows (issue 46: bytes before a
// figure's first picture). The buffer is freed by stb with STBIW_FREE (free): malloc'd here.
unsigned char* ZlibBestCompress(unsigned char* data, int data_length, int* out_length,
                                int /*stb_quality*/) {
  return md5stage::ZlibDeflateMalloc(data, data_length, Z_BEST_COMPRESSION, 9, out_length);
}

}  // namespace

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#define STBIW_ZLIB_COMPRESS ZlibBestCompress
#include <stb/stb_image_write.h>

namespace md5stage::assetgen {
namespace {

void AppendToString(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<std::size_t>(size));
}

std::string EncodeWithFilter(const Image& image, int filter) {
  // A global of stb's (static in this file): set on every call so nothing else can change it.
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
