// CPU reference skinning (positions and normals), the GPU skin data (4 influences, renormalized,
// bind positions, inverse binds, index order) and the palette path against the reference.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "anim_test_util.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"

namespace md5stage::anim {
namespace {

using testing::kMeshFixture;
using testing::LoadAnimation;
using testing::LoadModel;
using testing::Near;
using testing::NearMatrix;
using testing::Replace;

const float kPi = 3.14159265358979f;

// kMeshFixture: root at the origin, child at (0,0,1), both unrotated. Vertices: (0,0,0) and
// (1,0,0) on the root, (0,1,0) in the child's frame = (0,1,1).
TEST(Model, BindPositionsAndNormalsFollowTheFile) {
  const std::shared_ptr<const Model> model = LoadModel(kMeshFixture);
  ASSERT_NE(model, nullptr);
  const MeshGeometry& geometry = model->geometry(0);
  EXPECT_TRUE(Near(geometry.bind_positions[0], {0, 0, 0}));
  EXPECT_TRUE(Near(geometry.bind_positions[1], {1, 0, 0}));
  EXPECT_TRUE(Near(geometry.bind_positions[2], {0, 1, 1}));
  // Clockwise front faces: (c - a) x (b - a) = (0,1,1) x (1,0,0) = (0, 1, -1).
  const glm::vec3 expected = glm::normalize(glm::vec3(0, 1, -1));
  for (int v = 0; v < 3; ++v) EXPECT_TRUE(Near(geometry.bind_normals[v], expected)) << v;
}

TEST(Model, BindPositionsAreNormalizedForTheViewer) {
  const std::shared_ptr<const Model> model =
      LoadModel(Replace(kMeshFixture, "weight 1 0 1 ( 1 0 0 )", "weight 1 0 0.5 ( 1 0 0 )"));
  EXPECT_TRUE(Near(model->geometry(0).bind_positions[1], {1, 0, 0}));
  EXPECT_TRUE(Near(model->gpu().vertices[1].position, {1, 0, 0}));
}

std::vector<glm::mat4> PoseChildRotated(const Model& model) {
  // Root moved by (0, 0, 2); child turned 90 degrees about z.
  const Skeleton& skeleton = model.skeleton();
  std::vector<JointTransform> locals = skeleton.bind_locals();
  locals[0].translation += glm::vec3(0, 0, 2);
  locals[1].rotation = glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1)) * locals[1].rotation;
  std::vector<glm::mat4> models(static_cast<std::size_t>(skeleton.joint_count()));
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.locals = locals;
  job.models = models;
  EXPECT_TRUE(job.Run());
  return models;
}

TEST(SkinningJob, SkinsPositionsAndNormalsWithTheFormatsFormula) {
  const std::shared_ptr<const Model> model = LoadModel(kMeshFixture);
  const std::vector<glm::mat4> joints = PoseChildRotated(*model);
  std::vector<glm::vec3> positions(3), normals(3);
  SkinningJob job;
  job.model = model.get();
  job.joint_matrices = joints;
  job.positions = positions;
  job.normals = normals;
  ASSERT_TRUE(job.Run());
  EXPECT_TRUE(Near(positions[0], {0, 0, 2}));
  EXPECT_TRUE(Near(positions[1], {1, 0, 2}));
  // Child at (0,0,3) turned 90 degrees about z: its (0,1,0) becomes (-1,0,0).
  EXPECT_TRUE(Near(positions[2], {-1, 0, 3}));
  const glm::vec3 bind_normal = glm::normalize(glm::vec3(0, 1, -1));
  EXPECT_TRUE(Near(normals[0], bind_normal));
  EXPECT_TRUE(Near(normals[2], glm::normalize(glm::vec3(-1, 0, -1))));
}

TEST(SkinningJob, BindPoseReproducesBindPositions) {
  const std::shared_ptr<const Model> model = LoadModel(kMeshFixture);
  std::vector<glm::vec3> positions(3);
  SkinningJob job;
  job.model = model.get();
  job.joint_matrices = model->skeleton().bind_matrices();
  job.positions = positions;
  ASSERT_TRUE(job.Run());
  for (int v = 0; v < 3; ++v) EXPECT_TRUE(Near(positions[v], model->geometry(0).bind_positions[v]));
}

TEST(SkinningJob, PlainSumUnlessNormalized) {
  const std::shared_ptr<const Model> model =
      LoadModel(Replace(kMeshFixture, "weight 1 0 1 ( 1 0 0 )", "weight 1 0 0.5 ( 1 0 0 )"));
  std::vector<glm::vec3> positions(3);
  SkinningJob job;
  job.model = model.get();
  job.joint_matrices = model->skeleton().bind_matrices();
  job.positions = positions;
  ASSERT_TRUE(job.Run());
  EXPECT_TRUE(Near(positions[1], {0.5f, 0, 0}));
  job.normalize_weights = true;
  ASSERT_TRUE(job.Run());
  EXPECT_TRUE(Near(positions[1], {1, 0, 0}));
}

TEST(SkinningJob, RefusesBadInputs) {
  const std::shared_ptr<const Model> model = LoadModel(kMeshFixture);
  std::vector<glm::vec3> positions(3), short_positions(2);
  std::vector<glm::mat4> one_joint(1);
  SkinningJob job;
  job.model = model.get();
  job.joint_matrices = model->skeleton().bind_matrices();
  job.positions = short_positions;
  EXPECT_FALSE(job.Run());
  job.positions = positions;
  job.mesh_index = 1;
  EXPECT_FALSE(job.Run());
  job.mesh_index = 0;
  job.joint_matrices = one_joint;
  EXPECT_FALSE(job.Run());
}

// Vertex 0 has five weights (see the md5 tests): 0.1 (joint 0, dropped), 0.3 (joint 0),
// 0.2 (joint 1), 0.25 (joint 1), 0.15 (joint 0).
const char kFiveWeights[] =
    "MD5Version 10\nnumJoints 2\nnumMeshes 2\njoints {\n"
    "\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n}\n"
    "mesh {\nshader \"first\"\nnumverts 2\n"
    "vert 0 ( 0.25 0.5 ) 0 5\nvert 1 ( 0 0 ) 5 1\nnumtris 0\nnumweights 6\n"
    "weight 0 0 0.1 ( 2 0 0 )\nweight 1 0 0.3 ( 1 0 0 )\nweight 2 1 0.2 ( 1 0 -1 )\n"
    "weight 3 1 0.25 ( 1 0 -1 )\nweight 4 0 0.15 ( 1 0 0 )\nweight 5 0 1 ( 0 0 0 )\n}\n"
    "mesh {\nshader \"second\"\nnumverts 3\n"
    "vert 0 ( 0 0 ) 0 1\nvert 1 ( 0 0 ) 1 1\nvert 2 ( 0 0 ) 2 1\nnumtris 1\ntri 0 0 1 2\n"
    "numweights 3\nweight 0 0 1 ( 0 0 0 )\nweight 1 0 1 ( 1 0 0 )\nweight 2 1 1 ( 0 1 0 )\n}\n";

TEST(GpuSkinData, KeepsTheFourLargestWeightsRenormalized) {
  const std::shared_ptr<const Model> model = LoadModel(kFiveWeights);
  const GpuSkinData& gpu = model->gpu();
  ASSERT_EQ(gpu.vertices.size(), 5u);
  const GpuVertex& v = gpu.vertices[0];
  const std::uint16_t joints[4] = {0, 1, 1, 0};
  const float weights[4] = {0.3f / 0.9f, 0.25f / 0.9f, 0.2f / 0.9f, 0.15f / 0.9f};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(v.joints[i], joints[i]) << i;
    EXPECT_NEAR(v.weights[i], weights[i], 1e-6f) << i;
  }
  EXPECT_EQ(v.uv, glm::vec2(0.25f, 0.5f));
  // Full weighted sum: 0.1 * (2,0,0) + 0.9 * (1,0,0).
  EXPECT_TRUE(Near(v.position, {1.1f, 0, 0}));
  const GpuVertex& single = gpu.vertices[1];
  EXPECT_EQ(single.weights[0], 1.0f);
  EXPECT_EQ(single.weights[1], 0.0f);
  EXPECT_EQ(gpu.vertices_over_four, 1);
  EXPECT_NEAR(gpu.worst_dropped_weight, 0.1f, 1e-6f);
  EXPECT_EQ(gpu.worst_dropped_mesh, 0);
  EXPECT_EQ(gpu.worst_dropped_vertex, 0);
}

TEST(GpuSkinData, SubmeshesIndexTheSharedBuffersCounterClockwise) {
  const std::shared_ptr<const Model> model = LoadModel(kFiveWeights);
  const GpuSkinData& gpu = model->gpu();
  ASSERT_EQ(gpu.submeshes.size(), 2u);
  EXPECT_EQ(gpu.submeshes[0].shader, "first");
  EXPECT_EQ(gpu.submeshes[0].index_count, 0u);
  EXPECT_EQ(gpu.submeshes[1].shader, "second");
  EXPECT_EQ(gpu.submeshes[1].first_vertex, 2u);
  EXPECT_EQ(gpu.submeshes[1].vertex_count, 3u);
  EXPECT_EQ(gpu.submeshes[1].first_index, 0u);
  EXPECT_EQ(gpu.submeshes[1].index_count, 3u);
  // File triangle (0, 1, 2) is clockwise; the GPU gets (0, 2, 1), offset by the submesh.
  EXPECT_EQ(gpu.indices, (std::vector<std::uint32_t>{2, 4, 3}));
  // Counter-clockwise seen from the normal's side.
  const glm::vec3 a = gpu.vertices[2].position, b = gpu.vertices[4].position,
                  c = gpu.vertices[3].position;
  EXPECT_GT(glm::dot(glm::cross(b - a, c - a), gpu.vertices[2].normal), 0.0f);
  ASSERT_EQ(gpu.inverse_bind_matrices.size(), 2u);
  EXPECT_TRUE(NearMatrix(gpu.inverse_bind_matrices[1] * model->skeleton().bind_matrices()[1],
                         glm::mat4(1.0f)));
}

TEST(PaletteSkinningJob, MatchesTheReferenceForUpToFourWeights) {
  const std::shared_ptr<const Model> model = LoadModel(kMeshFixture);
  const std::vector<glm::mat4> joints = PoseChildRotated(*model);
  std::vector<glm::mat4> palette(2);
  SkinningPaletteJob palette_job{joints, model->skeleton().inverse_bind_matrices(), palette};
  ASSERT_TRUE(palette_job.Run());
  std::vector<glm::vec3> gpu_positions(3), gpu_normals(3), cpu_positions(3), cpu_normals(3);
  PaletteSkinningJob gpu_job{model.get(), palette, gpu_positions, gpu_normals, {}};
  ASSERT_TRUE(gpu_job.Run());
  SkinningJob cpu_job;
  cpu_job.model = model.get();
  cpu_job.joint_matrices = joints;
  cpu_job.positions = cpu_positions;
  cpu_job.normals = cpu_normals;
  ASSERT_TRUE(cpu_job.Run());
  for (int v = 0; v < 3; ++v) {
    EXPECT_TRUE(Near(gpu_positions[v], cpu_positions[v])) << v;
    EXPECT_TRUE(Near(gpu_normals[v], cpu_normals[v])) << v;
  }
}

TEST(MeasureGpuSkinningError, IsZeroInBindPoseAndMeasuresDroppedInfluences) {
  const std::shared_ptr<const Model> model = LoadModel(kFiveWeights);
  const SkinningError bind = MeasureGpuSkinningError(*model, model->skeleton().bind_matrices());
  EXPECT_NEAR(bind.distance, 0.0f, 1e-6f);
  // Moving joint 1 by d moves the reference by 0.45 d (its share of all weights) but the GPU
  // vertex by 0.5 d (its share of the kept four): |d| = 2 gives 0.1.
  std::vector<glm::mat4> joints = model->skeleton().bind_matrices();
  joints[1] = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2)) * joints[1];
  const SkinningError moved = MeasureGpuSkinningError(*model, joints);
  EXPECT_NEAR(moved.distance, 0.1f, 1e-5f);
  EXPECT_EQ(moved.mesh, 0);
  EXPECT_EQ(moved.vertex, 0);
}

// The child joint of kFiveWeights moved by 0, 2 and 1 along z in frames 0, 1, 2.
const char kChildUpDown[] =
    "MD5Version 10\ncommandline \"\"\nnumFrames 3\nnumJoints 2\nframeRate 24\n"
    "numAnimatedComponents 1\nhierarchy {\n\"root\" -1 0 0\n\"child\" 0 4 0\n}\n"
    "bounds {\n( -1 -1 -1 ) ( 1 1 1 )\n( -1 -1 -1 ) ( 1 1 1 )\n( -1 -1 -1 ) ( 1 1 1 )\n}\n"
    "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 1 ) ( 0 0 0 )\n}\n"
    "frame 0 {\n1\n}\nframe 1 {\n3\n}\nframe 2 {\n2\n}\n";

TEST(MeasureGpuSkinningError, OverAnAnimationNamesItsWorstFrame) {
  const std::shared_ptr<const Model> model = LoadModel(kFiveWeights);
  const Animation animation = LoadAnimation(kChildUpDown);
  ASSERT_EQ(animation.frame_count(), 3);
  const AnimationSkinningError error = MeasureGpuSkinningError(*model, animation);
  EXPECT_EQ(error.frame, 1);  // 2 units up: 0.05 of a unit each (0.5 - 0.45 of the weight)
  EXPECT_NEAR(error.worst.distance, 0.1f, 1e-5f);
  EXPECT_EQ(error.worst.mesh, 0);
  EXPECT_EQ(error.worst.vertex, 0);
}

}  // namespace
}  // namespace md5stage::anim
