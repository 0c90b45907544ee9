#include "core/material/dds_decode.h"

#include <cstdint>
#include <cstring>

namespace md5stage::material {
namespace {

constexpr size_t kHeaderBytes = 128;  // "DDS " and the 124-byte DDS_HEADER
constexpr uint32_t kFourCcFlag = 0x4;
constexpr uint32_t kRgbFlag = 0x40;
constexpr uint32_t kAlphaPixelsFlag = 0x1;

uint32_t U32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(bytes[at + i]);
  return value;
}

uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

void Expand565(uint16_t c, uint8_t out[4]) {
  const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  out[0] = static_cast<uint8_t>((r << 3) | (r >> 2));
  out[1] = static_cast<uint8_t>((g << 2) | (g >> 4));
  out[2] = static_cast<uint8_t>((b << 3) | (b >> 2));
  out[3] = 255;
}

// The 4 x 4 colours of a BC1 colour block, row by row. DXT3/DXT5 colour blocks always use four
// colours; DXT1's use three and transparent black when c0 <= c1.
void DecodeColourBlock(const uint8_t* block, bool allow_three_colour, uint8_t out[16][4]) {
  const uint16_t c0 = U16(block), c1 = U16(block + 2);
  uint8_t palette[4][4];
  Expand565(c0, palette[0]);
  Expand565(c1, palette[1]);
  for (int k = 0; k < 3; ++k) {
    const int a = palette[0][k], b = palette[1][k];
    if (c0 > c1 || !allow_three_colour) {
      palette[2][k] = static_cast<uint8_t>((2 * a + b) / 3);
      palette[3][k] = static_cast<uint8_t>((a + 2 * b) / 3);
    } else {
      palette[2][k] = static_cast<uint8_t>((a + b) / 2);
      palette[3][k] = 0;
    }
  }
  palette[2][3] = 255;
  palette[3][3] = (c0 > c1 || !allow_three_colour) ? 255 : 0;
  const uint32_t indices = U16(block + 4) | (static_cast<uint32_t>(U16(block + 6)) << 16);
  for (int i = 0; i < 16; ++i) std::memcpy(out[i], palette[(indices >> (2 * i)) & 3], 4);
}

// DXT5's alpha block: two end points and 3-bit indices (8 values, or 6 plus 0 and 255).
void DecodeAlphaBlock(const uint8_t* block, uint8_t out[16][4]) {
  const int a0 = block[0], a1 = block[1];
  int palette[8] = {a0, a1};
  if (a0 > a1) {
    for (int i = 1; i < 7; ++i) palette[i + 1] = ((7 - i) * a0 + i * a1) / 7;
  } else {
    for (int i = 1; i < 5; ++i) palette[i + 1] = ((5 - i) * a0 + i * a1) / 5;
    palette[6] = 0;
    palette[7] = 255;
  }
  uint64_t bits = 0;
  for (int i = 5; i >= 0; --i) bits = (bits << 8) | block[2 + i];
  for (int i = 0; i < 16; ++i) out[i][3] = static_cast<uint8_t>(palette[(bits >> (3 * i)) & 7]);
}

// DXT3's explicit alpha: 4 bits a pixel.
void DecodeExplicitAlpha(const uint8_t* block, uint8_t out[16][4]) {
  for (int i = 0; i < 16; ++i) {
    const int nibble = (block[i / 2] >> (4 * (i % 2))) & 15;
    out[i][3] = static_cast<uint8_t>(nibble * 17);
  }
}

int LowestBit(uint32_t mask) {
  int shift = 0;
  while (shift < 32 && !(mask & (1u << shift))) ++shift;
  return shift;
}

uint8_t Channel(uint32_t pixel, uint32_t mask) {
  if (mask == 0) return 255;
  const int shift = LowestBit(mask);
  const uint32_t max = mask >> shift;
  return static_cast<uint8_t>(((pixel & mask) >> shift) * 255u / max);
}

std::string FourCcText(uint32_t four_cc) {
  std::string text;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((four_cc >> (8 * i)) & 0xff);
    text += (c >= 32 && c < 127) ? c : '?';
  }
  return text;
}

}  // namespace

bool IsDds(std::string_view bytes) { return bytes.size() >= 4 && bytes.substr(0, 4) == "DDS "; }

namespace {

// What DecodeDds needs of a header CheckDds accepted.
struct DdsLayout {
  uint32_t width = 0, height = 0;
  bool compressed = false;
  std::string format;      // DXT1, DXT3, DXT5 when compressed
  size_t pixel_bytes = 0;  // 3 or 4 when not
  uint32_t masks[4] = {0, 0, 0, 0};
};

// Every limit before a byte is allocated: the magic, the header's sizes, the sides, the format,
// and that the data holds what the sides need.
Status ReadDdsLayout(const std::string& file_name, std::string_view bytes, DdsLayout* layout) {
  if (!IsDds(bytes)) return MakeError(file_name, 0, 0, "not a DDS file (no \"DDS \" magic)");
  if (bytes.size() < kHeaderBytes) {
    return MakeError(file_name, 0, 0,
                     "truncated: a DDS header is 128 bytes, found " + std::to_string(bytes.size()));
  }
  if (U32(bytes, 4) != 124 || U32(bytes, 76) != 32) {
    return MakeError(file_name, 0, 0, "not a DDS header (sizes are not 124 and 32)");
  }
  const uint32_t height = U32(bytes, 12), width = U32(bytes, 16);
  if (width == 0 || height == 0 || width > kMaxImageSide || height > kMaxImageSide) {
    return MakeError(file_name, 0, 0,
                     "image of " + std::to_string(width) + " x " + std::to_string(height) +
                         " is larger than " + std::to_string(kMaxImageSide) +
                         " pixels a side (or empty)");
  }
  layout->width = width;
  layout->height = height;
  const uint32_t flags = U32(bytes, 80), four_cc = U32(bytes, 84);
  const size_t data_size = bytes.size() - kHeaderBytes;
  if (!(flags & kFourCcFlag)) {
    const uint32_t bits = U32(bytes, 88);
    if (!(flags & kRgbFlag) || (bits != 24 && bits != 32)) {
      return MakeError(file_name, 0, 0,
                       "DDS pixel format not supported (flags " + std::to_string(flags) + ", " +
                           std::to_string(bits) + " bits; DXT1, DXT3, DXT5 and 24/32-bit RGB are)");
    }
    layout->pixel_bytes = bits / 8;
    const size_t need = static_cast<size_t>(width) * height * layout->pixel_bytes;
    if (data_size < need) {
      return MakeError(file_name, 0, 0,
                       "truncated: " + std::to_string(need) + " bytes of pixels expected, found " +
                           std::to_string(data_size));
    }
    const uint32_t masks[4] = {U32(bytes, 92), U32(bytes, 96), U32(bytes, 100),
                               (flags & kAlphaPixelsFlag) ? U32(bytes, 104) : 0u};
    std::memcpy(layout->masks, masks, sizeof masks);
    return {};
  }
  layout->compressed = true;
  layout->format = FourCcText(four_cc);
  size_t block_bytes = 0;
  if (layout->format == "DXT1") {
    block_bytes = 8;
  } else if (layout->format == "DXT3" || layout->format == "DXT5") {
    block_bytes = 16;
  } else {
    return MakeError(file_name, 0, 0,
                     "DDS format '" + layout->format + "' is not supported (DXT1, DXT3, DXT5 are)");
  }
  const size_t need = static_cast<size_t>((width + 3) / 4) * ((height + 3) / 4) * block_bytes;
  if (data_size < need) {
    return MakeError(file_name, 0, 0,
                     "truncated: " + std::to_string(need) + " bytes of blocks expected, found " +
                         std::to_string(data_size));
  }
  return {};
}

}  // namespace

Status CheckDds(const std::string& file_name, std::string_view bytes) {
  DdsLayout layout;
  return ReadDdsLayout(file_name, bytes, &layout);
}

Result<RgbaImage> DecodeDds(const std::string& file_name, std::string_view bytes) {
  DdsLayout layout;
  const Status checked = ReadDdsLayout(file_name, bytes, &layout);
  if (!checked.ok()) return checked.error();
  const uint32_t width = layout.width, height = layout.height;
  const std::string_view data = bytes.substr(kHeaderBytes);
  RgbaImage image;
  image.width = static_cast<int>(width);
  image.height = static_cast<int>(height);
  if (!layout.compressed) {
    const size_t pixel_bytes = layout.pixel_bytes;
    image.rgba.resize(static_cast<size_t>(width) * height * 4);
    for (size_t i = 0; i < static_cast<size_t>(width) * height; ++i) {
      uint32_t pixel = 0;
      for (size_t b = 0; b < pixel_bytes; ++b) {
        pixel |= static_cast<uint32_t>(static_cast<uint8_t>(data[i * pixel_bytes + b])) << (8 * b);
      }
      for (int c = 0; c < 4; ++c) image.rgba[i * 4 + c] = Channel(pixel, layout.masks[c]);
    }
    return image;
  }
  const std::string& format = layout.format;
  const size_t blocks_x = (width + 3) / 4, blocks_y = (height + 3) / 4;
  const size_t block_bytes = format == "DXT1" ? 8 : 16;
  image.rgba.resize(static_cast<size_t>(width) * height * 4);
  const auto* blocks = reinterpret_cast<const uint8_t*>(data.data());
  for (size_t by = 0; by < blocks_y; ++by) {
    for (size_t bx = 0; bx < blocks_x; ++bx) {
      const uint8_t* block = blocks + (by * blocks_x + bx) * block_bytes;
      uint8_t texels[16][4];
      if (format == "DXT1") {
        DecodeColourBlock(block, true, texels);
      } else {
        DecodeColourBlock(block + 8, false, texels);
        if (format == "DXT3") {
          DecodeExplicitAlpha(block, texels);
        } else {
          DecodeAlphaBlock(block, texels);
        }
      }
      for (size_t i = 0; i < 16; ++i) {
        const size_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
        if (x >= width || y >= height) continue;
        std::memcpy(&image.rgba[(y * width + x) * 4], texels[i], 4);
      }
    }
  }
  return image;
}

}  // namespace md5stage::material
