// The construction view (display toggle `construction`): every point and label number drawn for a
// go-to target equals TurnConstructionJob's (≤ 1e-9) over a table of destinations, the lines sit
// on those points, the figure follows a new target, and with the toggle off nothing extra is drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "viewer/construction_figure.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::Command;
using test::Ok;

constexpr double kRadius = 30.0;

struct TestStage {
  TestStage() : stage(&backend, nullptr) { stage.SetViewport(800, 600, 1.0f); }
  void LoadWalker() {
    test::QueueWalker(stage);
    ASSERT_TRUE(Ok(stage.LoadQueuedFiles()));
    ASSERT_EQ(stage.character_count(), 1);
    ASSERT_TRUE(Ok(Run(R"({"cmd":"setTurnRadius","instance":0,"radius":30})")));
  }
  JsonValue Run(const std::string& json) { return stage.Call(Command(json)); }
  NullRenderBackend backend;
  Stage stage;
  DrawList list;
};

void ExpectNear(glm::dvec2 a, glm::dvec2 b, const char* what) {
  EXPECT_NEAR(a.x, b.x, 1e-9) << what;
  EXPECT_NEAR(a.y, b.y, 1e-9) << what;
}

// How many line vertices of the list are exactly (as floats) at p.
int VerticesAt(const DrawList& list, glm::dvec2 p) {
  int count = 0;
  for (const LineVertex& v : list.lines_on_top) {
    if (v.position.x == static_cast<float>(p.x) && v.position.y == static_cast<float>(p.y)) ++count;
  }
  return count;
}

bool SameColor(Rgba8 a, Rgba8 b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

// How many line vertices lie on the circle of radius r round c (to float precision).
int VerticesOnCircle(const DrawList& list, glm::dvec2 c, double r) {
  int count = 0;
  for (const LineVertex& v : list.lines_on_top) {
    const double d = glm::length(glm::dvec2(v.position.x, v.position.y) - c);
    if (std::abs(d - r) < 1e-5 * std::max(1.0, std::abs(c.x) + std::abs(c.y) + r)) ++count;
  }
  return count;
}

// The label's number, point and text against the core's side.
void ExpectLabel(const ConstructionLabel& label, const ArcLineConstructionSide& side,
                 const Pose2& origin, glm::dvec2 destination) {
  SCOPED_TRACE(label.name + " side " + std::to_string(label.side));
  if (label.name == "P") {
    ExpectNear(label.at, side.centre, "P");
  } else if (label.name == "Q") {
    ExpectNear(label.at, side.leave, "Q");
  } else if (label.name == "r") {
    EXPECT_NEAR(label.value, kRadius, 1e-9);
    ExpectNear(label.at, 0.5 * (side.centre + origin.position), "r");
  } else if (label.name == "h") {
    EXPECT_NEAR(label.value, side.h, 1e-9);
    ExpectNear(label.at, 0.5 * (side.centre + destination), "h");
  } else if (label.name == "d") {
    EXPECT_NEAR(label.value, side.d, 1e-9);
    ExpectNear(label.at, 0.5 * (side.leave + destination), "d");
  } else if (label.name == "theta") {
    EXPECT_NEAR(label.value, side.theta, 1e-9);
  } else if (label.name == "phi") {
    EXPECT_NEAR(label.value, side.phi, 1e-9);
  } else if (label.name == "length") {
    EXPECT_NEAR(label.value, side.reachable ? side.length : side.h, 1e-9);
  } else {
    ADD_FAILURE() << "unexpected label";
  }
  if (label.name == "length" && !side.reachable) {
    EXPECT_EQ(label.text, "unreachable (h < r)");
  } else {
    EXPECT_EQ(label.text, ConstructionLabelText(label.name, label.value));
  }
}

struct Case {
  const char* name;
  glm::dvec2 destination;
  int reachable_sides;  // how many of the two
};

// From (0, 0) facing +x: the left circle's centre is (0, 30), the right one's (0, -30).
const Case kCases[] = {
    {"straight ahead", {200, 0}, 2},
    {"behind", {-200, 0}, 2},
    {"left", {0, 150}, 2},
    {"right", {0, -150}, 2},
    {"on the left circle, h = r", {30, 30}, 2},
    {"inside the left circle", {10, 40}, 1},
    {"inside the right circle", {-12, -25}, 1},
    {"far ahead and left", {1000, 700}, 2},
};

std::string GoToCommand(glm::dvec2 destination) {
  return R"({"cmd":"goTo","instance":0,"x":)" + std::to_string(destination.x) + R"(,"y":)" +
         std::to_string(destination.y) + "}";
}

TEST(ConstructionViewTest, DrawsTheCoresConstructionForEveryCase) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    // Each target from the same pose, (0, 0) facing +x: a fresh stage.
    TestStage s;
    ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
    s.stage.BuildDrawList(&s.list);
    const size_t texts_off = s.list.texts.size();
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
    ASSERT_TRUE(Ok(s.Run(GoToCommand(c.destination))));
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.shown);
    EXPECT_EQ(s.stage.CharacterIndex(figure.character), 0);
    ExpectNear(figure.origin.position, glm::dvec2(0.0), "origin");
    EXPECT_EQ(figure.radius, kRadius);
    ExpectNear(figure.destination, c.destination, "destination");

    TurnConstruction expected;
    TurnConstructionJob job;
    job.origin = Pose2{glm::dvec2(0.0), 0.0};
    job.radius = kRadius;
    job.destination = c.destination;
    job.out = &expected;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_EQ(figure.numbers.chosen_side, expected.chosen_side);
    int reachable = 0;
    for (int i = 0; i < 2; ++i) {
      const ArcLineConstructionSide& got = figure.numbers.sides[static_cast<size_t>(i)];
      const ArcLineConstructionSide& want = expected.sides[static_cast<size_t>(i)];
      ExpectNear(got.centre, want.centre, "P");
      EXPECT_NEAR(got.h, want.h, 1e-9);
      EXPECT_NEAR(got.phi, want.phi, 1e-9);
      EXPECT_EQ(got.reachable, want.reachable);
      EXPECT_EQ(got.chosen, want.chosen);
      reachable += want.reachable ? 1 : 0;
      if (want.reachable) {
        EXPECT_NEAR(got.d, want.d, 1e-9);
        EXPECT_NEAR(got.theta, want.theta, 1e-9);
        ExpectNear(got.leave, want.leave, "Q");
        EXPECT_NEAR(got.length, want.length, 1e-9);
        // The lines run through Q, and the circle's vertices lie on it.
        EXPECT_GE(VerticesAt(s.list, want.leave), 2) << "Q, side " << i;
      }
      EXPECT_GE(VerticesAt(s.list, want.centre), want.reachable ? 4 : 3) << "P, side " << i;
      EXPECT_GE(VerticesOnCircle(s.list, want.centre, kRadius), 2 * 72) << "circle, side " << i;
    }
    EXPECT_EQ(reachable, c.reachable_sides);
    EXPECT_GE(VerticesAt(s.list, c.destination), 2);
    // Every label: P, r, h, φ, length per side, and d, Q, θ where reachable.
    EXPECT_EQ(figure.labels.size(), static_cast<size_t>(2 * 5 + 3 * reachable));
    for (const ConstructionLabel& label : figure.labels) {
      ASSERT_GE(label.side, 0);
      ExpectLabel(label, expected.sides[static_cast<size_t>(label.side)], job.origin,
                  c.destination);
    }
    // Each placed label is drawn as a text, where it was placed.
    size_t placed = 0;
    for (const ConstructionLabel& label : figure.labels) {
      if (!label.placed) continue;
      ASSERT_LT(texts_off + placed, s.list.texts.size());
      const DrawList::Text& text = s.list.texts[texts_off + placed++];
      EXPECT_EQ(text.text, label.text);
      EXPECT_EQ(text.position, glm::vec2(label.pixel));
    }
    EXPECT_GE(placed, 5u);
    EXPECT_EQ(s.list.texts.size(), texts_off + placed);
    // state() reports the drawn numbers.
    const JsonValue state = s.stage.State();
    const JsonValue* reported = state.Find("construction");
    ASSERT_TRUE(reported != nullptr && reported->is_object());
    const JsonValue& sides = *reported->Find("sides");
    ASSERT_EQ(sides.as_array().size(), 2u);
    EXPECT_NEAR(sides.as_array()[0].Find("h")->as_number(), expected.sides[0].h, 1e-9);
  }
}

// With the toggle off the list is exactly what it is without the feature; on, it gains lines and
// texts; off again, it is back.
TEST(ConstructionViewTest, ToggleOffDrawsNothingExtra) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":120,"y":-60})")));
  s.stage.BuildDrawList(&s.list);
  const size_t lines_off = s.list.line_count(), texts_off = s.list.texts.size();
  EXPECT_FALSE(s.stage.construction_figure().shown);
  EXPECT_TRUE(s.stage.State().Find("construction")->is_null());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
  s.stage.BuildDrawList(&s.list);
  EXPECT_TRUE(s.stage.construction_figure().shown);
  EXPECT_GT(s.list.line_count(), lines_off + 2 * 72);
  EXPECT_GT(s.list.texts.size(), texts_off);
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":false})")));
  s.stage.BuildDrawList(&s.list);
  EXPECT_FALSE(s.stage.construction_figure().shown);
  EXPECT_EQ(s.list.line_count(), lines_off);
  EXPECT_EQ(s.list.texts.size(), texts_off);
}

TEST(ConstructionViewTest, DubinsCandidatesWithAFinalHeading) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":150,"y":80,"heading":-1.5})")));
  s.stage.BuildDrawList(&s.list);
  const ConstructionFigure& figure = s.stage.construction_figure();
  ASSERT_TRUE(figure.shown);
  ASSERT_TRUE(figure.has_final_heading);
  TurnConstruction expected;
  TurnConstructionJob job;
  job.origin = Pose2{glm::dvec2(0.0), 0.0};
  job.radius = kRadius;
  job.destination = glm::dvec2(150, 80);
  job.has_final_heading = true;
  job.final_heading = -1.5;
  job.out = &expected;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(figure.numbers.shortest_dubins, expected.shortest_dubins);
  size_t existing = 0;
  for (int w = 0; w < TurnConstruction::kDubinsWords; ++w) {
    const DubinsCandidate& want = expected.dubins[static_cast<size_t>(w)];
    if (!want.exists) continue;
    const ConstructionLabel& label = figure.labels.at(existing++);
    EXPECT_EQ(label.name, TurnPathTypeName(want.type));
    EXPECT_NEAR(label.value, want.path.length, 1e-9);
    EXPECT_EQ(label.text, label.name + " " + ConstructionLabelText("length", want.path.length));
    // The word's drawn line ends where the path does.
    EXPECT_GE(VerticesAt(s.list, want.path.end.position), 1) << label.name;
  }
  EXPECT_EQ(figure.labels.size(), existing);
  EXPECT_GE(existing, 4u);
  const JsonValue state = s.stage.State();
  EXPECT_EQ(state.Find("construction")->Find("dubins")->as_array().size(), existing);
}

TEST(ConstructionViewTest, FollowsTheSelectedCharactersNewTarget) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
  s.stage.BuildDrawList(&s.list);
  EXPECT_FALSE(s.stage.construction_figure().shown);  // no target yet
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":100,"y":50})")));
  s.stage.BuildDrawList(&s.list);
  ASSERT_TRUE(s.stage.construction_figure().shown);
  const glm::dvec2 q = s.stage.construction_figure().numbers.sides[0].leave;
  // Half-way there, a new target: the figure starts from where the character is now.
  for (int i = 0; i < 20; ++i) s.stage.Update(0.05);
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":-80,"y":120})")));
  s.stage.BuildDrawList(&s.list);
  const ConstructionFigure& figure = s.stage.construction_figure();
  ASSERT_TRUE(figure.shown);
  ExpectNear(figure.destination, glm::dvec2(-80, 120), "destination");
  EXPECT_GT(glm::length(figure.origin.position), 1.0);
  EXPECT_GT(glm::length(figure.numbers.sides[0].leave - q), 1.0);
}

// The texts' boxes at the embed size 240x135 and at 800x600 (and at pixel ratio 2), seen as the
// figure opens and from straight above with all of it in view: no two placed boxes overlap, each
// lies inside the view and near its anchor, P and Q (first in priority) are placed whenever their
// point shows, and every number still equals the core's.
TEST(ConstructionViewTest, LabelsDoNotOverlapAtEmbedSizes) {
  const struct {
    int width, height;
    float ratio;
  } views[] = {{240, 135, 1.0f}, {480, 270, 2.0f}, {800, 600, 1.0f}};
  int placed_total = 0, skipped_total = 0, skipped_in_view = 0;
  for (const auto& view : views) {
    for (const bool from_above : {false, true}) {
      for (const Case& c : kCases) {
        SCOPED_TRACE(std::string(c.name) + " at " + std::to_string(view.width) + "x" +
                     std::to_string(view.height) + (from_above ? ", from above" : ""));
        TestStage s;
        s.stage.SetViewport(view.width, view.height, view.ratio);
        ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
        ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
        ASSERT_TRUE(Ok(s.Run(GoToCommand(c.destination))));
        if (from_above) {
          // Centred on the figure, far enough back that the circles and the target all show.
          const glm::dvec2 centre = 0.5 * c.destination;
          const double extent = glm::length(c.destination) + 4 * kRadius;
          ASSERT_TRUE(Ok(s.Run(R"({"cmd":"camera","pitch":89,"yaw":0,"target":[)" +
                               std::to_string(centre.x) + "," + std::to_string(centre.y) +
                               R"(,0],"distance":)" + std::to_string(1.6 * extent) + "}")));
        }
        s.stage.BuildDrawList(&s.list);
        const ConstructionFigure& figure = s.stage.construction_figure();
        ASSERT_TRUE(figure.shown);
        TurnConstruction expected;
        TurnConstructionJob job;
        job.origin = Pose2{glm::dvec2(0.0), 0.0};
        job.radius = kRadius;
        job.destination = c.destination;
        job.out = &expected;
        ASSERT_TRUE(job.Run().ok());
        std::vector<glm::dvec4> boxes;
        for (const ConstructionLabel& label : figure.labels) {
          ExpectLabel(label, expected.sides[static_cast<size_t>(label.side)], job.origin,
                      c.destination);
          glm::dvec2 anchor;
          const glm::vec3 at(static_cast<float>(label.at.x), static_cast<float>(label.at.y), 0.06f);
          const bool projects =
              WorldToPixel(s.list.view_projection, s.list.width, s.list.height, at, &anchor);
          const bool shows = projects && anchor.x >= 0 && anchor.y >= 0 && anchor.x <= view.width &&
                             anchor.y <= view.height;
          if (!label.placed) {
            ++skipped_total;
            if (shows) ++skipped_in_view;
            // P and Q are placed whenever their point shows, and at 800x600 the chosen path's
            // length too (at 240x135 it can be crowded out: a point in a corner next to P).
            const bool first =
                label.name == "P" || label.name == "Q" ||
                (view.width == 800 && label.name == "length" && label.side == expected.chosen_side);
            if (first) {
              EXPECT_FALSE(shows) << label.text << " side " << label.side << " shows";
            }
            continue;
          }
          ++placed_total;
          ASSERT_TRUE(projects);
          const glm::dvec4 box = LabelTextBox(label.pixel, label.text.size(), view.ratio);
          EXPECT_GE(box.x, -1e-9) << label.text;
          EXPECT_GE(box.y, -1e-9) << label.text;
          EXPECT_LE(box.z, view.width + 1e-9) << label.text;
          EXPECT_LE(box.w, view.height + 1e-9) << label.text;
          const double dx = std::max({box.x - anchor.x, 0.0, anchor.x - box.z});
          const double dy = std::max({box.y - anchor.y, 0.0, anchor.y - box.w});
          EXPECT_LE(std::hypot(dx, dy), kLabelMaxDistanceCssPixels * view.ratio + 1e-9)
              << label.text;
          for (const glm::dvec4& other : boxes) {
            const bool overlap =
                box.x < other.z && other.x < box.z && box.y < other.w && other.y < box.w;
            EXPECT_FALSE(overlap) << label.text;
          }
          boxes.push_back(box);
        }
        // The drawn texts are the placed labels.
        size_t texts = 0;
        for (const DrawList::Text& text : s.list.texts) {
          for (const ConstructionLabel& label : figure.labels) {
            if (label.placed && text.text == label.text && text.position == glm::vec2(label.pixel))
              ++texts;
          }
        }
        EXPECT_EQ(texts, boxes.size());
        // state() reports each label's anchor and where its text went.
        const JsonValue state = s.stage.State();
        const JsonArray& reported = state.Find("construction")->Find("labels")->as_array();
        ASSERT_EQ(reported.size(), figure.labels.size());
        for (size_t i = 0; i < reported.size(); ++i) {
          const ConstructionLabel& label = figure.labels[i];
          EXPECT_EQ(reported[i].Find("text")->as_string(), label.text);
          EXPECT_EQ(reported[i].Find("at")->as_array()[0].as_number(), label.at.x);
          const JsonValue& pixel = *reported[i].Find("pixel");
          ASSERT_EQ(pixel.is_null(), !label.placed);
          if (label.placed) {
            EXPECT_EQ(pixel.as_array()[1].as_number(), label.pixel.y);
          }
        }
      }
    }
  }
  EXPECT_GT(placed_total, skipped_total);  // skipping is the last resort
  std::printf("[ labels ] %d placed, %d left out (%d of them with their point in view)\n",
              placed_total, skipped_total, skipped_in_view);
}

// The placement alone, with the identity projection (a label's ground point is its NDC): labels
// on one point spread round it; one at the view's right edge goes left of it, one at the top
// below it; when there is no room the lowest priority goes; a point behind the camera has none.
TEST(ConstructionViewTest, PlacementOfLabelsAlone) {
  auto figure_with = [](std::vector<std::pair<std::string, glm::dvec2>> labels) {
    ConstructionFigure figure;
    figure.numbers.chosen_side = 0;
    for (const auto& [name, at] : labels) {
      ConstructionLabel label;
      label.name = name;
      label.side = 0;
      label.at = at;
      label.text = ConstructionLabelText(name, 12.5);
      figure.labels.push_back(label);
    }
    return figure;
  };
  const glm::mat4 identity(1.0f);
  auto pixel_of = [](glm::dvec2 ndc, int w, int h) {
    return glm::dvec2((ndc.x + 1) * 0.5 * w, (1 - ndc.y) * 0.5 * h);
  };
  {
    SCOPED_TRACE("eight on one point");
    ConstructionFigure figure = figure_with({{"phi", {0, 0}},
                                             {"theta", {0, 0}},
                                             {"r", {0, 0}},
                                             {"h", {0, 0}},
                                             {"d", {0, 0}},
                                             {"length", {0, 0}},
                                             {"Q", {0, 0}},
                                             {"P", {0, 0}}});
    PlaceConstructionLabels(&figure, identity, 800, 600, 1.0f);
    std::vector<glm::dvec4> boxes;
    for (const ConstructionLabel& label : figure.labels) {
      ASSERT_TRUE(label.placed) << label.name;
      const glm::dvec4 box = LabelTextBox(label.pixel, label.text.size(), 1.0f);
      for (const glm::dvec4& other : boxes) {
        EXPECT_FALSE(box.x < other.z && other.x < box.z && box.y < other.w && other.y < box.w)
            << label.name;
      }
      boxes.push_back(box);
    }
    // Listed last, P or Q (first in priority) takes the anchor, right of the point.
    EXPECT_TRUE(figure.labels[6].pixel == pixel_of({0, 0}, 800, 600) ||
                figure.labels[7].pixel == pixel_of({0, 0}, 800, 600));
    EXPECT_NE(figure.labels[0].pixel, pixel_of({0, 0}, 800, 600));  // phi, listed first
  }
  {
    SCOPED_TRACE("at the right edge and at the top");
    ConstructionFigure figure = figure_with({{"h", {1.0, 0}}, {"d", {0, 1.0}}});
    PlaceConstructionLabels(&figure, identity, 800, 600, 1.0f);
    ASSERT_TRUE(figure.labels[0].placed);
    const glm::dvec4 right = LabelTextBox(figure.labels[0].pixel, 8, 1.0f);
    EXPECT_NEAR(right.z, 800.0, 1e-9);  // left of the point, ending at it
    ASSERT_TRUE(figure.labels[1].placed);
    const glm::dvec4 top = LabelTextBox(figure.labels[1].pixel, 8, 1.0f);
    EXPECT_GE(top.y, 0.0);
    EXPECT_LE(top.y, kLabelHeightCssPixels);
  }
  {
    SCOPED_TRACE("no room: the lowest priority is left out");
    // 24 px high at 240 wide: one row of 15 px boxes; a P, a length and an angle on one point.
    ConstructionFigure figure = figure_with({{"theta", {0, 0}}, {"length", {0, 0}}, {"P", {0, 0}}});
    PlaceConstructionLabels(&figure, identity, 240, 24, 1.0f);
    EXPECT_TRUE(figure.labels[2].placed);   // P
    EXPECT_TRUE(figure.labels[1].placed);   // length
    EXPECT_FALSE(figure.labels[0].placed);  // theta: no free place within reach
  }
  {
    SCOPED_TRACE("the other side after the chosen one");
    ConstructionFigure figure = figure_with({{"h", {0, 0}}, {"h", {0, 0}}});
    figure.labels[0].side = 1;
    PlaceConstructionLabels(&figure, identity, 800, 600, 1.0f);
    EXPECT_EQ(figure.labels[1].pixel, pixel_of({0, 0}, 800, 600));  // the chosen side's
    EXPECT_NE(figure.labels[0].pixel, pixel_of({0, 0}, 800, 600));
  }
  {
    SCOPED_TRACE("behind the camera");
    ConstructionFigure figure = figure_with({{"P", {0, 0}}});
    glm::mat4 behind(1.0f);
    behind[3][3] = -1.0f;  // w < 0 for every point
    PlaceConstructionLabels(&figure, behind, 800, 600, 1.0f);
    EXPECT_FALSE(figure.labels[0].placed);
  }
}

// Pinter's Listing 2 in the view: the segments the follower walks, the one it is on and where it
// is, at the start, half-way round the arc, half-way along the line and after arriving; each
// number of state().construction.walk and each drawn point against a FollowerWalkJob on a follower
// given the same target (<= 1e-9; the lines' float vertices exactly at the points' floats).
TEST(ConstructionViewTest, WalkEqualsTheFollowerWalkJob) {
  const glm::dvec2 destination(100, 150);
  const double speed = 50.0;
  Follower follower(Pose2{glm::dvec2(0.0), 0.0}, kRadius, speed, 0.0);
  ASSERT_TRUE(follower.GoToPoint(0.0, destination).ok());
  const TurnPath& path = follower.approach();
  ASSERT_EQ(path.segment_count, 2);
  ASSERT_EQ(path.segments[0].kind, TurnSegment::Kind::kArc);
  ASSERT_EQ(path.segments[1].kind, TurnSegment::Kind::kLine);
  const double arc = path.segments[0].length, line = path.segments[1].length;
  const struct {
    const char* name;
    double time;
    int current_segment;
    const char* stage;
  } times[] = {
      {"start", 0.0, 0, "approach"},
      {"mid-arc", 0.5 * arc / speed, 0, "approach"},
      {"mid-line", (arc + 0.5 * line) / speed, 1, "approach"},
      {"arrived", path.length / speed + 2.0, 2, "at_end"},
  };
  for (const auto& t : times) {
    SCOPED_TRACE(t.name);
    TestStage s;
    ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setSpeed","instance":0,"speed":50})")));
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":100,"y":150})")));
    s.stage.SetSceneTime(t.time);
    s.stage.BuildDrawList(&s.list);

    FollowerWalk want;
    FollowerWalkJob job;
    job.follower = &follower;
    job.time = t.time;
    job.out = &want;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_EQ(want.current_segment, t.current_segment);
    EXPECT_STREQ(FollowerStageName(want.stage), t.stage);

    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.shown);
    ASSERT_TRUE(figure.has_walk);
    EXPECT_EQ(figure.walk.segment_count, want.segment_count);
    EXPECT_EQ(figure.walk.current_segment, want.current_segment);
    EXPECT_NEAR(figure.walk.distance_into_segment, want.distance_into_segment, 1e-9);
    ExpectNear(figure.walk.pose.position, want.pose.position, "pose");

    const JsonValue state = s.stage.State();
    const JsonValue* walk = state.Find("construction")->Find("walk");
    ASSERT_TRUE(walk != nullptr && walk->is_object());
    EXPECT_EQ(walk->Find("stage")->as_string(), t.stage);
    EXPECT_EQ(walk->Find("current_segment")->as_number(), want.current_segment);
    EXPECT_NEAR(walk->Find("distance_into_segment")->as_number(), want.distance_into_segment, 1e-9);
    EXPECT_EQ(walk->Find("arrived")->as_bool(), want.arrived);
    auto xy = [](const JsonValue& p) {
      return glm::dvec2(p.as_array()[0].as_number(), p.as_array()[1].as_number());
    };
    ExpectNear(xy(*walk->Find("position")), want.pose.position, "position");
    EXPECT_NEAR(walk->Find("heading")->as_number(), want.pose.heading, 1e-9);
    const JsonArray& segments = walk->Find("segments")->as_array();
    ASSERT_EQ(segments.size(), static_cast<size_t>(want.segment_count));
    for (int i = 0; i < want.segment_count; ++i) {
      SCOPED_TRACE("segment " + std::to_string(i));
      const WalkSegment& w = want.segments[static_cast<size_t>(i)];
      const JsonValue& got = segments[static_cast<size_t>(i)];
      EXPECT_EQ(got.Find("kind")->as_string(), w.kind == TurnSegment::Kind::kArc ? "arc" : "line");
      EXPECT_NEAR(got.Find("length")->as_number(), w.length, 1e-9);
      EXPECT_NEAR(got.Find("start_distance")->as_number(), w.start_distance, 1e-9);
      ExpectNear(xy(*got.Find("start")), w.start.position, "start");
      if (w.kind == TurnSegment::Kind::kArc) {
        ExpectNear(xy(*got.Find("centre")), w.centre, "centre");
        EXPECT_NEAR(got.Find("sweep")->as_number(), w.sweep, 1e-9);
      }
      // Drawn from its start; the walked arc's vertices on its circle.
      EXPECT_GE(VerticesAt(s.list, w.start.position), 1);
      if (w.kind == TurnSegment::Kind::kArc) {
        EXPECT_GE(VerticesOnCircle(s.list, w.centre, w.radius), 2);
      }
    }
    // The current segment alone is bright, and its bright vertices lie on it.
    int bright = 0;
    for (const LineVertex& v : s.list.lines_on_top) {
      if (!SameColor(v.color, kWalkCurrentColor)) continue;
      ++bright;
      const WalkSegment& on = want.segments[static_cast<size_t>(want.current_segment)];
      const glm::dvec2 p(v.position.x, v.position.y);
      if (on.kind == TurnSegment::Kind::kArc) {
        EXPECT_NEAR(glm::length(p - on.centre), on.radius, 1e-4);
      } else {
        const glm::dvec2 along(std::cos(on.start.heading), std::sin(on.start.heading));
        const glm::dvec2 off = p - on.start.position;
        EXPECT_NEAR(off.x * along.y - off.y * along.x, 0.0, 1e-4);
        EXPECT_GE(glm::dot(off, along), -1e-4);
        EXPECT_LE(glm::dot(off, along), on.length + 1e-4);
      }
    }
    if (want.current_segment < want.segment_count) {
      EXPECT_GE(bright, 2);
    } else {
      EXPECT_EQ(bright, 0);  // arrived: no segment is being walked
    }
    // The marker: an arrow from the pose, along its heading.
    EXPECT_GE(VerticesAt(s.list, want.pose.position), 1);
    bool arrow = false;
    const glm::dvec2 ahead(std::cos(want.pose.heading), std::sin(want.pose.heading));
    for (size_t k = 0; k + 1 < s.list.lines_on_top.size(); k += 2) {
      const LineVertex& a = s.list.lines_on_top[k];
      const LineVertex& b = s.list.lines_on_top[k + 1];
      if (!SameColor(a.color, kWalkMarkerColor) ||
          a.position.x != static_cast<float>(want.pose.position.x) ||
          a.position.y != static_cast<float>(want.pose.position.y)) {
        continue;
      }
      const glm::dvec2 d = glm::normalize(glm::dvec2(b.position - a.position));
      arrow = arrow || glm::dot(d, ahead) > 1.0 - 1e-6;
    }
    EXPECT_TRUE(arrow);
  }
}

// Edge cases: without a target there is no figure and so no walk; with radius 0 (turning in
// place) the walk is still the follower's turn path.
TEST(ConstructionViewTest, WalkWithoutATargetAndAtRadiusZero) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
  s.stage.BuildDrawList(&s.list);
  EXPECT_FALSE(s.stage.construction_figure().has_walk);
  EXPECT_TRUE(s.stage.State().Find("construction")->is_null());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setTurnRadius","instance":0,"radius":0})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":50,"y":0})")));
  s.stage.BuildDrawList(&s.list);
  ASSERT_TRUE(s.stage.construction_figure().shown);
  ASSERT_TRUE(s.stage.construction_figure().has_walk);
  const JsonValue state = s.stage.State();
  const JsonValue* walk = state.Find("construction")->Find("walk");
  ASSERT_TRUE(walk != nullptr && walk->is_object());
  EXPECT_EQ(
      walk->Find("segments")->as_array().size(),
      static_cast<size_t>(s.stage.characters()[0].locomotion.follower.approach().segment_count));
  EXPECT_GE(walk->Find("segments")->as_array().size(), 1u);
}

// The construction for the walker's target from an origin pose, as the core makes it.
TurnConstruction CoreConstruction(const Pose2& origin, glm::dvec2 destination) {
  TurnConstruction out;
  TurnConstructionJob job;
  job.origin = origin;
  job.radius = kRadius;
  job.destination = destination;
  job.out = &out;
  EXPECT_TRUE(job.Run().ok());
  return out;
}

glm::dvec2 Xy(const JsonValue& p) {
  return glm::dvec2(p.as_array()[0].as_number(), p.as_array()[1].as_number());
}

// Where a ground point shows (as the stage lifts the handles to pick them).
glm::dvec2 ScreenOf(const Stage& stage, glm::dvec2 ground) {
  glm::dvec2 pixel(0.0);
  EXPECT_TRUE(stage.ProjectToScreen(
      glm::vec3(static_cast<float>(ground.x), static_cast<float>(ground.y), 0.1f), &pixel));
  return pixel;
}

glm::dvec2 GroundOf(const Stage& stage, glm::dvec2 screen) {
  const std::optional<glm::vec3> hit = stage.GroundUnderCursor(screen.x, screen.y);
  EXPECT_TRUE(hit.has_value());
  return hit ? glm::dvec2(hit->x, hit->y) : glm::dvec2(0.0);
}

// A left-button drag through the stage's pointer entry points, as the platform sends it.
void Drag(Stage& stage, const std::vector<glm::dvec2>& screens) {
  stage.OnCursor(screens.front().x, screens.front().y);
  stage.OnMouseButton(MouseButton::kLeft, true);
  for (size_t i = 1; i < screens.size(); ++i) stage.OnCursor(screens[i].x, screens[i].y);
  stage.OnMouseButton(MouseButton::kLeft, false);
}

// Dragging the origin handle and the heading handle through the stage's pointer: the character is
// placed at the dragged pose and goes to the same target from it, so the figure (P, Q, h) is the
// core's construction from that pose (<= 1e-9); state() reports the handles where they are now.
TEST(ConstructionViewTest, DraggingTheHandlesRecomputesTheFigure) {
  const glm::dvec2 destination(150, 80);
  for (const char* tool : {"camera", "goto"}) {
    SCOPED_TRACE(std::string("tool ") + tool);
    TestStage s;
    ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
    ASSERT_TRUE(Ok(s.Run(std::string(R"({"cmd":"tool","tool":")") + tool + R"("})")));
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"select","instance":0})")));
    ASSERT_TRUE(Ok(s.Run(GoToCommand(destination))));
    s.stage.BuildDrawList(&s.list);
    ASSERT_TRUE(s.stage.construction_figure().shown);
    ExpectNear(s.stage.construction_figure().heading_handle, glm::dvec2(kRadius, 0), "handle");

    // The origin, taken at its pixel and dragged 40 px right and 25 px down in two moves.
    const glm::dvec2 press = ScreenOf(s.stage, glm::dvec2(0.0));
    const glm::dvec2 release = press + glm::dvec2(40, 25);
    Drag(s.stage, {press, press + glm::dvec2(20, 10), release});
    EXPECT_TRUE(s.stage.last_error().empty()) << s.stage.last_error();
    const glm::dvec2 moved = GroundOf(s.stage, release) - GroundOf(s.stage, press);
    ASSERT_GT(glm::length(moved), 1.0);
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.shown);
    ExpectNear(figure.origin.position, moved, "origin");
    EXPECT_EQ(figure.origin.heading, 0.0);
    ExpectNear(figure.destination, destination, "the same target");  // not a go-to of the drag
    TurnConstruction want = CoreConstruction(Pose2{moved, 0.0}, destination);
    for (int i = 0; i < 2; ++i) {
      ExpectNear(figure.numbers.sides[static_cast<size_t>(i)].centre,
                 want.sides[static_cast<size_t>(i)].centre, "P");
      ExpectNear(figure.numbers.sides[static_cast<size_t>(i)].leave,
                 want.sides[static_cast<size_t>(i)].leave, "Q");
    }
    {
      const JsonValue state = s.stage.State();
      const JsonValue& reported = *state.Find("construction");
      ExpectNear(Xy(*reported.Find("sides")->as_array()[0].Find("P")), want.sides[0].centre, "P");
      ExpectNear(Xy(*reported.Find("handles")->Find("origin")), moved, "origin handle");
      ExpectNear(Xy(*reported.Find("handles")->Find("heading")), moved + glm::dvec2(kRadius, 0),
                 "heading handle");
      // The character stands there, facing the same way.
      const Character& walker = s.stage.characters()[0];
      EXPECT_EQ(walker.position, glm::vec2(moved));
      EXPECT_TRUE(walker.locomotion.has_target);
    }

    // The heading handle, dragged to a point above-left of the origin: it faces there.
    const glm::dvec2 handle_press = ScreenOf(s.stage, figure.heading_handle);
    const glm::dvec2 handle_release = ScreenOf(s.stage, moved + glm::dvec2(-20, 35));
    Drag(s.stage, {handle_press, handle_release});
    const glm::dvec2 towards = GroundOf(s.stage, handle_release) - moved;
    const double heading = std::atan2(towards.y, towards.x);
    s.stage.BuildDrawList(&s.list);
    ASSERT_TRUE(s.stage.construction_figure().shown);
    ExpectNear(s.stage.construction_figure().origin.position, moved, "origin kept");
    EXPECT_NEAR(s.stage.construction_figure().origin.heading, heading, 1e-9);
    want = CoreConstruction(Pose2{moved, heading}, destination);
    ExpectNear(s.stage.construction_figure().numbers.sides[0].centre, want.sides[0].centre, "P");
    ExpectNear(s.stage.construction_figure().numbers.sides[1].centre, want.sides[1].centre, "P");

    // A press away from the handles is the tool's again: with "goto" a new target.
    const glm::dvec2 elsewhere = ScreenOf(s.stage, glm::dvec2(-60, -90));
    Drag(s.stage, {elsewhere});
    s.stage.BuildDrawList(&s.list);
    const bool retargeted =
        glm::length(s.stage.construction_figure().destination - destination) > 1.0;
    EXPECT_EQ(retargeted, std::string(tool) == "goto");
  }
}

// The handles need the construction view, a figure and a drag: with the toggle off the press is
// the tool's; a click on a handle changes nothing; setConstructionOrigin does what the drag does
// and names its field when the character has no target.
TEST(ConstructionViewTest, HandlesEdgeCasesAndTheCommand) {
  TestStage s;
  ASSERT_NO_FATAL_FAILURE(s.LoadWalker());
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"tool","tool":"goto"})")));
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"select","instance":0})")));
  {
    SCOPED_TRACE("no target yet");
    const JsonValue reply = s.Run(R"({"cmd":"setConstructionOrigin","instance":0,"x":1,"y":2})");
    EXPECT_FALSE(Ok(reply));
    EXPECT_EQ(reply.Find("error")->as_string(),
              "setConstructionOrigin.instance: expected a character going to a target (send goTo "
              "first), found 0, which has none");
  }
  ASSERT_TRUE(Ok(s.Run(GoToCommand({150, 80}))));
  {
    SCOPED_TRACE("toggle off: a drag on the origin is a go-to drag");
    s.stage.BuildDrawList(&s.list);
    const glm::dvec2 press = ScreenOf(s.stage, glm::dvec2(0.0));
    Drag(s.stage, {press, press + glm::dvec2(30, 0)});
    EXPECT_LT(glm::length(s.stage.characters()[0].locomotion.target), 1.0);  // went to (0, 0)
    ASSERT_TRUE(Ok(s.Run(GoToCommand({150, 80}))));
  }
  ASSERT_TRUE(Ok(s.Run(R"({"cmd":"display","construction":true})")));
  s.stage.BuildDrawList(&s.list);
  const Pose2 before = s.stage.construction_figure().origin;
  {
    SCOPED_TRACE("a click on the origin handle: nothing moves, no go-to");
    const glm::dvec2 press = ScreenOf(s.stage, before.position);
    Drag(s.stage, {press, press + glm::dvec2(3, 2)});
    s.stage.BuildDrawList(&s.list);
    ExpectNear(s.stage.construction_figure().origin.position, before.position, "origin");
    ExpectNear(s.stage.construction_figure().destination, glm::dvec2(150, 80), "target");
  }
  {
    SCOPED_TRACE("the command, with and without a heading");
    ASSERT_TRUE(
        Ok(s.Run(R"({"cmd":"setConstructionOrigin","instance":0,"x":-40,"y":12.5,"heading":2})")));
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ExpectNear(figure.origin.position, glm::dvec2(-40, 12.5), "origin");
    EXPECT_EQ(figure.origin.heading, 2.0);
    const TurnConstruction want = CoreConstruction(Pose2{glm::dvec2(-40, 12.5), 2.0}, {150, 80});
    ExpectNear(figure.numbers.sides[0].centre, want.sides[0].centre, "P");
    ExpectNear(figure.numbers.sides[1].leave, want.sides[1].leave, "Q");
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"setConstructionOrigin","instance":0,"x":5,"y":6})")));
    s.stage.BuildDrawList(&s.list);
    EXPECT_EQ(s.stage.construction_figure().origin.heading, 2.0);  // kept
  }
  {
    SCOPED_TRACE("with a final heading the Dubins words follow too");
    ASSERT_TRUE(Ok(s.Run(R"({"cmd":"goTo","instance":0,"x":150,"y":80,"heading":-1.5})")));
    ASSERT_TRUE(
        Ok(s.Run(R"({"cmd":"setConstructionOrigin","instance":0,"x":0,"y":0,"heading":0})")));
    s.stage.BuildDrawList(&s.list);
    const ConstructionFigure& figure = s.stage.construction_figure();
    ASSERT_TRUE(figure.has_final_heading);
    EXPECT_EQ(figure.final_heading, -1.5);
    TurnConstruction want;
    TurnConstructionJob job;
    job.origin = Pose2{glm::dvec2(0.0), 0.0};
    job.radius = kRadius;
    job.destination = {150, 80};
    job.has_final_heading = true;
    job.final_heading = -1.5;
    job.out = &want;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_EQ(figure.numbers.shortest_dubins, want.shortest_dubins);
    EXPECT_NEAR(figure.numbers.dubins_path.length, want.dubins_path.length, 1e-9);
  }
  {
    SCOPED_TRACE("an origin with no path to the target (inside an obstacle) changes nothing");
    ASSERT_TRUE(Ok(
        s.Run(R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[-100,0],"radius":20}}})")));
    const Follower before_follower = s.stage.characters()[0].locomotion.follower;
    const JsonValue reply = s.Run(R"({"cmd":"setConstructionOrigin","instance":0,"x":-100,"y":0})");
    ASSERT_FALSE(Ok(reply));
    EXPECT_EQ(reply.Find("error")->as_string().rfind("setConstructionOrigin: ", 0), 0u)
        << reply.Find("error")->as_string();
    const Character& walker = s.stage.characters()[0];
    EXPECT_EQ(walker.locomotion.follower.approach().start.position,
              before_follower.approach().start.position);
    EXPECT_TRUE(walker.locomotion.has_target);
    EXPECT_EQ(walker.locomotion.target, glm::dvec2(150, 80));
    EXPECT_EQ(walker.position, glm::vec2(0.0f));
  }
}

}  // namespace
}  // namespace md5stage::viewer
