// ImGui panels that show frame statistics and the status line; they only read the values given.
#pragma once

#include <string>

#include "viewer/viewer_model.h"

namespace md5stage::ui {

void DrawStatsPanel(const FrameStats& stats);

// A thin bar along the bottom edge of the window.
void DrawStatusLine(const std::string& text);

}  // namespace md5stage::ui
