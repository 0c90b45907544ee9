#include "core/view/cinematic_view.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace md5stage {

float CinematicFovYDegrees(float fov_x_degrees) {
  const float half_x = glm::radians(std::clamp(fov_x_degrees, 1e-3f, 179.0f)) * 0.5f;
  return glm::degrees(2.0f * std::atan(std::tan(half_x) * 0.75f));
}

glm::mat4 CinematicViewMatrix(const glm::vec3& eye, const glm::vec3& forward, const glm::vec3& up) {
  return glm::lookAt(eye, eye + forward, up);
}

glm::mat4 CinematicProjectionMatrix(float fov_x_degrees, float aspect) {
  return glm::perspective(glm::radians(CinematicFovYDegrees(fov_x_degrees)),
                          std::max(aspect, 1e-3f), 1.0f, 100000.0f);
}

}  // namespace md5stage
