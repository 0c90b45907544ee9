#include "render/draw_list_renderer.h"

#include <algorithm>

#include "render/gl.h"
#include "render/view_block.h"

namespace md5stage::render {

namespace {

SkinnedDrawOptions OptionsOf(const viewer::DrawList& list) {
  SkinnedDrawOptions options;
  options.wireframe = list.wireframe;
  options.light_direction = list.shading.LightDirection();
  options.normal_maps = list.shading.normal_maps;
  options.specular = list.shading.specular;
  options.channel = static_cast<int>(list.shading.channel);
  return options;
}

// Adds the list as the next view of the frame, placed by `placement`.
void AddView(const viewer::DrawList& list, const viewer::ViewPlacement& placement,
             SkinnedMeshRenderer& meshes, LineRenderer& lines) {
  const int view = meshes.AddView(list.view_projection, placement, OptionsOf(list));
  for (const viewer::DrawList::Instance& instance : list.instances) {
    meshes.Submit(instance.mesh, instance.palette, instance.textures);
  }
  lines.Add(view, list.triangles, list.lines_tested, list.lines_on_top, list.shapes);
}

}  // namespace

void DrawDrawList(const viewer::DrawList& list, SkinnedMeshRenderer& meshes, LineRenderer& lines) {
  meshes.BeginFrame();
  lines.BeginFrame();
  AddView(list, viewer::ViewPlacement{}, meshes, lines);  // the viewport as the caller set it
  meshes.Upload();
  lines.Upload();
  meshes.DrawViews();
  lines.DrawViews();
}

void DrawDrawLists(const std::vector<DrawListView>& views, const glm::vec3& clear_rgb,
                   int framebuffer_width, int framebuffer_height, SkinnedMeshRenderer& meshes,
                   LineRenderer& lines) {
  glViewport(0, 0, framebuffer_width, framebuffer_height);
  glClearColor(clear_rgb.x, clear_rgb.y, clear_rgb.z, 1.0f);
  for (size_t first = 0; first < views.size(); first += kMaxViewsPerDraw) {
    const size_t end = std::min(views.size(), first + kMaxViewsPerDraw);
    meshes.BeginFrame();
    lines.BeginFrame();
    // One clear for the batch, over the rectangle around its views (the regions do not
    // overlap, and each keeps its own depth).
    int x0 = framebuffer_width, y0 = framebuffer_height, x1 = 0, y1 = 0;
    for (size_t v = first; v < end; ++v) {
      const DrawListView& view = views[v];
      viewer::ViewPlacement placement;
      if (!viewer::PlaceView(view.x, view.y, view.width, view.height, framebuffer_width,
                             framebuffer_height, &placement)) {
        placement.rect = glm::vec4(0.0f);  // an empty view draws nothing
      }
      AddView(*view.list, placement, meshes, lines);
      x0 = std::min(x0, view.x);
      y0 = std::min(y0, view.y);
      x1 = std::max(x1, view.x + view.width);
      y1 = std::max(y1, view.y + view.height);
    }
    meshes.Upload();
    lines.Upload();
    if (x1 > x0 && y1 > y0) {
      glEnable(GL_SCISSOR_TEST);
      glScissor(x0, y0, x1 - x0, y1 - y0);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      glDisable(GL_SCISSOR_TEST);
    }
    meshes.DrawViews();
    lines.DrawViews();
  }
}

}  // namespace md5stage::render
