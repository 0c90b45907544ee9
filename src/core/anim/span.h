// A pointer + length view (C++17 has no std::span): how jobs take caller-owned inputs and outputs.
#pragma once

#include <cstddef>
#include <vector>

namespace md5stage::anim {

template <typename T>
struct Span {
  T* data = nullptr;
  std::size_t size = 0;

  Span() = default;
  Span(T* pointer, std::size_t count) : data(pointer), size(count) {}
  template <typename U>
  Span(std::vector<U>& vector) : data(vector.data()), size(vector.size()) {}  // NOLINT
  template <typename U>
  Span(const std::vector<U>& vector) : data(vector.data()), size(vector.size()) {}  // NOLINT

  T& operator[](std::size_t i) const { return data[i]; }
  T* begin() const { return data; }
  T* end() const { return data + size; }
  bool empty() const { return size == 0; }
};

}  // namespace md5stage::anim
