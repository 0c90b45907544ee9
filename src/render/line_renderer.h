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

  // Where one view's vertices are in the frame's buffer.
  struct Ranges {
    int first_triangle = 0, triangles = 0;
    int first_tested = 0, tested = 0;
    int first_on_top = 0, on_top = 0;
  };

  // Triples of vertices (filled ground shapes) first, then pairs: depth-tested lines, then the
  // ones drawn on top. One view: Draw(). Several (the figures of a page): BeginFrame(), Add()
  // each view's, Upload() once, then DrawRanges() per view into its viewport.
  void Draw(const glm::mat4& view_projection, const std::vector<viewer::LineVertex>& triangles,
            const std::vector<viewer::LineVertex>& tested,
            const std::vector<viewer::LineVertex>& on_top);
  void BeginFrame();
  Ranges Add(const std::vector<viewer::LineVertex>& triangles,
             const std::vector<viewer::LineVertex>& tested,
             const std::vector<viewer::LineVertex>& on_top);
  void Upload();
  void DrawRanges(const glm::mat4& view_projection, const Ranges& ranges);
  // DrawRanges() in parts, for views drawn one after another with nothing else between: the
  // program, vertex array and blending set once, then each view's matrix and draws.
  void BeginRanges();
  void DrawRangesInView(const glm::mat4& view_projection, const Ranges& ranges);
  void EndRanges();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace md5stage::render
