// The ground tools' decision objects (ground_tools.h) and the key queue alone, event by event:
// what each press, move and release asks of the stage, with no stage, camera or model.
#include "viewer/ground_tools.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "viewer/stage_state.h"

namespace md5stage::viewer {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
const std::optional<glm::dvec2> kNoGround;
const std::optional<double> kNoHeading;

// ---- go to ------------------------------------------------------------------------------------

struct GoToCase {
  const char* name;
  bool press = true;  // false: a release with no press before it
  std::optional<glm::dvec2> ground;
  bool has_selection = true;
  std::vector<glm::dvec2> moves;  // ground points while dragging
  glm::dvec2 release_screen{100.0, 100.0};
  float device_pixel_ratio = 1.0f;
  bool taken = true;
  std::optional<glm::dvec2> target;  // absent: no go-to
  std::optional<double> heading = std::nullopt;
};

TEST(GoToToolTest, PressMoveRelease) {
  const glm::dvec2 at(3.0, 4.0);
  const GoToCase cases[] = {
      {"a click goes to the point, with no heading",
       true,
       at,
       true,
       {},
       {100, 100},
       1.0f,
       true,
       at},
      {"a drag gives the heading of the drag",
       true,
       at,
       true,
       {{3.0, 9.0}},
       {100, 130},
       1.0f,
       true,
       at,
       std::atan2(5.0, 0.0)},
      {"a drag back to the start has no direction: no heading",
       true,
       at,
       true,
       {at},
       {100, 130},
       1.0f,
       true,
       at},
      {"within the threshold (6 CSS px) it is a click",
       true,
       at,
       true,
       {{3.0, 9.0}},
       {100, 106},
       1.0f,
       true,
       at},
      {"the threshold scales with the pixel ratio",
       true,
       at,
       true,
       {{3.0, 9.0}},
       {100, 111},
       2.0f,
       true,
       at},
      {"no ground under the cursor: not taken",
       true,
       kNoGround,
       true,
       {},
       {100, 100},
       1.0f,
       false,
       std::nullopt},
      {"nobody selected: not taken", true, at, false, {}, {100, 100}, 1.0f, false, std::nullopt},
      {"a release without a press asks nothing",
       false,
       at,
       true,
       {},
       {100, 100},
       1.0f,
       false,
       std::nullopt},
  };
  for (const GoToCase& c : cases) {
    SCOPED_TRACE(c.name);
    GoToTool tool;
    if (c.press) {
      EXPECT_EQ(tool.Press(c.ground, c.has_selection, {100.0, 100.0}), c.taken);
      EXPECT_EQ(tool.active(), c.taken);
    }
    for (const glm::dvec2& move : c.moves) tool.Move(move);
    const std::optional<GoToTarget> target = tool.Release(c.release_screen, c.device_pixel_ratio);
    ASSERT_EQ(target.has_value(), c.target.has_value());
    EXPECT_FALSE(tool.active());
    EXPECT_FALSE(tool.Release(c.release_screen, c.device_pixel_ratio)) << "released twice";
    if (!target) continue;
    EXPECT_EQ(target->point, *c.target);
    ASSERT_EQ(target->heading.has_value(), c.heading.has_value());
    if (c.heading) {
      EXPECT_NEAR(*target->heading, *c.heading, 1e-12);
    }
  }
}

// ---- construction handles ----------------------------------------------------------------------

// One move of a handle drag: the ground point and the screen point under the cursor.
struct HandleMove {
  glm::dvec2 ground;
  glm::dvec2 screen;
};

struct HandleCase {
  const char* name;
  std::optional<glm::dvec2> ground;  // under the press
  glm::dvec2 screen;                 // the press
  glm::dvec2 origin_screen{100.0, 100.0};
  glm::dvec2 heading_screen{160.0, 100.0};
  float device_pixel_ratio = 1.0f;
  std::vector<HandleMove> moves;
  ConstructionHandle taken = ConstructionHandle::kNone;
  // What each move asks (absent: nothing yet), in order.
  std::vector<std::optional<Pose2>> poses;
};

TEST(ConstructionHandleToolTest, PressMoveRelease) {
  // The origin at (0, 0) facing +x, its handles at pixels (100, 100) and (160, 100); pick 10 px.
  const Pose2 origin{glm::dvec2(0.0), 0.0};
  const std::optional<Pose2> none;
  const double kHalfPi = std::atan2(1.0, 0.0);
  const HandleCase cases[] = {
      {"the origin follows the drag, its heading kept",
       glm::dvec2(0.0),
       {100, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {{{5, 3}, {120, 90}}, {{-7, 2}, {80, 95}}},
       ConstructionHandle::kOrigin,
       {Pose2{{5, 3}, 0.0}, Pose2{{-7, 2}, 0.0}}},
      {"taken off its centre: the offset is kept, it does not jump to the cursor",
       glm::dvec2(1.0, 1.0),
       {104, 96},
       {100, 100},
       {160, 100},
       1.0f,
       {{{11, 1}, {140, 96}}},
       ConstructionHandle::kOrigin,
       {Pose2{{10, 0}, 0.0}}},
      {"the heading handle turns the heading towards the cursor, the origin stays",
       glm::dvec2(30.0, 0.0),
       {160, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {{{0, 10}, {100, 60}}, {{-10, 0}, {40, 100}}},
       ConstructionHandle::kHeading,
       {Pose2{{0, 0}, kHalfPi}, Pose2{{0, 0}, 2 * kHalfPi}}},
      {"the heading handle dragged onto the origin: no direction, the heading stays",
       glm::dvec2(30.0, 0.0),
       {160, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {{{0, 0}, {100, 100}}},
       ConstructionHandle::kHeading,
       {Pose2{{0, 0}, 0.0}}},
      {"a press off both handles is not taken (the tools have it)",
       glm::dvec2(9.0, 9.0),
       {130, 130},
       {100, 100},
       {160, 100},
       1.0f,
       {{{20, 20}, {200, 200}}},
       ConstructionHandle::kNone,
       {none}},
      {"just outside the pick radius is off the handle",
       glm::dvec2(0.0),
       {110.5, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {},
       ConstructionHandle::kNone,
       {}},
      {"within the drag threshold (6 CSS px) nothing moves; past it, it moves and keeps moving",
       glm::dvec2(0.0),
       {100, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {{{1, 0}, {105, 100}}, {{3, 0}, {107, 100}}, {{1, 0}, {101, 100}}},
       ConstructionHandle::kOrigin,
       {none, Pose2{{3, 0}, 0.0}, Pose2{{1, 0}, 0.0}}},
      {"the threshold scales with the pixel ratio",
       glm::dvec2(0.0),
       {100, 100},
       {100, 100},
       {160, 100},
       2.0f,
       {{{3, 0}, {110, 100}}, {{4, 0}, {113, 100}}},
       ConstructionHandle::kOrigin,
       {none, Pose2{{4, 0}, 0.0}}},
      {"no ground under the press (the sky): not taken",
       kNoGround,
       {100, 100},
       {100, 100},
       {160, 100},
       1.0f,
       {{{1, 1}, {120, 120}}},
       ConstructionHandle::kNone,
       {none}},
      {"a handle behind the camera (NaN on screen) is never taken",
       glm::dvec2(0.0),
       {160, 100},
       {100, 100},
       {kNan, kNan},
       1.0f,
       {},
       ConstructionHandle::kNone,
       {}},
      {"both within reach: the nearer one",
       glm::dvec2(0.0),
       {108, 100},
       {100, 100},
       {114, 100},
       1.0f,
       {},
       ConstructionHandle::kHeading,
       {}},
      {"both as near: the origin",
       glm::dvec2(0.0),
       {107, 100},
       {100, 100},
       {114, 100},
       1.0f,
       {},
       ConstructionHandle::kOrigin,
       {}},
  };
  for (const HandleCase& c : cases) {
    SCOPED_TRACE(c.name);
    ConstructionHandleTool tool;
    const double pick = kPickRadiusCssPixels * c.device_pixel_ratio;
    const bool taken = tool.Press(c.ground, c.screen, c.origin_screen, c.heading_screen, origin,
                                  CharacterId{3}, pick);
    EXPECT_EQ(taken, c.taken != ConstructionHandle::kNone);
    EXPECT_EQ(tool.handle(), c.taken);
    EXPECT_EQ(tool.active(), taken);
    if (taken) {
      EXPECT_EQ(tool.character(), CharacterId{3});
    }
    ASSERT_EQ(c.moves.size(), c.poses.size());
    for (size_t i = 0; i < c.moves.size(); ++i) {
      SCOPED_TRACE("move " + std::to_string(i));
      const std::optional<Pose2> pose =
          tool.Move(c.moves[i].ground, c.moves[i].screen, c.device_pixel_ratio);
      ASSERT_EQ(pose.has_value(), c.poses[i].has_value());
      if (!pose) continue;
      EXPECT_NEAR(pose->position.x, c.poses[i]->position.x, 1e-12);
      EXPECT_NEAR(pose->position.y, c.poses[i]->position.y, 1e-12);
      EXPECT_NEAR(pose->heading, c.poses[i]->heading, 1e-12);
    }
    // Released, it asks nothing more.
    tool.Release();
    EXPECT_FALSE(tool.active());
    EXPECT_FALSE(tool.Move(glm::dvec2(50, 50), glm::dvec2(300, 300), 1.0f).has_value());
  }
}

// ---- route pen --------------------------------------------------------------------------------

// Ground -> screen for the tests: 10 pixels a unit, y down.
glm::dvec2 Project(glm::dvec2 ground) { return glm::dvec2(10.0 * ground.x, -10.0 * ground.y); }

struct RouteEvent {
  enum Kind { kPress, kMove, kRelease, kToggleClosed, kDelete } kind;
  glm::dvec2 ground{0.0};  // kPress, kMove; NaN: no ground under the cursor
  // What it asks: taken (kPress) and commit (every kind but kRelease), the error (kPress).
  bool taken = false;
  bool commit = false;
  bool error = false;
};

struct RouteCase {
  const char* name;
  std::vector<RouteEvent> events;
  size_t anchors;
  int selected_anchor;
  bool closed = false;
};

RouteEvent Press(double x, double y, bool taken, bool commit, bool error = false) {
  return {RouteEvent::kPress, {x, y}, taken, commit, error};
}
RouteEvent Move(double x, double y, bool commit) {
  return {RouteEvent::kMove, {x, y}, false, commit};
}
RouteEvent Release() { return {RouteEvent::kRelease}; }
RouteEvent Toggle(bool commit) { return {RouteEvent::kToggleClosed, {}, false, commit}; }
RouteEvent Delete(bool commit) { return {RouteEvent::kDelete, {}, false, commit}; }

TEST(RouteToolTest, EventsAndWhatTheyAsk) {
  const RouteCase cases[] = {
      {"clicks add corners, each committed",
       {Press(0, 0, true, true), Release(), Press(5, 0, true, true), Release()},
       2,
       1},
      {"a press on an anchor picks it (no commit), a drag past the threshold moves it",
       {Press(0, 0, true, true), Release(), Press(5, 0, true, true), Release(),
        Press(0.2, 0, true, false), Move(0.3, 0, false), Move(0, 3, true), Release()},
       2,
       0},
      {"a new point dragged out commits on every move (a smooth point)",
       {Press(0, 0, true, true), Move(0, 0.2, true), Move(2, 0, true), Release()},
       1,
       0},
      {"no ground and nothing picked: not taken", {Press(kNan, kNan, false, false)}, 0, -1},
      {"moves after the release ask nothing",
       {Press(0, 0, true, true), Release(), Move(4, 4, false), Move(8, 8, false)},
       1,
       0},
      {"closing needs two anchors; the second toggle opens it again",
       {Toggle(false), Press(0, 0, true, true), Release(), Toggle(false), Press(5, 0, true, true),
        Release(), Press(5, 5, true, true), Release(), Toggle(true), Toggle(true)},
       3,
       2,
       false},
      {"closed after one toggle",
       {Press(0, 0, true, true), Release(), Press(5, 0, true, true), Release(), Toggle(true)},
       2,
       1,
       true},
      {"delete removes the selected point and selects the one before it",
       {Delete(false), Press(0, 0, true, true), Release(), Press(5, 0, true, true), Release(),
        Delete(true)},
       1,
       0},
      {"deleting the only point leaves none selected",
       {Press(0, 0, true, true), Release(), Delete(true), Delete(false)},
       0,
       -1},
  };
  for (const RouteCase& c : cases) {
    SCOPED_TRACE(c.name);
    RouteTool tool;
    int index = 0;
    for (const RouteEvent& e : c.events) {
      SCOPED_TRACE(index++);
      const glm::dvec2 screen = Project(e.ground);
      const std::optional<glm::dvec2> ground =
          std::isnan(e.ground.x) ? std::nullopt : std::optional<glm::dvec2>(e.ground);
      switch (e.kind) {
        case RouteEvent::kPress: {
          const RouteToolStep step = tool.Press(screen, ground, Project, 10.0);
          EXPECT_EQ(step.taken, e.taken);
          EXPECT_EQ(step.commit, e.commit);
          EXPECT_EQ(!step.error.empty(), e.error);
          EXPECT_EQ(tool.active(), e.taken);
          break;
        }
        case RouteEvent::kMove:
          EXPECT_EQ(tool.Move(e.ground, screen, 1.0f), e.commit);
          break;
        case RouteEvent::kRelease:
          tool.Release();
          EXPECT_FALSE(tool.active());
          break;
        case RouteEvent::kToggleClosed:
          EXPECT_EQ(tool.ToggleClosed(), e.commit);
          break;
        case RouteEvent::kDelete:
          EXPECT_EQ(tool.DeleteSelectedPoint(), e.commit);
          break;
      }
    }
    EXPECT_EQ(tool.editor().anchor_count(), c.anchors);
    EXPECT_EQ(tool.selected_anchor(), c.selected_anchor);
    EXPECT_EQ(tool.editor().closed(), c.closed);
  }
}

TEST(RouteToolTest, MovesWhatItPicked) {
  RouteTool tool;
  tool.Press(Project({0, 0}), glm::dvec2(0, 0), Project, 10.0);
  tool.Release();
  // A new point dragged out gets handles; an anchor dragged goes where the cursor is.
  tool.Press(Project({5, 0}), glm::dvec2(5, 0), Project, 10.0);
  EXPECT_TRUE(tool.Move({5, 2}, Project({5, 2}), 1.0f));
  tool.Release();
  EXPECT_TRUE(tool.editor().anchors()[1].has_out);
  tool.Press(Project({0, 0}), glm::dvec2(0, 0), Project, 10.0);
  EXPECT_TRUE(tool.Move({-3, 1}, Project({-3, 1}), 1.0f));
  EXPECT_EQ(tool.editor().anchors()[0].position, glm::dvec2(-3, 1));
  // Edit() starts over on another route: nothing selected, no drag.
  tool.Edit(RouteEditor(), RouteId{4});
  EXPECT_EQ(tool.edited_route(), RouteId{4});
  EXPECT_EQ(tool.selected_anchor(), -1);
  EXPECT_FALSE(tool.active());
  EXPECT_FALSE(tool.Move({1, 1}, Project({1, 1}), 1.0f));
}

TEST(RouteToolTest, RefusedPointIsAnError) {
  RouteTool tool;
  // A point the editor refuses (not finite) is the editor's error, and the press is not taken.
  const RouteToolStep step = tool.Press(
      {0.0, 0.0}, glm::dvec2(kNan, 0.0), [](glm::dvec2) { return glm::dvec2(kNan); }, 10.0);
  EXPECT_FALSE(step.taken);
  EXPECT_FALSE(step.commit);
  EXPECT_NE(step.error.find("finite"), std::string::npos) << step.error;
  EXPECT_EQ(tool.editor().anchor_count(), 0u);
}

// ---- obstacles --------------------------------------------------------------------------------

struct ObstacleEvent {
  enum Kind { kPress, kMove, kHover, kRelease, kClose } kind;
  glm::dvec2 ground{0.0};
  int picked = -1;
  // Press: what it asks.
  bool close = false;
  std::optional<int> select = std::nullopt;
  // Release / close: the shape added (circle radius, or polygon corners), a replan.
  std::optional<double> circle_radius = std::nullopt;
  int polygon_corners = 0;
  bool replan = false;
  std::optional<glm::dvec2> moved_centre = std::nullopt;  // kMove
};

struct ObstacleCase {
  const char* name;
  bool polygon_shape;
  std::vector<ObstacleEvent> events;
  size_t draft_left = 0;
};

ObstacleEvent OPress(double x, double y, int picked, std::optional<int> select,
                     bool close = false) {
  ObstacleEvent e{ObstacleEvent::kPress, {x, y}, picked};
  e.select = select;
  e.close = close;
  return e;
}
ObstacleEvent OMove(double x, double y, std::optional<glm::dvec2> moved = std::nullopt) {
  ObstacleEvent e{ObstacleEvent::kMove, {x, y}};
  e.moved_centre = moved;
  return e;
}
ObstacleEvent ORelease(std::optional<double> radius, bool replan = false) {
  ObstacleEvent e{ObstacleEvent::kRelease};
  e.circle_radius = radius;
  e.replan = replan;
  return e;
}
ObstacleEvent OClose(int corners) {
  ObstacleEvent e{ObstacleEvent::kClose};
  e.polygon_corners = corners;
  return e;
}

TEST(ObstacleToolTest, EventsAndWhatTheyAsk) {
  const std::optional<int> same;  // the selection is left as it is
  const ObstacleCase cases[] = {
      {"a drag draws a circle", false, {OPress(1, 1, -1, -1), OMove(4, 5), ORelease(5.0)}},
      {"a click makes no circle (no radius)", false, {OPress(1, 1, -1, -1), ORelease(kNoHeading)}},
      {"a circle of 1e-3 of the camera distance (10) is a click",
       false,
       {OPress(0, 0, -1, -1), OMove(0.01, 0), ORelease(kNoHeading)}},
      {"a press on a shape selects it and drags it; the release replans",
       false,
       {OPress(10, 10, 0, 0), OMove(12, 11, glm::dvec2(2, 1)), ORelease(kNoHeading, true)}},
      {"a picked index without its shape is no pick",
       false,
       {OPress(10, 10, 3, -1), ORelease(kNoHeading)}},
      {"polygon corners, closed on the first",
       true,
       {OPress(0, 0, -1, -1), OPress(10, 0, -1, same), OPress(10, 10, -1, same),
        OPress(0.1, 0, -1, same, true), OClose(3)}},
      {"closed by clicking the last corner again (a double click)",
       true,
       {OPress(0, 0, -1, -1), OPress(10, 0, -1, same), OPress(10, 10, -1, same),
        OPress(10, 10, -1, same, true), OClose(3)}},
      {"with two corners, clicking the last again adds nothing, and closing drops them",
       true,
       {OPress(0, 0, -1, -1), OPress(10, 0, -1, same), OPress(10, 0.1, -1, same), OClose(0)}},
      {"while drafting, a press on a shape adds a corner (no selection change)",
       true,
       {OPress(0, 0, -1, -1), OPress(10, 0, 0, same)},
       2},
      {"while drafting, moves ask nothing", true, {OPress(0, 0, -1, -1), OMove(5, 5)}, 1},
  };
  const Obstacle square = Obstacle::Polygon({{9, 9}, {11, 9}, {11, 11}, {9, 11}});
  for (const ObstacleCase& c : cases) {
    SCOPED_TRACE(c.name);
    ObstacleTool tool;
    tool.SetPolygonShape(c.polygon_shape);
    int index = 0;
    for (const ObstacleEvent& e : c.events) {
      SCOPED_TRACE(index++);
      switch (e.kind) {
        case ObstacleEvent::kPress: {
          const glm::dvec2 cursor = e.ground;
          const ObstaclePressStep step =
              tool.Press(e.ground, e.picked, e.picked == 0 ? &square : nullptr,
                         [&](glm::dvec2 corner) { return glm::length(corner - cursor) < 0.5; });
          EXPECT_EQ(step.close_polygon, e.close);
          EXPECT_EQ(step.select, e.select);
          break;
        }
        case ObstacleEvent::kMove: {
          const std::optional<Obstacle> moved = tool.Move(e.ground);
          ASSERT_EQ(moved.has_value(), e.moved_centre.has_value());
          if (moved) {
            EXPECT_EQ(moved->vertices[0], glm::dvec2(9, 9) + *e.moved_centre);
          }
          break;
        }
        case ObstacleEvent::kHover:
          tool.Hover(e.ground);
          break;
        case ObstacleEvent::kRelease: {
          const ObstacleReleaseStep step = tool.Release(10.0);
          ASSERT_EQ(step.add.has_value(), e.circle_radius.has_value());
          if (step.add) {
            EXPECT_EQ(step.add->kind, Obstacle::Kind::kCircle);
            EXPECT_DOUBLE_EQ(step.add->radius, *e.circle_radius);
          }
          EXPECT_EQ(step.replan, e.replan);
          EXPECT_FALSE(tool.active());
          break;
        }
        case ObstacleEvent::kClose: {
          const std::optional<Obstacle> polygon = tool.ClosePolygon();
          ASSERT_EQ(polygon.has_value(), e.polygon_corners > 0);
          if (polygon) {
            EXPECT_EQ(polygon->vertices.size(), static_cast<size_t>(e.polygon_corners));
          }
          EXPECT_TRUE(tool.draft().empty());
          break;
        }
      }
    }
    EXPECT_EQ(tool.draft().size(), c.draft_left);
  }
}

TEST(ObstacleToolTest, DraftFollowsTheCursorAndIsBounded) {
  ObstacleTool tool;
  tool.SetPolygonShape(true);
  auto nowhere = [](glm::dvec2) { return false; };
  tool.Press({0, 0}, -1, nullptr, nowhere);
  tool.Hover({3, 4});
  EXPECT_EQ(tool.current(), glm::dvec2(3, 4));
  for (size_t i = 1; i < kMaxPolygonVertices + 10; ++i)
    tool.Press({static_cast<double>(i), 0.0}, -1, nullptr, nowhere);
  EXPECT_EQ(tool.draft().size(), kMaxPolygonVertices);
  // Switching the shape drops the draft.
  tool.SetPolygonShape(false);
  EXPECT_TRUE(tool.draft().empty());
  tool.Hover({7, 7});
  EXPECT_EQ(tool.current(), glm::dvec2(3, 4)) << "no draft: hovering changes nothing";
}

// ---- keys -------------------------------------------------------------------------------------

TEST(KeyQueueTest, EachPressOnce) {
  struct KeyEvent {
    bool down;
    Key key;
    bool ui_has_keyboard = false;
  };
  struct KeyCase {
    const char* name;
    std::vector<KeyEvent> events;
    std::vector<Key> pending;
  };
  const KeyCase cases[] = {
      {"a tap between two frames counts",
       {{true, Key::kSpace}, {false, Key::kSpace}},
       {Key::kSpace}},
      {"a held key's repeats are one press",
       {{true, Key::kF}, {true, Key::kF}, {true, Key::kF}},
       {Key::kF}},
      {"pressed again after a release: two presses",
       {{true, Key::kK}, {false, Key::kK}, {true, Key::kK}},
       {Key::kK, Key::kK}},
      {"the UI's keyboard takes it, and the key is still down",
       {{true, Key::kW, true}, {true, Key::kW}},
       {}},
      {"a release of a key never pressed does nothing", {{false, Key::kH}}, {}},
      {"order is kept", {{true, Key::kComma}, {true, Key::kPeriod}}, {Key::kComma, Key::kPeriod}},
  };
  for (const KeyCase& c : cases) {
    SCOPED_TRACE(c.name);
    KeyQueue keys;
    for (const KeyEvent& e : c.events) {
      if (e.down) {
        keys.Down(e.key, e.ui_has_keyboard);
      } else {
        keys.Up(e.key);
      }
    }
    EXPECT_EQ(keys.pending(), c.pending);
    keys.Clear();
    EXPECT_TRUE(keys.pending().empty());
  }
  // A flood between two frames is bounded.
  KeyQueue keys;
  for (int i = 0; i < 1000; ++i) {
    keys.Down(Key::kSpace, false);
    keys.Up(Key::kSpace);
  }
  EXPECT_EQ(keys.pending().size(), 64u);
}

}  // namespace
}  // namespace md5stage::viewer
