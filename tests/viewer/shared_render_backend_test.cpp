// The module's shared GPU objects: a texture of the same pixels is uploaded once, and pixels made
// to collide in one 64-bit hash are still uploaded as their own texture.
#include "viewer/shared_render_backend.h"

#include <gtest/gtest.h>

#include <string>

#include "../core/common/colliding_bytes.h"

namespace md5stage::viewer {
namespace {

TEST(SharedRenderBackendTest, SharesATextureOnlyWhenSizeAndBothHashesAgree) {
  // 2x2 RGBA pixels: 16 bytes, the span CollideMixHash rewrites.
  const std::string pixels = "\x10\x20\x30\xff\x40\x50\x60\xff\x70\x80\x90\xff\xa0\xb0\xc0\xff";
  const std::string collided =
      testing::CollideMixHash(pixels, 0, [](unsigned char) { return true; });
  ASSERT_FALSE(collided.empty());
  ASSERT_EQ(MixHash64(collided), MixHash64(pixels));
  const auto* rgba = reinterpret_cast<const uint8_t*>(pixels.data());
  const struct {
    const char* name;
    int width, height;
    std::string second;
    bool shared;
  } rows[] = {
      {"the same pixels", 2, 2, pixels, true},
      {"pixels colliding in the 64-bit hash", 2, 2, collided, false},
      {"the same bytes at another width", 4, 1, pixels, false},
      {"one byte changed", 2, 2, std::string(pixels).replace(3, 1, "\x01"), false},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    NullRenderBackend device;
    SharedRenderBackend shared(&device);
    const TextureHandle first = shared.CreateTexture(2, 2, rgba);
    const TextureHandle second = shared.CreateTexture(
        row.width, row.height, reinterpret_cast<const uint8_t*>(row.second.data()));
    EXPECT_EQ(first.id == second.id, row.shared);
    EXPECT_EQ(shared.texture_count(), row.shared ? 1 : 2);
    EXPECT_EQ(shared.shared_hits(), row.shared ? 1 : 0);
    // Each holder gives its handle back; the device texture goes with the last.
    shared.DestroyTexture(second);
    EXPECT_EQ(shared.texture_count(), 1);
    shared.DestroyTexture(first);
    EXPECT_EQ(shared.texture_count(), 0);
  }
}

}  // namespace
}  // namespace md5stage::viewer
