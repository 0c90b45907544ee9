// The runtime on real files (../shared/md5): every model's bind pose composes back from its
// locals, every anim samples to finite poses, the GPU path stays close to the reference skinning,
// and the railgun rides the humanoid's tag_weapon joint.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "../../shared_data.h"
#include "anim_test_util.h"
#include "core/anim/binding.h"
#include "core/anim/jobs.h"
#include "core/anim/pose.h"
#include "core/anim/resource_cache.h"
#include "core/anim/transform_node.h"
#include "core/md5/file_reader.h"

namespace md5stage::anim {
namespace {

namespace fs = std::filesystem;
using testing::NearMatrix;

const fs::path kSharedMd5 = fs::path(MD5STAGE_SHARED_DIR) / "md5";

#define SKIP_WITHOUT_SHARED() MD5STAGE_SKIP_WITHOUT_SHARED(fs::exists(kSharedMd5))

std::shared_ptr<const Model> LoadModelFile(ResourceCache& cache, const fs::path& path) {
  Result<std::string> bytes = md5::ReadFileBytes(path.string());
  EXPECT_TRUE(bytes.ok()) << path;
  auto model = cache.LoadModel(path.string(), bytes.value());
  EXPECT_TRUE(model.ok()) << model.error().ToString();
  return model.ok() ? model.value() : nullptr;
}

std::shared_ptr<const Animation> LoadAnimFile(ResourceCache& cache, const fs::path& path) {
  Result<std::string> bytes = md5::ReadFileBytes(path.string());
  EXPECT_TRUE(bytes.ok()) << path;
  auto anim = cache.LoadAnimation(path.string(), bytes.value());
  EXPECT_TRUE(anim.ok()) << anim.error().ToString();
  return anim.ok() ? anim.value() : nullptr;
}

float Extent(const Model& model) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const GpuVertex& v : model.gpu().vertices) {
    lo = glm::min(lo, v.position);
    hi = glm::max(hi, v.position);
  }
  return glm::length(hi - lo);
}

bool Finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

TEST(SharedModels, AnimateSkinAndStayCloseOnTheGpuPath) {
  SKIP_WITHOUT_SHARED();
  ResourceCache cache;
  std::map<fs::path, std::vector<std::shared_ptr<const Model>>> models_by_folder;
  int anims_checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSharedMd5)) {
    // Not the broken files, nor the MD5Version 11/12 meshes that must be refused.
    if (entry.path().extension() != ".md5mesh" ||
        entry.path().parent_path().filename() == "assimp_invalid" ||
        entry.path().parent_path().filename() == "extensions") {
      continue;
    }
    std::shared_ptr<const Model> model = LoadModelFile(cache, entry.path());
    ASSERT_NE(model, nullptr);
    models_by_folder[entry.path().parent_path()].push_back(model);
    const Skeleton& skeleton = model->skeleton();
    Pose pose(skeleton.joint_count());
    LocalToModelJob bind_job;
    bind_job.skeleton = &skeleton;
    bind_job.locals = skeleton.bind_locals();
    bind_job.models = pose.models;
    ASSERT_TRUE(bind_job.Run());
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      EXPECT_TRUE(NearMatrix(pose.models[j], skeleton.bind_matrices()[j], 2e-4f))
          << entry.path() << " joint " << j;
    }
  }
  for (const auto& entry : fs::recursive_directory_iterator(kSharedMd5)) {
    if (entry.path().extension() != ".md5anim") continue;
    fs::path folder = entry.path().parent_path();
    if (folder.filename() == "animation") folder = folder.parent_path();
    std::shared_ptr<const Animation> animation = LoadAnimFile(cache, entry.path());
    ASSERT_NE(animation, nullptr);
    for (const std::shared_ptr<const Model>& model : models_by_folder[folder]) {
      ASSERT_TRUE(CheckAnimationFitsModel(*model, *animation, nullptr).ok()) << entry.path();
      const Skeleton& skeleton = model->skeleton();
      Pose pose(skeleton.joint_count());
      const float extent = Extent(*model);
      for (float t : {0.0f, 0.13f, 0.5f * animation->duration(), 10.0f}) {
        SampleJob sample;
        sample.animation = animation.get();
        sample.time = t;
        sample.output = pose.locals;
        ASSERT_TRUE(sample.Run());
        LocalToModelJob to_model;
        to_model.skeleton = &skeleton;
        to_model.locals = pose.locals;
        to_model.models = pose.models;
        ASSERT_TRUE(to_model.Run());
        for (const glm::mat4& m : pose.models) ASSERT_TRUE(Finite(m)) << entry.path();
        // The 4-influence GPU path against the all-weights reference.
        const SkinningError error = MeasureGpuSkinningError(*model, pose.models);
        EXPECT_LT(error.distance, 1e-3f * extent) << entry.path() << " on " << model->name()
                                                  << " at " << t << ": vertex " << error.vertex;
      }
      ++anims_checked;
    }
  }
  EXPECT_GE(anims_checked, 80);
  EXPECT_EQ(cache.hits(), 0);
}

TEST(SharedModels, InstancesShareOneModelThroughTheCache) {
  SKIP_WITHOUT_SHARED();
  ResourceCache cache;
  const fs::path path = kSharedMd5 / "imprimis_bones" / "model.md5mesh";
  std::shared_ptr<const Model> first = LoadModelFile(cache, path);
  std::shared_ptr<const Model> second = LoadModelFile(cache, path);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(cache.parses(), 1);
  EXPECT_EQ(first->gpu().vertices.size(), 3189u);
  EXPECT_EQ(first->gpu().vertices_over_four, 2483);
  // Those extra weights are (nearly) zero in this file: almost nothing is dropped.
  EXPECT_LT(first->gpu().worst_dropped_weight, 1e-6f);
}

TEST(SharedModels, RailgunRidesTagWeaponWhileRunning) {
  SKIP_WITHOUT_SHARED();
  ResourceCache cache;
  std::shared_ptr<const Model> body =
      LoadModelFile(cache, kSharedMd5 / "imprimis_bones" / "model.md5mesh");
  std::shared_ptr<const Model> gun =
      LoadModelFile(cache, kSharedMd5 / "imprimis_railgun" / "model.md5mesh");
  std::shared_ptr<const Animation> run =
      LoadAnimFile(cache, kSharedMd5 / "imprimis_bones" / "animation" / "run_N.md5anim");
  ASSERT_TRUE(body && gun && run);
  const int tag = body->skeleton().FindJoint("tag_weapon");
  ASSERT_GE(tag, 0);
  Pose body_pose(body->skeleton().joint_count());
  Pose gun_pose(gun->skeleton().joint_count());
  TransformNode grip("grip");
  ASSERT_TRUE(grip.SetParentJoint(body_pose.models, tag));
  const glm::mat4 character = glm::translate(glm::mat4(1.0f), glm::vec3(300, -20, 0));
  glm::vec3 previous_hand(0.0f);
  float hand_travel = 0.0f;
  for (float t : {0.0f, 0.1f, 0.2f, 0.3f}) {
    SampleJob sample;
    sample.animation = run.get();
    sample.time = t;
    sample.output = body_pose.locals;
    ASSERT_TRUE(sample.Run());
    LocalToModelJob body_job;
    body_job.skeleton = &body->skeleton();
    body_job.locals = body_pose.locals;
    body_job.root = character;
    body_job.models = body_pose.models;
    ASSERT_TRUE(body_job.Run());
    grip.UpdateWorld();
    LocalToModelJob gun_job;
    gun_job.skeleton = &gun->skeleton();
    gun_job.locals = gun->skeleton().bind_locals();
    gun_job.root = grip.world_matrix();
    gun_job.models = gun_pose.models;
    ASSERT_TRUE(gun_job.Run());
    // The gun's root joint (at its model origin, unrotated) sits exactly on tag_weapon.
    const glm::mat4 expected = body_pose.models[tag] * gun->skeleton().bind_matrices()[0];
    EXPECT_TRUE(NearMatrix(gun_pose.models[0], expected, 1e-3f)) << t;
    const glm::vec3 hand(body_pose.models[tag][3]);
    if (t > 0.0f) hand_travel += glm::length(hand - previous_hand);
    previous_hand = hand;
  }
  EXPECT_GT(hand_travel, 0.5f);  // the hand really moved, so the gun really followed
}

}  // namespace
}  // namespace md5stage::anim
