// Bind-pose tangent frames for tangent-space normal mapping, derived from positions and UVs the
// way Doom 3 does (R_DeriveTangents): what a normal map authored for id Tech 4 expects.
#pragma once

#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/anim/span.h"
#include "core/md5/md5_types.h"

namespace md5stage::anim {

// Per vertex and texture polarity (0 positive, 1 negative): the summed S and T directions and
// the summed UV area of its triangles.
struct TangentSums {
  glm::vec3 s[2];
  glm::vec3 t[2];
  float area[2];
};

// Per triangle, the directions of increasing u (S) and v (T) on the surface, normalized so every
// triangle counts once; summed per vertex over the triangles of the vertex's texture polarity
// (the sign of the triangle's UV area), projected off the normal (Gram-Schmidt) and normalized.
// tangent.xyz = S, tangent.w = +1 or -1 with T ~ w * cross(normal, S): the bitangent sign.
//
// Doom 3 splits vertices shared by triangles of both polarities (UV mirror seams) in two; the
// viewer keeps the file's vertices (skins, picking and the transform-feedback checks index them),
// so such a vertex keeps the polarity with the larger summed UV area and only sums its triangles.
// Triangles with no UV area contribute nothing; a vertex left with no direction gets any unit
// vector orthogonal to its normal (sign +1), never NaN.
struct TangentJob {
  Span<const glm::vec3> positions;
  Span<const glm::vec3> normals;  // unit length (or zero), as positions
  Span<const glm::vec2> uvs;      // as positions
  Span<const md5::MeshTriangle> triangles;
  Span<glm::vec4> tangents;   // output, as positions
  Span<TangentSums> scratch;  // caller-owned, as positions (Run() allocates nothing)

  bool Validate() const;
  bool Run() const;
};

// A unit vector orthogonal to `normal` (or +X when the normal is zero): the fallback tangent.
glm::vec3 AnyOrthogonal(const glm::vec3& normal);

}  // namespace md5stage::anim
