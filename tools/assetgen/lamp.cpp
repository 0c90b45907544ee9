#include "lamp.h"

#include <cmath>

#include "md5_writer.h"

namespace md5stage::assetgen {
namespace {

constexpr int kHandleJoint = 0;
constexpr int kLanternJoint = 1;
// The bail is a half ellipse over the origin (half width kBailWidth, height kBailHeight above
// its ends), continued kBailOverhang radians past the ends so that they sink into the cap. Its
// height keeps the lantern clear of the fist that grips it.
constexpr double kBailWidth = 2.0;
constexpr double kBailHeight = 3.5;
constexpr double kBailTube = 0.22;
constexpr double kBailOverhang = 0.3;

struct ProfilePoint {
  double radius, z, v;
};

// The lantern's outline from the top knob down to the base; v picks the texture band.
const ProfilePoint kProfile[] = {{0.0, -3.05, 0.02},   {0.3, -3.1, 0.04},   {0.42, -3.3, 0.07},
                                 {0.42, -3.7, 0.10},   {1.1, -4.05, 0.14},  {2.0, -4.7, 0.20},
                                 {2.2, -4.95, 0.23},   {1.7, -5.1, 0.25},   {1.72, -5.25, 0.30},
                                 {2.02, -6.7, 0.42},   {2.02, -8.7, 0.58},  {1.72, -10.2, 0.70},
                                 {1.72, -10.35, 0.74}, {2.25, -10.5, 0.78}, {2.35, -11.05, 0.86},
                                 {2.2, -11.55, 0.94},  {0.0, -11.55, 0.98}};

void AddVertex(SkinMesh& mesh, const Vec3& p, double u, double v, int joint) {
  SkinVertex vertex;
  vertex.position = p;
  vertex.u = u;
  vertex.v = v;
  vertex.weights = {{joint, 1.0}};
  mesh.vertices.push_back(vertex);
}

// A surface of revolution about Z; rings of `segments` + 1 vertices (the seam is duplicated for
// its UVs), single vertices at the poles.
void AddLathe(SkinMesh& mesh, int segments) {
  const int count = sizeof(kProfile) / sizeof(kProfile[0]);
  std::vector<int> ring_start(count);
  for (int i = 0; i < count; ++i) {
    ring_start[i] = static_cast<int>(mesh.vertices.size());
    const ProfilePoint& p = kProfile[i];
    if (p.radius == 0.0) {
      AddVertex(mesh, Vec3(0, 0, p.z), 0.5, p.v, kLanternJoint);
      continue;
    }
    for (int s = 0; s <= segments; ++s) {
      double angle = kTwoPi * s / segments;
      AddVertex(mesh, Vec3(p.radius * std::cos(angle), p.radius * std::sin(angle), p.z),
                double(s) / segments, p.v, kLanternJoint);
    }
  }
  for (int i = 0; i + 1 < count; ++i) {
    bool top_pole = kProfile[i].radius == 0.0;
    bool bottom_pole = kProfile[i + 1].radius == 0.0;
    for (int s = 0; s < segments; ++s) {
      int a = ring_start[i] + (top_pole ? 0 : s);
      int b = ring_start[i] + (top_pole ? 0 : s + 1);
      int c = ring_start[i + 1] + (bottom_pole ? 0 : s);
      int d = ring_start[i + 1] + (bottom_pole ? 0 : s + 1);
      // Going down the profile and counter-clockwise around Z, (c, d, b) faces outward.
      if (!top_pole) mesh.triangles.push_back({a, c, b});
      if (!bottom_pole) mesh.triangles.push_back({b, c, d});
    }
  }
}

// The bail: a tube swept along the arc in the XZ plane, its ends closed with fans.
void AddBail(SkinMesh& mesh, int steps, int sides) {
  const Vec3 centre(0, 0, -kBailHeight);
  auto point = [](double t) {
    return Vec3(kBailWidth * std::cos(t), 0, kBailHeight * std::sin(t));
  };
  int first = static_cast<int>(mesh.vertices.size());
  for (int i = 0; i <= steps; ++i) {
    double t = -kBailOverhang + (kPi + 2 * kBailOverhang) * i / steps;  // +X end, top, -X end
    // The tube's cross-section lies in the plane of the curve's normal and Y.
    Vec3 radial = glm::normalize(Vec3(std::cos(t) / kBailWidth, 0, std::sin(t) / kBailHeight));
    Vec3 along = centre + point(t);
    for (int k = 0; k <= sides; ++k) {
      double a = kTwoPi * k / sides;
      Vec3 offset = (radial * std::cos(a) + Vec3(0, 1, 0) * std::sin(a)) * kBailTube;
      AddVertex(mesh, along + offset, double(k) / sides, 0.06 + 0.08 * i / steps, kHandleJoint);
    }
  }
  int stride = sides + 1;
  for (int i = 0; i < steps; ++i) {
    for (int k = 0; k < sides; ++k) {
      int a = first + i * stride + k, b = a + 1, c = a + stride, d = c + 1;
      mesh.triangles.push_back({a, b, d});
      mesh.triangles.push_back({a, d, c});
    }
  }
  for (int end = 0; end < 2; ++end) {
    int ring = first + (end == 0 ? 0 : steps * stride);
    double t = end == 0 ? -kBailOverhang : kPi + kBailOverhang;
    Vec3 tip = centre + point(t);
    int hub = static_cast<int>(mesh.vertices.size());
    AddVertex(mesh, tip, 0.5, 0.06, kHandleJoint);
    for (int k = 0; k < sides; ++k) {
      if (end == 0)
        mesh.triangles.push_back({hub, ring + k + 1, ring + k});
      else
        mesh.triangles.push_back({hub, ring + k, ring + k + 1});
    }
  }
}

}  // namespace

Skeleton BuildLampSkeleton() {
  Skeleton skeleton;
  skeleton.Add("handle", -1, Vec3(0, 0, 0));
  skeleton.Add("lantern", kHandleJoint, Vec3(0, 0, -kBailHeight));
  return skeleton;
}

SkinMesh BuildLampMesh() {
  SkinMesh mesh;
  mesh.shader = "models/lamp/lamp";
  AddLathe(mesh, 20);
  AddBail(mesh, 16, 8);
  QuantizeWeights(mesh);
  return mesh;
}

}  // namespace md5stage::assetgen
