// Evaluates a material's image programs on decoded RGBA8 images, as Doom 3 does on load:
// heightmap( IMG, SCALE ) turns a height map into a normal map, addnormals( A, B ) adds B's
// normal change to A. The caller decodes the images the program names; errors are values.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/material/material.h"
#include "core/material/rgba_image.h"

namespace md5stage::material {

// R_HeightmapToNormalMap: the gradient from three height samples in two triangles (wrapping at
// the edges), scaled by scale / 256, averaged and packed as 128 + 127 * n.
struct HeightmapToNormalJob {
  const RgbaImage* height = nullptr;
  float scale = 1.0f;
  RgbaImage* output = nullptr;  // caller-owned: height's size, rgba already sized

  Status Validate() const;
  void Run() const;
};

// R_AddNormalMaps: A's normal (faded to +Z where shorter than 1) plus B's x/y change,
// renormalised. Images of different sizes are both point-sampled at the larger size.
struct AddNormalsJob {
  const RgbaImage* a = nullptr;
  const RgbaImage* b = nullptr;
  RgbaImage* output = nullptr;  // caller-owned: max(a, b) width and height, rgba sized

  Status Validate() const;
  void Run() const;
};

struct ImageProgramInput {
  const ImageProgram* program = nullptr;
  // The program's images in depth-first order (ImageProgram::CollectImages); null: not found.
  std::vector<const RgbaImage*> images;
  int max_depth = 16;
  int max_side = 8192;

  Status Validate() const;
};

// The image the program makes: a plain image is copied, heightmap and addnormals are applied.
// Unknown functions (makeintensity, scale, ...), wrong arguments, a missing image or a program
// deeper than max_depth are errors that name the program.
Result<RgbaImage> EvaluateImageProgram(const ImageProgramInput& input);

}  // namespace md5stage::material
