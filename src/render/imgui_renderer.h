// Draws Dear ImGui's draw lists with WebGL2: one program, one vertex array object and two
// streamed buffers made once. (The stock OpenGL3 backend creates and deletes a vertex array every
// frame; Emscripten's GL layer never reuses object ids, so its id tables grew by one slot per
// frame for as long as the page ran.)
#pragma once

#include <cstddef>
#include <string>

#include "render/gl.h"
#include "render/shader_program.h"

struct ImDrawData;

namespace md5stage::render {

class ImGuiRenderer {
 public:
  ImGuiRenderer() = default;
  ~ImGuiRenderer();
  ImGuiRenderer(const ImGuiRenderer&) = delete;
  ImGuiRenderer& operator=(const ImGuiRenderer&) = delete;

  // Needs a current WebGL2 context and an ImGui context (its font atlas becomes a texture).
  // False with *error filled when the program does not build.
  bool Init(std::string* error);
  // Draws over the framebuffer; leaves blending, scissor and culling off and depth testing on,
  // as the scene's renderers expect at the start of a frame.
  void Render(const ImDrawData* draw_data);

 private:
  void SetUpState(const ImDrawData* draw_data, int framebuffer_width, int framebuffer_height);

  ShaderProgram program_;
  GLint projection_location_ = -1;
  GLint texture_location_ = -1;
  GLuint vertex_array_ = 0;
  GLuint vertex_buffer_ = 0;
  GLuint index_buffer_ = 0;
  GLuint font_texture_ = 0;
  std::size_t vertex_capacity_ = 0;  // bytes allocated in the buffers
  std::size_t index_capacity_ = 0;
};

}  // namespace md5stage::render
