#include "render/draw_list_renderer.h"

#include "render/gl.h"

namespace md5stage::render {

void DrawDrawList(const viewer::DrawList& list, SkinnedMeshRenderer& meshes, LineRenderer& lines) {
  glEnable(GL_DEPTH_TEST);
  meshes.BeginFrame();
  for (const viewer::DrawList::Instance& instance : list.instances) {
    meshes.Submit(instance.mesh, instance.palette);
  }
  SkinnedDrawOptions options;
  options.wireframe = list.wireframe;
  options.light_direction = list.shading.LightDirection();
  options.normal_maps = list.shading.normal_maps;
  options.specular = list.shading.specular;
  options.channel = static_cast<int>(list.shading.channel);
  meshes.Draw(list.view_projection, options);
  lines.Draw(list.view_projection, list.triangles, list.lines_tested, list.lines_on_top);
}

}  // namespace md5stage::render
