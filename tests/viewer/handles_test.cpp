// Handles, not positions (issue 43): what one part of the stage keeps of another survives the
// removal of anything else, state() reports handles, and a stale handle is refused.
#include "viewer/handles.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::AssetModelPath;
using test::Command;
using test::Ok;
using test::ReadBytes;

// ---- handle text -------------------------------------------------------------------------------

struct HandleTextRow {
  std::string text;
  HandleKind kind;
  std::optional<uint32_t> serial;  // none: not a handle of that kind
};

TEST(HandleTextTest, ParsesEachKindsTextAndRefusesEverythingElse) {
  const std::vector<HandleTextRow> rows = {
      {"c1", HandleKind::kCharacter, 1u},
      {"c7", HandleKind::kCharacter, 7u},
      {"m2", HandleKind::kModel, 2u},
      {"r10", HandleKind::kRoute, 10u},
      {"o3", HandleKind::kObstacle, 3u},
      {"k4", HandleKind::kCamera, 4u},
      {"c4294967295", HandleKind::kCharacter, 4294967295u},
      {"c4294967296", HandleKind::kCharacter, std::nullopt},  // past 32 bits
      {"c0", HandleKind::kCharacter, std::nullopt},           // serials start at 1
      {"c07", HandleKind::kCharacter, std::nullopt},          // one spelling each
      {"m2", HandleKind::kCharacter, std::nullopt},           // another kind's letter
      {"c", HandleKind::kCharacter, std::nullopt},
      {"", HandleKind::kCharacter, std::nullopt},
      {"0", HandleKind::kCharacter, std::nullopt},
      {"c1x", HandleKind::kCharacter, std::nullopt},
      {"C1", HandleKind::kCharacter, std::nullopt},
      {" c1", HandleKind::kCharacter, std::nullopt},
      {"c-1", HandleKind::kCharacter, std::nullopt},
  };
  for (const HandleTextRow& row : rows) {
    SCOPED_TRACE(row.text);
    EXPECT_EQ(ParseHandleSerial(row.kind, row.text), row.serial);
  }
  EXPECT_EQ(HandleText(CharacterId{7}), "c7");
  EXPECT_EQ(HandleText(CameraId{12}), "k12");
  EXPECT_EQ(HandleText(RouteId{}), "");
}

TEST(HandleSerialsTest, EachKindCountsFromOneAndNeverRepeats) {
  HandleSerials serials;
  EXPECT_EQ(serials.Next<HandleKind::kCharacter>(), CharacterId{1});
  EXPECT_EQ(serials.Next<HandleKind::kCharacter>(), CharacterId{2});
  EXPECT_EQ(serials.Next<HandleKind::kRoute>(), RouteId{1});
  EXPECT_EQ(serials.Next<HandleKind::kCharacter>(), CharacterId{3});
}

// ---- a stage with two models -------------------------------------------------------------------

struct HandleStage {
  HandleStage() : stage(&backend, nullptr) { stage.SetViewport(1280, 720, 1.0f); }

  void Load(const std::vector<std::string>& files) {
    for (const std::string& relative : files) {
      InputFile file;
      file.name = relative.substr(relative.find('/') + 1);
      file.source = "local";
      file.bytes = ReadBytes(AssetModelPath(relative));
      stage.QueueFile(std::move(file));
    }
    ASSERT_TRUE(Ok(stage.LoadQueuedFiles()));
  }
  void LoadLamp() { Load({"lamp/lamp.md5mesh"}); }
  void LoadWalker() {
    Load({"walker/walker.md5mesh", "walker/idle.md5anim", "walker/walk.md5anim"});
  }
  JsonValue Run(const std::string& json) { return stage.Call(Command(json)); }
  void RunOk(const std::string& json) {
    const JsonValue reply = Run(json);
    ASSERT_TRUE(Ok(reply)) << json << " -> " << WriteJson(reply);
  }
  JsonValue State() { return stage.State(); }
  const JsonArray& Instances() { return (state_ = State()).Find("instances")->as_array(); }
  int PositionOfLabel(const std::string& label) {
    const JsonArray& instances = Instances();
    for (size_t i = 0; i < instances.size(); ++i) {
      if (instances[i].Find("label")->as_string() == label) return static_cast<int>(i);
    }
    return -1;
  }
  std::string IdOfLabel(const std::string& label) {
    const int i = PositionOfLabel(label);
    return i < 0 ? "" : Instances()[static_cast<size_t>(i)].Find("id")->as_string();
  }
  std::string Selected(const char* key = "selected_id") {
    const JsonValue state = State();
    const JsonValue* id = state.Find(key);
    return id->is_string() ? id->as_string() : "";
  }
  std::string SelectedLabel() {
    const JsonValue state = State();
    const int selected = static_cast<int>(state.Find("selected")->as_number());
    if (selected < 0) return "";
    return state.Find("instances")
        ->as_array()[static_cast<size_t>(selected)]
        .Find("label")
        ->as_string();
  }

  NullRenderBackend backend;
  Stage stage;
  JsonValue state_;
};

// The issue's reproduction and its mirror: the selected (and followed) character stays selected
// when a model whose characters stand before or after it is removed, and the camera keeps
// following it; the selection is cleared only when its own model goes.
struct RemoveModelRow {
  std::string name;
  bool lamp_first;     // the lamp's two characters before the walker's one, or after
  std::string select;  // the label selected before the removal
  std::string remove;  // the model removed
  std::string kept;    // the label selected after it ("" when cleared)
};

TEST(HandlesTest, RemovingAModelLeavesTheSelectionOnTheSameCharacter) {
  const std::vector<RemoveModelRow> rows = {
      {"a model before the selected one", true, "walker", "lamp", "walker"},
      {"the first of a later model selected", false, "lamp", "walker", "lamp"},
      {"the second of a later model selected", false, "lamp 2", "walker", "lamp 2"},
      {"a model after the selected one", false, "walker", "lamp", "walker"},
      {"the selected one's own model", true, "walker", "walker", ""},
  };
  for (const RemoveModelRow& row : rows) {
    SCOPED_TRACE(row.name);
    HandleStage s;
    if (row.lamp_first) {
      ASSERT_NO_FATAL_FAILURE(s.LoadLamp());
      ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"addInstance","model":"lamp"})"));
      ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
    } else {
      ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
      ASSERT_NO_FATAL_FAILURE(s.LoadLamp());
      ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"addInstance","model":"lamp"})"));
    }
    ASSERT_EQ(s.Instances().size(), 3u);
    const std::string selected_id = s.IdOfLabel(row.select);
    ASSERT_FALSE(selected_id.empty());
    ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"select","instance":")" + selected_id + "\"}"));
    ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"follow","on":true})"));
    ASSERT_EQ(s.SelectedLabel(), row.select);
    ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeModel","model":")" + row.remove + "\"}"));
    EXPECT_EQ(s.SelectedLabel(), row.kept);
    EXPECT_EQ(s.Selected(), row.kept.empty() ? "" : selected_id);
    if (!row.kept.empty()) {
      // The camera follows the very character: moved by hand, the view's target goes with it.
      ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"setPlacement","instance":")" + selected_id +
                                      R"(","position":[321,-45,0]})"));
      s.stage.Update(0.016);
      EXPECT_NEAR(s.stage.camera().target.x, 321.0f, 1e-3f);
      EXPECT_NEAR(s.stage.camera().target.y, -45.0f, 1e-3f);
    }
  }
}

TEST(HandlesTest, RemovingARouteLeavesTheEditAndTheWalkersOnTheSameRoute) {
  HandleStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  for (const char* name : {"first", "second", "third"}) {
    ASSERT_NO_FATAL_FAILURE(s.RunOk(std::string(R"({"cmd":"setRoute","name":")") + name +
                                    R"(","route":{"segments":[{"line":[[0,0],[300,0]]}]}})"));
  }
  JsonValue state = s.State();
  const JsonArray& routes = state.Find("routes")->as_array();
  ASSERT_EQ(routes.size(), 3u);
  const std::string third = routes[2].Find("id")->as_string();
  // Edit the third route, walk it; then remove the first.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"tool","tool":"route","route":")" + third + "\"}"));
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"assignRoute","instance":0,"route":")" + third + "\"}"));
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeRoute","route":0})"));
  state = s.State();
  ASSERT_EQ(state.Find("routes")->as_array().size(), 2u);
  EXPECT_EQ(state.Find("routes")->as_array()[1].Find("id")->as_string(), third);
  EXPECT_EQ(state.Find("routes")->as_array()[1].Find("name")->as_string(), "third");
  const JsonValue& walker = state.Find("instances")->as_array()[0];
  EXPECT_EQ(walker.Find("route_id")->as_string(), third);
  EXPECT_EQ(walker.Find("route")->as_number(), 1.0);
  EXPECT_EQ(s.stage.RouteIndex(s.stage.route_tool().edited_route()), 1);
  // Removing the edited route itself ends its editing; its walkers stop.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeRoute","route":")" + third + "\"}"));
  EXPECT_FALSE(s.stage.route_tool().edited_route().valid());
  EXPECT_EQ(s.State().Find("instances")->as_array()[0].Find("route")->as_number(), -1.0);
  EXPECT_TRUE(s.State().Find("instances")->as_array()[0].Find("route_id")->is_null());
}

// Framebuffer pixel of a ground point.
glm::dvec2 Pixel(HandleStage& s, double x, double y) {
  const JsonValue reply = s.Run("{\"cmd\":\"screenAt\",\"point\":[" + std::to_string(x) + "," +
                                std::to_string(y) + ",0]}");
  const JsonArray& p = reply.Find("pixel")->as_array();
  return glm::dvec2(p[0].as_number(), p[1].as_number());
}

TEST(HandlesTest, RemovingAnObstacleLeavesTheSelectionOnTheSameObstacle) {
  HandleStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"camera","target":[0,0,0],"yaw":0,"pitch":80,"distance":900})"));
  for (int x : {-200, 200, 300}) {
    ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[)" +
                                    std::to_string(x) + R"(,150],"radius":30}}})"));
  }
  // Select the third with the obstacle tool, as a person does: a click on it.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"tool","tool":"obstacle"})"));
  const glm::dvec2 at = Pixel(s, 300, 150);
  s.stage.OnCursor(at.x, at.y);
  s.stage.OnMouseButton(MouseButton::kLeft, true);
  s.stage.OnMouseButton(MouseButton::kLeft, false);
  const JsonValue before = s.State();
  ASSERT_EQ(before.Find("selected_obstacle")->as_number(), 2.0);
  const std::string third = before.Find("obstacle_ids")->as_array()[2].as_string();
  ASSERT_EQ(s.Selected("selected_obstacle_id"), third);
  // Remove the first (by position) and the second (by handle): the third stays selected.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeObstacle","index":0})"));
  EXPECT_EQ(s.Selected("selected_obstacle_id"), third);
  EXPECT_EQ(s.State().Find("selected_obstacle")->as_number(), 1.0);
  const std::string second = s.State().Find("obstacle_ids")->as_array()[0].as_string();
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeObstacle","index":")" + second + "\"}"));
  EXPECT_EQ(s.Selected("selected_obstacle_id"), third);
  EXPECT_EQ(s.State().Find("selected_obstacle")->as_number(), 0.0);
  // Delete removes the selected one, which is the third.
  s.stage.OnKeyDown(Key::kDelete);
  s.stage.OnKeyUp(Key::kDelete);
  s.stage.Update(0.0);
  EXPECT_TRUE(s.State().Find("obstacles")->as_array().empty());
  EXPECT_EQ(s.Selected("selected_obstacle_id"), "");
}

TEST(HandlesTest, StateReportsHandlesThatCommandsTake) {
  HandleStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_NO_FATAL_FAILURE(s.LoadLamp());
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"setRoute","route":{"segments":[{"line":[[0,0],[300,0]]}]}})"));
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[0,300],"radius":10}}})"));
  const JsonValue state = s.State();
  EXPECT_EQ(state.Find("models")->as_array()[0].Find("id")->as_string(), "m1");
  EXPECT_EQ(state.Find("models")->as_array()[1].Find("id")->as_string(), "m2");
  EXPECT_EQ(state.Find("instances")->as_array()[0].Find("id")->as_string(), "c1");
  EXPECT_EQ(state.Find("instances")->as_array()[1].Find("id")->as_string(), "c2");
  EXPECT_EQ(state.Find("routes")->as_array()[0].Find("id")->as_string(), "r1");
  EXPECT_EQ(state.Find("obstacle_ids")->as_array()[0].as_string(), "o1");
  EXPECT_EQ(state.Find("selected_id")->as_string(), "c2");  // the new lamp
  // Handles and positions name the same things.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"select","instance":"c1"})"));
  EXPECT_EQ(state.Find("instances")->as_array()[0].Find("label")->as_string(), s.SelectedLabel());
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"assignRoute","instance":"c1","route":"r1"})"));
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"sampleRoute","route":"r1","distance":1})"));
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"addInstance","model":"m2"})"));
  EXPECT_EQ(s.State().Find("selected_id")->as_string(), "c3");
  // A handle is never given again: after removing the lamp (c2, c3) a new one is c4.
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeModel","model":"m2"})"));
  ASSERT_NO_FATAL_FAILURE(s.LoadLamp());
  EXPECT_EQ(s.State().Find("models")->as_array()[1].Find("id")->as_string(), "m3");
  EXPECT_EQ(s.State().Find("instances")->as_array()[1].Find("id")->as_string(), "c4");
}

// A handle of something removed, or never here, is an error naming the field, and changes nothing.
struct StaleRow {
  std::string command;
  std::string error;
};

TEST(HandlesTest, AStaleHandleIsRefusedAndChangesNothing) {
  HandleStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_NO_FATAL_FAILURE(s.LoadLamp());  // c2, removed below with its model m2
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"setRoute","route":{"segments":[{"line":[[0,0],[300,0]]}]}})"));
  ASSERT_NO_FATAL_FAILURE(
      s.RunOk(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[0,300],"radius":10}}})"));
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"removeModel","model":"lamp"})"));
  ASSERT_NO_FATAL_FAILURE(s.RunOk(R"({"cmd":"select","instance":"c1"})"));
  const std::vector<StaleRow> rows = {
      {R"({"cmd":"select","instance":"c2"})",
       R"(select.instance: expected the id of one of the scene's characters, found "c2" (removed, or never here))"},
      {R"({"cmd":"setTime","instance":"c99","time":1})",
       R"(setTime.instance: expected the id of one of the scene's characters, found "c99" (removed, or never here))"},
      {R"({"cmd":"assignRoute","instance":"c1","route":"r2"})",
       R"(assignRoute.route: expected the id of one of the scene's routes, found "r2" (removed, or never here))"},
      {R"({"cmd":"removeObstacle","index":"o2"})",
       R"(removeObstacle.index: expected the id of one of the scene's obstacles, found "o2" (removed, or never here))"},
      {R"({"cmd":"removeModel","model":"m2"})",
       R"(removeModel.model: expected a loaded model (walker), found "m2")"},
      {R"({"cmd":"removeRoute","route":"r9"})",
       R"(removeRoute.route: expected the id of one of the scene's routes, found "r9" (removed, or never here))"},
  };
  for (const StaleRow& row : rows) {
    SCOPED_TRACE(row.command);
    const std::string before = WriteJson(s.State());
    const JsonValue reply = s.Run(row.command);
    EXPECT_FALSE(Ok(reply));
    ASSERT_NE(reply.Find("error"), nullptr);
    EXPECT_EQ(reply.Find("error")->as_string(), row.error);
    EXPECT_EQ(WriteJson(s.State()), before);
  }
}

}  // namespace
}  // namespace md5stage::viewer
