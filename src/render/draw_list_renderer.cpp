#include "render/draw_list_renderer.h"

#include "render/gl.h"

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

}  // namespace

void DrawDrawList(const viewer::DrawList& list, SkinnedMeshRenderer& meshes, LineRenderer& lines) {
  glEnable(GL_DEPTH_TEST);
  meshes.BeginFrame();
  for (const viewer::DrawList::Instance& instance : list.instances) {
    meshes.Submit(instance.mesh, instance.palette);
  }
  meshes.Draw(list.view_projection, OptionsOf(list));
  lines.Draw(list.view_projection, list.triangles, list.lines_tested, list.lines_on_top);
}

void DrawDrawLists(const std::vector<DrawListView>& views, const glm::vec3& clear_rgb,
                   SkinnedMeshRenderer& meshes, LineRenderer& lines) {
  meshes.BeginFrame();
  lines.BeginFrame();
  std::vector<LineRenderer::Ranges> ranges;
  ranges.reserve(views.size());
  for (size_t v = 0; v < views.size(); ++v) {
    if (v > 0) meshes.NextView();
    const viewer::DrawList& list = *views[v].list;
    for (const viewer::DrawList::Instance& instance : list.instances) {
      meshes.Submit(instance.mesh, instance.palette);
    }
    ranges.push_back(lines.Add(list.triangles, list.lines_tested, list.lines_on_top));
  }
  meshes.Upload();
  lines.Upload();
  glEnable(GL_SCISSOR_TEST);
  glClearColor(clear_rgb.x, clear_rgb.y, clear_rgb.z, 1.0f);
  // Every view's models, then every view's lines and ground shapes: each program and its state
  // set once a frame, not once a view (the regions do not overlap, and each keeps its depth).
  meshes.BeginViews();
  for (size_t v = 0; v < views.size(); ++v) {
    const DrawListView& view = views[v];
    glViewport(view.x, view.y, view.width, view.height);
    glScissor(view.x, view.y, view.width, view.height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    meshes.DrawViewInstances(static_cast<int>(v), view.list->view_projection,
                             OptionsOf(*view.list));
  }
  meshes.EndViews();
  lines.BeginRanges();
  for (size_t v = 0; v < views.size(); ++v) {
    const DrawListView& view = views[v];
    const LineRenderer::Ranges& range = ranges[v];
    if (range.triangles + range.tested + range.on_top == 0) continue;
    glViewport(view.x, view.y, view.width, view.height);
    glScissor(view.x, view.y, view.width, view.height);
    lines.DrawRangesInView(view.list->view_projection, range);
  }
  lines.EndRanges();
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace md5stage::render
