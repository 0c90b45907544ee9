// Coloured lines (grid, axes, skeletons, routes, bounds) and filled ground shapes (obstacles) from
// the viewer's draw list, drawn in one call per kind with one vertex array and one streamed buffer
// made once.
#pragma once

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

  // Triples of vertices (filled ground shapes) first, then pairs: depth-tested lines, then the
  // ones drawn on top.
  void Draw(const glm::mat4& view_projection, const std::vector<viewer::LineVertex>& triangles,
            const std::vector<viewer::LineVertex>& tested,
            const std::vector<viewer::LineVertex>& on_top);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace md5stage::render
