// Contact sheets of the generated assets (bind pose, every clip at eight times from two sides,
// the lamp in the hand), written as PNG files for a quick visual check outside the viewer.
#pragma once

#include <string>
#include <vector>

#include "asset_set.h"

namespace md5stage::assetgen {

// (file name, PNG bytes) pairs: bind.png, anim_<clip>.png, attach.png.
std::vector<GeneratedFile> RenderPreviewSheets(const AssetSet& set);

}  // namespace md5stage::assetgen
