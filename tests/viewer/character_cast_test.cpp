// The characters feature alone (viewer/character_cast.h): adding and removing characters with
// stable handles and the selection they keep, one character's playback and attachments refused
// at bad positions, the crowd's clones, what a route's rebuild or removal means for its walkers,
// and the characters' part of state().
#include "viewer/character_cast.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "viewer/model_library.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {
namespace {

std::string AssetBytes(const std::string& relative) {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/" + relative,
                   std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A library of the walker (model 0, with idle and walk) and the lamp (model 1).
class CastFixture {
 public:
  CastFixture() : library_(&backend_), cast_(&library_) {
    std::vector<InputFile> files;
    for (const char* name : {"walker/walker.md5mesh", "walker/idle.md5anim", "walker/walk.md5anim",
                             "lamp/lamp.md5mesh"}) {
      files.push_back(
          {std::string(name).substr(std::string(name).find('/') + 1), AssetBytes(name), "local"});
    }
    library_.LoadFiles(std::move(files));
    EXPECT_EQ(library_.models().size(), 2u);
  }
  ModelLibrary& library() { return library_; }
  CharacterCast& cast() { return cast_; }
  int walker() const { return library_.FindModel("walker"); }
  int lamp() const { return library_.FindModel("lamp"); }

 private:
  NullRenderBackend backend_;
  ModelLibrary library_;
  CharacterCast cast_;
};

std::vector<std::string> IdTexts(const CharacterCast& cast) {
  std::vector<std::string> texts;
  for (const Character& character : cast.all()) texts.push_back(HandleText(character.id));
  return texts;
}

TEST(CharacterCastTest, RemovingAModelKeepsEveryOtherCharacterAndTheSelection) {
  // Characters c1..c4 of the models in `order` ('w' walker, 'l' lamp); `selected` is picked,
  // then the `removed` model goes.
  const struct {
    const char* name;
    const char* order;
    int selected;
    char removed;
    std::vector<std::string> ids_after;
    const char* selected_after;  // "" none
  } rows[] = {
      {"a removed model before the selected one", "llww", 2, 'l', {"c3", "c4"}, "c3"},
      {"a removed model after the selected one", "wwll", 1, 'l', {"c1", "c2"}, "c2"},
      {"interleaved, the last selected", "lwlw", 3, 'l', {"c2", "c4"}, "c4"},
      {"the selected character's own model", "wlwl", 1, 'l', {"c1", "c3"}, ""},
      {"nothing selected stays so", "lwlw", -1, 'w', {"c1", "c3"}, ""},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    for (const char* c = row.order; *c; ++c) {
      EXPECT_GE(cast.Add(*c == 'w' ? fixture.walker() : fixture.lamp(), std::nullopt, 0.f), 0);
    }
    cast.Select(row.selected, row.selected >= 0 ? 3 : -1);
    const int removed = row.removed == 'w' ? fixture.walker() : fixture.lamp();
    const ModelId removed_id = fixture.library().models()[static_cast<size_t>(removed)].id;
    cast.RemoveModel(removed_id);
    EXPECT_FALSE(cast.Uses(removed_id));
    EXPECT_EQ(IdTexts(cast), row.ids_after);
    EXPECT_EQ(cast.selection().character.valid() ? HandleText(cast.selection().character) : "",
              row.selected_after);
    // The joint goes with its character, and stays with one that stays.
    EXPECT_EQ(cast.selection().joint, *row.selected_after ? 3 : -1);
  }
}

TEST(CharacterCastTest, AddingValidity) {
  const struct {
    const char* name;
    int model;  // -2: the lamp, -3: the walker
    int index;  // -1: refused
  } rows[] = {
      {"the walker", -3, 1},
      {"the lamp", -2, 1},
      {"a negative model", -1, -1},
      {"a model past the end", 2, -1},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    ASSERT_EQ(cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f), 0);
    const int model = row.model == -2   ? fixture.lamp()
                      : row.model == -3 ? fixture.walker()
                                        : row.model;
    EXPECT_EQ(cast.Add(model, std::nullopt, 0.f), row.index);
    // A refused character leaves the first one selected; an added one is selected.
    EXPECT_EQ(cast.selected_index(), row.index >= 0 ? row.index : 0);
    EXPECT_EQ(cast.size(), row.index >= 0 ? 2 : 1);
  }
  // A second character of a model is labelled apart and stands apart from the first.
  CastFixture fixture;
  fixture.cast().Add(fixture.walker(), std::nullopt, 0.f);
  fixture.cast().Add(fixture.walker(), std::nullopt, 0.f);
  EXPECT_EQ(fixture.cast().At(0)->label, "walker");
  EXPECT_EQ(fixture.cast().At(1)->label, "walker 2");
  EXPECT_GT(fixture.cast().At(1)->position.x, fixture.cast().At(0)->position.x);
}

TEST(CharacterCastTest, OneCharactersEditsAtABadPositionChangeNothing) {
  const int kBad[] = {-1, 2, 1 << 30};
  for (int index : kBad) {
    SCOPED_TRACE(index);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f);
    cast.Add(fixture.walker(), glm::vec2(100, 0), 0.f);
    const JsonValue before = cast.Json(0.0, RouteBook());
    cast.Play(index);
    cast.Pause(index);
    cast.TogglePlay(index);
    cast.StepFrames(index, 3);
    cast.SetAnimation(index, 1);
    cast.SetClipTime(index, 0.5);
    cast.SetRate(index, 2.f);
    cast.SetPlayMode(index, PlayMode::kOnce);
    cast.SetPlacement(index, glm::vec2(7, 7), 1.f, 0.0);
    cast.Attach(index, fixture.lamp(), 0, glm::vec3(0), glm::vec3(0));
    cast.SetSpeed(index, 10.0, 0.0);
    cast.SetTurnRadius(index, 10.0, 0.0);
    EXPECT_FALSE(cast.SetClearance(index, 10.0, 0.0));
    EXPECT_FALSE(cast.IsPlaying(index));
    EXPECT_EQ(WriteJson(cast.Json(0.0, RouteBook())), WriteJson(before));
  }
}

TEST(CharacterCastTest, AttachmentValidity) {
  const struct {
    const char* name;
    int model;  // -2: the lamp
    int joint;
    int detach;  // after attaching: the attachment detached (-9: none)
    size_t attachments_after;
  } rows[] = {
      {"the lamp at the first joint", -2, 0, -9, 1},
      {"a bad model", 5, 0, -9, 0},
      {"a negative joint", -2, -1, -9, 0},
      {"a joint past the skeleton", -2, 1000, -9, 0},
      {"attached, then detached", -2, 0, 0, 0},
      {"attached, a bad attachment detached", -2, 0, 1, 1},
      {"attached, a negative attachment detached", -2, 0, -1, 1},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f);
    cast.Attach(0, row.model == -2 ? fixture.lamp() : row.model, row.joint, glm::vec3(1, 2, 3),
                glm::vec3(0));
    if (row.detach != -9) cast.Detach(0, row.detach);
    EXPECT_EQ(cast.At(0)->attachments.size(), row.attachments_after);
    // The carried model is in use; removing it takes the attachment, not the carrier.
    const ModelId lamp = fixture.library().models()[static_cast<size_t>(fixture.lamp())].id;
    EXPECT_EQ(cast.Uses(lamp), row.attachments_after > 0);
    cast.RemoveModel(lamp);
    EXPECT_EQ(cast.size(), 1);
    EXPECT_TRUE(cast.At(0)->attachments.empty());
  }
}

TEST(CharacterCastTest, TheCrowdClonesItsTemplatesAndShrinksFromTheEnd) {
  const struct {
    const char* name;
    int count;
    int size_after;
  } rows[] = {
      {"grown", 7, 7},
      {"the templates alone", 2, 2},
      {"shrunk below the templates", 1, 1},
      {"zero keeps one", 0, 1},
      {"past the bound", 9000, 5000},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    RouteBook routes;
    cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f);
    cast.Add(fixture.lamp(), glm::vec2(100, 0), 0.f);
    cast.SetCrowdSize(row.count, routes);
    ASSERT_EQ(cast.size(), row.size_after);
    // Clones alternate the templates' models, with handles never given before, each standing
    // apart from every other.
    for (int i = 0; i < cast.size(); ++i) {
      EXPECT_EQ(HandleText(cast.IdAt(i)), "c" + std::to_string(i + 1));
      EXPECT_EQ(cast.At(i)->model, cast.At(i % 2)->model);
      for (int j = 0; j < i && cast.size() <= 50; ++j) {
        EXPECT_NE(cast.At(i)->position, cast.At(j)->position) << i << " " << j;
      }
    }
  }
  // Shrinking then growing gives new handles, never the removed ones again.
  CastFixture fixture;
  RouteBook routes;
  fixture.cast().Add(fixture.walker(), glm::vec2(0, 0), 0.f);
  fixture.cast().SetCrowdSize(3, routes);
  fixture.cast().SetCrowdSize(1, routes);
  fixture.cast().SetCrowdSize(2, routes);
  EXPECT_EQ(IdTexts(fixture.cast()), (std::vector<std::string>{"c1", "c4"}));
}

TEST(CharacterCastTest, TheCrowdsClonesStandApartRoundTheirTemplates) {
  // Two walkers on routes starting 30 apart (their clones' spirals overlap) and a lamp; every
  // clone's plan starts where it stands, and no two characters start within the sum of their
  // clearances (the crowd demo's clones stood 100 on one point, inside each other).
  const struct {
    const char* name;
    int count;
  } rows[] = {{"a few", 7}, {"many", 300}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    CastFixture fixture;
    CharacterCast& cast = fixture.cast();
    RouteBook routes;
    ASSERT_TRUE(routes.Build(0, {RouteSegment::Line({0, 0}, {400, 0})}, false, "").ok());
    ASSERT_TRUE(routes.Build(1, {RouteSegment::Line({30, 0}, {30, 400})}, false, "").ok());
    cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f);
    cast.Add(fixture.walker(), glm::vec2(30, 0), 0.f);
    cast.Add(fixture.lamp(), glm::vec2(-60, 0), 0.f);
    ASSERT_TRUE(
        cast.StartRoute(*cast.At(0), routes.routes()[0].id, PlayMode::kLoop, routes, 0.0).ok());
    ASSERT_TRUE(
        cast.StartRoute(*cast.At(1), routes.routes()[1].id, PlayMode::kLoop, routes, 0.0).ok());
    cast.SetCrowdSize(row.count, routes);
    ASSERT_EQ(cast.size(), row.count);
    std::vector<glm::dvec2> starts;
    std::vector<double> clearances;
    for (int i = 0; i < cast.size(); ++i) {
      const Character& c = *cast.At(i);
      const glm::dvec2 start = c.locomotion.enabled ? c.locomotion.follower.PoseAt(-1e300).position
                                                    : glm::dvec2(c.position);
      if (i >= 3) {
        EXPECT_EQ(c.locomotion.enabled, i % 3 != 2) << i;
        EXPECT_LT(glm::distance(start, glm::dvec2(c.position)), 1e-3) << i;
      }
      starts.push_back(start);
      clearances.push_back(
          std::max(c.locomotion.clearance, CharacterCast::DefaultClearance(cast.ModelOf(c))));
    }
    // The templates stand where they stood (two of them closer than their clearances: as given).
    for (int i = 3; i < cast.size(); ++i) {
      for (int j = 0; j < i; ++j) {
        EXPECT_GE(glm::distance(starts[i], starts[j]), clearances[i] + clearances[j])
            << i << " " << j;
      }
    }
    // Each walking clone sets off after the one before it of its template.
    if (cast.size() >= 6) {
      EXPECT_GT(cast.At(3)->locomotion.start_delay, cast.At(0)->locomotion.start_delay);
    }
  }
}

TEST(CharacterCastTest, ARoutesWalkersRestartOnItsRebuildAndStopOnItsRemoval) {
  CastFixture fixture;
  CharacterCast& cast = fixture.cast();
  RouteBook routes;
  ASSERT_TRUE(routes.Build(0, {RouteSegment::Line({0, 0}, {400, 0})}, false, "").ok());
  ASSERT_TRUE(routes.Build(1, {RouteSegment::Line({0, 200}, {400, 200})}, false, "").ok());
  const RouteId first = routes.routes()[0].id, second = routes.routes()[1].id;
  for (int i = 0; i < 3; ++i) cast.Add(fixture.walker(), glm::vec2(0, 100 * i), 0.f);
  ASSERT_TRUE(cast.StartRoute(*cast.At(0), first, PlayMode::kLoop, routes, 0.0).ok());
  ASSERT_TRUE(cast.StartRoute(*cast.At(1), second, PlayMode::kLoop, routes, 0.0).ok());
  // A removed route is refused naming the field; the character stays as it was.
  ASSERT_TRUE(routes.Build(2, {RouteSegment::Line({0, 0}, {10, 0})}, false, "").ok());
  RouteId removed;
  ASSERT_TRUE(routes.Remove(2, &removed).ok());
  const Status unknown = cast.StartRoute(*cast.At(2), removed, PlayMode::kLoop, routes, 0.0);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().ToString().find("route"), std::string::npos);
  EXPECT_FALSE(cast.At(2)->locomotion.enabled);

  // The first route rebuilt further away: its walker takes it again, the other keeps its own.
  ASSERT_TRUE(routes.Build(0, {RouteSegment::Line({0, 500}, {400, 500})}, false, "").ok());
  cast.RestartWalkersOn(first, routes, 1.0);
  cast.Step(0.0, 30.0, true);
  EXPECT_NEAR(cast.At(0)->position.y, 500.0, 1.0);
  EXPECT_NEAR(cast.At(1)->position.y, 200.0, 1.0);

  // The second route removed: its walker stops where it is and stays there.
  cast.StopWalkersOn(second, 30.0);
  EXPECT_FALSE(cast.At(1)->locomotion.route.valid());
  EXPECT_TRUE(cast.At(0)->locomotion.route == first);
  const glm::vec2 stopped = cast.At(1)->position;
  cast.Step(0.0, 40.0, true);
  EXPECT_EQ(cast.At(1)->position, stopped);
}

TEST(CharacterCastTest, WritesItsPartOfState) {
  CastFixture fixture;
  CharacterCast& cast = fixture.cast();
  RouteBook routes;
  cast.Add(fixture.walker(), glm::vec2(10, 20), 0.5f);
  cast.Add(fixture.lamp(), glm::vec2(-5, 0), 0.f);
  cast.Attach(0, fixture.lamp(), 1, glm::vec3(0), glm::vec3(0));
  const JsonValue json = cast.Json(0.0, routes);
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.as_array().size(), 2u);
  const JsonValue& walker = json.as_array()[0];
  EXPECT_EQ(walker.Find("id")->as_string(), "c1");
  EXPECT_EQ(walker.Find("label")->as_string(), "walker");
  EXPECT_EQ(walker.Find("model")->as_string(), "walker");
  EXPECT_EQ(walker.Find("animation")->as_string(), "idle");
  EXPECT_EQ(WriteJson(*walker.Find("position")), "[10,20]");
  EXPECT_DOUBLE_EQ(walker.Find("heading")->as_number(), 0.5);
  ASSERT_NE(walker.Find("attachments"), nullptr);
  EXPECT_EQ(walker.Find("attachments")->as_array().size(), 1u);
  const JsonValue& lamp = json.as_array()[1];
  EXPECT_EQ(lamp.Find("id")->as_string(), "c2");
  // The lamp has no clip.
  EXPECT_TRUE(lamp.Find("animation")->is_null());
  // The panels' rows follow the same order.
  const std::vector<ui::InstanceSummary> summaries = cast.Summaries(routes);
  ASSERT_EQ(summaries.size(), 2u);
}

// The contact shadow (shadow-intensity) lies under the posed body: the walker's MD5 walk played
// where it stands (no locomotion) carries the body away by the clip's root motion, and the
// shadow goes with it rather than staying at the character's place.
TEST(CharacterCastTest, ContactShadowFollowsThePosedBody) {
  CastFixture fixture;
  CharacterCast& cast = fixture.cast();
  ASSERT_EQ(cast.Add(fixture.walker(), glm::vec2(0, 0), 0.f), 0);
  const LoadedModel& walker = fixture.library().models()[static_cast<size_t>(fixture.walker())];
  cast.SetAnimation(0, walker.FindAnimation("walk"));
  // Half the one-second clip: the root has moved 27.5 on (at its start and end it is at 0).
  for (int frame = 0; frame < 30; ++frame) cast.Step(1.0 / 60.0, frame / 60.0, true);
  const Character& character = cast.all()[0];
  ASSERT_FALSE(character.locomotion.enabled);
  glm::vec2 body(0.0f);
  for (const glm::mat4& joint : character.pose.models) body += glm::vec2(joint[3]);
  body /= static_cast<float>(character.pose.models.size());
  ASSERT_GT(glm::length(body - character.position), 20.0f) << "the walk moved the body away";

  DrawList list;
  cast.AddContactShadows(list, 1.0f);
  ASSERT_FALSE(list.triangles.empty());
  const glm::vec3 centre = list.triangles.front().position;  // each slice starts at the centre
  EXPECT_NEAR(centre.x, body.x, 1e-3f);
  EXPECT_NEAR(centre.y, body.y, 1e-3f);
  DrawList none;
  cast.AddContactShadows(none, 0.0f);
  EXPECT_TRUE(none.triangles.empty());
}

}  // namespace
}  // namespace md5stage::viewer
