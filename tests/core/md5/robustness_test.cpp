// Broken input never crashes the parsers: every truncation and many random byte changes of the
// fixtures end in a value or a located error (run under the sanitizer build to catch UB).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/md5/md5_parser.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

void ExpectCleanResult(const std::string& text, bool mesh) {
  if (mesh) {
    Result<MeshFile> result = ParseMd5Mesh("f.md5mesh", text);
    if (!result.ok()) {
      EXPECT_GT(result.error().line, 0) << result.error().ToString();
      EXPECT_EQ(result.error().message.rfind("expected ", 0), 0u) << result.error().ToString();
    }
  } else {
    Result<AnimFile> result = ParseMd5Anim("f.md5anim", text);
    if (!result.ok()) {
      EXPECT_GT(result.error().line, 0) << result.error().ToString();
      EXPECT_EQ(result.error().message.rfind("expected ", 0), 0u) << result.error().ToString();
    }
  }
}

TEST(Robustness, EveryTruncationFailsCleanly) {
  for (bool mesh : {true, false}) {
    const std::string full = mesh ? testing::kMeshFixture : testing::kAnimFixture;
    for (std::size_t length = 0; length < full.size(); ++length) {
      ExpectCleanResult(full.substr(0, length), mesh);
    }
  }
}

TEST(Robustness, RandomByteChangesFailCleanly) {
  std::mt19937 random(7);
  const char alphabet[] = "0123456789-+.eE()\"{}/ \n\tx";
  for (bool mesh : {true, false}) {
    const std::string full = mesh ? testing::kMeshFixture : testing::kAnimFixture;
    std::uniform_int_distribution<std::size_t> position(0, full.size() - 1);
    std::uniform_int_distribution<std::size_t> letter(0, sizeof alphabet - 2);
    for (int i = 0; i < 3000; ++i) {
      std::string text = full;
      for (int changes = 1 + i % 3; changes > 0; --changes)
        text[position(random)] = alphabet[letter(random)];
      ExpectCleanResult(text, mesh);
    }
  }
}

}  // namespace
}  // namespace md5stage::md5
