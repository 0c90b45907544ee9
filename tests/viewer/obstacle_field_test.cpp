// The obstacles feature alone (viewer/obstacle_field.h): its edits and handles, the selection
// they keep, the planner's budget, planning a go-to and a route around the set, the tool's
// shapes, and its part of state().
#include "viewer/obstacle_field.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/path/route.h"
#include "core/path/route_obstacles.h"

namespace md5stage::viewer {
namespace {

const Obstacle kCircle = Obstacle::Circle({50, 0}, 10);
const Obstacle kSquare = Obstacle::Polygon({{0, 60}, {10, 60}, {10, 70}, {0, 70}});
const Obstacle kFar = Obstacle::Circle({-80, -80}, 5);

std::vector<std::string> IdTexts(const ObstacleField& field) {
  std::vector<std::string> texts;
  for (ObstacleId id : field.ids()) texts.push_back(HandleText(id));
  return texts;
}

// Three obstacles o1 o2 o3, the third selected by a tool press inside it.
ObstacleField ThreeWithLastSelected() {
  ObstacleField field;
  field.Add(kCircle);
  field.Add(kSquare);
  field.Add(kFar);
  field.ToolPress({-80, -80}, [](glm::dvec2) { return false; });
  field.ToolRelease(100.0);
  return field;
}

struct EditCase {
  const char* name;
  std::function<ObstacleEdit(ObstacleField&)> edit;
  bool ok;
  bool changed;
  std::vector<std::string> ids_after;
  std::string selected_after;  // "" when none
  const char* error_part;      // part of the refusal, when !ok
};

TEST(ObstacleFieldTest, EditsKeepEveryOtherHandleAndTheSelection) {
  const Obstacle bad_circle = Obstacle::Circle({0, 0}, -1);
  const Obstacle nan_polygon =
      Obstacle::Polygon({{0, 0}, {1, 0}, {std::numeric_limits<double>::quiet_NaN(), 1}});
  const EditCase cases[] = {
      {"add one",
       [](ObstacleField& f) {
         return f.Add(Obstacle::Circle({0, 0}, 2));
       },
       true,
       true,
       {"o1", "o2", "o3", "o4"},
       "o3",
       ""},
      {"remove one before the selected",
       [](ObstacleField& f) { return f.Remove(0); },
       true,
       true,
       {"o2", "o3"},
       "o3",
       ""},
      {"remove the selected",
       [](ObstacleField& f) { return f.Remove(2); },
       true,
       true,
       {"o1", "o2"},
       "",
       ""},
      {"move one",
       [](ObstacleField& f) {
         return f.Move(1, {5, -10});
       },
       true,
       true,
       {"o1", "o2", "o3"},
       "o3",
       ""},
      {"clear", [](ObstacleField& f) { return f.Clear(); }, true, true, {}, "", ""},
      {"remove past the end",
       [](ObstacleField& f) { return f.Remove(3); },
       false,
       false,
       {"o1", "o2", "o3"},
       "o3",
       "obstacle 3: the scene has 3 obstacles"},
      {"remove a negative position",
       [](ObstacleField& f) { return f.Remove(-1); },
       false,
       false,
       {"o1", "o2", "o3"},
       "o3",
       "obstacle -1"},
      {"move past the end",
       [](ObstacleField& f) {
         return f.Move(7, {1, 1});
       },
       false,
       false,
       {"o1", "o2", "o3"},
       "o3",
       "obstacle 7"},
      {"a circle of negative radius",
       [&](ObstacleField& f) { return f.Add(bad_circle); },
       false,
       false,
       {"o1", "o2", "o3"},
       "o3",
       "radius"},
      {"a polygon with a non-finite corner",
       [&](ObstacleField& f) { return f.Add(nan_polygon); },
       false,
       false,
       {"o1", "o2", "o3"},
       "o3",
       ""},
  };
  for (const EditCase& c : cases) {
    SCOPED_TRACE(c.name);
    ObstacleField field = ThreeWithLastSelected();
    ASSERT_EQ(HandleText(field.selected()), "o3");
    const ObstacleSet before = field.set();
    const ObstacleEdit edit = c.edit(field);
    EXPECT_EQ(edit.status.ok(), c.ok);
    EXPECT_EQ(edit.changed, c.changed);
    EXPECT_EQ(IdTexts(field), c.ids_after);
    EXPECT_EQ(HandleText(field.selected()), c.selected_after);
    if (!c.ok) {
      EXPECT_NE(edit.status.error().ToString().find(c.error_part), std::string::npos)
          << edit.status.error().ToString();
      EXPECT_EQ(field.set().size(), before.size());
    }
  }
}

TEST(ObstacleFieldTest, HandlesAreNeverGivenTwice) {
  ObstacleField field;
  field.Add(kCircle);
  field.Add(kSquare);
  field.Remove(1);
  field.Add(kFar);
  EXPECT_EQ(IdTexts(field), (std::vector<std::string>{"o1", "o3"}));
  EXPECT_EQ(field.IndexOf(ObstacleId{2}), -1);
  EXPECT_EQ(field.IndexOf(ObstacleId{3}), 1);
  // A scene's obstacles get new handles too, and nothing stays selected.
  ObstacleSet scene = field.set();
  field.ApplyScene(scene);
  EXPECT_EQ(IdTexts(field), (std::vector<std::string>{"o4", "o5"}));
  EXPECT_FALSE(field.selected().valid());
}

TEST(ObstacleFieldTest, PicksTheTopmostShapeUnderAPoint) {
  ObstacleField field;
  field.Add(Obstacle::Circle({0, 0}, 10));
  field.Add(Obstacle::Circle({5, 0}, 10));
  const struct {
    glm::dvec2 point;
    int expected;
  } rows[] = {{{-8, 0}, 0}, {{3, 0}, 1}, {{13, 0}, 1}, {{40, 0}, -1}};
  for (const auto& row : rows) EXPECT_EQ(field.At(row.point), row.expected);
}

TEST(ObstacleFieldTest, PlanBudgetValidity) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const struct {
    std::optional<double> ms;
    bool ok;
  } rows[] = {{std::nullopt, true}, {5.0, true},   {kMaxPlanBudgetMs, true},
              {0.0, false},         {-1.0, false}, {nan, false},
              {1e7, false}};
  for (const auto& row : rows) {
    ObstacleField field;
    ASSERT_TRUE(field.SetPlanBudget(20.0).ok());
    const int before = field.plan_budget();
    const Status status = field.SetPlanBudget(row.ms);
    EXPECT_EQ(status.ok(), row.ok) << (row.ms ? *row.ms : -2);
    if (row.ok) {
      EXPECT_EQ(field.plan_budget(),
                row.ms ? PlanBudgetFromMilliseconds(*row.ms) : kDefaultPlanBudget);
    } else {
      EXPECT_NE(status.error().ToString().find("setPlanBudget.ms"), std::string::npos);
      EXPECT_EQ(field.plan_budget(), before);
    }
  }
}

TEST(ObstacleFieldTest, PlansAGoToAroundTheSetOrSaysWhyNot) {
  ObstacleField field;
  field.Add(Obstacle::Circle({50, 0}, 15));
  const struct {
    const char* name;
    glm::dvec2 goal;
    bool found;
    const char* refusal;  // the start of plan_message when not found
  } rows[] = {{"past the circle", {100, 0}, true, ""},
              {"into the circle", {50, 0}, false, "plan: goal (50, 0) is within clearance 2"},
              {"beside it", {0, 60}, true, ""}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    Locomotion locomotion;
    locomotion.turn_radius = 5.0;
    locomotion.clearance = 2.0;
    locomotion.follower = Follower(Pose2{{0, 0}, 0.0}, 5.0, 10.0);
    const Status status = field.PlanGoTo(locomotion, 0.0, row.goal, nullptr);
    EXPECT_EQ(status.ok(), row.found);
    if (row.found) {
      EXPECT_TRUE(locomotion.plan_message.empty());
      const Pose2 end = locomotion.follower.PoseAt(1e9);
      EXPECT_NEAR(end.position.x, row.goal.x, 1e-6);
      EXPECT_NEAR(end.position.y, row.goal.y, 1e-6);
    } else {
      EXPECT_EQ(locomotion.plan_message.rfind(row.refusal, 0), 0u) << locomotion.plan_message;
    }
  }
}

TEST(ObstacleFieldTest, RoutesAroundOnlyTheSegmentsThatCross) {
  ObstacleField field;
  field.Add(Obstacle::Circle({50, 0}, 10));
  const std::vector<RouteSegment> crossing = {RouteSegment::Line({0, 0}, {100, 0}),
                                              RouteSegment::Line({100, 0}, {100, 80})};
  std::vector<RouteSegment> around;
  ASSERT_TRUE(field.RouteAround(crossing, 0, 5.0, 2.0, &around).ok());
  ASSERT_GT(around.size(), 2u);
  // The same ends, and the untouched second segment kept as it was.
  EXPECT_EQ(around.front().start(), crossing[0].start());
  EXPECT_EQ(around.back().points[0], crossing[1].points[0]);
  EXPECT_EQ(around.back().end(), crossing[1].end());
  auto route = Route::Build(around, false);
  ASSERT_TRUE(route.ok());
  EXPECT_TRUE(FindObstacleStretches(route.value(), field.set(), 2.0).empty());

  const std::vector<RouteSegment> clear = {RouteSegment::Line({0, 40}, {100, 40})};
  const Status none = field.RouteAround(clear, 4, 5.0, 2.0, &around);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().ToString().find("route 4 crosses no obstacle"), std::string::npos);
}

TEST(ObstacleFieldTest, TheToolAddsWhatItDrawsAndSelectsIt) {
  const auto far = [](glm::dvec2) { return false; };
  ObstacleField field;
  // A circle dragged out.
  EXPECT_FALSE(field.ToolPress({0, 0}, far).changed);
  field.ToolDrag({6, 8});
  ObstacleEdit edit = field.ToolRelease(100.0);
  EXPECT_TRUE(edit.changed);
  ASSERT_EQ(field.size(), 1);
  EXPECT_DOUBLE_EQ(field.set().obstacles()[0].radius, 10.0);
  EXPECT_EQ(HandleText(field.selected()), "o1");
  // A polygon clicked corner by corner, closed by Enter.
  field.SetPolygonShape(true);
  for (glm::dvec2 corner : {glm::dvec2(40, 0), glm::dvec2(60, 0), glm::dvec2(60, 20)}) {
    field.ToolPress(corner, far);
    field.ToolRelease(100.0);
  }
  EXPECT_EQ(field.tool().draft().size(), 3u);
  edit = field.ClosePolygon();
  EXPECT_TRUE(edit.changed);
  EXPECT_EQ(field.size(), 2);
  EXPECT_EQ(HandleText(field.selected()), "o2");
  EXPECT_TRUE(field.tool().draft().empty());
  // A shape dragged: it follows while dragged, and its release is the change walkers replan on.
  field.SetPolygonShape(false);
  field.ToolPress({1, 1}, far);
  EXPECT_EQ(HandleText(field.selected()), "o1");
  field.ToolDrag({11, 1});
  EXPECT_DOUBLE_EQ(field.set().obstacles()[0].centre.x, 10.0);
  EXPECT_TRUE(field.ToolRelease(100.0).changed);
  EXPECT_EQ(IdTexts(field), (std::vector<std::string>{"o1", "o2"}));
}

TEST(ObstacleFieldTest, WritesItsPartOfState) {
  ObstacleField field = ThreeWithLastSelected();
  ASSERT_TRUE(field.SetPlanBudget(5.0).ok());
  JsonValue state = JsonValue::MakeObject();
  field.WriteState(&state);
  EXPECT_EQ(state.Find("obstacles")->as_array().size(), 3u);
  EXPECT_EQ(state.Find("obstacle_ids")->as_array()[2].as_string(), "o3");
  EXPECT_EQ(state.Find("selected_obstacle")->as_number(), 2);
  EXPECT_EQ(state.Find("selected_obstacle_id")->as_string(), "o3");
  EXPECT_EQ(state.Find("plan_budget")->Find("ms")->as_number(), 5.0);
  EXPECT_EQ(state.Find("plan_budget")->Find("expansions")->as_number(),
            PlanBudgetFromMilliseconds(5.0));
  EXPECT_EQ(state.Find("polygon_draft")->as_number(), 0);
}

}  // namespace
}  // namespace md5stage::viewer
