// The per-view data every program of a frame reads (matrix, placement in the shared canvas,
// pixel rectangle, eye, light): one uniform block, uploaded once a frame for all views.
#pragma once

#include <glm/glm.hpp>

#include "render/gl.h"

namespace md5stage::render {

// Views per draw; a frame of more draws them in batches of this many. 64 x 128 bytes is half
// of the smallest uniform block WebGL2 allows (16 KB).
constexpr int kMaxViewsPerDraw = 64;
constexpr GLuint kViewBlockBinding = 0;

// std140 layout of one `View` of the GLSL block below.
struct GpuView {
  glm::mat4 view_projection{1.0f};
  glm::vec4 placement{1.0f, 1.0f, 0.0f, 0.0f};  // xy scale, zw offset (viewer::ViewPlacement)
  glm::vec4 rect{-1e9f, -1e9f, 1e9f, 1e9f};     // framebuffer pixels: x0, y0, x1, y1
  glm::vec4 eye{0.0f};                          // xyz the eye, w the shading channel
  glm::vec4 light{0.0f, 0.0f, 1.0f, 0.0f};      // xyz towards the light, w flags (kView*)
};
static_assert(sizeof(GpuView) == 128, "std140 layout of View");
static_assert(kMaxViewsPerDraw == 64, "the size of u_views in MD5STAGE_VIEW_BLOCK_GLSL");

constexpr int kViewNormalMaps = 1;  // parts with a normal map use it
constexpr int kViewSpecular = 2;    // parts with a specular map get highlights

// Pasted into each program's shaders after the version and precision lines.
#define MD5STAGE_VIEW_BLOCK_GLSL                                              \
  "struct View {\n"                                                           \
  "  mat4 view_projection;\n"                                                 \
  "  vec4 placement;\n"                                                       \
  "  vec4 rect;\n"                                                            \
  "  vec4 eye;\n"                                                             \
  "  vec4 light;\n"                                                           \
  "};\n"                                                                      \
  "layout(std140) uniform Views { View u_views[64]; };\n"                     \
  "vec4 PlaceInView(vec4 placement, vec4 clip) {\n"                           \
  "  return vec4(clip.xy * placement.xy + placement.zw * clip.w, clip.zw);\n" \
  "}\n"

// Points `program`'s Views block at the shared binding.
inline void BindViewBlock(GLuint program) {
  const GLuint index = glGetUniformBlockIndex(program, "Views");
  if (index != GL_INVALID_INDEX) glUniformBlockBinding(program, index, kViewBlockBinding);
}

}  // namespace md5stage::render
