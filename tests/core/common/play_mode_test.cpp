#include "core/common/play_mode.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace md5stage {
namespace {

// The viewer's combo boxes and the fuzzers cast indices to the enum.
static_assert(static_cast<int>(PlayMode::kLoop) == 0);
static_assert(static_cast<int>(PlayMode::kOnce) == 1);
static_assert(static_cast<int>(PlayMode::kPingPong) == 2);

struct NameCase {
  PlayMode mode;
  const char* name;
};

TEST(PlayModeTest, NamesRoundTrip) {
  const NameCase cases[] = {
      {PlayMode::kLoop, "loop"},
      {PlayMode::kOnce, "once"},
      {PlayMode::kPingPong, "pingpong"},
  };
  for (const NameCase& c : cases) {
    EXPECT_STREQ(PlayModeName(c.mode), c.name);
    PlayMode parsed = c.mode == PlayMode::kLoop ? PlayMode::kOnce : PlayMode::kLoop;
    ASSERT_TRUE(ParsePlayMode(c.name, &parsed)) << c.name;
    EXPECT_EQ(parsed, c.mode) << c.name;
  }
}

TEST(PlayModeTest, RejectsAnythingButTheExactNames) {
  const std::string_view once_and_nul("once\0", 5);
  const std::string_view rejected[] = {"bogus",    "",          "Loop",      "LOOP",  "ONCE",
                                       "PingPong", "ping-pong", "ping_pong", " loop", "loop ",
                                       "loo",      "loops",     once_and_nul};
  for (std::string_view name : rejected) {
    PlayMode mode = PlayMode::kPingPong;
    EXPECT_FALSE(ParsePlayMode(name, &mode)) << "\"" << std::string(name) << "\"";
    EXPECT_EQ(mode, PlayMode::kPingPong) << "unchanged on failure: \"" << std::string(name) << "\"";
  }
}

TEST(PlayModeTest, NullOutputAndOutOfRangeValues) {
  EXPECT_FALSE(ParsePlayMode("loop", nullptr));
  EXPECT_STREQ(PlayModeName(static_cast<PlayMode>(7)), "loop");
}

}  // namespace
}  // namespace md5stage
