// MD5 version 10 text from parsed-form data (MeshFile, AnimFile): what the converters write and
// ParseMd5Mesh / ParseMd5Anim read back to the same floats.
#pragma once

#include <string>

#include "core/md5/md5_types.h"

namespace md5stage::md5 {

// Floats are written in fixed notation with the fewest decimals that read back to the same float,
// so writing is deterministic and lossless, and no reader meets an exponent.
// -0 is written as 0. Quotes in names and shaders become apostrophes (MD5 strings have no escape).
std::string WriteMd5Mesh(const MeshFile& mesh);
std::string WriteMd5Anim(const AnimFile& anim);

// One float as the writer formats it.
std::string FormatMd5Float(float value);

}  // namespace md5stage::md5
