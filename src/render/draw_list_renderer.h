// Draws a viewer DrawList with the WebGL renderers (skinned instances, ground fills, lines): the
// one drawing path of the viewer app and of the figures module.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "viewer/render_interface.h"

namespace md5stage::render {

// Into the current viewport; the caller clears it. Texts are not drawn here.
void DrawDrawList(const viewer::DrawList& list, SkinnedMeshRenderer& meshes, LineRenderer& lines);

// One view of several drawn in one frame: its draw list and its viewport in the framebuffer
// (pixels, origin bottom left).
struct DrawListView {
  const viewer::DrawList* list = nullptr;
  int x = 0, y = 0, width = 0, height = 0;
};

// Each view cleared to `clear_rgb` and drawn into its rectangle of a framebuffer
// `framebuffer_width` x `framebuffer_height`: every view's palettes, instances and lines uploaded
// once, and each model part and each kind of line drawn for all views in one call (in batches of
// kMaxViewsPerDraw views), so a view adds no GL calls of its own (the figures of a page, issue 27).
void DrawDrawLists(const std::vector<DrawListView>& views, const glm::vec3& clear_rgb,
                   int framebuffer_width, int framebuffer_height, SkinnedMeshRenderer& meshes,
                   LineRenderer& lines);

}  // namespace md5stage::render
