// .md5camera parsing: the structures, and every validation error (hostile input included) with
// its location.
#include <gtest/gtest.h>

#include <string>

#include "core/md5/md5_camera.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

using testing::Replace;

// 5 frames at 10 fps with a cut at frame 2: the intervals 0-1, 1-2, then 3-4 play (0.3 s).
const char kCamera[] =
    "MD5Version 10\n"
    "commandline \"-range 1 5\"\n"
    "\n"
    "numFrames 5\n"
    "frameRate 10\n"
    "numCuts 1\n"
    "\n"
    "cuts {\n"
    "\t2\n"
    "}\n"
    "\n"
    "camera {\n"
    "\t( 0 0 10 ) ( 0 0 0 ) 90\n"
    "\t( 10 0 10 ) ( 0 0 0 ) 80\n"
    "\t( 20 0 10 ) ( 0 0 0 ) 70\n"
    "\t( -50 0 10 ) ( 0 0 -0.7071068 ) 60\n"
    "\t( -50 10 10 ) ( 0 0 -0.7071068 ) 60\n"
    "}\n";

TEST(CameraParser, ReadsEveryStructure) {
  Result<CameraFile> result = ParseMd5Camera("a.md5camera", kCamera);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  const CameraFile& file = result.value();
  EXPECT_EQ(file.version, 10);
  EXPECT_EQ(file.commandline, "-range 1 5");
  EXPECT_EQ(file.frame_rate, 10.0f);
  ASSERT_EQ(file.cuts.size(), 1u);
  EXPECT_EQ(file.cuts[0], 2);
  ASSERT_EQ(file.frames.size(), 5u);
  EXPECT_EQ(file.frames[3].position, glm::vec3(-50, 0, 10));
  EXPECT_EQ(file.frames[3].orientation_xyz, glm::vec3(0, 0, -0.7071068f));
  EXPECT_EQ(file.frames[1].fov_x_degrees, 80.0f);
  EXPECT_EQ(file.played_intervals(), 3);
  EXPECT_DOUBLE_EQ(file.duration(), 0.3);
}

TEST(CameraParser, CommandlineIsOptionalAndCommentsAreBlanks) {
  const std::string text = Replace(Replace(kCamera, "commandline \"-range 1 5\"\n", ""), "cuts {",
                                   "// shots\ncuts /* one */ {");
  Result<CameraFile> result = ParseMd5Camera("a.md5camera", text);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result.value().commandline, "");
}

TEST(CameraParser, OneFrameHoldsStillAndACutAtTheLastFrameCutsNothing) {
  Result<CameraFile> one = ParseMd5Camera("one.md5camera",
                                          "MD5Version 10\nnumFrames 1\nframeRate 24\nnumCuts "
                                          "0\ncuts {\n}\ncamera {\n(0 0 0)(0 0 0)90\n}\n");
  ASSERT_TRUE(one.ok()) << one.error().ToString();
  EXPECT_EQ(one.value().played_intervals(), 0);
  EXPECT_EQ(one.value().duration(), 0.0);
  Result<CameraFile> last = ParseMd5Camera("a.md5camera", Replace(kCamera, "\t2\n", "\t4\n"));
  ASSERT_TRUE(last.ok()) << last.error().ToString();
  EXPECT_EQ(last.value().played_intervals(), 4);  // Doom 3 never reaches a cut on the last frame
}

TEST(CameraParser, NameTest) {
  EXPECT_TRUE(IsMd5CameraName("a/b.md5camera"));
  EXPECT_TRUE(IsMd5CameraName("INTRO.MD5CAMERA"));
  EXPECT_FALSE(IsMd5CameraName("md5camera"));
  EXPECT_FALSE(IsMd5CameraName("a.md5anim"));
}

struct ErrorCase {
  const char* name;
  const char* from;
  const char* to;
  int line;
  int column;
  const char* message;
};

class CameraErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(CameraErrors, ReportMessageAndLocation) {
  const ErrorCase& c = GetParam();
  Result<CameraFile> result = ParseMd5Camera("a.md5camera", Replace(kCamera, c.from, c.to));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().file, "a.md5camera");
  EXPECT_EQ(result.error().message, c.message);
  EXPECT_EQ(result.error().line, c.line);
  EXPECT_EQ(result.error().column, c.column);
}

INSTANTIATE_TEST_SUITE_P(
    Table, CameraErrors,
    ::testing::Values(
        ErrorCase{"WrongVersion", "MD5Version 10", "MD5Version 11", 1, 12,
                  "expected MD5Version 10, found '11'"},
        ErrorCase{"NoFrames", "numFrames 5", "numFrames 0", 4, 11,
                  "expected numFrames of at least 1, found '0'"},
        ErrorCase{"HugeFrameCount", "numFrames 5", "numFrames 99999999999", 4, 11,
                  "expected numFrames of at most 1048576 (the loader's limit), found "
                  "'99999999999'"},
        ErrorCase{"FrameCountOf2Pow31", "numFrames 5", "numFrames 2147483648", 4, 11,
                  "expected numFrames of at most 1048576 (the loader's limit), found "
                  "'2147483648'"},
        ErrorCase{"FrameCountOfIntMax", "numFrames 5", "numFrames 2147483647", 4, 11,
                  "expected numFrames of at most 1048576 (the loader's limit), found "
                  "'2147483647'"},
        ErrorCase{"FrameCountBeyondTheBytes", "numFrames 5", "numFrames 500", 4, 11,
                  "expected numFrames of at most 13 (what the 198 bytes left in the file can "
                  "hold), found '500'"},
        ErrorCase{"MissingFrameRate", "frameRate 10\n", "", 5, 1,
                  "expected 'frameRate', found 'numCuts'"},
        ErrorCase{"ZeroFrameRate", "frameRate 10", "frameRate 0", 5, 11,
                  "expected a frameRate above 0 and at most 10000, found '0'"},
        ErrorCase{"InfiniteFrameRate", "frameRate 10", "frameRate 1e40", 5, 11,
                  "expected a number after frameRate within float range, found '1e40'"},
        ErrorCase{"NegativeCuts", "numCuts 1", "numCuts -1", 6, 9,
                  "expected numCuts of at least 0, found '-1'"},
        ErrorCase{"MoreCutsThanFrames", "numCuts 1", "numCuts 9", 6, 9,
                  "expected numCuts of at most 4 (numFrames - 1), found '9'"},
        ErrorCase{"CutAtFrameZero", "\t2\n", "\t0\n", 9, 2,
                  "expected a cut frame from 1 to 4, found '0'"},
        ErrorCase{"CutPastTheLastFrame", "\t2\n", "\t5\n", 9, 2,
                  "expected a cut frame from 1 to 4, found '5'"},
        ErrorCase{"CutsNotIncreasing", "numCuts 1\n\ncuts {\n\t2\n", "numCuts 2\n\ncuts {\n\t2 2\n",
                  9, 4, "expected a cut frame (cuts increase) from 3 to 4, found '2'"},
        ErrorCase{"FewerCutsThanCounted", "numCuts 1", "numCuts 2", 10, 1,
                  "expected cut 1 (numCuts is 2), found '}'"},
        ErrorCase{"MoreCutsThanCounted", "\t2\n", "\t2 3\n", 9, 4,
                  "expected '}' closing cuts (numCuts is 1), found '3'"},
        ErrorCase{"FewerFrames", "\t( -50 10 10 ) ( 0 0 -0.7071068 ) 60\n", "", 17, 1,
                  "expected frame 4's position '(' (numFrames is 5), found '}'"},
        ErrorCase{"MoreFrames", "\t( -50 10 10 ) ( 0 0 -0.7071068 ) 60\n",
                  "\t( -50 10 10 ) ( 0 0 -0.7071068 ) 60\n\t( 1 2 3 ) ( 0 0 0 ) 60\n", 18, 2,
                  "expected '}' closing camera (numFrames is 5), found '('"},
        ErrorCase{"TwoOrientationComponents", "( 0 0 -0.7071068 ) 60\n}", "( 0 -0.7071068 ) 60\n}",
                  17, 31, "expected an orientation, found ')'"},
        ErrorCase{"NanPosition", "( 10 0 10 )", "( nan 0 10 )", 14, 4,
                  "expected a position, found 'nan'"},
        ErrorCase{"ZeroFov", "( 10 0 10 ) ( 0 0 0 ) 80", "( 10 0 10 ) ( 0 0 0 ) 0", 14, 24,
                  "expected a field of view above 0 and below 180 degrees, found '0'"},
        ErrorCase{"StraightFov", "( 10 0 10 ) ( 0 0 0 ) 80", "( 10 0 10 ) ( 0 0 0 ) 180", 14, 24,
                  "expected a field of view above 0 and below 180 degrees, found '180'"},
        ErrorCase{"MissingFov", "( 10 0 10 ) ( 0 0 0 ) 80", "( 10 0 10 ) ( 0 0 0 )", 15, 2,
                  "expected a field of view, found '('"},
        ErrorCase{"TrailingGarbage", "}\n", "}\nextra\n", 11, 1,
                  "expected 'camera', found 'extra'"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return info.param.name; });

TEST(CameraParser, TruncatedAtEveryByteFailsWithAMessageAndNeverCrashes) {
  const std::string text = kCamera;
  for (std::size_t size = 0; size + 1 < text.size(); ++size) {
    Result<CameraFile> result = ParseMd5Camera("a.md5camera", text.substr(0, size));
    ASSERT_FALSE(result.ok()) << size;
    EXPECT_EQ(result.error().file, "a.md5camera");
    EXPECT_NE(result.error().message.find("expected"), std::string::npos) << size;
  }
}

TEST(CameraParser, FileSizeLimit) {
  Md5Limits limits;
  limits.max_file_bytes = 64;
  Result<CameraFile> result = ParseMd5Camera("a.md5camera", kCamera, limits);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("at most 64 bytes"), std::string::npos);
}

TEST(CameraParser, HugeFrameCountWithinTheLimitsIsRefusedBeforeReserving) {
  // A count the header alone cannot disprove: refused by the bytes left, not after a resize.
  const std::string text =
      "MD5Version 10\nnumFrames 1000000\nframeRate 24\nnumCuts 0\ncuts {\n}\ncamera {\n}\n";
  Result<CameraFile> result = ParseMd5Camera("big.md5camera", text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().line, 2);
  EXPECT_NE(result.error().message.find("what the"), std::string::npos);
}

}  // namespace
}  // namespace md5stage::md5
