// How characters are lit and shaded: the one directional key light (azimuth and elevation the
// user turns), the normal-map and specular switches and the channel view for checking a material.
#pragma once

#include <glm/vec3.hpp>

namespace md5stage::viewer {

// What the model shader outputs: the lit result, or one input of it.
enum class ShadingChannel { kLit = 0, kDiffuse = 1, kNormals = 2, kSpecular = 3 };
inline constexpr const char* kShadingChannelNames[] = {"lit", "diffuse", "normals", "specular"};

struct ShadingOptions {
  // Degrees. Azimuth: around +Z (up) from +X, counter-clockwise seen from above; elevation: above
  // the ground plane. The defaults are the fixed light the viewer had before it could turn.
  float light_azimuth = 37.0f;
  float light_elevation = 60.0f;
  bool normal_maps = true;
  bool specular = true;
  ShadingChannel channel = ShadingChannel::kLit;
  // model-viewer's shadow-intensity: how dark the soft contact shadow under each character is,
  // 0 (none, the default) to 1.
  float contact_shadow = 0.0f;

  static constexpr float kMaxElevation = 90.0f;  // straight down; -90 lights from below

  // Unit vector towards the light, world space (Z up).
  glm::vec3 LightDirection() const;
  // Turns the light by a drag of (dx, dy) CSS pixels: right turns it with the view, up raises it.
  void TurnLight(float dx, float dy);
  // Azimuth into [0, 360), elevation clamped to [-90, 90].
  void Normalize();
};

}  // namespace md5stage::viewer
