// libFuzzer harness: .md5mesh bytes -> ParseMd5Mesh (or, for bytes that start as a mesh pack,
// DecodeMeshPack) -> Model::Create, then bind-pose skinning on
// both the CPU reference and the GPU (4-influence) path. Invariants: a failure carries a located
// message; joint rotations are unit quaternions; a model's GPU data only refers to vertices and
// joints that exist.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/md5/md5_parser.h"
#include "core/md5/mesh_pack.h"
#include "fuzz_util.h"

using namespace md5stage;

namespace {
int CheckModel(md5::MeshFile mesh);
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)md5::DetectMd5Kind("fuzz", bytes);
  if (md5::IsMeshPack(bytes)) {
    Result<md5::MeshFile> decoded = md5::DecodeMeshPack("fuzz.md5mesh", bytes);
    if (!decoded.ok()) {
      FUZZ_CHECK(!decoded.error().message.empty());
      FUZZ_CHECK(decoded.error().file == "fuzz.md5mesh");
      return 0;
    }
    // What decodes packs again to the same bytes' layout (the packer's own checks pass).
    FUZZ_CHECK(md5::EncodeMeshPack(decoded.value()).ok());
    return CheckModel(std::move(decoded).value());
  }
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh("fuzz.md5mesh", bytes);
  // The fast line scanner and the checked reader must agree on everything.
  md5::Md5Limits checked_only;
  checked_only.scan_simple_lines = false;
  const Result<md5::MeshFile> checked = md5::ParseMd5Mesh("fuzz.md5mesh", bytes, checked_only);
  FUZZ_CHECK(parsed.ok() == checked.ok());
  if (!parsed.ok()) FUZZ_CHECK(parsed.error().message == checked.error().message);
  if (parsed.ok()) {
    const std::vector<md5::MeshPart>& a = parsed.value().meshes;
    const std::vector<md5::MeshPart>& b = checked.value().meshes;
    FUZZ_CHECK(a.size() == b.size());
    for (std::size_t m = 0; m < a.size(); ++m) {
      FUZZ_CHECK(fuzz::SameBytes(a[m].vertices, b[m].vertices));
      FUZZ_CHECK(fuzz::SameBytes(a[m].triangles, b[m].triangles));
      FUZZ_CHECK(fuzz::SameBytes(a[m].weights, b[m].weights));
    }
    FUZZ_CHECK(parsed.value().warnings.size() == checked.value().warnings.size());
  }
  if (!parsed.ok()) {
    FUZZ_CHECK(!parsed.error().message.empty());
    FUZZ_CHECK(parsed.error().file == "fuzz.md5mesh");
    return 0;
  }
  return CheckModel(std::move(parsed).value());
}

namespace {

// A valid mesh's model: its GPU data refers to what exists and every skinning path runs.
int CheckModel(md5::MeshFile mesh) {
  std::shared_ptr<const anim::Model> model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh)));
  FUZZ_CHECK(model != nullptr);
  const anim::Skeleton& skeleton = model->skeleton();
  const int joints = skeleton.joint_count();
  const anim::GpuSkinData& gpu = model->gpu();
  for (const anim::GpuVertex& vertex : gpu.vertices) {
    for (std::uint16_t joint : vertex.joints) FUZZ_CHECK(joint < joints || joints == 0);
  }
  for (std::uint32_t index : gpu.indices) FUZZ_CHECK(index < gpu.vertices.size());
  for (const anim::GpuSubmesh& sub : gpu.submeshes) {
    FUZZ_CHECK(std::size_t{sub.first_index} + sub.index_count <= gpu.indices.size());
    FUZZ_CHECK(std::size_t{sub.first_vertex} + sub.vertex_count <= gpu.vertices.size());
  }
  for (int j = 0; j < joints; ++j) {
    const glm::quat& q = skeleton.bind_models()[j].rotation;
    FUZZ_CHECK(std::abs(std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z) - 1.0f) < 1e-3f);
    FUZZ_CHECK(skeleton.parent(j) < j);
    FUZZ_CHECK(skeleton.FindJoint(skeleton.name(j)) <= j);
  }

  // Bind pose through every skinning path.
  const std::vector<glm::mat4>& bind = skeleton.bind_matrices();
  for (int m = 0; m < model->mesh_count(); ++m) {
    const std::size_t vertices = model->mesh(m).vertices.size();
    std::vector<glm::vec3> positions(vertices), normals(vertices);
    anim::SkinningJob skin;
    skin.model = model.get();
    skin.mesh_index = m;
    skin.joint_matrices = anim::Span<const glm::mat4>(bind.data(), bind.size());
    skin.normalize_weights = (m % 2) == 0;
    skin.positions = positions;
    skin.normals = normals;
    FUZZ_CHECK(skin.Run());
  }
  std::vector<glm::mat4> palette(static_cast<std::size_t>(joints), glm::mat4(1.0f));
  std::vector<glm::vec3> gpu_positions(gpu.vertices.size()), gpu_normals(gpu.vertices.size());
  anim::PaletteSkinningJob palette_skin;
  palette_skin.model = model.get();
  palette_skin.palette = anim::Span<const glm::mat4>(palette.data(), palette.size());
  palette_skin.positions = gpu_positions;
  palette_skin.normals = gpu_normals;
  FUZZ_CHECK(palette_skin.Run());
  (void)anim::MeasureGpuSkinningError(*model,
                                      anim::Span<const glm::mat4>(bind.data(), bind.size()));
  return 0;
}

}  // namespace
