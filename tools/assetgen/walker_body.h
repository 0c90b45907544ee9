// The walker's skin: a smooth union of capsules, ellipsoids and rounded boxes around the bind-pose
// bones, polygonised into one closed surface, weighted to the joints whose parts it lies on, and
// mapped to a front/back projection texture.
#pragma once

#include <vector>

#include "model.h"
#include "sdf_primitives.h"

namespace md5stage::assetgen {

// The texture layout. The body is the bind pose seen from the front (left half of the image, the
// walker's left on the right) and from behind (right half); the head, which needs more texels,
// gets the same two views enlarged in the empty corners beside the legs. v = 0 is the top row.
struct WalkerUvLayout {
  // Body views.
  static constexpr double kYMin = -30.0, kYMax = 30.0;
  static constexpr double kZMin = -0.5, kZMax = 70.5;
  // Head views: triangles entirely above kHeadFrom.
  static constexpr double kHeadFrom = 60.0;
  static constexpr double kHeadYMin = -4.8, kHeadYMax = 4.8;
  static constexpr double kHeadZMin = 59.6, kHeadZMax = 70.6;
  static constexpr double kHeadU0 = 0.008, kHeadWidth = 0.16;  // front; back is +0.5
  static constexpr double kHeadV0 = 0.56, kHeadHeight = 0.24;

  static double BodyU(bool front, double y) {
    double s = (y - kYMin) / (kYMax - kYMin);
    return front ? 0.5 * s : 1.0 - 0.5 * s;
  }
  static double BodyV(double z) { return (kZMax - z) / (kZMax - kZMin); }
  static double HeadU(bool front, double y) {
    double s = (y - kHeadYMin) / (kHeadYMax - kHeadYMin);
    return front ? kHeadU0 + s * kHeadWidth : 0.5 + kHeadU0 + (1.0 - s) * kHeadWidth;
  }
  static double HeadV(double z) {
    return kHeadV0 + (kHeadZMax - z) / (kHeadZMax - kHeadZMin) * kHeadHeight;
  }
};

std::vector<SdfPrimitive> WalkerPrimitives();

// Smooth union of `primitives`, in order.
double UnionDistance(const std::vector<SdfPrimitive>& primitives, const Vec3& p);

// The walker's skin mesh (shader "models/walker/walker"), weighted to BuildWalkerSkeleton's joints.
SkinMesh BuildWalkerMesh();

}  // namespace md5stage::assetgen
