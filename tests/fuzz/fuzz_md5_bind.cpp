// libFuzzer harness: a mesh and an animation bound together and played. The input is
// MESH '\0' ANIM '\0' PARAMETERS: both files go through a ResourceCache (twice, so the cached path
// runs too), CheckAnimationFitsModel decides whether they pair, and then CharacterPoseJob plays
// them at fuzzed times (crossfaded with the same animation at another time, under a fuzzed world
// matrix that may hold NaN or huge values) followed by CPU and palette skinning of the result.
// Invariants: a pairing the check rejects is also rejected by the job; accepted pairs never read
// out of bounds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/anim/binding.h"
#include "core/anim/character_pose_job.h"
#include "core/anim/jobs.h"
#include "core/anim/resource_cache.h"
#include "fuzz_util.h"

using namespace md5stage;

namespace {

std::string_view TakeUntilNul(std::string_view* rest) {
  const std::size_t end = rest->find('\0');
  const std::string_view part = rest->substr(0, end);
  rest->remove_prefix(end == std::string_view::npos ? rest->size() : end + 1);
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::string_view mesh_bytes = TakeUntilNul(&rest);
  const std::string_view anim_bytes = TakeUntilNul(&rest);
  FuzzedDataProvider parameters(reinterpret_cast<const std::uint8_t*>(rest.data()), rest.size());

  anim::ResourceCache cache;
  auto model = cache.LoadModel("fuzz.md5mesh", mesh_bytes);
  auto animation = cache.LoadAnimation("fuzz.md5anim", anim_bytes);
  if (model.ok()) FUZZ_CHECK(cache.LoadModel("fuzz.md5mesh", mesh_bytes).value() == model.value());
  if (animation.ok()) {
    FUZZ_CHECK(cache.LoadAnimation("fuzz.md5anim", anim_bytes).value() == animation.value());
  }
  if (!model.ok()) return 0;
  const anim::Model& mesh = *model.value();
  anim::Pose pose(mesh.skeleton().joint_count());

  // The bind pose works for every model.
  anim::CharacterPoseJob bind_pose;
  bind_pose.model = &mesh;
  bind_pose.pose = &pose;
  FUZZ_CHECK(bind_pose.Run());
  if (!animation.ok()) return 0;
  const anim::Animation& clip = *animation.value();

  std::vector<Diagnostic> warnings;
  const Status fits = anim::CheckAnimationFitsModel(mesh, clip, &warnings);
  if (!fits.ok()) FUZZ_CHECK(!fits.error().message.empty());
  const bool same_joint_count = clip.joint_count() == mesh.skeleton().joint_count();
  if (fits.ok()) FUZZ_CHECK(same_joint_count);

  anim::CharacterPoseJob job;
  job.model = &mesh;
  job.animation = &clip;
  job.pose = &pose;
  for (int step = 0; step < 8 && parameters.remaining_bytes() > 0; ++step) {
    job.time = static_cast<float>(fuzz::ConsumeEdgyDouble(parameters));
    job.mode = parameters.ConsumeBool() ? anim::PlaybackMode::kLoop : anim::PlaybackMode::kClamp;
    job.root_motion =
        parameters.ConsumeBool() ? anim::RootMotion::kKeep : anim::RootMotion::kStripHorizontal;
    if (parameters.ConsumeBool()) {
      job.fade_from = &clip;
      job.fade_from_time = static_cast<float>(fuzz::ConsumeEdgyDouble(parameters));
      job.fade_weight = static_cast<float>(fuzz::ConsumeEdgyDouble(parameters));
    } else {
      job.fade_from = nullptr;
    }
    if (parameters.ConsumeBool()) {
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) {
          job.world[c][r] = static_cast<float>(fuzz::ConsumeEdgyDouble(parameters));
        }
      }
      job.world[3] = glm::vec4(static_cast<float>(fuzz::ConsumeEdgyDouble(parameters)),
                               static_cast<float>(fuzz::ConsumeEdgyDouble(parameters)),
                               static_cast<float>(fuzz::ConsumeEdgyDouble(parameters)), 1.0f);
    }
    const bool ran = job.Run();
    // A job never plays an animation of another joint count; a clip without frames cannot play.
    if (!same_joint_count || clip.frame_count() == 0) FUZZ_CHECK(!ran);
    if (!ran) continue;
    for (int m = 0; m < mesh.mesh_count(); ++m) {
      std::vector<glm::vec3> positions(mesh.mesh(m).vertices.size());
      anim::SkinningJob skin;
      skin.model = &mesh;
      skin.mesh_index = m;
      skin.joint_matrices = pose.models;
      skin.positions = positions;
      FUZZ_CHECK(skin.Run());
    }
    std::vector<glm::vec3> gpu_positions(mesh.gpu().vertices.size());
    anim::PaletteSkinningJob palette;
    palette.model = &mesh;
    palette.palette = pose.palette;
    palette.positions = gpu_positions;
    FUZZ_CHECK(palette.Run());
  }
  return 0;
}
