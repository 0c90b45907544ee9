// The one way a GoogleTest test leaves out checks on ../shared (real files from other exporters and
// reference tables, next to the repository) or on a tool they cross-check with (assimp): on a
// developer machine without it the test is skipped with a plain message; under CI=true it must be
// there, so its absence fails.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace md5stage::testing {

// True when the environment variable CI is "true" (as CI runners and .ci/run set it).
inline bool SharedDataRequired() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0;
}

}  // namespace md5stage::testing

// In a TEST body: returns from it unless `present`, with a skip (or, under CI=true, a failure).
#define MD5STAGE_SKIP_WITHOUT_SHARED(present)                          \
  if (present) {                                                       \
  } else if (::md5stage::testing::SharedDataRequired())                \
    FAIL() << "../shared not found, and under CI=true it is required"; \
  else                                                                 \
    GTEST_SKIP() << "../shared not found: skipped"

// The same for a program a test runs (`what` says which and where it comes from).
#define MD5STAGE_SKIP_WITHOUT_TOOL(present, what)                     \
  if (present) {                                                      \
  } else if (::md5stage::testing::SharedDataRequired())               \
    FAIL() << what << " not found, and under CI=true it is required"; \
  else                                                                \
    GTEST_SKIP() << what << " not found: skipped"
