// The routes feature alone (viewer/route_book.h): building and removing routes with stable
// handles, the pen's edits and commits, the radii and clearances routes are checked with, and
// their reports (state(), panels, hover).
#include "viewer/route_book.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace md5stage::viewer {
namespace {

const std::vector<RouteSegment> kLine = {RouteSegment::Line({0, 0}, {100, 0})};
const std::vector<RouteSegment> kCorner = {RouteSegment::Line({0, 0}, {50, 0}),
                                           RouteSegment::Line({50, 0}, {50, 50})};

std::vector<std::string> IdTexts(const RouteBook& book) {
  std::vector<std::string> texts;
  for (const ViewerRoute& route : book.routes()) texts.push_back(HandleText(route.id));
  return texts;
}

RouteBook ThreeRoutes() {
  RouteBook book;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(book.Build(i, kLine, false, "").ok());
  return book;
}

Character Walker(RouteId route, double turn_radius, double clearance) {
  Character character;
  character.locomotion.enabled = route.valid();
  character.locomotion.route = route;
  character.locomotion.turn_radius = turn_radius;
  character.locomotion.clearance = clearance;
  return character;
}

TEST(RouteBookTest, BuildValidity) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const struct {
    const char* name;
    int index;
    std::vector<RouteSegment> segments;
    bool ok;
    std::vector<std::string> ids_after;
    const char* error_part;
  } rows[] = {
      {"a new route at the end", 3, kLine, true, {"r1", "r2", "r3", "r4"}, ""},
      {"one built again keeps its handle", 1, kCorner, true, {"r1", "r2", "r3"}, ""},
      {"past the end", 4, kLine, false, {"r1", "r2", "r3"}, "route index 4 is out of range"},
      {"a negative index", -1, kLine, false, {"r1", "r2", "r3"}, "route index -1"},
      {"no segments", 0, {}, false, {"r1", "r2", "r3"}, ""},
      {"a non-finite point",
       0,
       {RouteSegment::Line({0, 0}, {nan, 0})},
       false,
       {"r1", "r2", "r3"},
       ""},
      {"too many segments",
       0,
       std::vector<RouteSegment>(kMaxRouteSegments + 1, RouteSegment::Line({0, 0}, {1, 0})),
       false,
       {"r1", "r2", "r3"},
       "at most 4096 segments"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    RouteBook book = ThreeRoutes();
    const Status status = book.Build(row.index, row.segments, false, "");
    EXPECT_EQ(status.ok(), row.ok);
    EXPECT_EQ(IdTexts(book), row.ids_after);
    if (!row.ok) {
      EXPECT_NE(status.error().ToString().find(row.error_part), std::string::npos)
          << status.error().ToString();
      // Nothing changed: the route at 0 is still the straight line.
      EXPECT_EQ(book.At(0)->segments.size(), 1u);
    }
  }
  // Names: given, or "route N" by position.
  RouteBook book;
  ASSERT_TRUE(book.Build(0, kLine, false, "").ok());
  ASSERT_TRUE(book.Build(1, kLine, false, "loop").ok());
  EXPECT_EQ(book.At(0)->name, "route 1");
  EXPECT_EQ(book.At(1)->name, "loop");
  EXPECT_EQ(book.At(2), nullptr);
}

TEST(RouteBookTest, RemovingOneLeavesTheOthersAndTheEditedRouteAlone) {
  RouteBook book = ThreeRoutes();
  std::string error;
  ASSERT_TRUE(book.StartEditing(2, &error));
  RouteId removed;
  ASSERT_TRUE(book.Remove(0, &removed).ok());
  EXPECT_EQ(HandleText(removed), "r1");
  EXPECT_EQ(IdTexts(book), (std::vector<std::string>{"r2", "r3"}));
  EXPECT_EQ(HandleText(book.pen().edited_route()), "r3");
  EXPECT_EQ(book.IndexOf(book.pen().edited_route()), 1);
  // Removing the edited one ends its editing; a stale handle resolves to nothing.
  ASSERT_TRUE(book.Remove(1, &removed).ok());
  EXPECT_FALSE(book.pen().edited_route().valid());
  EXPECT_EQ(book.IndexOf(removed), -1);
  EXPECT_EQ(book.Built(removed), nullptr);
  const Status out = book.Remove(5, &removed);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().ToString().find("route 5: the scene has 1 routes"), std::string::npos);
  // Handles are never given twice.
  ASSERT_TRUE(book.Build(1, kLine, false, "").ok());
  EXPECT_EQ(IdTexts(book), (std::vector<std::string>{"r2", "r4"}));
}

TEST(RouteBookTest, ThePenCommitsANewRouteThenEditsItInPlace) {
  const auto project = [](glm::dvec2 g) { return glm::dvec2(10.0 * g.x, -10.0 * g.y); };
  const RouteWalkers nobody;
  RouteBook book = ThreeRoutes();
  std::string error;
  ASSERT_TRUE(book.StartEditing(-1, &error));  // a new route
  book.PenPress(project({0, 0}), glm::dvec2(0, 0), project, 10.0);
  book.PenRelease();
  // One point: nothing to build yet.
  EXPECT_EQ(book.CommitEdited(nobody, &error), -1);
  EXPECT_TRUE(error.empty());
  const RouteToolStep step = book.PenPress(project({30, 0}), glm::dvec2(30, 0), project, 10.0);
  book.PenRelease();
  EXPECT_TRUE(step.commit);
  EXPECT_EQ(book.CommitEdited(nobody, &error), 3);
  EXPECT_EQ(HandleText(book.pen().edited_route()), "r4");
  book.PenPress(project({30, 30}), glm::dvec2(30, 30), project, 10.0);
  book.PenRelease();
  EXPECT_EQ(book.CommitEdited(nobody, &error), 3);
  EXPECT_EQ(IdTexts(book), (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
  EXPECT_EQ(book.At(3)->segments.size(), 2u);
  // Auto-round: the corner is rounded with the walkers' radius, the drawn segments kept.
  std::vector<Character> characters = {Walker(book.At(3)->id, 5.0, 1.0)};
  const RouteWalkers walkers{&characters, nullptr};
  book.SetAutoRound(true);
  EXPECT_EQ(book.CommitEdited(walkers, &error), 3);
  EXPECT_GT(book.At(3)->segments.size(), 2u);
  EXPECT_EQ(book.At(3)->drawn_segments.size(), 2u);
  EXPECT_TRUE(book.At(3)->route->FindTightStretches(5.0 * 0.999).empty());
}

TEST(RouteBookTest, WalkersGiveTheRadiusAndClearanceRoutesAreCheckedWith) {
  const RouteId on{1}, other{2}, none;
  std::vector<Character> characters = {Walker(on, 4.0, 1.0), Walker(on, 6.0, 3.0),
                                       Walker(other, 9.0, 7.0)};
  const Character selected = Walker(none, 2.5, 0.5);
  const struct {
    const char* name;
    RouteId route;
    const Character* selected;
    double turn, rounding, clearance;
  } rows[] = {
      {"the largest of its walkers", on, nullptr, 6.0, 6.0, 3.0},
      {"its walkers before the selected", on, &selected, 6.0, 6.0, 3.0},
      {"nobody walks it: the selected's", RouteId{3}, &selected, 0.0, 2.5, 0.5},
      {"nobody walks it, none selected", RouteId{3}, nullptr, 0.0, 0.0, 0.0},
      {"a new route (no handle yet)", none, &selected, 0.0, 2.5, 0.5},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    const RouteWalkers walkers{&characters, row.selected};
    EXPECT_EQ(walkers.TurnRadius(row.route), row.turn);
    EXPECT_EQ(walkers.RoundingRadius(row.route), row.rounding);
    EXPECT_EQ(walkers.Clearance(row.route), row.clearance);
  }
}

TEST(RouteBookTest, ReportsTightAndCrossingStretches) {
  RouteBook book;
  ASSERT_TRUE(book.Build(0, kCorner, false, "corner").ok());
  std::vector<Character> characters = {Walker(book.At(0)->id, 5.0, 2.0)};
  const RouteWalkers walkers{&characters, nullptr};
  auto built = ObstacleSet::Build({Obstacle::Circle({25, 1}, 2)});
  ASSERT_TRUE(built.ok());
  const JsonValue json = book.Json(walkers, built.value());
  const JsonValue& route = json.as_array()[0];
  EXPECT_EQ(route.Find("id")->as_string(), "r1");
  EXPECT_EQ(route.Find("name")->as_string(), "corner");
  EXPECT_DOUBLE_EQ(route.Find("length")->as_number(), 100.0);
  EXPECT_EQ(route.Find("check_radius")->as_number(), 5.0);
  EXPECT_EQ(route.Find("tight")->as_array().size(), 1u);  // the corner
  EXPECT_EQ(route.Find("crossing")->as_array().size(), 1u);
  const std::vector<ui::RouteSummary> summaries = book.Summaries(walkers, built.value());
  ASSERT_EQ(summaries.size(), 1u);
  EXPECT_EQ(summaries[0].tight_stretches, 1);
  EXPECT_EQ(summaries[0].obstacle_crossings, 1);
  EXPECT_EQ(summaries[0].points, 2);
  // Hovering: on the straight, the distance along; at the corner, the tight stretch; away, "".
  EXPECT_EQ(book.HoverText({20, 0.5}, 1.0, walkers), "corner at 20.0 of 100.0");
  EXPECT_NE(book.HoverText({50, 0}, 1.0, walkers).find("tighter than the turning radius 5.0"),
            std::string::npos);
  EXPECT_EQ(book.HoverText({20, 30}, 1.0, walkers), "");
}

TEST(RouteBookTest, UnbuiltSceneRoutesAreKeptAsWritten) {
  RouteBook book;
  book.AddUnbuilt(SceneRoute{"broken", true, {}});
  ASSERT_EQ(book.size(), 1);
  EXPECT_EQ(book.At(0)->name, "broken");
  EXPECT_EQ(book.At(0)->route, nullptr);
  std::vector<SceneRoute> written;
  book.WriteScene(&written);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_TRUE(written[0].closed);
  book.Clear();
  EXPECT_EQ(book.size(), 0);
}

}  // namespace
}  // namespace md5stage::viewer
