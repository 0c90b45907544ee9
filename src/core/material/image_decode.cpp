#include "core/material/image_decode.h"

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

#include "core/material/dds_decode.h"

namespace md5stage::material {
namespace {

// stb_image reads a TGA's pixels past the end of a short file as zeros, so a truncated TGA would
// show as a half-black texture without a word: the pixel data (raw, or RLE packets walked) must
// cover width x height. Returns "" when it does, else what is missing.
std::string TgaTruncation(std::string_view bytes, int width, int height) {
  if (bytes.size() < 18) return "a TGA header is 18 bytes, found " + std::to_string(bytes.size());
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  const int type = byte(2);
  const bool rle = type == 9 || type == 10 || type == 11;
  const size_t map_entries = byte(5) | (byte(6) << 8);
  const size_t map_bytes = byte(1) != 0 ? map_entries * ((byte(7) + 7) / 8) : 0;
  const size_t pixel_bytes = (byte(16) + 7) / 8;
  size_t at = 18 + byte(0) + map_bytes;
  const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (pixel_bytes == 0) return "";
  if (!rle) {
    const size_t need = at + pixels * pixel_bytes;
    if (bytes.size() >= need) return "";
    return "truncated: " + std::to_string(need) + " bytes expected, found " +
           std::to_string(bytes.size());
  }
  size_t done = 0;
  while (done < pixels) {
    if (at >= bytes.size()) {
      return "truncated: RLE data ends after " + std::to_string(done) + " of " +
             std::to_string(pixels) + " pixels";
    }
    const uint8_t packet = byte(at++);
    const size_t count = (packet & 0x7f) + 1u;
    at += (packet & 0x80) ? pixel_bytes : count * pixel_bytes;
    if (at > bytes.size()) {
      return "truncated: RLE data ends after " + std::to_string(done) + " of " +
             std::to_string(pixels) + " pixels";
    }
    done += count;
  }
  return "";
}

// stb_image 2.27 (Debian's) builds a JPEG Huffman table from a DHT segment's 16 counts without
// checking that they sum to at most 256 codes, and writes past its 257-entry arrays when they do
// (fuzz_image finding 1). This walks the segments as its decoder does (junk between segments
// skipped, entropy-coded data skipped to the next marker) and returns what is wrong with the
// first bad table, or "".
std::string JpegHuffmanProblem(std::string_view bytes) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  size_t at = 0;
  while (at < bytes.size()) {
    while (at < bytes.size() && byte(at) != 0xFF) ++at;  // stb skips what is not a marker
    while (at < bytes.size() && byte(at) == 0xFF) ++at;
    if (at >= bytes.size()) break;
    const uint8_t marker = byte(at++);
    if (marker == 0xD9) break;  // end of image
    if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
    const size_t length = (static_cast<size_t>(byte(at)) << 8) | byte(at + 1);
    if (marker == 0xC4) {
      size_t left = length >= 2 ? length - 2 : 0;
      size_t p = at + 2;
      while (left > 0 && p < bytes.size()) {
        size_t codes = 0;
        for (size_t i = 0; i < 16; ++i) codes += byte(p + 1 + i);
        if (codes > 256) {
          return "a JPEG Huffman table (DHT at byte " + std::to_string(p) + ") of " +
                 std::to_string(codes) + " codes, at most 256 expected";
        }
        const size_t used = 17 + codes;
        if (used >= left) break;
        left -= used;
        p += used;
      }
    }
    at += length;
    if (marker == 0xDA) {  // a scan: its entropy-coded data runs to the next marker
      while (at + 1 < bytes.size() && !(byte(at) == 0xFF && byte(at + 1) != 0 &&
                                        !(byte(at + 1) >= 0xD0 && byte(at + 1) <= 0xD7))) {
        ++at;
      }
    }
  }
  return "";
}

// As stbi_info_from_memory decides: TGA is the format tried last (it has no signature).
bool IsTga(const stbi_uc* data, int length) {
  stbi__context context;
  stbi__start_mem(&context, data, length);
  if (stbi__png_test(&context) || stbi__jpeg_test(&context) || stbi__bmp_test(&context)) {
    return false;
  }
  return stbi__tga_test(&context) != 0;
}

}  // namespace

const char* EmbeddableMimeType(std::string_view bytes) {
  if (bytes.size() >= 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) return "image/png";
  if (bytes.size() >= 3 && bytes.compare(0, 3, "\xFF\xD8\xFF") == 0) return "image/jpeg";
  return "";
}

Result<RgbaImage> DecodeImage(const std::string& file_name, std::string_view bytes) {
  if (bytes.empty()) return MakeError(file_name, 0, 0, "empty image file");
  if (bytes.size() > 512u * 1024u * 1024u)
    return MakeError(file_name, 0, 0, "image file too large");
  if (IsDds(bytes)) return DecodeDds(file_name, bytes);  // stb_image has no DDS reader
  // Before stbi_info too: reading a JPEG's header already builds its Huffman tables.
  if (static_cast<uint8_t>(bytes[0]) == 0xFF) {
    const std::string huffman = JpegHuffmanProblem(bytes);
    if (!huffman.empty()) return MakeError(file_name, 0, 0, "could not decode: " + huffman);
  }
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
  if (IsTga(data, length)) {
    const std::string truncated = TgaTruncation(bytes, width, height);
    if (!truncated.empty()) return MakeError(file_name, 0, 0, "could not decode: " + truncated);
  }
  stbi_uc* pixels = stbi_load_from_memory(data, length, &width, &height, &channels, 4);
  if (pixels == nullptr) {
    return MakeError(file_name, 0, 0, std::string("could not decode: ") + stbi_failure_reason());
  }
  RgbaImage image;
  image.width = width;
  image.height = height;
  image.rgba.assign(pixels, pixels + static_cast<size_t>(width) * height * 4);
  stbi_image_free(pixels);
  return image;
}

}  // namespace md5stage::material
