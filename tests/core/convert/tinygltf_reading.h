// Reading the exporter's output back with tinygltf (not with the exporter's own code): a GLB into
// a tinygltf::Model, images left as their bytes, and an accessor's values as a flat array.
#pragma once

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cstring>
#include <string>
#include <vector>

namespace md5stage::test {

inline bool KeepImageBytes(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                           const unsigned char*, int, void*) {
  return true;
}

// Fails the test on a loader error or warning.
inline tinygltf::Model ReadGlb(const std::string& bytes) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&KeepImageBytes, nullptr);
  tinygltf::Model model;
  std::string error, warning;
  const bool ok = loader.LoadBinaryFromMemory(&model, &error, &warning,
                                              reinterpret_cast<const unsigned char*>(bytes.data()),
                                              static_cast<unsigned int>(bytes.size()));
  EXPECT_TRUE(ok) << error;
  EXPECT_EQ(warning, "");
  return model;
}

template <typename T>
std::vector<T> Read(const tinygltf::Model& gltf, int accessor_index) {
  const tinygltf::Accessor& accessor = gltf.accessors[static_cast<size_t>(accessor_index)];
  const tinygltf::BufferView& view = gltf.bufferViews[static_cast<size_t>(accessor.bufferView)];
  const std::vector<unsigned char>& data = gltf.buffers[static_cast<size_t>(view.buffer)].data;
  const size_t count =
      accessor.count *
      static_cast<size_t>(tinygltf::GetNumComponentsInType(static_cast<uint32_t>(accessor.type)));
  std::vector<T> values(count);
  std::memcpy(values.data(), data.data() + view.byteOffset + accessor.byteOffset,
              count * sizeof(T));
  return values;
}

}  // namespace md5stage::test
