// `md5stage turn` and `md5stage route`: output formats, batch mode, and errors, checked against the
// path core.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/path/route_json.h"
#include "core/path/turn_construction.h"
#include "core/path/turn_path.h"

namespace md5stage {
namespace {

struct CliRun {
  int status;
  std::string out;
  std::string err;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "path_cli_" + std::to_string(::getpid()) + "_" + name;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs `md5stage ARGS` (shell words the test controls), capturing both streams.
CliRun RunCli(const std::string& args, const std::string& stdin_text = "") {
  const std::string out = TempPath("out.txt"), err = TempPath("err.txt"), in = TempPath("in.txt");
  WriteFile(in, stdin_text);
  const std::string command = std::string("'") + MD5STAGE_CLI + "' " + args + " <'" + in + "' >'" +
                              out + "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, ReadFile(out), ReadFile(err)};
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<double> Numbers(const std::string& csv) {
  std::vector<double> values;
  std::istringstream in(csv);
  std::string cell;
  while (std::getline(in, cell, ',')) values.push_back(std::strtod(cell.c_str(), nullptr));
  return values;
}

TEST(TurnCommand, PrintsTypeLengthAndSegments) {
  const CliRun run = RunCli("turn --from 0,0,0 --to 2,2 --radius 2");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 5u) << run.out;
  EXPECT_EQ(lines[0], "type LS");
  EXPECT_EQ(lines[1], "length 3.14159265358979");  // a quarter of the radius-2 circle
  EXPECT_EQ(lines[3].rfind("arc start (0, 0) heading 0 length 3.14159265358979 centre (0, 2)", 0),
            0u)
      << lines[3];
  EXPECT_EQ(lines[4].rfind("line start (2, 2)", 0), 0u) << lines[4];
}

TEST(TurnCommand, JsonOutputMatchesTheCore) {
  const CliRun run = RunCli("turn --from 1,2,0.5 --to -7,3,2.5 --radius 1.5 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const Result<JsonValue> json = ParseJson("stdout", run.out);
  ASSERT_TRUE(json.ok()) << json.error().ToString();
  const TurnPath expected = DubinsPath({{1, 2}, 0.5}, {{-7, 3}, 2.5}, 1.5);
  EXPECT_EQ(json.value().Find("type")->as_string(), TurnPathTypeName(expected.type));
  EXPECT_DOUBLE_EQ(json.value().Find("length")->as_number(), expected.length);
  const JsonArray& segments = json.value().Find("segments")->as_array();
  ASSERT_EQ(segments.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(segments[i].Find("length")->as_number(), expected.segments[i].length);
    const bool arc = expected.segments[i].kind == TurnSegment::Kind::kArc;
    EXPECT_EQ(segments[i].Find("kind")->as_string(), arc ? "arc" : "line");
    if (arc) {
      EXPECT_DOUBLE_EQ(segments[i].Find("sweep")->as_number(), expected.segments[i].sweep);
    }
  }
  const JsonArray& end = json.value().Find("end")->Find("position")->as_array();
  EXPECT_NEAR(end[0].as_number(), -7.0, 1e-9);
  EXPECT_NEAR(end[1].as_number(), 3.0, 1e-9);
}

TEST(TurnCommand, BatchAnswersEveryLine) {
  const std::string input =
      "0,0,0,2,2,,2\n"                   // arc + line: a quarter circle
      "0,0,0,0,0,3.141592653589793,1\n"  // turning round on the spot: 7π/3
      "0,0,0,10,0,0,1\n"                 // straight ahead
      "# a comment\n"
      "\n"
      "0,0,0,5,0,0,-1\n"   // negative radius: no such unit
      "nan,0,0,1,1,,1\n"   // not a position
      "1,2\n"              // malformed
      "3,4,1,3,4,,0.5\n";  // already there
  const CliRun run = RunCli("turn --batch", input);
  EXPECT_EQ(run.status, 1);  // the malformed line
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 7u) << run.out;
  EXPECT_EQ(lines[0], "3.14159265358979,LS");
  const std::vector<double> turn_round = Numbers(lines[1]);
  EXPECT_NEAR(turn_round[0], 7 * kPi / 3, 1e-12);
  EXPECT_TRUE(lines[1].find(",RLR") != std::string::npos ||
              lines[1].find(",LRL") != std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[2].substr(0, 3), "10,");
  EXPECT_EQ(lines[3], "nan,unreachable");
  EXPECT_EQ(lines[4], "nan,unreachable");
  EXPECT_EQ(lines[5], "nan,invalid");
  EXPECT_EQ(lines[6], "0,LS");
  EXPECT_NE(run.err.find("stdin:8: error: expected 7 numbers"), std::string::npos) << run.err;
}

TEST(TurnCommand, BatchAgreesWithTheCoreOnRandomQueries) {
  std::string input;
  std::vector<TurnPath> expected;
  for (int i = 0; i < 50; ++i) {
    const double x0 = std::sin(i) * 40, y0 = std::cos(3 * i) * 40, h0 = i * 0.7;
    const double x1 = std::cos(i * 1.3) * 40, y1 = std::sin(i * 0.4) * 40, h1 = -i * 0.3;
    const double r = 0.5 + (i % 7);
    char line[256];
    if (i % 2) {
      std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", x0, y0, h0,
                    x1, y1, h1, r);
      expected.push_back(DubinsPath({{x0, y0}, h0}, {{x1, y1}, h1}, r));
    } else {
      std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g,%.17g,,%.17g\n", x0, y0, h0, x1, y1,
                    r);
      expected.push_back(ArcLinePath({x0, y0}, h0, r, {x1, y1}));
    }
    input += line;
  }
  const CliRun run = RunCli("turn --batch", input);
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), expected.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NEAR(Numbers(lines[i])[0], expected[i].length, 1e-12 * (1 + expected[i].length));
    EXPECT_EQ(lines[i].substr(lines[i].find(',') + 1), TurnPathTypeName(expected[i].type));
  }
}

TEST(TurnCommand, UsageErrors) {
  EXPECT_EQ(RunCli("turn --from 0,0 --to 1,1 --radius 1").status, 2);  // no heading
  EXPECT_EQ(RunCli("turn --from 0,0,0 --to 1,1").status, 2);           // no radius
  EXPECT_EQ(RunCli("turn --from 0,0,0 --to 1,1 --radius -2").status, 2);
  EXPECT_EQ(RunCli("turn --from 0,0,0 --to 1,x --radius 2").status, 2);
  EXPECT_EQ(RunCli("turn --batch --json").status, 2);
  const CliRun run = RunCli("turn --frm 0,0,0");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("unexpected argument '--frm'"), std::string::npos) << run.err;
}

// ---- turn --explain ----------------------------------------------------------------------------

struct ExplainCase {
  const char* name;
  Pose2 from;
  double radius;
  glm::dvec2 to;
  bool has_heading;
  double heading;
};

const ExplainCase kExplainCases[] = {
    {"straight_ahead", {{0, 0}, 0}, 2, {10, 0}, false, 0},
    {"straight_behind", {{0, 0}, 0}, 2, {-10, 0}, false, 0},
    {"on_the_left", {{1, 2}, 0.7}, 1.5, {-3, 9}, false, 0},
    {"on_the_right", {{0, 0}, 0}, 2, {3, -8}, false, 0},
    {"h_equals_r", {{0, 0}, 0}, 2, {2, 2}, false, 0},
    {"inside_the_left_circle", {{0, 0}, 0}, 2, {1, 1.5}, false, 0},
    {"with_a_final_heading", {{0, 0}, 0}, 1, {3, 1}, true, 1.2},
    {"close_turned_round", {{0, 0}, 0}, 1, {0.5, 0}, true, 3.141592653589793},
};

std::string Tuple(std::initializer_list<double> values) {
  std::string text;
  for (double v : values) {
    char number[40];
    std::snprintf(number, sizeof number, "%.17g", v);
    text += (text.empty() ? "" : ",") + std::string(number);
  }
  return text;
}

std::string ExplainArgs(const ExplainCase& c) {
  const std::string to =
      c.has_heading ? Tuple({c.to.x, c.to.y, c.heading}) : Tuple({c.to.x, c.to.y});
  return "turn --from " + Tuple({c.from.position.x, c.from.position.y, c.from.heading}) + " --to " +
         to + " --radius " + Tuple({c.radius}) + " --explain";
}

TurnConstruction Construct(const ExplainCase& c) {
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = c.from;
  job.radius = c.radius;
  job.destination = c.to;
  job.has_final_heading = c.has_heading;
  job.final_heading = c.heading;
  job.out = &out;
  EXPECT_TRUE(job.Run().ok());
  return out;
}

void ExpectNumber(const JsonValue* value, double expected, const char* what) {
  ASSERT_NE(value, nullptr) << what;
  if (!std::isfinite(expected)) {
    EXPECT_TRUE(value->is_null()) << what;
    return;
  }
  ASSERT_EQ(value->type(), JsonValue::Type::kNumber) << what;
  EXPECT_NEAR(value->as_number(), expected, 1e-9) << what;
}

void ExpectPoint(const JsonValue* value, glm::dvec2 expected, const char* what) {
  ASSERT_NE(value, nullptr) << what;
  if (!std::isfinite(expected.x)) {
    EXPECT_TRUE(value->is_null()) << what;
    return;
  }
  const JsonArray& xy = value->as_array();
  ASSERT_EQ(xy.size(), 2u) << what;
  EXPECT_NEAR(xy[0].as_number(), expected.x, 1e-9) << what;
  EXPECT_NEAR(xy[1].as_number(), expected.y, 1e-9) << what;
}

class TurnExplain : public ::testing::TestWithParam<ExplainCase> {};

TEST_P(TurnExplain, JsonIsTheConstructionJobs) {
  const ExplainCase& c = GetParam();
  const CliRun run = RunCli(ExplainArgs(c) + " --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const Result<JsonValue> json = ParseJson("stdout", run.out);
  ASSERT_TRUE(json.ok()) << json.error().ToString();
  const TurnConstruction expected = Construct(c);
  // The path itself is printed as without --explain.
  const TurnPath path = c.has_heading
                            ? DubinsPath(c.from, {c.to, c.heading}, c.radius)
                            : ArcLinePath(c.from.position, c.from.heading, c.radius, c.to);
  EXPECT_EQ(json.value().Find("type")->as_string(), TurnPathTypeName(path.type));
  ExpectNumber(json.value().Find("length"), path.length, "length");

  const JsonValue* construction = json.value().Find("construction");
  ASSERT_NE(construction, nullptr) << run.out;
  ExpectNumber(construction->Find("radius"), c.radius, "radius");
  ExpectPoint(construction->Find("destination"), c.to, "destination");
  ASSERT_GE(expected.chosen_side, 0);
  EXPECT_EQ(construction->Find("chosen")->as_string(),
            expected.chosen_side == 0 ? "left" : "right");
  const JsonArray& sides = construction->Find("sides")->as_array();
  ASSERT_EQ(sides.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i == 0 ? "left" : "right");
    const ArcLineConstructionSide& e = expected.sides[i];
    const JsonValue& side = sides[i];
    EXPECT_EQ(side.Find("side")->as_string(), i == 0 ? "left" : "right");
    ExpectPoint(side.Find("P"), e.centre, "P");
    ExpectNumber(side.Find("h"), e.h, "h");
    ExpectNumber(side.Find("phi"), e.phi, "phi");
    EXPECT_EQ(side.Find("reachable")->as_bool(), e.reachable);
    ExpectNumber(side.Find("d"), e.d, "d");
    ExpectNumber(side.Find("theta"), e.theta, "theta");
    ExpectPoint(side.Find("Q"), e.leave, "Q");
    ExpectNumber(side.Find("leave_angle"), e.leave_angle, "leave_angle");
    ExpectNumber(side.Find("arc_angle"), e.arc_angle, "arc_angle");
    ExpectNumber(side.Find("arc_length"), e.arc_length, "arc_length");
    ExpectNumber(side.Find("length"), e.length, "length");
    EXPECT_EQ(side.Find("chosen")->as_bool(), e.chosen);
  }

  const JsonValue* dubins = construction->Find("dubins");
  if (!c.has_heading) {
    EXPECT_EQ(dubins, nullptr);
    return;
  }
  ASSERT_NE(dubins, nullptr);
  ExpectNumber(construction->Find("final_heading"), c.heading, "final_heading");
  const JsonArray& words = dubins->as_array();
  ASSERT_EQ(words.size(), expected.dubins.size());
  int shortest = 0;
  for (std::size_t w = 0; w < words.size(); ++w) {
    const DubinsCandidate& e = expected.dubins[w];
    SCOPED_TRACE(TurnPathTypeName(e.type));
    EXPECT_EQ(words[w].Find("type")->as_string(), TurnPathTypeName(e.type));
    EXPECT_EQ(words[w].Find("exists")->as_bool(), e.exists);
    EXPECT_EQ(words[w].Find("shortest")->as_bool(), e.shortest);
    shortest += words[w].Find("shortest")->as_bool();
    const JsonArray& lengths = words[w].Find("segment_lengths")->as_array();
    if (!e.exists) {
      EXPECT_TRUE(words[w].Find("length")->is_null());
      EXPECT_TRUE(lengths.empty());
      continue;
    }
    ExpectNumber(words[w].Find("length"), e.path.length, "length");
    ASSERT_EQ(static_cast<int>(lengths.size()), e.path.segment_count);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      EXPECT_NEAR(lengths[i].as_number(), e.path.segments[i].length, 1e-9);
    }
    if (e.shortest) {
      EXPECT_EQ(words[w].Find("type")->as_string(), TurnPathTypeName(path.type));
      EXPECT_NEAR(words[w].Find("length")->as_number(), path.length, 1e-9);
    }
  }
  EXPECT_EQ(shortest, 1);
}

INSTANTIATE_TEST_SUITE_P(Cases, TurnExplain, ::testing::ValuesIn(kExplainCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(TurnCommand, ExplainTextListsBothSidesAndTheCandidates) {
  const CliRun run = RunCli("turn --from 0,0,0 --to 2,2,1.5 --radius 2 --explain");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 3u + 3u + 3u + 6u) << run.out;  // path, segments, sides, words
  std::size_t at = 0;
  while (at < lines.size() && lines[at].rfind("construction ", 0) != 0) ++at;
  ASSERT_LT(at + 8, lines.size()) << run.out;  // the heading line, two sides, six words
  EXPECT_EQ(lines[at], "construction radius 2 destination (2, 2) chosen left");
  // (2, 2) lies on the left circle (centre (0, 2)): h = r, d = 0, the quarter arc alone.
  EXPECT_EQ(lines[at + 1],
            "side left P (0, 2) h 2 phi 0 reachable d 0 theta 0 Q (2, 2) arc_angle "
            "1.5707963267949 arc_length 3.14159265358979 length 3.14159265358979 chosen");
  EXPECT_EQ(lines[at + 2].rfind("side right P (0, -2) h 4.47213595499958 ", 0), 0u)
      << lines[at + 2];
  for (int w = 0; w < 6; ++w) {
    EXPECT_EQ(lines[at + 3 + w].rfind("dubins ", 0), 0u) << lines[at + 3 + w];
  }
  EXPECT_NE(run.out.find(" shortest\n"), std::string::npos) << run.out;
}

TEST(TurnCommand, ExplainUsage) {
  EXPECT_EQ(RunCli("turn --batch --explain").status, 2);
  const CliRun obstacles =
      RunCli("turn --from 0,0,0 --to 5,5 --radius 1 --explain --obstacles none.json");
  EXPECT_EQ(obstacles.status, 2);
  EXPECT_NE(obstacles.err.find("--explain takes no --obstacles"), std::string::npos)
      << obstacles.err;
  // The usage rows name the option, in the command's own usage and in the command list.
  const CliRun usage = RunCli("turn");
  EXPECT_EQ(usage.status, 2);
  EXPECT_NE(usage.err.find("--radius R --explain [--json]"), std::string::npos) << usage.err;
  const CliRun list = RunCli("--help");
  EXPECT_NE((list.out + list.err).find("--explain"), std::string::npos) << list.out << list.err;
  // A radius the construction refuses is reported with the field's name.
  const CliRun huge = RunCli("turn --from 0,0,0 --to 5,5 --radius 1e300 --explain");
  EXPECT_EQ(huge.status, 1);
  EXPECT_NE(huge.err.find("turn construction: radius: expected"), std::string::npos) << huge.err;
}

const char* kRouteJson = R"({"segments":[
  {"line":[[0,0],[100,0]]},
  {"bezier":[[100,0],[155.22847498307936,0],[200,44.771525016920645],[200,100]]},
  {"line":[[200,100],[200,200]]},
  {"line":[[200,200],[250,200]]}]})";

TEST(RouteCommand, PrintsLengthSamplesAndTightStretches) {
  const std::string file = TempPath("route.json");
  WriteFile(file, kRouteJson);
  const CliRun run = RunCli("route '" + file + "' --samples 8 --radius 120");
  ASSERT_EQ(run.status, 0) << run.err;
  const Result<Route> route = ReadRouteJson(file, kRouteJson);
  ASSERT_TRUE(route.ok());
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 2u + 9u + 2u) << run.out;
  EXPECT_EQ(lines[0].rfind("length ", 0), 0u);
  EXPECT_NEAR(std::strtod(lines[0].c_str() + 7, nullptr), route.value().length(), 1e-9);
  EXPECT_EQ(lines[1], "distance,x,y,heading");
  for (int k = 0; k <= 8; ++k) {
    const std::vector<double> v = Numbers(lines[2 + k]);
    ASSERT_EQ(v.size(), 4u) << lines[2 + k];
    const double distance = route.value().length() * k / 8;
    const Pose2 pose = route.value().Sample(distance);
    EXPECT_NEAR(v[0], distance, 1e-9);
    EXPECT_NEAR(v[1], pose.position.x, 1e-9);
    EXPECT_NEAR(v[2], pose.position.y, 1e-9);
    EXPECT_NEAR(v[3], pose.heading, 1e-12);
  }
  // The quarter circle (radius ~100) is tighter than 120; the corner at (200, 200) is a kink.
  EXPECT_EQ(lines[11], "tighter than radius 120: 2");
  EXPECT_EQ(lines[12], "start,end,min_radius,min_radius_at");
  const std::vector<TightStretch> expected = route.value().FindTightStretches(120);
  ASSERT_EQ(expected.size(), 2u);
  ASSERT_EQ(lines.size(), 15u);
  for (int i = 0; i < 2; ++i) {
    const std::vector<double> v = Numbers(lines[13 + i]);
    EXPECT_NEAR(v[0], expected[i].start_distance, 1e-9);
    EXPECT_NEAR(v[1], expected[i].end_distance, 1e-9);
    EXPECT_NEAR(v[2], expected[i].min_radius, 1e-9);
  }
  EXPECT_EQ(Numbers(lines[14])[2], 0.0);  // the kink
}

TEST(RouteCommand, DefaultsToTenSamplesWithoutStretches) {
  const std::string file = TempPath("route_default.json");
  WriteFile(file, R"({"segments":[{"line":[[0,0],[10,0]]}]})");
  const CliRun run = RunCli("route '" + file + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 13u) << run.out;
  EXPECT_EQ(lines[0], "length 10");
  EXPECT_EQ(lines[7], "5,5,0,0");
  EXPECT_EQ(lines[12], "10,10,0,0");
}

TEST(RouteCommand, ReportsFileErrorsWithTheirLocation) {
  const std::string file = TempPath("route_bad.json");
  WriteFile(file, "{\"segments\": [{\"line\": [[0,0],[1,0]]},\n {\"line\": [[2,0],[3,0]]}]}");
  const CliRun bad = RunCli("route '" + file + "'");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find(file + ":2:12: error: segments[1].line[0]: expected the end of "
                                "segments[0] [1, 0], found [2, 0]"),
            std::string::npos)
      << bad.err;
  EXPECT_TRUE(bad.out.empty());
  const CliRun missing = RunCli("route '" + TempPath("no_such_route.json") + "'");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos);
  EXPECT_EQ(RunCli("route").status, 2);
  EXPECT_EQ(RunCli("route '" + file + "' --samples -1").status, 2);
  EXPECT_EQ(RunCli("route '" + file + "' --radius x").status, 2);
}

}  // namespace
}  // namespace md5stage
