// The GPU objects of one module shared by all its stages: a mesh of the same immutable model data
// or a texture of the same pixels is uploaded once, counted per user, and destroyed with its last.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/common/content_key.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {

// Sits between the stages' model libraries and the device backend (WebGL, or the null backend in
// tests). Each library creates and destroys handles as if it were alone; identical requests get
// the same device handle. Shared objects are immutable: which textures a part is drawn with is
// each stage's own (DrawList::Instance::textures), so one stage's skin is not another's
// (docs/design.md, "Stages").
class SharedRenderBackend : public RenderBackend {
 public:
  explicit SharedRenderBackend(RenderBackend* device) : device_(device) {}
  // A new device after the old one lost its objects (WebGL context loss): everything known is
  // forgotten without being destroyed; the libraries then create it all again.
  void ReplaceDevice(RenderBackend* device);

  MeshHandle CreateMesh(const MeshUpload& upload) override;
  void DestroyMesh(MeshHandle mesh) override;
  TextureHandle CreateTexture(int width, int height, const uint8_t* rgba) override;
  void DestroyTexture(TextureHandle texture) override;
  bool CaptureSkinnedPositions(MeshHandle mesh, const glm::mat4* palette,
                               std::vector<glm::vec3>* positions,
                               std::vector<glm::vec4>* tangents) override {
    return device_->CaptureSkinnedPositions(mesh, palette, positions, tangents);
  }
  size_t shared_bytes() const override { return device_->shared_bytes(); }
  size_t instance_bytes() const override { return device_->instance_bytes(); }

  // Distinct device objects alive, and how many creations were answered by an existing one.
  int mesh_count() const { return static_cast<int>(meshes_.size()); }
  int texture_count() const { return static_cast<int>(textures_.size()); }
  int shared_hits() const { return shared_hits_; }
  // Every handle the libraries hold, device objects counted once per holder.
  int mesh_references() const;
  int texture_references() const;

 private:
  struct SharedMesh {
    MeshHandle handle;
    int users = 0;
    std::shared_ptr<const void> owner;  // keeps the arrays (and so the key) alive
  };
  // Textures are shared when their size and pixels' ContentKey (two independent hashes) agree.
  struct PixelsKey {
    int width = 0, height = 0;
    ContentKey pixels;
    bool operator==(const PixelsKey& other) const {
      return width == other.width && height == other.height && pixels == other.pixels;
    }
  };
  struct PixelsKeyHash {
    size_t operator()(const PixelsKey& key) const {
      return ContentKeyHash()(key.pixels) ^ (static_cast<size_t>(key.width) * 0x9E3779B9u) ^
             static_cast<size_t>(key.height);
    }
  };
  struct SharedTexture {
    TextureHandle handle;
    int users = 0;
    PixelsKey key;
  };
  static PixelsKey TextureKey(int width, int height, const uint8_t* rgba);

  RenderBackend* device_;
  // By the address of the model's vertex array (its owner held) and by device handle id.
  std::unordered_map<const void*, SharedMesh> meshes_;
  std::unordered_map<uint32_t, const void*> mesh_keys_;
  std::unordered_map<PixelsKey, uint32_t, PixelsKeyHash> texture_ids_;  // -> device handle id
  std::unordered_map<uint32_t, SharedTexture> textures_;
  int shared_hits_ = 0;
};

}  // namespace md5stage::viewer
