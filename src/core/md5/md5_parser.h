// Parsers for .md5mesh and .md5anim (version 10). They take a name (for messages only) and the
// file's bytes; they never read files. Errors: "FILE:LINE:COL: error: expected ..., found ...".
#pragma once

#include <string_view>

#include "core/common/result.h"
#include "core/md5/md5_limits.h"
#include "core/md5/md5_types.h"

namespace md5stage::md5 {

// Parses and validates a mesh: version, counts against the data, parents before children, one
// root, index ranges (weights -> joints, vertices -> weights, triangles -> vertices), finite
// numbers, limits. Warnings (in MeshFile::warnings): weights not summing to 1, more than 4
// influences per vertex.
Result<MeshFile> ParseMd5Mesh(std::string_view file_name, std::string_view bytes,
                              const Md5Limits& limits = Md5Limits());

// Parses and validates an animation: as above, plus flags above 63 and animated components
// outside numAnimatedComponents.
Result<AnimFile> ParseMd5Anim(std::string_view file_name, std::string_view bytes,
                              const Md5Limits& limits = Md5Limits());

enum class Md5Kind { kUnknown, kMesh, kAnim };

// Which parser a file needs: by extension (.md5mesh / .md5anim, any case), else by whether the
// header declares numMeshes or numFrames. For dropped files and the command line.
Md5Kind DetectMd5Kind(std::string_view file_name, std::string_view bytes);

}  // namespace md5stage::md5
