#include "ui/stats_panel.h"

#include <imgui.h>

namespace md5stage::ui {

void DrawStatsPanel(const FrameStats& stats) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(260, 0), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Stats")) {
    ImGui::Text("FPS %.1f", stats.fps);
    ImGui::Text("frame %.2f ms", stats.frame_ms);
    ImGui::Text("update %.3f ms  render %.3f ms", stats.update_ms, stats.render_ms);
    ImGui::Text("draw calls %d  instances %d", stats.draw_calls, stats.instances);
    ImGui::Text("characters %d  culled %d", stats.characters, stats.culled);
    ImGui::Text("canvas %d x %d (dpr %.2f)", stats.framebuffer_width, stats.framebuffer_height,
                stats.device_pixel_ratio);
    ImGui::TextWrapped("%s", stats.gl_version.c_str());
  }
  ImGui::End();
}

void DrawStatusLine(const std::string& text) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x, viewport->Pos.y + viewport->Size.y - height));
  ImGui::SetNextWindowSize(ImVec2(viewport->Size.x, height));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##status", nullptr, flags)) ImGui::TextUnformatted(text.c_str());
  ImGui::End();
  ImGui::PopStyleVar(2);
}

}  // namespace md5stage::ui
