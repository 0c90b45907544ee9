// Whether something on a straight line of sight hides a point: a segment from the eye to the
// point against a triangle mesh (a character's skinned triangles), on the CPU, since WebGL2
// cannot read depth back. Figures' hotspots use it for data-visible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/common/line_of_sight.h"
#include "core/common/result.h"

namespace md5stage {

struct SegmentOcclusionJob {
  const glm::vec3* positions = nullptr;  // the mesh's vertices
  size_t position_count = 0;
  const std::uint32_t* indices = nullptr;  // triangles, three indices each
  size_t index_count = 0;
  LineOfSight sight;         // from the eye to the point, and the surface the point lies in
  bool* occluded = nullptr;  // caller-owned: true when a triangle crosses the segment before it

  // Errors name the field: occluded missing, positions or indices missing while counted, an
  // index count not a multiple of 3, an index past the vertices, the sight's from / to /
  // surface_depth not finite (or surface_depth negative).
  Status Validate() const;
  Status Run() const;  // validates first; no allocation
};

}  // namespace md5stage
