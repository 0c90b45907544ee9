// The 4-influence reduction the GPU path applies to MD5 vertices (which may have any number of
// weights): shared by load-time warnings, the GPU data builder and error measurements.
#pragma once

#include <array>

#include "core/md5/md5_types.h"

namespace md5stage::md5 {

inline constexpr int kMaxGpuInfluences = 4;

struct TopInfluences {
  int count = 0;                   // min(weight_count, 4)
  std::array<int, 4> weights{};    // indices into the mesh's weights, largest bias first
  std::array<float, 4> factors{};  // biases renormalized to sum to 1 (unused slots 0)
  float dropped_fraction = 0.0f;   // share of the total bias left out
};

// Picks the (up to) 4 largest biases of a vertex; ties keep file order. A vertex whose kept
// biases sum to zero or less gets equal factors.
TopInfluences SelectTopInfluences(const MeshPart& mesh, const MeshVertex& vertex);

}  // namespace md5stage::md5
