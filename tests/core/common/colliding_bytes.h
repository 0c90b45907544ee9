// Byte strings made to collide in MixHash64 (the 64-bit hash content keys start from): what a
// second, independent hash has to tell apart. Used by the content key, parse cache and shared
// texture tests.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

namespace md5stage::testing {

// A copy of `bytes` with the 16 bytes at `at` (a multiple of 8, with 16 bytes after it) changed so
// that MixHash64 gives the same value: the first word is replaced by a `tries`-th printable
// variant, the second is chosen to bring the hash back onto the original's path. `allowed` says
// which bytes the second word may hold (a file format's comment, for example); "" if no variant
// within 1000 tries fits.
inline std::string CollideMixHash(const std::string& bytes, std::size_t at,
                                  const std::function<bool(unsigned char)>& allowed) {
  auto step = [](std::uint64_t hash, std::uint64_t word) {
    hash = (hash ^ word) * 0xBF58476D1CE4E5B9ull;
    return hash ^ (hash >> 31);
  };
  auto word_at = [&](std::size_t offset) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + offset, 8);
    return word;
  };
  std::uint64_t state = 0x9E3779B97F4A7C15ull ^ bytes.size();
  for (std::size_t offset = 0; offset < at; offset += 8) state = step(state, word_at(offset));
  const std::uint64_t first = word_at(at), second = word_at(at + 8);
  const std::uint64_t target = step(state, first);
  for (int tries = 0; tries < 1000; ++tries) {
    char variant[9];
    std::snprintf(variant, sizeof variant, "v%07d", tries);
    std::uint64_t changed_first;
    std::memcpy(&changed_first, variant, 8);
    if (changed_first == first) continue;
    // step(state, changed_first) ^ changed_second == target ^ second.
    const std::uint64_t changed_second = step(state, changed_first) ^ target ^ second;
    unsigned char second_bytes[8];
    std::memcpy(second_bytes, &changed_second, 8);
    bool fits = true;
    for (unsigned char byte : second_bytes) fits = fits && allowed(byte);
    if (!fits) continue;
    std::string out = bytes;
    std::memcpy(&out[at], &changed_first, 8);
    std::memcpy(&out[at + 8], &changed_second, 8);
    return out;
  }
  return "";
}

}  // namespace md5stage::testing
