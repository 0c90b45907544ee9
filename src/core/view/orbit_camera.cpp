#include "core/view/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace md5stage {

namespace {
constexpr float kOrbitDegreesPerPixel = 0.3f;
constexpr float kZoomFactorPerStep = 0.9f;
const glm::vec3 kUp{0.0f, 0.0f, 1.0f};
}  // namespace

std::optional<glm::vec3> IntersectGround(const Ray& ray, float height) {
  if (std::abs(ray.direction.z) < 1e-8f) return std::nullopt;
  const float t = (height - ray.origin.z) / ray.direction.z;
  if (!(t >= 0.0f) || !std::isfinite(t)) return std::nullopt;
  return ray.origin + t * ray.direction;
}

glm::vec3 OrbitCamera::EyePosition() const {
  const float yaw = glm::radians(yaw_degrees);
  const float pitch = glm::radians(pitch_degrees);
  const glm::vec3 offset{std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                         std::sin(pitch)};
  return target + distance * offset;
}

glm::mat4 OrbitCamera::ViewMatrix() const { return glm::lookAt(EyePosition(), target, kUp); }

glm::mat4 OrbitCamera::ProjectionMatrix(float aspect) const {
  const float near_plane = std::max(0.05f, distance * 0.01f);
  const float far_plane = std::max(distance * 50.0f, 5000.0f);
  return glm::perspective(glm::radians(fov_y_degrees), std::max(aspect, 1e-3f), near_plane,
                          far_plane);
}

void OrbitCamera::Orbit(float dx_pixels, float dy_pixels) {
  yaw_degrees = std::fmod(yaw_degrees - dx_pixels * kOrbitDegreesPerPixel, 360.0f);
  pitch_degrees =
      std::clamp(pitch_degrees + dy_pixels * kOrbitDegreesPerPixel, kMinPitch, kMaxPitch);
}

void OrbitCamera::Zoom(float wheel_steps) {
  distance =
      std::clamp(distance * std::pow(kZoomFactorPerStep, wheel_steps), kMinDistance, kMaxDistance);
}

void OrbitCamera::Pan(float dx_pixels, float dy_pixels, float viewport_height) {
  // One pixel moves the target by the size of a pixel at the target's depth, so the point under
  // the cursor stays under it.
  const float world_per_pixel = 2.0f * distance * std::tan(glm::radians(fov_y_degrees) * 0.5f) /
                                std::max(viewport_height, 1.0f);
  const glm::vec3 forward = glm::normalize(target - EyePosition());
  const glm::vec3 right = glm::normalize(glm::cross(forward, kUp));
  const glm::vec3 up = glm::cross(right, forward);
  target += (-dx_pixels * right + dy_pixels * up) * world_per_pixel;
}

void OrbitCamera::Frame(const glm::vec3& box_min, const glm::vec3& box_max, float aspect) {
  target = 0.5f * (box_min + box_max);
  const float radius = std::max(0.5f * glm::length(box_max - box_min), 1.0f);
  // The box's bounding sphere inside the narrower of the two fields of view, 10% to spare.
  const float half_y = glm::radians(fov_y_degrees) * 0.5f;
  const float half_x = std::atan(std::tan(half_y) * std::max(aspect, 1e-3f));
  const float half = std::min(half_x, half_y);
  distance = std::clamp(1.1f * radius / std::sin(half), kMinDistance, kMaxDistance);
}

Ray OrbitCamera::ScreenRay(float px, float py, float viewport_width, float viewport_height) const {
  const float aspect = viewport_width / std::max(viewport_height, 1.0f);
  const glm::mat4 inverse = glm::inverse(ProjectionMatrix(aspect) * ViewMatrix());
  const float ndc_x = 2.0f * px / std::max(viewport_width, 1.0f) - 1.0f;
  const float ndc_y = 1.0f - 2.0f * py / std::max(viewport_height, 1.0f);
  glm::vec4 near_point = inverse * glm::vec4(ndc_x, ndc_y, -1.0f, 1.0f);
  glm::vec4 far_point = inverse * glm::vec4(ndc_x, ndc_y, 1.0f, 1.0f);
  near_point /= near_point.w;
  far_point /= far_point.w;
  Ray ray;
  ray.origin = glm::vec3(near_point);
  ray.direction = glm::normalize(glm::vec3(far_point - near_point));
  return ray;
}

}  // namespace md5stage
