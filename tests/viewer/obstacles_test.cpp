// Obstacles in the viewer: go-to planned around them (every plan legal by CheckPlannedPath),
// replanning from where a walker is when they change, "no path" with its reason (the character
// stays), route marking and route-around, the obstacle tool with the mouse, the drawn shapes,
// and the maze demo scene.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "../cli/cli_test_util.h"
#include "core/path/obstacle_planner.h"
#include "core/path/route_obstacles.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

JsonValue Parse(const std::string& json) {
  auto parsed = ParseJson("test", json);
  EXPECT_TRUE(parsed.ok()) << json;
  return parsed.ok() ? parsed.value() : JsonValue::MakeObject();
}

const JsonValue& Get(const JsonValue& value, const std::string& key) {
  static const JsonValue kNull;
  const JsonValue* found = value.Find(key);
  return found ? *found : kNull;
}

bool Ok(const JsonValue& reply) {
  const JsonValue* ok = reply.Find("ok");
  return ok && ok->is_bool() && ok->as_bool();
}

struct TestStage {
  TestStage() : viewer(&backend, nullptr) { viewer.SetViewport(1280, 720, 1.0f); }
  void LoadWalker() {
    const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";
    for (const char* name : {"walker.md5mesh", "idle.md5anim", "walk.md5anim"}) {
      InputFile file;
      file.name = name;
      file.source = "local";
      file.bytes = ReadBytes(dir + name);
      viewer.QueueFile(std::move(file));
    }
    ASSERT_TRUE(Ok(viewer.LoadQueuedFiles()));
    ASSERT_EQ(viewer.character_count(), 1);
  }
  JsonValue Run(const std::string& json) { return viewer.Call(Parse(json)); }
  const Character& character(int i = 0) const {
    return viewer.characters()[static_cast<size_t>(i)];
  }
  // The obstacles as the viewer holds them, read back through the state's JSON.
  ObstacleSet Obstacles() {
    JsonValue root = JsonValue::MakeObject();
    root.Set("obstacles", Get(viewer.State(), "obstacles"));
    auto set = ObstaclesFromJson("state", root);
    EXPECT_TRUE(set.ok());
    return set.ok() ? set.value() : ObstacleSet();
  }

  NullRenderBackend backend;
  Stage viewer;
};

// The follower's current plan must be legal: from `start` to the goal, radius, clearance.
void ExpectLegalPlan(TestStage& s, const Pose2& start, glm::dvec2 goal, const double* heading) {
  const Locomotion& locomotion = s.character().locomotion;
  const PlannedPath* plan = locomotion.follower.planned();
  ASSERT_NE(plan, nullptr) << "no planned path";
  const Status status =
      CheckPlannedPath(*plan, start, goal, heading, std::max(locomotion.turn_radius, 1.0),
                       locomotion.clearance, s.Obstacles());
  EXPECT_TRUE(status.ok()) << status.error().message;
}

TEST(ViewerObstaclesTest, ClearanceDefaultsToHalfTheBindPoseWidth) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  const LoadedModel& model = s.viewer.models()[0];
  const double width =
      std::max(model.bind_max.x - model.bind_min.x, model.bind_max.y - model.bind_min.y);
  EXPECT_NEAR(s.character().locomotion.clearance, 0.5 * width, 1e-6);
  EXPECT_GT(s.character().locomotion.clearance, 1.0);
}

TEST(ViewerObstaclesTest, GoToPlansALegalPathAroundAWall) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  // A wall straight across the way from (0, 0) to (400, 0).
  ASSERT_TRUE(Ok(s.Run(
      R"({"cmd":"addObstacle","obstacle":{"polygon":[[180,-150],[220,-150],[220,150],[180,150]]}})")));
  const JsonValue reply = s.Run(R"({"cmd":"goTo","instance":0,"x":400,"y":0})");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  EXPECT_EQ(Get(Get(reply, "path"), "type").as_string(), "planned");
  const Pose2 start{glm::dvec2(0.0), 0.0};
  ExpectLegalPlan(s, start, glm::dvec2(400, 0), nullptr);
  // Longer than the straight line: it went round.
  EXPECT_GT(s.character().locomotion.follower.planned()->length, 420.0);
  // With a final heading (a drag) too.
  const JsonValue with_heading = s.Run(R"({"cmd":"goTo","instance":0,"x":400,"y":0,"heading":3})");
  ASSERT_TRUE(Ok(with_heading)) << WriteJson(with_heading);
  const double heading = 3.0;
  ExpectLegalPlan(s, start, glm::dvec2(400, 0), &heading);
  // Walking it, the character never comes within its clearance of the wall.
  const ObstacleSet obstacles = s.Obstacles();
  for (int i = 0; i < 400; ++i) {
    s.viewer.Update(0.05);
    const Pose2 pose = s.character().locomotion.follower.PoseAt(i * 0.05);
    EXPECT_GE(obstacles.Distance(pose.position), s.character().locomotion.clearance - 1e-6);
  }
}

// setPlanBudget: the validity table (the field named, nothing changed on a refusal), and the
// budget reaching the planner: a go-to's search stays within it and state() says so.
TEST(ViewerObstaclesTest, ThePlanBudgetIsValidatedAndBoundsTheSearch) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  const struct {
    const char* command;
    const char* error;  // "" when accepted
    int expansions;     // the budget after it
  } rows[] = {
      {R"({"cmd":"setPlanBudget","ms":4})", "", 4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":0})",
       "setPlanBudget.ms: expected a number in (0, 1000000], found 0", 4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":-1})",
       "setPlanBudget.ms: expected a number in [0, 1000000], found -1", 4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":2e6})",
       "setPlanBudget.ms: expected a number in [0, 1000000], found 2000000",
       4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":"fast"})",
       "setPlanBudget.ms: expected a number in [0, 1000000], found \"fast\"",
       4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":1,"budget":3})",
       "setPlanBudget.budget: expected no such field (setPlanBudget does not take it), found 3",
       4 * kPlanExpansionsPerMs},
      {R"({"cmd":"setPlanBudget","ms":0.001})", "", 1},
      {R"({"cmd":"setPlanBudget"})", "", kDefaultPlanBudget},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.command);
    const JsonValue reply = s.Run(row.command);
    if (row.error[0] == '\0') {
      EXPECT_TRUE(Ok(reply)) << WriteJson(reply);
    } else {
      EXPECT_FALSE(Ok(reply));
      EXPECT_EQ(Get(reply, "error").as_string(), row.error);
    }
    EXPECT_EQ(Get(Get(s.viewer.State(), "plan_budget"), "expansions").as_number(), row.expansions);
  }
  EXPECT_TRUE(Get(Get(s.viewer.State(), "plan_budget"), "ms").is_null());

  // A wall across the way, planned by the viewer and by `md5stage plan --budget-ms` for the same
  // query: the same search (expansions within the budget, passes, whether the last ran to its
  // end) and the same legal path, whatever the budget.
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  const char wall[] = R"({"polygon":[[180,-150],[220,-150],[220,150],[180,150]]})";
  ASSERT_TRUE(Ok(s.Run(std::string(R"({"cmd":"addObstacle","obstacle":)") + wall + "}")));
  const std::string obstacles =
      testing::WriteTempFile("wall.json", std::string(R"({"obstacles":[)") + wall + "]}");
  const Pose2 start{glm::dvec2(0.0), 0.0};
  const std::string clearance = FormatJsonNumber(s.character().locomotion.clearance);
  int complete = 0;
  for (const double ms : {1.0, 2.0, 1000.0, 0.0}) {
    SCOPED_TRACE(ms);
    const std::string budget = ms > 0
                                   ? R"({"cmd":"setPlanBudget","ms":)" + FormatJsonNumber(ms) + "}"
                                   : std::string(R"({"cmd":"setPlanBudget"})");
    ASSERT_TRUE(Ok(s.Run(budget)));
    const JsonValue reply = s.Run(R"({"cmd":"goTo","instance":0,"x":400,"y":0})");
    ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
    ExpectLegalPlan(s, start, glm::dvec2(400, 0), nullptr);
    const JsonValue state = s.viewer.State();
    const JsonValue& plan = Get(Get(state, "instances").as_array()[0], "plan");
    ASSERT_TRUE(plan.is_object());
    const double expansions = ms > 0 ? PlanBudgetFromMilliseconds(ms) : kDefaultPlanBudget;
    EXPECT_GT(Get(plan, "expansions").as_number(), 0.0);
    EXPECT_LE(Get(plan, "expansions").as_number(), expansions);
    const testing::CliRun cli = testing::RunCli(
        "plan --from 0,0,0 --to 400,0 --radius 30 --clearance " + clearance + " --obstacles '" +
        obstacles + "' --json" + (ms > 0 ? " --budget-ms " + FormatJsonNumber(ms) : ""));
    ASSERT_EQ(cli.status, 0) << cli.err;
    const JsonValue planned = Parse(cli.out);
    const JsonValue& search = Get(planned, "search");
    EXPECT_EQ(Get(plan, "expansions").as_number(), Get(search, "expansions").as_number());
    EXPECT_EQ(Get(plan, "passes").as_number(), Get(search, "passes").as_number());
    EXPECT_EQ(Get(plan, "proven_best").as_bool(), Get(search, "complete").as_bool());
    EXPECT_NEAR(s.character().locomotion.follower.planned()->length,
                Get(planned, "length").as_number(), 1e-9);
    complete += Get(plan, "proven_best").as_bool() ? 1 : 0;
  }
  // The smallest budget cuts the search short (and says so).
  EXPECT_LT(complete, 4);
}

TEST(ViewerObstaclesTest, NoPathGivesTheReasonAndTheCharacterStays) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":20})")));
  // The goal inside a closed box of four overlapping walls.
  for (const char* wall :
       {"[[200,-100],[400,-100],[400,-80],[200,-80]]", "[[200,80],[400,80],[400,100],[200,100]]",
        "[[200,-100],[220,-100],[220,100],[200,100]]",
        "[[380,-100],[400,-100],[400,100],[380,100]]"}) {
    ASSERT_TRUE(
        Ok(s.Run(std::string(R"({"cmd":"addObstacle","obstacle":{"polygon":)") + wall + "}}")));
  }
  const JsonValue inside = s.Run(R"({"cmd":"goTo","instance":0,"x":300,"y":0})");
  EXPECT_FALSE(Ok(inside));
  EXPECT_NE(Get(inside, "error").as_string().find("no path"), std::string::npos)
      << WriteJson(inside);
  EXPECT_FALSE(Get(Get(s.viewer.State(), "instances").as_array()[0], "plan_message").is_null());
  s.viewer.Update(1.0);
  EXPECT_NEAR(s.character().position.x, 0.0f, 1e-6f);
  EXPECT_FALSE(s.character().locomotion.moving);
  // A goal in the wall names the obstacle.
  const JsonValue in_wall = s.Run(R"({"cmd":"goTo","instance":0,"x":210,"y":0})");
  EXPECT_FALSE(Ok(in_wall));
  EXPECT_NE(Get(in_wall, "error").as_string().find("obstacles[2]"), std::string::npos)
      << WriteJson(in_wall);
}

TEST(ViewerObstaclesTest, AWalkerReplansFromWhereItIsWhenObstaclesChange) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":25})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setSpeed","instance":0,"speed":50})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":600,"y":0})")));
  for (int i = 0; i < 40; ++i) s.viewer.Update(0.05);  // 2 s: about 100 along
  const double now = 2.0;
  const Pose2 before = s.character().locomotion.follower.PoseAt(now);
  EXPECT_GT(before.position.x, 50.0);
  // A circle dropped on its way.
  ASSERT_TRUE(
      Ok(s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[350,0],"radius":60}}})")));
  const Pose2 after = s.character().locomotion.follower.PoseAt(now);
  EXPECT_NEAR(glm::length(after.position - before.position), 0.0, 1e-6) << "it jumped";
  ExpectLegalPlan(s, before, glm::dvec2(600, 0), nullptr);
  // The scratch has grown; replanning again (the circle moved) reuses it.
  const size_t capacity = s.character().locomotion.plan_scratch.nodes.capacity();
  EXPECT_GT(capacity, 0u);
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"moveObstacle","index":0,"dx":0,"dy":20})")));
  EXPECT_EQ(s.character().locomotion.plan_scratch.nodes.capacity(), capacity);
  ExpectLegalPlan(s, before, glm::dvec2(600, 0), nullptr);
  // A clearance change replans too, and the plan keeps the new clearance.
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setClearance","instance":0,"clearance":40})")));
  EXPECT_EQ(s.character().locomotion.clearance, 40.0);
  ExpectLegalPlan(s, before, glm::dvec2(600, 0), nullptr);
  // Cleared: the plan is the obstacle-free one.
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"clearObstacles"})")));
  EXPECT_EQ(s.character().locomotion.follower.planned(), nullptr);
  EXPECT_NEAR(glm::length(s.character().locomotion.follower.PoseAt(now).position - before.position),
              0.0, 1e-6);
}

TEST(ViewerObstaclesTest, RefusedObstacleEditsChangeNothing) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  const std::string before = WriteJson(Get(s.viewer.State(), "obstacles"));
  const JsonValue bad_radius =
      s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[0,0],"radius":-1}}})");
  EXPECT_FALSE(Ok(bad_radius));
  EXPECT_EQ(Get(bad_radius, "error").as_string(),
            "addObstacle.obstacle.circle.radius: expected a number > 0 and at most 1e15, found -1");
  // A polygon whose edges cross.
  EXPECT_FALSE(
      Ok(s.Run(R"({"cmd":"addObstacle","obstacle":{"polygon":[[0,0],[10,10],[10,0],[0,10]]}})")));
  EXPECT_FALSE(Ok(s.Run(R"({"cmd":"removeObstacle","index":0})")));
  EXPECT_EQ(WriteJson(Get(s.viewer.State(), "obstacles")), before);
}

TEST(ViewerObstaclesTest, RouteAroundReplacesTheCrossingStretchWithALegalOne) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  // A closed square route; a pillar on its bottom side.
  ASSERT_TRUE(Ok(s.Run(
      R"({"cmd":"setRoute","route":{"closed":true,"segments":[{"line":[[0,0],[400,0]]},{"line":[[400,0],[400,400]]},{"line":[[400,400],[0,400]]},{"line":[[0,400],[0,0]]}]}})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"assignRoute","instance":0,"route":0})")));
  ASSERT_TRUE(
      Ok(s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[200,10],"radius":40}}})")));
  const JsonValue route = Get(s.viewer.State(), "routes").as_array()[0];
  ASSERT_EQ(Get(route, "crossing").as_array().size(), 1u) << WriteJson(route);
  const JsonValue reply = s.Run(R"({"cmd":"routeAround","route":0})");
  ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  const JsonValue after = Get(s.viewer.State(), "routes").as_array()[0];
  EXPECT_TRUE(Get(after, "valid").as_bool());
  EXPECT_EQ(Get(after, "crossing").as_array().size(), 0u) << WriteJson(after);
  // The corners were tight before and still are (they were not crossing); the new stretch adds
  // none: every tight stretch is a corner kink of radius 0.
  for (const JsonValue& tight : Get(after, "tight").as_array()) {
    EXPECT_EQ(Get(tight, "min_radius").as_number(), 0.0) << WriteJson(tight);
  }
  // Exactly: sampled densely, the route keeps the clearance.
  const ObstacleSet obstacles = s.Obstacles();
  const double length = Get(after, "length").as_number();
  for (int i = 0; i <= 4000; ++i) {
    const JsonValue sample = s.viewer.Call(Parse(R"({"cmd":"sampleRoute","route":0,"distance":)" +
                                                 std::to_string(length * i / 4000) + "}"));
    const JsonValue& p = Get(sample, "position");
    const glm::dvec2 q(p.as_array()[0].as_number(), p.as_array()[1].as_number());
    ASSERT_GE(obstacles.Distance(q), s.character().locomotion.clearance - 1e-6) << i;
  }
  // Nothing left to route around: refused, the route unchanged.
  const JsonValue again = s.Run(R"({"cmd":"routeAround","route":0})");
  EXPECT_FALSE(Ok(again));
  EXPECT_EQ(WriteJson(Get(s.viewer.State(), "routes").as_array()[0]), WriteJson(after));
}

// Framebuffer pixel of a ground point.
glm::dvec2 Pixel(TestStage& s, double x, double y) {
  const JsonValue reply = s.viewer.Call(Parse(
      "{\"cmd\":\"screenAt\",\"point\":[" + std::to_string(x) + "," + std::to_string(y) + ",0]}"));
  const JsonValue& p = Get(reply, "pixel");
  return glm::dvec2(p.as_array()[0].as_number(), p.as_array()[1].as_number());
}

void Click(TestStage& s, glm::dvec2 at) {
  s.viewer.OnCursor(at.x, at.y);
  s.viewer.OnMouseButton(MouseButton::kLeft, true);
  s.viewer.OnMouseButton(MouseButton::kLeft, false);
}

TEST(ViewerObstaclesTest, TheToolDrawsCirclesAndPolygonsAndMovesAndDeletesThem) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"camera","target":[0,0,0],"yaw":0,"pitch":80,"distance":600})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle","shape":"circle"})")));
  // Drag out a circle: centre (100, 0), to (140, 0).
  const glm::dvec2 centre = Pixel(s, 100, 0), rim = Pixel(s, 140, 0);
  s.viewer.OnCursor(centre.x, centre.y);
  s.viewer.OnMouseButton(MouseButton::kLeft, true);
  s.viewer.OnCursor(0.5 * (centre.x + rim.x), centre.y);
  s.viewer.OnCursor(rim.x, rim.y);
  s.viewer.OnMouseButton(MouseButton::kLeft, false);
  ObstacleSet set = s.Obstacles();
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set.obstacles()[0].kind, Obstacle::Kind::kCircle);
  EXPECT_NEAR(set.obstacles()[0].centre.x, 100.0, 1.0);
  EXPECT_NEAR(set.obstacles()[0].radius, 40.0, 1.0);
  // A concave polygon (an L), closed by clicking its first corner.
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"obstacle","shape":"polygon"})")));
  const double corners[6][2] = {{-200, -100}, {-100, -100}, {-100, -60},
                                {-160, -60},  {-160, 40},   {-200, 40}};
  for (const auto& c : corners) Click(s, Pixel(s, c[0], c[1]));
  EXPECT_EQ(Get(s.viewer.State(), "polygon_draft").as_number(), 6.0);
  Click(s, Pixel(s, -200, -100));
  set = s.Obstacles();
  ASSERT_EQ(set.size(), 2u);
  ASSERT_EQ(set.obstacles()[1].vertices.size(), 6u);
  EXPECT_TRUE(ObstacleContains(set.obstacles()[1], glm::dvec2(-180, 0)));
  EXPECT_FALSE(ObstacleContains(set.obstacles()[1], glm::dvec2(-120, 0)));  // the notch
  // Enter closes a polygon too.
  for (const auto& c : {glm::dvec2(200, 100), glm::dvec2(260, 100), glm::dvec2(230, 150)})
    Click(s, Pixel(s, c.x, c.y));
  s.viewer.OnKeyDown(Key::kEnter);
  s.viewer.OnKeyUp(Key::kEnter);
  s.viewer.Update(0.0);
  ASSERT_EQ(s.Obstacles().size(), 3u);
  // Drag the circle by 50 along y.
  const glm::dvec2 from = Pixel(s, 100, 0), to = Pixel(s, 100, 50);
  s.viewer.OnCursor(from.x, from.y);
  s.viewer.OnMouseButton(MouseButton::kLeft, true);
  s.viewer.OnCursor(to.x, to.y);
  s.viewer.OnMouseButton(MouseButton::kLeft, false);
  set = s.Obstacles();
  EXPECT_NEAR(set.obstacles()[0].centre.y, 50.0, 1.0);
  EXPECT_EQ(Get(s.viewer.State(), "selected_obstacle").as_number(), 0.0);
  // Delete removes the selected one.
  s.viewer.OnKeyDown(Key::kDelete);
  s.viewer.OnKeyUp(Key::kDelete);
  s.viewer.Update(0.0);
  set = s.Obstacles();
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set.obstacles()[0].kind, Obstacle::Kind::kPolygon);
}

TEST(ViewerObstaclesTest, ObstaclesAreDrawnFilledWithOutlines) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  DrawList empty;
  s.viewer.BuildDrawList(&empty);
  EXPECT_TRUE(empty.triangles.empty());
  ASSERT_TRUE(
      Ok(s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[0,100],"radius":20}}})")));
  ASSERT_TRUE(Ok(s.Run(
      R"({"cmd":"addObstacle","obstacle":{"polygon":[[0,0],[40,0],[40,40],[20,10],[0,40]]}})")));
  DrawList list;
  s.viewer.BuildDrawList(&list);
  // 48 fan triangles for the circle, n - 2 for the pentagon.
  ASSERT_EQ(list.triangles.size(), 3u * (48 + 3));
  // The polygon's triangles cover its area exactly (shoelace: 1600 - 600 = 1000).
  double area = 0.0;
  for (size_t i = 48 * 3; i < list.triangles.size(); i += 3) {
    const glm::vec3 a = list.triangles[i].position, b = list.triangles[i + 1].position,
                    c = list.triangles[i + 2].position;
    area += 0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
  }
  EXPECT_NEAR(area, 1000.0, 1e-3);
  EXPECT_GT(list.line_count(), empty.line_count() + 48 + 5 - 1);
}

TEST(ViewerObstaclesTest, ThePlannedPathIsDrawnWithItsTurningCircles) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","routes":true,"turn_circles":false})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  ASSERT_TRUE(Ok(s.Run(
      R"({"cmd":"addObstacle","obstacle":{"polygon":[[180,-150],[220,-150],[220,150],[180,150]]}})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":400,"y":0})")));
  DrawList without;
  s.viewer.BuildDrawList(&without);
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","turn_circles":true})")));
  DrawList with;
  s.viewer.BuildDrawList(&with);
  int arcs = 0;
  for (const TurnSegment& segment : s.character().locomotion.follower.planned()->segments)
    arcs += segment.kind == TurnSegment::Kind::kArc && segment.length > 0.0;
  ASSERT_GT(arcs, 0);
  // The grid and one shape a segment of the path; the circles add only circles.
  int segments = 0;
  for (const TurnSegment& segment : s.character().locomotion.follower.planned()->segments)
    segments += segment.length > 0.0;
  EXPECT_EQ(without.shapes.size(), 1u + static_cast<size_t>(segments));
  EXPECT_EQ(with.shapes.size(), without.shapes.size() + static_cast<size_t>(arcs));
  EXPECT_EQ(with.lines_on_top.size(), without.lines_on_top.size());
  // One on-top circle per arc, round its centre with its radius.
  std::vector<const ShapeInstance*> circles;
  for (const ShapeInstance& shape : with.shapes)
    if (shape.shape == LineShape::kCircle) circles.push_back(&shape);
  ASSERT_EQ(circles.size(), static_cast<size_t>(arcs));
  size_t next = 0;
  for (const TurnSegment& segment : s.character().locomotion.follower.planned()->segments) {
    if (segment.kind != TurnSegment::Kind::kArc || !(segment.length > 0.0)) continue;
    const ShapeInstance& circle = *circles[next++];
    EXPECT_EQ(circle.depth, LineDepth::kOnTop);
    EXPECT_NEAR(circle.centre.x, segment.centre.x, 1e-3);
    EXPECT_NEAR(circle.centre.y, segment.centre.y, 1e-3);
    EXPECT_NEAR(circle.scale, segment.radius, 1e-4);
  }
}

// A new approach path or a display switch redraws the path, as a stage that never drew the old
// one draws it, and the same path draws the same shapes frame after frame.
TEST(ViewerObstaclesTest, TheApproachPathIsRedrawnWhenItOrTheSwitchesChange) {
  const auto send = [](TestStage& s, double x, double y) {
    ASSERT_TRUE(Ok(s.Run("{\"cmd\":\"goTo\",\"instance\":0,\"x\":" + std::to_string(x) +
                         ",\"y\":" + std::to_string(y) + "}")));
  };
  // The lines' points, then each circle's, arc's and segment's centre, radius and span.
  const auto positions = [](const DrawList& list) {
    std::vector<glm::vec3> out;
    for (const LineVertex& v : list.lines_on_top) out.push_back(v.position);
    for (const ShapeInstance& shape : list.shapes) {
      if (shape.shape == LineShape::kGroundGrid) continue;
      out.push_back(shape.centre);
      out.push_back(glm::vec3(shape.scale, static_cast<float>(shape.shape), 0.0f));
      out.push_back(shape.span);
    }
    return out;
  };
  const auto count_of = [](const DrawList& list, LineShape kind) {
    return std::count_if(list.shapes.begin(), list.shapes.end(),
                         [kind](const ShapeInstance& shape) { return shape.shape == kind; });
  };
  const auto circle_count = [&](const DrawList& list) {
    return count_of(list, LineShape::kCircle);
  };
  const auto path_count = [&](const DrawList& list) {
    return count_of(list, LineShape::kArc) + count_of(list, LineShape::kSegment);
  };
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","routes":true,"turn_circles":false})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  ASSERT_NO_FATAL_FAILURE(send(s, 200, 100));
  ASSERT_TRUE(s.character().locomotion.follower.approach().ok());
  DrawList routes_only, again, circles, moved, hidden;
  s.viewer.BuildDrawList(&routes_only);
  s.viewer.BuildDrawList(&again);
  EXPECT_EQ(positions(again), positions(routes_only));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","turn_circles":true})")));
  s.viewer.BuildDrawList(&circles);
  int arcs = 0;
  const TurnPath& first = s.character().locomotion.follower.approach();
  for (int i = 0; i < first.segment_count; ++i) {
    const TurnSegment& segment = first.segments[static_cast<size_t>(i)];
    arcs += segment.kind == TurnSegment::Kind::kArc && segment.radius > 0.0;
  }
  ASSERT_GT(arcs, 0);
  EXPECT_GT(path_count(routes_only), 0);
  EXPECT_EQ(path_count(circles), path_count(routes_only));
  EXPECT_EQ(circle_count(routes_only), 0);
  EXPECT_EQ(circle_count(circles), arcs);

  ASSERT_NO_FATAL_FAILURE(send(s, -150, 80));
  s.viewer.BuildDrawList(&moved);
  TestStage fresh;
  ASSERT_NO_FATAL_FAILURE(fresh.LoadWalker());
  ASSERT_TRUE(Ok(fresh.Run(R"({"cmd":"display","routes":true,"turn_circles":true})")));
  ASSERT_TRUE(Ok(fresh.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  ASSERT_NO_FATAL_FAILURE(send(fresh, -150, 80));
  DrawList expected;
  fresh.viewer.BuildDrawList(&expected);
  EXPECT_NE(positions(moved), positions(circles));
  EXPECT_EQ(positions(moved), positions(expected));

  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","routes":false,"turn_circles":false})")));
  s.viewer.BuildDrawList(&hidden);
  EXPECT_EQ(path_count(hidden), 0);
  EXPECT_EQ(circle_count(hidden), 0);
}

// Each segment of a path becomes one shape: an arc on its turning circle from its start angle
// through its sweep, or a segment from its start to its end, lifted, drawn on top.
TEST(ViewerObstaclesTest, ATurnSegmentIsOneShape) {
  const double pi = glm::pi<double>();
  struct Case {
    const char* name;
    TurnSegment segment;
    LineShape shape;
  };
  const auto arc = [pi](glm::dvec2 centre, double radius, double start_angle, double sweep) {
    TurnSegment s;
    s.kind = TurnSegment::Kind::kArc;
    s.centre = centre;
    s.radius = radius;
    s.start_angle = start_angle;
    s.sweep = sweep;
    s.length = std::abs(sweep) * radius;
    s.start.position = centre + radius * glm::dvec2(std::cos(start_angle), std::sin(start_angle));
    s.start.heading = start_angle + (sweep >= 0 ? pi / 2 : -pi / 2);
    return s;
  };
  const auto line = [](glm::dvec2 from, double angle, double length) {
    TurnSegment s;
    s.kind = TurnSegment::Kind::kLine;
    s.start.position = from;
    s.start.heading = angle;
    s.angle = angle;
    s.length = length;
    return s;
  };
  const Case cases[] = {
      {"a quarter turn left", arc({10, 20}, 30, 0, pi / 2), LineShape::kArc},
      {"a quarter turn right", arc({-5, 0}, 12, pi, -pi / 2), LineShape::kArc},
      {"a sliver", arc({0, 0}, 60, 1.0, 1e-5), LineShape::kArc},
      {"a whole turn", arc({0, 0}, 20, -pi / 3, 2 * pi), LineShape::kArc},
      {"a line along x", line({1, 2}, 0.0, 50), LineShape::kSegment},
      {"a line back and down", line({0, 0}, -2.5, 80), LineShape::kSegment},
  };
  for (const Case& c : cases) {
    const ShapeInstance shape = TurnSegmentShape(c.segment, 0.05f, {120, 220, 255, 255});
    EXPECT_EQ(shape.shape, c.shape) << c.name;
    EXPECT_EQ(shape.depth, LineDepth::kOnTop) << c.name;
    EXPECT_EQ(shape.color.g, 220) << c.name;
    for (double f : {0.0, 0.25, 0.5, 1.0}) {
      TurnSegment part = c.segment;
      part.length = c.segment.length * f;
      part.sweep = c.segment.sweep * f;
      const glm::dvec2 want = TurnSegmentEnd(part).position;
      const glm::vec3 got = PlaceShapeVertex(shape, glm::vec3(static_cast<float>(f), 0, 0));
      EXPECT_NEAR(got.x, want.x, 1e-3) << c.name << " at " << f;
      EXPECT_NEAR(got.y, want.y, 1e-3) << c.name << " at " << f;
      EXPECT_FLOAT_EQ(got.z, 0.05f) << c.name;
    }
  }
}

// The approach path is drawn as one shape a segment: joined, from its start to its end, every
// vertex the renderer draws on the path.
TEST(ViewerObstaclesTest, TheApproachShapesLieOnThePath) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","routes":true,"turn_circles":false})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":-150,"y":80})")));
  const TurnPath path = s.character().locomotion.follower.approach();
  ASSERT_TRUE(path.ok());
  DrawList list;
  s.viewer.BuildDrawList(&list);
  std::vector<ShapeInstance> shapes;
  for (const ShapeInstance& shape : list.shapes) {
    if (shape.shape == LineShape::kArc || shape.shape == LineShape::kSegment) {
      shapes.push_back(shape);
    }
  }
  int segments = 0, arcs = 0;
  for (int i = 0; i < path.segment_count; ++i) {
    const TurnSegment& segment = path.segments[static_cast<size_t>(i)];
    segments += segment.length > 0.0;
    arcs += segment.length > 0.0 && segment.kind == TurnSegment::Kind::kArc;
  }
  ASSERT_GT(arcs, 0);
  ASSERT_EQ(shapes.size(), static_cast<size_t>(segments));
  EXPECT_TRUE(list.lines_on_top.empty()) << "no path drawn as lines";
  const auto on_path = [&](const glm::vec3& p) {
    double best = 1e30;
    for (int k = 0; k <= 2000; ++k) {
      const Pose2 pose = SampleTurnPath(path, path.length * k / 2000);
      best = std::min(best, glm::distance(glm::dvec2(p.x, p.y), pose.position));
    }
    return best;
  };
  std::vector<LineVertex> arc_lines, segment_lines;
  UnitArcLines(&arc_lines);
  UnitSegmentLines(&segment_lines);
  for (size_t k = 0; k < shapes.size(); ++k) {
    const std::vector<LineVertex>& own =
        shapes[k].shape == LineShape::kArc ? arc_lines : segment_lines;
    for (const LineVertex& v : own) {
      EXPECT_LT(on_path(PlaceShapeVertex(shapes[k], v.position)), 0.2) << "shape " << k;
    }
    if (k > 0) {
      const glm::vec3 end = PlaceShapeVertex(shapes[k - 1], {1, 0, 0});
      const glm::vec3 start = PlaceShapeVertex(shapes[k], {0, 0, 0});
      EXPECT_LT(glm::distance(end, start), 1e-3f) << "joined at " << k;
    }
  }
  const Pose2 start = SampleTurnPath(path, 0.0), end = SampleTurnPath(path, path.length);
  const glm::vec3 first = PlaceShapeVertex(shapes.front(), {0, 0, 0});
  const glm::vec3 last = PlaceShapeVertex(shapes.back(), {1, 0, 0});
  EXPECT_NEAR(first.x, start.position.x, 1e-3);
  EXPECT_NEAR(first.y, start.position.y, 1e-3);
  EXPECT_NEAR(last.x, end.position.x, 1e-3);
  EXPECT_NEAR(last.y, end.position.y, 1e-3);
}

TEST(ViewerObstaclesTest, TheMazeSendsThreeWalkersAlongDifferentLegalPaths) {
  TestStage s;
  const std::string text = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/assets/scenes/maze.json");
  ASSERT_FALSE(text.empty());
  const JsonValue prepared =
      s.viewer.Call(Parse("{\"cmd\":\"prepareScene\",\"scene\":" + text + "}"));
  ASSERT_TRUE(Ok(prepared)) << WriteJson(prepared);
  // The page fetches the files; here they are read from assets/.
  for (const JsonValue& file : Get(prepared, "files").as_array()) {
    InputFile input;
    input.source = Get(file, "source").as_string();
    input.name = input.source.substr(input.source.rfind('/') + 1);
    input.bytes = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/assets/" + input.source);
    s.viewer.QueueFile(std::move(input));
  }
  ASSERT_TRUE(Ok(s.viewer.LoadQueuedFiles()));
  const JsonValue applied = s.viewer.Call(Parse(R"({"cmd":"applyScene"})"));
  ASSERT_TRUE(Ok(applied)) << WriteJson(applied);
  ASSERT_EQ(s.viewer.character_count(), 3);
  const ObstacleSet obstacles = s.Obstacles();
  ASSERT_GE(obstacles.size(), 5u);
  double crossing_y[3];
  for (int i = 0; i < 3; ++i) {
    const Locomotion& locomotion = s.character(i).locomotion;
    const PlannedPath* plan = locomotion.follower.planned();
    ASSERT_NE(plan, nullptr) << "walker " << i << ": " << locomotion.plan_message;
    const double heading = locomotion.target_heading;
    const Status legal = CheckPlannedPath(*plan, plan->start, locomotion.target,
                                          locomotion.target_has_heading ? &heading : nullptr,
                                          locomotion.turn_radius, locomotion.clearance, obstacles);
    EXPECT_TRUE(legal.ok()) << "walker " << i << ": " << legal.error().message;
    // Where it passes the dividing wall (x = -220).
    crossing_y[i] = std::nan("");
    for (double d = 0.0; d < plan->length; d += 0.5) {
      const Pose2 a = SamplePlannedPath(*plan, d), b = SamplePlannedPath(*plan, d + 0.5);
      if (a.position.x < -220.0 && b.position.x >= -220.0) crossing_y[i] = a.position.y;
    }
  }
  // The tightest turner (radius 25) takes the narrow gap (y in -32..32), the middle one (50) the
  // top opening (above 200), the widest (110) the bottom one (below -250).
  EXPECT_EQ(s.character(0).locomotion.turn_radius, 25.0);
  EXPECT_LT(std::abs(crossing_y[0]), 32.0) << crossing_y[0];
  EXPECT_GT(crossing_y[1], 200.0) << crossing_y[1];
  EXPECT_LT(crossing_y[2], -250.0) << crossing_y[2];
}

}  // namespace
}  // namespace md5stage::viewer
