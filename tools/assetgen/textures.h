// Procedurally painted textures for the generated models, laid out to match their UVs.
#pragma once

#include "image.h"
#include "math_util.h"

namespace md5stage::assetgen {

inline constexpr int kWalkerTextureSize = 256;

// The walker's clothes, skin and face in the layout of WalkerUvLayout (256 x 256 RGB).
Image PaintWalkerTexture();
// The flat colour (0..255, before the grain) of texel (px, py) of a size x size walker texture:
// what the walker's normal and specular maps classify materials by.
Vec3 WalkerBaseColour(int px, int py, int size);

// The walker's tangent-space normal map (walker_local.png, RGB = normal * 0.5 + 0.5 with x along
// +u and y along +v, i.e. down the image, as md5stage's and Doom 3's shaders read it) and its
// specular map (walker_s.png, grey), from a height field of weave, seams, stitches and bands.
Image PaintWalkerNormalMap();
Image PaintWalkerSpecularMap();

// The lamp's metal, glass and flame bands in the layout of BuildLampMesh's UVs (64 x 64 RGB).
Image PaintLampTexture();

}  // namespace md5stage::assetgen
