// A skinned character's volume as one capsule per bone (from a joint's parent to the joint),
// fitted once to the bind-pose skin: a figure's hotspot asks whether the posed character hides a
// point by testing a few dozen capsules against the line of sight, with no skinning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "core/anim/model.h"
#include "core/common/line_of_sight.h"
#include "core/common/result.h"

namespace md5stage::anim {

// Each bind-pose vertex goes to the nearest bone among those its weights touch (a bone of a
// weighted joint, or of one of its children): the bone's radius is the mean distance of its
// vertices from it, so the capsule lies within the skin. A bone no vertex chose gets radius 0
// (no capsule): the link from a skeleton's origin to its pelvis, say.
struct BoneCapsuleFitJob {
  const glm::mat4* bind_matrices = nullptr;  // model-space bind pose, one per joint
  const int* parents = nullptr;              // one per joint, -1 for roots, parents first
  size_t joint_count = 0;
  const GpuVertex* vertices = nullptr;  // bind pose, model space
  size_t vertex_count = 0;
  float* radii = nullptr;                  // caller-owned, joint_count: the bone parent -> joint
  std::uint32_t* vertex_counts = nullptr;  // caller-owned, joint_count: vertices that chose it

  // Errors name the field: outputs or inputs missing while counted, a parent not before its
  // joint, a vertex's joint past the skeleton.
  Status Validate() const;
  Status Run() const;  // validates first; no allocation
};

// Whether a posed character's bone capsules hide the sight's `to` from its `from`: a capsule the
// segment crosses that does not hold `to` (one that holds it, as a joint's limb holds the joint,
// is the surface it is in); crossings within `surface_depth` before `to` do not count.
struct BoneCapsuleOcclusionJob {
  const glm::mat4* joints = nullptr;  // the pose's joint matrices (world), one per joint
  const int* parents = nullptr;       // one per joint, -1 for roots
  const float* radii = nullptr;       // BoneCapsuleFitJob's, one per joint (0: no capsule)
  size_t joint_count = 0;
  LineOfSight sight;         // from the eye to the point, and the surface the point lies in
  bool* occluded = nullptr;  // caller-owned

  // Errors name the field: occluded missing, arrays missing while counted, a parent out of
  // range, a radius negative or not finite, the sight's from / to / surface_depth not finite.
  Status Validate() const;
  Status Run() const;  // validates first; no allocation
};

// The least distance between segments [p0, p1] and [q0, q1].
float SegmentDistance(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& q0,
                      const glm::vec3& q1);

}  // namespace md5stage::anim
