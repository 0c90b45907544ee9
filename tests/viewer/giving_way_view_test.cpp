// Giving way as the viewer shows and switches it: the `clearance` display toggle (each character
// the crowd places gets its clearance ring, amber while it gives way, and the headings it wants
// and takes; nobody else gets anything), and the embed's and element's `avoidance` option, which
// turns a scene's giving way on or off and is absent from everything when not given.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene_json.h"
#include "folder_host.h"
#include "viewer/crowd_playback.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::FolderHost;
using test::Ok;

struct OpenedDemo {
  explicit OpenedDemo(const std::string& demo) : host(MD5STAGE_SOURCE_DIR) {
    stage = std::make_unique<Stage>(&device, &host);
    stage->SetViewport(640, 360, 1.0f);
    stage->OpenDemo(demo);
    host.Pump(*stage);
    opened = host.LastOpened();
  }
  JsonValue Run(const std::string& command) { return stage->Call(test::Command(command)); }
  void Play(double seconds) {
    const int frames = static_cast<int>(std::lround(seconds * 64.0));
    for (int frame = 0; frame < frames; ++frame) stage->Update(1.0 / 64.0);
  }
  NullRenderBackend device;
  FolderHost host;
  std::unique_ptr<Stage> stage;
  JsonValue opened;
};

bool SameShape(const ShapeInstance& a, const ShapeInstance& b) {
  return a.shape == b.shape && a.centre == b.centre && a.scale == b.scale && a.span == b.span &&
         a.color.r == b.color.r && a.color.g == b.color.g && a.color.b == b.color.b &&
         a.color.a == b.color.a && a.depth == b.depth;
}

// The shapes `with` has and `without` has not: drawn in one run between the others.
std::vector<ShapeInstance> Added(const DrawList& without, const DrawList& with) {
  const std::vector<ShapeInstance>& a = without.shapes;
  const std::vector<ShapeInstance>& b = with.shapes;
  std::size_t first = 0;
  while (first < a.size() && first < b.size() && SameShape(a[first], b[first])) ++first;
  if (b.size() < a.size()) return {};
  const std::size_t added = b.size() - a.size();
  for (std::size_t i = first; i < a.size(); ++i) {
    EXPECT_TRUE(SameShape(a[i], b[i + added])) << "shape " << i << " moved or changed";
  }
  return std::vector<ShapeInstance>(b.begin() + static_cast<std::ptrdiff_t>(first),
                                    b.begin() + static_cast<std::ptrdiff_t>(first + added));
}

// The overlay of each character: its ring, its wanted heading's line, its chosen heading's.
struct Overlay {
  glm::dvec2 centre;
  double radius = 0.0;
  bool amber = false;  // the ring's colour says it gives way
  double wanted_heading = 0.0, wanted_length = 0.0;
  double chosen_heading = 0.0, chosen_length = 0.0;
};

std::vector<Overlay> OverlaysOf(Stage& stage) {
  DrawList without, with;
  DisplayToggles display = stage.display();
  display.clearance = false;
  stage.SetDisplay(display);
  stage.BuildDrawList(&without);
  display.clearance = true;
  stage.SetDisplay(display);
  stage.BuildDrawList(&with);
  const std::vector<ShapeInstance> added = Added(without, with);
  EXPECT_EQ(added.size() % 3, 0u);
  std::vector<Overlay> overlays;
  for (std::size_t i = 0; i + 2 < added.size(); i += 3) {
    const ShapeInstance &ring = added[i], &wanted = added[i + 1], &chosen = added[i + 2];
    EXPECT_EQ(ring.shape, LineShape::kCircle);
    EXPECT_EQ(wanted.shape, LineShape::kSegment);
    EXPECT_EQ(chosen.shape, LineShape::kSegment);
    Overlay o;
    o.centre = glm::dvec2(ring.centre);
    o.radius = ring.scale;
    o.amber = ring.color.r == 255 && ring.color.g == 190 && ring.color.b == 40;
    // Both lines start at the ring's centre.
    EXPECT_LT(glm::distance(glm::dvec2(wanted.centre), o.centre), 1e-3);
    EXPECT_LT(glm::distance(glm::dvec2(chosen.centre), o.centre), 1e-3);
    o.wanted_heading = std::atan2(wanted.span.y, wanted.span.x);
    o.wanted_length = std::hypot(wanted.span.x, wanted.span.y);
    o.chosen_heading = std::atan2(chosen.span.y, chosen.span.x);
    o.chosen_length = std::hypot(chosen.span.x, chosen.span.y);
    overlays.push_back(o);
  }
  return overlays;
}

double AngleBetween(double a, double b) { return std::abs(std::remainder(a - b, 2.0 * kPi)); }

TEST(GivingWayView, TheOverlayIsDrawnOnlyWithTheToggleAndOnlyForTheCrowdsCharacters) {
  OpenedDemo corridor("corridor");
  ASSERT_TRUE(Ok(corridor.opened)) << WriteJson(corridor.opened);
  ASSERT_TRUE(corridor.stage->cast().avoidance());
  EXPECT_FALSE(corridor.stage->display().clearance);  // off unless asked for
  corridor.Play(2.0);
  // Off: the draw list is the same as before the toggle existed (nothing added).
  DrawList off_once, off_again;
  corridor.stage->BuildDrawList(&off_once);
  ASSERT_TRUE(Ok(corridor.Run(R"({"cmd":"display","clearance":false})")));
  corridor.stage->BuildDrawList(&off_again);
  EXPECT_EQ(off_once.shapes.size(), off_again.shapes.size());

  // On, through the command: one ring and two lines a walker, round each where state() has it,
  // of its clearance.
  ASSERT_TRUE(Ok(corridor.Run(R"({"cmd":"display","clearance":true})")));
  EXPECT_TRUE(corridor.stage->State().Find("display")->Find("clearance")->as_bool());
  DrawList on;
  corridor.stage->BuildDrawList(&on);
  EXPECT_EQ(on.shapes.size(), off_once.shapes.size() + 3u * 2u);
  const std::vector<Overlay> overlays = OverlaysOf(*corridor.stage);
  const JsonValue state = corridor.stage->State();
  const JsonArray& instances = state.Find("instances")->as_array();
  ASSERT_EQ(overlays.size(), instances.size());
  for (std::size_t i = 0; i < overlays.size(); ++i) {
    const JsonArray& p = instances[i].Find("position")->as_array();
    EXPECT_NEAR(overlays[i].centre.x, p[0].as_number(), 1e-3) << i;
    EXPECT_NEAR(overlays[i].centre.y, p[1].as_number(), 1e-3) << i;
    EXPECT_NEAR(overlays[i].radius, instances[i].Find("clearance")->as_number(), 1e-4) << i;
  }

  // A scene without avoidance: the toggle on draws nothing for its walkers (they follow their
  // own plans; nobody gives way).
  OpenedDemo turns("turns");
  ASSERT_TRUE(Ok(turns.opened)) << WriteJson(turns.opened);
  ASSERT_FALSE(turns.stage->cast().avoidance());
  ASSERT_GT(turns.stage->character_count(), 0);
  turns.Play(2.0);
  EXPECT_TRUE(OverlaysOf(*turns.stage).empty());
}

// In the corridor the two walk freely at first (green rings, each taking the heading and speed it
// wants: the two lines coincide), and when they meet at least one gives way (an amber ring, and
// what it takes differs from what it wants: slower, or another heading).
TEST(GivingWayView, RingsTurnAmberWhileAWalkerGivesWay) {
  OpenedDemo corridor("corridor");
  ASSERT_TRUE(Ok(corridor.opened)) << WriteJson(corridor.opened);
  bool free_walk_seen = false, giving_way_seen = false;
  for (int frame = 1; frame <= 16 * 16; ++frame) {
    corridor.stage->Update(1.0 / 16.0);
    for (const Overlay& o : OverlaysOf(*corridor.stage)) {
      const bool same = AngleBetween(o.wanted_heading, o.chosen_heading) < 1e-3 &&
                        std::abs(o.wanted_length - o.chosen_length) < 1e-3;
      if (!o.amber && same && o.chosen_length > o.radius + 1.0) free_walk_seen = true;
      if (o.amber) {
        giving_way_seen = true;
        // Giving way is visible: it takes less speed than it wants, or steers off its heading
        // (a swerve shows within the step as curvature; its heading drifts from the wanted).
        EXPECT_TRUE(o.chosen_length < o.wanted_length - 1e-6 ||
                    AngleBetween(o.wanted_heading, o.chosen_heading) > 1e-6)
            << "frame " << frame;
      }
    }
  }
  EXPECT_TRUE(free_walk_seen);
  EXPECT_TRUE(giving_way_seen);
}

// The embed's option (and the element's attribute, which goes to the same parser): `avoidance`
// turns giving way on in a scene without it and off in one with it; not given, the scene keeps
// its own, and the scene written back has no `avoidance` unless it is on.
TEST(GivingWayView, TheAvoidanceOptionSwitchesTheScenesGivingWay) {
  OpenedDemo turns("turns");
  ASSERT_TRUE(Ok(turns.opened));
  ASSERT_FALSE(turns.stage->cast().avoidance());
  const JsonValue untouched = turns.Run(R"({"cmd":"embed","fragment":"skeleton=1"})");
  ASSERT_TRUE(Ok(untouched)) << WriteJson(untouched);
  EXPECT_EQ(untouched.Find("options")->Find("avoidance"), nullptr);
  EXPECT_FALSE(turns.stage->cast().avoidance());
  EXPECT_EQ(WriteJson(SceneToJson(turns.stage->CurrentScene())).find("avoidance"),
            std::string::npos);

  ASSERT_TRUE(Ok(turns.Run(R"({"cmd":"embed","fragment":"avoidance"})")));
  EXPECT_TRUE(turns.stage->cast().avoidance());
  EXPECT_TRUE(turns.stage->CurrentScene().avoidance);
  turns.Play(1.0);
  EXPECT_TRUE(turns.stage->cast().crowd().active());

  OpenedDemo swap("swap");
  ASSERT_TRUE(Ok(swap.opened));
  ASSERT_TRUE(swap.stage->cast().avoidance());
  ASSERT_TRUE(Ok(swap.Run(R"({"cmd":"embed","fragment":"t=2"})")));
  EXPECT_TRUE(swap.stage->cast().avoidance());
  ASSERT_TRUE(Ok(swap.Run(R"({"cmd":"embed","fragment":"avoidance=0"})")));
  EXPECT_FALSE(swap.stage->cast().avoidance());
  EXPECT_FALSE(swap.stage->cast().crowd().active());
  EXPECT_EQ(WriteJson(SceneToJson(swap.stage->CurrentScene())).find("avoidance"),
            std::string::npos);
  // Off, the walkers are where their own plans put them.
  swap.Play(1.0);
  const double now = swap.stage->CurrentScene().time;
  for (int i = 0; i < swap.stage->character_count(); ++i) {
    const Character& walker = swap.stage->characters()[static_cast<std::size_t>(i)];
    const glm::dvec2 planned = walker.locomotion.follower.PoseAt(now).position;
    EXPECT_LT(glm::distance(glm::dvec2(walker.position), planned), 1e-3) << i;
  }
}

}  // namespace
}  // namespace md5stage::viewer
