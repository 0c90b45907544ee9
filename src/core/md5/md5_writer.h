// MD5 version 10 text from parsed-form data (MeshFile, AnimFile): what the converters write and
// ParseMd5Mesh / ParseMd5Anim read back to the same floats.
#pragma once

#include <cstdint>
#include <string>

#include "core/md5/md5_types.h"

namespace md5stage::md5 {

// Floats are written in fixed notation with the fewest decimals that read back to the same float,
// so writing is deterministic and lossless, and no reader meets an exponent.
// -0 is written as 0. Quotes in names and shaders become apostrophes (MD5 strings have no escape).
std::string WriteMd5Mesh(const MeshFile& mesh);
std::string WriteMd5Anim(const AnimFile& anim);

// WriteMd5Anim's text for `frames` frames of `joints` joints, every component animated, at
// kEstimatedNumberBytes a number: what a converter knows before it samples a frame, to refuse an
// input past its bounds first (real files average 10 to 13 bytes a number with separators and
// headers: 61 to 127 bytes a joint a frame in ../shared/md5 and assets/).
inline constexpr std::uint64_t kEstimatedNumberBytes = 12;
std::uint64_t EstimateMd5AnimBytes(std::uint64_t frames, std::uint64_t joints);

// One float as the writer formats it.
std::string FormatMd5Float(float value);

}  // namespace md5stage::md5
