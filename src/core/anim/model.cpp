#include "core/anim/model.h"

#include <cmath>
#include <utility>

#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/pose.h"
#include "core/anim/tangents.h"
#include "core/md5/md5_weights.h"

namespace md5stage::anim {
namespace {

// MD5 triangles are clockwise seen from the front (idTech 4 convention): the outward normal of
// (a, b, c) is (c - a) x (b - a).
glm::vec3 FaceNormal(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  return glm::cross(c - a, b - a);
}

MeshGeometry BuildGeometry(const md5::MeshPart& mesh, const Skeleton& skeleton) {
  MeshGeometry geometry;
  const std::size_t vertex_count = mesh.vertices.size();
  geometry.bind_positions.resize(vertex_count);
  geometry.bind_normals.assign(vertex_count, glm::vec3(0.0f));
  geometry.weight_normals.assign(mesh.weights.size(), glm::vec3(0.0f));
  const std::vector<glm::mat4>& binds = skeleton.bind_matrices();
  for (std::size_t v = 0; v < vertex_count; ++v) {
    const md5::MeshVertex& vertex = mesh.vertices[v];
    glm::vec3 position(0.0f);
    float bias_sum = 0.0f;
    for (int w = vertex.first_weight; w < vertex.first_weight + vertex.weight_count; ++w) {
      const md5::MeshWeight& weight = mesh.weights[w];
      position += weight.bias * TransformPoint(binds[weight.joint], weight.position);
      bias_sum += weight.bias;
    }
    geometry.bind_positions[v] = bias_sum != 0.0f ? position / bias_sum : position;
  }
  for (const md5::MeshTriangle& triangle : mesh.triangles) {
    // Unnormalized cross product: larger triangles count more.
    const glm::vec3 normal = FaceNormal(geometry.bind_positions[triangle.vertices[0]],
                                        geometry.bind_positions[triangle.vertices[1]],
                                        geometry.bind_positions[triangle.vertices[2]]);
    for (std::uint32_t corner : triangle.vertices) geometry.bind_normals[corner] += normal;
  }
  const std::vector<JointTransform>& bind_models = skeleton.bind_models();
  for (std::size_t v = 0; v < vertex_count; ++v) {
    const float length = glm::length(geometry.bind_normals[v]);
    geometry.bind_normals[v] = length > 0.0f ? geometry.bind_normals[v] / length : glm::vec3(0.0f);
    const md5::MeshVertex& vertex = mesh.vertices[v];
    for (int w = vertex.first_weight; w < vertex.first_weight + vertex.weight_count; ++w) {
      const glm::quat& joint_rotation = bind_models[mesh.weights[w].joint].rotation;
      geometry.weight_normals[w] = glm::conjugate(joint_rotation) * geometry.bind_normals[v];
    }
  }
  std::vector<glm::vec2> uvs(vertex_count);
  for (std::size_t v = 0; v < vertex_count; ++v) uvs[v] = mesh.vertices[v].uv;
  std::vector<TangentSums> scratch(vertex_count);
  geometry.bind_tangents.assign(vertex_count, glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
  TangentJob tangents;
  tangents.positions = geometry.bind_positions;
  tangents.normals = geometry.bind_normals;
  tangents.uvs = uvs;
  tangents.triangles = mesh.triangles;
  tangents.tangents = geometry.bind_tangents;
  tangents.scratch = scratch;
  tangents.Run();  // valid by construction: the parser checked the triangle indices
  return geometry;
}

GpuSkinData BuildGpuSkinData(const md5::MeshFile& file, const Skeleton& skeleton,
                             const std::vector<MeshGeometry>& geometry) {
  GpuSkinData gpu;
  gpu.inverse_bind_matrices = skeleton.inverse_bind_matrices();
  gpu.vertices.reserve(static_cast<std::size_t>(file.vertex_count()));
  gpu.indices.reserve(static_cast<std::size_t>(file.triangle_count()) * 3);
  for (std::size_t m = 0; m < file.meshes.size(); ++m) {
    const md5::MeshPart& mesh = file.meshes[m];
    GpuSubmesh submesh;
    submesh.shader = mesh.shader;
    submesh.first_vertex = static_cast<std::uint32_t>(gpu.vertices.size());
    submesh.vertex_count = static_cast<std::uint32_t>(mesh.vertices.size());
    submesh.first_index = static_cast<std::uint32_t>(gpu.indices.size());
    submesh.index_count = static_cast<std::uint32_t>(mesh.triangles.size() * 3);
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
      const md5::MeshVertex& vertex = mesh.vertices[v];
      GpuVertex out;
      out.position = geometry[m].bind_positions[v];
      out.normal = geometry[m].bind_normals[v];
      out.tangent = geometry[m].bind_tangents[v];
      out.uv = vertex.uv;
      const md5::TopInfluences top = md5::SelectTopInfluences(mesh, vertex);
      for (int i = 0; i < top.count; ++i) {
        out.joints[i] = static_cast<std::uint16_t>(mesh.weights[top.weights[i]].joint);
        out.weights[i] = top.factors[i];
      }
      if (vertex.weight_count > md5::kMaxGpuInfluences) {
        ++gpu.vertices_over_four;
        if (gpu.worst_dropped_vertex < 0 || top.dropped_fraction > gpu.worst_dropped_weight) {
          gpu.worst_dropped_weight = top.dropped_fraction;
          gpu.worst_dropped_mesh = static_cast<int>(m);
          gpu.worst_dropped_vertex = static_cast<int>(v);
        }
      }
      gpu.vertices.push_back(out);
    }
    for (const md5::MeshTriangle& triangle : mesh.triangles) {
      // Reversed to counter-clockwise fronts, OpenGL's default.
      gpu.indices.push_back(submesh.first_vertex + triangle.vertices[0]);
      gpu.indices.push_back(submesh.first_vertex + triangle.vertices[2]);
      gpu.indices.push_back(submesh.first_vertex + triangle.vertices[1]);
    }
    gpu.submeshes.push_back(std::move(submesh));
  }
  return gpu;
}

}  // namespace

std::shared_ptr<const Model> Model::Create(std::shared_ptr<const md5::MeshFile> file) {
  std::shared_ptr<Model> model(new Model());
  model->source_ = std::move(file);
  model->skeleton_ = Skeleton::FromMeshFile(*model->source_);
  model->geometry_.reserve(model->source_->meshes.size());
  for (const md5::MeshPart& mesh : model->source_->meshes) {
    model->geometry_.push_back(BuildGeometry(mesh, model->skeleton_));
  }
  model->gpu_ = BuildGpuSkinData(*model->source_, model->skeleton_, model->geometry_);
  return model;
}

SkinningError MeasureGpuSkinningError(const Model& model, Span<const glm::mat4> joint_matrices) {
  SkinningError error;
  const Skeleton& skeleton = model.skeleton();
  std::vector<glm::mat4> palette(static_cast<std::size_t>(skeleton.joint_count()));
  SkinningPaletteJob palette_job;
  palette_job.joint_matrices = joint_matrices;
  palette_job.inverse_bind_matrices = skeleton.inverse_bind_matrices();
  palette_job.palette = palette;
  std::vector<glm::vec3> gpu_positions(model.gpu().vertices.size());
  PaletteSkinningJob gpu_job;
  gpu_job.model = &model;
  gpu_job.palette = palette;
  gpu_job.positions = gpu_positions;
  if (!palette_job.Run() || !gpu_job.Run()) return error;
  std::vector<glm::vec3> reference;
  for (int m = 0; m < model.mesh_count(); ++m) {
    reference.resize(model.mesh(m).vertices.size());
    SkinningJob job;
    job.model = &model;
    job.mesh_index = m;
    job.joint_matrices = joint_matrices;
    job.normalize_weights = true;
    job.positions = reference;
    if (!job.Run()) return error;
    const std::size_t first = model.gpu().submeshes[m].first_vertex;
    for (std::size_t v = 0; v < reference.size(); ++v) {
      const float distance = glm::length(reference[v] - gpu_positions[first + v]);
      if (error.mesh < 0 || distance > error.distance) {
        error.distance = distance;
        error.mesh = m;
        error.vertex = static_cast<int>(v);
      }
    }
  }
  return error;
}

AnimationSkinningError MeasureGpuSkinningError(const Model& model, const Animation& animation) {
  AnimationSkinningError result;
  Pose pose(model.skeleton().joint_count());
  for (int f = 0; f < animation.frame_count(); ++f) {
    SampleJob sample;
    sample.animation = &animation;
    sample.frame = f;
    sample.output = pose.locals;
    LocalToModelJob to_model;
    to_model.skeleton = &model.skeleton();
    to_model.locals = pose.locals;
    to_model.models = pose.models;
    if (!sample.Run() || !to_model.Run()) continue;
    const SkinningError error = MeasureGpuSkinningError(model, pose.models);
    if (result.frame < 0 || error.distance > result.worst.distance) {
      result.worst = error;
      result.frame = f;
    }
  }
  return result;
}

}  // namespace md5stage::anim
