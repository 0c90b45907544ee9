// A tiny software rasteriser (orthographic, z-buffered, textured, Lambert-lit) that renders posed
// meshes into contact sheets, so the generated figure and its animations can be checked offline.
#pragma once

#include <vector>

#include "image.h"
#include "model.h"

namespace md5stage::assetgen {

struct PreviewView {
  Vec3 target{0.0};
  double yaw_degrees = 30.0;    // camera position around the target, CCW from +X
  double pitch_degrees = 15.0;  // above the horizon
  double half_height = 40.0;    // model units from the centre to the top edge
  bool ground = true;           // checkered ground plane z = 0 (1 tile = 10 units)
};

struct PreviewItem {
  const SkinMesh* mesh = nullptr;
  const Image* texture = nullptr;
  std::vector<Vec3> positions;  // posed vertex positions, model space
};

// Draws `items` into the `width` x `height` cell of `canvas` whose top-left pixel is (x0, y0).
void RenderPreview(Image& canvas, int x0, int y0, int width, int height,
                   const std::vector<PreviewItem>& items, const PreviewView& view);

}  // namespace md5stage::assetgen
