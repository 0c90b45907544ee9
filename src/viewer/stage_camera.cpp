// Cinematic cameras in the viewer: loading .md5camera files, playing one on the scene clock, and
// the view and projection it gives (core/anim/camera_playback.h, core/view/cinematic_view.h).
#include <algorithm>

#include "core/md5/md5_camera.h"
#include "core/view/cinematic_view.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

std::string BaseName(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

}  // namespace

void Stage::LoadCameraFiles(std::vector<InputFile>* files, std::vector<std::string>* loaded,
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
    const int existing = FindCamera(camera.name);
    if (existing >= 0) {
      // Replaced in place: what played it plays the new file.
      camera.id = view_.cinematics[static_cast<size_t>(existing)].id;
      view_.cinematics[static_cast<size_t>(existing)] = std::move(camera);
    } else {
      camera.id = serials_.Next<HandleKind::kCamera>();
      view_.cinematics.push_back(std::move(camera));
    }
    loaded->push_back(BaseName(file.name));
  }
  *files = std::move(rest);
}

int Stage::FindCamera(const std::string& name) const {
  for (size_t i = 0; i < view_.cinematics.size(); ++i) {
    if (view_.cinematics[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void Stage::PlayCamera(int index) {
  view_.playing = index >= 0 && index < static_cast<int>(view_.cinematics.size())
                      ? view_.cinematics[static_cast<size_t>(index)].id
                      : CameraId();
  if (view_.playing.valid()) {
    // A drag that began under the orbit camera does not carry on into the cinematic one.
    pointer_.orbiting = false;
    pointer_.panning = false;
    view_.follow_selected = false;
  }
}

bool Stage::SampleCinematic(anim::CameraView* view) const {
  const int playing = CameraIndex(view_.playing);
  if (playing < 0) return false;
  anim::CameraSampleJob job;
  job.camera = view_.cinematics[static_cast<size_t>(playing)].file.get();
  job.time = scene_time_;
  job.mode = PlayMode::kLoop;
  job.output = view;
  return job.Run();
}

glm::mat4 Stage::ViewProjection() const {
  const float aspect =
      static_cast<float>(viewport_.width) / static_cast<float>(std::max(viewport_.height, 1));
  anim::CameraView view;
  if (SampleCinematic(&view)) {
    return CinematicProjectionMatrix(view.fov_x_degrees, aspect) *
           CinematicViewMatrix(view.position, view.forward(), view.up());
  }
  return view_.orbit.ProjectionMatrix(aspect) * view_.orbit.ViewMatrix();
}

JsonValue Stage::CamerasJson() const {
  JsonValue out = JsonValue::MakeObject();
  JsonArray list;
  for (const CinematicCamera& camera : view_.cinematics) {
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
  if (SampleCinematic(&view)) {
    out.Set("playing", view_.cinematics[static_cast<size_t>(CameraIndex(view_.playing))].name);
    out.Set("frame", view.frame);
    out.Set("shot", view.shot);
    out.Set("position", JsonValue(JsonArray{JsonValue(static_cast<double>(view.position.x)),
                                            JsonValue(static_cast<double>(view.position.y)),
                                            JsonValue(static_cast<double>(view.position.z))}));
  } else {
    out.Set("playing", "");
  }
  return out;
}

}  // namespace md5stage::viewer
