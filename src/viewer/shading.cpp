#include "viewer/shading.h"

#include <algorithm>
#include <cmath>

namespace md5stage::viewer {
namespace {

constexpr float kRadiansPerDegree = 3.14159265358979f / 180.0f;
// Degrees of light turn per CSS pixel dragged: a drag across a 720-pixel view turns it once.
constexpr float kDegreesPerPixel = 0.5f;

}  // namespace

glm::vec3 ShadingOptions::LightDirection() const {
  const float azimuth = light_azimuth * kRadiansPerDegree;
  const float elevation = light_elevation * kRadiansPerDegree;
  return glm::vec3(std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth),
                   std::sin(elevation));
}

void ShadingOptions::TurnLight(float dx, float dy) {
  light_azimuth -= dx * kDegreesPerPixel;
  light_elevation -= dy * kDegreesPerPixel;
  Normalize();
}

void ShadingOptions::Normalize() {
  if (!std::isfinite(light_azimuth)) light_azimuth = 0.0f;
  if (!std::isfinite(light_elevation)) light_elevation = 0.0f;
  light_azimuth = std::fmod(light_azimuth, 360.0f);
  if (light_azimuth < 0.0f) light_azimuth += 360.0f;
  light_elevation = std::clamp(light_elevation, -kMaxElevation, kMaxElevation);
  contact_shadow = std::isfinite(contact_shadow) ? std::clamp(contact_shadow, 0.0f, 1.0f) : 0.0f;
}

}  // namespace md5stage::viewer
