// Opening scenes, the stage's feature for it: a scene, a demo, a share link, a #model= link or the
// page's location becomes one protocol - validate, fetch the files it names through the host one
// after another, load them, fetch the images they lack (each candidate in turn), then apply, or
// cancel on a failure so the scene that was open stays - ending with the host's "sceneOpened"
// event. Openings run one at a time, in order. It reaches the stage through OpeningTarget, so the
// protocol is tested alone with a fake target and host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "viewer/model_library.h"
#include "viewer/stage_host.h"

namespace md5stage::viewer {

// A #model= link's error: "#model: " and the message without the made-up scene's position
// ("scene: " or "scene:LINE:COL: " at its start, ScenePositionLength bytes).
size_t ScenePositionLength(const std::string& message);
std::string ModelLinkMessage(const std::string& message);

// What an opening needs of the stage it opens a scene into.
class OpeningTarget {
 public:
  virtual ~OpeningTarget() = default;
  // Validates the scene and keeps it pending: {ok, error} and, when ok, "files" ({source, url}
  // each) to fetch.
  virtual JsonValue PrepareScene(const JsonValue& scene) = 0;
  // Loads fetched files: {ok, errors, texture_requests} (candidate paths per missing image).
  virtual JsonValue LoadFetchedFiles(std::vector<InputFile> files) = 0;
  // Loads fetched images; a bad one is reported by the library and changes nothing.
  virtual void LoadFetchedImages(std::vector<InputFile> images) = 0;
  virtual JsonValue ApplyPendingScene() = 0;
  virtual void CancelPendingScene() = 0;
  // A #model= link was applied: its character is selected and framed.
  virtual void PresentModelLink() = 0;
  // An opening's warnings (images that could not be fetched), kept for the status report.
  virtual void AddOpeningWarnings(const std::vector<std::string>& warnings) = 0;
};

class SceneOpener {
 public:
  // Neither pointer is owned; a null host cannot fetch (every fetch fails at once).
  SceneOpener(OpeningTarget* target, StageHost* host);
  SceneOpener(const SceneOpener&) = delete;
  SceneOpener& operator=(const SceneOpener&) = delete;
  ~SceneOpener();

  // Each returns the opening's id, which its "sceneOpened" event {id, ok, error, warnings} names.
  int OpenScene(const JsonValue& scene_json);
  int OpenDemo(const std::string& name);     // assets/scenes/NAME.json
  int OpenLink(const std::string& payload);  // a share link's #scene= payload
  // `materials`: .mtr / .shader / .skin URLs fetched with the model (each resolved as an anim).
  int OpenModel(const std::string& mesh, const std::vector<std::string>& anims,
                const std::vector<std::string>& materials);
  // What the page's URL asks for (page_location.h); a failed ask falls back to the default demo.
  int OpenLocation(const std::string& query, const std::string& fragment);
  // The host's answer to a Fetch: the bytes, or what went wrong ("HTTP 404 Not Found"). An answer
  // to a request no longer waited for is ignored.
  void OnFetched(int request, bool ok, std::string bytes, const std::string& error);
  bool opening() const { return current_ != nullptr; }

 private:
  struct Opening;
  int Enqueue(std::unique_ptr<Opening> opening);
  // A location resolved to what it asks for, then the first step of the opening's kind.
  void Begin();
  void BeginScene(const JsonValue& scene_json);
  // Asks the host for the next file of the current phase, or moves on when the phase is done.
  void FetchNext();
  void LoadFiles();
  void Finish(JsonValue result);

  OpeningTarget* target_;
  StageHost* host_;
  std::unique_ptr<Opening> current_;
  std::vector<std::unique_ptr<Opening>> queued_;
  int next_id_ = 1;
  int next_request_ = 1;
};

}  // namespace md5stage::viewer
