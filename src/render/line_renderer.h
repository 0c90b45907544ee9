// Coloured lines (grid, axes, skeletons, routes, bounds) from the viewer's draw list, drawn in one
// call per depth mode with one vertex array and one streamed buffer made once.
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

  // Pairs of vertices: depth-tested lines first, then the ones drawn on top.
  void Draw(const glm::mat4& view_projection, const std::vector<viewer::LineVertex>& tested,
            const std::vector<viewer::LineVertex>& on_top);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace md5stage::render
