// Writes the generator's skeletons, meshes and clips as MD5 version 10 text (.md5mesh, .md5anim)
// with fixed formatting, so the same model always gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace md5stage::assetgen {

// Rounds every vertex's biases to the 6 decimals a file holds, keeping their sum exactly 1 (the
// largest bias absorbs the rounding), drops biases that round to 0 and orders by bias.
void QuantizeWeights(SkinMesh& mesh);

std::string WriteMd5Mesh(const Skeleton& skeleton, const std::vector<SkinMesh>& meshes,
                         const std::string& commandline);

// Joints whose parent-relative pose is the same in every frame get flags 0 (the baseframe holds
// them); the others get 63. The baseframe is frame 0. `meshes` give the per-frame bounds.
std::string WriteMd5Anim(const Skeleton& skeleton, const std::vector<SkinMesh>& meshes,
                         const AnimClip& clip);

}  // namespace md5stage::assetgen
