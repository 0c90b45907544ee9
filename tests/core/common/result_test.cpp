#include "core/common/result.h"

#include <gtest/gtest.h>

namespace md5stage {
namespace {

struct FormatCase {
  Diagnostic diagnostic;
  const char* expected;
};

TEST(DiagnosticTest, FormatsKnownParts) {
  const FormatCase cases[] = {
      {MakeError("a.md5mesh", 3, 7, "expected '{', found 'x'"),
       "a.md5mesh:3:7: error: expected '{', found 'x'"},
      {MakeError("a.md5mesh", 3, 0, "m"), "a.md5mesh:3: error: m"},
      {MakeError("a.md5mesh", 0, 0, "m"), "a.md5mesh: error: m"},
      {MakeError("", 0, 0, "m"), "error: m"},
      {MakeWarning("b.md5anim", 1, 1, "w"), "b.md5anim:1:1: warning: w"},
  };
  for (const FormatCase& c : cases) EXPECT_EQ(c.diagnostic.ToString(), c.expected);
}

TEST(ResultTest, HoldsValueOrError) {
  Result<int> good(5);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good.value(), 5);
  Result<int> bad(MakeError("f", 1, 2, "bad"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().line, 1);
  Status fine;
  EXPECT_TRUE(fine.ok());
  Status broken(MakeError("f", 1, 2, "bad"));
  EXPECT_FALSE(broken.ok());
}

}  // namespace
}  // namespace md5stage
