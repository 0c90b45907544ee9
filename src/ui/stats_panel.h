// ImGui panels that show frame statistics and the status line; they only read the values given.
#pragma once

#include <string>

namespace md5stage::ui {

struct FrameStats {
  float fps = 0.0f;
  float frame_ms = 0.0f;   // wall time between frames, smoothed
  float update_ms = 0.0f;  // CPU time spent updating the scene
  float render_ms = 0.0f;  // CPU time spent submitting draw calls
  int draw_calls = 0;
  int instances = 0;   // drawn (after culling)
  int culled = 0;      // characters outside the view, not submitted
  int characters = 0;
  int framebuffer_width = 0;
  int framebuffer_height = 0;
  float device_pixel_ratio = 1.0f;
  std::string gl_version;
};

void DrawStatsPanel(const FrameStats& stats);

// A thin bar along the bottom edge of the window.
void DrawStatusLine(const std::string& text);

}  // namespace md5stage::ui
