// GPU skinning for MD5 models in WebGL2: each model's vertex data is uploaded once and shared by
// all of its instances; per frame, every instance's joint palette goes into one float texture and
// each model part is drawn for all its instances, in every view of the frame, in one call.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "render/view_block.h"
#include "viewer/render_interface.h"
#include "viewer/view_placement.h"

namespace md5stage::render {

using viewer::MeshHandle;
using viewer::TextureHandle;

struct SkinnedDrawOptions {
  bool wireframe = false;                        // the triangles' edges drawn over them
  glm::vec3 light_direction{0.4f, 0.3f, 0.85f};  // towards the light, world space
  bool normal_maps = true;                       // parts with a normal map use it
  bool specular = true;                          // parts with a specular map get highlights
  int channel = 0;  // viewer::ShadingChannel: lit, diffuse, normals, specular
};

class SkinnedMeshRenderer : public viewer::RenderBackend {
 public:
  SkinnedMeshRenderer();
  ~SkinnedMeshRenderer() override;
  bool Init(std::string* error);

  MeshHandle CreateMesh(const viewer::MeshUpload& upload) override;
  void DestroyMesh(MeshHandle mesh) override;
  TextureHandle CreateTexture(int width, int height, const uint8_t* rgba) override;
  void DestroyTexture(TextureHandle texture) override;

  // Per frame: BeginFrame(), then per view (at most kMaxViewsPerDraw) AddView() and Submit()
  // once per visible instance with joint_count matrices (world x inverse bind, the instance's
  // root placement included; read, not copied, until Upload()); then Upload() (every view's
  // palettes, instances and the views' block, which LineRenderer reads too) and DrawViews(): one
  // draw per model part for all views. The framebuffer's viewport stays as the caller set it; each
  // view lands in its placement.
  void BeginFrame();
  int AddView(const glm::mat4& view_projection, const viewer::ViewPlacement& placement,
              const SkinnedDrawOptions& options);  // the index of the view now open
  // `textures`: one per mesh part (null: none), read until Upload() as the palette is.
  void Submit(MeshHandle mesh, const glm::mat4* palette, const viewer::PartTextures* textures,
              const glm::vec4& tint = glm::vec4(1.0f));
  void Upload();
  void DrawViews();

  // Runs the same skinning shader for one instance with transform feedback and reads back the
  // skinned positions and tangents (one per vertex, upload order): how tests compare the GPU
  // with the CPU.
  bool CaptureSkinnedPositions(MeshHandle mesh, const glm::mat4* palette,
                               std::vector<glm::vec3>* positions,
                               std::vector<glm::vec4>* tangents) override;

  int draw_calls() const { return draw_calls_; }
  int instances_drawn() const { return instances_drawn_; }
  // GPU bytes of shared (per-model) data and of per-instance data in the last frame.
  size_t shared_bytes() const override;
  size_t instance_bytes() const override { return instance_bytes_; }

 private:
  // The GL name of a live texture, 0 for none or a destroyed one.
  unsigned LiveTexture(TextureHandle texture) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int draw_calls_ = 0;
  int instances_drawn_ = 0;
  size_t instance_bytes_ = 0;
};

}  // namespace md5stage::render
