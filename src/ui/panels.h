// The viewer's ImGui panels: model facts and joint tree, animation controls, attachments,
// instances, display toggles and keyboard help. They read a ViewerModel and answer
// with commands of the stage's table (panel_commands.h).
#pragma once

#include "ui/panel_commands.h"
#include "viewer/viewer_model.h"

namespace md5stage::ui {

void DrawModelPanel(const ViewerModel& model, PanelOutput& out);
void DrawAnimationPanel(const ViewerModel& model, PanelOutput& out);
void DrawAttachPanel(const ViewerModel& model, PanelOutput& out);
void DrawDisplayPanel(const ViewerModel& model, PanelOutput& out);
void DrawHelpPanel(bool* open);
// Scene clock (play/pause, time), share link and embed buttons, and the demo gallery.
void DrawScenePanel(const ViewerModel& model, PanelOutput& out);

// All of the above in their default places.
void DrawViewerPanels(const ViewerModel& model, PanelOutput& out, bool* help_open);

}  // namespace md5stage::ui
