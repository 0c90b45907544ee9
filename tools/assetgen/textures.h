// Procedurally painted textures for the generated models, laid out to match their UVs.
#pragma once

#include "image.h"

namespace md5stage::assetgen {

// The walker's clothes, skin and face in the layout of WalkerUvLayout (256 x 256 RGB).
Image PaintWalkerTexture();

// The lamp's metal, glass and flame bands in the layout of BuildLampMesh's UVs (64 x 64 RGB).
Image PaintLampTexture();

}  // namespace md5stage::assetgen
