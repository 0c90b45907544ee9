// Stages over one hub: independent scenes, files parsed once and GPU objects uploaded once
// between them, closing a stage releasing only what no other uses, commands routed by "stage",
// and the one scene-opening path (fetch failures included) that the browser takes too.
#include "viewer/stage_hub.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "../tga_writer.h"
#include "folder_host.h"
#include "viewer/scene_opener.h"
#include "viewer_test_support.h"

namespace md5stage::viewer {
namespace {

using test::Command;
using test::FolderHost;
using test::Ok;

const char* const kDemos[] = {"default", "turns",  "maze",    "attach",
                              "crowd",   "camera", "default", "turns"};

JsonValue Call(StageHub& hub, int stage, const std::string& body) {
  return hub.Call(Command("{\"stage\":" + std::to_string(stage) + "," + body + "}"));
}

// A stage's state without what depends on time measured or on other stages (GPU byte counts).
JsonValue Comparable(JsonValue state) {
  JsonValue out = JsonValue::MakeObject();
  for (const JsonMember& member : state.as_object()) {
    if (member.first == "stats" || member.first == "frame") continue;
    if (member.first == "models") {
      JsonValue models = JsonValue::MakeArray();
      for (const JsonValue& model : member.second.as_array()) {
        JsonValue copy = JsonValue::MakeObject();
        for (const JsonMember& field : model.as_object()) {
          if (field.first != "shared_bytes") copy.Set(field.first, field.second);
        }
        models.Append(std::move(copy));
      }
      out.Set("models", std::move(models));
      continue;
    }
    out.Set(member.first, member.second);
  }
  return out;
}

struct Hub {
  Hub() : host(MD5STAGE_SOURCE_DIR), hub(&device, &host) {}
  // Opens a demo in the stage (as the page does) and returns the opening's result.
  JsonValue Open(int stage, const std::string& demo) {
    hub.Find(stage)->SetViewport(640, 360, 1.0f);
    EXPECT_TRUE(Ok(Call(hub, stage, "\"cmd\":\"openDemo\",\"name\":\"" + demo + "\"")));
    host.Pump(&hub);
    return host.LastOpened(stage);
  }
  NullRenderBackend device;
  FolderHost host;
  StageHub hub;
};

TEST(StageHub, EightStagesShowTheirOwnScenesOverOneParseAndOneUpload) {
  Hub h;
  std::vector<int> ids = {StageHub::kMainStage};
  for (int i = 1; i < 8; ++i) ids.push_back(h.hub.CreateStage());
  ASSERT_EQ(h.hub.StageIds().size(), 8u);
  int model_users = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    const JsonValue opened = h.Open(ids[i], kDemos[i]);
    ASSERT_TRUE(Ok(opened)) << kDemos[i] << ": " << WriteJson(opened);
    model_users += static_cast<int>(h.hub.Find(ids[i])->models().size());
  }
  // Each stage has its own scene: the crowd's 50 walkers are only in its stage.
  std::vector<int> instances;
  for (int id : ids) instances.push_back(h.hub.Find(id)->character_count());
  EXPECT_EQ(instances, (std::vector<int>{1, 3, 3, 2, 50, 1, 1, 3}));
  // Two models in all (the walker everywhere, the lamp in "attach"): each parsed once, each mesh
  // uploaded once however many stages show it, and its textures too.
  EXPECT_EQ(h.hub.cache().model_count(), 2u);
  EXPECT_EQ(h.device.live_meshes(), 2);
  EXPECT_EQ(h.hub.gpu().mesh_count(), 2);
  EXPECT_EQ(h.hub.gpu().mesh_references(), model_users);
  EXPECT_EQ(model_users, 9);
  // walker.png, walker_local.png (a normal map), walker_s.png (its material's) and lamp.png.
  EXPECT_EQ(h.device.live_textures(), 4);
  EXPECT_EQ(h.hub.gpu().texture_count(), 4);
  EXPECT_GT(h.hub.gpu().shared_hits(), 0);
  // The walker's files (mesh, 4 anims) and the lamp's mesh: parsed once each, for 8 stages.
  EXPECT_EQ(h.hub.cache().parses(), 6);
  const JsonValue stages = h.hub.Call(Command(R"({"cmd":"stages"})"));
  EXPECT_EQ(WriteJson(*stages.Find("meshes")), "2");
  EXPECT_EQ(WriteJson(*stages.Find("models_parsed")), "2");
  EXPECT_EQ(h.device.bad_destroys(), 0);
}

TEST(StageHub, ClosingAStageReleasesOnlyWhatNoOtherStageUses) {
  Hub h;
  const int with_lamp = h.hub.CreateStage();
  const int walker_only = h.hub.CreateStage();
  ASSERT_TRUE(Ok(h.Open(with_lamp, "attach")));
  ASSERT_TRUE(Ok(h.Open(walker_only, "default")));
  ASSERT_EQ(h.device.live_meshes(), 2);
  ASSERT_EQ(h.device.live_textures(), 4);
  EXPECT_TRUE(h.hub.CloseStage(with_lamp));
  // The lamp goes with the only stage that showed it; the walker stays for the other.
  EXPECT_EQ(h.device.live_meshes(), 1);
  EXPECT_EQ(h.device.live_textures(), 3);
  EXPECT_EQ(h.hub.cache().model_count(), 1u);
  EXPECT_EQ(h.hub.Find(walker_only)->character_count(), 1);
  EXPECT_EQ(Call(h.hub, walker_only, R"("cmd":"state")").Find("instances")->as_array().size(), 1u);
  EXPECT_TRUE(h.hub.CloseStage(walker_only));
  EXPECT_EQ(h.device.live_meshes(), 0);
  EXPECT_EQ(h.device.live_textures(), 0);
  EXPECT_EQ(h.device.bad_destroys(), 0);
  // The main stage stays; unknown and closed stages are refused.
  EXPECT_FALSE(h.hub.CloseStage(StageHub::kMainStage));
  EXPECT_FALSE(h.hub.CloseStage(walker_only));
  EXPECT_EQ(h.hub.StageIds(), std::vector<int>{StageHub::kMainStage});
}

// A skin chosen in one stage is that stage's: the other stage of the same model draws the model's
// own maps, while the mesh stays one upload shared by both (issue 43).
TEST(StageHub, ASkinInOneStageLeavesTheOtherStagesLookAndSharesTheMesh) {
  Hub h;
  const int plain = h.hub.CreateStage();
  const int skinned = h.hub.CreateStage();
  ASSERT_TRUE(Ok(h.Open(plain, "default")));
  ASSERT_TRUE(Ok(h.Open(skinned, "default")));
  // The skinned stage gets a red material and a skin mapping the walker's shader to it.
  Stage& stage = *h.hub.Find(skinned);
  for (const auto& [name, bytes] :
       {std::pair<std::string, std::string>{
            "red.mtr", "models/walker/red { diffusemap models/walker/red.tga }"},
        {"red.tga", md5stage::testing::WriteTga(2, 2, std::vector<uint8_t>(16, 200))},
        {"red.skin", "skin skins/walker/red { models/walker/walker models/walker/red }"}}) {
    InputFile file;
    file.name = name;
    file.bytes = bytes;
    file.source = "local";
    stage.QueueFile(std::move(file));
  }
  ASSERT_TRUE(Ok(stage.LoadQueuedFiles()));
  const JsonValue skin =
      Call(h.hub, skinned, R"("cmd":"setSkin","model":"walker","skin":"skins/walker/red")");
  ASSERT_TRUE(Ok(skin)) << WriteJson(skin);
  DrawList plain_list, skinned_list;
  h.hub.Find(plain)->BuildDrawList(&plain_list);
  stage.BuildDrawList(&skinned_list);
  ASSERT_EQ(plain_list.instances.size(), 1u);
  ASSERT_EQ(skinned_list.instances.size(), 1u);
  const DrawList::Instance& a = plain_list.instances[0];
  const DrawList::Instance& b = skinned_list.instances[0];
  // One mesh, uploaded once; two looks.
  EXPECT_EQ(a.mesh, b.mesh);
  EXPECT_EQ(h.hub.gpu().mesh_count(), 1);
  EXPECT_EQ(h.device.live_meshes(), 1);
  ASSERT_NE(a.textures, nullptr);
  ASSERT_NE(b.textures, nullptr);
  EXPECT_TRUE(a.textures[0].diffuse.valid());
  EXPECT_TRUE(b.textures[0].diffuse.valid());
  EXPECT_NE(a.textures[0].diffuse, b.textures[0].diffuse);
  EXPECT_TRUE(a.textures[0].normal.valid()) << "the walker's own material keeps its normal map";
  EXPECT_FALSE(b.textures[0].normal.valid()) << "the red material has none";
  // The plain stage's model still reports its own material.
  const JsonValue models = Call(h.hub, plain, R"("cmd":"state")");
  EXPECT_EQ(WriteJson(*models.Find("models")->as_array()[0].Find("materials")),
            R"(["models/walker/walker"])");
  EXPECT_EQ(h.device.bad_destroys(), 0);
}

TEST(StageHub, CommandsNameTheirStage) {
  Hub h;
  const JsonValue created = h.hub.Call(Command(R"({"cmd":"createStage"})"));
  ASSERT_TRUE(Ok(created));
  const int id = static_cast<int>(created.Find("stage")->as_number());
  EXPECT_EQ(id, 1);
  ASSERT_TRUE(Ok(h.Open(id, "turns")));
  EXPECT_EQ(h.hub.Find(id)->character_count(), 3);
  EXPECT_EQ(h.hub.main().character_count(), 0);
  // Without "stage", commands go to the main stage, as every page and script before stages.
  EXPECT_TRUE(Ok(h.hub.Call(Command(R"({"cmd":"setSceneTime","time":4})"))));
  EXPECT_EQ(WriteJson(*h.hub.main().State().Find("scene_time")), "4");
  EXPECT_NE(WriteJson(*h.hub.Find(id)->State().Find("scene_time")), "4");
  struct Case {
    std::string command;
    std::string error;
  };
  const Case cases[] = {
      {R"({"cmd":"state","stage":7})",
       "command.stage: expected the id of an open stage (0, 1), found 7"},
      {R"({"cmd":"state","stage":"1"})",
       "command.stage: expected the id of an open stage (0, 1), found \"1\""},
      {R"({"cmd":"state","stage":1.5})",
       "command.stage: expected the id of an open stage (0, 1), found 1.5"},
      {R"({"cmd":"closeStage","id":0})",
       "closeStage.id: expected the id of an open stage other than 0, found 0"},
      {R"({"cmd":"closeStage"})",
       "closeStage.id: expected the id of an open stage other than 0, found nothing (the field "
       "is missing)"},
  };
  for (const Case& c : cases) {
    const JsonValue reply = h.hub.Call(Command(c.command));
    EXPECT_FALSE(Ok(reply)) << c.command;
    EXPECT_EQ(reply.Find("error") ? reply.Find("error")->as_string() : "", c.error) << c.command;
  }
  EXPECT_TRUE(Ok(h.hub.Call(Command(R"({"cmd":"closeStage","id":1})"))));
  EXPECT_EQ(h.hub.Find(id), nullptr);
}

// One random action on a stage: a command (as JSON) or a frame of `dt`.
struct Action {
  std::string command;  // empty: a frame
  double dt = 0.0;
};

void Apply(StageHub& hub, int stage, const Action& action) {
  if (action.command.empty()) {
    hub.Find(stage)->Update(action.dt);
  } else {
    hub.Call(Command("{\"stage\":" + std::to_string(stage) + "," + action.command + "}"));
  }
}

Action RandomAction(std::mt19937& random) {
  std::uniform_int_distribution<int> kind(0, 11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto number = [&](double lo, double hi) {
    return std::to_string(lo + (hi - lo) * unit(random));
  };
  switch (kind(random)) {
    case 0:
      return {R"("cmd":"play","instance":0)"};
    case 1:
      return {R"("cmd":"pause","instance":0)"};
    case 2:
      return {"\"cmd\":\"setTime\",\"instance\":0,\"time\":" + number(0, 3)};
    case 3:
      return {"\"cmd\":\"setRate\",\"instance\":0,\"rate\":" + number(-2, 2)};
    case 4:
      return {"\"cmd\":\"setSceneTime\",\"time\":" + number(0, 20)};
    case 5:
      return {unit(random) < 0.5 ? R"("cmd":"playScene")" : R"("cmd":"pauseScene")"};
    case 6:
      return {"\"cmd\":\"camera\",\"yaw\":" + number(-180, 180) +
              ",\"distance\":" + number(100, 800)};
    case 7:
      return {std::string("\"cmd\":\"display\",\"skeleton\":") +
              (unit(random) < 0.5 ? "true" : "false")};
    case 8:
      // Far from where characters are sent: go-to plans no detour, so the planner's wall-clock
      // limit (reachable on a slow, sanitized build) cannot make the two runs differ.
      return {"\"cmd\":\"addObstacle\",\"obstacle\":{\"circle\":{\"centre\":[" +
              number(2000, 3000) + "," + number(-300, 300) + "],\"radius\":" + number(5, 30) +
              "}}"};
    case 9:
      return {R"("cmd":"removeObstacle","index":0)"};
    case 10:
      return {"\"cmd\":\"goTo\",\"instance\":0,\"x\":" + number(-300, 300) +
              ",\"y\":" + number(-300, 300)};
    default:
      return {"", 1.0 / 30.0 + unit(random) * 0.1};
  }
}

TEST(StageHub, InterleavedActionsAcrossStagesEqualEachStageAlone) {
  constexpr int kStages = 8;
  const char* const demos[kStages] = {"default", "turns", "maze",    "attach",
                                      "default", "turns", "default", "camera"};
  Hub together;
  std::vector<int> ids = {StageHub::kMainStage};
  for (int i = 1; i < kStages; ++i) ids.push_back(together.hub.CreateStage());
  for (int i = 0; i < kStages; ++i) ASSERT_TRUE(Ok(together.Open(ids[i], demos[i])));
  std::mt19937 random(20261202);
  std::vector<std::vector<Action>> per_stage(kStages);
  std::uniform_int_distribution<int> which(0, kStages - 1);
  for (int step = 0; step < 1000; ++step) {
    const int s = which(random);
    per_stage[static_cast<size_t>(s)].push_back(RandomAction(random));
    Apply(together.hub, ids[static_cast<size_t>(s)], per_stage[static_cast<size_t>(s)].back());
  }
  for (int i = 0; i < kStages; ++i) {
    Hub alone;
    ASSERT_TRUE(Ok(alone.Open(StageHub::kMainStage, demos[i])));
    for (const Action& action : per_stage[static_cast<size_t>(i)])
      Apply(alone.hub, StageHub::kMainStage, action);
    EXPECT_EQ(WriteJson(Comparable(together.hub.Find(ids[static_cast<size_t>(i)])->State())),
              WriteJson(Comparable(alone.hub.main().State())))
        << "stage " << i << " (" << demos[i] << ", " << per_stage[static_cast<size_t>(i)].size()
        << " actions)";
  }
}

// ---- the opening protocol -----------------------------------------------------------------------

TEST(StageOpening, AModelOpensWithItsMaterialsBesideIt) {
  Hub h;
  h.hub.main().SetViewport(640, 360, 1.0f);
  ASSERT_TRUE(Ok(
      Call(h.hub, StageHub::kMainStage,
           R"("cmd":"openModel","mesh":"models/walker/walker.md5mesh",)"
           R"("anims":["walk.md5anim","models/walker/idle.md5anim"],"materials":["walker.mtr"])")));
  h.host.Pump(&h.hub);
  const JsonValue opened = h.host.LastOpened(StageHub::kMainStage);
  ASSERT_TRUE(Ok(opened)) << WriteJson(opened);
  const Scene scene = h.hub.main().CurrentScene();
  ASSERT_EQ(scene.models.size(), 1u);
  EXPECT_EQ(scene.models[0].materials, std::vector<std::string>{"models/walker/walker.mtr"});
  // A bare name lies beside the mesh; a path is taken as it is.
  EXPECT_EQ(scene.models[0].anims,
            (std::vector<std::string>{"models/walker/walk.md5anim", "models/walker/idle.md5anim"}));
  // A bad list is refused with its field's name, before anything is fetched.
  const JsonValue refused =
      Call(h.hub, StageHub::kMainStage,
           R"("cmd":"openModel","mesh":"x.md5mesh","materials":"walker.mtr")");
  EXPECT_FALSE(Ok(refused));
  EXPECT_NE(refused.Find("error")->as_string().find("openModel.materials"), std::string::npos)
      << WriteJson(refused);
}

TEST(StageOpening, AnImageThatCannotBeFetchedIsAWarningAndTheSceneOpens) {
  Hub h;
  h.host.Refuse("assets/models/walker/walker.png");
  const JsonValue opened = h.Open(StageHub::kMainStage, "default");
  ASSERT_TRUE(Ok(opened)) << WriteJson(opened);
  const std::vector<std::string> warnings = test::Strings(opened, "warnings");
  ASSERT_EQ(warnings.size(), 1u) << WriteJson(opened);
  EXPECT_EQ(warnings[0],
            "models/walker/walker.png: warning: image could not be fetched (HTTP 404 Not Found; "
            "tried models/walker/walker.png); the part draws without it");
  EXPECT_EQ(h.hub.main().character_count(), 1);
}

TEST(StageOpening, AFileThatCannotBeFetchedCancelsAndKeepsTheOpenScene) {
  Hub h;
  ASSERT_TRUE(Ok(h.Open(StageHub::kMainStage, "turns")));
  const std::string before = WriteJson(Comparable(h.hub.main().State()));
  h.host.Refuse("assets/models/lamp/lamp.md5mesh");
  const JsonValue opened = h.Open(StageHub::kMainStage, "attach");
  EXPECT_FALSE(Ok(opened));
  EXPECT_EQ(opened.Find("error")->as_string(),
            "models/lamp/lamp.md5mesh: error: could not be fetched: HTTP 404 Not Found");
  EXPECT_EQ(WriteJson(Comparable(h.hub.main().State())), before);
  EXPECT_EQ(h.device.live_meshes(), 1);  // nothing of the cancelled scene stays
}

TEST(StageOpening, LocationsOpenWhatTheyNameAndFallBackToTheDefaultDemo) {
  struct Case {
    std::string query, fragment;
    bool ok;
    std::string error;    // the opening's, when it fails
    int characters;       // what runs afterwards
    std::string fetched;  // the first URL asked for
  };
  const Case cases[] = {
      {"", "", true, "", 1, "assets/scenes/default.json"},
      {"", "#demo=maze", true, "", 3, "assets/scenes/maze.json"},
      {"?scene=none", "", true, "", 0, ""},
      {"", "#demo=nosuchdemo", false,
       "demo 'nosuchdemo': error: could not be fetched: HTTP 404 Not Found", 1,
       "assets/scenes/nosuchdemo.json"},
      {"", "#demo=..%2Fx", false,
       "demo: error: '../x' is not a demo name (letters, digits, - and _)", 1,
       "assets/scenes/default.json"},
      {"", "#model=models%2Fwalker%2Fwalker.md5mesh&anim=walk.md5anim", true, "", 1,
       "assets/models/walker/walker.md5mesh"},
      {"", "#model=javascript%3Aalert(1)", false, "", 1, "assets/scenes/default.json"},
      {"", "#scene=AAAA", false, "", 1, "assets/scenes/default.json"},
  };
  for (const Case& c : cases) {
    Hub h;
    h.hub.main().OpenLocation(c.query, c.fragment);
    h.host.Pump(&h.hub);
    const JsonValue opened = h.host.LastOpened(StageHub::kMainStage);
    ASSERT_TRUE(opened.is_object()) << c.fragment;
    EXPECT_EQ(Ok(opened), c.ok) << c.fragment << ": " << WriteJson(opened);
    if (!c.error.empty()) {
      EXPECT_EQ(opened.Find("error")->as_string(), c.error) << c.fragment;
    }
    if (c.fragment.rfind("#model=javascript", 0) == 0) {
      EXPECT_EQ(opened.Find("error")->as_string().rfind("#model: error: models[0].mesh", 0), 0u)
          << WriteJson(opened);
    }
    EXPECT_EQ(h.hub.main().character_count(), c.characters) << c.fragment;
    EXPECT_EQ(h.host.fetched.empty() ? "" : h.host.fetched.front(), c.fetched) << c.fragment;
  }
}

TEST(StageOpening, AModelLinkErrorLosesOnlyTheMadeUpScenesPosition) {
  struct Case {
    std::string message;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"scene:1:12: error: models[0].mesh", "#model: error: models[0].mesh"},
      {"scene: error: x", "#model: error: x"},
      {"scene:345:6789: x", "#model: x"},
      // Not the position: kept whole.
      {"scene:1: error", "#model: scene:1: error"},
      {"scene:1:2:x", "#model: scene:1:2:x"},
      {"scene::2: x", "#model: scene::2: x"},
      {"scene:1:: x", "#model: scene:1:: x"},
      {"scene:a:2: x", "#model: scene:a:2: x"},
      {"scenes: x", "#model: scenes: x"},
      {"Scene: x", "#model: Scene: x"},
      {" scene: x", "#model:  scene: x"},
      {"https://a.test/w.md5mesh: error: HTTP 404",
       "#model: https://a.test/w.md5mesh: error: HTTP 404"},
      // Ends early: nothing to strip, nothing read past the end.
      {"", "#model: "},
      {"scene", "#model: scene"},
      {"scene:", "#model: scene:"},
      {"scene:1", "#model: scene:1"},
      {"scene:1:2", "#model: scene:1:2"},
      {"scene:1:2:", "#model: scene:1:2:"},
      {"scene: ", "#model: "},
      {"scene:1:2: ", "#model: "},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ModelLinkMessage(c.message), c.expected) << c.message;
  }
}

TEST(StageOpening, OpeningsRunInOrderAndAHostThatCannotFetchFailsThem) {
  Hub h;
  h.hub.main().SetViewport(640, 360, 1.0f);
  h.hub.main().OpenDemo("turns");
  h.hub.main().OpenDemo("maze");
  EXPECT_TRUE(h.hub.main().opening());
  h.host.Pump(&h.hub);
  EXPECT_FALSE(h.hub.main().opening());
  int ended = 0;
  for (const auto& event : h.host.events) ended += event.name == "sceneOpened";
  EXPECT_EQ(ended, 2);
  EXPECT_EQ(h.hub.main().character_count(), 3);
  EXPECT_EQ(h.hub.main().State().Find("routes")->as_array().size(), 0u);  // the maze's
  // Alone, with no host: nothing can be fetched, and nothing changes.
  NullRenderBackend device;
  Stage stage(&device, nullptr);
  stage.OpenDemo("turns");
  EXPECT_FALSE(stage.opening());
  EXPECT_EQ(stage.character_count(), 0);
}

}  // namespace
}  // namespace md5stage::viewer
