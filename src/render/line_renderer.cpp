#include "render/line_renderer.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "render/gl.h"
#include "render/shader_program.h"
#include "render/view_block.h"

namespace md5stage::render {
namespace {

using viewer::LineDepth;
using viewer::LineShape;
using viewer::LineVertex;
using viewer::ShapeInstance;

// Plain lines take a_place, a_tint and a_span from the generic values (no move, white, placed
// as they are); the shapes' vertex array takes them, and the view, per instance. The placing is
// viewer::PlaceShapeVertex's.
constexpr const char* kVertexShader = "#version 300 es\n" MD5STAGE_VIEW_BLOCK_GLSL R"(
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 2) in float a_view;  // the vertex's (or shape's) view in u_views
layout(location = 3) in vec4 a_place;  // xyz the shape's centre (a segment's start), w its scale
layout(location = 4) in vec4 a_tint;
layout(location = 5) in vec4 a_span;   // xyz ShapeInstance::span, w 1 for an arc, 2 a segment
out vec4 v_color;
flat out highp vec4 v_rect;
void main() {
  View view = u_views[int(a_view)];
  v_color = a_color * a_tint;
  v_rect = view.rect;
  vec3 world;
  if (a_span.w == 1.0) {
    float angle = a_span.x + a_position.x * a_span.y;
    world = a_place.xyz + vec3(cos(angle), sin(angle), 0.0) * a_place.w;
  } else if (a_span.w == 2.0) {
    world = a_place.xyz + a_position.x * a_span.xyz;
  } else {
    world = a_place.xyz + a_position * a_place.w;
  }
  gl_Position = PlaceInView(view.placement, view.view_projection * vec4(world, 1.0));
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

static_assert(std::is_trivially_copyable_v<LineVertex>, "copied with memcpy");

// One kind of primitive: each view's vertices, the caller's until Upload() copies them once.
struct Kind {
  struct Part {
    int view;
    const std::vector<LineVertex>* vertices;
  };
  std::vector<Part> parts;
  size_t count = 0;
  void Add(int view, const std::vector<LineVertex>& vertices) {
    if (vertices.empty()) return;
    parts.push_back({view, &vertices});
    count += vertices.size();
  }
  void Clear() {
    parts.clear();
    count = 0;
  }
};

// One shape instance as the shapes' vertex array reads it.
struct GpuShape {
  glm::vec4 place{0.0f, 0.0f, 0.0f, 1.0f};
  glm::vec4 span{0.0f};
  viewer::Rgba8 tint{255, 255, 255, 255};
  float view = 0.0f;
};

// The shape groups, in drawing order: the shapes (grid, circle, arc, segment) tested, then on
// top, as kLineShapes * depth + shape.
constexpr int kShapeGroups = 2 * viewer::kLineShapes;
int GroupOf(const ShapeInstance& shape) {
  return viewer::kLineShapes * (shape.depth == LineDepth::kOnTop ? 1 : 0) +
         static_cast<int>(shape.shape);
}
float SpanKind(LineShape shape) {
  return shape == LineShape::kArc ? 1.0f : shape == LineShape::kSegment ? 2.0f : 0.0f;
}

// Attributes 0 (position) and 1 (colour) of the bound vertex array from LineVertex records in
// the bound array buffer.
void ReadLineVertices() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
}

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

  GLuint shape_vao = 0;
  GLuint shape_vbo = 0;        // each LineShape's own lines, in its order: made once
  GLuint shape_instances = 0;  // the frame's GpuShapes, by group
  size_t shape_capacity = 0;   // instances the buffer holds
  int first_vertex[viewer::kLineShapes] = {}, vertex_count[viewer::kLineShapes] = {};
  std::vector<GpuShape> groups[kShapeGroups];
  std::vector<GpuShape> shape_frame;
  int group_first[kShapeGroups] = {}, group_count[kShapeGroups] = {};  // as uploaded

  void DrawShapes(int group) {
    if (group_count[group] == 0) return;
    const size_t first = static_cast<size_t>(group_first[group]) * sizeof(GpuShape);
    glBindVertexArray(shape_vao);
    glBindBuffer(GL_ARRAY_BUFFER, shape_instances);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(GpuShape),
                          reinterpret_cast<void*>(first + offsetof(GpuShape, view)));
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, sizeof(GpuShape),
                          reinterpret_cast<void*>(first + offsetof(GpuShape, place)));
    glVertexAttribPointer(4, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(GpuShape),
                          reinterpret_cast<void*>(first + offsetof(GpuShape, tint)));
    glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, sizeof(GpuShape),
                          reinterpret_cast<void*>(first + offsetof(GpuShape, span)));
    const int shape = group % viewer::kLineShapes;
    glDrawArraysInstanced(GL_LINES, first_vertex[shape], vertex_count[shape], group_count[group]);
    glBindVertexArray(vao);
  }
};

LineRenderer::LineRenderer() : impl_(std::make_unique<Impl>()) {}

LineRenderer::~LineRenderer() {
  for (GLuint buffer : {impl_->vbo, impl_->view_vbo, impl_->shape_vbo, impl_->shape_instances}) {
    if (buffer) glDeleteBuffers(1, &buffer);
  }
  if (impl_->vao) glDeleteVertexArrays(1, &impl_->vao);
  if (impl_->shape_vao) glDeleteVertexArrays(1, &impl_->shape_vao);
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
  ReadLineVertices();
  glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_UNSIGNED_BYTE, GL_FALSE, 1, nullptr);

  std::vector<LineVertex> shapes;
  using LinesOf = void (*)(std::vector<LineVertex>*);
  const LinesOf lines_of[viewer::kLineShapes] = {viewer::GroundGridLines, viewer::UnitCircleLines,
                                                 viewer::UnitArcLines, viewer::UnitSegmentLines};
  for (int shape = 0; shape < viewer::kLineShapes; ++shape) {
    s.first_vertex[shape] = static_cast<int>(shapes.size());
    lines_of[shape](&shapes);
    s.vertex_count[shape] = static_cast<int>(shapes.size()) - s.first_vertex[shape];
  }
  glGenVertexArrays(1, &s.shape_vao);
  glGenBuffers(1, &s.shape_vbo);
  glGenBuffers(1, &s.shape_instances);
  glBindVertexArray(s.shape_vao);
  glBindBuffer(GL_ARRAY_BUFFER, s.shape_vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(shapes.size() * sizeof(LineVertex)),
               shapes.data(), GL_STATIC_DRAW);
  ReadLineVertices();
  glBindBuffer(GL_ARRAY_BUFFER, s.shape_instances);
  for (GLuint attribute : {2u, 3u, 4u, 5u}) {
    glEnableVertexAttribArray(attribute);
    glVertexAttribDivisor(attribute, 1);
  }
  glBindVertexArray(0);
  return true;
}

void LineRenderer::BeginFrame() {
  Impl& s = *impl_;
  s.triangles.Clear();
  s.tested.Clear();
  s.on_top.Clear();
  for (std::vector<GpuShape>& group : s.groups) group.clear();
}

void LineRenderer::Add(int view, const std::vector<LineVertex>& triangles,
                       const std::vector<LineVertex>& tested, const std::vector<LineVertex>& on_top,
                       const std::vector<ShapeInstance>& shapes) {
  Impl& s = *impl_;
  s.triangles.Add(view, triangles);
  s.tested.Add(view, tested);
  s.on_top.Add(view, on_top);
  for (const ShapeInstance& shape : shapes) {
    GpuShape gpu;
    gpu.place = glm::vec4(shape.centre, shape.scale);
    gpu.span = glm::vec4(shape.span, SpanKind(shape.shape));
    gpu.tint = shape.color;
    gpu.view = static_cast<float>(view);
    s.groups[GroupOf(shape)].push_back(gpu);
  }
}

void LineRenderer::Upload() {
  Impl& s = *impl_;
  s.count_triangles = static_cast<int>(s.triangles.count);
  s.count_tested = static_cast<int>(s.tested.count);
  s.count_on_top = static_cast<int>(s.on_top.count);
  const size_t count = static_cast<size_t>(s.count_triangles + s.count_tested + s.count_on_top);
  if (count > 0) {
    s.frame.resize(count);
    s.frame_views.resize(count);
    size_t at = 0;
    for (const Kind* kind : {&s.triangles, &s.tested, &s.on_top}) {
      for (const Kind::Part& part : kind->parts) {
        std::memcpy(&s.frame[at], part.vertices->data(),
                    part.vertices->size() * sizeof(LineVertex));
        std::memset(&s.frame_views[at], part.view, part.vertices->size());
        at += part.vertices->size();
      }
    }
    if (count > s.capacity) {
      s.capacity = count * 2;
      glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.capacity * sizeof(LineVertex)),
                   nullptr, GL_DYNAMIC_DRAW);
      glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.capacity), nullptr, GL_DYNAMIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count * sizeof(LineVertex)),
                    s.frame.data());
    glBindBuffer(GL_ARRAY_BUFFER, s.view_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count), s.frame_views.data());
  }
  s.shape_frame.clear();
  for (int g = 0; g < kShapeGroups; ++g) {
    s.group_first[g] = static_cast<int>(s.shape_frame.size());
    s.group_count[g] = static_cast<int>(s.groups[g].size());
    s.shape_frame.insert(s.shape_frame.end(), s.groups[g].begin(), s.groups[g].end());
  }
  if (!s.shape_frame.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, s.shape_instances);
    if (s.shape_frame.size() > s.shape_capacity) {
      s.shape_capacity = s.shape_frame.size() * 2;
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.shape_capacity * sizeof(GpuShape)),
                   nullptr, GL_DYNAMIC_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0,
                    static_cast<GLsizeiptr>(s.shape_frame.size() * sizeof(GpuShape)),
                    s.shape_frame.data());
  }
}

void LineRenderer::DrawViews() {
  Impl& s = *impl_;
  if (s.count_triangles + s.count_tested + s.count_on_top == 0 && s.shape_frame.empty()) return;
  s.program.Use();
  glBindVertexArray(s.vao);
  // Plain lines are where their vertices say, in their own colours.
  glVertexAttrib4f(3, 0.0f, 0.0f, 0.0f, 1.0f);
  glVertexAttrib4f(4, 1.0f, 1.0f, 1.0f, 1.0f);
  glVertexAttrib4f(5, 0.0f, 0.0f, 0.0f, 0.0f);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
  // Filled shapes lie flat just above the ground, seen from either side; they write depth, so
  // the grid's depth-tested lines under a shape are hidden and its outline (drawn higher) is not.
  if (s.count_triangles > 0) glDrawArrays(GL_TRIANGLES, 0, s.count_triangles);
  for (int group = 0; group < viewer::kLineShapes; ++group) s.DrawShapes(group);
  if (s.count_tested > 0) glDrawArrays(GL_LINES, s.count_triangles, s.count_tested);
  glDisable(GL_DEPTH_TEST);
  for (int group = viewer::kLineShapes; group < kShapeGroups; ++group) s.DrawShapes(group);
  if (s.count_on_top > 0) {
    glDrawArrays(GL_LINES, s.count_triangles + s.count_tested, s.count_on_top);
  }
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace md5stage::render
