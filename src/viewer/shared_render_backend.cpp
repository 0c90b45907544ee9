#include "viewer/shared_render_backend.h"

#include <string_view>

#include "core/common/content_key.h"

namespace md5stage::viewer {

void SharedRenderBackend::ReplaceDevice(RenderBackend* device) {
  device_ = device;
  meshes_.clear();
  mesh_keys_.clear();
  texture_ids_.clear();
  textures_.clear();
}

MeshHandle SharedRenderBackend::CreateMesh(const MeshUpload& upload) {
  // Without an owner the arrays' address could later name other data: not shared.
  if (!upload.owner || upload.vertices == nullptr) return device_->CreateMesh(upload);
  const void* key = upload.vertices;
  auto found = meshes_.find(key);
  if (found != meshes_.end()) {
    ++found->second.users;
    ++shared_hits_;
    return found->second.handle;
  }
  const MeshHandle handle = device_->CreateMesh(upload);
  if (!handle.valid()) return handle;
  meshes_[key] = SharedMesh{handle, 1, upload.owner};
  mesh_keys_[handle.id] = key;
  return handle;
}

void SharedRenderBackend::DestroyMesh(MeshHandle mesh) {
  auto key = mesh_keys_.find(mesh.id);
  if (key == mesh_keys_.end()) {
    device_->DestroyMesh(mesh);
    return;
  }
  auto found = meshes_.find(key->second);
  if (--found->second.users > 0) return;
  device_->DestroyMesh(mesh);
  meshes_.erase(found);
  mesh_keys_.erase(key);
}

SharedRenderBackend::PixelsKey SharedRenderBackend::TextureKey(int width, int height,
                                                               const uint8_t* rgba) {
  const size_t size = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
  PixelsKey key;
  key.width = width;
  key.height = height;
  key.pixels = MakeContentKey(std::string_view(reinterpret_cast<const char*>(rgba), size));
  return key;
}

TextureHandle SharedRenderBackend::CreateTexture(int width, int height, const uint8_t* rgba) {
  if (rgba == nullptr || width <= 0 || height <= 0)
    return device_->CreateTexture(width, height, rgba);
  const PixelsKey key = TextureKey(width, height, rgba);
  auto found = texture_ids_.find(key);
  if (found != texture_ids_.end()) {
    ++textures_[found->second].users;
    ++shared_hits_;
    return textures_[found->second].handle;
  }
  const TextureHandle handle = device_->CreateTexture(width, height, rgba);
  if (!handle.valid()) return handle;
  texture_ids_[key] = handle.id;
  textures_[handle.id] = SharedTexture{handle, 1, key};
  return handle;
}

void SharedRenderBackend::DestroyTexture(TextureHandle texture) {
  auto found = textures_.find(texture.id);
  if (found == textures_.end()) {
    device_->DestroyTexture(texture);
    return;
  }
  if (--found->second.users > 0) return;
  device_->DestroyTexture(texture);
  texture_ids_.erase(found->second.key);
  textures_.erase(found);
}

int SharedRenderBackend::mesh_references() const {
  int total = 0;
  for (const auto& entry : meshes_) total += entry.second.users;
  return total;
}

int SharedRenderBackend::texture_references() const {
  int total = 0;
  for (const auto& entry : textures_) total += entry.second.users;
  return total;
}

}  // namespace md5stage::viewer
