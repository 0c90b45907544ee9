#include "viewer/render_interface.h"

#include <cmath>

namespace md5stage::viewer {

bool WorldToPixel(const glm::mat4& view_projection, int width, int height, const glm::vec3& world,
                  glm::dvec2* pixel) {
  const glm::vec4 clip = view_projection * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return false;
  pixel->x = (clip.x / clip.w * 0.5 + 0.5) * width;
  pixel->y = (0.5 - clip.y / clip.w * 0.5) * height;
  return true;
}

void AddGroundGrid(DrawList& list, float half_extent, float spacing) {
  const Rgba8 minor{90, 96, 110, 110};
  const Rgba8 major{130, 138, 155, 190};
  const int count = static_cast<int>(std::floor(half_extent / spacing));
  for (int i = -count; i <= count; ++i) {
    if (i == 0) continue;  // the axes are drawn there
    const float v = static_cast<float>(i) * spacing;
    const Rgba8 color = (i % 10 == 0) ? major : minor;
    list.AddLine({v, -half_extent, 0}, {v, half_extent, 0}, color);
    list.AddLine({-half_extent, v, 0}, {half_extent, v, 0}, color);
  }
  const Rgba8 axis_x{230, 70, 70, 255};
  const Rgba8 axis_y{80, 200, 90, 255};
  const Rgba8 axis_z{80, 130, 240, 255};
  list.AddLine({-half_extent, 0, 0}, {0, 0, 0}, {150, 70, 70, 200});
  list.AddLine({0, 0, 0}, {half_extent, 0, 0}, axis_x);
  list.AddLine({0, -half_extent, 0}, {0, 0, 0}, {70, 130, 80, 200});
  list.AddLine({0, 0, 0}, {0, half_extent, 0}, axis_y);
  list.AddLine({0, 0, 0}, {0, 0, 10.0f * spacing}, axis_z);
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

void NullRenderBackend::SetPartTexture(MeshHandle mesh, int part, TextureHandle texture) {
  ++part_updates_;
}

}  // namespace md5stage::viewer
