#include "viewer/render_interface.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

namespace md5stage::viewer {

bool WorldToPixel(const glm::mat4& view_projection, int width, int height, const glm::vec3& world,
                  glm::dvec2* pixel) {
  const glm::vec4 clip = view_projection * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return false;
  pixel->x = (clip.x / clip.w * 0.5 + 0.5) * width;
  pixel->y = (0.5 - clip.y / clip.w * 0.5) * height;
  return true;
}

void GroundGridLines(std::vector<LineVertex>* lines) {
  const Rgba8 minor{90, 96, 110, 110};
  const Rgba8 major{130, 138, 155, 190};
  const float half = static_cast<float>(kGroundGridLines);
  const auto add = [lines](glm::vec3 a, glm::vec3 b, Rgba8 color) {
    lines->push_back({a, color});
    lines->push_back({b, color});
  };
  for (int i = -kGroundGridLines; i <= kGroundGridLines; ++i) {
    if (i == 0) continue;  // the axes are drawn there
    const float v = static_cast<float>(i);
    const Rgba8 color = (i % 10 == 0) ? major : minor;
    add({v, -half, 0}, {v, half, 0}, color);
    add({-half, v, 0}, {half, v, 0}, color);
  }
  add({-half, 0, 0}, {0, 0, 0}, {150, 70, 70, 200});
  add({0, 0, 0}, {half, 0, 0}, {230, 70, 70, 255});
  add({0, -half, 0}, {0, 0, 0}, {70, 130, 80, 200});
  add({0, 0, 0}, {0, half, 0}, {80, 200, 90, 255});
  add({0, 0, 0}, {0, 0, 10.0f}, {80, 130, 240, 255});
}

void AppendContactShadow(glm::vec2 centre, float radius, float intensity,
                         std::vector<LineVertex>* triangles) {
  if (!(intensity > 0.0f) || !(radius > 0.0f)) return;
  // Three rings (centre, half way, rim): alpha 1, 0.6 and 0 of the darkest, a falloff that reads
  // as soft with Gouraud interpolation and no texture.
  const float darkest = std::min(intensity, 1.0f) * kContactShadowAlpha * 255.0f;
  const auto alpha = [&](float share) { return static_cast<uint8_t>(darkest * share + 0.5f); };
  const LineVertex middle{{centre, kContactShadowDepth}, {0, 0, 0, alpha(1.0f)}};
  const auto ring = [&](int i, float r, float share) {
    const double a = glm::two_pi<double>() * (i % kContactShadowSegments) / kContactShadowSegments;
    const glm::vec2 p =
        centre + r * glm::vec2(static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)));
    return LineVertex{{p, kContactShadowDepth}, {0, 0, 0, alpha(share)}};
  };
  for (int i = 0; i < kContactShadowSegments; ++i) {
    const LineVertex inner0 = ring(i, 0.5f * radius, 0.6f),
                     inner1 = ring(i + 1, 0.5f * radius, 0.6f);
    const LineVertex outer0 = ring(i, radius, 0.0f), outer1 = ring(i + 1, radius, 0.0f);
    triangles->insert(triangles->end(),
                      {middle, inner0, inner1, inner0, outer0, outer1, inner0, outer1, inner1});
  }
}

void UnitCircleLines(std::vector<LineVertex>* lines) {
  glm::vec3 previous(1.0f, 0.0f, 0.0f);
  for (int i = 1; i <= kCircleSegments; ++i) {
    const double a = glm::two_pi<double>() * i / kCircleSegments;
    const glm::vec3 p = i == kCircleSegments ? glm::vec3(1.0f, 0.0f, 0.0f)
                                             : glm::vec3(static_cast<float>(std::cos(a)),
                                                         static_cast<float>(std::sin(a)), 0.0f);
    lines->push_back({previous, {255, 255, 255, 255}});
    lines->push_back({p, {255, 255, 255, 255}});
    previous = p;
  }
}

void UnitArcLines(std::vector<LineVertex>* lines) {
  for (int i = 0; i < kCircleSegments; ++i) {
    lines->push_back({{static_cast<float>(i) / kCircleSegments, 0.0f, 0.0f}, {255, 255, 255, 255}});
    const float next =
        i + 1 == kCircleSegments ? 1.0f : static_cast<float>(i + 1) / kCircleSegments;
    lines->push_back({{next, 0.0f, 0.0f}, {255, 255, 255, 255}});
  }
}

void UnitSegmentLines(std::vector<LineVertex>* lines) {
  lines->push_back({{0.0f, 0.0f, 0.0f}, {255, 255, 255, 255}});
  lines->push_back({{1.0f, 0.0f, 0.0f}, {255, 255, 255, 255}});
}

glm::vec3 PlaceShapeVertex(const ShapeInstance& shape, const glm::vec3& local) {
  switch (shape.shape) {
    case LineShape::kArc: {
      const float angle = shape.span.x + local.x * shape.span.y;
      return shape.centre + glm::vec3(std::cos(angle), std::sin(angle), 0.0f) * shape.scale;
    }
    case LineShape::kSegment:
      return shape.centre + local.x * shape.span;
    case LineShape::kGroundGrid:
    case LineShape::kCircle:
      break;
  }
  return shape.centre + local * shape.scale;
}

ShapeInstance ArcShape(const glm::vec3& centre, float radius, float start_angle, float sweep,
                       Rgba8 color, LineDepth depth) {
  ShapeInstance shape{LineShape::kArc, centre, radius, color, depth};
  shape.span = glm::vec3(start_angle, sweep, 0.0f);
  return shape;
}

ShapeInstance SegmentShape(const glm::vec3& from, const glm::vec3& to, Rgba8 color,
                           LineDepth depth) {
  ShapeInstance shape{LineShape::kSegment, from, 1.0f, color, depth};
  shape.span = to - from;
  return shape;
}

void AddGroundGrid(DrawList& list, float spacing) {
  list.shapes.push_back(
      {LineShape::kGroundGrid, glm::vec3(0.0f), spacing, {255, 255, 255, 255}, LineDepth::kTested});
}

MeshHandle NullRenderBackend::CreateMesh(const MeshUpload& upload) {
  meshes_.push_back(true);
  const size_t bytes = (upload.vertices ? upload.vertices->size() * sizeof(anim::GpuVertex) : 0) +
                       (upload.indices ? upload.indices->size() * sizeof(uint32_t) : 0);
  mesh_bytes_.push_back(bytes);
  shared_bytes_ += bytes;
  ++live_meshes_;
  return MeshHandle{static_cast<uint32_t>(meshes_.size())};
}

void NullRenderBackend::DestroyMesh(MeshHandle mesh) {
  if (!mesh.valid() || mesh.id > meshes_.size() || !meshes_[mesh.id - 1]) {
    ++bad_destroys_;
    return;
  }
  meshes_[mesh.id - 1] = false;
  shared_bytes_ -= mesh_bytes_[mesh.id - 1];
  --live_meshes_;
}

TextureHandle NullRenderBackend::CreateTexture(int width, int height, const uint8_t* rgba) {
  textures_.push_back(true);
  ++live_textures_;
  return TextureHandle{static_cast<uint32_t>(textures_.size())};
}

void NullRenderBackend::DestroyTexture(TextureHandle texture) {
  if (!texture.valid() || texture.id > textures_.size() || !textures_[texture.id - 1]) {
    ++bad_destroys_;
    return;
  }
  textures_[texture.id - 1] = false;
  --live_textures_;
}

}  // namespace md5stage::viewer
