#include "render/line_renderer.h"

#include <cstddef>

#include "render/gl.h"
#include "render/shader_program.h"
#include "render/view_block.h"

namespace md5stage::render {
namespace {

using viewer::LineVertex;

constexpr const char* kVertexShader = "#version 300 es\n" MD5STAGE_VIEW_BLOCK_GLSL R"(
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 2) in float a_view;  // the vertex's view in u_views
out vec4 v_color;
flat out highp vec4 v_rect;
void main() {
  View view = u_views[int(a_view)];
  v_color = a_color;
  v_rect = view.rect;
  gl_Position = PlaceInView(view, view.view_projection * vec4(a_position, 1.0));
})";

constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
in vec4 v_color;
flat in highp vec4 v_rect;
out vec4 o_color;
void main() {
  if (gl_FragCoord.x < v_rect.x || gl_FragCoord.y < v_rect.y || gl_FragCoord.x >= v_rect.z ||
      gl_FragCoord.y >= v_rect.w) {
    discard;  // a neighbouring view's pixel
  }
  o_color = v_color;
})";

// One kind of primitive, all views' vertices back to back, with each vertex's view.
struct Kind {
  std::vector<LineVertex> vertices;
  std::vector<uint8_t> views;
  void Add(int view, const std::vector<LineVertex>& more) {
    vertices.insert(vertices.end(), more.begin(), more.end());
    views.resize(views.size() + more.size(), static_cast<uint8_t>(view));
  }
  void Clear() {
    vertices.clear();
    views.clear();
  }
};

}  // namespace

struct LineRenderer::Impl {
  ShaderProgram program;
  GLuint vao = 0;
  GLuint vbo = 0;       // the frame's vertices: every view's shapes, then tested lines, then on top
  GLuint view_vbo = 0;  // their views, one byte each
  size_t capacity = 0;  // vertices both buffers hold
  Kind triangles, tested, on_top;
  std::vector<LineVertex> frame;
  std::vector<uint8_t> frame_views;
  int count_triangles = 0, count_tested = 0, count_on_top = 0;  // as uploaded
};

LineRenderer::LineRenderer() : impl_(std::make_unique<Impl>()) {}

LineRenderer::~LineRenderer() {
  if (impl_->vbo) glDeleteBuffers(1, &impl_->vbo);
  if (impl_->view_vbo) glDeleteBuffers(1, &impl_->view_vbo);
  if (impl_->vao) glDeleteVertexArrays(1, &impl_->vao);
}

bool LineRenderer::Init(std::string* error) {
  Impl& s = *impl_;
  if (!s.program.Build(kVertexShader, kFragmentShader, error)) return false;
  BindViewBlock(s.program.id());
  glGenVertexArrays(1, &s.vao);
  glGenBuffers(1, &s.vbo);
  glGenBuffers(1, &s.view_vbo);
  glBindVertexArray(s.vao);
  glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
  glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_UNSIGNED_BYTE, GL_FALSE, 1, nullptr);
  glBindVertexArray(0);
  return true;
}

void LineRenderer::BeginFrame() {
  impl_->triangles.Clear();
  impl_->tested.Clear();
  impl_->on_top.Clear();
}

void LineRenderer::Add(int view, const std::vector<LineVertex>& triangles,
                       const std::vector<LineVertex>& tested,
                       const std::vector<LineVertex>& on_top) {
  impl_->triangles.Add(view, triangles);
  impl_->tested.Add(view, tested);
  impl_->on_top.Add(view, on_top);
}

void LineRenderer::Upload() {
  Impl& s = *impl_;
  s.count_triangles = static_cast<int>(s.triangles.vertices.size());
  s.count_tested = static_cast<int>(s.tested.vertices.size());
  s.count_on_top = static_cast<int>(s.on_top.vertices.size());
  const size_t count = static_cast<size_t>(s.count_triangles + s.count_tested + s.count_on_top);
  if (count == 0) return;
  s.frame.clear();
  s.frame_views.clear();
  for (const Kind* kind : {&s.triangles, &s.tested, &s.on_top}) {
    s.frame.insert(s.frame.end(), kind->vertices.begin(), kind->vertices.end());
    s.frame_views.insert(s.frame_views.end(), kind->views.begin(), kind->views.end());
  }
  if (count > s.capacity) {
    s.capacity = count * 2;
    glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.capacity * sizeof(LineVertex)), nullptr,
                 GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.capacity), nullptr, GL_DYNAMIC_DRAW);
  }
  glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count * sizeof(LineVertex)),
                  s.frame.data());
  glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count), s.frame_views.data());
}

void LineRenderer::DrawViews() {
  Impl& s = *impl_;
  if (s.count_triangles + s.count_tested + s.count_on_top == 0) return;
  s.program.Use();
  glBindVertexArray(s.vao);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
  // Filled shapes lie flat just above the ground, seen from either side; they write depth, so
  // the grid's depth-tested lines under a shape are hidden and its outline (drawn higher) is not.
  if (s.count_triangles > 0) glDrawArrays(GL_TRIANGLES, 0, s.count_triangles);
  if (s.count_tested > 0) glDrawArrays(GL_LINES, s.count_triangles, s.count_tested);
  if (s.count_on_top > 0) {
    glDisable(GL_DEPTH_TEST);
    glDrawArrays(GL_LINES, s.count_triangles + s.count_tested, s.count_on_top);
    glEnable(GL_DEPTH_TEST);
  }
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace md5stage::render
