#include "core/anim/animation_bounds.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/md5/md5_parser.h"

namespace md5stage::anim {
namespace {

// One root joint walking +x by 10 per frame; the bounds move with it.
const char* kWalkingBox = R"(MD5Version 10
commandline ""
numFrames 3
numJoints 1
frameRate 10
numAnimatedComponents 1
hierarchy {
  "root" -1 1 0
}
bounds {
  ( -1 -2 0 ) ( 1 2 5 )
  ( 9 -2 0 ) ( 11 2 5 )
  ( 19 -2 0 ) ( 21 2 5 )
}
baseframe {
  ( 0 0 0 ) ( 0 0 0 )
}
frame 0 {
  0
}
frame 1 {
  10
}
frame 2 {
  20
}
)";

Animation Load(const char* text) {
  auto file = md5::ParseMd5Anim("walk.md5anim", text);
  EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().ToString());
  return Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(std::move(file).value()));
}

TEST(AnimationBoundsTest, UnionKeepsOrStripsRootMotion) {
  const Animation animation = Load(kWalkingBox);
  struct Case {
    RootMotion motion;
    glm::vec3 min, max;
  };
  const Case cases[] = {
      {RootMotion::kKeep, {-1, -2, 0}, {21, 2, 5}},
      {RootMotion::kStripHorizontal, {-1, -2, 0}, {1, 2, 5}},
  };
  for (const Case& c : cases) {
    const Bounds3 box = UnionOfFrameBounds(animation, c.motion);
    ASSERT_TRUE(box.valid);
    for (int i = 0; i < 3; ++i) {
      EXPECT_FLOAT_EQ(box.min[i], c.min[i]) << i;
      EXPECT_FLOAT_EQ(box.max[i], c.max[i]) << i;
    }
  }
}

}  // namespace
}  // namespace md5stage::anim
