#include "walker_body.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "md5_writer.h"
#include "surface_nets.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

// Skin weights fall off with how much farther a point is from a joint's parts than from the
// nearest part: exp(-extra / kWeightFalloff).
constexpr double kWeightFalloff = 0.55;
constexpr double kMinBias = 0.03;
constexpr int kMaxInfluences = 4;

bool IsLegJoint(int joint, Side side) {
  LimbJoints limb = WalkerLimb(side);
  return joint == limb.thigh || joint == limb.shin || joint == limb.foot || joint == limb.toe;
}

}  // namespace

std::vector<SdfPrimitive> WalkerPrimitives() {
  const WalkerDimensions& d = Walker();
  std::vector<SdfPrimitive> parts;
  // Torso, from the hips up.
  parts.push_back(Ellipsoid(kPelvis, Vec3(-0.4, 0, 38.2), Vec3(4.5, 6.3, 5.2), 0));
  parts.push_back(Ellipsoid(kPelvis, Vec3(-1.9, 2.6, 35.9), Vec3(2.9, 3.0, 3.6), 1.5));
  parts.push_back(Ellipsoid(kPelvis, Vec3(-1.9, -2.6, 35.9), Vec3(2.9, 3.0, 3.6), 1.5));
  // The crotch belongs to the pelvis, so the skin between the thighs follows neither leg alone.
  parts.push_back(Ellipsoid(kPelvis, Vec3(-0.5, 0, 34.0), Vec3(3.0, 2.6, 2.6), 1.0));
  parts.push_back(Ellipsoid(kSpine, Vec3(0.1, 0, 44.2), Vec3(4.0, 5.8, 5.6), 3.0));
  parts.push_back(Ellipsoid(kChest, Vec3(0.0, 0, 51.6), Vec3(4.5, 6.8, 6.6), 3.0));
  for (Side side : {kLeft, kRight}) {
    double y = side == kLeft ? 1.0 : -1.0;
    LimbJoints limb = WalkerLimb(side);
    parts.push_back(RoundCone(limb.shoulder, Vec3(-0.6, y * 1.0, 56.6), 2.4,
                              Vec3(-0.3, y * 6.8, 56.5), 2.5, 2.0));
  }
  parts.push_back(RoundCone(kNeck, Vec3(-0.9, 0, 57.2), 2.2, Vec3(-0.5, 0, 63.2), 1.9, 1.5));
  parts.push_back(Ellipsoid(kHead, Vec3(0.2, 0, 65.7), Vec3(3.9, 3.3, 4.3), 1.0));
  parts.push_back(Ellipsoid(kHead, Vec3(1.7, 0, 66.9), Vec3(2.5, 2.9, 2.6), 1.0));     // forehead
  parts.push_back(Ellipsoid(kHead, Vec3(1.7, 0, 62.9), Vec3(2.45, 2.3, 1.7), 0.8));    // jaw
  parts.push_back(Ellipsoid(kHead, Vec3(4.2, 0, 65.1), Vec3(1.05, 0.75, 1.25), 0.8));  // nose
  // Arms.
  for (Side side : {kLeft, kRight}) {
    LimbJoints limb = WalkerLimb(side);
    Vec3 dir = BindArmDirection(side);
    Vec3 shoulder(-0.3, (side == kLeft ? 1.0 : -1.0) * d.shoulder_half_width, d.shoulder_height);
    Vec3 elbow = shoulder + dir * d.upper_arm_length;
    Vec3 wrist = elbow + dir * d.forearm_length;
    parts.push_back(RoundCone(limb.arm, shoulder - dir * 0.3, 2.45, elbow, 1.6, 1.2));
    parts.push_back(RoundCone(limb.forearm, elbow, 1.55, elbow + dir * 3.0, 1.7, 0.8));
    parts.push_back(RoundCone(limb.forearm, elbow + dir * 3.0, 1.7, wrist, 1.1, 0.8));
    // A mitten: long axis along the arm, width along X (palms face the thighs when hanging).
    Quat hand_frame = FrameRotation(Vec3(1, 0, 0), Vec3(0, 1, 0), dir, Vec3(1, 0, 0));
    parts.push_back(
        RoundBox(limb.hand, wrist + dir * 3.0, Vec3(3.0, 1.55, 1.0), 0.95, 0.8, hand_frame));
  }
  // Legs.
  for (Side side : {kLeft, kRight}) {
    LimbJoints limb = WalkerLimb(side);
    double y = (side == kLeft ? 1.0 : -1.0) * d.hip_half_width;
    double knee = (d.hip_height + d.ankle_height) * 0.5;
    parts.push_back(
        RoundCone(limb.thigh, Vec3(0, y, d.hip_height + 1.0), 3.55, Vec3(0.15, y, knee), 2.3, 2.0));
    parts.push_back(
        RoundCone(limb.shin, Vec3(0.15, y, knee), 2.25, Vec3(0, y, d.ankle_height), 1.35, 1.0));
    parts.push_back(Ellipsoid(limb.shin, Vec3(-0.75, y, 15.2), Vec3(1.9, 1.9, 4.6), 1.5));
    // The shoe: from the heel (whose rounded edge the gait rolls on) to past the ball.
    const double shoe_front = 6.05;
    parts.push_back(RoundBox(limb.foot, Vec3((shoe_front - d.heel_back) * 0.5, y, 1.4),
                             Vec3((shoe_front + d.heel_back) * 0.5, d.foot_half_width, 1.4),
                             d.heel_radius, 1.0));
    parts.push_back(
        RoundCone(limb.foot, Vec3(0, y, d.ankle_height), 1.4, Vec3(1.6, y, 2.0), 1.45, 1.0));
    parts.push_back(RoundBox(limb.toe, Vec3(6.9, y, 0.95),
                             Vec3(1.7, d.foot_half_width - 0.05, 0.95), 0.9, 1.5));
  }
  return parts;
}

double UnionDistance(const std::vector<SdfPrimitive>& primitives, const Vec3& p) {
  double distance = primitives.front().Distance(p);
  for (size_t i = 1; i < primitives.size(); ++i) {
    distance = SmoothMin(distance, primitives[i].Distance(p), primitives[i].blend);
  }
  return distance;
}

SkinMesh BuildWalkerMesh() {
  const std::vector<SdfPrimitive> parts = WalkerPrimitives();
  // Flat soles: nothing below the ground, where smooth blends would otherwise bulge.
  DistanceFunction distance = [&parts](const Vec3& p) {
    return std::max(UnionDistance(parts, p), -p.z);
  };
  SurfaceNetsSettings settings;
  // Offsets keep grid points off the primitives' symmetry planes.
  settings.min_corner = Vec3(-8.53, -30.6, -1.8);
  settings.max_corner = Vec3(13.0, 31.0, 71.6);
  settings.cell_size = 1.2;
  settings.relax_iterations = 3;
  TriangleMesh surface = PolygonizeSurfaceNets(distance, settings);

  // Weights from the parts each surface point lies on.
  std::vector<std::vector<SkinWeight>> weights(surface.positions.size());
  for (size_t v = 0; v < surface.positions.size(); ++v) {
    const Vec3& p = surface.positions[v];
    std::map<int, double> nearest;  // joint -> distance to its nearest part
    for (const SdfPrimitive& part : parts) {
      double dist = part.Distance(p);
      auto it = nearest.find(part.joint);
      if (it == nearest.end() || dist < it->second) nearest[part.joint] = dist;
    }
    int best_joint = -1;
    double best = 1e30;
    for (const auto& [joint, dist] : nearest) {
      if (dist < best) {
        best = dist;
        best_joint = joint;
      }
    }
    std::vector<SkinWeight> list;
    for (const auto& [joint, dist] : nearest) {
      // A leg never pulls on the other leg's skin; the pelvis joins them.
      if ((IsLegJoint(best_joint, kLeft) && IsLegJoint(joint, kRight)) ||
          (IsLegJoint(best_joint, kRight) && IsLegJoint(joint, kLeft))) {
        continue;
      }
      list.push_back({joint, std::exp(-(dist - best) / kWeightFalloff)});
    }
    std::sort(list.begin(), list.end(), [](const SkinWeight& a, const SkinWeight& b) {
      return a.bias != b.bias ? a.bias > b.bias : a.joint < b.joint;
    });
    if (list.size() > kMaxInfluences) list.resize(kMaxInfluences);
    double total = 0.0;
    for (const SkinWeight& w : list) total += w.bias;
    std::vector<SkinWeight> kept;
    for (const SkinWeight& w : list) {
      if (w.bias / total >= kMinBias) kept.push_back(w);
    }
    weights[v] = kept;
  }

  // UVs: each triangle takes the front or the back view by its bind-pose normal, and the head or
  // the body views by its height, so a surface vertex has a copy per view its triangles use.
  SkinMesh mesh;
  mesh.shader = "models/walker/walker";
  std::map<std::pair<int, int>, int> copies;
  auto vertex_for = [&](int v, bool front, bool head) {
    auto key = std::make_pair(v, int(front) + 2 * int(head));
    auto it = copies.find(key);
    if (it != copies.end()) return it->second;
    SkinVertex vertex;
    vertex.position = surface.positions[v];
    const Vec3& p = vertex.position;
    vertex.u = head ? WalkerUvLayout::HeadU(front, p.y) : WalkerUvLayout::BodyU(front, p.y);
    vertex.v = head ? WalkerUvLayout::HeadV(p.z) : WalkerUvLayout::BodyV(p.z);
    vertex.weights = weights[v];
    int index = static_cast<int>(mesh.vertices.size());
    mesh.vertices.push_back(vertex);
    copies[key] = index;
    return index;
  };
  for (const auto& t : surface.triangles) {
    const Vec3& a = surface.positions[t[0]];
    const Vec3& b = surface.positions[t[1]];
    const Vec3& c = surface.positions[t[2]];
    bool front = glm::cross(b - a, c - a).x >= 0.0;
    bool head = std::min({a.z, b.z, c.z}) > WalkerUvLayout::kHeadFrom;
    mesh.triangles.push_back({vertex_for(t[0], front, head), vertex_for(t[1], front, head),
                              vertex_for(t[2], front, head)});
  }
  QuantizeWeights(mesh);
  return mesh;
}

}  // namespace md5stage::assetgen
