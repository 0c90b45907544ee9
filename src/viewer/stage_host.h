// What only the page can do for a stage (fetching files, events, downloads, the file picker) and
// the fetch requests it answers; the stage calls it and never waits for it.
#pragma once

#include <string>

#include "core/common/json.h"

namespace md5stage::viewer {

// A file a stage asks its host for while it opens a scene (the n-th of a batch, for progress).
struct FetchRequest {
  int request = 0;    // handed back with the answer
  std::string url;    // "assets/..." (the site's) or "https://..."
  std::string label;  // what the progress line calls it ("walker.md5mesh", "demo 'maze'")
  int index = 0;
  int count = 1;
};

// What only the page can do; the viewer calls it and never waits for it.
class StageHost {
 public:
  virtual ~StageHost() = default;
  // Fetches bytes for a scene being opened. The answer comes later, never from inside this call,
  // through Stage::OnFetched (SceneOpener::OnFetched); false when this host cannot fetch (the
  // opening then fails).
  virtual bool Fetch(const FetchRequest& request) { return false; }
  virtual void OpenFilePicker() {}
  // "copyLink", "copyEmbed", "copyFigure", "downloadPoster", "demo:NAME": clipboard and gallery
  // work the page does.
  virtual void PageAction(const std::string& action) {}
  virtual void DownloadScreenshot() {}
  // An event for the page (md5stage:NAME on window), e.g. "finished" {time}.
  virtual void Event(const std::string& name, const JsonValue& detail) {}
  // A file for the person to save ("Download glTF"), e.g. "walker.glb", "model/gltf-binary".
  virtual void DownloadFile(const std::string& name, const std::string& mime_type,
                            const std::string& bytes) {}
};

}  // namespace md5stage::viewer
