// Coloured lines (axes, skeletons, routes, bounds), line shapes (the grid, circles, paths) and
// filled ground shapes (obstacles) from the viewer's draw lists, every view of the frame in one
// call per kind, with one vertex array and one streamed buffer made once.
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

  // Per frame: BeginFrame(), Add() each view's triples of vertices (filled ground shapes), pairs
  // (depth-tested lines, lines on top) and line shapes (grid, circles, arcs, segments), Upload(),
  // then DrawViews(): the filled shapes, the tested line shapes and lines, the line shapes and
  // lines on top, each for all views in one call. `view` indexes the views' block that
  // SkinnedMeshRenderer::Upload() filled this frame. The vectors are read, not copied, until
  // Upload().
  void BeginFrame();
  void Add(int view, const std::vector<viewer::LineVertex>& triangles,
           const std::vector<viewer::LineVertex>& tested,
           const std::vector<viewer::LineVertex>& on_top,
           const std::vector<viewer::ShapeInstance>& shapes);
  void Upload();
  void DrawViews();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace md5stage::render
