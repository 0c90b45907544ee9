// Hotspots' visibility (issue 46): the walker's bone capsules (core/anim/bone_capsules.h) against
// its skinned triangles (core/view/segment_occlusion.h, what hotspots were judged by before), in
// its bind pose and while it walks: lines of sight from eyes around it to points beside it (out of
// its capsules) agree in 97% of cases or more; to its joints, where only other limbs' triangles
// count (a joint lies in its own), in 85% or more.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/animation.h"
#include "core/anim/bone_capsules.h"
#include "core/anim/character_pose_job.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"
#include "core/view/segment_occlusion.h"

namespace md5stage {
namespace {

const std::string kWalker = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";

struct Agreement {
  int cases = 0;
  int same = 0;
  int capsules_only = 0;  // the capsules hide a point the skin does not
  int skin_only = 0;      // the skin hides a point the capsules do not
};

struct Target {
  glm::vec3 point;
  float surface_depth;
  // The triangles that may hide it (null: all): for a joint, all but its own limb's.
  const std::vector<std::uint32_t>* triangles = nullptr;
};

// Eyes on a circle of 220 around (0, 0, 35) at 8 headings and 2 heights, against `targets`:
// for each pair, the capsules' verdict against the triangles'.
Agreement Compare(const anim::Model& model, const std::vector<glm::mat4>& joints,
                  const std::vector<glm::vec3>& skin, const std::vector<float>& radii,
                  const std::vector<Target>& targets) {
  Agreement out;
  const std::vector<std::uint32_t>& indices = model.gpu().indices;
  for (int heading = 0; heading < 8; ++heading) {
    for (float height : {35.0f, 120.0f}) {
      const float angle = 0.7854f * static_cast<float>(heading) + 0.3f;
      const glm::vec3 eye(220.0f * std::cos(angle), 220.0f * std::sin(angle), height);
      for (const Target& target : targets) {
        bool by_skin = false, by_capsules = false;
        SegmentOcclusionJob triangles;
        triangles.positions = skin.data();
        triangles.position_count = skin.size();
        const std::vector<std::uint32_t>& hiding =
            target.triangles != nullptr ? *target.triangles : indices;
        triangles.indices = hiding.data();
        triangles.index_count = hiding.size();
        triangles.sight.from = eye;
        triangles.sight.to = target.point;
        triangles.sight.surface_depth = target.surface_depth;
        triangles.occluded = &by_skin;
        EXPECT_TRUE(triangles.Run().ok());
        anim::BoneCapsuleOcclusionJob capsules;
        capsules.joints = joints.data();
        capsules.parents = model.skeleton().parents().data();
        capsules.radii = radii.data();
        capsules.joint_count = joints.size();
        capsules.sight.from = eye;
        capsules.sight.to = target.point;
        capsules.sight.surface_depth = target.surface_depth;
        capsules.occluded = &by_capsules;
        EXPECT_TRUE(capsules.Run().ok());
        ++out.cases;
        out.same += by_skin == by_capsules;
        out.capsules_only += by_capsules && !by_skin;
        out.skin_only += by_skin && !by_capsules;
      }
    }
  }
  return out;
}

// Whether `point` lies in one of the posed capsules.
bool InsideACapsule(const anim::Model& model, const std::vector<glm::mat4>& joints,
                    const std::vector<float>& radii, const glm::vec3& point) {
  for (size_t j = 0; j < joints.size(); ++j) {
    const int parent = model.skeleton().parent(static_cast<int>(j));
    if (parent < 0 || radii[j] <= 0.0f) continue;
    if (anim::SegmentDistance(point, point, glm::vec3(joints[static_cast<size_t>(parent)][3]),
                              glm::vec3(joints[j][3])) < radii[j]) {
      return true;
    }
  }
  return false;
}

std::shared_ptr<const anim::Model> LoadWalker() {
  Result<std::string> bytes = md5::ReadFileBytes(kWalker + "walker.md5mesh");
  if (!bytes.ok()) return nullptr;
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh("walker.md5mesh", bytes.value());
  if (!parsed.ok()) return nullptr;
  return anim::Model::Create(std::make_shared<const md5::MeshFile>(parsed.value()));
}

TEST(HotspotOcclusionTest, WalkerCapsulesAgreeWithItsSkin) {
  const std::shared_ptr<const anim::Model> model = LoadWalker();
  ASSERT_NE(model, nullptr);
  const size_t joints = static_cast<size_t>(model->skeleton().joint_count());
  std::vector<float> radii(joints);
  std::vector<std::uint32_t> counts(joints);
  anim::BoneCapsuleFitJob fit;
  fit.bind_matrices = model->skeleton().bind_matrices().data();
  fit.parents = model->skeleton().parents().data();
  fit.joint_count = joints;
  fit.vertices = model->gpu().vertices.data();
  fit.vertex_count = model->gpu().vertices.size();
  fit.radii = radii.data();
  fit.vertex_counts = counts.data();
  ASSERT_TRUE(fit.Run().ok());
  int capsules = 0;
  for (float radius : radii) capsules += radius > 0.0f;
  EXPECT_GE(capsules, 15) << "limbs, spine, neck and head each have one";

  Result<std::string> walk_bytes = md5::ReadFileBytes(kWalker + "walk.md5anim");
  ASSERT_TRUE(walk_bytes.ok());
  Result<md5::AnimFile> walk_file = md5::ParseMd5Anim("walk.md5anim", walk_bytes.value());
  ASSERT_TRUE(walk_file.ok());
  const anim::Animation walk =
      anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(walk_file.value()));
  // The bind pose, then a moment of the walk (legs and arms apart).
  for (float time : {-1.0f, 0.4f}) {
    SCOPED_TRACE("time " + std::to_string(time));
    anim::Pose pose(static_cast<int>(joints));
    anim::CharacterPoseJob posing;
    posing.model = model.get();
    posing.animation = time < 0.0f ? nullptr : &walk;
    posing.time = time;
    posing.root_motion = anim::RootMotion::kStripHorizontal;
    posing.pose = &pose;
    ASSERT_TRUE(posing.Run());
    std::vector<glm::vec3> skin(model->gpu().vertices.size());
    anim::PaletteSkinningJob skinning;
    skinning.model = model.get();
    skinning.palette = {pose.palette.data(), pose.palette.size()};
    skinning.positions = {skin.data(), skin.size()};
    ASSERT_TRUE(skinning.Run());
    // Labels beside the walker: points every 12 units over its box, outside its capsules.
    std::vector<Target> beside;
    for (float x = -36; x <= 36; x += 12) {
      for (float y = -36; y <= 36; y += 12) {
        for (float z = 4; z <= 76; z += 12) {
          if (!InsideACapsule(*model, pose.models, radii, {x, y, z}))
            beside.push_back({{x, y, z}, 0.0f});
        }
      }
    }
    // Labels on its joints, with the depth of skin that does not hide them (as the stage's):
    // hidden when another part of the body is in front, so its own limb's triangles (those with
    // a vertex mostly bound to the joint, its parent or a child of it) do not count.
    std::vector<std::vector<std::uint32_t>> others(joints);
    const std::vector<std::uint32_t>& indices = model->gpu().indices;
    for (size_t j = 0; j < joints; ++j) {
      const auto own = [&](std::uint32_t vertex) {
        const int bound = model->gpu().vertices[vertex].joints[0];
        return bound == static_cast<int>(j) ||
               bound == model->skeleton().parent(static_cast<int>(j)) ||
               model->skeleton().parent(bound) == static_cast<int>(j);
      };
      for (size_t i = 0; i < indices.size(); i += 3) {
        if (own(indices[i]) || own(indices[i + 1]) || own(indices[i + 2])) continue;
        others[j].insert(others[j].end(), {indices[i], indices[i + 1], indices[i + 2]});
      }
    }
    std::vector<Target> on_joints;
    for (size_t j = 0; j < joints; ++j) {
      on_joints.push_back({glm::vec3(pose.models[j][3]), 4.2f, &others[j]});
    }
    for (const auto& [name, targets] :
         {std::make_pair("beside", beside), std::make_pair("on joints", on_joints)}) {
      const Agreement agreement = Compare(*model, pose.models, skin, radii, targets);
      const double same = static_cast<double>(agreement.same) / agreement.cases;
      const double false_hidden = static_cast<double>(agreement.capsules_only) / agreement.cases;
      std::printf("[ time %.1f, %s ] %d of %d agree (%.1f%%); capsules only %d, skin only %d\n",
                  time, name, agreement.same, agreement.cases, 100.0 * same,
                  agreement.capsules_only, agreement.skin_only);
      // Measured: beside 98.5-98.9% agree, 0.8-1.1% hidden by capsules only; on joints
      // 89-93%, 7-10% hidden by capsules only (a capsule is rounder than the limb it stands for).
      const bool on_joints_now = targets.front().triangles != nullptr;
      EXPECT_GE(same, on_joints_now ? 0.85 : 0.97) << name;
      EXPECT_LE(false_hidden, on_joints_now ? 0.12 : 0.02) << name;
    }
  }
}

}  // namespace
}  // namespace md5stage
