// Problems the fuzzers and the browser soak test (tests/fuzz, tests/browser/soak.test.mjs) found
// in the runtime objects: each stays fixed.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "anim_test_util.h"
#include "core/anim/resource_cache.h"

namespace md5stage::anim {
namespace {

using testing::kAnimFixture;
using testing::kMeshFixture;
using testing::Replace;

// Soak: a viewer that loaded a model (new contents each time) and removed it 300 times grew its
// wasm heap from 64 MB to 240 MB, because the cache kept every model it had ever parsed. The
// cache now holds its objects weakly: what nobody uses is freed.
TEST(AnimRegression, CacheFreesModelsAndAnimationsNobodyHolds) {
  ResourceCache cache;
  std::weak_ptr<const Model> first;
  for (int i = 0; i < 100; ++i) {
    const std::string mesh =
        Replace(kMeshFixture, "\"test\"", "\"load " + std::to_string(i) + "\"");
    const std::string anim =
        Replace(kAnimFixture, "commandline \"\"", "commandline \"load " + std::to_string(i) + "\"");
    Result<std::shared_ptr<const Model>> model = cache.LoadModel("m.md5mesh", mesh);
    Result<std::shared_ptr<const Animation>> animation = cache.LoadAnimation("a.md5anim", anim);
    ASSERT_TRUE(model.ok() && animation.ok());
    if (i == 0) first = model.value();
    EXPECT_EQ(cache.model_count(), 1u);
    EXPECT_EQ(cache.animation_count(), 1u);
  }  // each iteration's objects are released here: the viewer removed the model
  EXPECT_TRUE(first.expired());
  EXPECT_EQ(cache.model_count(), 0u);
  EXPECT_EQ(cache.animation_count(), 0u);
  EXPECT_EQ(cache.parses(), 200);
  EXPECT_EQ(cache.hits(), 0);
}

TEST(AnimRegression, CacheStillSharesWhatIsAliveAndReparsesWhatWasFreed) {
  ResourceCache cache;
  auto held = cache.LoadModel("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(held.ok());
  auto again = cache.LoadModel("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().get(), held.value().get());
  EXPECT_EQ(cache.hits(), 1);
  held = Result<std::shared_ptr<const Model>>(std::shared_ptr<const Model>());
  again = Result<std::shared_ptr<const Model>>(std::shared_ptr<const Model>());
  EXPECT_EQ(cache.model_count(), 0u);
  auto fresh = cache.LoadModel("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(fresh.ok());
  EXPECT_NE(fresh.value(), nullptr);
  EXPECT_EQ(cache.parses(), 2);
  EXPECT_EQ(cache.model_count(), 1u);
}

}  // namespace
}  // namespace md5stage::anim
