// Skinned vertex positions of a model at an animation frame, for tests that compare two models
// (an export read back, a dropped glTF) pose by pose: the CPU job and the GPU path's palette.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/anim/pose.h"

namespace md5stage::test {

// Model-space joint matrices at `frame` of `animation`; the bind pose when it is null.
inline std::vector<glm::mat4> JointMatricesAt(const anim::Model& model,
                                              const anim::Animation* animation, int frame) {
  std::vector<glm::mat4> matrices = model.skeleton().bind_matrices();
  if (animation == nullptr) return matrices;
  anim::Pose pose(model.skeleton().joint_count());
  anim::SampleJob sample;
  sample.animation = animation;
  sample.frame = frame;
  sample.output = pose.locals;
  EXPECT_TRUE(sample.Run());
  anim::LocalToModelJob to_model;
  to_model.skeleton = &model.skeleton();
  to_model.locals = pose.locals;
  to_model.models = matrices;
  EXPECT_TRUE(to_model.Run());
  return matrices;
}

// The CPU path (every weight, normalized) of every vertex of every mesh part, in part order.
inline std::vector<glm::vec3> CpuSkinnedPositions(const anim::Model& model,
                                                  const anim::Animation* animation, int frame) {
  const std::vector<glm::mat4> matrices = JointMatricesAt(model, animation, frame);
  std::vector<glm::vec3> all;
  for (int m = 0; m < model.mesh_count(); ++m) {
    std::vector<glm::vec3> positions(model.mesh(m).vertices.size());
    anim::SkinningJob skin;
    skin.model = &model;
    skin.mesh_index = m;
    skin.joint_matrices = matrices;
    skin.normalize_weights = true;
    skin.positions = positions;
    EXPECT_TRUE(skin.Run());
    all.insert(all.end(), positions.begin(), positions.end());
  }
  return all;
}

// The GPU path (bind position, the 4 largest weights renormalized: what glTF holds) of every
// vertex of model.gpu(), in its order.
inline std::vector<glm::vec3> GpuSkinnedPositions(const anim::Model& model,
                                                  const anim::Animation* animation, int frame) {
  const std::vector<glm::mat4> matrices = JointMatricesAt(model, animation, frame);
  std::vector<glm::mat4> palette(static_cast<size_t>(model.skeleton().joint_count()));
  anim::SkinningPaletteJob palette_job;
  palette_job.joint_matrices = matrices;
  palette_job.inverse_bind_matrices = model.skeleton().inverse_bind_matrices();
  palette_job.palette = palette;
  EXPECT_TRUE(palette_job.Run());
  std::vector<glm::vec3> positions(model.gpu().vertices.size());
  anim::PaletteSkinningJob skin;
  skin.model = &model;
  skin.palette = palette;
  skin.positions = positions;
  EXPECT_TRUE(skin.Run());
  return positions;
}

// The diagonal of the positions' bounding box: what tolerances are fractions of.
inline float Extent(const std::vector<glm::vec3>& positions) {
  if (positions.empty()) return 0.0f;
  glm::vec3 lo = positions.front(), hi = positions.front();
  for (const glm::vec3& p : positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return glm::length(hi - lo);
}

// The largest distance between corresponding positions (sizes must match).
inline float WorstDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  float worst = 0.0f;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    worst = std::max(worst, glm::length(a[i] - b[i]));
  }
  return worst;
}

}  // namespace md5stage::test
