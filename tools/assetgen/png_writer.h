// A minimal PNG encoder (8-bit RGB or RGBA, no filtering, zlib stream of stored deflate blocks),
// written for the generator so that textures need no third-party code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace md5stage::assetgen {

// CRC-32 (ISO 3309 / PNG), continuing from `crc` (pass 0 to start).
std::uint32_t Crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc = 0);
// Adler-32 (RFC 1950), continuing from `adler` (pass 1 to start).
std::uint32_t Adler32(const std::uint8_t* data, std::size_t size, std::uint32_t adler = 1);

// A zlib stream (RFC 1950) holding `data` in stored (uncompressed) deflate blocks (RFC 1951).
std::vector<std::uint8_t> ZlibStore(const std::vector<std::uint8_t>& data);

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

// The bytes of a PNG file holding `image`.
std::string EncodePng(const Image& image);

}  // namespace md5stage::assetgen
