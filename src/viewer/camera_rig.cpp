// The camera feature (camera_rig.h): the orbit camera, following, and cinematic cameras loaded
// from .md5camera files and played on the scene clock (core/anim/camera_playback.h,
// core/view/cinematic_view.h).
#include "viewer/camera_rig.h"

#include <algorithm>
#include <cmath>

#include "core/md5/md5_camera.h"
#include "core/view/cinematic_view.h"

namespace md5stage::viewer {
namespace {

std::string BaseName(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

JsonValue Vec3Json(const glm::vec3& v) {
  return JsonValue(JsonArray{JsonValue(static_cast<double>(v.x)),
                             JsonValue(static_cast<double>(v.y)),
                             JsonValue(static_cast<double>(v.z))});
}

}  // namespace

// ---- the orbit camera and following -----------------------------------------------------------

void CameraRig::SetOrbit(const OrbitCamera& camera) {
  orbit_ = camera;
  follow_ = false;
}

void CameraRig::OrbitBy(float yaw_degrees, float pitch_degrees) {
  orbit_.yaw_degrees = std::fmod(orbit_.yaw_degrees + yaw_degrees, 360.0f);
  orbit_.pitch_degrees = std::clamp(orbit_.pitch_degrees + pitch_degrees, OrbitCamera::kMinPitch,
                                    OrbitCamera::kMaxPitch);
}

void CameraRig::DragPan(float dx, float dy, float viewport_height) {
  orbit_.Pan(dx, dy, viewport_height);
  follow_ = false;
}

void CameraRig::Follow(glm::vec2 position) {
  if (!follow_) return;
  orbit_.target.x = position.x;
  orbit_.target.y = position.y;
}

// ---- auto-rotate and camera changes ----------------------------------------------------------

void CameraRig::NoteReaderInput() {
  reader_acted_ = true;
  idle_seconds_ = 0.0;
}

void CameraRig::StepAutoRotate(double dt, bool held) {
  if (held) idle_seconds_ = 0.0;
  idle_seconds_ += dt;
  if (!AutoRotating() || idle_seconds_ < kAutoRotateDelaySeconds) return;
  OrbitBy(static_cast<float>(auto_rotate_.degrees_per_second * dt), 0.0f);
  rotated_ = true;
}

bool CameraRig::AutoRotating() const {
  return auto_rotate_.on && auto_rotate_.degrees_per_second != 0.0f && !playing_.valid();
}

const char* CameraRig::TakeChange() {
  const bool moved =
      orbit_.target != reported_.target || orbit_.yaw_degrees != reported_.yaw_degrees ||
      orbit_.pitch_degrees != reported_.pitch_degrees || orbit_.distance != reported_.distance;
  const char* source = !moved          ? nullptr
                       : reader_acted_ ? "user-interaction"
                       : rotated_      ? "automatic"
                                       : "none";
  reported_ = orbit_;
  reader_acted_ = false;
  rotated_ = false;
  return source;
}

// ---- cinematic cameras ------------------------------------------------------------------------

void CameraRig::LoadFiles(std::vector<InputFile>* files, std::vector<std::string>* loaded,
                          std::vector<std::string>* errors) {
  std::vector<InputFile> rest;
  for (InputFile& file : *files) {
    if (!md5::IsMd5CameraName(file.name)) {
      rest.push_back(std::move(file));
      continue;
    }
    Result<md5::CameraFile> parsed = md5::ParseMd5Camera(file.name, file.bytes);
    if (!parsed.ok()) {
      errors->push_back(parsed.error().ToString());
      continue;
    }
    CinematicCamera camera;
    camera.name = BaseName(file.name);
    camera.source = file.source.empty() ? "local" : file.source;
    camera.file = std::make_shared<const md5::CameraFile>(std::move(parsed).value());
    const int existing = Find(camera.name);
    if (existing >= 0) {
      // Replaced in place: what played it plays the new file.
      camera.id = cinematics_[static_cast<size_t>(existing)].id;
      cinematics_[static_cast<size_t>(existing)] = std::move(camera);
    } else {
      camera.id = serials_.Next<HandleKind::kCamera>();
      cinematics_.push_back(std::move(camera));
    }
    loaded->push_back(BaseName(file.name));
  }
  *files = std::move(rest);
}

int CameraRig::Find(const std::string& name) const {
  for (size_t i = 0; i < cinematics_.size(); ++i) {
    if (cinematics_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int CameraRig::IndexOf(CameraId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < cinematics_.size(); ++i) {
    if (cinematics_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

bool CameraRig::Play(int index) {
  playing_ = index >= 0 && index < static_cast<int>(cinematics_.size())
                 ? cinematics_[static_cast<size_t>(index)].id
                 : CameraId();
  if (playing_.valid()) follow_ = false;
  return playing_.valid();
}

bool CameraRig::Sample(double scene_time, anim::CameraView* view) const {
  const int playing = IndexOf(playing_);
  if (playing < 0) return false;
  anim::CameraSampleJob job;
  job.camera = cinematics_[static_cast<size_t>(playing)].file.get();
  job.time = scene_time;
  job.mode = PlayMode::kLoop;
  job.output = view;
  return job.Run();
}

glm::mat4 CameraRig::ViewProjection(float aspect, double scene_time) const {
  anim::CameraView view;
  if (Sample(scene_time, &view)) {
    return CinematicProjectionMatrix(view.fov_x_degrees, aspect) *
           CinematicViewMatrix(view.position, view.forward(), view.up());
  }
  return orbit_.ProjectionMatrix(aspect) * orbit_.ViewMatrix();
}

// ---- state() and scenes -----------------------------------------------------------------------

JsonValue CameraRig::OrbitJson() const {
  JsonValue camera = JsonValue::MakeObject();
  camera.Set("target", Vec3Json(orbit_.target));
  camera.Set("yaw", static_cast<double>(orbit_.yaw_degrees));
  camera.Set("pitch", static_cast<double>(orbit_.pitch_degrees));
  camera.Set("distance", static_cast<double>(orbit_.distance));
  return camera;
}

JsonValue CameraRig::CinematicJson(double scene_time) const {
  JsonValue out = JsonValue::MakeObject();
  JsonArray list;
  for (const CinematicCamera& camera : cinematics_) {
    JsonValue c = JsonValue::MakeObject();
    c.Set("id", HandleText(camera.id));
    c.Set("name", camera.name);
    c.Set("source", camera.source);
    c.Set("frames", static_cast<double>(camera.file->frames.size()));
    c.Set("frame_rate", static_cast<double>(camera.file->frame_rate));
    JsonArray cuts;
    for (int cut : camera.file->cuts) cuts.emplace_back(cut);
    c.Set("cuts", JsonValue(std::move(cuts)));
    c.Set("duration", camera.file->duration());
    list.push_back(std::move(c));
  }
  out.Set("cameras", JsonValue(std::move(list)));
  anim::CameraView view;
  if (Sample(scene_time, &view)) {
    out.Set("playing", cinematics_[static_cast<size_t>(IndexOf(playing_))].name);
    out.Set("frame", view.frame);
    out.Set("shot", view.shot);
    out.Set("position", Vec3Json(view.position));
  } else {
    out.Set("playing", "");
  }
  return out;
}

void CameraRig::WriteScene(SceneCamera* camera) const {
  camera->target = glm::dvec3(orbit_.target);
  camera->yaw_degrees = orbit_.yaw_degrees;
  camera->pitch_degrees = orbit_.pitch_degrees;
  camera->distance = orbit_.distance;
  if (const int playing = IndexOf(playing_);
      playing >= 0 && cinematics_[static_cast<size_t>(playing)].source != "local") {
    camera->cinematic = cinematics_[static_cast<size_t>(playing)].source;
  }
}

bool CameraRig::ApplyScene(const SceneCamera& camera) {
  orbit_.target = glm::vec3(camera.target);
  orbit_.yaw_degrees = static_cast<float>(camera.yaw_degrees);
  orbit_.pitch_degrees = static_cast<float>(camera.pitch_degrees);
  orbit_.distance = static_cast<float>(camera.distance);
  int cinematic = -1;
  for (size_t i = 0; i < cinematics_.size(); ++i) {
    if (!camera.cinematic.empty() && cinematics_[i].source == camera.cinematic) {
      cinematic = static_cast<int>(i);
    }
  }
  Play(cinematic);
  follow_ = false;
  return camera.cinematic.empty() || cinematic >= 0;
}

bool CameraRig::HasSource(const std::string& source) const {
  return std::any_of(cinematics_.begin(), cinematics_.end(),
                     [&](const CinematicCamera& c) { return c.source == source; });
}

}  // namespace md5stage::viewer
