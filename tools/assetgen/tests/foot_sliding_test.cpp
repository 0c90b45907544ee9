// Foot sliding in the committed walk and run, measured the way a player sees them: the files are
// read by the core's parsers and sampled by its jobs (interpolating between frames), with root
// motion kept, over two loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include "assetgen_test_util.h"
#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/md5/md5_parser.h"

namespace md5stage::assetgen {
namespace {

using testing::FindFile;

constexpr int kSamplesPerFrame = 4;

struct Loaded {
  std::shared_ptr<const anim::Model> model;
  anim::Animation animation;
};

Loaded Load(const std::string& anim_path) {
  Loaded loaded;
  Result<md5::MeshFile> mesh =
      md5::ParseMd5Mesh("walker.md5mesh", FindFile("models/walker/walker.md5mesh")->bytes);
  EXPECT_TRUE(mesh.ok());
  Result<md5::AnimFile> anim = md5::ParseMd5Anim(anim_path, FindFile(anim_path)->bytes);
  EXPECT_TRUE(anim.ok());
  if (!mesh.ok() || !anim.ok()) return loaded;
  loaded.model = anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh.value()));
  loaded.animation =
      anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(anim.value()));
  return loaded;
}

// Model-space joint matrices at `time` seconds into an endless loop with root motion kept: each
// completed loop adds the clip's root displacement.
void SampleModels(const Loaded& loaded, double time, std::vector<glm::mat4>* models) {
  const anim::Animation& a = loaded.animation;
  double loops = std::floor(time / a.duration());
  std::vector<anim::JointTransform> locals(a.joint_count());
  anim::SampleJob sample;
  sample.animation = &a;
  sample.time = static_cast<float>(time - loops * a.duration());
  sample.mode = anim::PlaybackMode::kLoop;
  sample.root_motion = anim::RootMotion::kKeep;
  sample.output = locals;
  ASSERT_TRUE(sample.Run());
  locals[0].translation += a.root_displacement() * static_cast<float>(loops);
  anim::LocalToModelJob to_model;
  to_model.skeleton = &loaded.model->skeleton();
  to_model.locals = locals;
  models->resize(a.joint_count());
  to_model.models = *models;
  ASSERT_TRUE(to_model.Run());
}

struct ContactPhase {
  double start = 0.0, length = 0.0;  // seconds
  double drift = 0.0;                // largest horizontal distance from where the phase began
};

// Phases (over two loops, leaving out those cut by the window) in which every joint of `touching`
// is at its lowest height, within `tolerance`; the drift is that of joint `measured`.
std::vector<ContactPhase> Contacts(const Loaded& loaded, const std::vector<int>& touching,
                                   int measured, double tolerance) {
  const anim::Animation& a = loaded.animation;
  const int samples = (a.frame_count() - 1) * kSamplesPerFrame * 2;
  const double dt = a.duration() / ((a.frame_count() - 1) * kSamplesPerFrame);
  std::vector<std::vector<glm::vec3>> paths(a.joint_count(), std::vector<glm::vec3>(samples));
  std::vector<glm::mat4> models;
  for (int i = 0; i < samples; ++i) {
    SampleModels(loaded, i * dt, &models);
    for (int j = 0; j < a.joint_count(); ++j) paths[j][i] = glm::vec3(models[j][3]);
  }
  auto down = [&](int i) {
    for (int joint : touching) {
      float lowest = 1e9f;
      for (const glm::vec3& p : paths[joint]) lowest = std::min(lowest, p.z);
      if (paths[joint][i].z > lowest + tolerance) return false;
    }
    return true;
  };
  const std::vector<glm::vec3>& path = paths[measured];
  std::vector<ContactPhase> phases;
  int i = 0;
  while (i < samples) {
    if (!down(i)) {
      ++i;
      continue;
    }
    int begin = i;
    while (i < samples && down(i)) ++i;
    if (begin == 0 || i == samples) continue;
    ContactPhase phase;
    phase.start = begin * dt;
    phase.length = (i - begin) * dt;
    for (int k = begin; k < i; ++k) {
      glm::vec2 moved(path[k].x - path[begin].x, path[k].y - path[begin].y);
      phase.drift = std::max(phase.drift, static_cast<double>(glm::length(moved)));
    }
    phases.push_back(phase);
  }
  return phases;
}

// The ankle while the foot is flat (ankle and ball both down), and the ball (toe joint) from
// foot-flat to toe-off, when the heel rolls up around it.
TEST(FootSliding, PlantedFeetDriftUnderOnePercentOfTheStride) {
  struct Case {
    const char* anim;
    double speed;           // the clips' specified ground speeds
    double min_flat_share;  // how much of the cycle a foot must stay flat on the ground
  };
  for (const Case& c : {Case{"models/walker/walk.md5anim", 55.0, 0.2},
                        Case{"models/walker/run.md5anim", 150.0, 0.05}}) {
    Loaded loaded = Load(c.anim);
    ASSERT_TRUE(loaded.model);
    const anim::Animation& a = loaded.animation;
    const double stride = a.root_displacement().x;
    EXPECT_NEAR(a.average_ground_speed(), c.speed, 1e-3) << c.anim;
    EXPECT_NEAR(stride, c.speed * a.duration(), 1e-3) << c.anim;
    const anim::Skeleton& skeleton = loaded.model->skeleton();
    for (const char* side : {"_l", "_r"}) {
      int ankle = skeleton.FindJoint(std::string("foot") + side);
      int ball = skeleton.FindJoint(std::string("toe") + side);
      ASSERT_GE(ankle, 0);
      ASSERT_GE(ball, 0);
      // Interpolating joint rotations between frames moves a planted joint by hundredths of a
      // unit, so "down" is within 0.15 of the lowest height.
      const struct {
        const char* what;
        std::vector<int> touching;
        int measured;
      } checks[] = {{"flat foot, ankle", {ankle, ball}, ankle}, {"ball", {ball}, ball}};
      for (const auto& check : checks) {
        std::vector<ContactPhase> phases = Contacts(loaded, check.touching, check.measured, 0.15);
        ASSERT_GE(phases.size(), 1u) << c.anim << side << " " << check.what;
        for (const ContactPhase& phase : phases) {
          EXPECT_GE(phase.length, c.min_flat_share * a.duration()) << c.anim << side;
          EXPECT_LT(phase.drift, 0.01 * stride)
              << c.anim << side << " " << check.what << " slides " << phase.drift
              << " units in the phase at " << phase.start << " s (stride " << stride << ")";
          std::cout << c.anim << side << " " << check.what << ": contact " << phase.length
                    << " s, drift " << phase.drift << " (" << 100.0 * phase.drift / stride
                    << "% of the stride)\n";
        }
      }
    }
  }
}

// The skin itself: every sole vertex that stays on the ground for a tenth of the cycle or more
// holds its place there within the same budget. (Brief grazes, such as a toe leaving the ground,
// are lift-off rather than sliding.)
TEST(FootSliding, SoleVerticesOnTheGroundStayPut) {
  for (const char* path : {"models/walker/walk.md5anim", "models/walker/run.md5anim"}) {
    Loaded loaded = Load(path);
    ASSERT_TRUE(loaded.model);
    const anim::Animation& a = loaded.animation;
    const double stride = a.root_displacement().x;
    const int samples = (a.frame_count() - 1) * kSamplesPerFrame * 2;
    const double dt = a.duration() / ((a.frame_count() - 1) * kSamplesPerFrame);
    const int min_samples = static_cast<int>(std::ceil(0.1 * a.duration() / dt));
    const int vertex_count = static_cast<int>(loaded.model->mesh(0).vertices.size());
    std::vector<glm::vec3> positions(vertex_count);
    std::vector<int> run_start(vertex_count, -1);  // first sample of the current ground contact
    std::vector<glm::vec2> anchor(vertex_count);
    std::vector<double> run_drift(vertex_count, 0.0);
    std::vector<glm::mat4> models;
    double worst = 0.0;
    int phases = 0;
    for (int i = 0; i <= samples; ++i) {
      SampleModels(loaded, i * dt, &models);
      anim::SkinningJob skin;
      skin.model = loaded.model.get();
      skin.joint_matrices = models;
      skin.positions = positions;
      ASSERT_TRUE(skin.Run());
      for (int v = 0; v < vertex_count; ++v) {
        bool down = positions[v].z < 0.02f && i < samples;
        glm::vec2 here(positions[v].x, positions[v].y);
        if (down && run_start[v] < 0) {
          run_start[v] = i;
          anchor[v] = here;
          run_drift[v] = 0.0;
        } else if (down) {
          run_drift[v] = std::max(run_drift[v], static_cast<double>(glm::length(here - anchor[v])));
        } else if (run_start[v] >= 0) {
          if (run_start[v] > 0 && i - run_start[v] >= min_samples) {
            ++phases;
            worst = std::max(worst, run_drift[v]);
          }
          run_start[v] = -1;
        }
      }
    }
    EXPECT_GT(phases, 50) << path << ": sole vertices planted for a tenth of the cycle";
    EXPECT_LT(worst, 0.01 * stride) << path;
    std::cout << path << ": " << phases << " sole-vertex contact phases, largest drift " << worst
              << " (stride " << stride << ")\n";
  }
}

}  // namespace
}  // namespace md5stage::assetgen
