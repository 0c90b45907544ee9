// Decodes DDS textures on the CPU: DXT1 (BC1, with its 1-bit alpha), DXT3 (BC2), DXT5 (BC3) and
// uncompressed 24/32-bit RGB(A) by channel masks; the first mip level only. Other formats (BC4,
// BC5, DX10 headers, cube maps) are errors that name the format.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/material/image_decode.h"

namespace md5stage::material {

// True when the bytes start with the "DDS " magic.
bool IsDds(std::string_view bytes);

// Every check DecodeDds makes before it allocates (header, sides, format, data size): an error
// names the limit, as DecodeDds's would.
Status CheckDds(const std::string& file_name, std::string_view bytes);

Result<RgbaImage> DecodeDds(const std::string& file_name, std::string_view bytes);

}  // namespace md5stage::material
