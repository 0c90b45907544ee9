// View and projection matrices of a cinematic camera given as Doom 3 gives it: an eye, the view's
// forward and up axes, and a horizontal field of view meant for a 4:3 screen.
#pragma once

#include <glm/glm.hpp>

namespace md5stage {

// The vertical field of view Doom 3 derives from fov_x (idGameLocal::CalcFov: fov_x is for a
// 640x480 screen; wider screens keep that fov_y and see more at the sides).
float CinematicFovYDegrees(float fov_x_degrees);

// Right-handed view matrix (OpenGL clip conventions, as OrbitCamera's) looking down `forward`.
glm::mat4 CinematicViewMatrix(const glm::vec3& eye, const glm::vec3& forward, const glm::vec3& up);

// Perspective at CinematicFovYDegrees for this aspect (width / height); Doom 3 units (an inch)
// from a near plane of 1 to a far plane of 100,000.
glm::mat4 CinematicProjectionMatrix(float fov_x_degrees, float aspect);

}  // namespace md5stage
