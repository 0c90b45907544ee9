// The browser seam: owns the GLFW window and WebGL2 context, the renderers and Dear ImGui, feeds
// the platform-free Stage its input, draws its draw list, and does what only the page can do.
#pragma once

#include <memory>
#include <string>

#include "render/imgui_renderer.h"
#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "ui/panel_commands.h"
#include "viewer/stage_hub.h"

struct GLFWwindow;

namespace md5stage::app {

class App : public viewer::HubHost {
 public:
  // Creates the window and GL context; false (with *error) when WebGL2 or a shader is missing.
  bool Init(std::string* error);
  void Frame();
  // The stages of the module; the main stage is the one the canvas and the panels show.
  viewer::StageHub& hub() { return *hub_; }
  viewer::Stage& viewer() { return hub_->main(); }

  bool Fetch(int stage, const viewer::FetchRequest& request) override;
  void OpenFilePicker(int stage) override;
  void PageAction(int stage, const std::string& action) override;
  void DownloadScreenshot(int stage) override;
  void Event(int stage, const std::string& name, const JsonValue& detail) override;
  void DownloadFile(int stage, const std::string& name, const std::string& mime_type,
                    const std::string& bytes) override;
  // Asks for the view drawn afresh at width x height pixels (a figure's size, not the canvas's)
  // after the next frame, handed to the page as PNG bytes (Module.md5stagePoster); false (with
  // *error naming the side) when a side is out of [1, kMaxPosterSide].
  bool RequestPoster(int width, int height, std::string* error);
  static constexpr int kMaxPosterSide = 4096;

 private:
  void SyncCanvasSize();
  void Render();
  // Runs the commands the panels made this frame on the main stage, after the UI pass.
  void RunPanelCommands(ui::PanelOutput& panels);
  // Draws the main stage into an offscreen picture of the requested size with the same camera
  // and scene, and hands its PNG (or why there is none) to the page. The canvas's own frame is
  // already drawn; the stage gets the canvas's viewport back.
  void TakePoster();

  GLFWwindow* window_ = nullptr;
  render::SkinnedMeshRenderer meshes_;
  render::LineRenderer lines_;
  render::ImGuiRenderer imgui_renderer_;
  std::unique_ptr<viewer::StageHub> hub_;
  viewer::DrawList draw_list_;
  bool screenshot_requested_ = false;
  struct PosterRequest {
    bool pending = false;
    int width = 0;
    int height = 0;
  } poster_;
  double last_time_ = 0.0;
  int width_ = 1;
  int height_ = 1;
  float device_pixel_ratio_ = 1.0f;
};

}  // namespace md5stage::app
