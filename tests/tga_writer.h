// Test images written in the test: TGA (uncompressed or RLE, 24 or 32 bits, either origin) of
// a given RGBA picture, so the decoders and material look-ups are checked without binary files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace md5stage::testing {

struct TgaOptions {
  int bits = 24;            // 24 or 32
  bool rle = false;         // image type 10 instead of 2
  bool top_origin = false;  // descriptor bit 5: rows stored top first
};

// rgba: width * height * 4 bytes, top row first (as the decoder returns it).
inline std::string WriteTga(int width, int height, const std::vector<uint8_t>& rgba,
                            TgaOptions options = {}) {
  std::string out(18, '\0');
  out[2] = static_cast<char>(options.rle ? 10 : 2);
  out[12] = static_cast<char>(width & 255);
  out[13] = static_cast<char>(width >> 8);
  out[14] = static_cast<char>(height & 255);
  out[15] = static_cast<char>(height >> 8);
  out[16] = static_cast<char>(options.bits);
  out[17] = static_cast<char>((options.bits == 32 ? 8 : 0) | (options.top_origin ? 0x20 : 0));
  const int bytes = options.bits / 8;
  std::vector<std::string> pixels;
  for (int row = 0; row < height; ++row) {
    const int y = options.top_origin ? row : height - 1 - row;
    for (int x = 0; x < width; ++x) {
      const uint8_t* p = rgba.data() + (y * width + x) * 4;
      std::string pixel = {static_cast<char>(p[2]), static_cast<char>(p[1]),
                           static_cast<char>(p[0])};
      if (bytes == 4) pixel += static_cast<char>(p[3]);
      pixels.push_back(pixel);
    }
  }
  if (!options.rle) {
    for (const std::string& pixel : pixels) out += pixel;
    return out;
  }
  // Runs of equal pixels as run packets, the rest as raw packets (at most 128 each).
  for (size_t i = 0; i < pixels.size();) {
    size_t run = 1;
    while (i + run < pixels.size() && run < 128 && pixels[i + run] == pixels[i]) ++run;
    if (run > 1) {
      out += static_cast<char>(0x80 | (run - 1));
      out += pixels[i];
      i += run;
      continue;
    }
    size_t raw = 1;
    while (i + raw < pixels.size() && raw < 128 &&
           (i + raw + 1 >= pixels.size() || pixels[i + raw] != pixels[i + raw + 1])) {
      ++raw;
    }
    out += static_cast<char>(raw - 1);
    for (size_t k = 0; k < raw; ++k) out += pixels[i + k];
    i += raw;
  }
  return out;
}

// A width x height picture of one colour, with a different colour in the top-left pixel (to
// tell the origins apart).
inline std::vector<uint8_t> MarkedPicture(int width, int height, std::vector<uint8_t> fill,
                                          std::vector<uint8_t> corner) {
  std::vector<uint8_t> rgba;
  for (int i = 0; i < width * height; ++i) rgba.insert(rgba.end(), fill.begin(), fill.end());
  for (int c = 0; c < 4; ++c) rgba[static_cast<size_t>(c)] = corner[static_cast<size_t>(c)];
  return rgba;
}

}  // namespace md5stage::testing
