// The PNG files the generator writes: read back by an independent decoder (stb_image), pixel for
// pixel, and byte-identical from run to run.
#include "image.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "textures.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

namespace md5stage::assetgen {
namespace {

struct Decoded {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<std::uint8_t> pixels;
};

Decoded DecodePng(const std::string& png) {
  Decoded decoded;
  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()),
                            static_cast<int>(png.size()), &width, &height, &channels, 0);
  if (pixels == nullptr) return decoded;
  decoded.width = width;
  decoded.height = height;
  decoded.channels = channels;
  decoded.pixels.assign(pixels, pixels + static_cast<std::size_t>(width) * height * channels);
  stbi_image_free(pixels);
  return decoded;
}

// Smooth gradients (where stb's per-row filters win) or hashed noise (where unfiltered rows win).
Image MakeImage(int width, int height, int channels, bool noisy) {
  Image image(width, height, channels);
  std::uint32_t state = 12345;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        state = state * 1664525u + 1013904223u;
        image.At(x, y)[c] = noisy ? static_cast<std::uint8_t>(state >> 24)
                                  : static_cast<std::uint8_t>(x * 3 + y * 5 + c * 40);
      }
    }
  }
  return image;
}

TEST(EncodePng, DecodesToTheSamePixels) {
  struct Case {
    int width, height, channels;
    bool noisy;
  };
  const Case cases[] = {{1, 1, 3, false},    {1, 1, 4, true},    {5, 3, 3, false},
                        {5, 3, 4, true},     {7, 1, 3, true},    {1, 9, 4, false},
                        {256, 256, 3, true}, {300, 17, 4, false}};
  for (const Case& c : cases) {
    const Image image = MakeImage(c.width, c.height, c.channels, c.noisy);
    const std::string png = EncodePng(image);
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)), 0);
    const Decoded decoded = DecodePng(png);
    SCOPED_TRACE(testing::Message() << c.width << "x" << c.height << "x" << c.channels
                                    << (c.noisy ? " noisy" : " smooth"));
    EXPECT_EQ(decoded.width, c.width);
    EXPECT_EQ(decoded.height, c.height);
    EXPECT_EQ(decoded.channels, c.channels);
    EXPECT_EQ(decoded.pixels, image.pixels);
  }
}

TEST(EncodePng, CompressesTheTextures) {
  // Stored blocks (the former encoder) take the raw size plus per-row filter bytes and headers;
  // the painted textures must come out well below that.
  for (const Image& texture : {PaintWalkerTexture(), PaintLampTexture()}) {
    const std::string png = EncodePng(texture);
    EXPECT_LT(png.size(), texture.pixels.size() * 3 / 4) << texture.width << "x" << texture.height;
    EXPECT_EQ(DecodePng(png).pixels, texture.pixels);
  }
}

TEST(EncodePng, WritesTheSameBytesEveryTime) {
  const Image noisy = MakeImage(64, 32, 4, true);
  const Image smooth = MakeImage(64, 32, 3, false);
  EXPECT_EQ(EncodePng(noisy), EncodePng(noisy));
  EXPECT_EQ(EncodePng(smooth), EncodePng(smooth));
  // The encoder's settings are stb globals: encoding one image must not change the next.
  const std::string first = EncodePng(smooth);
  EncodePng(noisy);
  EXPECT_EQ(EncodePng(smooth), first);
}

TEST(EncodePng, RejectsImagesItCannotWrite) {
  Image empty;
  EXPECT_TRUE(EncodePng(empty).empty());
  Image zero_width(0, 4, 3);
  EXPECT_TRUE(EncodePng(zero_width).empty());
  Image two_channels(2, 2, 2);
  EXPECT_TRUE(EncodePng(two_channels).empty());
  Image short_pixels(4, 4, 3);
  short_pixels.pixels.resize(10);
  EXPECT_TRUE(EncodePng(short_pixels).empty());
}

}  // namespace
}  // namespace md5stage::assetgen
