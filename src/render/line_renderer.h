// Immediate-mode coloured lines (grid, axes, skeletons, routes, bounds): collected on the CPU each
// frame and drawn in one call per depth mode.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

namespace md5stage::render {

struct Rgba8 {
  uint8_t r, g, b, a;
};

class LineRenderer {
 public:
  enum class Depth { kTested, kOnTop };

  LineRenderer();
  ~LineRenderer();
  bool Init(std::string* error);

  void Clear();
  void AddLine(const glm::vec3& a, const glm::vec3& b, Rgba8 color, Depth depth = Depth::kTested);
  // A polyline through points, e.g. a sampled curve.
  void AddStrip(const std::vector<glm::vec3>& points, Rgba8 color, Depth depth = Depth::kTested);
  void Draw(const glm::mat4& view_projection);

  size_t vertex_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The ground grid on z = 0: minor lines every `spacing`, major every 10, the X (red) and Y (green)
// axes and a short Z (blue) axis at the origin.
void AddGroundGrid(LineRenderer& lines, float half_extent, float spacing);

}  // namespace md5stage::render
