// Helpers for the anim tests: parse the md5 fixtures into runtime objects and compare
// transforms (rotations up to the quaternion sign).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "../md5/test_fixtures.h"
#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/md5/md5_parser.h"

namespace md5stage::anim::testing {

using md5::testing::kAnimFixture;
using md5::testing::kMeshFixture;
using md5::testing::Replace;

inline std::shared_ptr<const Model> LoadModel(const std::string& text,
                                              const std::string& name = "m.md5mesh") {
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh(name, text);
  EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
  if (!parsed.ok()) return nullptr;
  return Model::Create(std::make_shared<const md5::MeshFile>(parsed.value()));
}

inline Animation LoadAnimation(const std::string& text, const std::string& name = "a.md5anim") {
  Result<md5::AnimFile> parsed = md5::ParseMd5Anim(name, text);
  EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
  return Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(parsed.value()));
}

// The MD5 rule written out independently of md5::QuatFromXyz: w = -sqrt(1 - |xyz|^2).
inline glm::quat Md5Quat(float x, float y, float z) {
  const float r = 1.0f - x * x - y * y - z * z;
  return glm::quat(r < 0.0f ? 0.0f : -std::sqrt(r), x, y, z);
}

inline ::testing::AssertionResult SameRotation(const glm::quat& a, const glm::quat& b,
                                               float tolerance = 1e-5f) {
  const float dot = std::fabs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z);
  if (std::fabs(dot - 1.0f) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "rotations differ: (" << a.w << ", " << a.x << ", " << a.y << ", " << a.z << ") vs ("
         << b.w << ", " << b.x << ", " << b.y << ", " << b.z << "), |dot| " << dot;
}

inline ::testing::AssertionResult Near(const glm::vec3& a, const glm::vec3& b,
                                       float tolerance = 1e-5f) {
  if (glm::length(a - b) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                       << b.x << ", " << b.y << ", " << b.z << ")";
}

inline ::testing::AssertionResult NearMatrix(const glm::mat4& a, const glm::mat4& b,
                                             float tolerance = 1e-5f) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (std::fabs(a[c][r] - b[c][r]) > tolerance) {
        return ::testing::AssertionFailure()
               << "matrices differ at [" << c << "][" << r << "]: " << a[c][r] << " vs " << b[c][r];
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace md5stage::anim::testing
