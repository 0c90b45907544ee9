// One module's stages: many independent views (each its own scene, clocks, camera, tools) over one
// shared resource cache and one set of GPU objects; page commands reach a stage by its id.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/resource_cache.h"
#include "core/common/json.h"
#include "viewer/render_interface.h"
#include "viewer/shared_render_backend.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

// What the page does for the module's stages: the same as StageHost, with the stage named.
class HubHost {
 public:
  virtual ~HubHost() = default;
  virtual bool Fetch(int stage, const FetchRequest& request) { return false; }
  virtual void OpenFilePicker(int stage) {}
  virtual void PageAction(int stage, const std::string& action) {}
  virtual void DownloadScreenshot(int stage) {}
  virtual void Event(int stage, const std::string& name, const JsonValue& detail) {}
  virtual void DownloadFile(int stage, const std::string& name, const std::string& mime_type,
                            const std::string& bytes) {}
};

class StageHub {
 public:
  static constexpr int kMainStage = 0;
  static constexpr int kMaxStages = 256;

  // Neither pointer is owned; both outlive the hub. host may be null. The main stage (id 0)
  // exists from the start and cannot be closed: single-stage pages and scripts use it.
  StageHub(RenderBackend* device, HubHost* host);
  ~StageHub();
  StageHub(const StageHub&) = delete;
  StageHub& operator=(const StageHub&) = delete;

  // A new empty stage; -1 when kMaxStages are open.
  int CreateStage();
  // Closes a stage: its models' GPU objects are released unless another stage uses them.
  // False for the main stage or an unknown id.
  bool CloseStage(int id);
  Stage* Find(int id);
  Stage& main() { return *Find(kMainStage); }
  std::vector<int> StageIds() const;
  // After a context loss: every stage's meshes and textures made again on the new device.
  void RecreateGpuObjects(RenderBackend* device);

  // {"cmd": NAME, "stage": ID, ...}: "stage" (default 0) names the stage the command goes to;
  // createStage, closeStage {id} and stages are the hub's own.
  JsonValue Call(const JsonValue& command);

  SharedRenderBackend& gpu() { return gpu_; }
  anim::ResourceCache& cache() { return cache_; }

 private:
  class StageHostForId;
  struct Entry {
    std::unique_ptr<StageHostForId> host;
    std::unique_ptr<Stage> stage;
  };
  JsonValue StagesJson() const;

  SharedRenderBackend gpu_;
  anim::ResourceCache cache_;
  HubHost* host_;
  std::map<int, Entry> stages_;
  int next_id_ = 0;
};

}  // namespace md5stage::viewer
