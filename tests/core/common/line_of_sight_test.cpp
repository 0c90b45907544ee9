#include "core/common/line_of_sight.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace md5stage {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

struct ReachCase {
  const char* name;
  LineOfSight sight;
  float reach;
};

TEST(LineOfSightTest, ReachIsTheLengthBeforeTheSurface) {
  const ReachCase cases[] = {
      {"no surface", {{0, 0, 0}, {3, 4, 0}, 0.0f}, 5.0f},
      {"surface depth taken off", {{0, 0, 0}, {3, 4, 0}, 1.5f}, 3.5f},
      {"surface deeper than the sight", {{1, 1, 1}, {1, 1, 3}, 5.0f}, -3.0f},
      {"eye on the point", {{2, 2, 2}, {2, 2, 2}, 0.0f}, 0.0f},
  };
  for (const ReachCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(c.sight.Validate("job").ok());
    EXPECT_FLOAT_EQ(c.sight.Reach(), c.reach);
  }
}

struct BoxCase {
  const char* name;
  LineOfSight sight;
  glm::vec3 lo, hi;
  bool meets;
};

TEST(LineOfSightTest, CanMeetBoxOnlyOverTheHidingPart) {
  const glm::vec3 lo(-1, -1, -1), hi(1, 1, 1);
  const BoxCase cases[] = {
      {"through the box", {{-5, 0, 0}, {5, 0, 0}, 0.0f}, lo, hi, true},
      {"passes beside it", {{-5, 2, 0}, {5, 2, 0}, 0.0f}, lo, hi, false},
      {"ends before it", {{-5, 0, 0}, {-2, 0, 0}, 0.0f}, lo, hi, false},
      {"starts beyond it", {{2, 0, 0}, {5, 0, 0}, 0.0f}, lo, hi, false},
      {"the point inside", {{-5, 0, 0}, {0, 0, 0}, 0.0f}, lo, hi, true},
      {"the surface depth stops it short", {{-5, 0, 0}, {-0.5f, 0, 0}, 4.0f}, lo, hi, false},
      {"the surface depth leaves it inside", {{-5, 0, 0}, {0, 0, 0}, 0.5f}, lo, hi, true},
      {"diagonal through a corner", {{-3, -3, -3}, {3, 3, 3}, 0.0f}, lo, hi, true},
      {"diagonal missing a corner", {{-3, -1, 0}, {0, 3, 0}, 0.0f}, lo, hi, false},
      {"parallel to a face, outside", {{-5, 0, 1.5f}, {5, 0, 1.5f}, 0.0f}, lo, hi, false},
      {"along a face", {{-5, 1, 0}, {5, 1, 0}, 0.0f}, lo, hi, true},
      {"eye inside", {{0, 0, 0}, {0, 9, 0}, 0.0f}, lo, hi, true},
      {"no reach", {{-5, 0, 0}, {5, 0, 0}, 10.0f}, lo, hi, false},
  };
  for (const BoxCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.sight.CanMeetBox(c.lo, c.hi), c.meets);
  }
}

struct ValidityCase {
  const char* name;
  LineOfSight sight;
  const char* field;  // empty: valid
};

TEST(LineOfSightTest, ValidityTableNamesTheField) {
  const ValidityCase cases[] = {
      {"valid", {{0, 0, 0}, {1, 0, 0}, 0.5f}, ""},
      {"from not a number", {{kNaN, 0, 0}, {1, 0, 0}, 0.0f}, "job: from:"},
      {"from infinite", {{0, -kInfinity, 0}, {1, 0, 0}, 0.0f}, "job: from:"},
      {"to not a number", {{0, 0, 0}, {1, 0, kNaN}, 0.0f}, "job: to:"},
      {"surface depth negative", {{0, 0, 0}, {1, 0, 0}, -0.1f}, "job: surface_depth:"},
      {"surface depth not a number", {{0, 0, 0}, {1, 0, 0}, kNaN}, "job: surface_depth:"},
      {"surface depth infinite", {{0, 0, 0}, {1, 0, 0}, kInfinity}, "job: surface_depth:"},
  };
  for (const ValidityCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Status status = c.sight.Validate("job");
    if (std::string(c.field).empty()) {
      EXPECT_TRUE(status.ok());
    } else {
      ASSERT_FALSE(status.ok());
      EXPECT_EQ(status.error().message.rfind(c.field, 0), 0u) << status.error().message;
    }
  }
}

}  // namespace
}  // namespace md5stage
