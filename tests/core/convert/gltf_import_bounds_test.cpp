// GltfImportJob's bounds (issue 44): what a glTF's animation will cost is worked out from its keys'
// times before any frame is sampled, and an input past the MD5 limits or the import's bounds is
// refused with a message naming its field. Tables: ../shared's samples with their times stretched
// or moved (made here at test time, never kept in the repository), the hand-made regression files
// of tests/core/convert/regressions/ (also fuzz inputs), lowered bounds, and frame rates that
// must never round to 0.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "core/convert/gltf_import.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"

namespace md5stage::convert {
namespace {

// What a conversion may make at most (the issue's bound): well above GltfImportBounds's 16 MB
// estimate for the files that pass it.
constexpr std::size_t kMaxConvertedBytes = std::size_t{64} << 20;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

struct Converted {
  Status status;
  GltfImportOutput output;
  std::size_t anim_bytes = 0;  // the md5anim text written
};

// The job as `md5stage convert` and a viewer drop run it (default options), then every md5anim
// written and parsed back against the mesh, as the CLI does before it writes anything.
Converted Convert(const std::string& name, const std::string& bytes,
                  GltfImportOptions options = GltfImportOptions()) {
  Converted result;
  std::vector<Diagnostic> warnings;
  GltfImportJob job;
  job.file_name = name;
  job.bytes = bytes;
  job.options = options;
  job.output = &result.output;
  job.warnings = &warnings;
  result.status = job.Run();
  if (!result.status.ok()) return result;
  Result<md5::MeshFile> mesh =
      md5::ParseMd5Mesh("m.md5mesh", md5::WriteMd5Mesh(result.output.mesh));
  EXPECT_TRUE(mesh.ok()) << mesh.error().ToString();
  for (const ImportedAnimation& animation : result.output.animations) {
    const std::string text = md5::WriteMd5Anim(animation.file);
    result.anim_bytes += text.size();
    Result<md5::AnimFile> back = md5::ParseMd5Anim(animation.name + ".md5anim", text);
    EXPECT_TRUE(back.ok()) << back.error().ToString();
    if (back.ok() && mesh.ok()) {
      std::vector<Diagnostic> ignored;
      const Status fits = md5::CheckAnimFitsMesh(mesh.value(), back.value(), &ignored);
      EXPECT_TRUE(fits.ok()) << fits.error().ToString();
    }
  }
  return result;
}

// ---- ../shared's samples with hostile times
// ------------------------------------------------------

bool KeepImage(tinygltf::Image*, const int, std::string*, std::string*, int, int,
               const unsigned char*, int, void*) {
  return true;
}

// Every animation's key times (each input accessor once) replaced by `edit` of them.
void EditKeyTimes(tinygltf::Model* gltf, const std::function<void(std::vector<float>*)>& edit) {
  std::vector<int> inputs;
  for (const tinygltf::Animation& animation : gltf->animations) {
    for (const tinygltf::AnimationSampler& sampler : animation.samplers) {
      if (std::find(inputs.begin(), inputs.end(), sampler.input) == inputs.end()) {
        inputs.push_back(sampler.input);
      }
    }
  }
  for (int input : inputs) {
    tinygltf::Accessor& accessor = gltf->accessors[static_cast<std::size_t>(input)];
    const tinygltf::BufferView& view =
        gltf->bufferViews[static_cast<std::size_t>(accessor.bufferView)];
    unsigned char* data = gltf->buffers[static_cast<std::size_t>(view.buffer)].data.data() +
                          view.byteOffset + accessor.byteOffset;
    std::vector<float> times(accessor.count);
    std::memcpy(times.data(), data, times.size() * sizeof(float));
    edit(&times);
    std::memcpy(data, times.data(), times.size() * sizeof(float));
    accessor.minValues = {times.front()};
    accessor.maxValues = {times.back()};
  }
}

// A ../shared/gltf sample with its key times edited, as .glb bytes; "" when ../shared is missing.
std::string EditedSample(const std::string& relative,
                         const std::function<void(std::vector<float>*)>& edit) {
  const std::string path = std::string(MD5STAGE_SHARED_DIR) + "/gltf/" + relative;
  if (!std::filesystem::is_regular_file(path)) return "";
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&KeepImage, nullptr);
  tinygltf::Model gltf;
  std::string error, warning;
  const bool binary = relative.size() > 4 && relative.compare(relative.size() - 4, 4, ".glb") == 0;
  const bool loaded = binary ? loader.LoadBinaryFromFile(&gltf, &error, &warning, path)
                             : loader.LoadASCIIFromFile(&gltf, &error, &warning, path);
  EXPECT_TRUE(loaded) << error;
  EditKeyTimes(&gltf, edit);
  std::ostringstream glb;
  tinygltf::TinyGLTF writer;
  EXPECT_TRUE(writer.WriteGltfSceneToStream(&gltf, glb, false, true));
  return glb.str();
}

std::function<void(std::vector<float>*)> Stretched(float factor) {
  return [factor](std::vector<float>* times) {
    for (float& t : *times) t *= factor;
  };
}

std::function<void(std::vector<float>*)> LastKeyAt(float seconds) {
  return [seconds](std::vector<float>* times) { times->back() = seconds; };
}

struct SampleCase {
  const char* name;
  const char* sample;  // under ../shared/gltf
  std::function<void(std::vector<float>*)> edit;
  // "" when it converts (within kMaxConvertedBytes), else what the refusal says (the field first).
  const char* refusal;
  int frames;  // of the first animation, when it converts
};

TEST(GltfImportBounds, SharedSamplesWithHostileTimesAreRefusedOrConvertedWithinBounds) {
  const std::vector<SampleCase> cases = {
      {"SimpleSkin, a key at 100 h", "SimpleSkin/SimpleSkin.gltf", LastKeyAt(100 * 3600.0f),
       "animations[0]: 360000 s at 2 fps make 720001 frames of 2 joints = 168 MB of md5anim, "
       "expected at most 16 MB (the import's bound)",
       0},
      {"SimpleSkin, a key at 1,000 h", "SimpleSkin/SimpleSkin.gltf", LastKeyAt(1000 * 3600.0f),
       "animations[0]: 3600000 s at 2 fps make 7200001 frames, expected at most 1048576 (md5 "
       "limit)",
       0},
      // Keys 250 s apart: a grid of 0.004 fps, kept.
      {"SimpleSkin, times x500", "SimpleSkin/SimpleSkin.gltf", Stretched(500.0f), "", 12},
      {"SimpleSkin, times x2,000", "SimpleSkin/SimpleSkin.gltf", Stretched(2000.0f), "", 12},
      // A grid of 2e-6 fps (below kMinGridFps: once rounded to 0 fps) is sampled at 30 fps.
      {"SimpleSkin, times x1,000,000", "SimpleSkin/SimpleSkin.gltf", Stretched(1e6f),
       "animations[0]: 5500000 s at 30 fps make 165000001 frames, expected at most 1048576 (md5 "
       "limit)",
       0},
      {"RiggedSimple, times x500", "RiggedSimple/RiggedSimple.glb", Stretched(500.0f), "", 161},
      {"RiggedSimple, times x2,000", "RiggedSimple/RiggedSimple.glb", Stretched(2000.0f), "", 161},
      {"RiggedSimple, times x1,000,000", "RiggedSimple/RiggedSimple.glb", Stretched(1e6f),
       "animations[0]: 6666666 s at 30 fps make 199999996 frames, expected at most 1048576 (md5 "
       "limit)",
       0},
  };
  MD5STAGE_SKIP_WITHOUT_SHARED(
      std::filesystem::is_directory(std::string(MD5STAGE_SHARED_DIR) + "/gltf"));
  for (const SampleCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string bytes = EditedSample(c.sample, c.edit);
    ASSERT_FALSE(bytes.empty()) << c.sample << " not found in ../shared/gltf";
    const Converted result = Convert("sample.glb", bytes);
    if (*c.refusal != '\0') {
      ASSERT_FALSE(result.status.ok());
      EXPECT_EQ(result.status.error().ToString(), std::string("sample.glb: error: ") + c.refusal);
      continue;
    }
    ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
    ASSERT_FALSE(result.output.animations.empty());
    EXPECT_EQ(result.output.animations[0].file.frame_count, c.frames);
    EXPECT_GT(result.output.animations[0].file.frame_rate, 0.0f);
    EXPECT_LE(result.anim_bytes, kMaxConvertedBytes);
  }
}

// ---- the hand-made regression files
// ----------------------------------------------------------------

struct RegressionCase {
  const char* file;     // in tests/core/convert/regressions/
  const char* refusal;  // "" when it converts
  int frames;
  float frame_rate;
};

TEST(GltfImportBounds, RegressionFilesAreRefusedOrConvertedWithinBounds) {
  const std::vector<RegressionCase> cases = {
      {"key_at_100_hours.gltf",
       "animations[0]: 360000 s at 2 fps make 720001 frames of 2 joints = 168 MB of md5anim, "
       "expected at most 16 MB (the import's bound)",
       0, 0.0f},
      {"keys_500000_s_apart.gltf",
       "animations[0]: 1500000 s at 30 fps make 45000001 frames, expected at most 1048576 (md5 "
       "limit)",
       0, 0.0f},
      {"keys_1000_s_apart.gltf", "", 4, 0.001f},
      // 4.095 ms of keys on a 1 MHz grid: finer than kMaxGridFps, so 30 fps, one frame.
      {"keys_4096_at_1e-6_s.gltf", "", 1, 30.0f},
  };
  for (const RegressionCase& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string bytes =
        ReadBytes(std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/convert/regressions/" + c.file);
    ASSERT_FALSE(bytes.empty());
    const Converted result = Convert(c.file, bytes);
    if (*c.refusal != '\0') {
      ASSERT_FALSE(result.status.ok());
      EXPECT_EQ(result.status.error().ToString(), std::string(c.file) + ": error: " + c.refusal);
      continue;
    }
    ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
    ASSERT_EQ(result.output.animations.size(), 1u);
    EXPECT_EQ(result.output.animations[0].file.frame_count, c.frames);
    EXPECT_EQ(result.output.animations[0].file.frame_rate, c.frame_rate);
    EXPECT_LE(result.anim_bytes, kMaxConvertedBytes);
  }
}

// ---- each bound, lowered, names the animation and the bound
// ---------------------------------------

TEST(GltfImportBounds, EachBoundRefusesNamingTheAnimationAndTheBound) {
  const std::string bytes = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) +
                                      "/tests/core/convert/regressions/keys_1000_s_apart.gltf");
  ASSERT_FALSE(bytes.empty());
  struct Row {
    const char* name;
    std::function<void(GltfImportOptions*)> lower;
    const char* refusal;
  };
  // 3000 s at 0.001 fps: 4 frames of 2 joints; 3 nodes + 2 joints + 4 weights a frame.
  const std::vector<Row> rows = {
      {"md5anim bytes", [](GltfImportOptions* o) { o->bounds.max_anim_bytes = 1000; },
       "animations[0]: 3000 s at 0.001 fps make 4 frames of 2 joints = 1452 bytes of md5anim, "
       "expected at most 1000 bytes (the import's bound)"},
      {"sampling work", [](GltfImportOptions* o) { o->bounds.max_sampling_work = 35; },
       "animations[0]: 3000 s at 0.001 fps make 4 frames x (3 nodes + 2 joints + 4 mesh weights) "
       "= 36 transforms to sample, expected at most 35 (the import's bound)"},
      {"frames", [](GltfImportOptions* o) { o->limits.max_frames = 3; },
       "animations[0]: 3000 s at 0.001 fps make 4 frames, expected at most 3 (md5 limit)"},
      {"joint frames", [](GltfImportOptions* o) { o->limits.max_joint_frames = 7; },
       "animations[0]: 3000 s at 0.001 fps make 4 frames of 2 joints = 8 joint frames, expected "
       "at most 7 (md5 limit)"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    GltfImportOptions options;
    row.lower(&options);
    const Converted refused = Convert("a.gltf", bytes, options);
    ASSERT_FALSE(refused.status.ok());
    EXPECT_EQ(refused.status.error().ToString(), std::string("a.gltf: error: ") + row.refusal);
  }
  // At the bound itself it converts.
  GltfImportOptions at_bound;
  at_bound.bounds.max_sampling_work = 36;
  at_bound.limits.max_frames = 4;
  at_bound.limits.max_joint_frames = 8;
  EXPECT_TRUE(Convert("a.gltf", bytes, at_bound).status.ok());
}

// The bytes bound counts all animations together: each alone fits, the second passes the sum.
TEST(GltfImportBounds, AnimBytesBoundCountsAllAnimationsTogether) {
  std::string text = ReadBytes(std::string(MD5STAGE_SOURCE_DIR) +
                               "/tests/core/convert/regressions/keys_1000_s_apart.gltf");
  ASSERT_FALSE(text.empty());
  const std::string one = R"("animations":[)";
  const std::size_t at = text.find(one);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = text.find("]}]", at);  // the end of the one animation's samplers
  ASSERT_NE(end, std::string::npos);
  const std::string animation = text.substr(at + one.size(), end + 2 - (at + one.size()));
  text.insert(end + 2, "," + animation);
  const std::uint64_t each = md5::EstimateMd5AnimBytes(4, 2);
  GltfImportOptions options;
  options.bounds.max_anim_bytes = each * 2;
  const Converted both = Convert("two.gltf", text, options);
  ASSERT_TRUE(both.status.ok()) << both.status.error().ToString();
  EXPECT_EQ(both.output.animations.size(), 2u);
  options.bounds.max_anim_bytes = each * 2 - 1;
  const Converted refused = Convert("two.gltf", text, options);
  ASSERT_FALSE(refused.status.ok());
  EXPECT_NE(refused.status.error().message.find("animations[1]: "), std::string::npos)
      << refused.status.error().message;
  EXPECT_NE(refused.status.error().message.find("with the animations before it"),
            std::string::npos);
}

// The writer's estimate is above what it writes for real-looking numbers, and not far above.
TEST(GltfImportBounds, Md5AnimEstimateIsAboveTheWrittenText) {
  for (const int joints : {1, 2, 46}) {
    for (const int frames : {1, 30, 501}) {
      md5::AnimFile anim;
      anim.frame_count = frames;
      anim.joint_count = joints;
      anim.frame_rate = 24.0f;
      anim.animated_component_count = 6 * joints;
      anim.hierarchy.resize(static_cast<std::size_t>(joints));
      anim.baseframe.resize(static_cast<std::size_t>(joints));
      for (int j = 0; j < joints; ++j) {
        anim.hierarchy[static_cast<std::size_t>(j)].name = "joint" + std::to_string(j);
        anim.hierarchy[static_cast<std::size_t>(j)].parent = j - 1;
        anim.hierarchy[static_cast<std::size_t>(j)].flags = 63;
        anim.hierarchy[static_cast<std::size_t>(j)].start_index = 6 * j;
      }
      anim.bounds.assign(static_cast<std::size_t>(frames),
                         {glm::vec3(-12.345678f, -3.25f, 0.0f), glm::vec3(12.5f, 3.1f, 71.0625f)});
      anim.frame_components.resize(static_cast<std::size_t>(frames) * 6 * joints);
      for (std::size_t i = 0; i < anim.frame_components.size(); ++i) {
        anim.frame_components[i] = (i % 2 == 0 ? -1.0f : 1.0f) * 0.7071068f / (1 + i % 7);
      }
      const std::size_t written = md5::WriteMd5Anim(anim).size();
      const std::uint64_t estimate = md5::EstimateMd5AnimBytes(frames, joints);
      SCOPED_TRACE(std::to_string(frames) + " frames of " + std::to_string(joints) + " joints");
      EXPECT_GE(estimate, written);
      EXPECT_LE(estimate, 2 * written + 2048);
    }
  }
  // Saturates instead of overflowing.
  EXPECT_EQ(md5::EstimateMd5AnimBytes(~std::uint64_t{0}, 1),
            md5::EstimateMd5AnimBytes(std::uint64_t{1} << 32, 1));
}

}  // namespace
}  // namespace md5stage::convert
