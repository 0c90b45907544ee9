// Route files: reading (with located errors), writing, and the round trip.
#include "core/path/route_json.h"

#include <gtest/gtest.h>

#include <string>

namespace md5stage {
namespace {

TEST(RouteJson, ReadsLinesBeziersAndTheClosedFlag) {
  const Result<Route> route = ReadRouteJson("r.json",
                                            R"({"name": "ignored", "segments": [
            {"line": [[0, 0], [100, 0]]},
            {"bezier": [[100, 0], [155, 0], [200, 45], [200, 100]]},
            {"line": [[200, 100], [0, 0]]}],
          "closed": true})");
  ASSERT_TRUE(route.ok()) << route.error().ToString();
  const Route& r = route.value();
  ASSERT_EQ(r.segments().size(), 3u);
  EXPECT_TRUE(r.closed());
  EXPECT_EQ(r.segments()[0].kind, RouteSegment::Kind::kLine);
  EXPECT_EQ(r.segments()[1].kind, RouteSegment::Kind::kBezier);
  EXPECT_EQ(r.segments()[1].points[2], glm::dvec2(200, 45));
  EXPECT_EQ(r.segments()[2].end(), glm::dvec2(0, 0));
  EXPECT_NE(r.bezier(1), nullptr);
}

struct BadJsonCase {
  const char* name;
  const char* text;
  const char* error;  // the whole "file:line:col: error: ..." or its start
};

TEST(RouteJson, ErrorsAreLocatedAndSayWhatWasExpected) {
  const BadJsonCase cases[] = {
      {"not_json", "{\"segments\": [", "r.json:1:15: error: expected"},
      {"not_object", "[1, 2]", "r.json:1:1: error: route: expected an object, found [1, 2]"},
      {"no_segments", "{}", "r.json:1:1: error: route: expected a \"segments\" member, found none"},
      {"empty_segments", "{\"segments\": []}",
       "r.json:1:14: error: segments: expected an array of 1 to 4096 segments, found an empty "
       "array"},
      {"segment_not_object", "{\"segments\": [3]}",
       "r.json:1:15: error: segments[0]: expected an object, found 3"},
      {"neither", "{\"segments\": [{\"arc\": 1}]}",
       "r.json:1:15: error: segments[0]: expected a \"line\" or a \"bezier\" member, found "
       "neither"},
      {"both", "{\"segments\": [{\"line\": [[0,0],[1,0]], \"bezier\": []}]}",
       "r.json:1:15: error: segments[0]: expected a \"line\" or a \"bezier\" member, found both"},
      {"few_points", "{\"segments\": [{\"bezier\": [[0,0],[1,0],[2,0]]}]}",
       "r.json:1:26: error: segments[0].bezier: expected an array of 4 points, found "
       "[[0, 0], [1, 0], [2, 0]]"},
      {"bad_point", "{\"segments\": [{\"line\": [[0,0],\n  [1,\"x\"]]}]}",
       "r.json:2:3: error: segments[0].line[1]: expected a point [x, y] of two finite numbers, "
       "found [1, \"x\"]"},
      {"three_coordinates", "{\"segments\": [{\"line\": [[0,0,0],[1,0]]}]}",
       "r.json:1:25: error: segments[0].line[0]: expected a point"},
      {"gap", "{\"segments\": [{\"line\": [[0,0],[1,0]]},\n {\"line\": [[2,0],[3,0]]}]}",
       "r.json:2:12: error: segments[1].line[0]: expected the end of segments[0] [1, 0], found "
       "[2, 0]"},
      {"closed_not_bool", "{\"segments\": [{\"line\": [[0,0],[1,0]]}], \"closed\": \"yes\"}",
       "r.json:1:51: error: closed: expected true or false, found \"yes\""},
      {"closed_but_open", "{\"segments\": [{\"line\": [[0,0],[1,0]]}], \"closed\": true}",
       "r.json:1:51: error: closed: the route ends at [1, 0] but starts at [0, 0]"},
  };
  for (const BadJsonCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Result<Route> route = ReadRouteJson("r.json", c.text);
    ASSERT_FALSE(route.ok());
    const std::string message = route.error().ToString();
    EXPECT_EQ(message.substr(0, std::string(c.error).size()), c.error) << message;
  }
}

TEST(RouteJson, RejectsTooManySegments) {
  std::string text = "{\"segments\": [";
  for (std::size_t i = 0; i <= kMaxRouteFileSegments; ++i) {
    text += (i ? "," : "") + std::string("{\"line\": [[") + std::to_string(i) + ",0],[" +
            std::to_string(i + 1) + ",0]]}";
  }
  text += "]}";
  const Result<Route> route = ReadRouteJson("big.json", text);
  ASSERT_FALSE(route.ok());
  EXPECT_NE(route.error().message.find("an array of 1 to 4096 segments, found an array of 4097"),
            std::string::npos)
      << route.error().message;
}

TEST(RouteJson, RoundTripKeepsEveryNumberAndTheClosedFlag) {
  const std::vector<RouteSegment> segments = {
      RouteSegment::Line({0.1, -0.2}, {1e-300, 123456789.123456789}),
      RouteSegment::Bezier({1e-300, 123456789.123456789}, {1.0 / 3.0, 2.0 / 3.0}, {-7.25, 1e15},
                           {0.1, -0.2}),
  };
  const Result<Route> route = Route::Build(segments, true);
  ASSERT_TRUE(route.ok());
  for (int indent : {0, 2}) {
    const std::string text = WriteRouteJson(route.value(), indent);
    const Result<Route> back = ReadRouteJson("back.json", text);
    ASSERT_TRUE(back.ok()) << back.error().ToString() << "\n" << text;
    EXPECT_TRUE(back.value().closed());
    ASSERT_EQ(back.value().segments().size(), 2u);
    EXPECT_TRUE(back.value().segments()[0] == segments[0]);
    EXPECT_TRUE(back.value().segments()[1] == segments[1]);
  }
  // An open route writes no "closed" member; the format of the issue.
  const Result<Route> open = Route::Build({RouteSegment::Line({0, 0}, {1, 2})});
  EXPECT_EQ(WriteRouteJson(open.value()), "{\"segments\":[{\"line\":[[0,0],[1,2]]}]}");
}

TEST(RouteJson, DescriptionKeepsTheSegmentsForOtherReaders) {
  const Result<JsonValue> json =
      ParseJson("d.json", R"({"segments":[{"bezier":[[0,0],[1,1],[2,1],[3,0]]}]})");
  ASSERT_TRUE(json.ok());
  const Result<RouteDescription> description = RouteDescriptionFromJson("d.json", json.value());
  ASSERT_TRUE(description.ok());
  EXPECT_FALSE(description.value().closed);
  ASSERT_EQ(description.value().segments.size(), 1u);
  EXPECT_TRUE(description.value().segments[0] ==
              RouteSegment::Bezier({0, 0}, {1, 1}, {2, 1}, {3, 0}));
  EXPECT_TRUE(RouteToJson(description.value().segments) == json.value());
}

}  // namespace
}  // namespace md5stage
