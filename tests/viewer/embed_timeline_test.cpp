#include "viewer/embed_timeline.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace md5stage::viewer {
namespace {

// A step is two optional doubles: returning one per frame allocates nothing.
static_assert(std::is_trivially_copyable_v<EmbedTimelineStep>);
static_assert(std::is_trivially_copyable_v<EmbedClock>);

// One frame of a case: the clock fed in (and whether the slider is held), what should come out.
struct Frame {
  double time;
  bool finished = false;
  std::optional<double> end = std::nullopt;
  bool repeats = false;
  bool scrubbing = false;
  std::optional<double> finished_at = std::nullopt;
  std::optional<double> seek_to = std::nullopt;
};

struct TimelineCase {
  const char* name;
  std::optional<EmbedLoop> loop;
  std::vector<Frame> frames;
};

constexpr EmbedLoop kWhole{true, 0.0, 0.0};
EmbedLoop Range(double a, double b) { return EmbedLoop{false, a, b}; }

TEST(EmbedTimelineTest, LoopsAndFinishesFrameByFrame) {
  const std::optional<double> none;
  const TimelineCase cases[] = {
      {"no loop: finished once on arrival, again after going back",
       std::nullopt,
       {{0.0},
        {3.9},
        {4.0, true, 4.0, false, false, 4.0},
        {4.1, true, 4.0},
        {9.0, true, 4.0},
        {1.0, false, 4.0},  // a host's seek back re-arms it
        {4.2, true, 4.0, false, false, 4.2}}},
      {"loop=1-1.6: back to A at B and past it, never before A",
       Range(1.0, 1.6),
       {{0.5},
        {1.2},
        {1.5999},
        {1.6, false, none, false, false, none, 1.0},
        {1.0},
        {1.75, false, none, false, false, none, 1.0},  // a slow frame steps past B
        {100.0, false, none, false, false, none, 1.0}}},
      {"loop=A-B with a scene that finishes inside the range: finished once per run",
       Range(0.0, 5.0),
       {{3.9, false, 4.0},
        {4.0, true, 4.0, false, false, 4.0},
        {4.9, true, 4.0},
        {5.0, true, 4.0, false, false, none, 0.0},
        {0.0, false, 4.0},
        {4.0, true, 4.0, false, false, 4.0},
        {5.1, true, 4.0, false, false, none, 0.0}}},
      {"finished and the jump in one frame: both, finished first with the frame's time",
       Range(1.0, 2.0),
       {{1.9}, {2.05, true, 2.0, false, false, 2.05, 1.0}, {1.0, false, 2.0}}},
      {"bare loop: to 0 one second after the last character arrives",
       kWhole,
       {{3.0, false, 4.0},
        {4.0, true, 4.0, false, false, 4.0},
        {4.99, true, 4.0},
        {5.0, true, 4.0, false, false, none, 0.0},
        {0.0, false, 4.0},
        {0.5, false, 4.0}}},
      {"bare loop with scene_end 0: the range is 0 to 1",
       kWhole,
       {{0.0, true, 0.0, false, false, 0.0},
        {0.99, true, 0.0},
        {1.0, true, 0.0, false, false, none, 0.0}}},
      {"bare loop: nothing arrives, or something moves for ever: no jump",
       kWhole,
       {{50.0}, {1e6}, {50.0, false, 4.0, true}, {1e6, false, 4.0, true}}},
      {"bare loop follows the end as it changes (another scene opened)",
       kWhole,
       {{5.5, false, 10.0}, {5.5, false, 2.0, false, false, none, 0.0}}},
      {"held slider: no jump while scrubbing, finished still pushed; the jump on release",
       Range(1.0, 3.0),
       {{2.0},
        {3.0, false, none, false, true},
        {3.0, true, 2.5, false, true, 3.0},
        {3.0, true, 2.5, false, false, none, 1.0}}},
  };
  for (const TimelineCase& c : cases) {
    EmbedTimeline timeline;
    timeline.SetLoop(c.loop);
    int index = 0;
    for (const Frame& frame : c.frames) {
      timeline.SetScrubbing(frame.scrubbing);
      const EmbedTimelineStep step =
          timeline.Step(EmbedClock{frame.time, frame.finished, frame.end, frame.repeats});
      EXPECT_EQ(step.finished_at, frame.finished_at) << c.name << ", frame " << index;
      EXPECT_EQ(step.seek_to, frame.seek_to) << c.name << ", frame " << index;
      ++index;
    }
  }
}

TEST(EmbedTimelineTest, RestartTakesTheFinishedStateWithoutAnEvent) {
  EmbedTimeline timeline;
  const EmbedClock finished{7.0, true, 4.0, false};
  timeline.Restart(true);  // a scene opened already finished (t= past its end)
  EXPECT_FALSE(timeline.Step(finished).finished_at);
  timeline.Restart(false);  // the next scene: finishing is news again
  EXPECT_EQ(timeline.Step(finished).finished_at, 7.0);
  EXPECT_FALSE(timeline.Step(finished).finished_at);
  // A fresh timeline has seen nothing finish: a scene finished on its first frame is reported.
  EmbedTimeline fresh;
  EXPECT_EQ(fresh.Step(finished).finished_at, 7.0);
}

TEST(EmbedTimelineTest, TheLoopCanBeReplacedAndCleared) {
  EmbedTimeline timeline;
  const EmbedClock at_three{3.0, false, 4.0, false};
  EXPECT_FALSE(timeline.Step(at_three).seek_to);
  timeline.SetLoop(Range(1.0, 2.0));
  EXPECT_EQ(timeline.Step(at_three).seek_to, 1.0);
  timeline.SetLoop(kWhole);
  EXPECT_FALSE(timeline.Step(at_three).seek_to);  // until 5
  timeline.SetLoop(std::nullopt);
  EXPECT_FALSE(timeline.loop().has_value());
  EXPECT_FALSE(timeline.Step(EmbedClock{1e6, false, 4.0, false}).seek_to);
}

struct RangeCase {
  std::optional<EmbedLoop> loop;
  EmbedClock clock;
  std::optional<std::pair<double, double>> range;
};

TEST(EmbedTimelineTest, LoopRangeForTheSlider) {
  const RangeCase cases[] = {
      {std::nullopt, {0.0, false, 4.0, false}, std::nullopt},
      {Range(1.0, 1.6), {0.0, false, std::nullopt, true}, std::pair{1.0, 1.6}},
      {kWhole, {0.0, false, 4.0, false}, std::pair{0.0, 5.0}},
      {kWhole, {0.0, false, std::nullopt, false}, std::nullopt},
      {kWhole, {0.0, false, 4.0, true}, std::nullopt},
  };
  for (const RangeCase& c : cases) {
    EmbedTimeline timeline;
    timeline.SetLoop(c.loop);
    const std::optional<EmbedLoop> range = timeline.LoopRange(c.clock);
    ASSERT_EQ(range.has_value(), c.range.has_value());
    if (!range) continue;
    EXPECT_FALSE(range->whole);
    EXPECT_EQ(range->start, c.range->first);
    EXPECT_EQ(range->end, c.range->second);
  }
}

TEST(EmbedTimelineTest, EventDetailsAreJson) {
  EXPECT_EQ(WriteJson(FinishedEventDetail(4.25)), R"({"time":4.25})");
  EXPECT_EQ(WriteJson(FinishedEventDetail(0.1)), R"({"time":0.1})");
  EXPECT_EQ(WriteJson(SeekedEventDetail(1.0)), R"({"time":1,"reason":"loop"})");
  EXPECT_EQ(WriteJson(SeekedEventDetail(0.0)), R"({"time":0,"reason":"loop"})");
}

}  // namespace
}  // namespace md5stage::viewer
