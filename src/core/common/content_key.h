// What tells two byte strings apart where loaded data is shared by content (the parse cache, the
// shared textures): their size and two independent hashes, a 64-bit multiply-xorshift and zlib's
// CRC-32. Content is taken for other content only if both collide at once; a collision made for
// one (the 64-bit mix is easy to collide on purpose) does not carry over to the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace md5stage {

struct ContentKey {
  std::uint64_t size = 0;
  std::uint64_t mix = 0;  // MixHash64
  std::uint32_t crc = 0;  // zlib's crc32

  bool operator==(const ContentKey& other) const {
    return size == other.size && mix == other.mix && crc == other.crc;
  }
  bool operator!=(const ContentKey& other) const { return !(*this == other); }
};

// 8 bytes per step (multiply-xorshift), then the tail: fast, well spread, not collision-resistant.
std::uint64_t MixHash64(std::string_view bytes);

ContentKey MakeContentKey(std::string_view bytes);

// For unordered maps keyed by content (the CRC and size already decide equality; the mix spreads).
struct ContentKeyHash {
  std::size_t operator()(const ContentKey& key) const {
    return static_cast<std::size_t>(key.mix ^ (static_cast<std::uint64_t>(key.crc) << 17));
  }
};

}  // namespace md5stage
