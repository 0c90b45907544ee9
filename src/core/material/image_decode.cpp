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
#include <cstdlib>  // for the allocation macros below

// Zeroed allocations: stb_image 2.27 decodes a JPEG scan with whatever its decoder's Huffman
// tables hold, defined or not (fuzz_image finding 4); zeroed, an undefined table decodes zeros
// instead of indexing with garbage.
#define STBI_MALLOC(size) std::calloc(1, size)
#define STBI_REALLOC(pointer, size) std::realloc(pointer, size)
#define STBI_FREE(pointer) std::free(pointer)
#include <stb/stb_image.h>

#include <cstring>
#include <utility>

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

std::string TooLarge(int64_t width, int64_t height) {
  return "image of " + std::to_string(width) + " x " + std::to_string(height) + " is larger than " +
         std::to_string(kMaxImageSide) + " pixels a side";
}

// The width and height a PNG's IHDR or a BMP's header claims ({0, 0} for other files).
std::pair<uint32_t, uint32_t> PngOrBmpHeaderSize(std::string_view bytes) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  if (EmbeddableMimeType(bytes) == std::string_view("image/png") && bytes.size() >= 24) {
    const auto be32 = [&](size_t i) {
      return (static_cast<uint32_t>(byte(i)) << 24) | (static_cast<uint32_t>(byte(i + 1)) << 16) |
             (static_cast<uint32_t>(byte(i + 2)) << 8) | byte(i + 3);
    };
    return {be32(16), be32(20)};
  }
  if (bytes.size() >= 26 && bytes[0] == 'B' && bytes[1] == 'M') {
    const auto le32 = [&](size_t i) {
      return static_cast<uint32_t>(byte(i)) | (static_cast<uint32_t>(byte(i + 1)) << 8) |
             (static_cast<uint32_t>(byte(i + 2)) << 16) |
             (static_cast<uint32_t>(byte(i + 3)) << 24);
    };
    if (le32(14) == 12) return {byte(18) | (byte(19) << 8), byte(20) | (byte(21) << 8)};
    const int64_t height = static_cast<int32_t>(le32(22));  // negative: rows top-down
    return {le32(18), static_cast<uint32_t>(height < 0 ? -height : height)};
  }
  return {0, 0};
}

// stb_image allocates a PNG's whole image (and its zlib output) from the header before it reads
// the data, so a 200-byte file claiming 8192 x 8192 cost 256 MB, and a BMP shorter than its
// pixels reads as zeros past its end: both must have the bytes their pixels need first. A PNG's
// compressed data can be at most 1032 times smaller than the rows it inflates to (deflate's
// limit). Returns "" when the bytes suffice, else what is missing.
std::string PngOrBmpShortfall(std::string_view bytes, int width, int height) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  const auto u32 = [&](size_t i) {
    return static_cast<uint32_t>(byte(i)) | (static_cast<uint32_t>(byte(i + 1)) << 8) |
           (static_cast<uint32_t>(byte(i + 2)) << 16) | (static_cast<uint32_t>(byte(i + 3)) << 24);
  };
  const uint64_t w = static_cast<uint64_t>(width), h = static_cast<uint64_t>(height);
  if (EmbeddableMimeType(bytes) == std::string_view("image/png") && bytes.size() >= 26) {
    const uint64_t depth = byte(24);
    const int type = byte(25);
    const uint64_t channels = type == 2 ? 3 : type == 4 ? 2 : type == 6 ? 4 : 1;
    const uint64_t rows = h * (1 + (w * channels * depth + 7) / 8);
    const uint64_t least = (rows + 1031) / 1032;
    if (bytes.size() < least) {
      return "a " + std::to_string(w) + " x " + std::to_string(h) + " PNG needs at least " +
             std::to_string(least) + " bytes of compressed data (deflate packs at most 1032:1), " +
             "found " + std::to_string(bytes.size()) + " bytes";
    }
  } else if (bytes.size() >= 34 && bytes[0] == 'B' && bytes[1] == 'M') {
    const uint32_t header = u32(14);
    const uint64_t bits = header == 12 ? byte(24) : byte(28);
    const uint32_t compression = header == 12 ? 0 : u32(30);
    if (compression == 0 || compression == 3) {  // rows as they are (not RLE)
      const uint64_t need = u32(10) + h * (((w * bits + 31) / 32) * 4);
      if (bytes.size() < need) {
        return "truncated: " + std::to_string(need) + " bytes expected, found " +
               std::to_string(bytes.size());
      }
    }
  }
  return "";
}

// stb_image grows its buffer for a PNG's IDAT chunk to the length the chunk claims before it
// copies the bytes, so a 151-byte file whose second IDAT claims 1.1 GB allocated 2 GB (fuzz_image
// finding 3). Every chunk up to IEND must lie within the file. Returns "" when each does, else
// the first that does not.
// A PNG chunk's header at `at` (at + 8 <= the file's size): its data's length and its type.
struct PngChunkHeader {
  uint64_t length;
  std::string_view type;
};
PngChunkHeader PngChunkAt(std::string_view bytes, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])); };
  return {(byte(at) << 24) | (byte(at + 1) << 16) | (byte(at + 2) << 8) | byte(at + 3),
          bytes.substr(at + 4, 4)};
}

std::string PngChunkOverrun(std::string_view bytes) {
  size_t at = 8;
  while (at + 8 <= bytes.size()) {
    const PngChunkHeader chunk = PngChunkAt(bytes, at);
    const uint64_t left = bytes.size() - (at + 8);
    if (chunk.length + 4 > left) {  // the data and its CRC
      return "truncated: the " + std::string(chunk.type) + " chunk at byte " + std::to_string(at) +
             " claims " + std::to_string(chunk.length) + " bytes, the file has " +
             std::to_string(left) + " after its header";
    }
    if (chunk.type == "IEND") break;
    at += 12 + static_cast<size_t>(chunk.length);
  }
  return "";
}

// stb_image 2.27 (Debian's) builds a JPEG Huffman table from a DHT segment's 16 counts without
// checking that they sum to at most 256 codes, and writes past its 257-entry arrays when they do
// (fuzz_image finding 1). `at` is the DHT segment's length field; the tables it defines are marked
// in `defined`. Returns what is wrong with its first bad table, or "".
std::string OversizedHuffmanTable(std::string_view bytes, size_t at, bool (&defined)[2][4]) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  const size_t length = (static_cast<size_t>(byte(at)) << 8) | byte(at + 1);
  size_t left = length >= 2 ? length - 2 : 0;
  size_t p = at + 2;
  while (left > 0 && p < bytes.size()) {
    // stb_image keeps a table once its class and id are read, whatever follows.
    if ((byte(p) >> 4) < 2 && (byte(p) & 15) < 4) defined[byte(p) >> 4][byte(p) & 15] = true;
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
  return "";
}

// stb_image 2.27 allocates its JPEG decoder without clearing it, so a scan whose components
// select a Huffman table no DHT defined decodes with whatever memory held, and indexes its
// 256-entry symbol array with it (fuzz_image finding 4). `at` is the SOS segment's length field.
// Returns "" when every table the scan decodes with was defined (a progressive scan uses the DC
// table for a first DC scan only and the AC table for AC scans only, as stb_image does).
std::string UndefinedScanTable(std::string_view bytes, size_t at, bool progressive,
                               const bool (&defined)[2][4]) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  const size_t components = byte(at + 2);
  const size_t after = at + 3 + 2 * components;
  const uint8_t spectral_start = byte(after), approximation_high = byte(after + 2) >> 4;
  const bool uses_dc = !progressive || (spectral_start == 0 && approximation_high == 0);
  const bool uses_ac = !progressive || spectral_start > 0;
  for (size_t i = 0; i < components; ++i) {
    const uint8_t selectors = byte(at + 4 + 2 * i);
    const int dc = selectors >> 4, ac = selectors & 15;
    const auto missing = [&](const char* kind, int id) {
      return std::string("a JPEG scan (SOS at byte ") + std::to_string(at - 2) + ") decodes with " +
             kind + " Huffman table " + std::to_string(id) + ", which no DHT before it defines";
    };
    if (uses_dc && dc < 4 && !defined[0][dc]) return missing("DC", dc);
    if (uses_ac && ac < 4 && !defined[1][ac]) return missing("AC", ac);
  }
  return "";
}

// A JPEG's Huffman tables as stb_image will build and use them: walks the segments as its decoder
// does (junk between segments skipped, entropy-coded data skipped to the next marker) and returns
// what is wrong with the first oversized table or scan using an undefined table, or "". `size`
// gets the first frame header's (SOFn) width and height.
std::string JpegHuffmanProblem(std::string_view bytes, std::pair<uint32_t, uint32_t>* size) {
  const auto byte = [&](size_t i) { return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0; };
  bool defined[2][4] = {};  // [DC, AC][table id]: given by a DHT before this point
  bool scanned = false;     // a scan (SOS) has been seen
  uint8_t first_frame = 0;  // the SOFn marker (0xC2: progressive)
  size_t at = 0;
  while (at < bytes.size()) {
    while (at < bytes.size() && byte(at) != 0xFF) ++at;  // stb skips what is not a marker
    while (at < bytes.size() && byte(at) == 0xFF) ++at;
    if (at >= bytes.size()) break;
    const uint8_t marker = byte(at++);
    if (marker == 0xD9) break;  // end of image
    if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
    const size_t length = (static_cast<size_t>(byte(at)) << 8) | byte(at + 1);
    const bool frame =
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame && size->first == 0 && size->second == 0) {
      size->second = (static_cast<uint32_t>(byte(at + 3)) << 8) | byte(at + 4);
      size->first = (static_cast<uint32_t>(byte(at + 5)) << 8) | byte(at + 6);
    }
    if (frame && first_frame == 0) first_frame = marker;
    if (marker == 0xC4) {
      const std::string oversized = OversizedHuffmanTable(bytes, at, defined);
      if (!oversized.empty()) return oversized;
    }
    if (marker == 0xDA) {
      const std::string undefined = UndefinedScanTable(bytes, at, first_frame == 0xC2, defined);
      if (!undefined.empty()) return undefined;
      // Where a scan's entropy-coded data ends is decided by stb_image's decoder (how far its
      // MCUs read, fill bytes, junk before the next marker), which this walk cannot follow
      // exactly (fuzz_image finding 5: a DHT it read as data). From the first scan on, every
      // DHT marker in the file is checked, wherever it lies: entropy-coded data holds none.
      if (!scanned) {
        scanned = true;
        for (size_t p = at; p + 1 < bytes.size(); ++p) {
          if (byte(p) != 0xFF || byte(p + 1) != 0xC4) continue;
          bool ignored[2][4] = {};
          const std::string oversized = OversizedHuffmanTable(bytes, p + 2, ignored);
          if (!oversized.empty()) return oversized;
        }
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

// stb_image copies an empty IDAT chunk into its data buffer before it has one: memcpy of 0 bytes
// to a null pointer, undefined behaviour (fuzz_image finding 6). An empty chunk holds nothing, so
// a PNG with one decodes as the same PNG without it. Returns that copy (the chunks were checked
// by PngChunkOverrun), or "" when the file has no empty IDAT.
std::string PngWithoutEmptyIdat(std::string_view bytes) {
  if (EmbeddableMimeType(bytes) != std::string_view("image/png")) return "";
  std::string copy;
  size_t at = 8, kept = 0;  // bytes[kept, at) are still to be copied
  while (at + 12 <= bytes.size()) {
    const PngChunkHeader chunk = PngChunkAt(bytes, at);
    if (chunk.length == 0 && chunk.type == "IDAT") {
      copy.append(bytes.substr(kept, at - kept));
      kept = at + 12;
    }
    if (chunk.type == "IEND" || chunk.length > bytes.size() - at - 12) break;
    at += 12 + static_cast<size_t>(chunk.length);
  }
  if (kept == 0) return "";
  copy.append(bytes.substr(kept));
  return copy;
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

Status CheckImage(const std::string& file_name, std::string_view bytes) {
  if (bytes.empty()) return MakeError(file_name, 0, 0, "empty image file");
  if (bytes.size() > 512u * 1024u * 1024u)
    return MakeError(file_name, 0, 0, "image file too large");
  if (IsDds(bytes)) return CheckDds(file_name, bytes);  // stb_image has no DDS reader
  // Before stbi_info too: reading a JPEG's header already builds its Huffman tables.
  std::pair<uint32_t, uint32_t> size{0, 0};  // as the header says, when stb_image may refuse it
  if (static_cast<uint8_t>(bytes[0]) == 0xFF) {
    const std::string huffman = JpegHuffmanProblem(bytes, &size);
    if (!huffman.empty()) return MakeError(file_name, 0, 0, "could not decode: " + huffman);
  } else {
    size = PngOrBmpHeaderSize(bytes);
  }
  // stb_image (STBI_MAX_DIMENSIONS) refuses a larger header as "unknown image type": the limit
  // is named here first.
  if (size.first > static_cast<uint32_t>(kMaxImageSide) ||
      size.second > static_cast<uint32_t>(kMaxImageSide)) {
    return MakeError(file_name, 0, 0, TooLarge(size.first, size.second));
  }
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
    return MakeError(file_name, 0, 0,
                     std::string("not a readable image: ") + stbi_failure_reason());
  }
  if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide) {
    return MakeError(file_name, 0, 0, TooLarge(width, height));
  }
  const std::string shortfall = PngOrBmpShortfall(bytes, width, height);
  if (!shortfall.empty()) return MakeError(file_name, 0, 0, "could not decode: " + shortfall);
  if (EmbeddableMimeType(bytes) == std::string_view("image/png")) {
    const std::string overrun = PngChunkOverrun(bytes);
    if (!overrun.empty()) return MakeError(file_name, 0, 0, "could not decode: " + overrun);
  }
  if (IsTga(data, length)) {
    const std::string truncated = TgaTruncation(bytes, width, height);
    if (!truncated.empty()) return MakeError(file_name, 0, 0, "could not decode: " + truncated);
  }
  return {};
}

Result<RgbaImage> DecodeImage(const std::string& file_name, std::string_view bytes) {
  const Status checked = CheckImage(file_name, bytes);
  if (!checked.ok()) return checked.error();
  if (IsDds(bytes)) return DecodeDds(file_name, bytes);
  const std::string without_empty = PngWithoutEmptyIdat(bytes);
  if (!without_empty.empty()) bytes = without_empty;
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
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
