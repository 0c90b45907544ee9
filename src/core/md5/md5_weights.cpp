#include "core/md5/md5_weights.h"

namespace md5stage::md5 {

TopInfluences SelectTopInfluences(const MeshPart& mesh, const MeshVertex& vertex) {
  TopInfluences top;
  float total = 0.0f;
  for (int i = 0; i < vertex.weight_count; ++i) {
    const int index = vertex.first_weight + i;
    const float bias = mesh.weights[index].bias;
    total += bias;
    // Insertion into a sorted list of at most 4: strict '>' keeps earlier weights first on ties.
    int slot = top.count;
    while (slot > 0 && bias > mesh.weights[top.weights[slot - 1]].bias) --slot;
    if (slot >= kMaxGpuInfluences) continue;
    const int last = top.count < kMaxGpuInfluences ? top.count : kMaxGpuInfluences - 1;
    for (int j = last; j > slot; --j) top.weights[j] = top.weights[j - 1];
    top.weights[slot] = index;
    if (top.count < kMaxGpuInfluences) ++top.count;
  }
  float kept = 0.0f;
  for (int i = 0; i < top.count; ++i) kept += mesh.weights[top.weights[i]].bias;
  for (int i = 0; i < top.count; ++i) {
    top.factors[i] = kept > 0.0f ? mesh.weights[top.weights[i]].bias / kept
                                 : 1.0f / static_cast<float>(top.count);
  }
  top.dropped_fraction = total > 0.0f ? (total - kept) / total : 0.0f;
  if (top.dropped_fraction < 0.0f) top.dropped_fraction = 0.0f;
  return top;
}

}  // namespace md5stage::md5
