#include "render/line_renderer.h"

#include <cmath>

#include "render/gl.h"
#include "render/shader_program.h"

namespace md5stage::render {
namespace {

using viewer::LineVertex;

constexpr const char* kVertexShader = R"(#version 300 es
uniform mat4 u_view_projection;
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
})";

constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color; })";

}  // namespace

struct LineRenderer::Impl {
  ShaderProgram program;
  GLint view_projection_location = -1;
  GLuint vao = 0;
  GLuint vbo = 0;
  size_t capacity = 0;
  std::vector<LineVertex> frame;  // the three lists back to back: one upload a draw, not three

  void Upload(const std::vector<LineVertex>& vertices) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const size_t bytes = vertices.size() * sizeof(LineVertex);
    if (bytes > capacity) {
      capacity = bytes * 2;
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity), nullptr, GL_DYNAMIC_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), vertices.data());
  }
};

LineRenderer::LineRenderer() : impl_(std::make_unique<Impl>()) {}

LineRenderer::~LineRenderer() {
  if (impl_->vbo) glDeleteBuffers(1, &impl_->vbo);
  if (impl_->vao) glDeleteVertexArrays(1, &impl_->vao);
}

bool LineRenderer::Init(std::string* error) {
  if (!impl_->program.Build(kVertexShader, kFragmentShader, error)) return false;
  impl_->view_projection_location = impl_->program.Uniform("u_view_projection");
  glGenVertexArrays(1, &impl_->vao);
  glGenBuffers(1, &impl_->vbo);
  glBindVertexArray(impl_->vao);
  glBindBuffer(GL_ARRAY_BUFFER, impl_->vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
  glBindVertexArray(0);
  return true;
}

void LineRenderer::Draw(const glm::mat4& view_projection, const std::vector<LineVertex>& triangles,
                        const std::vector<LineVertex>& tested,
                        const std::vector<LineVertex>& on_top) {
  impl_->program.Use();
  glUniformMatrix4fv(impl_->view_projection_location, 1, GL_FALSE, &view_projection[0][0]);
  glBindVertexArray(impl_->vao);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  std::vector<LineVertex>& frame = impl_->frame;
  frame.clear();
  frame.insert(frame.end(), triangles.begin(), triangles.end());
  frame.insert(frame.end(), tested.begin(), tested.end());
  frame.insert(frame.end(), on_top.begin(), on_top.end());
  if (!frame.empty()) impl_->Upload(frame);
  const auto first_tested = static_cast<GLint>(triangles.size());
  const auto first_on_top = static_cast<GLint>(triangles.size() + tested.size());
  if (!triangles.empty()) {
    // Flat just above the ground, seen from either side; they write depth, so the grid's
    // depth-tested lines under a shape are hidden and its outline (drawn higher) is not.
    glEnable(GL_DEPTH_TEST);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(triangles.size()));
  }
  if (!tested.empty()) {
    glEnable(GL_DEPTH_TEST);
    glDrawArrays(GL_LINES, first_tested, static_cast<GLsizei>(tested.size()));
  }
  if (!on_top.empty()) {
    glDisable(GL_DEPTH_TEST);
    glDrawArrays(GL_LINES, first_on_top, static_cast<GLsizei>(on_top.size()));
    glEnable(GL_DEPTH_TEST);
  }
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace md5stage::render
