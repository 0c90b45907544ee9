// Opening scenes: one protocol from a scene, demo, share link, #model= link or page location to
// the applied scene (prepare -> fetch -> load -> fetch images -> apply, or cancel).
#include "viewer/stage_opening.h"

#include <regex>

#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"
#include "viewer/json_util.h"

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

// "#model: " before a message, without the made-up scene's position (it means nothing to the
// person who wrote the URL).
std::string ModelLinkMessage(const std::string& message) {
  static const std::regex position("^scene(:\\d+:\\d+)?: ");
  return "#model: " +
         std::regex_replace(message, position, "", std::regex_constants::format_first_only);
}

}  // namespace

int Stage::Enqueue(std::unique_ptr<Opening> opening) {
  const int id = openings_.next_id++;
  opening->id = id;
  if (openings_.current) {
    openings_.queued.push_back(std::move(opening));
  } else {
    openings_.current = std::move(opening);
    BeginOpening();
  }
  return id;
}

int Stage::OpenScene(const JsonValue& scene_json) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kScene;
  opening->scene = scene_json;
  return Enqueue(std::move(opening));
}

int Stage::OpenDemo(const std::string& name) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kDemo;
  opening->name = name;
  return Enqueue(std::move(opening));
}

int Stage::OpenLink(const std::string& payload) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kLink;
  opening->name = payload;
  return Enqueue(std::move(opening));
}

int Stage::OpenModel(const std::string& mesh, const std::vector<std::string>& anims,
                     const std::vector<std::string>& materials) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kModel;
  opening->name = mesh;
  opening->anims = anims;
  opening->materials = materials;
  return Enqueue(std::move(opening));
}

int Stage::OpenLocation(const std::string& query, const std::string& fragment) {
  auto opening = std::make_unique<Opening>();
  opening->kind = Opening::Kind::kLocation;
  opening->query = query;
  opening->fragment = fragment;
  return Enqueue(std::move(opening));
}

void Stage::BeginOpening() {
  Opening& o = *openings_.current;
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
      FinishOpening(Reply(true));
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
        FinishOpening(Failure("#scene: error: expected a link of at most " +
                              std::to_string(kMaxSceneLinkChars) + " characters, found " +
                              std::to_string(o.name.size())));
        return;
      }
      auto scene = DecodeSceneLink(o.name);
      if (!scene.ok()) {
        FinishOpening(Failure(scene.error().ToString()));
        return;
      }
      BeginScene(SceneToJson(scene.value()));
      return;
    }
    case Opening::Kind::kDemo:
      if (!IsDemoName(o.name)) {
        FinishOpening(Failure("demo: error: '" + o.name.substr(0, 64) +
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

void Stage::BeginScene(const JsonValue& scene_json) {
  Opening& o = *openings_.current;
  const JsonValue prepared = PrepareScene(scene_json);
  if (!prepared.Find("ok")->as_bool()) {
    FinishOpening(prepared);
    return;
  }
  for (const JsonValue& file : prepared.Find("files")->as_array())
    o.files.push_back({file.Find("source")->as_string(), file.Find("url")->as_string()});
  o.phase = Opening::Phase::kFiles;
  FetchNext();
}

// Asks the host for the next file of the current phase, or moves on when the phase is done.
void Stage::FetchNext() {
  Opening& o = *openings_.current;
  FetchRequest request;
  if (o.phase == Opening::Phase::kDemo) {
    request.url = "assets/scenes/" + o.name + ".json";
    request.label = "demo '" + o.name + "'";
  } else if (o.phase == Opening::Phase::kFiles) {
    if (o.next_file == o.files.size()) {
      LoadFetchedFiles();
      return;
    }
    request.url = o.files[o.next_file].url;
    request.label = BaseName(o.files[o.next_file].source);
    request.index = static_cast<int>(o.next_file);
    request.count = static_cast<int>(o.files.size());
  } else {
    if (o.next_texture == o.textures.size()) {
      if (!o.images.empty()) {
        for (InputFile& image : o.images) QueueFile(std::move(image));
        o.images.clear();
        LoadQueuedFiles();  // a bad image is reported by the library and changes nothing
      }
      JsonValue applied = ApplyPendingScene();
      if (applied.Find("ok")->as_bool() && o.is_model_link && !characters_.empty()) {
        selection_.character = CharacterAt(0);
        selection_.joint = -1;
        FrameSelection();
      }
      FinishOpening(std::move(applied));
      return;
    }
    const std::string& source = o.textures[o.next_texture][o.next_candidate];
    request.url = UrlOf(source);
    request.label = BaseName(source);
  }
  request.request = openings_.next_request++;
  o.request = request.request;
  if (host_ == nullptr || !host_->Fetch(request)) {
    // Answered here, as a host that cannot reach anything would.
    OnFetched(request.request, false, "", "this page cannot fetch files");
  }
}

void Stage::OnFetched(int request, bool ok, std::string bytes, const std::string& error) {
  if (!openings_.current || request != openings_.current->request)
    return;  // a late answer to an ended opening
  Opening& o = *openings_.current;
  o.request = 0;
  switch (o.phase) {
    case Opening::Phase::kDemo: {
      if (!ok) {
        FinishOpening(Failure("demo '" + o.name + "': error: could not be fetched: " + error));
        return;
      }
      auto scene = ParseJson("scene", bytes);
      if (!scene.ok()) {
        FinishOpening(Failure(scene.error().ToString()));
        return;
      }
      BeginScene(scene.value());
      return;
    }
    case Opening::Phase::kFiles: {
      const Opening::File& file = o.files[o.next_file];
      if (!ok) {
        CancelPendingScene();
        FinishOpening(Failure(file.source + ": error: could not be fetched: " + error));
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

void Stage::LoadFetchedFiles() {
  Opening& o = *openings_.current;
  if (o.fetched.empty()) {
    o.phase = Opening::Phase::kTextures;
    FetchNext();
    return;
  }
  for (InputFile& file : o.fetched) QueueFile(std::move(file));
  o.fetched.clear();
  const JsonValue loaded = LoadQueuedFiles();
  if (!loaded.Find("ok")->as_bool()) {
    CancelPendingScene();  // models loaded for it so far are released
    std::string errors;
    for (const JsonValue& e : loaded.Find("errors")->as_array())
      errors += (errors.empty() ? "" : "\n") + e.as_string();
    FinishOpening(Failure(errors));
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

void Stage::FinishOpening(JsonValue result) {
  Opening& o = *openings_.current;
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
    openings_.current = std::move(fallback);
    BeginOpening();
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
  if (!o.warnings.empty())
    report_.warnings.insert(report_.warnings.end(), o.warnings.begin(), o.warnings.end());
  result.Set("warnings", JsonValue(std::move(warnings)));
  result.Set("id", o.id);
  std::unique_ptr<Opening> ended = std::move(openings_.current);
  if (host_) host_->Event("sceneOpened", result);
  if (!openings_.queued.empty()) {
    openings_.current = std::move(openings_.queued.front());
    openings_.queued.erase(openings_.queued.begin());
    BeginOpening();
  }
}

// The files fetched or dropped, loaded: models, animations, textures and cameras; the reply
// names the images still to fetch. Here with the openings, whose loads it does, and out of
// stage.cpp, whose per-frame code the figures module inlines.
JsonValue Stage::LoadQueuedFiles() {
  std::vector<InputFile> files = std::move(pending_files_);
  pending_files_.clear();
  std::vector<std::string> cameras_loaded, camera_errors;
  camera_.LoadFiles(&files, &cameras_loaded, &camera_errors);
  const int models_before = static_cast<int>(library_->models().size());
  LoadReport report = library_->LoadFiles(std::move(files));
  report.errors.insert(report.errors.end(), camera_errors.begin(), camera_errors.end());
  // New models appear beside what is already shown, and the camera turns to them. Files
  // fetched for a scene being opened get their characters when the scene is applied.
  if (openings_.pending_scene) report.new_models_to_show.clear();
  for (int index : report.new_models_to_show) AddInstance(index, std::nullopt, 0.0f);
  if (!report.new_models_to_show.empty()) FrameSelection();
  if (report.new_models.empty() && report.animations_bound > 0 && Selected() != nullptr) {
    Character& character = *Selected();
    const LoadedModel& model = ModelOf(character);
    anim::SwitchClip(character.playback, static_cast<int>(model.animations.size()) - 1);
  }
  report_.warnings = report.warnings;
  if (!report.errors.empty()) {
    std::string joined;
    for (const std::string& e : report.errors) joined += (joined.empty() ? "" : "\n") + e;
    SetError(joined);
  } else {
    report_.error.clear();
    report_.status =
        "Loaded " + std::to_string(static_cast<int>(library_->models().size()) - models_before) +
        " model(s), " + std::to_string(report.animations_bound) + " animation(s), " +
        std::to_string(report.textures_bound) + " texture(s)" +
        (cameras_loaded.empty() ? std::string()
                                : ", " + std::to_string(cameras_loaded.size()) + " camera(s)");
  }
  JsonValue reply = Reply(report.errors.empty());
  JsonArray errors, warnings, models;
  for (const std::string& e : report.errors) errors.emplace_back(e);
  for (const std::string& w : report.warnings) warnings.emplace_back(w);
  for (int index : report.new_models)
    models.emplace_back(library_->models()[static_cast<size_t>(index)].name);
  reply.Set("errors", JsonValue(std::move(errors)));
  reply.Set("warnings", JsonValue(std::move(warnings)));
  reply.Set("models", JsonValue(std::move(models)));
  JsonArray camera_names;
  for (const std::string& name : cameras_loaded) camera_names.emplace_back(name);
  reply.Set("cameras", JsonValue(std::move(camera_names)));
  // Textures of fetched models are fetched too: the page asks for each missing one next to the
  // mesh, named after the part's shader (bundled assets are PNG; remote models may be TGA/JPG).
  JsonArray texture_requests;
  for (int index : report.new_models) {
    const LoadedModel& model = library_->models()[static_cast<size_t>(index)];
    if (model.local) continue;
    const std::string& source = model.mesh_source;
    const std::string folder = source.substr(0, source.find_last_of('/') + 1);
    std::vector<std::string> seen;
    for (size_t part = 0; part < model.parts.size(); ++part) {
      const std::string stem = FileStem(model.model->gpu().submeshes[part].shader);
      if (model.part_textures[part].diffuse.valid() || stem.empty()) continue;
      if (std::find(seen.begin(), seen.end(), stem) != seen.end()) continue;
      seen.push_back(stem);
      JsonArray candidates;
      candidates.emplace_back(folder + stem + ".png");
      if (source.rfind("https://", 0) == 0) {
        candidates.emplace_back(folder + stem + ".tga");
        candidates.emplace_back(folder + stem + ".jpg");
      }
      texture_requests.emplace_back(JsonValue(std::move(candidates)));
    }
  }
  // Images a fetched model's materials name and no file gave: by base name next to the mesh.
  for (const LoadedModel& model : library_->models()) {
    if (model.local) continue;
    const std::string& source = model.mesh_source;
    const std::string folder = source.substr(0, source.find_last_of('/') + 1);
    for (const std::string& image : model.missing_images) {
      const std::string stem = FileStem(image);
      if (stem.empty()) continue;
      JsonArray candidates;
      for (const char* extension : {".png", ".tga", ".jpg"}) {
        if (extension[1] != 'p' && source.rfind("https://", 0) != 0) continue;
        candidates.emplace_back(folder + stem + extension);
      }
      texture_requests.emplace_back(JsonValue(std::move(candidates)));
    }
  }
  // A part without its image and a material naming that image ask for the same file: once.
  JsonArray unique_requests;
  for (JsonValue& request : texture_requests) {
    if (std::find(unique_requests.begin(), unique_requests.end(), request) == unique_requests.end())
      unique_requests.push_back(std::move(request));
  }
  reply.Set("texture_requests", JsonValue(std::move(unique_requests)));
  reply.Set("animations", report.animations_bound);
  reply.Set("textures", report.textures_bound);
  return reply;
}

}  // namespace md5stage::viewer
