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
  std::vector<LineVertex> frame;  // every view's three lists back to back: one upload a frame

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
  BeginFrame();
  const Ranges ranges = Add(triangles, tested, on_top);
  Upload();
  DrawRanges(view_projection, ranges);
}

void LineRenderer::BeginFrame() { impl_->frame.clear(); }

LineRenderer::Ranges LineRenderer::Add(const std::vector<LineVertex>& triangles,
                                       const std::vector<LineVertex>& tested,
                                       const std::vector<LineVertex>& on_top) {
  std::vector<LineVertex>& frame = impl_->frame;
  Ranges ranges;
  ranges.first_triangle = static_cast<int>(frame.size());
  ranges.triangles = static_cast<int>(triangles.size());
  frame.insert(frame.end(), triangles.begin(), triangles.end());
  ranges.first_tested = static_cast<int>(frame.size());
  ranges.tested = static_cast<int>(tested.size());
  frame.insert(frame.end(), tested.begin(), tested.end());
  ranges.first_on_top = static_cast<int>(frame.size());
  ranges.on_top = static_cast<int>(on_top.size());
  frame.insert(frame.end(), on_top.begin(), on_top.end());
  return ranges;
}

void LineRenderer::Upload() {
  if (!impl_->frame.empty()) impl_->Upload(impl_->frame);
}

void LineRenderer::DrawRanges(const glm::mat4& view_projection, const Ranges& ranges) {
  if (ranges.triangles + ranges.tested + ranges.on_top == 0) return;
  BeginRanges();
  DrawRangesInView(view_projection, ranges);
  EndRanges();
}

void LineRenderer::BeginRanges() {
  impl_->program.Use();
  glBindVertexArray(impl_->vao);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
}

void LineRenderer::EndRanges() {
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

void LineRenderer::DrawRangesInView(const glm::mat4& view_projection, const Ranges& ranges) {
  if (ranges.triangles + ranges.tested + ranges.on_top == 0) return;
  glUniformMatrix4fv(impl_->view_projection_location, 1, GL_FALSE, &view_projection[0][0]);
  // Filled shapes lie flat just above the ground, seen from either side; they write depth, so
  // the grid's depth-tested lines under a shape are hidden and its outline (drawn higher) is not.
  if (ranges.triangles > 0) glDrawArrays(GL_TRIANGLES, ranges.first_triangle, ranges.triangles);
  if (ranges.tested > 0) glDrawArrays(GL_LINES, ranges.first_tested, ranges.tested);
  if (ranges.on_top > 0) {
    glDisable(GL_DEPTH_TEST);
    glDrawArrays(GL_LINES, ranges.first_on_top, ranges.on_top);
    glEnable(GL_DEPTH_TEST);
  }
}

}  // namespace md5stage::render
