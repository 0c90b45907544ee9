#include "render/skinned_mesh_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "render/gl.h"
#include "render/shader_program.h"

// WebGL2's getBufferSubData, which GLES 3.0's header does not declare; Emscripten implements it.
extern "C" void glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data);

namespace md5stage::render {
namespace {

// The palette texture holds 3 RGBA32F texels per joint (the rows of the 3x4 matrix); one texture
// row holds kJointsPerRow joints, so a joint's texels never straddle two rows.
constexpr int kJointsPerRow = 1024;
constexpr int kPaletteWidth = kJointsPerRow * 3;

constexpr const char* kVertexShader =
    "#version 300 es\n"
    "precision highp float;\n"
    "precision highp int;\n"
    "precision highp sampler2D;\n" MD5STAGE_VIEW_BLOCK_GLSL R"(
uniform sampler2D u_palette;
uniform int u_base;
uniform int u_joint_count;
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints;
layout(location = 4) in vec4 a_weights;
layout(location = 5) in vec4 a_tint;
layout(location = 6) in vec4 a_tangent;
layout(location = 7) in float a_view;  // the instance's view in u_views
out vec3 v_normal;
out vec4 v_tangent;
out vec2 v_uv;
out vec4 v_tint;
out vec3 v_world;
flat out int v_view;  // the fragments read their view's rectangle, eye and light themselves

mat4 JointMatrix(uint joint) {
  int index = u_base + gl_InstanceID * u_joint_count + int(joint);
  ivec2 texel = ivec2((index % 1024) * 3, index / 1024);
  vec4 r0 = texelFetch(u_palette, texel, 0);
  vec4 r1 = texelFetch(u_palette, texel + ivec2(1, 0), 0);
  vec4 r2 = texelFetch(u_palette, texel + ivec2(2, 0), 0);
  return mat4(vec4(r0.x, r1.x, r2.x, 0.0), vec4(r0.y, r1.y, r2.y, 0.0),
              vec4(r0.z, r1.z, r2.z, 0.0), vec4(r0.w, r1.w, r2.w, 1.0));
}

void main() {
  mat4 skin = JointMatrix(a_joints.x) * a_weights.x + JointMatrix(a_joints.y) * a_weights.y +
              JointMatrix(a_joints.z) * a_weights.z + JointMatrix(a_joints.w) * a_weights.w;
  vec4 world = skin * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = mat3(skin) * a_normal;
  v_tangent = vec4(mat3(skin) * a_tangent.xyz, a_tangent.w);
  v_uv = a_uv;
  v_tint = a_tint;
  // One varying rather than the view's three vectors: a CPU rasterizer pays per triangle for each.
  v_view = int(a_view);
  gl_Position = PlaceInView(u_views[v_view].placement, u_views[v_view].view_projection * world);
})";

// Diffuse x (ambient + N.L) + Blinn-Phong specular x the specular map, with N from the
// tangent-space normal map: n = T * x + B * y + N * z, B = w * cross(N, T) the direction of
// increasing v (Doom 3's interaction shader; see TangentJob). No normal map: the vertex normal;
// no specular map: no highlight.
constexpr const char* kFragmentShader =
    "#version 300 es\n"
    "precision highp float;\n" MD5STAGE_VIEW_BLOCK_GLSL R"(
precision mediump float;
uniform sampler2D u_diffuse;
uniform sampler2D u_normal_map;
uniform sampler2D u_specular_map;
uniform bool u_has_texture;
uniform bool u_has_normal_map;
uniform bool u_has_specular_map;
uniform bool u_wire;
in vec3 v_normal;
in vec4 v_tangent;
in vec2 v_uv;
in vec4 v_tint;
in vec3 v_world;
flat in int v_view;
out vec4 o_color;
void main() {
  highp vec4 rect = u_views[v_view].rect;
  // Outside its view's rectangle: a neighbouring figure's pixels.
  if (gl_FragCoord.x < rect.x || gl_FragCoord.y < rect.y || gl_FragCoord.x >= rect.z ||
      gl_FragCoord.y >= rect.w) {
    discard;
  }
  if (u_wire) {
    o_color = vec4(0.95, 0.85, 0.35, 1.0);
    return;
  }
  vec3 base = u_has_texture ? texture(u_diffuse, v_uv).rgb : vec3(0.72, 0.70, 0.66);
  highp vec4 light = u_views[v_view].light;
  highp vec4 eye = u_views[v_view].eye;
  int flags = int(light.w);
  int channel = int(eye.w);  // 0 lit, 1 diffuse only, 2 normals, 3 specular
  bool normal_map = u_has_normal_map && (flags & 1) != 0;
  bool specular_map_on = u_has_specular_map && (flags & 2) != 0;
  vec3 n = normalize(v_normal);
  if (normal_map) {
    vec3 t = v_tangent.xyz - n * dot(n, v_tangent.xyz);
    if (dot(t, t) > 1e-12) {
      t = normalize(t);
      vec3 b = cross(n, t) * (v_tangent.w < 0.0 ? -1.0 : 1.0);
      vec3 m = texture(u_normal_map, v_uv).xyz * 2.0 - 1.0;
      vec3 mapped = t * m.x + b * m.y + n * m.z;
      if (dot(mapped, mapped) > 1e-8) n = normalize(mapped);
    }
  }
  vec3 l = normalize(light.xyz);
  float n_dot_l = dot(n, l);
  float sky = 0.5 + 0.5 * n.z;  // hemisphere ambient: brighter from above
  vec3 specular = vec3(0.0);
  vec3 specular_map = specular_map_on ? texture(u_specular_map, v_uv).rgb : vec3(0.0);
  if (specular_map_on && n_dot_l > 0.0) {
    vec3 h = normalize(l + normalize(eye.xyz - v_world));
    specular = specular_map * pow(max(dot(n, h), 0.0), 24.0);
  }
  vec3 lit = base * (0.25 + 0.2 * sky + 0.7 * max(n_dot_l, 0.0)) * v_tint.rgb + specular;
  if (channel == 1) lit = base * v_tint.rgb;
  if (channel == 2) lit = n * 0.5 + 0.5;
  if (channel == 3) lit = specular_map;
  o_color = vec4(lit, 1.0);
})";

constexpr const char* kCaptureFragmentShader = R"(#version 300 es
precision mediump float;
out vec4 o_color;
void main() { o_color = vec4(1.0); })";

struct GpuPart {
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  uint32_t first_edge = 0;
  uint32_t edge_count = 0;
};

struct GpuMesh {
  bool alive = false;
  GLuint vao = 0;
  GLuint vertex_buffer = 0;
  GLuint index_buffer = 0;
  GLuint edge_buffer = 0;
  int joint_count = 0;
  int vertex_count = 0;
  std::vector<GpuPart> parts;
  size_t bytes = 0;
};

// One instance of the frame: its view, its mesh, its parts' textures, its palette and tint.
struct Submission {
  int view = 0;
  size_t mesh = 0;
  const glm::mat4* palette = nullptr;              // the caller's, until Upload()
  const viewer::PartTextures* textures = nullptr;  // the caller's (one per part), until DrawViews()
  int texture_set = 0;  // which of the frame's distinct texture sets that is (grouping key)
  glm::vec4 tint{1.0f};
};

// What the instance buffer holds per instance: its tint and its view in the views' block.
struct GpuInstance {
  glm::vec4 tint{1.0f};
  float view = 0.0f;
  float unused[3] = {0.0f, 0.0f, 0.0f};  // 32 bytes: both attributes stay 16-byte aligned
};

// The instances of one mesh in all views that draw it alike (with or without its edges), after
// Upload(): consecutive in the palette texture (from joint `base_joint`) and in the instance
// buffer (from `first_instance`), so one instanced draw a part.
struct InstanceGroup {
  bool wire = false;
  size_t mesh = 0;
  int texture_set = 0;
  const viewer::PartTextures* textures = nullptr;
  int base_joint = 0;
  int first_instance = 0;
  int count = 0;
};

// What this frame last set, so a view repeats only what differs from the view before it; reset
// each frame, since other code (ImGui, the capture) binds textures between frames.
struct BoundState {
  GLuint textures[4] = {~0u, ~0u, ~0u, ~0u};
  int active_unit = -1;
  GLuint vao = ~0u;
  int joint_count = -1, has_texture = -1, has_normal_map = -1, has_specular_map = -1, wire = -1;
};

struct GpuTexture {
  bool alive = false;
  GLuint id = 0;
  size_t bytes = 0;
};

}  // namespace

struct SkinnedMeshRenderer::Impl {
  ShaderProgram program;
  ShaderProgram capture_program;
  GLint u_palette = -1, u_base = -1, u_joint_count = -1;
  GLint u_diffuse = -1, u_has_texture = -1, u_wire = -1;
  GLint u_normal_map = -1, u_specular_map = -1, u_has_normal_map = -1, u_has_specular_map = -1;
  GLuint palette_texture = 0;
  int palette_rows = 0;
  GLuint instance_buffer = 0;
  size_t instance_capacity = 0;
  GLuint view_buffer = 0;       // the views' block, kMaxViewsPerDraw views, at kViewBlockBinding
  std::vector<GpuView> views;   // this frame's
  std::vector<char> view_wire;  // per view: its instances' edges drawn too
  std::vector<GpuMesh> meshes;
  std::vector<GpuTexture> textures;
  std::vector<Submission> submissions;
  // This frame's distinct part texture sets (by their handles, for each mesh): instances of one
  // mesh under the same textures share a draw, whichever stage they come from.
  std::vector<std::pair<size_t, const viewer::PartTextures*>> texture_sets;

  // The index of the mesh's texture set equal to `textures` (a new one when none is).
  int TextureSet(size_t mesh, const viewer::PartTextures* textures) {
    const size_t parts = meshes[mesh].parts.size();
    for (size_t i = 0; i < texture_sets.size(); ++i) {
      const auto& [set_mesh, set] = texture_sets[i];
      if (set_mesh != mesh) continue;
      if (set == textures) return static_cast<int>(i);
      if (set == nullptr || textures == nullptr) continue;
      bool same = true;
      for (size_t p = 0; p < parts && same; ++p) {
        same = set[p].diffuse == textures[p].diffuse && set[p].normal == textures[p].normal &&
               set[p].specular == textures[p].specular;
      }
      if (same) return static_cast<int>(i);
    }
    texture_sets.emplace_back(mesh, textures);
    return static_cast<int>(texture_sets.size()) - 1;
  }
  std::vector<glm::vec4> ordered;      // Upload's scratch: the palette by group
  std::vector<GpuInstance> instances;  // Upload's scratch: tints and views in the same order
  std::vector<InstanceGroup> groups;   // without edges first, then by mesh
  BoundState bound;

  void BindTexture(int unit, GLuint texture) {
    if (bound.textures[unit] == texture) return;
    if (bound.active_unit != unit) {
      glActiveTexture(static_cast<GLenum>(GL_TEXTURE0 + unit));
      bound.active_unit = unit;
    }
    glBindTexture(GL_TEXTURE_2D, texture);
    bound.textures[unit] = texture;
  }
  void SetInt(GLint location, int value, int* last) {
    if (*last == value) return;
    glUniform1i(location, value);
    *last = value;
  }

  // Uploads `joints` joints' texels (3 each, kJointsPerRow to a row) to the palette texture,
  // growing it as needed. Only the texels in use move: a figure's few characters fill a tenth
  // of one row, and a whole row is 48 KB a frame.
  void UploadPalette(const glm::vec4* texels, int joints) {
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, palette_texture);
    const int rows = std::max(1, (joints + kJointsPerRow - 1) / kJointsPerRow);
    if (rows > palette_rows) {
      palette_rows = rows;
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, kPaletteWidth, rows, 0, GL_RGBA, GL_FLOAT,
                   nullptr);
    }
    const int full_rows = joints / kJointsPerRow;
    if (full_rows > 0) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kPaletteWidth, full_rows, GL_RGBA, GL_FLOAT, texels);
    }
    const int rest = (joints - full_rows * kJointsPerRow) * 3;
    if (rest > 0) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, full_rows, rest, 1, GL_RGBA, GL_FLOAT,
                      texels + static_cast<size_t>(full_rows) * kPaletteWidth);
    }
  }
};

SkinnedMeshRenderer::SkinnedMeshRenderer() : impl_(std::make_unique<Impl>()) {}

SkinnedMeshRenderer::~SkinnedMeshRenderer() {
  for (size_t i = 0; i < impl_->meshes.size(); ++i)
    DestroyMesh(MeshHandle{static_cast<uint32_t>(i + 1)});
  for (size_t i = 0; i < impl_->textures.size(); ++i) {
    DestroyTexture(TextureHandle{static_cast<uint32_t>(i + 1)});
  }
  if (impl_->palette_texture) glDeleteTextures(1, &impl_->palette_texture);
  if (impl_->instance_buffer) glDeleteBuffers(1, &impl_->instance_buffer);
  if (impl_->view_buffer) glDeleteBuffers(1, &impl_->view_buffer);
}

bool SkinnedMeshRenderer::Init(std::string* error) {
  Impl& s = *impl_;
  if (!s.program.Build(kVertexShader, kFragmentShader, error)) return false;
  s.u_palette = s.program.Uniform("u_palette");
  s.u_base = s.program.Uniform("u_base");
  s.u_joint_count = s.program.Uniform("u_joint_count");
  s.u_diffuse = s.program.Uniform("u_diffuse");
  s.u_has_texture = s.program.Uniform("u_has_texture");
  s.u_wire = s.program.Uniform("u_wire");
  s.u_normal_map = s.program.Uniform("u_normal_map");
  s.u_specular_map = s.program.Uniform("u_specular_map");
  s.u_has_normal_map = s.program.Uniform("u_has_normal_map");
  s.u_has_specular_map = s.program.Uniform("u_has_specular_map");
  // The samplers' texture units never change: set once, not every frame.
  s.program.Use();
  glUniform1i(s.u_palette, 1);
  glUniform1i(s.u_diffuse, 0);
  glUniform1i(s.u_normal_map, 2);
  glUniform1i(s.u_specular_map, 3);
  BindViewBlock(s.program.id());
  glUseProgram(0);
  glGenTextures(1, &s.palette_texture);
  glBindTexture(GL_TEXTURE_2D, s.palette_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenBuffers(1, &s.instance_buffer);
  // The block's whole size from the start: WebGL refuses a draw whose bound block is short,
  // and the capture draws before any frame did.
  glGenBuffers(1, &s.view_buffer);
  glBindBuffer(GL_UNIFORM_BUFFER, s.view_buffer);
  const std::vector<GpuView> no_views(kMaxViewsPerDraw);
  glBufferData(GL_UNIFORM_BUFFER, static_cast<GLsizeiptr>(sizeof(GpuView) * no_views.size()),
               no_views.data(), GL_DYNAMIC_DRAW);
  glBindBufferBase(GL_UNIFORM_BUFFER, kViewBlockBinding, s.view_buffer);
  const char* varyings[] = {"v_world", "v_tangent"};
  if (!s.capture_program.BuildWithFeedback(kVertexShader, kCaptureFragmentShader, varyings, 2,
                                           error)) {
    return false;
  }
  BindViewBlock(s.capture_program.id());
  return true;
}

MeshHandle SkinnedMeshRenderer::CreateMesh(const viewer::MeshUpload& upload) {
  static const std::vector<anim::GpuVertex> kNoVertices;
  static const std::vector<uint32_t> kNoIndices;
  const std::vector<anim::GpuVertex>& vertices = upload.vertices ? *upload.vertices : kNoVertices;
  const std::vector<uint32_t>& indices = upload.indices ? *upload.indices : kNoIndices;
  GpuMesh mesh;
  mesh.alive = true;
  mesh.joint_count = upload.joint_count;
  mesh.vertex_count = static_cast<int>(vertices.size());
  std::vector<uint32_t> edges;
  edges.reserve(indices.size() * 2);
  for (const auto& part : upload.parts) {
    GpuPart gpu;
    gpu.first_index = part.first_index;
    gpu.index_count = part.index_count;
    gpu.first_edge = static_cast<uint32_t>(edges.size());
    for (uint32_t t = part.first_index; t + 2 < part.first_index + part.index_count + 0u; t += 3) {
      const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
      edges.insert(edges.end(), {a, b, b, c, c, a});
    }
    gpu.edge_count = static_cast<uint32_t>(edges.size()) - gpu.first_edge;
    mesh.parts.push_back(gpu);
  }
  glGenVertexArrays(1, &mesh.vao);
  glBindVertexArray(mesh.vao);
  glGenBuffers(1, &mesh.vertex_buffer);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vertex_buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(anim::GpuVertex)),
               vertices.data(), GL_STATIC_DRAW);
  const GLsizei stride = sizeof(anim::GpuVertex);
  auto offset = [](size_t bytes) { return reinterpret_cast<void*>(bytes); };
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(anim::GpuVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(anim::GpuVertex, normal)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, offset(offsetof(anim::GpuVertex, uv)));
  glEnableVertexAttribArray(3);
  glVertexAttribIPointer(3, 4, GL_UNSIGNED_SHORT, stride,
                         offset(offsetof(anim::GpuVertex, joints)));
  glEnableVertexAttribArray(4);
  glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(anim::GpuVertex, weights)));
  glEnableVertexAttribArray(6);
  glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(anim::GpuVertex, tangent)));
  // The per-instance tint and view come from the shared instance buffer, refilled each frame;
  // the binding lives in the VAO, so a draw only points them at its group.
  glBindBuffer(GL_ARRAY_BUFFER, impl_->instance_buffer);
  glEnableVertexAttribArray(5);
  glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
                        offset(offsetof(GpuInstance, tint)));
  glVertexAttribDivisor(5, 1);
  glEnableVertexAttribArray(7);
  glVertexAttribPointer(7, 1, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
                        offset(offsetof(GpuInstance, view)));
  glVertexAttribDivisor(7, 1);
  glGenBuffers(1, &mesh.index_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.index_buffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * 4), indices.data(),
               GL_STATIC_DRAW);
  glBindVertexArray(0);
  glGenBuffers(1, &mesh.edge_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.edge_buffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(edges.size() * 4), edges.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  mesh.bytes = vertices.size() * sizeof(anim::GpuVertex) + indices.size() * 4 + edges.size() * 4;
  for (size_t i = 0; i < impl_->meshes.size(); ++i) {
    if (!impl_->meshes[i].alive) {
      impl_->meshes[i] = std::move(mesh);
      return MeshHandle{static_cast<uint32_t>(i + 1)};
    }
  }
  impl_->meshes.push_back(std::move(mesh));
  return MeshHandle{static_cast<uint32_t>(impl_->meshes.size())};
}

void SkinnedMeshRenderer::DestroyMesh(MeshHandle handle) {
  if (!handle.valid() || handle.id > impl_->meshes.size()) return;
  GpuMesh& mesh = impl_->meshes[handle.id - 1];
  if (!mesh.alive) return;
  glDeleteVertexArrays(1, &mesh.vao);
  glDeleteBuffers(1, &mesh.vertex_buffer);
  glDeleteBuffers(1, &mesh.index_buffer);
  glDeleteBuffers(1, &mesh.edge_buffer);
  mesh = GpuMesh();
}

TextureHandle SkinnedMeshRenderer::CreateTexture(int width, int height, const uint8_t* rgba) {
  GpuTexture texture;
  texture.alive = true;
  texture.bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * 4 * 4 / 3;
  glGenTextures(1, &texture.id);
  // Made on unit 0, and the frame's record of bindings forgotten (names are reused once deleted).
  impl_->bound = BoundState{};
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture.id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  for (size_t i = 0; i < impl_->textures.size(); ++i) {
    if (!impl_->textures[i].alive) {
      impl_->textures[i] = texture;
      return TextureHandle{static_cast<uint32_t>(i + 1)};
    }
  }
  impl_->textures.push_back(texture);
  return TextureHandle{static_cast<uint32_t>(impl_->textures.size())};
}

void SkinnedMeshRenderer::DestroyTexture(TextureHandle handle) {
  impl_->bound = BoundState{};  // a deleted name is unbound, and may be handed out again
  if (!handle.valid() || handle.id > impl_->textures.size()) return;
  GpuTexture& texture = impl_->textures[handle.id - 1];
  if (!texture.alive) return;
  glDeleteTextures(1, &texture.id);
  texture = GpuTexture();  // a handle still named by a draw binds nothing (LiveTexture)
}

size_t SkinnedMeshRenderer::shared_bytes() const {
  size_t total = 0;
  for (const GpuMesh& mesh : impl_->meshes) total += mesh.alive ? mesh.bytes : 0;
  for (const GpuTexture& texture : impl_->textures) total += texture.alive ? texture.bytes : 0;
  return total;
}

void SkinnedMeshRenderer::BeginFrame() {
  impl_->submissions.clear();
  impl_->texture_sets.clear();
  impl_->groups.clear();
  impl_->views.clear();
  impl_->view_wire.clear();
  impl_->bound = BoundState{};
}

int SkinnedMeshRenderer::AddView(const glm::mat4& view_projection,
                                 const viewer::ViewPlacement& placement,
                                 const SkinnedDrawOptions& options) {
  Impl& s = *impl_;
  GpuView view;
  view.view_projection = view_projection;
  view.placement = glm::vec4(placement.scale, placement.offset);
  view.rect = placement.rect;
  // The eye is where the projection sends points to infinity: clip (0, 0, z, 0) taken back.
  const glm::vec4 eye = glm::inverse(view_projection) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  const glm::vec3 eye_position =
      std::abs(eye.w) > 1e-12f ? glm::vec3(eye) / eye.w : glm::vec3(0.0f, 0.0f, 1e6f);
  view.eye = glm::vec4(eye_position, static_cast<float>(options.channel));
  const int flags =
      (options.normal_maps ? kViewNormalMaps : 0) | (options.specular ? kViewSpecular : 0);
  view.light = glm::vec4(options.light_direction, static_cast<float>(flags));
  s.views.push_back(view);
  s.view_wire.push_back(options.wireframe ? 1 : 0);
  return static_cast<int>(s.views.size()) - 1;
}

void SkinnedMeshRenderer::Submit(MeshHandle handle, const glm::mat4* palette,
                                 const viewer::PartTextures* textures, const glm::vec4& tint) {
  Impl& s = *impl_;
  if (s.views.empty() || !handle.valid() || handle.id > s.meshes.size()) return;
  GpuMesh& mesh = s.meshes[handle.id - 1];
  if (!mesh.alive) return;
  Submission submission;
  submission.view = static_cast<int>(s.views.size()) - 1;
  submission.mesh = handle.id - 1;
  submission.palette = palette;
  submission.textures = textures;
  submission.texture_set = s.TextureSet(submission.mesh, textures);
  submission.tint = tint;
  s.submissions.push_back(submission);
}

void SkinnedMeshRenderer::Upload() {
  Impl& s = *impl_;
  instance_bytes_ = 0;
  s.groups.clear();
  if (!s.views.empty()) {
    glBindBuffer(GL_UNIFORM_BUFFER, s.view_buffer);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, static_cast<GLsizeiptr>(s.views.size() * sizeof(GpuView)),
                    s.views.data());
  }
  if (s.submissions.empty()) return;
  // Without edges first, then by mesh and texture set, keeping submission order (so view order)
  // within a group: each group is one draw a part, whatever the number of views.
  std::stable_sort(s.submissions.begin(), s.submissions.end(),
                   [&s](const Submission& a, const Submission& b) {
                     const char wire_a = s.view_wire[static_cast<size_t>(a.view)];
                     const char wire_b = s.view_wire[static_cast<size_t>(b.view)];
                     if (wire_a != wire_b) return wire_a < wire_b;
                     if (a.mesh != b.mesh) return a.mesh < b.mesh;
                     return a.texture_set < b.texture_set;
                   });
  s.ordered.clear();
  s.instances.clear();
  for (const Submission& submission : s.submissions) {
    const GpuMesh& mesh = s.meshes[submission.mesh];
    const bool wire = s.view_wire[static_cast<size_t>(submission.view)] != 0;
    if (s.groups.empty() || s.groups.back().wire != wire ||
        s.groups.back().mesh != submission.mesh ||
        s.groups.back().texture_set != submission.texture_set) {
      InstanceGroup group;
      group.wire = wire;
      group.mesh = submission.mesh;
      group.texture_set = submission.texture_set;
      group.textures = submission.textures;
      group.base_joint = static_cast<int>(s.ordered.size() / 3);
      group.first_instance = static_cast<int>(s.instances.size());
      s.groups.push_back(group);
    }
    ++s.groups.back().count;
    // The rows of each 3x4 joint matrix, as the shader's JointMatrix reads them.
    for (int j = 0; j < mesh.joint_count; ++j) {
      const glm::mat4& m = submission.palette[j];
      s.ordered.push_back(glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]));
      s.ordered.push_back(glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]));
      s.ordered.push_back(glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2]));
    }
    GpuInstance instance;
    instance.tint = submission.tint;
    instance.view = static_cast<float>(submission.view);
    s.instances.push_back(instance);
  }
  instance_bytes_ = s.ordered.size() * sizeof(glm::vec4);
  s.UploadPalette(s.ordered.data(), static_cast<int>(s.ordered.size() / 3));
  s.bound.textures[1] = s.palette_texture;
  s.bound.active_unit = 1;
  glBindBuffer(GL_ARRAY_BUFFER, s.instance_buffer);
  const size_t instance_bytes = s.instances.size() * sizeof(GpuInstance);
  if (instance_bytes > s.instance_capacity) {
    s.instance_capacity = instance_bytes * 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.instance_capacity), nullptr,
                 GL_DYNAMIC_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(instance_bytes), s.instances.data());
}

GLuint SkinnedMeshRenderer::LiveTexture(TextureHandle handle) const {
  if (!handle.valid() || handle.id > impl_->textures.size()) return 0;
  const GpuTexture& texture = impl_->textures[handle.id - 1];
  return texture.alive ? texture.id : 0;
}

void SkinnedMeshRenderer::DrawViews() {
  Impl& s = *impl_;
  draw_calls_ = 0;
  instances_drawn_ = 0;
  if (s.groups.empty()) return;
  s.program.Use();
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_CULL_FACE);
  s.BindTexture(1, s.palette_texture);
  glBindBuffer(GL_ARRAY_BUFFER, s.instance_buffer);  // what the groups' attributes point into
  for (const InstanceGroup& group : s.groups) {
    const GpuMesh& mesh = s.meshes[group.mesh];
    if (!mesh.alive) continue;
    const GLsizei instances = static_cast<GLsizei>(group.count);
    if (s.bound.vao != mesh.vao) {
      glBindVertexArray(mesh.vao);
      s.bound.vao = mesh.vao;
    }
    // This group's tints and views: the VAO's instance attributes pointed at them.
    const size_t first = static_cast<size_t>(group.first_instance) * sizeof(GpuInstance);
    glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
                          reinterpret_cast<void*>(first + offsetof(GpuInstance, tint)));
    glVertexAttribPointer(7, 1, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
                          reinterpret_cast<void*>(first + offsetof(GpuInstance, view)));
    glUniform1i(s.u_base, group.base_joint);
    s.SetInt(s.u_joint_count, mesh.joint_count, &s.bound.joint_count);
    instances_drawn_ += instances;
    for (size_t p = 0; p < mesh.parts.size(); ++p) {
      const GpuPart& part = mesh.parts[p];
      const viewer::PartTextures textures =
          group.textures != nullptr ? group.textures[p] : viewer::PartTextures{};
      const GLuint texture = LiveTexture(textures.diffuse);
      s.BindTexture(0, texture);
      s.SetInt(s.u_has_texture, texture != 0 ? 1 : 0, &s.bound.has_texture);
      // The maps (texture units 2 and 3) are bound when the part has them; a view with them
      // off says so in its flags.
      const GLuint normal_map = LiveTexture(textures.normal);
      const GLuint specular_map = LiveTexture(textures.specular);
      s.BindTexture(2, normal_map);
      s.BindTexture(3, specular_map);
      s.SetInt(s.u_has_normal_map, normal_map != 0 ? 1 : 0, &s.bound.has_normal_map);
      s.SetInt(s.u_has_specular_map, specular_map != 0 ? 1 : 0, &s.bound.has_specular_map);
      s.SetInt(s.u_wire, 0, &s.bound.wire);
      glDrawElementsInstanced(GL_TRIANGLES, static_cast<GLsizei>(part.index_count), GL_UNSIGNED_INT,
                              reinterpret_cast<void*>(size_t{part.first_index} * 4), instances);
      ++draw_calls_;
      if (group.wire) {
        s.SetInt(s.u_wire, 1, &s.bound.wire);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.edge_buffer);
        glDrawElementsInstanced(GL_LINES, static_cast<GLsizei>(part.edge_count), GL_UNSIGNED_INT,
                                reinterpret_cast<void*>(size_t{part.first_edge} * 4), instances);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.index_buffer);
        ++draw_calls_;
      }
    }
  }
  glBindVertexArray(0);
  s.bound.vao = ~0u;
  glDisable(GL_CULL_FACE);
}

bool SkinnedMeshRenderer::CaptureSkinnedPositions(MeshHandle handle, const glm::mat4* palette,
                                                  std::vector<glm::vec3>* positions,
                                                  std::vector<glm::vec4>* tangents) {
  Impl& s = *impl_;
  if (!handle.valid() || handle.id > s.meshes.size()) return false;
  GpuMesh& mesh = s.meshes[handle.id - 1];
  if (!mesh.alive || mesh.vertex_count == 0) return false;
  // This instance's palette alone, at the start of the palette texture.
  std::vector<glm::vec4> texels(static_cast<size_t>(mesh.joint_count) * 3);
  for (int j = 0; j < mesh.joint_count; ++j) {
    const glm::mat4& m = palette[j];
    texels[static_cast<size_t>(j) * 3 + 0] = glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]);
    texels[static_cast<size_t>(j) * 3 + 1] = glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]);
    texels[static_cast<size_t>(j) * 3 + 2] = glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2]);
  }
  s.UploadPalette(texels.data(), mesh.joint_count);
  s.bound = BoundState{};  // the capture binds outside any frame

  GLuint feedback_buffer = 0;
  glGenBuffers(1, &feedback_buffer);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, feedback_buffer);
  // Interleaved per vertex: v_world (3 floats), v_tangent (4 floats).
  constexpr int kFloatsPerVertex = 7;
  const GLsizeiptr bytes =
      static_cast<GLsizeiptr>(mesh.vertex_count) * kFloatsPerVertex * sizeof(float);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STATIC_READ);
  GLuint feedback = 0;
  glGenTransformFeedbacks(1, &feedback);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, feedback_buffer);

  s.capture_program.Use();
  glUniform1i(s.capture_program.Uniform("u_palette"), 1);
  glUniform1i(s.capture_program.Uniform("u_base"), 0);
  glUniform1i(s.capture_program.Uniform("u_joint_count"), mesh.joint_count);
  glBindVertexArray(mesh.vao);
  glDisableVertexAttribArray(5);
  glVertexAttrib4f(5, 1.0f, 1.0f, 1.0f, 1.0f);
  glDisableVertexAttribArray(7);
  glVertexAttrib1f(7, 0.0f);  // view 0 of the block: what it places does not reach the capture
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArraysInstanced(GL_POINTS, 0, mesh.vertex_count, 1);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glEnableVertexAttribArray(5);  // the VAO's instance attributes, as CreateMesh left them
  glEnableVertexAttribArray(7);
  glBindVertexArray(0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);

  std::vector<float> captured(static_cast<size_t>(mesh.vertex_count) * kFloatsPerVertex);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, feedback_buffer);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, captured.data());
  positions->resize(static_cast<size_t>(mesh.vertex_count));
  if (tangents) tangents->resize(static_cast<size_t>(mesh.vertex_count));
  for (size_t v = 0; v < positions->size(); ++v) {
    const float* f = &captured[v * kFloatsPerVertex];
    (*positions)[v] = glm::vec3(f[0], f[1], f[2]);
    if (tangents) (*tangents)[v] = glm::vec4(f[3], f[4], f[5], f[6]);
  }
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  glDeleteTransformFeedbacks(1, &feedback);
  glDeleteBuffers(1, &feedback_buffer);
  return glGetError() == GL_NO_ERROR;
}

}  // namespace md5stage::render
