#include "render/imgui_renderer.h"

#include <imgui.h>

#include <cstddef>
#include <cstdint>

namespace md5stage::render {
namespace {

constexpr const char* kVertexShader = R"(#version 300 es
uniform mat4 u_projection;
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
out vec2 v_uv;
out vec4 v_color;
void main() {
  v_uv = a_uv;
  v_color = a_color;
  gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
})";

constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color * texture(u_texture, v_uv); })";

// Grows a buffer to fit `bytes` (doubling, so a growing UI reallocates rarely), then uploads.
void Upload(GLenum target, const void* data, std::size_t bytes, std::size_t* capacity) {
  if (bytes > *capacity) {
    *capacity = bytes * 2;
    glBufferData(target, static_cast<GLsizeiptr>(*capacity), nullptr, GL_STREAM_DRAW);
  }
  glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
}

}  // namespace

ImGuiRenderer::~ImGuiRenderer() {
  if (font_texture_) glDeleteTextures(1, &font_texture_);
  if (index_buffer_) glDeleteBuffers(1, &index_buffer_);
  if (vertex_buffer_) glDeleteBuffers(1, &vertex_buffer_);
  if (vertex_array_) glDeleteVertexArrays(1, &vertex_array_);
}

bool ImGuiRenderer::Init(std::string* error) {
  if (!program_.Build(kVertexShader, kFragmentShader, error)) return false;
  projection_location_ = program_.Uniform("u_projection");
  texture_location_ = program_.Uniform("u_texture");

  glGenVertexArrays(1, &vertex_array_);
  glGenBuffers(1, &vertex_buffer_);
  glGenBuffers(1, &index_buffer_);
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);  // recorded in the vertex array
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
  glBindVertexArray(0);

  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "md5stage_webgl2";
  unsigned char* pixels = nullptr;
  int width = 0;
  int height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  glGenTextures(1, &font_texture_);
  glBindTexture(GL_TEXTURE_2D, font_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(font_texture_)));
  return true;
}

void ImGuiRenderer::SetUpState(const ImDrawData* draw_data, int framebuffer_width,
                               int framebuffer_height) {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_SCISSOR_TEST);
  glViewport(0, 0, framebuffer_width, framebuffer_height);
  // Orthographic: the display rectangle to clip space, y down.
  const float left = draw_data->DisplayPos.x;
  const float right = left + draw_data->DisplaySize.x;
  const float top = draw_data->DisplayPos.y;
  const float bottom = top + draw_data->DisplaySize.y;
  // Column-major, one column per line.
  // clang-format off
  const float projection[16] = {
      2.0f / (right - left),           0.0f,                            0.0f,  0.0f,
      0.0f,                            2.0f / (top - bottom),           0.0f,  0.0f,
      0.0f,                            0.0f,                           -1.0f,  0.0f,
      (right + left) / (left - right), (top + bottom) / (bottom - top), 0.0f,  1.0f,
  };
  // clang-format on
  program_.Use();
  glUniformMatrix4fv(projection_location_, 1, GL_FALSE, projection);
  glUniform1i(texture_location_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
}

void ImGuiRenderer::Render(const ImDrawData* draw_data) {
  if (draw_data == nullptr || vertex_array_ == 0) return;
  const ImVec2 scale = draw_data->FramebufferScale;
  const int framebuffer_width = static_cast<int>(draw_data->DisplaySize.x * scale.x);
  const int framebuffer_height = static_cast<int>(draw_data->DisplaySize.y * scale.y);
  if (framebuffer_width <= 0 || framebuffer_height <= 0) return;
  SetUpState(draw_data, framebuffer_width, framebuffer_height);

  const ImVec2 origin = draw_data->DisplayPos;
  constexpr GLenum kIndexType = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
  for (int list = 0; list < draw_data->CmdListsCount; ++list) {
    const ImDrawList* commands = draw_data->CmdLists[list];
    Upload(GL_ARRAY_BUFFER, commands->VtxBuffer.Data,
           static_cast<std::size_t>(commands->VtxBuffer.Size) * sizeof(ImDrawVert),
           &vertex_capacity_);
    Upload(GL_ELEMENT_ARRAY_BUFFER, commands->IdxBuffer.Data,
           static_cast<std::size_t>(commands->IdxBuffer.Size) * sizeof(ImDrawIdx),
           &index_capacity_);
    for (int i = 0; i < commands->CmdBuffer.Size; ++i) {
      const ImDrawCmd& command = commands->CmdBuffer[i];
      if (command.UserCallback != nullptr) {
        if (command.UserCallback == ImDrawCallback_ResetRenderState) {
          SetUpState(draw_data, framebuffer_width, framebuffer_height);
        } else {
          command.UserCallback(commands, &command);
        }
        continue;
      }
      // Clip rectangle in framebuffer pixels; GL's scissor origin is the bottom left.
      const float min_x = (command.ClipRect.x - origin.x) * scale.x;
      const float min_y = (command.ClipRect.y - origin.y) * scale.y;
      const float max_x = (command.ClipRect.z - origin.x) * scale.x;
      const float max_y = (command.ClipRect.w - origin.y) * scale.y;
      if (max_x <= min_x || max_y <= min_y) continue;
      glScissor(static_cast<GLint>(min_x), static_cast<GLint>(framebuffer_height - max_y),
                static_cast<GLsizei>(max_x - min_x), static_cast<GLsizei>(max_y - min_y));
      glBindTexture(GL_TEXTURE_2D,
                    static_cast<GLuint>(reinterpret_cast<std::intptr_t>(command.TextureId)));
      // No base vertex in WebGL2: without ImGuiBackendFlags_RendererHasVtxOffset ImGui keeps
      // VtxOffset at 0 (it splits draw lists at 64k vertices instead).
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(command.ElemCount), kIndexType,
                     reinterpret_cast<void*>(command.IdxOffset * sizeof(ImDrawIdx)));
    }
  }

  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace md5stage::render
