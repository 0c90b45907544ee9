// `md5stage info x.md5camera [--json]`: frames, rate, cuts, duration, and located errors.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_util.h"

namespace md5stage::testing {
namespace {

const char kCamera[] =
    "MD5Version 10\ncommandline \"\"\nnumFrames 5\nframeRate 10\nnumCuts 1\ncuts {\n2\n}\n"
    "camera {\n( 0 0 10 ) ( 0 0 0 ) 90\n( 10 0 10 ) ( 0 0 0 ) 80\n( 20 0 10 ) ( 0 0 0 ) 70\n"
    "( -50 0 10 ) ( 0 0 0 ) 60\n( -50 10 10 ) ( 0 0 0 ) 60\n}\n";

TEST(CameraInfo, PrintsFramesRateCutsAndDuration) {
  const std::string path = WriteTempFile("info.md5camera", kCamera);
  const CliRun run = RunCli("info '" + path + "'");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, path + ": camera, 5 frames at 10 fps, 1 cuts (at frame 2), 0.3 s\n");
  EXPECT_EQ(run.err, "");
}

TEST(CameraInfo, Json) {
  const std::string path = WriteTempFile("json.md5camera", kCamera);
  const CliRun run = RunCli("info --json '" + path + "'");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "{\"file\":\"" + path +
                         "\",\"kind\":\"camera\",\"frames\":5,\"frame_rate\":10,\"cuts\":[2],"
                         "\"shots\":2,\"duration\":0.3}\n");
}

TEST(CameraInfo, CutOutOfRangeExitsOneWithALocatedError) {
  std::string text = kCamera;
  text.replace(text.find("{\n2\n}"), 5, "{\n7\n}");
  const std::string path = WriteTempFile("bad.md5camera", text);
  const CliRun run = RunCli("info '" + path + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, path + ":7:1: error: expected a cut frame from 1 to 4, found '7'\n");
}

}  // namespace
}  // namespace md5stage::testing
