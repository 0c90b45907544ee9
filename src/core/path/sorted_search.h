// Binary search for the path hot loops: a conditional move per step instead of a branch, since
// look-ups for units spread along a route jump around and mispredicted branches would dominate.
#pragma once

#include <cstddef>

namespace md5stage {

// Index of the last of `count` (>= 1) sorted items whose key is <= value; the first item's key
// must be <= value.
template <typename T, typename KeyOf>
std::size_t LastNotAbove(const T* items, std::size_t count, double value, KeyOf key_of) {
  const T* base = items;
  while (count > 1) {
    const std::size_t half = count / 2;
    base = key_of(base[half]) <= value ? base + half : base;
    count -= half;
  }
  return static_cast<std::size_t>(base - items);
}

}  // namespace md5stage
