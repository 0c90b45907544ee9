// libFuzzer harness: .md5anim bytes -> ParseMd5Anim -> Animation::FromAnimFile, then sampling at
// ordinary and hostile times (negative, huge, infinite, NaN) in every playback mode, and at every
// frame. Invariants: a failure carries a located message; a sampled pose is finite with unit
// rotations (the renderer uploads it as is).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/md5/md5_parser.h"
#include "fuzz_util.h"

using namespace md5stage;

namespace {

void CheckPose(const std::vector<anim::JointTransform>& pose) {
  for (const anim::JointTransform& joint : pose) {
    FUZZ_CHECK(std::isfinite(joint.translation.x) && std::isfinite(joint.translation.y) &&
               std::isfinite(joint.translation.z));
    const glm::quat& q = joint.rotation;
    const float length = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    FUZZ_CHECK(std::abs(length - 1.0f) < 1e-3f);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Result<md5::AnimFile> parsed = md5::ParseMd5Anim("fuzz.md5anim", bytes);
  // The fast line scanner and the checked reader must agree on everything.
  md5::Md5Limits checked_only;
  checked_only.scan_simple_lines = false;
  const Result<md5::AnimFile> checked = md5::ParseMd5Anim("fuzz.md5anim", bytes, checked_only);
  FUZZ_CHECK(parsed.ok() == checked.ok());
  if (!parsed.ok()) FUZZ_CHECK(parsed.error().message == checked.error().message);
  if (parsed.ok()) {
    FUZZ_CHECK(fuzz::SameBytes(parsed.value().frame_components, checked.value().frame_components));
  }
  if (!parsed.ok()) {
    FUZZ_CHECK(!parsed.error().message.empty());
    FUZZ_CHECK(parsed.error().file == "fuzz.md5anim");
    return 0;
  }
  const anim::Animation animation = anim::Animation::FromAnimFile(
      std::make_shared<const md5::AnimFile>(std::move(parsed).value()));
  FUZZ_CHECK(animation.joint_count() >= 0 && animation.frame_count() >= 0);
  FUZZ_CHECK(std::isfinite(animation.duration()) && animation.duration() >= 0.0f);
  std::vector<anim::JointTransform> pose(static_cast<std::size_t>(animation.joint_count()));
  const float duration = animation.duration();
  const float times[] = {0.0f,
                         duration * 0.37f,
                         duration,
                         std::nextafter(duration, 0.0f),
                         -duration * 1.5f,
                         -1e-7f,
                         1e7f,
                         -1e30f,
                         std::numeric_limits<float>::max(),
                         std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN()};
  for (anim::PlaybackMode mode : {anim::PlaybackMode::kLoop, anim::PlaybackMode::kClamp}) {
    for (float time : times) {
      const anim::FramePosition at = animation.Locate(time, mode);
      if (animation.frame_count() > 0) {
        FUZZ_CHECK(at.frame0 >= 0 && at.frame0 < animation.frame_count());
        FUZZ_CHECK(at.frame1 >= 0 && at.frame1 < animation.frame_count());
        FUZZ_CHECK(at.alpha >= 0.0f && at.alpha <= 1.0f);
      }
      for (anim::RootMotion root : {anim::RootMotion::kKeep, anim::RootMotion::kStripHorizontal}) {
        anim::SampleJob sample;
        sample.animation = &animation;
        sample.time = time;
        sample.mode = mode;
        sample.root_motion = root;
        sample.output = pose;
        FUZZ_CHECK(sample.Run() == (animation.frame_count() > 0));
        if (animation.frame_count() > 0) CheckPose(pose);
      }
    }
  }
  // Every frame exactly (bounded: a long file is sampled at a stride).
  const int frames = animation.frame_count();
  const int stride = frames > 256 ? frames / 256 : 1;
  for (int frame = 0; frame < frames; frame += stride) {
    anim::SampleJob sample;
    sample.animation = &animation;
    sample.frame = frame;
    sample.output = pose;
    FUZZ_CHECK(sample.Run());
    CheckPose(pose);
  }
  anim::SampleJob past_end;
  past_end.animation = &animation;
  past_end.frame = frames;
  past_end.output = pose;
  FUZZ_CHECK(!past_end.Run());
  return 0;
}
