#include "viewer/scene_opener.h"

#include <algorithm>

#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"
#include "viewer/json_util.h"
#include "viewer/page_location.h"

namespace md5stage::viewer {
namespace {

bool IsDemoName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string UrlOf(const std::string& source) {
  return source.rfind("https://", 0) == 0 ? source : "assets/" + source;
}

std::string BaseName(const std::string& source) {
  const std::string path = source.substr(0, source.find_first_of("?#"));
  return path.substr(path.find_last_of('/') + 1);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The digits at `at`, if any: where they end, else npos.
size_t SkipDigits(const std::string& text, size_t at) {
  size_t end = at;
  while (end < text.size() && IsDigit(text[end])) ++end;
  return end > at ? end : std::string::npos;
}

}  // namespace

// "scene: " or "scene:LINE:COL: " at the start: the made-up scene's position. Spelled out, not a
// std::regex: that one pattern linked libc++'s regex and locales into the figures module (~20 KB
// gzipped).
size_t ScenePositionLength(const std::string& message) {
  constexpr size_t kScene = 5;  // "scene"
  if (message.compare(0, kScene, "scene") != 0) return 0;
  size_t at = kScene;
  if (message.compare(at, 1, ":") == 0) {
    const size_t line_end = SkipDigits(message, at + 1);
    if (line_end != std::string::npos && message.compare(line_end, 1, ":") == 0) {
      const size_t column_end = SkipDigits(message, line_end + 1);
      if (column_end != std::string::npos) at = column_end;
    }
  }
  return message.compare(at, 2, ": ") == 0 ? at + 2 : 0;
}

// "#model: " before a message, without the made-up scene's position (it means nothing to the
// person who wrote the URL).
std::string ModelLinkMessage(const std::string& message) {
  return "#model: " + message.substr(ScenePositionLength(message));
}

// One opening: what it opens, which file it waits for, what has arrived.
struct SceneOpener::Opening {
  enum class Kind { kScene, kDemo, kLink, kModel, kLocation, kNothing };
  enum class Phase { kStart, kDemo, kFiles, kTextures };
  struct File {
    std::string source;
    std::string url;
  };

  int id = 0;
  Kind kind = Kind::kScene;
  JsonValue scene;                     // kScene
  std::string name;                    // kDemo: the demo; kLink: the payload; kModel: the mesh
  std::vector<std::string> anims;      // kModel
  std::vector<std::string> materials;  // kModel: .mtr/.shader/.skin
  std::string query, fragment;         // kLocation
  // A location that asked for something falls back to the default demo when that fails; the
  // asked one's error is kept for the result.
  bool fall_back = false;
  std::string asked_error;
  bool is_model_link = false;  // errors read "#model: ...", and the character is framed

  Phase phase = Phase::kStart;
  int request = 0;  // the fetch waited for; 0: none
  std::vector<File> files;
  size_t next_file = 0;
  std::vector<InputFile> fetched;
  // Per missing image, the candidate paths tried in turn (the first that arrives is used).
  std::vector<std::vector<std::string>> textures;
  size_t next_texture = 0;
  size_t next_candidate = 0;
  std::vector<InputFile> images;
  std::vector<std::string> warnings;
};

SceneOpener::SceneOpener(OpeningTarget* target, StageHost* host) : target_(target), host_(host) {}

SceneOpener::~SceneOpener() = default;

int SceneOpener::Enqueue(std::unique_ptr<Opening> opening) {
  const int id = next_id_++;
  opening->id = id;
  if (current_) {
    queued_.push_back(std::move(opening));
  } else {
    current_ = std::move(opening);
    Begin();
  }
  return id;
}

int SceneOpener::OpenScene(const JsonValue& scene_json) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kScene;
  opening->scene = scene_json;
  return Enqueue(std::move(opening));
}

int SceneOpener::OpenDemo(const std::string& name) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kDemo;
  opening->name = name;
  return Enqueue(std::move(opening));
}

int SceneOpener::OpenLink(const std::string& payload) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kLink;
  opening->name = payload;
  return Enqueue(std::move(opening));
}

int SceneOpener::OpenModel(const std::string& mesh, const std::vector<std::string>& anims,
                           const std::vector<std::string>& materials) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kModel;
  opening->name = mesh;
  opening->anims = anims;
  opening->materials = materials;
  return Enqueue(std::move(opening));
}

int SceneOpener::OpenLocation(const std::string& query, const std::string& fragment) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kLocation;
  opening->query = query;
  opening->fragment = fragment;
  return Enqueue(std::move(opening));
}

void SceneOpener::Begin() {
  Opening& o = *current_;
  if (o.kind == Opening::Kind::kLocation) {
    const PageLocation location = ParsePageLocation(o.query, o.fragment);
    o.fall_back = location.asked();
    switch (location.kind) {
      case PageLocation::Kind::kLink:
        o.kind = Opening::Kind::kLink;
        o.name = location.link;
        break;
      case PageLocation::Kind::kDemo:
        o.kind = Opening::Kind::kDemo;
        o.name = location.demo;
        break;
      case PageLocation::Kind::kModel:
        o.kind = Opening::Kind::kModel;
        o.name = location.mesh;
        o.anims = location.anims;
        break;
      case PageLocation::Kind::kNothing:
        o.kind = Opening::Kind::kNothing;
        break;
      case PageLocation::Kind::kDefaultDemo:
        o.kind = Opening::Kind::kDemo;
        o.name = "default";
        break;
    }
  }
  switch (o.kind) {
    case Opening::Kind::kNothing:
      Finish(Reply(true));
      return;
    case Opening::Kind::kScene:
      BeginScene(o.scene);
      return;
    case Opening::Kind::kModel:
      o.is_model_link = true;
      BeginScene(ModelLinkScene(o.name, o.anims, o.materials));
      return;
    case Opening::Kind::kLink: {
      if (o.name.size() > kMaxSceneLinkChars) {
        Finish(Failure("#scene: error: expected a link of at most " +
                       std::to_string(kMaxSceneLinkChars) + " characters, found " +
                       std::to_string(o.name.size())));
        return;
      }
      auto scene = DecodeSceneLink(o.name);
      if (!scene.ok()) {
        Finish(Failure(scene.error().ToString()));
        return;
      }
      BeginScene(SceneToJson(scene.value()));
      return;
    }
    case Opening::Kind::kDemo:
      if (!IsDemoName(o.name)) {
        Finish(Failure("demo: error: '" + o.name.substr(0, 64) +
                       "' is not a demo name (letters, digits, - and _)"));
        return;
      }
      o.phase = Opening::Phase::kDemo;
      FetchNext();
      return;
    case Opening::Kind::kLocation:
      break;  // resolved above
  }
}

void SceneOpener::BeginScene(const JsonValue& scene_json) {
  Opening& o = *current_;
  const JsonValue prepared = target_->PrepareScene(scene_json);
  if (!prepared.Find("ok")->as_bool()) {
    Finish(prepared);
    return;
  }
  for (const JsonValue& file : prepared.Find("files")->as_array())
    o.files.push_back({file.Find("source")->as_string(), file.Find("url")->as_string()});
  o.phase = Opening::Phase::kFiles;
  FetchNext();
}

void SceneOpener::FetchNext() {
  Opening& o = *current_;
  FetchRequest request;
  if (o.phase == Opening::Phase::kDemo) {
    request.url = "assets/scenes/" + o.name + ".json";
    request.label = "demo '" + o.name + "'";
  } else if (o.phase == Opening::Phase::kFiles) {
    if (o.next_file == o.files.size()) {
      LoadFiles();
      return;
    }
    request.url = o.files[o.next_file].url;
    request.label = BaseName(o.files[o.next_file].source);
    request.index = static_cast<int>(o.next_file);
    request.count = static_cast<int>(o.files.size());
  } else {
    if (o.next_texture == o.textures.size()) {
      if (!o.images.empty()) target_->LoadFetchedImages(std::move(o.images));
      o.images.clear();
      JsonValue applied = target_->ApplyPendingScene();
      if (applied.Find("ok")->as_bool() && o.is_model_link) target_->PresentModelLink();
      Finish(std::move(applied));
      return;
    }
    const std::string& source = o.textures[o.next_texture][o.next_candidate];
    request.url = UrlOf(source);
    request.label = BaseName(source);
  }
  request.request = next_request_++;
  o.request = request.request;
  if (host_ == nullptr || !host_->Fetch(request)) {
    // Answered here, as a host that cannot reach anything would.
    OnFetched(request.request, false, "", "this page cannot fetch files");
  }
}

void SceneOpener::OnFetched(int request, bool ok, std::string bytes, const std::string& error) {
  if (!current_ || request != current_->request) return;  // a late answer to an ended opening
  Opening& o = *current_;
  o.request = 0;
  switch (o.phase) {
    case Opening::Phase::kDemo: {
      if (!ok) {
        Finish(Failure("demo '" + o.name + "': error: could not be fetched: " + error));
        return;
      }
      auto scene = ParseJson("scene", bytes);
      if (!scene.ok()) {
        Finish(Failure(scene.error().ToString()));
        return;
      }
      BeginScene(scene.value());
      return;
    }
    case Opening::Phase::kFiles: {
      const Opening::File& file = o.files[o.next_file];
      if (!ok) {
        target_->CancelPendingScene();
        Finish(Failure(file.source + ": error: could not be fetched: " + error));
        return;
      }
      o.fetched.push_back({BaseName(file.source), std::move(bytes), file.source});
      ++o.next_file;
      FetchNext();
      return;
    }
    case Opening::Phase::kTextures: {
      const std::vector<std::string>& candidates = o.textures[o.next_texture];
      if (ok) {
        const std::string& source = candidates[o.next_candidate];
        o.images.push_back({BaseName(source), std::move(bytes), source});
      } else if (o.next_candidate + 1 < candidates.size()) {
        ++o.next_candidate;
        FetchNext();
        return;
      } else {
        // Not an error: the part draws with a plain material; said once per missing image.
        std::string tried;
        for (const std::string& c : candidates) tried += (tried.empty() ? "" : ", ") + c;
        o.warnings.push_back(candidates.front() + ": warning: image could not be fetched (" +
                             error + "; tried " + tried + "); the part draws without it");
      }
      ++o.next_texture;
      o.next_candidate = 0;
      FetchNext();
      return;
    }
    case Opening::Phase::kStart:
      return;
  }
}

void SceneOpener::LoadFiles() {
  Opening& o = *current_;
  if (o.fetched.empty()) {
    o.phase = Opening::Phase::kTextures;
    FetchNext();
    return;
  }
  const JsonValue loaded = target_->LoadFetchedFiles(std::move(o.fetched));
  o.fetched.clear();
  if (!loaded.Find("ok")->as_bool()) {
    target_->CancelPendingScene();  // models loaded for it so far are released
    std::string errors;
    for (const JsonValue& e : loaded.Find("errors")->as_array())
      errors += (errors.empty() ? "" : "\n") + e.as_string();
    Finish(Failure(errors));
    return;
  }
  for (const JsonValue& candidates : loaded.Find("texture_requests")->as_array()) {
    std::vector<std::string> list;
    for (const JsonValue& c : candidates.as_array()) list.push_back(c.as_string());
    if (!list.empty()) o.textures.push_back(std::move(list));
  }
  o.phase = Opening::Phase::kTextures;
  FetchNext();
}

void SceneOpener::Finish(JsonValue result) {
  Opening& o = *current_;
  const bool ok = result.Find("ok")->as_bool();
  if (!ok && o.is_model_link) {
    result.Set("error", ModelLinkMessage(result.Find("error")->as_string()));
  }
  if (!ok && o.fall_back) {
    // What the URL asked for failed: the default demo runs instead, and the result says why.
    auto fallback = std::make_unique<Opening>();
    fallback->id = o.id;
    fallback->kind = Opening::Kind::kDemo;
    fallback->name = "default";
    fallback->asked_error = result.Find("error")->as_string();
    current_ = std::move(fallback);
    Begin();
    return;
  }
  if (!o.asked_error.empty()) {
    result = Failure(ok ? o.asked_error : o.asked_error + "\n" + result.Find("error")->as_string());
  }
  JsonArray warnings;
  for (const std::string& w : o.warnings) warnings.emplace_back(w);
  if (const JsonValue* more = result.Find("warnings"); more && more->is_array()) {
    for (const JsonValue& w : more->as_array()) warnings.push_back(w);
  }
  if (!o.warnings.empty()) target_->AddOpeningWarnings(o.warnings);
  result.Set("warnings", JsonValue(std::move(warnings)));
  result.Set("id", o.id);
  std::unique_ptr<Opening> ended = std::move(current_);
  if (host_) host_->Event("sceneOpened", result);
  if (!queued_.empty()) {
    current_ = std::move(queued_.front());
    queued_.erase(queued_.begin());
    Begin();
  }
}

}  // namespace md5stage::viewer
