// Draws a viewer DrawList with the WebGL renderers (skinned instances, ground fills, lines): the
// one drawing path of the viewer app and of the figures module.
#pragma once

#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "viewer/render_interface.h"

namespace md5stage::render {

// Into the current viewport; the caller clears it. Texts are not drawn here.
void DrawDrawList(const viewer::DrawList& list, SkinnedMeshRenderer& meshes, LineRenderer& lines);

}  // namespace md5stage::render
