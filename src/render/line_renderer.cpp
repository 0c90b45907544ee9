#include "render/line_renderer.h"

#include <cmath>

#include "render/gl.h"
#include "render/shader_program.h"

namespace md5stage::render {
namespace {

struct LineVertex {
  glm::vec3 position;
  Rgba8 color;
};

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
  std::vector<LineVertex> tested;
  std::vector<LineVertex> on_top;

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

void LineRenderer::Clear() {
  impl_->tested.clear();
  impl_->on_top.clear();
}

void LineRenderer::AddLine(const glm::vec3& a, const glm::vec3& b, Rgba8 color, Depth depth) {
  auto& target = depth == Depth::kTested ? impl_->tested : impl_->on_top;
  target.push_back({a, color});
  target.push_back({b, color});
}

void LineRenderer::AddStrip(const std::vector<glm::vec3>& points, Rgba8 color, Depth depth) {
  for (size_t i = 1; i < points.size(); ++i) AddLine(points[i - 1], points[i], color, depth);
}

size_t LineRenderer::vertex_count() const { return impl_->tested.size() + impl_->on_top.size(); }

void LineRenderer::Draw(const glm::mat4& view_projection) {
  impl_->program.Use();
  glUniformMatrix4fv(impl_->view_projection_location, 1, GL_FALSE, &view_projection[0][0]);
  glBindVertexArray(impl_->vao);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!impl_->tested.empty()) {
    glEnable(GL_DEPTH_TEST);
    impl_->Upload(impl_->tested);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(impl_->tested.size()));
  }
  if (!impl_->on_top.empty()) {
    glDisable(GL_DEPTH_TEST);
    impl_->Upload(impl_->on_top);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(impl_->on_top.size()));
    glEnable(GL_DEPTH_TEST);
  }
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

void AddGroundGrid(LineRenderer& lines, float half_extent, float spacing) {
  const Rgba8 minor{90, 96, 110, 110};
  const Rgba8 major{130, 138, 155, 190};
  const int count = static_cast<int>(std::floor(half_extent / spacing));
  for (int i = -count; i <= count; ++i) {
    if (i == 0) continue;  // the axes are drawn there
    const float v = static_cast<float>(i) * spacing;
    const Rgba8 color = (i % 10 == 0) ? major : minor;
    lines.AddLine({v, -half_extent, 0}, {v, half_extent, 0}, color);
    lines.AddLine({-half_extent, v, 0}, {half_extent, v, 0}, color);
  }
  const Rgba8 axis_x{230, 70, 70, 255};
  const Rgba8 axis_y{80, 200, 90, 255};
  const Rgba8 axis_z{80, 130, 240, 255};
  lines.AddLine({-half_extent, 0, 0}, {0, 0, 0}, {150, 70, 70, 200});
  lines.AddLine({0, 0, 0}, {half_extent, 0, 0}, axis_x);
  lines.AddLine({0, -half_extent, 0}, {0, 0, 0}, {70, 130, 80, 200});
  lines.AddLine({0, 0, 0}, {0, half_extent, 0}, axis_y);
  lines.AddLine({0, 0, 0}, {0, 0, 10.0f * spacing}, axis_z);
}

}  // namespace md5stage::render
