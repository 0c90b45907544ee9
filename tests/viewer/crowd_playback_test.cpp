// Characters giving way in the viewer (viewer/crowd_playback.h, a scene's `avoidance`): the
// crowd alone (seeking equals playing, an edit keeps what came before it), and the `swap`,
// `corridor`, `crossing` and `doorway` demos opened in a stage as the page opens them: no pair
// ever closer than the sum of their clearances, everyone arrives, seeking to 7.5 s equals
// playing to 7.5 s, the walkers' places and their clips (the walk cycle's phase); a scene without
// avoidance places its walkers by their plans as before.
#include "viewer/crowd_playback.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/crowd/crowd_simulation.h"
#include "core/scene/share_link.h"
#include "folder_host.h"
#include "viewer/stage.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::FolderHost;

// ---- the crowd alone ---------------------------------------------------------------------------

std::vector<CrowdCharacter> HeadOn() {
  std::vector<CrowdCharacter> characters(2);
  characters[0].start = {{-200, 0}, 0.0};
  characters[0].target = {200, 0};
  characters[1].start = {{200, 0}, kPi};
  characters[1].target = {-200, 0};
  for (CrowdCharacter& c : characters) {
    c.has_target = true;
    c.speed = 80;
    c.turning_radius = 30;
    c.clearance = 15;
  }
  return characters;
}

std::vector<CharacterId> Ids(int count) {
  HandleSerials serials;
  std::vector<CharacterId> ids;
  for (int i = 0; i < count; ++i) ids.push_back(serials.Next<HandleKind::kCharacter>());
  return ids;
}

Pose2 PoseOf(CrowdPlayback& crowd, CharacterId id, double time) {
  Pose2 pose;
  double speed = 0.0;
  EXPECT_TRUE(crowd.PoseAt(id, -1, time, &pose, &speed));
  return pose;
}

// Frame times of uneven length (not whole steps) up to `until`: what a page's frames give.
std::vector<double> UnevenFrameTimes(double until) {
  std::vector<double> times;
  double t = 0.0;
  for (int frame = 0; t < until; ++frame) {
    t += frame % 3 == 0 ? 0.021 : 0.013;
    times.push_back(t);
  }
  return times;
}

TEST(CrowdPlayback, SeekingAnywhereGivesThePosesPlayingGives) {
  const std::vector<CharacterId> ids = Ids(2);
  CrowdPlayback played, seeked;
  ASSERT_TRUE(played.Start(0.0, ids, HeadOn(), ObstacleSet()).ok());
  ASSERT_TRUE(seeked.Start(0.0, ids, HeadOn(), ObstacleSet()).ok());
  // Frames of uneven length (not whole steps), then the same times seeked in a scrambled order:
  // forward past snapshots, back across them, onto a step's end and between steps.
  const std::vector<double> times = UnevenFrameTimes(9.0);
  std::vector<Pose2> poses;
  for (double time : times) {
    for (CharacterId id : ids) poses.push_back(PoseOf(played, id, time));
  }
  EXPECT_GE(played.snapshot_count(), 9);
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::size_t f = (k * 389) % times.size();  // 389 is prime to the count: all of them
    for (std::size_t c = 0; c < ids.size(); ++c) {
      const Pose2 pose = PoseOf(seeked, ids[c], times[f]);
      const Pose2& want = poses[f * ids.size() + c];
      ASSERT_NEAR(pose.position.x, want.position.x, 1e-9) << times[f];
      ASSERT_NEAR(pose.position.y, want.position.y, 1e-9) << times[f];
      ASSERT_NEAR(pose.heading, want.heading, 1e-9) << times[f];
    }
  }
  // Between two steps a pose lies on the step's arc: it moves on continuously.
  const Pose2 a = PoseOf(seeked, ids[0], 3.0), b = PoseOf(seeked, ids[0], 3.0 + 1.0 / 120.0);
  EXPECT_GT(glm::distance(a.position, b.position), 0.1);
  EXPECT_LT(glm::distance(a.position, b.position), 80.0 / 120.0 + 1e-9);
}

anim::Gait GaitOf(CrowdPlayback& crowd, CharacterId id, double time) {
  anim::Gait gait;
  EXPECT_TRUE(crowd.GaitAt(id, -1, time, &gait));
  return gait;
}

// How far and how long each walker has walked (what its walk cycle's phase is set from) is a
// function of the time too: seeking gives what playing gives; the distance grows by the steps'
// speeds (at least the way from start to end, at most the speed's worth), and the head-on pair
// walks, then stands at its goals.
TEST(CrowdPlayback, SeekingGivesTheWalkingPlayingGives) {
  const std::vector<CharacterId> ids = Ids(2);
  CrowdPlayback played, seeked;
  ASSERT_TRUE(played.Start(0.0, ids, HeadOn(), ObstacleSet()).ok());
  ASSERT_TRUE(seeked.Start(0.0, ids, HeadOn(), ObstacleSet()).ok());
  const std::vector<double> times = UnevenFrameTimes(9.0);
  std::vector<anim::Gait> gaits;
  std::vector<Pose2> poses;
  for (double time : times) {
    for (CharacterId id : ids) {
      gaits.push_back(GaitOf(played, id, time));
      poses.push_back(PoseOf(played, id, time));
    }
  }
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::size_t f = (k * 389) % times.size();
    for (std::size_t c = 0; c < ids.size(); ++c) {
      const anim::Gait gait = GaitOf(seeked, ids[c], times[f]);
      const anim::Gait& want = gaits[f * ids.size() + c];
      ASSERT_EQ(gait.moving, want.moving) << times[f];
      ASSERT_NEAR(gait.walked, want.walked, 1e-9) << times[f];
      ASSERT_NEAR(gait.speed, want.speed, 1e-9) << times[f];
      ASSERT_NEAR(gait.elapsed, want.elapsed, 1e-9) << times[f];
      ASSERT_NEAR(gait.previous, want.previous, 1e-9) << times[f];
    }
  }
  for (std::size_t c = 0; c < ids.size(); ++c) {
    const anim::Gait& first = gaits[c];
    EXPECT_TRUE(first.moving);
    EXPECT_LT(first.previous, 0.0) << "nothing came before the first walk";
    for (std::size_t k = 1; k < times.size(); ++k) {
      const anim::Gait& a = gaits[(k - 1) * ids.size() + c];
      const anim::Gait& b = gaits[k * ids.size() + c];
      const double way = glm::distance(poses[(k - 1) * ids.size() + c].position,
                                       poses[k * ids.size() + c].position);
      ASSERT_GE(b.walked - a.walked, way - 1e-9) << times[k];
      ASSERT_LE(b.walked - a.walked, 80.0 * (times[k] - times[k - 1]) + 1e-9) << times[k];
    }
    const anim::Gait& last = gaits[(times.size() - 1) * ids.size() + c];
    EXPECT_FALSE(last.moving) << "walker " << c << " stands at its goal";
    EXPECT_GT(last.previous, 0.0) << "a walk came before the stand";
    EXPECT_GE(last.walked, 400.0 - 1.5);
  }
}

TEST(CrowdPlayback, AnEditStartsARunFromThePosesAtItsTimeAndKeepsWhatCameBefore) {
  const std::vector<CharacterId> ids = Ids(2);
  CrowdPlayback crowd;
  ASSERT_TRUE(crowd.Start(0.0, ids, HeadOn(), ObstacleSet()).ok());
  const Pose2 before = PoseOf(crowd, ids[0], 1.5);
  const Pose2 at_edit = PoseOf(crowd, ids[0], 2.0);
  const double walked_at_edit = GaitOf(crowd, ids[0], 2.0).walked;
  PoseOf(crowd, ids[0], 6.0);  // played on: snapshots up to 6 s
  const int snapshots_played = crowd.snapshot_count();
  // At 2 s the first walker is sent back where it came from (its scene start, as the stage
  // writes it, is not where it starts: the run hands on its pose at 2 s).
  std::vector<CrowdCharacter> edited = HeadOn();
  edited[0].target = {-200, 100};
  ASSERT_TRUE(crowd.Start(2.0, ids, edited, ObstacleSet()).ok());
  EXPECT_EQ(crowd.run_count(), 2);
  EXPECT_LT(crowd.snapshot_count(), snapshots_played);  // those after 2 s are gone
  const Pose2 start = PoseOf(crowd, ids[0], 2.0);
  EXPECT_NEAR(glm::distance(start.position, at_edit.position), 0.0, 1e-9);
  EXPECT_NEAR(start.heading, at_edit.heading, 1e-9);
  // The walk cycle goes on across the edit: the distance walked at 2 s is handed on.
  EXPECT_NEAR(GaitOf(crowd, ids[0], 2.0).walked, walked_at_edit, 1e-9);
  EXPECT_GT(GaitOf(crowd, ids[0], 2.5).walked, walked_at_edit);
  const Pose2 replayed = PoseOf(crowd, ids[0], 1.5);
  EXPECT_NEAR(glm::distance(replayed.position, before.position), 0.0, 1e-9);
  // It turns round towards its new target instead of walking on to the old one.
  const Pose2 later = PoseOf(crowd, ids[0], 9.0);
  EXPECT_LT(later.position.x, at_edit.position.x);
  // An edit before the second run's start drops that run.
  ASSERT_TRUE(crowd.Start(1.0, ids, HeadOn(), ObstacleSet()).ok());
  EXPECT_EQ(crowd.run_count(), 2);
  // A bad character leaves everything as it was.
  std::vector<CrowdCharacter> bad = HeadOn();
  bad[1].turning_radius = -1;
  EXPECT_FALSE(crowd.Start(0.5, ids, bad, ObstacleSet()).ok());
  EXPECT_EQ(crowd.run_count(), 2);
}

// ---- the demos in a stage ----------------------------------------------------------------------

struct OpenedDemo {
  explicit OpenedDemo(const std::string& demo) : host(MD5STAGE_SOURCE_DIR) {
    stage = std::make_unique<Stage>(&device, &host);
    stage->SetViewport(640, 360, 1.0f);
    stage->OpenDemo(demo);
    host.Pump(*stage);
    opened = host.LastOpened();
  }
  NullRenderBackend device;
  FolderHost host;
  std::unique_ptr<Stage> stage;
  JsonValue opened;
};

struct Placed {
  std::vector<glm::dvec2> positions;
  std::vector<double> clearances;
  std::vector<glm::dvec2> targets;
};

// What state() reports of the characters.
Placed PlacesOf(const Stage& stage) {
  Placed placed;
  const JsonValue state = stage.State();
  for (const JsonValue& instance : state.Find("instances")->as_array()) {
    const JsonArray& p = instance.Find("position")->as_array();
    placed.positions.push_back({p[0].as_number(), p[1].as_number()});
    placed.clearances.push_back(instance.Find("clearance")->as_number());
  }
  // Where each is going (from where the scene starts it): its target, or the slot the crowd
  // gives it round a target it shares (the maze's three walkers).
  const Scene scene = stage.CurrentScene();
  std::vector<CrowdCharacter> characters;
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    const SceneInstance& instance = scene.instances[i];
    CrowdCharacter c;
    c.start.position = instance.position;
    c.clearance = placed.clearances[i];
    c.has_target = instance.target.has_value();
    c.target = instance.target ? instance.target->position : instance.position;
    characters.push_back(c);
  }
  placed.targets = AssignGoalSlots(characters, &stage.obstacles());
  return placed;
}

double LeastSeparation(const Placed& placed) {
  double least = INFINITY;
  for (std::size_t i = 0; i < placed.positions.size(); ++i) {
    for (std::size_t j = i + 1; j < placed.positions.size(); ++j) {
      least = std::min(least, glm::distance(placed.positions[i], placed.positions[j]) -
                                  placed.clearances[i] - placed.clearances[j]);
    }
  }
  return least;
}

// Each character's clip as it would be sampled: which clip, where, and the crossfade.
struct Clip {
  int animation = -1;
  double time = 0.0;
  int fade_from = -1;
  double fade_time = 0.0;
  float fade_weight = 1.0f;
};

std::vector<Clip> ClipsOf(const Stage& stage) {
  std::vector<Clip> clips;
  for (const Character& character : stage.characters()) {
    const anim::PlaybackClock& clock = character.playback;
    Clip clip;
    clip.animation = clock.animation;
    clip.time = clock.time;
    clip.fade_from = clock.fade_from;
    if (clock.fade_from >= 0) {
      const LoadedModel& model = stage.ModelOf(character);
      clip.fade_time = anim::CrossfadeFromTime(
          clock, model.animations[static_cast<std::size_t>(clock.fade_from)]->duration());
      clip.fade_weight = anim::CrossfadeWeight(clock);
    }
    clips.push_back(clip);
  }
  return clips;
}

// The walk cycle's phase (and the idle's, and the fades) seeked equal what playing gave, to 1e-9.
void ExpectSameClips(const std::vector<Clip>& clips, const std::vector<Clip>& want,
                     const char* label) {
  ASSERT_EQ(clips.size(), want.size()) << label;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    EXPECT_EQ(clips[i].animation, want[i].animation) << label << " " << i;
    EXPECT_NEAR(clips[i].time, want[i].time, 1e-9) << label << " " << i;
    EXPECT_EQ(clips[i].fade_from, want[i].fade_from) << label << " " << i;
    EXPECT_NEAR(clips[i].fade_time, want[i].fade_time, 1e-9) << label << " " << i;
    EXPECT_NEAR(clips[i].fade_weight, want[i].fade_weight, 1e-6) << label << " " << i;
  }
}

struct DemoCase {
  const char* demo;
  int walkers;
  double seconds;  // everyone has arrived by then
};

class GivingWayDemo : public ::testing::TestWithParam<DemoCase> {};

TEST_P(GivingWayDemo, NobodyTouchesEveryoneArrivesAndSeekingEqualsPlaying) {
  const DemoCase& demo = GetParam();
  OpenedDemo played(demo.demo);
  ASSERT_TRUE(test::Ok(played.opened)) << WriteJson(played.opened);
  ASSERT_EQ(played.stage->character_count(), demo.walkers);
  ASSERT_TRUE(played.stage->cast().avoidance());
  ASSERT_TRUE(played.stage->CurrentScene().avoidance);
  // Frames of 1/64 s (exact in binary, and not whole steps of 1/60 s).
  constexpr double kFrame = 1.0 / 64.0;
  Placed at_seek;
  std::vector<Clip> clips_at_seek;
  double least = INFINITY;
  bool moved = false;
  const Placed first = PlacesOf(*played.stage);
  const int frames = static_cast<int>(std::lround(demo.seconds / kFrame));
  for (int frame = 1; frame <= frames; ++frame) {
    played.stage->Update(kFrame);
    const Placed now = PlacesOf(*played.stage);
    least = std::min(least, LeastSeparation(now));
    moved = moved || glm::distance(now.positions[0], first.positions[0]) > 1.0;
    if (frame == 480) {  // 7.5 s
      at_seek = now;
      clips_at_seek = ClipsOf(*played.stage);
    }
  }
  EXPECT_TRUE(moved);
  EXPECT_GE(least, -1e-9) << "a pair came closer than the sum of their clearances";
  const Placed end = PlacesOf(*played.stage);
  for (std::size_t i = 0; i < end.positions.size(); ++i) {
    // The crowd's arrival: within a tenth of its clearance of the goal.
    EXPECT_LE(glm::distance(end.positions[i], first.targets[i]), 0.1 * end.clearances[i] + 1e-9)
        << demo.demo << " walker " << i << " has not arrived";
  }

  // Another stage seeked straight to 7.5 s shows what playing there showed; so does the played
  // one sent back from its end.
  OpenedDemo seeked(demo.demo);
  seeked.stage->SetSceneTime(7.5);
  seeked.stage->Update(0.0);
  played.stage->SetSceneTime(7.5);
  played.stage->Update(0.0);
  for (const Stage* stage : {seeked.stage.get(), played.stage.get()}) {
    const Placed placed = PlacesOf(*stage);
    ASSERT_EQ(placed.positions.size(), at_seek.positions.size());
    for (std::size_t i = 0; i < placed.positions.size(); ++i) {
      EXPECT_NEAR(placed.positions[i].x, at_seek.positions[i].x, 1e-9) << i;
      EXPECT_NEAR(placed.positions[i].y, at_seek.positions[i].y, 1e-9) << i;
    }
    ExpectSameClips(ClipsOf(*stage), clips_at_seek, demo.demo);
  }
  // Some walker is mid-stride there, not all at one phase (a clock left at 0 would pass).
  int walking = 0;
  for (const Clip& clip : clips_at_seek) walking += clip.time > 0.0 ? 1 : 0;
  EXPECT_GT(walking, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Demos, GivingWayDemo,
    ::testing::Values(DemoCase{"swap", 16, 30.0}, DemoCase{"corridor", 2, 16.0},
                      DemoCase{"crossing", 40, 45.0}, DemoCase{"doorway", 10, 30.0},
                      DemoCase{"maze", 3, 40.0}),
    [](const ::testing::TestParamInfo<DemoCase>& info) { return std::string(info.param.demo); });

// The share link of `swap` paused at 7.5 s opens on the picture playing to 7.5 s shows.
TEST(GivingWayDemo, ALinkOfTheSwapAtSevenAndAHalfSecondsShowsWhatPlayingThereShows) {
  OpenedDemo played("swap");
  ASSERT_TRUE(test::Ok(played.opened));
  for (int frame = 0; frame < 480; ++frame) played.stage->Update(1.0 / 64.0);
  played.stage->SetScenePlaying(false);
  const Placed want = PlacesOf(*played.stage);
  const std::vector<Clip> want_clips = ClipsOf(*played.stage);
  Result<std::string> link = EncodeSceneLink(played.stage->CurrentScene());
  ASSERT_TRUE(link.ok()) << link.error().ToString();
  NullRenderBackend device;
  FolderHost host(MD5STAGE_SOURCE_DIR);
  Stage linked(&device, &host);
  linked.SetViewport(640, 360, 1.0f);
  linked.OpenLink(link.value());
  host.Pump(linked);
  ASSERT_TRUE(test::Ok(host.LastOpened())) << WriteJson(host.LastOpened());
  ASSERT_TRUE(linked.cast().avoidance());
  linked.Update(1.0 / 64.0);  // paused: the time stays at 7.5 s
  const Placed placed = PlacesOf(linked);
  ASSERT_EQ(placed.positions.size(), want.positions.size());
  for (std::size_t i = 0; i < placed.positions.size(); ++i) {
    EXPECT_NEAR(placed.positions[i].x, want.positions[i].x, 1e-9) << i;
    EXPECT_NEAR(placed.positions[i].y, want.positions[i].y, 1e-9) << i;
  }
  // The limbs too: the link's walkers are at the phases playing gave them.
  ExpectSameClips(ClipsOf(linked), want_clips, "link");
}

// An edit through the stage (a speed set at 3 s): the crowd goes on from where it was, without a
// jump; seeking before the edit shows what happened before it, after it what playing showed.
TEST(GivingWayDemo, AnEditGoesOnFromWhereTheCrowdWasAndSeekingKeepsBothSides) {
  OpenedDemo corridor("corridor");
  ASSERT_TRUE(test::Ok(corridor.opened));
  Stage& stage = *corridor.stage;
  constexpr double kFrame = 1.0 / 64.0;
  Placed at_one, at_edit, at_eight;
  for (int frame = 1; frame <= 192; ++frame) {
    stage.Update(kFrame);
    if (frame == 64) at_one = PlacesOf(stage);
  }
  at_edit = PlacesOf(stage);
  stage.SetSpeed(0, 40.0);
  stage.Update(kFrame);
  EXPECT_EQ(stage.cast().crowd().run_count(), 2);
  const Placed after = PlacesOf(stage);
  for (std::size_t i = 0; i < after.positions.size(); ++i) {
    EXPECT_LE(glm::distance(after.positions[i], at_edit.positions[i]), 70.0 * kFrame + 1e-9) << i;
  }
  for (int frame = 194; frame <= 512; ++frame) stage.Update(kFrame);
  at_eight = PlacesOf(stage);
  // The slowed walker is behind where its speed alone would have brought it from the edit.
  EXPECT_LT(at_eight.positions[0].x, at_edit.positions[0].x + 40.0 * 5.0 + 1e-9);
  for (const auto& [time, want] : {std::pair<double, const Placed*>{1.0, &at_one},
                                   std::pair<double, const Placed*>{8.0, &at_eight},
                                   std::pair<double, const Placed*>{3.0, &at_edit}}) {
    stage.SetSceneTime(time);
    stage.Update(0.0);
    const Placed placed = PlacesOf(stage);
    for (std::size_t i = 0; i < placed.positions.size(); ++i) {
      EXPECT_NEAR(placed.positions[i].x, want->positions[i].x, 1e-9) << time << " " << i;
      EXPECT_NEAR(placed.positions[i].y, want->positions[i].y, 1e-9) << time << " " << i;
    }
  }
}

// A new target mid-walk: the walker's new plan starts where the crowd has it (no jump), and the
// crowd takes it there.
TEST(GivingWayDemo, ANewTargetStartsFromWhereTheCrowdHasTheWalker) {
  OpenedDemo corridor("corridor");
  ASSERT_TRUE(test::Ok(corridor.opened));
  Stage& stage = *corridor.stage;
  for (int frame = 0; frame < 4 * 64; ++frame) stage.Update(1.0 / 64.0);
  const Placed before = PlacesOf(stage);
  ASSERT_TRUE(stage.GoTo(1, {-250, 0}, std::nullopt).ok());
  const Pose2 plan_start = stage.characters()[1].locomotion.follower.PoseAt(-1e300);
  EXPECT_NEAR(glm::distance(plan_start.position, before.positions[1]), 0.0, 1e-9);
  stage.Update(1.0 / 64.0);
  EXPECT_LE(glm::distance(PlacesOf(stage).positions[1], before.positions[1]), 70.0 / 64.0 + 1e-9);
  for (int frame = 0; frame < 20 * 64; ++frame) stage.Update(1.0 / 64.0);
  const Placed end = PlacesOf(stage);
  EXPECT_LE(glm::distance(end.positions[1], glm::dvec2(-250, 0)), 1.5 + 1e-9);
  EXPECT_LE(glm::distance(end.positions[0], glm::dvec2(360, 0)), 1.5 + 1e-9);
}

TEST(GivingWayDemo, WalkersPlayTheWalkWhileTheCrowdMovesThemAndIdleWhenItHoldsThem) {
  OpenedDemo corridor("corridor");
  ASSERT_TRUE(test::Ok(corridor.opened));
  corridor.stage->Update(1.0 / 64.0);
  const Character& walker = corridor.stage->characters()[0];
  const LoadedModel& model = corridor.stage->ModelOf(walker);
  EXPECT_TRUE(walker.locomotion.moving);
  EXPECT_EQ(walker.playback.animation, model.FindAnimation("walk"));
  for (int frame = 0; frame < 20 * 64; ++frame) corridor.stage->Update(1.0 / 64.0);
  EXPECT_FALSE(corridor.stage->characters()[0].locomotion.moving);
}

// The benchmark's split of an update (updateSteps' crowd_ms): the crowd's steps made ahead leave
// the update none to make, and the update then poses everyone exactly as one without them.
TEST(GivingWayDemo, TheCrowdsStepsMadeAheadLeaveTheUpdateTheSamePosesAndNoStep) {
  OpenedDemo ahead("swap"), plain("swap");
  ASSERT_TRUE(test::Ok(ahead.opened));
  ASSERT_TRUE(test::Ok(plain.opened));
  const double dt = 1.0 / 60.0;
  for (int update = 0; update < 150; ++update) {
    ahead.stage->StepCrowdAhead(dt);
    const long long made = ahead.stage->cast().crowd().steps_made();
    ahead.stage->StepEngine(dt);
    plain.stage->StepEngine(dt);
    // The first update builds the crowd from its own time: nothing is made ahead of it.
    if (update > 0) ASSERT_EQ(ahead.stage->cast().crowd().steps_made(), made) << update;
    const std::vector<Character>& a = ahead.stage->characters();
    const std::vector<Character>& b = plain.stage->characters();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].position.x, b[i].position.x) << update << " " << i;
      ASSERT_EQ(a[i].position.y, b[i].position.y) << update << " " << i;
      ASSERT_EQ(a[i].heading, b[i].heading) << update << " " << i;
      ASSERT_EQ(a[i].playback.time, b[i].playback.time) << update << " " << i;
    }
  }
  EXPECT_EQ(ahead.stage->cast().crowd().steps_made(), plain.stage->cast().crowd().steps_made());
  EXPECT_GE(plain.stage->cast().crowd().steps_made(), 149);
}

// A scene without avoidance (the maze with its avoidance switched off, as the embed's option
// does): no crowd, the walkers where their own plans put them.
TEST(GivingWayDemo, ScenesWithoutAvoidanceKeepTheirWalkersOnTheirPlans) {
  OpenedDemo maze("maze");
  ASSERT_TRUE(test::Ok(maze.opened)) << WriteJson(maze.opened);
  EXPECT_TRUE(maze.stage->cast().avoidance());
  maze.stage->SetAvoidance(false);
  maze.stage->Update(0.0);
  EXPECT_FALSE(maze.stage->cast().avoidance());
  EXPECT_FALSE(maze.stage->cast().crowd().active());
  for (int frame = 0; frame < 5 * 64; ++frame) maze.stage->Update(1.0 / 64.0);
  const Placed placed = PlacesOf(*maze.stage);
  const double now = maze.stage->CurrentScene().time;
  for (std::size_t i = 0; i < placed.positions.size(); ++i) {
    const Pose2 planned = maze.stage->characters()[i].locomotion.follower.PoseAt(now);
    EXPECT_EQ(placed.positions[i], planned.position) << i;
  }
}

}  // namespace
}  // namespace md5stage::viewer
