// Coloured lines (grid, axes, skeletons, routes, bounds) and filled ground shapes (obstacles) from
// the viewer's draw lists, every view of the frame in one call per kind, with one vertex array and
// one streamed buffer made once.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "viewer/render_interface.h"

namespace md5stage::render {

class LineRenderer {
 public:
  LineRenderer();
  ~LineRenderer();
  bool Init(std::string* error);

  // Per frame: BeginFrame(), Add() each view's triples of vertices (filled ground shapes) and
  // pairs (depth-tested lines, lines on top), Upload(), then DrawViews(): the shapes, the tested
  // lines, the lines on top, each for all views in one call. `view` indexes the views' block
  // that SkinnedMeshRenderer::Upload() filled this frame.
  void BeginFrame();
  void Add(int view, const std::vector<viewer::LineVertex>& triangles,
           const std::vector<viewer::LineVertex>& tested,
           const std::vector<viewer::LineVertex>& on_top);
  void Upload();
  void DrawViews();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace md5stage::render
