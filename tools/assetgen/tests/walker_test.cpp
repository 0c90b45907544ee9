// The walker as a model: proportions, a closed skin, weights, and clips that loop, keep their
// promises (speed, upper-body-only wave) and never explode or sink the mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>

#include "assetgen_test_util.h"
#include "mesh_checks.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

using testing::Analyse;
using testing::Assets;

std::vector<Vec3> BindPositions(const SkinMesh& mesh) {
  std::vector<Vec3> positions;
  for (const SkinVertex& v : mesh.vertices) positions.push_back(v.position);
  return positions;
}

const WalkerClip& Clip(const std::string& name) {
  for (const WalkerClip& clip : Assets().walker_clips) {
    if (clip.info.name == name) return clip;
  }
  static const WalkerClip none;
  ADD_FAILURE() << "no clip " << name;
  return none;
}

TEST(WalkerSkeleton, NamedJointsInHumanProportions) {
  const Skeleton& s = Assets().walker_skeleton;
  EXPECT_GE(s.size(), 20);
  EXPECT_LE(s.size(), 30);
  for (const char* name : {"origin",  "pelvis",     "spine",   "neck",       "head",   "shoulder_l",
                           "arm_l",   "forearm_l",  "hand_l",  "shoulder_r", "arm_r",  "forearm_r",
                           "hand_r",  "tag_hand_r", "thigh_l", "shin_l",     "foot_l", "toe_l",
                           "thigh_r", "shin_r",     "foot_r",  "toe_r"}) {
    EXPECT_GE(s.Find(name), 0) << name;
  }
  for (int j = 0; j < s.size(); ++j) EXPECT_LT(s.parents[j], j) << "parents first";
  EXPECT_EQ(s.parents[s.Find("tag_hand_r")], s.Find("hand_r"));
  auto at = [&](const char* name) { return s.bind_positions[s.Find(name)]; };
  // Z up, +X forward, left = +Y.
  EXPECT_GT(at("head").z, at("pelvis").z);
  EXPECT_GT(at("pelvis").z, at("shin_l").z);
  EXPECT_GT(at("toe_l").x, at("foot_l").x);
  EXPECT_GT(at("arm_l").y, 0.0);
  EXPECT_LT(at("arm_r").y, 0.0);
  // Adult proportions: legs about half the height, arms reaching mid-thigh when hanging.
  double leg = glm::length(at("shin_l") - at("thigh_l")) + glm::length(at("foot_l") - at("shin_l"));
  EXPECT_NEAR(leg / 70.0, 0.49, 0.04);
  double arm =
      glm::length(at("forearm_r") - at("arm_r")) + glm::length(at("hand_r") - at("forearm_r"));
  EXPECT_NEAR(arm / 70.0, 0.33, 0.04);
}

TEST(WalkerMesh, ClosedOutwardSkinOfAFewThousandTriangles) {
  const SkinMesh& mesh = Assets().walker_mesh;
  EXPECT_EQ(mesh.shader, "models/walker/walker");
  EXPECT_GE(mesh.triangles.size(), 2000u);
  EXPECT_LE(mesh.triangles.size(), 8000u);
  testing::Topology t = Analyse(BindPositions(mesh), mesh.triangles);
  EXPECT_EQ(t.edges_not_used_twice, 0) << "closed";
  EXPECT_EQ(t.edges_same_direction_twice, 0) << "consistently wound";
  EXPECT_EQ(t.euler_characteristic, 2) << "one piece, no handles";
  EXPECT_GT(t.signed_volume, 0.0) << "faces outward";
  Vec3 lo(1e9), hi(-1e9);
  for (const SkinVertex& v : mesh.vertices) {
    lo = glm::min(lo, v.position);
    hi = glm::max(hi, v.position);
    EXPECT_GE(v.u, 0.0);
    EXPECT_LE(v.u, 1.0);
    EXPECT_GE(v.v, 0.0);
    EXPECT_LE(v.v, 1.0);
  }
  EXPECT_NEAR(lo.z, 0.0, 0.05) << "soles on the ground";
  EXPECT_NEAR(hi.z, 70.0, 0.5) << "about 70 units tall";
  for (const auto& tri : mesh.triangles) {
    Vec3 n = glm::cross(mesh.vertices[tri[1]].position - mesh.vertices[tri[0]].position,
                        mesh.vertices[tri[2]].position - mesh.vertices[tri[0]].position);
    EXPECT_GT(glm::length(n), 1e-6) << "no degenerate triangles";
  }
}

TEST(WalkerMesh, WeightsSumToOneWithBlendsAtElbowsAndKnees) {
  const Skeleton& s = Assets().walker_skeleton;
  const SkinMesh& mesh = Assets().walker_mesh;
  for (const SkinVertex& v : mesh.vertices) {
    ASSERT_GE(v.weights.size(), 1u);
    ASSERT_LE(v.weights.size(), 4u);
    double total = 0.0;
    std::set<int> joints;
    for (const SkinWeight& w : v.weights) {
      total += w.bias;
      EXPECT_GT(w.bias, 0.0);
      joints.insert(w.joint);
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_EQ(joints.size(), v.weights.size()) << "one weight per joint";
  }
  // Around each elbow and knee, the skin is shared between the two bones.
  const std::pair<const char*, const char*> hinges[] = {
      {"arm_l", "forearm_l"}, {"arm_r", "forearm_r"}, {"thigh_l", "shin_l"}, {"thigh_r", "shin_r"}};
  for (const auto& [upper, lower] : hinges) {
    int upper_joint = s.Find(upper), lower_joint = s.Find(lower);
    Vec3 hinge = s.bind_positions[lower_joint];
    int near = 0, blended = 0;
    for (const SkinVertex& v : mesh.vertices) {
      if (glm::length(v.position - hinge) > 3.0) continue;
      ++near;
      bool has_upper = false, has_lower = false;
      for (const SkinWeight& w : v.weights) {
        has_upper |= w.joint == upper_joint;
        has_lower |= w.joint == lower_joint;
      }
      blended += has_upper && has_lower;
    }
    EXPECT_GT(near, 10) << lower;
    EXPECT_GE(blended, near * 0.9) << lower << ": " << blended << " of " << near << " blended";
  }
}

TEST(WalkerClips, FrameRatesDurationsAndCleanLoops) {
  struct Expected {
    const char* name;
    double duration, ground_speed;
  };
  // The design targets: a ~1 s walk at 55 units/s (1.4 m/s), a 0.7 s run at 150 (3.8 m/s).
  const Expected expected[] = {
      {"idle", 6.0, 0.0}, {"walk", 1.0, 55.0}, {"run", 0.7, 150.0}, {"wave", 3.0, 0.0}};
  for (const Expected& e : expected) {
    const WalkerClip& clip = Clip(e.name);
    EXPECT_GE(clip.clip.frame_rate, 24);
    EXPECT_NEAR(clip.info.duration, e.duration, 1e-9);
    EXPECT_EQ(clip.clip.frames.size(),
              static_cast<size_t>(std::lround(e.duration * clip.clip.frame_rate)) + 1);
    EXPECT_NEAR(clip.info.ground_speed, e.ground_speed, 1e-9);
    EXPECT_EQ(clip.info.unreached_planted_frames, 0) << e.name;
    const SkeletonPose& first = clip.clip.frames.front();
    const SkeletonPose& last = clip.clip.frames.back();
    for (size_t j = 0; j < first.size(); ++j) {
      Vec3 delta = last[j].position - first[j].position;
      if (j == kOrigin) {
        EXPECT_NEAR(delta.x, e.ground_speed * e.duration, 1e-9) << "one stride of root motion";
        delta.x = 0.0;
      }
      EXPECT_EQ(glm::length(delta), 0.0) << e.name << " joint " << j;
      EXPECT_EQ(last[j].orientation, first[j].orientation) << e.name << " joint " << j;
    }
    // The origin moves at a constant speed: equal steps every frame.
    for (size_t f = 1; f < clip.clip.frames.size(); ++f) {
      double step =
          clip.clip.frames[f][kOrigin].position.x - clip.clip.frames[f - 1][kOrigin].position.x;
      EXPECT_NEAR(step, e.ground_speed / clip.clip.frame_rate, 1e-9);
    }
  }
}

TEST(WalkerClips, WaveMovesTheUpperBodyOnly) {
  const WalkerClip& wave = Clip("wave");
  const std::set<int> lower = {kOrigin, kPelvis, kThighL, kShinL, kFootL,
                               kToeL,   kThighR, kShinR,  kFootR, kToeR};
  double right_hand_travel = 0.0;
  for (const SkeletonPose& pose : wave.clip.frames) {
    for (int j : lower) {
      EXPECT_EQ(pose[j].position, wave.clip.frames[0][j].position);
      EXPECT_EQ(pose[j].orientation, wave.clip.frames[0][j].orientation);
    }
    SkeletonPose model = ToModelSpace(Assets().walker_skeleton, pose);
    SkeletonPose start = ToModelSpace(Assets().walker_skeleton, wave.clip.frames[0]);
    right_hand_travel =
        std::max(right_hand_travel, model[kHandR].position.z - start[kHandR].position.z);
  }
  EXPECT_GT(right_hand_travel, 30.0) << "the right hand rises above the head";
}

TEST(WalkerClips, NoExplodedCollapsedOrSunkenVertices) {
  const Skeleton& s = Assets().walker_skeleton;
  const SkinMesh& mesh = Assets().walker_mesh;
  std::vector<double> bind_edges;
  for (const auto& tri : mesh.triangles) {
    for (int e = 0; e < 3; ++e) {
      bind_edges.push_back(
          glm::length(mesh.vertices[tri[e]].position - mesh.vertices[tri[(e + 1) % 3]].position));
    }
  }
  // How far each vertex is from its nearest weighted joint in the bind pose.
  std::vector<double> bind_reach;
  for (const SkinVertex& v : mesh.vertices) {
    double nearest = 1e9;
    for (const SkinWeight& w : v.weights) {
      nearest = std::min(nearest, glm::length(v.position - s.bind_positions[w.joint]));
    }
    bind_reach.push_back(nearest);
  }
  for (const WalkerClip& clip : Assets().walker_clips) {
    double min_ratio = 1e9, max_ratio = 0.0, lowest = 1e9, worst_reach = 0.0;
    for (const SkeletonPose& pose : clip.clip.frames) {
      SkeletonPose model = ToModelSpace(s, pose);
      std::vector<Vec3> p = SkinPositions(s, mesh, model);
      size_t k = 0;
      for (const auto& tri : mesh.triangles) {
        for (int e = 0; e < 3; ++e, ++k) {
          double ratio = glm::length(p[tri[e]] - p[tri[(e + 1) % 3]]) / bind_edges[k];
          min_ratio = std::min(min_ratio, ratio);
          max_ratio = std::max(max_ratio, ratio);
        }
      }
      double top = -1e9;
      for (size_t v = 0; v < p.size(); ++v) {
        lowest = std::min(lowest, p[v].z);
        top = std::max(top, p[v].z);
        double nearest = 1e9;
        for (const SkinWeight& w : mesh.vertices[v].weights) {
          nearest = std::min(nearest, glm::length(p[v] - model[w.joint].position));
        }
        worst_reach = std::max(worst_reach, nearest - bind_reach[v]);
      }
      EXPECT_GT(top, 60.0) << clip.info.name << ": the figure stays upright";
    }
    // Linear blend skinning folds the skin inside a bent knee or a lowered arm's armpit and
    // stretches the crotch in a stride; a torn, exploded or collapsed vertex goes far beyond that.
    EXPECT_GT(min_ratio, 0.02) << clip.info.name;
    EXPECT_LT(max_ratio, 6.0) << clip.info.name;
    EXPECT_LT(worst_reach, 1.5) << clip.info.name << ": a vertex drifted away from its joints";
    EXPECT_GT(lowest, -0.35) << clip.info.name << ": feet do not sink into the ground";
    std::cout << clip.info.name << ": edge length ratios " << min_ratio << " .. " << max_ratio
              << ", lowest vertex z " << lowest << ", worst joint-distance growth " << worst_reach
              << "\n";
  }
}

}  // namespace
}  // namespace md5stage::assetgen
