#include "core/common/content_key.h"

#include <zlib.h>

#include <cstring>

namespace md5stage {

std::uint64_t MixHash64(std::string_view bytes) {
  std::uint64_t hash = 0x9E3779B97F4A7C15ull ^ bytes.size();
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    hash = (hash ^ word) * 0xBF58476D1CE4E5B9ull;
    hash ^= hash >> 31;
    p += 8;
    left -= 8;
  }
  std::uint64_t tail = 0;
  if (left > 0) std::memcpy(&tail, p, left);
  hash = (hash ^ tail) * 0x94D049BB133111EBull;
  hash ^= hash >> 29;
  return hash;
}

ContentKey MakeContentKey(std::string_view bytes) {
  ContentKey key;
  key.size = bytes.size();
  key.mix = MixHash64(bytes);
  // zlib's crc32 takes a uInt length: large inputs go in pieces.
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t left = bytes.size();
  while (left > 0) {
    const uInt piece = static_cast<uInt>(left < (1u << 30) ? left : (1u << 30));
    crc = crc32(crc, data, piece);
    data += piece;
    left -= piece;
  }
  key.crc = static_cast<std::uint32_t>(crc);
  return key;
}

}  // namespace md5stage
