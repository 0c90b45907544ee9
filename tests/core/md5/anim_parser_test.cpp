// .md5anim parsing: structures, partial flags, and every validation error with its location.
#include <gtest/gtest.h>

#include <string>

#include "core/md5/md5_parser.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

using testing::kAnimFixture;
using testing::Replace;

TEST(AnimParser, ReadsEveryStructure) {
  Result<AnimFile> result = ParseMd5Anim("a.md5anim", kAnimFixture);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  const AnimFile& file = result.value();
  EXPECT_EQ(file.version, 10);
  EXPECT_EQ(file.frame_count, 3);
  EXPECT_EQ(file.joint_count, 2);
  EXPECT_EQ(file.joint_count_line, 5);
  EXPECT_EQ(file.frame_rate, 10.0f);
  EXPECT_EQ(file.animated_component_count, 4);
  EXPECT_FLOAT_EQ(file.duration(), 0.2f);
  ASSERT_EQ(file.hierarchy.size(), 2u);
  EXPECT_EQ(file.hierarchy[1].name, "child");
  EXPECT_EQ(file.hierarchy[1].parent, 0);
  EXPECT_EQ(file.hierarchy[1].parent_name, "root");
  EXPECT_EQ(file.hierarchy[1].flags, kAnimQx | kAnimQz);
  EXPECT_EQ(file.hierarchy[1].start_index, 2);
  EXPECT_EQ(file.hierarchy[1].line, 11);
  ASSERT_EQ(file.bounds.size(), 3u);
  EXPECT_EQ(file.bounds[2].max, glm::vec3(3, 3, 3));
  ASSERT_EQ(file.baseframe.size(), 2u);
  EXPECT_EQ(file.baseframe[1].position, glm::vec3(0, 0, 1));
  EXPECT_EQ(file.baseframe[1].orientation_xyz, glm::vec3(0, 0.6f, 0));
  ASSERT_EQ(file.frame_components.size(), 12u);
  EXPECT_EQ(file.frame(1)[1], 2.0f);
  EXPECT_EQ(file.frame(2)[3], 0.6f);
  EXPECT_TRUE(file.warnings.empty());
}

TEST(AnimParser, HeaderCountsMayComeInAnyOrderAndFrameRateMayBeFractional) {
  const std::string text = Replace(Replace(kAnimFixture, "numFrames 3\nnumJoints 2\nframeRate 10\n",
                                           "frameRate 12.5\nnumJoints 2\nnumFrames 3\n"),
                                   "commandline \"\"\n", "");
  Result<AnimFile> result = ParseMd5Anim("a.md5anim", text);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result.value().frame_rate, 12.5f);
  EXPECT_FLOAT_EQ(result.value().duration(), 2.0f / 12.5f);
}

TEST(AnimParser, SingleFrameHasZeroDuration) {
  const std::string text =
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 1 2 3 ) ( 0 0 0 )\n}\nframe 0 {\n}\n";
  Result<AnimFile> result = ParseMd5Anim("one.md5anim", text);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result.value().duration(), 0.0f);
}

struct ErrorCase {
  const char* name;
  const char* from;
  const char* to;
  int line;
  int column;
  const char* message;
};

class AnimErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(AnimErrors, ReportMessageAndLocation) {
  const ErrorCase& c = GetParam();
  Md5Limits limits;
  limits.allow_multiple_roots = false;
  Result<AnimFile> result = ParseMd5Anim("a.md5anim", Replace(kAnimFixture, c.from, c.to), limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().file, "a.md5anim");
  EXPECT_EQ(result.error().message, c.message);
  EXPECT_EQ(result.error().line, c.line);
  EXPECT_EQ(result.error().column, c.column);
}

INSTANTIATE_TEST_SUITE_P(
    Table, AnimErrors,
    ::testing::Values(
        ErrorCase{"WrongVersion", "MD5Version 10", "MD5Version 6", 1, 12,
                  "expected MD5Version 10, found '6'"},
        ErrorCase{"MissingFrameRate", "frameRate 10\n", "", 8, 1,
                  "expected 'frameRate', found 'hierarchy'"},
        ErrorCase{"ZeroFrameRate", "frameRate 10", "frameRate 0", 6, 11,
                  "expected a frameRate above 0 and at most 10000, found '0'"},
        ErrorCase{"NegativeFrameRate", "frameRate 10", "frameRate -24", 6, 11,
                  "expected a frameRate above 0 and at most 10000, found '-24'"},
        ErrorCase{"NoFrames", "numFrames 3", "numFrames 0", 4, 11,
                  "expected numFrames of at least 1, found '0'"},
        ErrorCase{"FlagsAbove63", "\"child\" 0 40", "\"child\" 0 64", 11, 12,
                  "expected flags from 0 to 63, found '64'"},
        ErrorCase{"ComponentsOutOfRange", "\"child\" 0 40 2", "\"child\" 0 40 3", 11, 15,
                  "expected a startIndex from 0 to 2 (the joint's 2 animated components must fit "
                  "in numAnimatedComponents 4), found '3'"},
        ErrorCase{"NegativeStartIndex", "\"root\" -1 3 0", "\"root\" -1 3 -1", 10, 14,
                  "expected a startIndex from 0 to 2 (the joint's 2 animated components must fit "
                  "in numAnimatedComponents 4), found '-1'"},
        ErrorCase{
            "ParentAfterChild", "\"child\" 0", "\"child\" 1", 11, 10,
            "expected a parent joint index below 1 (parents come before children), found '1'"},
        ErrorCase{"SecondRoot", "\"child\" 0", "\"child\" -1", 11, 10,
                  "expected one root joint (\"root\" at line 10 is the root), found a second "
                  "root \"child\""},
        ErrorCase{"MoreJointsDeclared", "numJoints 2", "numJoints 3", 12, 1,
                  "expected joint 2's quoted name (numJoints is 3), found '}'"},
        ErrorCase{"FewerJointsDeclared", "numJoints 2", "numJoints 1", 11, 2,
                  "expected '}' (numJoints is 1), found \"child\""},
        ErrorCase{"FewerBounds", "\t( -1 -1 -1 ) ( 3 3 3 )\n", "", 17, 1,
                  "expected frame 2's bounds '(' (numFrames is 3), found '}'"},
        ErrorCase{"MoreBounds", "numFrames 3", "numFrames 2", 17, 2,
                  "expected '}' closing bounds (numFrames is 2), found '('"},
        ErrorCase{"FewerBaseframeJoints", "\t( 0 0 1 ) ( 0 0.6 0 )\n", "", 22, 1,
                  "expected joint 1's baseframe '(' (numJoints is 2), found '}'"},
        ErrorCase{"FewerComponentsInAFrame", "\t1 2 0.5 0\n", "\t1 2 0.5\n", 30, 1,
                  "expected a frame component (numAnimatedComponents is 4), found '}'"},
        ErrorCase{"MoreComponentsInAFrame", "\t1 2 0.5 0\n", "\t1 2 0.5 0 7\n", 29, 12,
                  "expected '}' closing the frame (numAnimatedComponents is 4), found '7'"},
        ErrorCase{"FrameOutOfOrder", "frame 1", "frame 2", 28, 7,
                  "expected frame index 1, found '2'"},
        ErrorCase{"MissingFrame", "frame 2 {\n\t2 4 0 0.6\n}\n", "", 31, 1,
                  "expected frame 2 of 3 (numFrames), found end of file"},
        ErrorCase{"NaNComponent", "\t2 4 0 0.6", "\t2 nan 0 0.6", 32, 4,
                  "expected a frame component (numAnimatedComponents is 4), found 'nan'"},
        ErrorCase{"InfBaseframe", "( 0 0 1 )", "( 0 0 1e40 )", 22, 8,
                  "expected a number within float range, found '1e40'"},
        ErrorCase{"HugeFrameCount", "numFrames 3", "numFrames 99999999", 4, 11,
                  "expected numFrames of at most 1048576 (the loader's limit), found '99999999'"},
        ErrorCase{"HugeComponentCount", "numAnimatedComponents 4", "numAnimatedComponents 4000000",
                  7, 23,
                  "expected numAnimatedComponents of at most 393210 (the loader's limit), found "
                  "'4000000'"},
        ErrorCase{"FramesTimesComponentsBeyondFile", "numFrames 3\n", "numFrames 8\n", 4, 11,
                  "expected numFrames 8 and numAnimatedComponents 4 that the file can hold (at "
                  "least 292 bytes), found 256 bytes left"},
        ErrorCase{"TrailingText", "\t2 4 0 0.6\n}\n", "\t2 4 0 0.6\n}\nframe 3 {\n}\n", 34, 1,
                  "expected end of file (numFrames is 3), found 'frame'"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace md5stage::md5
