// The resource cache loads a file once per (name, contents) and shares the immutable result.
#include "core/anim/resource_cache.h"

#include <gtest/gtest.h>

#include <string>

#include "../common/colliding_bytes.h"
#include "anim_test_util.h"
#include "core/md5/md5_parser.h"
#include "core/md5/mesh_pack.h"

namespace md5stage::anim {
namespace {

using testing::kAnimFixture;
using testing::kMeshFixture;
using testing::Replace;

TEST(ResourceCache, SameNameAndContentsShareOneModel) {
  ResourceCache cache;
  const std::string bytes = kMeshFixture;
  Result<std::shared_ptr<const Model>> a = cache.LoadModel("m.md5mesh", bytes);
  Result<std::shared_ptr<const Model>> b = cache.LoadModel("m.md5mesh", std::string(bytes));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value().get(), b.value().get());
  EXPECT_EQ(cache.parses(), 1);
  EXPECT_EQ(cache.hits(), 1);
  EXPECT_EQ(cache.model_count(), 1u);
  EXPECT_EQ(a.value()->name(), "m.md5mesh");
}

TEST(ResourceCache, DifferentContentsOrNamesAreDifferentEntries) {
  ResourceCache cache;
  const std::string changed = Replace(kMeshFixture, "\"skin\"", "\"other\"");
  auto a = cache.LoadModel("m.md5mesh", kMeshFixture);
  auto b = cache.LoadModel("m.md5mesh", changed);
  auto c = cache.LoadModel("copy.md5mesh", kMeshFixture);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_NE(a.value().get(), b.value().get());
  EXPECT_NE(a.value().get(), c.value().get());
  EXPECT_EQ(b.value()->mesh(0).shader, "other");
  EXPECT_EQ(cache.model_count(), 3u);
  EXPECT_EQ(cache.parses(), 3);
}

TEST(ResourceCache, AFileWhose64BitHashCollidesIsParsedAsItself) {
  // Two meshes that differ only in a comment made to collide in the key's 64-bit hash: the
  // second, independent hash keeps them apart (each its own entry and model).
  const std::string header = "//      ";  // the comment's 16 colliding bytes start at offset 8
  const std::string original = header + "0123456789abcdef\n" + kMeshFixture;
  const std::string collided = md5stage::testing::CollideMixHash(
      original, 8, [](unsigned char byte) { return byte != '\n' && byte != '\r' && byte != '\0'; });
  ASSERT_FALSE(collided.empty());
  ASSERT_EQ(ResourceCache::HashBytes(collided), ResourceCache::HashBytes(original));
  ResourceCache cache;
  auto a = cache.LoadModel("m.md5mesh", original);
  auto b = cache.LoadModel("m.md5mesh", collided);
  ASSERT_TRUE(a.ok()) << a.error().ToString();
  ASSERT_TRUE(b.ok()) << b.error().ToString();
  EXPECT_NE(a.value().get(), b.value().get());
  EXPECT_EQ(cache.parses(), 2);
  EXPECT_EQ(cache.hits(), 0);
}

TEST(ResourceCache, AnimationsAreSharedToo) {
  ResourceCache cache;
  auto a = cache.LoadAnimation("a.md5anim", kAnimFixture);
  auto b = cache.LoadAnimation("a.md5anim", kAnimFixture);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value().get(), b.value().get());
  EXPECT_EQ(a.value()->frame_count(), 3);
  EXPECT_EQ(cache.animation_count(), 1u);
  cache.Clear();
  EXPECT_EQ(cache.animation_count(), 0u);
  auto c = cache.LoadAnimation("a.md5anim", kAnimFixture);
  EXPECT_NE(c.value().get(), a.value().get());  // a fresh load; `a` itself stays valid
  EXPECT_EQ(a.value()->frame_count(), 3);
}

TEST(ResourceCache, FailuresAreReturnedAndNotCached) {
  ResourceCache cache;
  const std::string broken = Replace(kMeshFixture, "MD5Version 10", "MD5Version 9");
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto result = cache.LoadModel("bad.md5mesh", broken);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().ToString(),
              "bad.md5mesh:1:12: error: expected MD5Version 10, found '9'");
  }
  EXPECT_EQ(cache.model_count(), 0u);
  EXPECT_EQ(cache.parses(), 2);
}

TEST(ResourceCache, LimitsApplyToEveryLoad) {
  md5::Md5Limits limits;
  limits.max_file_bytes = 64;
  ResourceCache cache(limits);
  auto result = cache.LoadAnimation("a.md5anim", kAnimFixture);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("at most 64 bytes"), std::string::npos);
}

// A figure hands the cache the mesh's pack (`md5stage pack`) under the .md5mesh's name.
TEST(ResourceCache, AMeshPackLoadsAsTheMeshItWasMadeFrom) {
  Result<md5::MeshFile> text = md5::ParseMd5Mesh("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(text.ok());
  Result<std::string> pack = md5::EncodeMeshPack(text.value());
  ASSERT_TRUE(pack.ok());
  ResourceCache cache;
  auto from_pack = cache.LoadModel("m.md5mesh", pack.value());
  auto from_text = cache.LoadModel("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(from_pack.ok()) << from_pack.error().ToString();
  ASSERT_TRUE(from_text.ok());
  EXPECT_NE(from_pack.value().get(), from_text.value().get());  // other bytes, another entry
  EXPECT_EQ(from_pack.value()->name(), "m.md5mesh");
  EXPECT_EQ(from_pack.value()->mesh_count(), from_text.value()->mesh_count());
  EXPECT_EQ(from_pack.value()->mesh(0).shader, "skin");
  EXPECT_EQ(from_pack.value()->skeleton().joint_count(),
            from_text.value()->skeleton().joint_count());
  // A broken pack is an error naming the mesh, not a text parse of binary bytes.
  auto broken = cache.LoadModel("m.md5mesh", pack.value().substr(0, 40));
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("mesh pack"), std::string::npos);
  EXPECT_EQ(broken.error().file, "m.md5mesh");
}

TEST(ResourceCache, HashSeesEveryByte) {
  std::string text(1000, 'x');
  const std::uint64_t base = ResourceCache::HashBytes(text);
  for (std::size_t at : {0u, 7u, 8u, 500u, 996u, 999u}) {
    std::string changed = text;
    changed[at] = 'y';
    EXPECT_NE(ResourceCache::HashBytes(changed), base) << at;
  }
  EXPECT_NE(ResourceCache::HashBytes(text.substr(0, 999)), base);
}

}  // namespace
}  // namespace md5stage::anim
