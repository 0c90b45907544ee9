#include "core/anim/jobs.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/anim/model.h"

namespace md5stage::anim {
namespace {

// Four floats in one SIMD register where the target has them (SSE, WebAssembly SIMD), plain
// floats elsewhere: GCC and Clang vector extensions.
typedef float Float4 __attribute__((vector_size(16)));

inline Float4 LoadFloat4(const glm::vec4& v) {
  Float4 r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

inline glm::quat NormalizeQuat(const glm::quat& q) {
  const float length_squared = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  const float inverse = 1.0f / std::sqrt(length_squared);
  return glm::quat(q.w * inverse, q.x * inverse, q.y * inverse, q.z * inverse);
}

}  // namespace

bool SampleJob::Validate() const {
  return animation != nullptr && animation->frame_count() > 0 &&
         output.size >= static_cast<std::size_t>(animation->joint_count()) &&
         frame < animation->frame_count();
}

bool SampleJob::Run() const {
  if (!Validate()) return false;
  const int joints = animation->joint_count();
  FramePosition at;
  if (frame >= 0) {
    at.frame0 = at.frame1 = frame;
  } else {
    at = animation->Locate(time, mode);
  }
  const JointTransform* a = animation->frame(at.frame0);
  const JointTransform* b = animation->frame(at.frame1);
  JointTransform* out = output.data;
  if (at.alpha <= 0.0f) {
    std::copy(a, a + joints, out);
  } else {
    const float wa = 1.0f - at.alpha;
    const float wb = at.alpha;
    for (int j = 0; j < joints; ++j) {
      out[j].translation = a[j].translation * wa + b[j].translation * wb;
      // Frames are sign-aligned at load, so plain nlerp takes the shortest arc.
      const glm::quat& qa = a[j].rotation;
      const glm::quat& qb = b[j].rotation;
      out[j].rotation = NormalizeQuat(glm::quat(qa.w * wa + qb.w * wb, qa.x * wa + qb.x * wb,
                                                qa.y * wa + qb.y * wb, qa.z * wa + qb.z * wb));
    }
  }
  if (root_motion == RootMotion::kStripHorizontal) {
    const std::vector<int>& roots = animation->root_joints();
    const std::vector<glm::vec3>& anchors = animation->root_anchors();
    for (std::size_t r = 0; r < roots.size(); ++r) {
      out[roots[r]].translation.x = anchors[r].x;
      out[roots[r]].translation.y = anchors[r].y;
    }
  }
  return true;
}

bool BlendJob::Validate() const {
  return from.data != nullptr && to.data != nullptr && from.size == to.size &&
         output.size >= from.size && std::isfinite(weight);
}

bool BlendJob::Run() const {
  if (!Validate()) return false;
  const std::size_t count = from.size;
  if (weight <= 0.0f) {
    if (output.data != from.data) std::copy(from.data, from.data + count, output.data);
    return true;
  }
  if (weight >= 1.0f) {
    if (output.data != to.data) std::copy(to.data, to.data + count, output.data);
    return true;
  }
  const float wa = 1.0f - weight;
  for (std::size_t j = 0; j < count; ++j) {
    const JointTransform& a = from.data[j];
    const JointTransform& b = to.data[j];
    const float wb = glm::dot(a.rotation, b.rotation) < 0.0f ? -weight : weight;
    const glm::vec3 translation = a.translation * wa + b.translation * weight;
    const glm::quat rotation(
        a.rotation.w * wa + b.rotation.w * wb, a.rotation.x * wa + b.rotation.x * wb,
        a.rotation.y * wa + b.rotation.y * wb, a.rotation.z * wa + b.rotation.z * wb);
    output.data[j].translation = translation;
    output.data[j].rotation = NormalizeQuat(rotation);
  }
  return true;
}

bool LocalToModelJob::Validate() const {
  if (skeleton == nullptr) return false;
  const std::size_t joints = static_cast<std::size_t>(skeleton->joint_count());
  return locals.size >= joints && models.size >= joints;
}

bool LocalToModelJob::Run() const {
  if (!Validate()) return false;
  const int joints = skeleton->joint_count();
  const int* parents = skeleton->parents().data();
  for (int j = 0; j < joints; ++j) {
    const glm::mat4 local = ToMatrix(locals.data[j]);
    const int parent = parents[j];
    models.data[j] = MultiplyAffine(parent < 0 ? root : models.data[parent], local);
  }
  return true;
}

bool SkinningPaletteJob::Validate() const {
  return joint_matrices.size == inverse_bind_matrices.size && palette.size >= joint_matrices.size;
}

bool SkinningPaletteJob::Run() const {
  if (!Validate()) return false;
  for (std::size_t j = 0; j < joint_matrices.size; ++j) {
    palette.data[j] = MultiplyAffine(joint_matrices.data[j], inverse_bind_matrices.data[j]);
  }
  return true;
}

bool SkinningJob::Validate() const {
  if (model == nullptr || mesh_index < 0 || mesh_index >= model->mesh_count()) return false;
  const std::size_t vertices = model->mesh(mesh_index).vertices.size();
  return joint_matrices.size >= static_cast<std::size_t>(model->skeleton().joint_count()) &&
         positions.size >= vertices && (normals.empty() || normals.size >= vertices) &&
         (tangents.empty() || tangents.size >= vertices);
}

bool SkinningJob::Run() const {
  if (!Validate()) return false;
  const md5::MeshPart& mesh = model->mesh(mesh_index);
  const MeshGeometry& geometry = model->geometry(mesh_index);
  const std::size_t vertex_count = mesh.vertices.size();
  const md5::MeshWeight* weights = mesh.weights.data();
  const glm::mat4* joints = joint_matrices.data;
  const std::vector<glm::mat4>& inverse_binds = model->skeleton().inverse_bind_matrices();
  for (std::size_t v = 0; v < vertex_count; ++v) {
    const md5::MeshVertex& vertex = mesh.vertices[v];
    glm::vec3 position(0.0f);
    glm::vec3 normal(0.0f);
    glm::vec3 tangent(0.0f);
    float bias_sum = 0.0f;
    const int end = vertex.first_weight + vertex.weight_count;
    for (int w = vertex.first_weight; w < end; ++w) {
      const md5::MeshWeight& weight = weights[w];
      const glm::mat4& joint = joints[weight.joint];
      position += weight.bias * TransformPoint(joint, weight.position);
      bias_sum += weight.bias;
      // The vertex's bind normal and tangent taken into the weight's joint frame per vertex, not
      // per weight: exporters share one weight between the vertices of a UV or hard-edge split,
      // whose normals and tangents differ.
      if (!normals.empty() || !tangents.empty()) {
        const glm::mat4 joint_from_bind = MultiplyAffine(joint, inverse_binds[weight.joint]);
        if (!normals.empty())
          normal += weight.bias * TransformVector(joint_from_bind, geometry.bind_normals[v]);
        if (!tangents.empty()) {
          tangent +=
              weight.bias * TransformVector(joint_from_bind, glm::vec3(geometry.bind_tangents[v]));
        }
      }
    }
    if (normalize_weights && bias_sum != 0.0f) position /= bias_sum;
    positions.data[v] = position;
    if (!normals.empty()) {
      const float length = glm::length(normal);
      normals.data[v] = length > 0.0f ? normal / length : glm::vec3(0.0f);
    }
    if (!tangents.empty()) {
      const float length = glm::length(tangent);
      tangents.data[v] = glm::vec4(length > 0.0f ? tangent / length : glm::vec3(0.0f),
                                   geometry.bind_tangents[v].w);
    }
  }
  return true;
}

bool PaletteSkinningJob::Validate() const {
  if (model == nullptr) return false;
  const std::size_t vertices = model->gpu().vertices.size();
  return palette.size >= static_cast<std::size_t>(model->skeleton().joint_count()) &&
         positions.size >= vertices && (normals.empty() || normals.size >= vertices) &&
         (tangents.empty() || tangents.size >= vertices);
}

bool PaletteSkinningJob::Run() const {
  if (!Validate()) return false;
  const std::vector<GpuVertex>& vertices = model->gpu().vertices;
  const bool with_normals = !normals.empty();
  const bool with_tangents = !tangents.empty();
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const GpuVertex& vertex = vertices[v];
    // The blended matrix as four 4-wide columns, in vector-extension registers: compilers left
    // to vectorize glm's mat4/vec3 code here built vectors lane by lane (WebAssembly SIMD ran
    // this loop slower than scalar code).
    const glm::mat4& first = palette.data[vertex.joints[0]];
    const float w0 = vertex.weights[0];
    Float4 c0 = LoadFloat4(first[0]) * w0, c1 = LoadFloat4(first[1]) * w0;
    Float4 c2 = LoadFloat4(first[2]) * w0, c3 = LoadFloat4(first[3]) * w0;
    for (int i = 1; i < 4; ++i) {
      const float w = vertex.weights[i];
      if (w == 0.0f) continue;
      const glm::mat4& m = palette.data[vertex.joints[i]];
      c0 += LoadFloat4(m[0]) * w;
      c1 += LoadFloat4(m[1]) * w;
      c2 += LoadFloat4(m[2]) * w;
      c3 += LoadFloat4(m[3]) * w;
    }
    const glm::vec3& p = vertex.position;
    const Float4 position = c0 * p.x + c1 * p.y + c2 * p.z + c3;
    positions.data[v] = glm::vec3(position[0], position[1], position[2]);
    if (with_normals) {
      const glm::vec3& n = vertex.normal;
      const Float4 blended = c0 * n.x + c1 * n.y + c2 * n.z;
      const glm::vec3 normal(blended[0], blended[1], blended[2]);
      const float length = glm::length(normal);
      normals.data[v] = length > 0.0f ? normal / length : glm::vec3(0.0f);
    }
    if (with_tangents) {
      const glm::vec4& t = vertex.tangent;
      const Float4 blended = c0 * t.x + c1 * t.y + c2 * t.z;
      const glm::vec3 tangent(blended[0], blended[1], blended[2]);
      const float length = glm::length(tangent);
      tangents.data[v] = glm::vec4(length > 0.0f ? tangent / length : glm::vec3(0.0f), t.w);
    }
  }
  return true;
}

}  // namespace md5stage::anim
