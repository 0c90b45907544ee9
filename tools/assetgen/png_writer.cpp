#include "png_writer.h"

#include <array>

namespace md5stage::assetgen {
namespace {

std::array<std::uint32_t, 256> MakeCrcTable() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

void AppendBigEndian(std::string& out, std::uint32_t value) {
  out += static_cast<char>((value >> 24) & 0xFF);
  out += static_cast<char>((value >> 16) & 0xFF);
  out += static_cast<char>((value >> 8) & 0xFF);
  out += static_cast<char>(value & 0xFF);
}

void AppendChunk(std::string& out, const char type[4], const std::vector<std::uint8_t>& data) {
  AppendBigEndian(out, static_cast<std::uint32_t>(data.size()));
  std::string typed(type, 4);
  typed.append(reinterpret_cast<const char*>(data.data()), data.size());
  out += typed;
  AppendBigEndian(out, Crc32(reinterpret_cast<const std::uint8_t*>(typed.data()), typed.size()));
}

}  // namespace

std::uint32_t Crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc) {
  static const std::array<std::uint32_t, 256> table = MakeCrcTable();
  std::uint32_t c = crc ^ 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::uint32_t Adler32(const std::uint8_t* data, std::size_t size, std::uint32_t adler) {
  constexpr std::uint32_t kModulus = 65521;
  std::uint32_t a = adler & 0xFFFFu;
  std::uint32_t b = adler >> 16;
  for (std::size_t i = 0; i < size; ++i) {
    a = (a + data[i]) % kModulus;
    b = (b + a) % kModulus;
  }
  return (b << 16) | a;
}

std::vector<std::uint8_t> ZlibStore(const std::vector<std::uint8_t>& data) {
  constexpr std::size_t kMaxStored = 65535;
  std::vector<std::uint8_t> out;
  out.reserve(data.size() + data.size() / kMaxStored * 5 + 16);
  out.push_back(0x78);  // CM = 8 (deflate), CINFO = 7 (32K window)
  out.push_back(0x01);  // FLEVEL = 0, no dictionary; 0x7801 is a multiple of 31
  std::size_t offset = 0;
  do {
    std::size_t length = data.size() - offset;
    if (length > kMaxStored) length = kMaxStored;
    bool final_block = offset + length == data.size();
    out.push_back(final_block ? 1 : 0);  // BFINAL, BTYPE = 00 (stored)
    out.push_back(static_cast<std::uint8_t>(length & 0xFF));
    out.push_back(static_cast<std::uint8_t>(length >> 8));
    out.push_back(static_cast<std::uint8_t>(~length & 0xFF));
    out.push_back(static_cast<std::uint8_t>((~length >> 8) & 0xFF));
    out.insert(out.end(), data.begin() + offset, data.begin() + offset + length);
    offset += length;
  } while (offset < data.size());
  std::uint32_t adler = Adler32(data.data(), data.size());
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back((adler >> shift) & 0xFF);
  return out;
}

std::string EncodePng(const Image& image) {
  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::vector<std::uint8_t> header;
  auto push32 = [&header](std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) header.push_back((v >> shift) & 0xFF);
  };
  push32(static_cast<std::uint32_t>(image.width));
  push32(static_cast<std::uint32_t>(image.height));
  header.push_back(8);                            // bit depth
  header.push_back(image.channels == 4 ? 6 : 2);  // colour type: RGBA or RGB
  header.push_back(0);                            // deflate
  header.push_back(0);                            // adaptive filtering (we use filter 0)
  header.push_back(0);                            // no interlace
  AppendChunk(out, "IHDR", header);

  std::size_t row_bytes = static_cast<std::size_t>(image.width) * image.channels;
  std::vector<std::uint8_t> raw;
  raw.reserve((row_bytes + 1) * image.height);
  for (int y = 0; y < image.height; ++y) {
    raw.push_back(0);  // filter type None
    const std::uint8_t* row = image.pixels.data() + row_bytes * y;
    raw.insert(raw.end(), row, row + row_bytes);
  }
  AppendChunk(out, "IDAT", ZlibStore(raw));
  AppendChunk(out, "IEND", {});
  return out;
}

}  // namespace md5stage::assetgen
