#include "core/anim/bone_capsules.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

namespace md5stage::anim {
namespace {

Diagnostic Error(const char* job, const std::string& message) {
  return MakeError("", 0, 0, std::string(job) + ": " + message);
}

// The least distance from `p` to the segment [a, b].
float PointSegmentDistance(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 ab = b - a;
  const float length2 = glm::dot(ab, ab);
  const float t = length2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / length2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

}  // namespace

float SegmentDistance(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& q0,
                      const glm::vec3& q1) {
  // Closest points of two segments (Ericson, Real-Time Collision Detection 5.1.9).
  const glm::vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  constexpr float kTiny = 1e-12f;
  float s = 0.0f, t = 0.0f;
  if (a <= kTiny && e <= kTiny) return glm::length(r);
  if (a <= kTiny) {
    t = std::clamp(f / e, 0.0f, 1.0f);
  } else {
    const float c = glm::dot(d1, r);
    if (e <= kTiny) {
      s = std::clamp(-c / a, 0.0f, 1.0f);
    } else {
      const float b = glm::dot(d1, d2);
      const float denominator = a * e - b * b;
      s = denominator > kTiny * a * e ? std::clamp((b * f - c * e) / denominator, 0.0f, 1.0f)
                                      : 0.0f;
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f;
        s = std::clamp(-c / a, 0.0f, 1.0f);
      } else if (t > 1.0f) {
        t = 1.0f;
        s = std::clamp((b - c) / a, 0.0f, 1.0f);
      }
    }
  }
  return glm::length((p0 + s * d1) - (q0 + t * d2));
}

Status BoneCapsuleFitJob::Validate() const {
  constexpr const char* kJob = "bone capsule fit";
  if (radii == nullptr) return Error(kJob, "radii: an output array is required");
  if (vertex_counts == nullptr) return Error(kJob, "vertex_counts: an output array is required");
  if (joint_count > 0 && bind_matrices == nullptr) return Error(kJob, "bind_matrices: missing");
  if (joint_count > 0 && parents == nullptr) return Error(kJob, "parents: missing");
  if (vertex_count > 0 && vertices == nullptr) return Error(kJob, "vertices: missing");
  for (size_t j = 0; j < joint_count; ++j) {
    if (parents[j] < -1 || parents[j] >= static_cast<int>(j)) {
      return Error(kJob, "parents[" + std::to_string(j) +
                             "]: expected -1 or a joint before it, found " +
                             std::to_string(parents[j]));
    }
  }
  for (size_t v = 0; v < vertex_count; ++v) {
    for (int k = 0; k < 4; ++k) {
      if (vertices[v].weights[k] > 0.0f && vertices[v].joints[k] >= joint_count) {
        return Error(kJob, "vertices[" + std::to_string(v) + "].joints[" + std::to_string(k) +
                               "]: expected a joint below " + std::to_string(joint_count) +
                               ", found " + std::to_string(vertices[v].joints[k]));
      }
    }
  }
  return Status();
}

Status BoneCapsuleFitJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  std::fill(radii, radii + joint_count, 0.0f);
  std::fill(vertex_counts, vertex_counts + joint_count, 0u);
  const auto weighted = [](const GpuVertex& vertex, int joint) {
    for (int k = 0; k < 4; ++k) {
      if (vertex.weights[k] > 0.0f && vertex.joints[k] == joint) return true;
    }
    return false;
  };
  for (size_t v = 0; v < vertex_count; ++v) {
    const GpuVertex& vertex = vertices[v];
    int nearest = -1;
    float nearest_distance = 0.0f;
    for (size_t j = 0; j < joint_count; ++j) {
      const int parent = parents[j];
      if (parent < 0) continue;
      if (!weighted(vertex, static_cast<int>(j)) && !weighted(vertex, parent)) continue;
      const float distance = PointSegmentDistance(
          vertex.position, glm::vec3(bind_matrices[parent][3]), glm::vec3(bind_matrices[j][3]));
      if (nearest < 0 || distance < nearest_distance) {
        nearest = static_cast<int>(j);
        nearest_distance = distance;
      }
    }
    if (nearest < 0) continue;
    radii[nearest] += nearest_distance;
    ++vertex_counts[nearest];
  }
  for (size_t j = 0; j < joint_count; ++j) {
    if (vertex_counts[j] > 0) radii[j] /= static_cast<float>(vertex_counts[j]);
  }
  return valid;
}

Status BoneCapsuleOcclusionJob::Validate() const {
  constexpr const char* kJob = "bone capsule occlusion";
  if (occluded == nullptr) return Error(kJob, "occluded: an output flag is required");
  if (joint_count > 0 && (joints == nullptr || parents == nullptr || radii == nullptr)) {
    return Error(kJob, std::string(joints == nullptr    ? "joints"
                                   : parents == nullptr ? "parents"
                                                        : "radii") +
                           ": missing");
  }
  for (size_t j = 0; j < joint_count; ++j) {
    if (parents[j] < -1 || parents[j] >= static_cast<int>(joint_count)) {
      return Error(kJob, "parents[" + std::to_string(j) + "]: expected -1 or a joint below " +
                             std::to_string(joint_count) + ", found " + std::to_string(parents[j]));
    }
    if (!(radii[j] >= 0.0f) || !std::isfinite(radii[j])) {
      return Error(kJob, "radii[" + std::to_string(j) + "]: expected a finite radius >= 0");
    }
  }
  return sight.Validate(kJob);
}

Status BoneCapsuleOcclusionJob::Run() const {
  Status valid = Validate();
  if (!valid.ok()) return valid;
  *occluded = false;
  const float reach = sight.Reach();
  if (!(reach > 0.0f)) return valid;
  const glm::vec3 from = sight.from, to = sight.to;
  const glm::vec3 end = from + (to - from) * (reach / glm::length(to - from));
  for (size_t j = 0; j < joint_count; ++j) {
    if (radii[j] <= 0.0f || parents[j] < 0) continue;
    const glm::vec3 a(joints[parents[j]][3]), b(joints[j][3]);
    // A capsule is convex: a segment ending inside it (a joint in its limb, a point on the skin
    // over it) enters it once and never comes out, so it hides only points beyond it.
    if (SegmentDistance(from, end, a, b) < radii[j] && SegmentDistance(to, to, a, b) >= radii[j]) {
      *occluded = true;
      return valid;
    }
  }
  return valid;
}

}  // namespace md5stage::anim
