#include "core/view/segment_occlusion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace md5stage {
namespace {

// A 2 x 2 square in the plane x = 0, centred on the origin, as two triangles.
const std::vector<glm::vec3> kSquare = {{0, -1, -1}, {0, 1, -1}, {0, 1, 1}, {0, -1, 1}};
const std::vector<std::uint32_t> kSquareTriangles = {0, 1, 2, 0, 2, 3};

struct OcclusionCase {
  const char* name;
  glm::vec3 from, to;
  float surface_depth;
  bool occluded;
};

TEST(SegmentOcclusionTest, SegmentsAgainstASquare) {
  const OcclusionCase cases[] = {
      {"through the middle", {-5, 0, 0}, {5, 0, 0}, 0.0f, true},
      {"from the other side", {5, 0.5f, 0.5f}, {-5, 0.5f, 0.5f}, 0.0f, true},
      {"stops before it", {-5, 0, 0}, {-0.5f, 0, 0}, 0.0f, false},
      {"point just behind, within the surface depth", {-5, 0, 0}, {0.5f, 0, 0}, 1.0f, false},
      {"point behind, beyond the surface depth", {-5, 0, 0}, {2, 0, 0}, 1.0f, true},
      {"passes beside it", {-5, 1.5f, 0}, {5, 1.5f, 0}, 0.0f, false},
      {"passes above it", {-5, 0, 1.01f}, {5, 0, 1.01f}, 0.0f, false},
      {"oblique, through a corner's triangle", {-5, -5, -5}, {5, 4, 4}, 0.0f, true},
      {"parallel to its plane", {0.5f, -5, 0}, {0.5f, 5, 0}, 0.0f, false},
      {"starts behind it, looks away", {1, 0, 0}, {5, 0, 0}, 0.0f, false},
      {"eye and point the same", {-5, 0, 0}, {-5, 0, 0}, 0.0f, false},
      {"surface depth longer than the segment", {-5, 0, 0}, {5, 0, 0}, 20.0f, false},
  };
  for (const OcclusionCase& c : cases) {
    bool occluded = !c.occluded;
    SegmentOcclusionJob job;
    job.positions = kSquare.data();
    job.position_count = kSquare.size();
    job.indices = kSquareTriangles.data();
    job.index_count = kSquareTriangles.size();
    job.sight.from = c.from;
    job.sight.to = c.to;
    job.sight.surface_depth = c.surface_depth;
    job.occluded = &occluded;
    const Status status = job.Run();
    ASSERT_TRUE(status.ok()) << c.name << ": " << status.error().message;
    EXPECT_EQ(occluded, c.occluded) << c.name;
  }
}

TEST(SegmentOcclusionTest, NoTrianglesHideNothing) {
  bool occluded = true;
  SegmentOcclusionJob job;
  job.sight.from = {-5, 0, 0};
  job.sight.to = {5, 0, 0};
  job.occluded = &occluded;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_FALSE(occluded);
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();
const std::vector<std::uint32_t> kPastTheEnd = {0, 1, 4};
const std::vector<std::uint32_t> kPartialTriangle = {0, 1};

TEST(SegmentOcclusionTest, ValidityNamesTheField) {
  struct Row {
    const char* name;
    void (*change)(SegmentOcclusionJob&);
    const char* error;  // nullptr: valid
  };
  const Row rows[] = {
      {"valid", [](SegmentOcclusionJob&) {}, nullptr},
      {"no output", [](SegmentOcclusionJob& j) { j.occluded = nullptr; }, "occluded:"},
      {"positions missing", [](SegmentOcclusionJob& j) { j.positions = nullptr; }, "positions:"},
      {"indices missing", [](SegmentOcclusionJob& j) { j.indices = nullptr; }, "indices:"},
      {"a partial triangle",
       [](SegmentOcclusionJob& j) {
         j.indices = kPartialTriangle.data();
         j.index_count = kPartialTriangle.size();
       },
       "indices: expected whole triangles"},
      {"an index past the vertices",
       [](SegmentOcclusionJob& j) {
         j.indices = kPastTheEnd.data();
         j.index_count = kPastTheEnd.size();
       },
       "indices[2]: expected a vertex below 4, found 4"},
      {"from not finite", [](SegmentOcclusionJob& j) { j.sight.from.y = kNaN; }, "from:"},
      {"to not finite", [](SegmentOcclusionJob& j) { j.sight.to.z = kInfinity; }, "to:"},
      {"negative surface depth", [](SegmentOcclusionJob& j) { j.sight.surface_depth = -1.0f; },
       "surface_depth:"},
      {"surface depth not a number", [](SegmentOcclusionJob& j) { j.sight.surface_depth = kNaN; },
       "surface_depth:"},
      {"surface depth infinite", [](SegmentOcclusionJob& j) { j.sight.surface_depth = kInfinity; },
       "surface_depth:"},
  };
  for (const Row& row : rows) {
    bool occluded = false;
    SegmentOcclusionJob job;
    job.positions = kSquare.data();
    job.position_count = kSquare.size();
    job.indices = kSquareTriangles.data();
    job.index_count = kSquareTriangles.size();
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
}  // namespace md5stage
