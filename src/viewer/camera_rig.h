// The stage's camera as one feature: the orbit camera a person drives, the cinematic cameras
// (.md5camera) played on the scene clock, and following a character. It owns that state, its
// per-frame step (the orbit target goes where the followed character is), and its parts of
// state() and of a scene; the stage routes input and actions to it.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "core/anim/camera_playback.h"
#include "core/common/json.h"
#include "core/scene/scene.h"
#include "core/view/orbit_camera.h"
#include "viewer/handles.h"
#include "viewer/model_library.h"
#include "viewer/stage_state.h"

namespace md5stage::viewer {

class CameraRig {
 public:
  // ---- the orbit camera ----
  const OrbitCamera& orbit() const { return orbit_; }
  // Placed by hand (a command, an embed's option): following stops.
  void SetOrbit(const OrbitCamera& camera);
  // The arrow keys' and +/-'s steps: degrees of yaw and pitch (pitch clamped); wheel steps.
  void OrbitBy(float yaw_degrees, float pitch_degrees);
  void ZoomBy(float steps) { orbit_.Zoom(steps); }
  // Pointer drags, in CSS pixels: orbiting keeps following; panning stops it.
  void DragOrbit(float dx, float dy) { orbit_.Orbit(dx, dy); }
  void DragPan(float dx, float dy, float viewport_height);
  // Fits the box in the view (the whole animation of the selection, F).
  void Frame(const glm::vec3& lo, const glm::vec3& hi, float aspect) {
    orbit_.Frame(lo, hi, aspect);
  }

  // ---- following ----
  bool following() const { return follow_; }
  void SetFollowing(bool follow) { follow_ = follow; }
  // The frame's step: while following, the orbit target goes to the character's ground point.
  void Follow(glm::vec2 position);

  // ---- turning by itself (model-viewer's auto-rotate), and who moved the camera ----
  struct AutoRotate {
    bool on = false;
    float degrees_per_second = 32.0f;  // model-viewer's default rotation-per-second
  };
  // Seconds auto-rotate waits after the reader last moved the camera (model-viewer's default
  // auto-rotate-delay).
  static constexpr double kAutoRotateDelaySeconds = 3.0;
  void SetAutoRotate(const AutoRotate& rotate) { auto_rotate_ = rotate; }
  const AutoRotate& auto_rotate() const { return auto_rotate_; }
  // The reader acted on the camera (a drag, the wheel, a key): this frame's change is theirs,
  // and auto-rotate waits kAutoRotateDelaySeconds.
  void NoteReaderInput();
  // The frame's step: auto-rotate turns the orbit camera, unless the reader holds it (a drag
  // under way), acted on it less than the delay ago, or a cinematic camera plays.
  void StepAutoRotate(double dt, bool held);
  // Whether it turns by itself now (the page keeps drawing frames).
  bool AutoRotating() const;
  // Who moved the orbit camera since the last call, as model-viewer's camera-change detail says:
  // "user-interaction" (the reader), "automatic" (auto-rotate) or "none" (a command, an option);
  // null when it did not move.
  const char* TakeChange();

  // ---- cinematic cameras ----
  // Takes the .md5camera files out of a batch and loads them (one of the same name is replaced in
  // place and keeps its handle); their names go to *loaded, their errors to *errors.
  void LoadFiles(std::vector<InputFile>* files, std::vector<std::string>* loaded,
                 std::vector<std::string>* errors);
  const std::vector<CinematicCamera>& cinematics() const { return cinematics_; }
  int Find(const std::string& name) const;  // by name, or -1
  int IndexOf(CameraId id) const;           // its position, or -1
  // Plays the camera at `index` on the scene clock (-1 or out of range: the orbit camera, as it
  // was). Playing one stops following; true when one plays now.
  bool Play(int index);
  CameraId playing() const { return playing_; }
  // The playing camera at the scene time; false when the orbit camera is in use.
  bool Sample(double scene_time, anim::CameraView* view) const;
  glm::mat4 ViewProjection(float aspect, double scene_time) const;

  // ---- state() and scenes ----
  JsonValue OrbitJson() const;                       // {"target", "yaw", "pitch", "distance"}
  JsonValue CinematicJson(double scene_time) const;  // the loaded cameras and the playing one
  void WriteScene(SceneCamera* camera) const;
  // A scene's orbit camera, and the cinematic camera it names (by source) when one is loaded;
  // following stops. False when it names one that is not loaded (the orbit camera is used).
  bool ApplyScene(const SceneCamera& camera);
  // Whether a camera from this source is loaded (a scene being opened fetches it otherwise).
  bool HasSource(const std::string& source) const;

 private:
  OrbitCamera orbit_;
  bool follow_ = false;
  std::vector<CinematicCamera> cinematics_;
  CameraId playing_;  // none: the orbit camera
  HandleSerials serials_;
  AutoRotate auto_rotate_;
  double idle_seconds_ = kAutoRotateDelaySeconds;  // since the reader last acted on the camera
  bool reader_acted_ = false;                      // since the last TakeChange
  bool rotated_ = false;                           // auto-rotate turned it since then
  OrbitCamera reported_;                           // as the last TakeChange saw it
};

}  // namespace md5stage::viewer
