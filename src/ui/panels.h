// The viewer's ImGui panels: model facts and joint tree, animation controls, attachments,
// instances, display toggles and keyboard help. They read a ViewerModel and fill ViewerRequests.
#pragma once

#include "viewer/viewer_model.h"

namespace md5stage::ui {

void DrawModelPanel(const ViewerModel& model, ViewerRequests& requests);
void DrawAnimationPanel(const ViewerModel& model, ViewerRequests& requests);
void DrawAttachPanel(const ViewerModel& model, ViewerRequests& requests);
void DrawDisplayPanel(const ViewerModel& model, ViewerRequests& requests);
void DrawHelpPanel(bool* open);
// Scene clock (play/pause, time), share link and embed buttons, and the demo gallery.
void DrawScenePanel(const ViewerModel& model, ViewerRequests& requests);

// All of the above in their default places.
void DrawViewerPanels(const ViewerModel& model, ViewerRequests& requests, bool* help_open);

}  // namespace md5stage::ui
