// TangentJob (Doom 3's bind-pose tangent derivation): flat, flipped, mirrored and degenerate UV
// layouts, the job's validity table, and every vertex of the walker and the ../shared models
// (unit tangents orthogonal to the normal, the sign +-1), skinned on the CPU and the GPU path.
#include "core/anim/tangents.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"

namespace md5stage::anim {
namespace {

namespace fs = std::filesystem;

struct Surface {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<glm::vec2> uvs;
  std::vector<md5::MeshTriangle> triangles;
};

// A unit quad in the z = 0 plane from (x0, 0) to (x0 + 1, 1), uv corners given per vertex
// (0,0) (1,0) (1,1) (0,1) in that order; two triangles of the given winding.
void AddQuad(Surface& s, float x0, const glm::vec2 uv[4], bool clockwise = false) {
  const std::uint32_t base = static_cast<std::uint32_t>(s.positions.size());
  const glm::vec3 corners[4] = {{x0, 0, 0}, {x0 + 1, 0, 0}, {x0 + 1, 1, 0}, {x0, 1, 0}};
  for (int i = 0; i < 4; ++i) {
    s.positions.push_back(corners[i]);
    s.normals.push_back({0, 0, 1});
    s.uvs.push_back(uv[i]);
  }
  if (clockwise) {
    s.triangles.push_back({{base, base + 2, base + 1}});
    s.triangles.push_back({{base, base + 3, base + 2}});
  } else {
    s.triangles.push_back({{base, base + 1, base + 2}});
    s.triangles.push_back({{base, base + 2, base + 3}});
  }
}

std::vector<glm::vec4> Derive(const Surface& s) {
  std::vector<glm::vec4> tangents(s.positions.size());
  std::vector<TangentSums> scratch(s.positions.size());
  TangentJob job;
  job.positions = s.positions;
  job.normals = s.normals;
  job.uvs = s.uvs;
  job.triangles = s.triangles;
  job.tangents = tangents;
  job.scratch = scratch;
  EXPECT_TRUE(job.Run());
  return tangents;
}

::testing::AssertionResult IsFrame(const glm::vec4& t, const glm::vec3& n, float tol = 1e-5f) {
  if (!std::isfinite(t.x) || !std::isfinite(t.y) || !std::isfinite(t.z) || !std::isfinite(t.w))
    return ::testing::AssertionFailure() << "not finite";
  const float length = glm::length(glm::vec3(t));
  if (std::fabs(length - 1.0f) > tol) return ::testing::AssertionFailure() << "length " << length;
  const float along = glm::dot(glm::vec3(t), n);
  if (std::fabs(along) > tol) return ::testing::AssertionFailure() << "dot with normal " << along;
  if (t.w != 1.0f && t.w != -1.0f) return ::testing::AssertionFailure() << "sign " << t.w;
  return ::testing::AssertionSuccess();
}

TEST(TangentJob, QuadLayouts) {
  const glm::vec2 plain[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const glm::vec2 v_down[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};    // v runs along -y
  const glm::vec2 u_back[4] = {{1, 0}, {0, 0}, {0, 1}, {1, 1}};    // u runs along -x
  const glm::vec2 turned[4] = {{0, 0}, {0, 1}, {-1, 1}, {-1, 0}};  // u along +y, v along -x
  const glm::vec2 scaled[4] = {{0, 0}, {4, 0}, {4, 0.5f}, {0, 0.5f}};
  struct Case {
    const char* name;
    const glm::vec2* uvs;
    bool clockwise;
    glm::vec3 tangent;
    float sign;
  };
  const Case cases[] = {
      {"u along x, v along y", plain, false, {1, 0, 0}, 1},
      {"clockwise winding: same frame", plain, true, {1, 0, 0}, 1},
      {"v flipped: sign -1", v_down, false, {1, 0, 0}, -1},
      {"u flipped: tangent -x, sign -1", u_back, false, {-1, 0, 0}, -1},
      {"uv turned a quarter", turned, false, {0, -1, 0}, 1},
      {"non-uniform uv scale", scaled, true, {1, 0, 0}, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Surface s;
    AddQuad(s, 0.0f, c.uvs, c.clockwise);
    const std::vector<glm::vec4> tangents = Derive(s);
    for (std::size_t v = 0; v < tangents.size(); ++v) {
      EXPECT_TRUE(IsFrame(tangents[v], s.normals[v]));
      EXPECT_LT(glm::length(glm::vec3(tangents[v]) - c.tangent), 1e-5f) << "vertex " << v;
      EXPECT_EQ(tangents[v].w, c.sign) << "vertex " << v;
    }
  }
}

TEST(TangentJob, MirrorSeamVerticesKeepTheirHandedness) {
  // Two quads sharing the edge x = 1: the left maps u to +x, the right mirrors it (u to -x), as
  // a symmetric character's UVs do. The left has the larger UV area, so the seam keeps its side.
  Surface s;
  const glm::vec2 left[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  AddQuad(s, 0.0f, left);
  const glm::vec2 right[4] = {{1, 0}, {0.5f, 0}, {0.5f, 1}, {1, 1}};  // seam at u = 1, mirrored
  AddQuad(s, 1.0f, right);
  // Weld the seam: the right quad's corners 4 (x=1,y=0) and 7 (x=1,y=1) become 1 and 2.
  for (md5::MeshTriangle& t : s.triangles) {
    for (std::uint32_t& corner : t.vertices) {
      if (corner == 4) corner = 1;
      if (corner == 7) corner = 2;
    }
  }
  const std::vector<glm::vec4> tangents = Derive(s);
  struct Expect {
    std::uint32_t vertex;
    glm::vec3 tangent;
    float sign;
  };
  const Expect expected[] = {
      {0, {1, 0, 0}, 1},   {3, {1, 0, 0}, 1},    // left side
      {1, {1, 0, 0}, 1},   {2, {1, 0, 0}, 1},    // on the seam: not cancelled to zero
      {5, {-1, 0, 0}, -1}, {6, {-1, 0, 0}, -1},  // mirrored side
  };
  for (const Expect& e : expected) {
    SCOPED_TRACE(e.vertex);
    EXPECT_TRUE(IsFrame(tangents[e.vertex], {0, 0, 1}));
    EXPECT_LT(glm::length(glm::vec3(tangents[e.vertex]) - e.tangent), 1e-5f);
    EXPECT_EQ(tangents[e.vertex].w, e.sign);
  }
}

TEST(TangentJob, DegenerateUvsFallBackToAnOrthogonalBasis) {
  const float nan = std::nanf("");
  struct Case {
    const char* name;
    glm::vec2 uv[4];
    glm::vec3 normal;
  };
  const Case cases[] = {
      {"all uvs equal", {{0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}}, {0, 0, 1}},
      {"uvs on a line", {{0, 0}, {1, 0}, {2, 0}, {3, 0}}, {0, 0, 1}},
      {"NaN uvs", {{nan, 0}, {1, nan}, {nan, nan}, {0, 1}}, {0, 0, 1}},
      {"tilted normal", {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, glm::normalize(glm::vec3(1, 2, 3))},
      {"zero normal (unused vertex)", {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Surface s;
    AddQuad(s, 0.0f, c.uv);
    for (glm::vec3& n : s.normals) n = c.normal;
    const std::vector<glm::vec4> tangents = Derive(s);
    for (const glm::vec4& t : tangents) {
      EXPECT_TRUE(IsFrame(t, c.normal));
      EXPECT_EQ(t.w, 1.0f);
    }
  }
}

TEST(TangentJob, GramSchmidtAgainstASmoothNormal) {
  // A skewed uv layout and a normal that is not the face normal: S is projected off the normal.
  Surface s;
  const glm::vec2 skew[4] = {{0, 0}, {1, 0.3f}, {1.2f, 1.1f}, {0.1f, 1}};
  AddQuad(s, 0.0f, skew);
  for (glm::vec3& n : s.normals) n = glm::normalize(glm::vec3(0.3f, -0.2f, 1.0f));
  for (std::size_t v = 0; v < s.positions.size(); ++v) {
    EXPECT_TRUE(IsFrame(Derive(s)[v], s.normals[v]));
  }
}

TEST(TangentJob, Validity) {
  Surface good;
  const glm::vec2 plain[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  AddQuad(good, 0.0f, plain);
  std::vector<glm::vec4> tangents(4), short_tangents(3);
  std::vector<TangentSums> scratch(4), short_scratch(2);
  std::vector<md5::MeshTriangle> out_of_range = {{{0, 1, 4}}};
  std::vector<glm::vec2> short_uvs(3);
  struct Case {
    const char* name;
    bool short_output, short_scratch_span, bad_triangle, short_uv_span, empty;
    bool valid;
  };
  const Case cases[] = {
      {"complete", false, false, false, false, false, true},
      {"everything empty", false, false, false, false, true, true},
      {"tangents shorter than positions", true, false, false, false, false, false},
      {"scratch shorter than positions", false, true, false, false, false, false},
      {"triangle index out of range", false, false, true, false, false, false},
      {"uvs shorter than positions", false, false, false, true, false, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TangentJob job;
    if (!c.empty) {
      job.positions = good.positions;
      job.normals = good.normals;
      job.uvs =
          c.short_uv_span ? Span<const glm::vec2>(short_uvs) : Span<const glm::vec2>(good.uvs);
      job.triangles = c.bad_triangle ? Span<const md5::MeshTriangle>(out_of_range)
                                     : Span<const md5::MeshTriangle>(good.triangles);
      job.tangents = c.short_output ? Span<glm::vec4>(short_tangents) : Span<glm::vec4>(tangents);
      job.scratch =
          c.short_scratch_span ? Span<TangentSums>(short_scratch) : Span<TangentSums>(scratch);
    }
    EXPECT_EQ(job.Validate(), c.valid);
    EXPECT_EQ(job.Run(), c.valid);
  }
}

std::shared_ptr<const Model> LoadMeshFile(const fs::path& path) {
  Result<std::string> bytes = md5::ReadFileBytes(path.string());
  if (!bytes.ok()) return nullptr;
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh(path.filename().string(), bytes.value());
  if (!parsed.ok()) return nullptr;
  return Model::Create(std::make_shared<const md5::MeshFile>(parsed.value()));
}

// Every GPU vertex has a unit tangent orthogonal to its normal; then, under a pose of arbitrary
// rigid joint motions, the CPU reference (all weights) and the GPU path (4 weights, palette)
// skin the tangent alike when a vertex has at most 4 weights.
void CheckModelTangents(const Model& model) {
  int mirrored = 0;
  for (const GpuVertex& v : model.gpu().vertices) {
    if (v.normal == glm::vec3(0.0f)) continue;  // a vertex no triangle uses
    ASSERT_TRUE(IsFrame(v.tangent, v.normal));
    mirrored += v.tangent.w < 0.0f;
  }
  const int joints = model.skeleton().joint_count();
  std::vector<glm::mat4> pose(static_cast<std::size_t>(joints));
  for (int j = 0; j < joints; ++j) {
    const glm::quat turn = glm::angleAxis(0.3f + 0.1f * static_cast<float>(j),
                                          glm::normalize(glm::vec3(1, 0.5f * j, 2)));
    pose[static_cast<std::size_t>(j)] =
        glm::translate(glm::mat4(1.0f), glm::vec3(0.1f * j, 0, 0)) * glm::mat4_cast(turn) *
        model.skeleton().bind_matrices()[static_cast<std::size_t>(j)];
  }
  std::vector<glm::mat4> palette(pose.size());
  SkinningPaletteJob palette_job;
  palette_job.joint_matrices = pose;
  palette_job.inverse_bind_matrices = model.skeleton().inverse_bind_matrices();
  palette_job.palette = palette;
  ASSERT_TRUE(palette_job.Run());
  const std::size_t n = model.gpu().vertices.size();
  std::vector<glm::vec3> gpu_positions(n);
  std::vector<glm::vec4> gpu_tangents(n);
  std::vector<glm::vec3> gpu_normals(n);  // the normals too: the same per-vertex rule
  PaletteSkinningJob gpu_job;
  gpu_job.model = &model;
  gpu_job.palette = palette;
  gpu_job.positions = gpu_positions;
  gpu_job.tangents = gpu_tangents;
  gpu_job.normals = gpu_normals;
  ASSERT_TRUE(gpu_job.Run());
  float worst = 0.0f, worst_normal = 0.0f;
  for (int m = 0; m < model.mesh_count(); ++m) {
    const md5::MeshPart& mesh = model.mesh(m);
    std::vector<glm::vec3> positions(mesh.vertices.size());
    std::vector<glm::vec4> tangents(mesh.vertices.size());
    std::vector<glm::vec3> normals(mesh.vertices.size());
    SkinningJob job;
    job.model = &model;
    job.mesh_index = m;
    job.joint_matrices = pose;
    job.normalize_weights = true;
    job.positions = positions;
    job.tangents = tangents;
    job.normals = normals;
    ASSERT_TRUE(job.Run());
    const std::size_t first = model.gpu().submeshes[static_cast<std::size_t>(m)].first_vertex;
    for (std::size_t v = 0; v < tangents.size(); ++v) {
      if (mesh.vertices[v].weight_count > 4) continue;
      if (model.gpu().vertices[first + v].normal == glm::vec3(0.0f)) continue;
      EXPECT_EQ(tangents[v].w, gpu_tangents[first + v].w);
      const float error = glm::length(glm::vec3(tangents[v] - gpu_tangents[first + v]));
      worst_normal = std::max(worst_normal, glm::length(normals[v] - gpu_normals[first + v]));
      worst = std::max(worst, error);
    }
  }
  EXPECT_LT(worst, 1e-4f) << model.name();
  EXPECT_LT(worst_normal, 1e-4f) << model.name();
  ::testing::Test::RecordProperty("mirrored_vertices", mirrored);
}

TEST(ModelTangents, Walker) {
  auto model = LoadMeshFile(fs::path(MD5STAGE_SOURCE_DIR) / "assets/models/walker/walker.md5mesh");
  ASSERT_NE(model, nullptr);
  CheckModelTangents(*model);
}

TEST(ModelTangents, SharedModels) {
  const fs::path root = fs::path(MD5STAGE_SHARED_DIR) / "md5";
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::exists(root));
  int checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".md5mesh") continue;
    auto model = LoadMeshFile(entry.path());
    if (model == nullptr) continue;  // the refused files (MD5Version 11/12) are other tests'
    SCOPED_TRACE(entry.path().string());
    CheckModelTangents(*model);
    ++checked;
  }
  EXPECT_GT(checked, 3);
}

}  // namespace
}  // namespace md5stage::anim
