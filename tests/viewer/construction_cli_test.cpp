// `md5stage turn --explain --json` against the construction view: for the same origin, radius
// and destination, every number the CLI prints (P, h, phi, d, theta, Q, length, reachable, chosen
// per side; the Dubins words with a final heading) equals what the viewer draws and labels.
#include <gtest/gtest.h>

#include <string>

#include "../cli/cli_test_util.h"
#include "core/common/json.h"
#include "viewer/construction_figure.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::Command;
using test::Ok;

constexpr double kTolerance = 1e-9;

struct WalkerStage {
  WalkerStage() : stage(&backend, nullptr) { stage.SetViewport(800, 600, 1.0f); }
  void Load() {
    test::QueueWalker(stage);
    ASSERT_TRUE(Ok(stage.LoadQueuedFiles()));
    ASSERT_TRUE(Ok(stage.Call(Command(R"({"cmd":"setTurnRadius","instance":0,"radius":30})"))));
    ASSERT_TRUE(Ok(stage.Call(Command(R"({"cmd":"display","construction":true})"))));
  }
  NullRenderBackend backend;
  Stage stage;
  DrawList list;
};

// The CLI's construction member for the walker's start pose (0, 0) facing +x, radius 30.
JsonValue Explain(const std::string& to) {
  const testing::CliRun run =
      testing::RunCli("turn --from 0,0,0 --to " + to + " --radius 30 --explain --json");
  EXPECT_TRUE(run.status == 0 || run.status == 1) << run.err;
  Result<JsonValue> parsed = ParseJson("stdout", run.out);
  EXPECT_TRUE(parsed.ok()) << run.out;
  if (!parsed.ok()) return JsonValue();
  const JsonValue* construction = parsed.value().Find("construction");
  EXPECT_TRUE(construction != nullptr) << run.out;
  return construction != nullptr ? *construction : JsonValue();
}

double Number(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  EXPECT_TRUE(value != nullptr && value->is_number()) << key;
  return value != nullptr && value->is_number() ? value->as_number() : 0.0;
}

glm::dvec2 Point(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  EXPECT_TRUE(value != nullptr && value->is_array() && value->as_array().size() == 2) << key;
  if (value == nullptr || !value->is_array() || value->as_array().size() != 2) return {};
  return {value->as_array()[0].as_number(), value->as_array()[1].as_number()};
}

void ExpectNear(glm::dvec2 a, glm::dvec2 b, const std::string& what) {
  EXPECT_NEAR(a.x, b.x, kTolerance) << what;
  EXPECT_NEAR(a.y, b.y, kTolerance) << what;
}

// The label of `name` on `side`, or null.
const ConstructionLabel* FindLabel(const ConstructionFigure& figure, const std::string& name,
                                   int side) {
  for (const ConstructionLabel& label : figure.labels) {
    if (label.name == name && label.side == side) return &label;
  }
  return nullptr;
}

struct ExplainCase {
  const char* name;
  const char* to;  // the same text for the CLI's --to and the go-to command's x, y
  double x, y;
  int reachable_sides;
};

TEST(ConstructionCliTest, TurnExplainJsonAgreesWithTheDrawnFigure) {
  const ExplainCase cases[] = {
      {"straight ahead", "200,0", 200, 0, 2},
      {"behind", "-200,0", -200, 0, 2},
      {"left", "0,150", 0, 150, 2},
      {"right", "0,-150", 0, -150, 2},
      {"on the left circle, h = r", "30,30", 30, 30, 2},
      {"inside the left circle", "10,40", 10, 40, 1},
      {"inside the right circle", "-12,-25", -12, -25, 1},
      {"far ahead and left", "1000,700", 1000, 700, 2},
  };
  for (const ExplainCase& c : cases) {
    SCOPED_TRACE(c.name);
    WalkerStage s;
    ASSERT_NO_FATAL_FAILURE(s.Load());
    const std::string go = std::string(R"({"cmd":"goTo","instance":0,"x":)") +
                           FormatJsonNumber(c.x) + R"(,"y":)" + FormatJsonNumber(c.y) + "}";
    ASSERT_TRUE(Ok(s.stage.Call(Command(go)))) << go;
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.shown);
    const JsonValue cli = Explain(c.to);
    ASSERT_TRUE(cli.is_object());
    EXPECT_NEAR(Number(cli, "radius"), figure.radius, kTolerance);
    ExpectNear(Point(cli, "destination"), figure.destination, "destination");
    const JsonValue* sides = cli.Find("sides");
    ASSERT_TRUE(sides != nullptr && sides->is_array());
    ASSERT_EQ(sides->as_array().size(), 2u);
    int reachable = 0;
    for (int i = 0; i < 2; ++i) {
      SCOPED_TRACE(i == 0 ? "left" : "right");
      const JsonValue& side = sides->as_array()[static_cast<size_t>(i)];
      const ArcLineConstructionSide& drawn = figure.numbers.sides[static_cast<size_t>(i)];
      EXPECT_EQ(side.Find("side")->as_string(), i == 0 ? "left" : "right");
      ExpectNear(Point(side, "P"), drawn.centre, "P");
      EXPECT_NEAR(Number(side, "h"), drawn.h, kTolerance);
      EXPECT_NEAR(Number(side, "phi"), drawn.phi, kTolerance);
      EXPECT_EQ(side.Find("reachable")->as_bool(), drawn.reachable);
      EXPECT_EQ(side.Find("chosen")->as_bool(), drawn.chosen);
      // The labels the view draws carry the same numbers.
      ExpectNear(Point(side, "P"), FindLabel(figure, "P", i)->at, "P label");
      EXPECT_NEAR(Number(side, "h"), FindLabel(figure, "h", i)->value, kTolerance);
      EXPECT_NEAR(Number(side, "phi"), FindLabel(figure, "phi", i)->value, kTolerance);
      EXPECT_NEAR(Number(cli, "radius"), FindLabel(figure, "r", i)->value, kTolerance);
      if (!drawn.reachable) {
        EXPECT_TRUE(side.Find("d")->is_null());
        EXPECT_TRUE(side.Find("Q")->is_null());
        EXPECT_TRUE(side.Find("length")->is_null());
        EXPECT_EQ(FindLabel(figure, "Q", i), nullptr);
        EXPECT_EQ(FindLabel(figure, "length", i)->text, "unreachable (h < r)");
        continue;
      }
      ++reachable;
      EXPECT_NEAR(Number(side, "d"), FindLabel(figure, "d", i)->value, kTolerance);
      EXPECT_NEAR(Number(side, "theta"), FindLabel(figure, "theta", i)->value, kTolerance);
      EXPECT_NEAR(Number(side, "length"), FindLabel(figure, "length", i)->value, kTolerance);
      ExpectNear(Point(side, "Q"), FindLabel(figure, "Q", i)->at, "Q label");
      EXPECT_NEAR(Number(side, "arc_length"), drawn.arc_length, kTolerance);
    }
    EXPECT_EQ(reachable, c.reachable_sides);
    const JsonValue* chosen = cli.Find("chosen");
    ASSERT_TRUE(chosen != nullptr && chosen->is_string());
    EXPECT_EQ(chosen->as_string(), figure.numbers.chosen_side == 0 ? "left" : "right");
  }
}

TEST(ConstructionCliTest, TurnExplainJsonAgreesWithTheDrawnDubinsWords) {
  const struct {
    const char* to;
    double x, y, heading;
  } cases[] = {
      {"150,80,-1.5", 150, 80, -1.5}, {"20,5,3", 20, 5, 3}, {"-90,-40,0.5", -90, -40, 0.5}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.to);
    WalkerStage s;
    ASSERT_NO_FATAL_FAILURE(s.Load());
    const std::string go = std::string(R"({"cmd":"goTo","instance":0,"x":)") +
                           FormatJsonNumber(c.x) + R"(,"y":)" + FormatJsonNumber(c.y) +
                           R"(,"heading":)" + FormatJsonNumber(c.heading) + "}";
    ASSERT_TRUE(Ok(s.stage.Call(Command(go)))) << go;
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.shown);
    ASSERT_TRUE(figure.has_final_heading);
    const JsonValue cli = Explain(c.to);
    ASSERT_TRUE(cli.is_object());
    EXPECT_NEAR(Number(cli, "final_heading"), figure.final_heading, kTolerance);
    const JsonValue* words = cli.Find("dubins");
    ASSERT_TRUE(words != nullptr && words->is_array());
    ASSERT_EQ(words->as_array().size(), static_cast<size_t>(TurnConstruction::kDubinsWords));
    int shown = 0;
    for (const JsonValue& word : words->as_array()) {
      const std::string type = word.Find("type")->as_string();
      const ConstructionLabel* label = FindLabel(figure, type, -1);
      if (!word.Find("exists")->as_bool()) {
        EXPECT_EQ(label, nullptr) << type << " is drawn but the CLI says it does not exist";
        continue;
      }
      ++shown;
      ASSERT_NE(label, nullptr) << type << " exists but is not drawn";
      EXPECT_NEAR(Number(word, "length"), label->value, kTolerance) << type;
      const int index = static_cast<int>(&word - &words->as_array()[0]);
      EXPECT_EQ(word.Find("shortest")->as_bool(), index == figure.numbers.shortest_dubins) << type;
    }
    EXPECT_GE(shown, 1);
  }
}

}  // namespace
}  // namespace md5stage::viewer
