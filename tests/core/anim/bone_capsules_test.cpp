#include "core/anim/bone_capsules.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <string>
#include <vector>

namespace md5stage::anim {
namespace {

constexpr float kPi = 3.14159265f;

TEST(BoneCapsulesTest, SegmentDistanceTable) {
  struct Row {
    const char* name;
    glm::vec3 p0, p1, q0, q1;
    float distance;
  };
  const Row rows[] = {
      {"crossing", {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, 0.0f},
      {"crossing 2 apart in z", {-1, 0, 0}, {1, 0, 0}, {0, -1, 2}, {0, 1, 2}, 2.0f},
      {"parallel, overlapping", {0, 0, 0}, {4, 0, 0}, {1, 3, 0}, {2, 3, 0}, 3.0f},
      {"parallel, end to end", {0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {5, 0, 0}, 2.0f},
      {"closest at an end of one", {0, 0, 0}, {1, 0, 0}, {3, -1, 0}, {3, 1, 0}, 2.0f},
      {"a point and a segment", {0, 5, 0}, {0, 5, 0}, {-1, 0, 0}, {1, 0, 0}, 5.0f},
      {"two points", {0, 0, 0}, {0, 0, 0}, {3, 4, 0}, {3, 4, 0}, 5.0f},
      {"skew", {0, 0, 0}, {0, 0, 10}, {-5, 3, 5}, {5, 3, 5}, 3.0f},
  };
  for (const Row& row : rows) {
    EXPECT_NEAR(SegmentDistance(row.p0, row.p1, row.q0, row.q1), row.distance, 1e-5f) << row.name;
    EXPECT_NEAR(SegmentDistance(row.q0, row.q1, row.p0, row.p1), row.distance, 1e-5f)
        << row.name << ", swapped";
  }
}

// Two joints: a root at the origin and its child 10 up z, a cylinder of skin of radius 2
// around the bone between them (weighted to the root), and one vertex weighted to the child
// alone, 1 from the child's end.
struct Limb {
  std::vector<glm::mat4> bind = {glm::mat4(1.0f),
                                 glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 10))};
  std::vector<int> parents = {-1, 0};
  std::vector<GpuVertex> vertices;
  Limb() {
    for (int ring = 0; ring <= 10; ++ring) {
      for (int k = 0; k < 8; ++k) {
        GpuVertex v;
        const float angle = 2.0f * kPi * static_cast<float>(k) / 8.0f;
        v.position = {2.0f * std::cos(angle), 2.0f * std::sin(angle), static_cast<float>(ring)};
        v.joints[0] = 0;
        v.weights[0] = 1.0f;
        vertices.push_back(v);
      }
    }
  }
};

TEST(BoneCapsulesTest, FitsTheSkinAroundABone) {
  Limb limb;
  float radii[2] = {-1.0f, -1.0f};
  std::uint32_t counts[2] = {7, 7};
  BoneCapsuleFitJob job;
  job.bind_matrices = limb.bind.data();
  job.parents = limb.parents.data();
  job.joint_count = 2;
  job.vertices = limb.vertices.data();
  job.vertex_count = limb.vertices.size();
  job.radii = radii;
  job.vertex_counts = counts;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(radii[0], 0.0f) << "a root has no bone";
  EXPECT_EQ(counts[0], 0u);
  EXPECT_NEAR(radii[1], 2.0f, 1e-4f);
  EXPECT_EQ(counts[1], limb.vertices.size());

  // A vertex weighted to no bone's joint chooses nothing; one weighted to the child, 1 from its
  // end, pulls the mean down.
  GpuVertex far;
  far.position = {0, 0, 11};
  far.joints[0] = 1;
  far.weights[0] = 1.0f;
  limb.vertices.push_back(far);
  job.vertices = limb.vertices.data();
  job.vertex_count = limb.vertices.size();
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(counts[1], 89u);
  EXPECT_NEAR(radii[1], (88.0f * 2.0f + 1.0f) / 89.0f, 1e-4f);
}

struct OcclusionCase {
  const char* name;
  glm::vec3 from, to;
  float surface_depth;
  bool occluded;
};

TEST(BoneCapsulesTest, SegmentsAgainstACapsule) {
  // The capsule of radius 2 from (0, 0, 0) to (0, 0, 10), posed moved 5 along x.
  const std::vector<glm::mat4> joints = {glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 0)),
                                         glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 10))};
  const std::vector<int> parents = {-1, 0};
  const std::vector<float> radii = {0.0f, 2.0f};
  const OcclusionCase cases[] = {
      {"through the middle", {-20, 0, 5}, {20, 0, 5}, 0.0f, true},
      {"through its rounded end", {-20, 0, 11.5f}, {20, 0, 11.5f}, 0.0f, true},
      {"above its rounded end", {-20, 0, 12.5f}, {20, 0, 12.5f}, 0.0f, false},
      {"beside it", {-20, 2.5f, 5}, {20, 2.5f, 5}, 0.0f, false},
      {"stops before it", {-20, 0, 5}, {2.5f, 0, 5}, 0.0f, false},
      {"point on its axis, within the surface depth", {-20, 0, 5}, {5, 0, 5}, 3.0f, false},
      {"point behind it, beyond the surface depth", {-20, 0, 5}, {12, 0, 5}, 3.0f, true},
      {"point inside it: the surface it is in", {-20, 0, 5}, {6.5f, 0, 5}, 0.0f, false},
      {"point on its axis at its end (a joint)", {-20, 0, 5}, {5, 0, 10}, 0.0f, false},
      {"point just out of its far side", {-20, 0, 5}, {7.1f, 0, 5}, 0.0f, true},
      {"along its axis from above", {5, 0, 30}, {5, 0, -30}, 0.0f, true},
      {"through its unposed place (it moved)", {-20, 0, 5}, {-1, 0, 5}, 0.0f, false},
      {"eye and point the same", {-20, 0, 5}, {-20, 0, 5}, 0.0f, false},
      {"surface depth longer than the segment", {-20, 0, 5}, {20, 0, 5}, 100.0f, false},
  };
  for (const OcclusionCase& c : cases) {
    bool occluded = !c.occluded;
    BoneCapsuleOcclusionJob job;
    job.joints = joints.data();
    job.parents = parents.data();
    job.radii = radii.data();
    job.joint_count = joints.size();
    job.sight.from = c.from;
    job.sight.to = c.to;
    job.sight.surface_depth = c.surface_depth;
    job.occluded = &occluded;
    const Status status = job.Run();
    ASSERT_TRUE(status.ok()) << c.name << ": " << status.error().message;
    EXPECT_EQ(occluded, c.occluded) << c.name;
  }
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

TEST(BoneCapsulesTest, FitValidityNamesTheField) {
  static const Limb limb;
  static const std::vector<int> late_parent = {-1, 1};
  static std::vector<GpuVertex> past_the_end;
  past_the_end = limb.vertices;
  past_the_end[3].joints[1] = 2;
  past_the_end[3].weights[1] = 0.5f;
  struct Row {
    const char* name;
    void (*change)(BoneCapsuleFitJob&);
    const char* error;  // nullptr: valid
  };
  const Row rows[] = {
      {"valid", [](BoneCapsuleFitJob&) {}, nullptr},
      {"no radii", [](BoneCapsuleFitJob& j) { j.radii = nullptr; }, "radii:"},
      {"no counts", [](BoneCapsuleFitJob& j) { j.vertex_counts = nullptr; }, "vertex_counts:"},
      {"bind matrices missing", [](BoneCapsuleFitJob& j) { j.bind_matrices = nullptr; },
       "bind_matrices:"},
      {"parents missing", [](BoneCapsuleFitJob& j) { j.parents = nullptr; }, "parents:"},
      {"vertices missing", [](BoneCapsuleFitJob& j) { j.vertices = nullptr; }, "vertices:"},
      {"a parent not before its joint",
       [](BoneCapsuleFitJob& j) { j.parents = late_parent.data(); },
       "parents[1]: expected -1 or a joint before it, found 1"},
      {"a weighted joint past the skeleton",
       [](BoneCapsuleFitJob& j) { j.vertices = past_the_end.data(); },
       "vertices[3].joints[1]: expected a joint below 2, found 2"},
      {"no joints, no vertices",
       [](BoneCapsuleFitJob& j) {
         j.joint_count = 0;
         j.vertex_count = 0;
         j.bind_matrices = nullptr;
         j.parents = nullptr;
         j.vertices = nullptr;
       },
       nullptr},
  };
  for (const Row& row : rows) {
    float radii[2];
    std::uint32_t counts[2];
    BoneCapsuleFitJob job;
    job.bind_matrices = limb.bind.data();
    job.parents = limb.parents.data();
    job.joint_count = 2;
    job.vertices = limb.vertices.data();
    job.vertex_count = limb.vertices.size();
    job.radii = radii;
    job.vertex_counts = counts;
    row.change(job);
    const Status status = job.Validate();
    if (row.error == nullptr) {
      EXPECT_TRUE(status.ok()) << row.name << ": " << status.error().message;
      EXPECT_TRUE(job.Run().ok()) << row.name;
      continue;
    }
    ASSERT_FALSE(status.ok()) << row.name;
    EXPECT_NE(status.error().message.find(row.error), std::string::npos)
        << row.name << ": " << status.error().message;
    EXPECT_FALSE(job.Run().ok()) << row.name << ": Run validates first";
  }
}

TEST(BoneCapsulesTest, OcclusionValidityNamesTheField) {
  static const std::vector<glm::mat4> joints(2, glm::mat4(1.0f));
  static const std::vector<int> parents = {-1, 0};
  static const std::vector<int> parent_out_of_range = {-1, 2};
  static const std::vector<float> radii = {0.0f, 2.0f};
  static const std::vector<float> negative = {0.0f, -1.0f};
  static const std::vector<float> not_a_number = {kNaN, 1.0f};
  struct Row {
    const char* name;
    void (*change)(BoneCapsuleOcclusionJob&);
    const char* error;  // nullptr: valid
  };
  const Row rows[] = {
      {"valid", [](BoneCapsuleOcclusionJob&) {}, nullptr},
      {"no output", [](BoneCapsuleOcclusionJob& j) { j.occluded = nullptr; }, "occluded:"},
      {"joints missing", [](BoneCapsuleOcclusionJob& j) { j.joints = nullptr; }, "joints:"},
      {"parents missing", [](BoneCapsuleOcclusionJob& j) { j.parents = nullptr; }, "parents:"},
      {"radii missing", [](BoneCapsuleOcclusionJob& j) { j.radii = nullptr; }, "radii:"},
      {"a parent out of range",
       [](BoneCapsuleOcclusionJob& j) { j.parents = parent_out_of_range.data(); },
       "parents[1]: expected -1 or a joint below 2, found 2"},
      {"a negative radius", [](BoneCapsuleOcclusionJob& j) { j.radii = negative.data(); },
       "radii[1]:"},
      {"a radius not a number", [](BoneCapsuleOcclusionJob& j) { j.radii = not_a_number.data(); },
       "radii[0]:"},
      {"from not finite", [](BoneCapsuleOcclusionJob& j) { j.sight.from.y = kNaN; }, "from:"},
      {"to not finite", [](BoneCapsuleOcclusionJob& j) { j.sight.to.z = kInfinity; }, "to:"},
      {"negative surface depth", [](BoneCapsuleOcclusionJob& j) { j.sight.surface_depth = -1.0f; },
       "surface_depth:"},
      {"surface depth infinite",
       [](BoneCapsuleOcclusionJob& j) { j.sight.surface_depth = kInfinity; }, "surface_depth:"},
      {"no joints",
       [](BoneCapsuleOcclusionJob& j) {
         j.joint_count = 0;
         j.joints = nullptr;
       },
       nullptr},
  };
  for (const Row& row : rows) {
    bool occluded = false;
    BoneCapsuleOcclusionJob job;
    job.joints = joints.data();
    job.parents = parents.data();
    job.radii = radii.data();
    job.joint_count = 2;
    job.sight.from = {-5, 0, 0};
    job.sight.to = {5, 0, 0};
    job.occluded = &occluded;
    row.change(job);
    const Status status = job.Validate();
    if (row.error == nullptr) {
      EXPECT_TRUE(status.ok()) << row.name << ": " << status.error().message;
      continue;
    }
    ASSERT_FALSE(status.ok()) << row.name;
    EXPECT_NE(status.error().message.find(row.error), std::string::npos)
        << row.name << ": " << status.error().message;
    EXPECT_FALSE(job.Run().ok()) << row.name << ": Run validates first";
  }
}

}  // namespace
}  // namespace md5stage::anim
