// The scene-opening feature alone (viewer/scene_opener.h): the protocol from a scene, demo, link,
// #model= link or page location through the host's fetches to an applied or cancelled scene and
// its "sceneOpened" event, driven with a fake stage and a host that answers from a table.
#include "viewer/scene_opener.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "viewer/json_util.h"

namespace md5stage::viewer {
namespace {

// A stage that records what the opening asks of it. A scene names its files in "files" (a #model=
// scene: its model's mesh and anims); a scene with "bad" fails to prepare; a file whose bytes are
// "broken" fails to load; loaded files lack the images `texture_requests` lists.
class FakeTarget : public OpeningTarget {
 public:
  JsonValue PrepareScene(const JsonValue& scene) override {
    ++prepared;
    if (scene.Find("bad")) return Failure("scene: error: bad scene");
    JsonArray files;
    auto add = [&](const std::string& source) {
      JsonValue file = JsonValue::MakeObject();
      file.Set("source", source);
      file.Set("url", "assets/" + source);
      files.push_back(std::move(file));
    };
    if (const JsonValue* listed = scene.Find("files")) {
      for (const JsonValue& f : listed->as_array()) add(f.as_string());
    } else if (const JsonValue* models = scene.Find("models")) {
      const JsonValue& model = models->as_array()[0];
      add(model.Find("mesh")->as_string());
      for (const JsonValue& a : model.Find("anims")->as_array()) add(a.as_string());
    }
    JsonValue reply = Reply(true);
    reply.Set("files", JsonValue(std::move(files)));
    return reply;
  }
  JsonValue LoadFetchedFiles(std::vector<InputFile> files) override {
    JsonArray errors;
    for (const InputFile& file : files) {
      loaded.push_back(file.name);
      if (file.bytes == "broken") errors.emplace_back(file.name + ": error: broken");
    }
    JsonValue reply = Reply(errors.empty());
    reply.Set("errors", JsonValue(std::move(errors)));
    JsonArray requests;
    for (const std::vector<std::string>& candidates : texture_requests) {
      JsonArray list;
      for (const std::string& c : candidates) list.emplace_back(c);
      requests.emplace_back(std::move(list));
    }
    reply.Set("texture_requests", JsonValue(std::move(requests)));
    return reply;
  }
  void LoadFetchedImages(std::vector<InputFile> images) override {
    for (const InputFile& image : images) this->images.push_back(image.source);
  }
  JsonValue ApplyPendingScene() override {
    ++applied;
    return Reply(true);
  }
  void CancelPendingScene() override { ++cancelled; }
  void PresentModelLink() override { ++presented; }
  void AddOpeningWarnings(const std::vector<std::string>& w) override {
    warnings.insert(warnings.end(), w.begin(), w.end());
  }

  std::vector<std::vector<std::string>> texture_requests;
  int prepared = 0, applied = 0, cancelled = 0, presented = 0;
  std::vector<std::string> loaded, images, warnings;
};

// A host that keeps each fetch until the test answers it, and records the events.
class FakeHost : public StageHost {
 public:
  bool Fetch(const FetchRequest& request) override {
    if (!can_fetch) return false;
    pending.push_back(request);
    return true;
  }
  void Event(const std::string& name, const JsonValue& detail) override {
    events.emplace_back(name, detail);
  }
  bool can_fetch = true;
  std::deque<FetchRequest> pending;
  std::vector<std::pair<std::string, JsonValue>> events;
};

// Answers every fetch from `site` (url -> bytes; absent: 404) until none is waited for; the URLs
// asked, in order.
std::vector<std::string> AnswerAll(SceneOpener& opener, FakeHost& host,
                                   const std::map<std::string, std::string>& site) {
  std::vector<std::string> asked;
  while (!host.pending.empty()) {
    const FetchRequest request = host.pending.front();
    host.pending.pop_front();
    asked.push_back(request.url);
    const auto found = site.find(request.url);
    if (found == site.end()) {
      opener.OnFetched(request.request, false, "", "HTTP 404 Not Found");
    } else {
      opener.OnFetched(request.request, true, found->second, "");
    }
  }
  return asked;
}

JsonValue SceneOf(std::vector<std::string> files) {
  JsonArray list;
  for (const std::string& f : files) list.emplace_back(f);
  JsonValue scene = JsonValue::MakeObject();
  scene.Set("files", JsonValue(std::move(list)));
  return scene;
}

TEST(SceneOpenerTest, OpensThroughTheHostOrCancels) {
  const std::string kTwoFiles = R"({"files": ["a.md5mesh", "b.md5anim"]})";
  const struct {
    const char* name;
    std::function<int(SceneOpener&)> open;
    std::map<std::string, std::string> site;
    std::vector<std::vector<std::string>> texture_requests;
    std::vector<std::string> asked;
    bool ok;
    const char* error_part;
    int applied, cancelled, presented;
    size_t warnings;
  } rows[] = {
      {"a scene and its two files",
       [](SceneOpener& o) {
         return o.OpenScene(SceneOf({"a.md5mesh", "b.md5anim"}));
       },
       {{"assets/a.md5mesh", "mesh"}, {"assets/b.md5anim", "anim"}},
       {},
       {"assets/a.md5mesh", "assets/b.md5anim"},
       true,
       "",
       1,
       0,
       0,
       0},
      {"a file that cannot be fetched cancels",
       [](SceneOpener& o) {
         return o.OpenScene(SceneOf({"a.md5mesh", "b.md5anim"}));
       },
       {{"assets/b.md5anim", "anim"}},
       {},
       {"assets/a.md5mesh"},
       false,
       "a.md5mesh: error: could not be fetched: HTTP 404",
       0,
       1,
       0,
       0},
      {"a file that does not load cancels",
       [](SceneOpener& o) { return o.OpenScene(SceneOf({"a.md5mesh"})); },
       {{"assets/a.md5mesh", "broken"}},
       {},
       {"assets/a.md5mesh"},
       false,
       "a.md5mesh: error: broken",
       0,
       1,
       0,
       0},
      {"a scene that does not prepare fetches nothing",
       [](SceneOpener& o) {
         JsonValue bad = JsonValue::MakeObject();
         bad.Set("bad", true);
         return o.OpenScene(bad);
       },
       {},
       {},
       {},
       false,
       "bad scene",
       0,
       0,
       0,
       0},
      {"a demo: its scene, then its files",
       [](SceneOpener& o) { return o.OpenDemo("maze"); },
       {{"assets/scenes/maze.json", kTwoFiles},
        {"assets/a.md5mesh", "mesh"},
        {"assets/b.md5anim", "anim"}},
       {},
       {"assets/scenes/maze.json", "assets/a.md5mesh", "assets/b.md5anim"},
       true,
       "",
       1,
       0,
       0,
       0},
      {"a demo that is not a name",
       [](SceneOpener& o) { return o.OpenDemo("../secret"); },
       {},
       {},
       {},
       false,
       "'../secret' is not a demo name",
       0,
       0,
       0,
       0},
      {"a demo whose scene is not JSON",
       [](SceneOpener& o) { return o.OpenDemo("maze"); },
       {{"assets/scenes/maze.json", "{"}},
       {},
       {"assets/scenes/maze.json"},
       false,
       "scene:",
       0,
       0,
       0,
       0},
      {"a missing image: its second candidate is used",
       [](SceneOpener& o) { return o.OpenScene(SceneOf({"a.md5mesh"})); },
       {{"assets/a.md5mesh", "mesh"}, {"assets/tex/b.png", "png"}},
       {{"tex/a.tga", "tex/b.png"}},
       {"assets/a.md5mesh", "assets/tex/a.tga", "assets/tex/b.png"},
       true,
       "",
       1,
       0,
       0,
       0},
      {"a missing image no candidate has is a warning, not an error",
       [](SceneOpener& o) { return o.OpenScene(SceneOf({"a.md5mesh"})); },
       {{"assets/a.md5mesh", "mesh"}},
       {{"tex/a.tga", "tex/a.png"}},
       {"assets/a.md5mesh", "assets/tex/a.tga", "assets/tex/a.png"},
       true,
       "",
       1,
       0,
       0,
       1},
      {"a #model= link is presented",
       [](SceneOpener& o) { return o.OpenModel("m/w.md5mesh", {"idle.md5anim"}, {}); },
       {{"assets/m/w.md5mesh", "mesh"}, {"assets/m/idle.md5anim", "anim"}},
       {},
       {"assets/m/w.md5mesh", "assets/m/idle.md5anim"},
       true,
       "",
       1,
       0,
       1,
       0},
      {"a failed #model= link says so without a scene position",
       [](SceneOpener& o) { return o.OpenModel("m/w.md5mesh", {}, {}); },
       {},
       {},
       {"assets/m/w.md5mesh"},
       false,
       "#model: m/w.md5mesh: error: could not be fetched",
       0,
       1,
       0,
       0},
      {"a location's demo that fails falls back to the default demo",
       [](SceneOpener& o) { return o.OpenLocation("", "#demo=gone"); },
       {{"assets/scenes/default.json", R"({"files": []})"}},
       {},
       {"assets/scenes/gone.json", "assets/scenes/default.json"},
       false,
       "demo 'gone': error: could not be fetched",
       1,
       0,
       0,
       0},
      {"a location asking for nothing opens nothing",
       [](SceneOpener& o) { return o.OpenLocation("?scene=none", ""); },
       {},
       {},
       {},
       true,
       "",
       0,
       0,
       0,
       0},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    FakeTarget target;
    target.texture_requests = row.texture_requests;
    FakeHost host;
    SceneOpener opener(&target, &host);
    const int id = row.open(opener);
    EXPECT_EQ(AnswerAll(opener, host, row.site), row.asked);
    EXPECT_FALSE(opener.opening());
    ASSERT_EQ(host.events.size(), 1u);
    EXPECT_EQ(host.events[0].first, "sceneOpened");
    const JsonValue& event = host.events[0].second;
    EXPECT_EQ(event.Find("id")->as_number(), id);
    EXPECT_EQ(event.Find("ok")->as_bool(), row.ok);
    if (*row.error_part) {
      ASSERT_NE(event.Find("error"), nullptr);
      EXPECT_NE(event.Find("error")->as_string().find(row.error_part), std::string::npos)
          << event.Find("error")->as_string();
    }
    EXPECT_EQ(target.applied, row.applied);
    EXPECT_EQ(target.cancelled, row.cancelled);
    EXPECT_EQ(target.presented, row.presented);
    EXPECT_EQ(target.warnings.size(), row.warnings);
    EXPECT_EQ(event.Find("warnings")->as_array().size(), row.warnings);
  }
}

TEST(SceneOpenerTest, OpeningsRunOneAtATimeInOrder) {
  FakeTarget target;
  FakeHost host;
  SceneOpener opener(&target, &host);
  const int first = opener.OpenScene(SceneOf({"a.md5mesh"}));
  const int second = opener.OpenDemo("maze");
  EXPECT_NE(first, second);
  // Only the first has asked for anything so far.
  ASSERT_EQ(host.pending.size(), 1u);
  EXPECT_EQ(host.pending.front().url, "assets/a.md5mesh");
  const std::vector<std::string> asked =
      AnswerAll(opener, host,
                {{"assets/a.md5mesh", "mesh"},
                 {"assets/scenes/maze.json", R"({"files": ["b.md5mesh"]})"},
                 {"assets/b.md5mesh", "mesh"}});
  EXPECT_EQ(asked, (std::vector<std::string>{"assets/a.md5mesh", "assets/scenes/maze.json",
                                             "assets/b.md5mesh"}));
  ASSERT_EQ(host.events.size(), 2u);
  EXPECT_EQ(host.events[0].second.Find("id")->as_number(), first);
  EXPECT_EQ(host.events[1].second.Find("id")->as_number(), second);
  EXPECT_EQ(target.applied, 2);
}

TEST(SceneOpenerTest, ALateOrUnknownAnswerChangesNothing) {
  FakeTarget target;
  FakeHost host;
  SceneOpener opener(&target, &host);
  opener.OpenScene(SceneOf({"a.md5mesh", "b.md5anim"}));
  ASSERT_EQ(host.pending.size(), 1u);
  const int waited = host.pending.front().request;
  // An answer to a request nobody waits for: nothing loads, the opening still waits.
  opener.OnFetched(waited + 100, true, "mesh", "");
  opener.OnFetched(0, false, "", "gone");
  EXPECT_TRUE(opener.opening());
  EXPECT_TRUE(target.loaded.empty());
  EXPECT_TRUE(host.events.empty());
  // The real answer moves it on; answering the same request again does nothing more.
  host.pending.pop_front();
  opener.OnFetched(waited, true, "mesh", "");
  opener.OnFetched(waited, true, "mesh", "");
  ASSERT_EQ(host.pending.size(), 1u);
  EXPECT_EQ(host.pending.front().url, "assets/b.md5anim");
  EXPECT_EQ(host.pending.front().index, 1);
  EXPECT_EQ(host.pending.front().count, 2);
}

TEST(SceneOpenerTest, AHostThatCannotFetchFailsTheOpeningAtOnce) {
  FakeTarget target;
  FakeHost host;
  host.can_fetch = false;
  SceneOpener opener(&target, &host);
  opener.OpenScene(SceneOf({"a.md5mesh"}));
  EXPECT_FALSE(opener.opening());
  ASSERT_EQ(host.events.size(), 1u);
  EXPECT_FALSE(host.events[0].second.Find("ok")->as_bool());
  EXPECT_NE(host.events[0].second.Find("error")->as_string().find("cannot fetch"),
            std::string::npos);
  EXPECT_EQ(target.cancelled, 1);
  // No host at all behaves the same.
  SceneOpener alone(&target, nullptr);
  alone.OpenScene(SceneOf({"a.md5mesh"}));
  EXPECT_FALSE(alone.opening());
}

}  // namespace
}  // namespace md5stage::viewer
