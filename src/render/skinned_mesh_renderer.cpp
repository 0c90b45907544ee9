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

constexpr const char* kVertexShader = R"(#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
uniform sampler2D u_palette;
uniform mat4 u_view_projection;
uniform int u_base;
uniform int u_joint_count;
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints;
layout(location = 4) in vec4 a_weights;
layout(location = 5) in vec4 a_tint;
layout(location = 6) in vec4 a_tangent;
out vec3 v_normal;
out vec4 v_tangent;
out vec2 v_uv;
out vec4 v_tint;
out vec3 v_world;

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
  gl_Position = u_view_projection * world;
})";

// Diffuse x (ambient + N.L) + Blinn-Phong specular x the specular map, with N from the
// tangent-space normal map: n = T * x + B * y + N * z, B = w * cross(N, T) the direction of
// increasing v (Doom 3's interaction shader; see TangentJob). No normal map: the vertex normal;
// no specular map: no highlight.
constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
uniform sampler2D u_diffuse;
uniform sampler2D u_normal_map;
uniform sampler2D u_specular_map;
uniform bool u_has_texture;
uniform bool u_has_normal_map;
uniform bool u_has_specular_map;
uniform bool u_wire;
uniform int u_channel;  // 0 lit, 1 diffuse only, 2 normals, 3 specular
uniform vec3 u_light_direction;
uniform vec3 u_eye;
in vec3 v_normal;
in vec4 v_tangent;
in vec2 v_uv;
in vec4 v_tint;
in vec3 v_world;
out vec4 o_color;
void main() {
  if (u_wire) {
    o_color = vec4(0.95, 0.85, 0.35, 1.0);
    return;
  }
  vec3 base = u_has_texture ? texture(u_diffuse, v_uv).rgb : vec3(0.72, 0.70, 0.66);
  vec3 n = normalize(v_normal);
  if (u_has_normal_map) {
    vec3 t = v_tangent.xyz - n * dot(n, v_tangent.xyz);
    if (dot(t, t) > 1e-12) {
      t = normalize(t);
      vec3 b = cross(n, t) * (v_tangent.w < 0.0 ? -1.0 : 1.0);
      vec3 m = texture(u_normal_map, v_uv).xyz * 2.0 - 1.0;
      vec3 mapped = t * m.x + b * m.y + n * m.z;
      if (dot(mapped, mapped) > 1e-8) n = normalize(mapped);
    }
  }
  vec3 l = normalize(u_light_direction);
  float n_dot_l = dot(n, l);
  float sky = 0.5 + 0.5 * n.z;  // hemisphere ambient: brighter from above
  vec3 specular = vec3(0.0);
  vec3 specular_map = u_has_specular_map ? texture(u_specular_map, v_uv).rgb : vec3(0.0);
  if (u_has_specular_map && n_dot_l > 0.0) {
    vec3 h = normalize(l + normalize(u_eye - v_world));
    specular = specular_map * pow(max(dot(n, h), 0.0), 24.0);
  }
  vec3 lit = base * (0.25 + 0.2 * sky + 0.7 * max(n_dot_l, 0.0)) * v_tint.rgb + specular;
  if (u_channel == 1) lit = base * v_tint.rgb;
  if (u_channel == 2) lit = n * 0.5 + 0.5;
  if (u_channel == 3) lit = specular_map;
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
  TextureHandle texture;
  TextureHandle normal_map;    // none: flat normal
  TextureHandle specular_map;  // none: no specular
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

// One instance of the frame: its view, its mesh, where its texels start in the frame palette.
struct Submission {
  int view = 0;
  size_t mesh = 0;
  int palette_offset = 0;
  glm::vec4 tint{1.0f};
};

// The instances of one mesh in one view, after Upload(): consecutive in the palette texture
// (from joint `base_joint`) and in the tint buffer (from `first_tint`), so one instanced draw.
struct InstanceGroup {
  int view = 0;
  size_t mesh = 0;
  int base_joint = 0;
  int first_tint = 0;
  int count = 0;
};

// What this frame last set, so a view repeats only what differs from the view before it; reset
// each frame, since other code (ImGui, the capture) binds textures between frames.
struct BoundState {
  GLuint textures[4] = {~0u, ~0u, ~0u, ~0u};
  int active_unit = -1;
  GLuint vao = ~0u;
  bool light_set = false;
  glm::vec3 light{0.0f};
  int channel = -1;
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
  GLint u_palette = -1, u_view_projection = -1, u_base = -1, u_joint_count = -1;
  GLint u_diffuse = -1, u_has_texture = -1, u_wire = -1, u_light_direction = -1;
  GLint u_normal_map = -1, u_specular_map = -1, u_has_normal_map = -1, u_has_specular_map = -1;
  GLint u_channel = -1, u_eye = -1;
  GLuint palette_texture = 0;
  int palette_rows = 0;
  GLuint tint_buffer = 0;
  size_t tint_capacity = 0;
  std::vector<GpuMesh> meshes;
  std::vector<GpuTexture> textures;
  std::vector<glm::vec4> palette;  // 3 texels per joint, all instances of the frame
  std::vector<Submission> submissions;
  int view = 0;                       // the view Submit() adds to
  std::vector<glm::vec4> ordered;     // Upload's scratch: the palette by view, then mesh
  std::vector<glm::vec4> tints;       // Upload's scratch: the tints in the same order
  std::vector<InstanceGroup> groups;  // by view, then mesh
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
  if (impl_->tint_buffer) glDeleteBuffers(1, &impl_->tint_buffer);
}

bool SkinnedMeshRenderer::Init(std::string* error) {
  Impl& s = *impl_;
  if (!s.program.Build(kVertexShader, kFragmentShader, error)) return false;
  s.u_palette = s.program.Uniform("u_palette");
  s.u_view_projection = s.program.Uniform("u_view_projection");
  s.u_base = s.program.Uniform("u_base");
  s.u_joint_count = s.program.Uniform("u_joint_count");
  s.u_diffuse = s.program.Uniform("u_diffuse");
  s.u_has_texture = s.program.Uniform("u_has_texture");
  s.u_wire = s.program.Uniform("u_wire");
  s.u_light_direction = s.program.Uniform("u_light_direction");
  s.u_normal_map = s.program.Uniform("u_normal_map");
  s.u_specular_map = s.program.Uniform("u_specular_map");
  s.u_has_normal_map = s.program.Uniform("u_has_normal_map");
  s.u_has_specular_map = s.program.Uniform("u_has_specular_map");
  s.u_channel = s.program.Uniform("u_channel");
  s.u_eye = s.program.Uniform("u_eye");
  // The samplers' texture units never change: set once, not every frame.
  s.program.Use();
  glUniform1i(s.u_palette, 1);
  glUniform1i(s.u_diffuse, 0);
  glUniform1i(s.u_normal_map, 2);
  glUniform1i(s.u_specular_map, 3);
  glUseProgram(0);
  glGenTextures(1, &s.palette_texture);
  glBindTexture(GL_TEXTURE_2D, s.palette_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenBuffers(1, &s.tint_buffer);
  const char* varyings[] = {"v_world", "v_tangent"};
  if (!s.capture_program.BuildWithFeedback(kVertexShader, kCaptureFragmentShader, varyings, 2,
                                           error)) {
    return false;
  }
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
  // The per-instance tint comes from the shared tint buffer, refilled each frame; the binding
  // lives in the VAO, so a draw only refills it.
  glBindBuffer(GL_ARRAY_BUFFER, impl_->tint_buffer);
  glEnableVertexAttribArray(5);
  glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, sizeof(glm::vec4), nullptr);
  glVertexAttribDivisor(5, 1);
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
  texture = GpuTexture();
  for (GpuMesh& mesh : impl_->meshes) {
    for (GpuPart& part : mesh.parts) {
      if (part.texture == handle) part.texture = TextureHandle{};
      if (part.normal_map == handle) part.normal_map = TextureHandle{};
      if (part.specular_map == handle) part.specular_map = TextureHandle{};
    }
  }
}

void SkinnedMeshRenderer::SetPartTexture(MeshHandle handle, int part, TextureHandle texture) {
  if (!handle.valid() || handle.id > impl_->meshes.size()) return;
  GpuMesh& mesh = impl_->meshes[handle.id - 1];
  if (part < 0 || part >= static_cast<int>(mesh.parts.size())) return;
  mesh.parts[static_cast<size_t>(part)].texture = texture;
}

void SkinnedMeshRenderer::SetPartMaps(MeshHandle handle, int part, TextureHandle normal,
                                      TextureHandle specular) {
  if (!handle.valid() || handle.id > impl_->meshes.size()) return;
  GpuMesh& mesh = impl_->meshes[handle.id - 1];
  if (part < 0 || part >= static_cast<int>(mesh.parts.size())) return;
  mesh.parts[static_cast<size_t>(part)].normal_map = normal;
  mesh.parts[static_cast<size_t>(part)].specular_map = specular;
}

size_t SkinnedMeshRenderer::shared_bytes() const {
  size_t total = 0;
  for (const GpuMesh& mesh : impl_->meshes) total += mesh.alive ? mesh.bytes : 0;
  for (const GpuTexture& texture : impl_->textures) total += texture.alive ? texture.bytes : 0;
  return total;
}

void SkinnedMeshRenderer::BeginFrame() {
  impl_->palette.clear();
  impl_->submissions.clear();
  impl_->groups.clear();
  impl_->view = 0;
  impl_->bound = BoundState{};
}

int SkinnedMeshRenderer::NextView() { return ++impl_->view; }

void SkinnedMeshRenderer::Submit(MeshHandle handle, const glm::mat4* palette,
                                 const glm::vec4& tint) {
  if (!handle.valid() || handle.id > impl_->meshes.size()) return;
  GpuMesh& mesh = impl_->meshes[handle.id - 1];
  if (!mesh.alive) return;
  Submission submission;
  submission.view = impl_->view;
  submission.mesh = handle.id - 1;
  submission.palette_offset = static_cast<int>(impl_->palette.size());
  submission.tint = tint;
  impl_->submissions.push_back(submission);
  for (int j = 0; j < mesh.joint_count; ++j) {
    const glm::mat4& m = palette[j];
    impl_->palette.push_back(glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]));
    impl_->palette.push_back(glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]));
    impl_->palette.push_back(glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2]));
  }
}

void SkinnedMeshRenderer::Upload() {
  Impl& s = *impl_;
  instance_bytes_ = s.palette.size() * sizeof(glm::vec4);
  s.groups.clear();
  if (s.submissions.empty()) return;
  // By view, then mesh, keeping submission order within a group: each group is one draw.
  std::stable_sort(s.submissions.begin(), s.submissions.end(),
                   [](const Submission& a, const Submission& b) {
                     return a.view != b.view ? a.view < b.view : a.mesh < b.mesh;
                   });
  s.ordered.clear();
  s.tints.clear();
  for (const Submission& submission : s.submissions) {
    const GpuMesh& mesh = s.meshes[submission.mesh];
    if (s.groups.empty() || s.groups.back().view != submission.view ||
        s.groups.back().mesh != submission.mesh) {
      InstanceGroup group;
      group.view = submission.view;
      group.mesh = submission.mesh;
      group.base_joint = static_cast<int>(s.ordered.size() / 3);
      group.first_tint = static_cast<int>(s.tints.size());
      s.groups.push_back(group);
    }
    ++s.groups.back().count;
    s.ordered.insert(s.ordered.end(), s.palette.begin() + submission.palette_offset,
                     s.palette.begin() + submission.palette_offset + mesh.joint_count * 3);
    s.tints.push_back(submission.tint);
  }
  s.UploadPalette(s.ordered.data(), static_cast<int>(s.ordered.size() / 3));
  s.bound.textures[1] = s.palette_texture;
  s.bound.active_unit = 1;
  glBindBuffer(GL_ARRAY_BUFFER, s.tint_buffer);
  const size_t tint_bytes = s.tints.size() * sizeof(glm::vec4);
  if (tint_bytes > s.tint_capacity) {
    s.tint_capacity = tint_bytes * 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.tint_capacity), nullptr,
                 GL_DYNAMIC_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(tint_bytes), s.tints.data());
}

void SkinnedMeshRenderer::Draw(const glm::mat4& view_projection,
                               const SkinnedDrawOptions& options) {
  Upload();
  DrawView(0, view_projection, options);
}

GLuint SkinnedMeshRenderer::LiveTexture(TextureHandle handle) const {
  if (!handle.valid() || handle.id > impl_->textures.size()) return 0;
  const GpuTexture& texture = impl_->textures[handle.id - 1];
  return texture.alive ? texture.id : 0;
}

void SkinnedMeshRenderer::DrawView(int view, const glm::mat4& view_projection,
                                   const SkinnedDrawOptions& options) {
  BeginViews();
  DrawViewInstances(view, view_projection, options);
  EndViews();
}

void SkinnedMeshRenderer::BeginViews() {
  Impl& s = *impl_;
  draw_calls_ = 0;
  instances_drawn_ = 0;
  s.program.Use();
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_CULL_FACE);
  s.BindTexture(1, s.palette_texture);
  glBindBuffer(GL_ARRAY_BUFFER, s.tint_buffer);  // what the groups' tint pointers point into
  s.bound.vao = ~0u;
}

void SkinnedMeshRenderer::EndViews() {
  glBindVertexArray(0);
  impl_->bound.vao = ~0u;
  glDisable(GL_CULL_FACE);
}

void SkinnedMeshRenderer::DrawViewInstances(int view, const glm::mat4& view_projection,
                                            const SkinnedDrawOptions& options) {
  Impl& s = *impl_;
  const auto first = std::find_if(s.groups.begin(), s.groups.end(),
                                  [view](const InstanceGroup& g) { return g.view == view; });
  if (first == s.groups.end()) return;
  glUniformMatrix4fv(s.u_view_projection, 1, GL_FALSE, &view_projection[0][0]);
  if (!s.bound.light_set || s.bound.light != options.light_direction) {
    glUniform3fv(s.u_light_direction, 1, &options.light_direction[0]);
    s.bound.light = options.light_direction;
    s.bound.light_set = true;
  }
  // The eye is where the projection sends points to infinity: clip (0, 0, z, 0) taken back.
  const glm::vec4 eye = glm::inverse(view_projection) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  const glm::vec3 eye_position =
      std::abs(eye.w) > 1e-12f ? glm::vec3(eye) / eye.w : glm::vec3(0.0f, 0.0f, 1e6f);
  glUniform3fv(s.u_eye, 1, &eye_position[0]);
  s.SetInt(s.u_channel, options.channel, &s.bound.channel);

  for (auto group = first; group != s.groups.end() && group->view == view; ++group) {
    const GpuMesh& mesh = s.meshes[group->mesh];
    if (!mesh.alive) continue;
    const GLsizei instances = static_cast<GLsizei>(group->count);
    if (s.bound.vao != mesh.vao) {
      glBindVertexArray(mesh.vao);
      s.bound.vao = mesh.vao;
    }
    // This group's tints: the VAO's tint attribute pointed at them in the tint buffer.
    glVertexAttribPointer(
        5, 4, GL_FLOAT, GL_FALSE, sizeof(glm::vec4),
        reinterpret_cast<void*>(static_cast<size_t>(group->first_tint) * sizeof(glm::vec4)));
    glUniform1i(s.u_base, group->base_joint);
    s.SetInt(s.u_joint_count, mesh.joint_count, &s.bound.joint_count);
    instances_drawn_ += instances;
    for (const GpuPart& part : mesh.parts) {
      if (options.solid) {
        const GLuint texture = LiveTexture(part.texture);
        s.BindTexture(0, texture);
        s.SetInt(s.u_has_texture, texture != 0 ? 1 : 0, &s.bound.has_texture);
        // Maps (texture units 2 and 3) are bound only when the part has them and they are on.
        const GLuint normal_map = options.normal_maps ? LiveTexture(part.normal_map) : 0;
        const GLuint specular_map = options.specular ? LiveTexture(part.specular_map) : 0;
        s.BindTexture(2, normal_map);
        s.BindTexture(3, specular_map);
        s.SetInt(s.u_has_normal_map, normal_map != 0 ? 1 : 0, &s.bound.has_normal_map);
        s.SetInt(s.u_has_specular_map, specular_map != 0 ? 1 : 0, &s.bound.has_specular_map);
        s.SetInt(s.u_wire, 0, &s.bound.wire);
        glDrawElementsInstanced(GL_TRIANGLES, static_cast<GLsizei>(part.index_count),
                                GL_UNSIGNED_INT,
                                reinterpret_cast<void*>(size_t{part.first_index} * 4), instances);
        ++draw_calls_;
      }
      if (options.wireframe) {
        s.SetInt(s.u_wire, 1, &s.bound.wire);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.edge_buffer);
        glDrawElementsInstanced(GL_LINES, static_cast<GLsizei>(part.edge_count), GL_UNSIGNED_INT,
                                reinterpret_cast<void*>(size_t{part.first_edge} * 4), instances);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.index_buffer);
        ++draw_calls_;
      }
    }
  }
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
  const glm::mat4 identity(1.0f);
  glUniformMatrix4fv(s.capture_program.Uniform("u_view_projection"), 1, GL_FALSE, &identity[0][0]);
  glUniform1i(s.capture_program.Uniform("u_base"), 0);
  glUniform1i(s.capture_program.Uniform("u_joint_count"), mesh.joint_count);
  glBindVertexArray(mesh.vao);
  glDisableVertexAttribArray(5);
  glVertexAttrib4f(5, 1.0f, 1.0f, 1.0f, 1.0f);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArraysInstanced(GL_POINTS, 0, mesh.vertex_count, 1);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glEnableVertexAttribArray(5);  // the VAO's tint attribute, as CreateMesh left it
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
