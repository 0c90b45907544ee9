// The surface-nets polygoniser and the two-bone IK solver on cases with known answers.
#include <gtest/gtest.h>

#include <cmath>

#include "leg_ik.h"
#include "mesh_checks.h"
#include "sdf_primitives.h"
#include "surface_nets.h"

namespace md5stage::assetgen {
namespace {

using testing::Analyse;
using testing::Topology;

TEST(SurfaceNets, SphereIsClosedOutwardAndOnTheSurface) {
  struct Case {
    double radius, cell;
  };
  for (const Case& c : {Case{5.0, 1.0}, Case{5.0, 0.5}, Case{3.3, 1.2}}) {
    auto sphere = [&](const Vec3& p) { return glm::length(p - Vec3(0.1, -0.2, 0.3)) - c.radius; };
    SurfaceNetsSettings settings;
    settings.min_corner = Vec3(-7.03, -7.01, -6.97);
    settings.max_corner = Vec3(7, 7, 7);
    settings.cell_size = c.cell;
    TriangleMesh mesh = PolygonizeSurfaceNets(sphere, settings);
    Topology t = Analyse(mesh.positions, mesh.triangles);
    EXPECT_EQ(t.edges_not_used_twice, 0) << c.radius << " " << c.cell;
    EXPECT_EQ(t.edges_same_direction_twice, 0);
    EXPECT_EQ(t.euler_characteristic, 2) << "one sphere";
    for (const Vec3& p : mesh.positions) EXPECT_NEAR(sphere(p), 0.0, 1e-6);
    double exact = 4.0 / 3.0 * kPi * c.radius * c.radius * c.radius;
    EXPECT_GT(t.signed_volume, 0.0) << "faces point outward";
    EXPECT_NEAR(t.signed_volume / exact, 1.0, 0.06);
  }
}

TEST(SurfaceNets, GrazingThinSlabStaysManifold) {
  // A flat face lying almost on a grid plane is the case that makes checkerboard faces.
  auto slab = [](const Vec3& p) {
    SdfPrimitive box = RoundBox(0, Vec3(0, 0, 1.0), Vec3(4, 3, 1.0), 0.4, 0.0);
    return box.Distance(p);
  };
  SurfaceNetsSettings settings;
  settings.min_corner = Vec3(-6.01, -5.02, -1.0 - 1e-4);  // z planes 1e-4 below the slab's bottom
  settings.max_corner = Vec3(6, 5, 4);
  settings.cell_size = 1.0;
  TriangleMesh mesh = PolygonizeSurfaceNets(slab, settings);
  Topology t = Analyse(mesh.positions, mesh.triangles);
  EXPECT_EQ(t.edges_not_used_twice, 0);
  EXPECT_EQ(t.edges_same_direction_twice, 0);
  EXPECT_EQ(t.euler_characteristic, 2);
  EXPECT_GT(t.signed_volume, 0.0);
}

TEST(RoundCone, DistanceMatchesBruteForce) {
  SdfPrimitive cone = RoundCone(0, Vec3(1, 2, 3), 2.0, Vec3(4, 2, 9), 0.7, 0.0);
  // The surface is the union of spheres along the axis with linearly varying radius; outside
  // it, the distance is the smallest distance to any of them.
  for (const Vec3& p : {Vec3(6, 2, 3), Vec3(1, 6, 3), Vec3(4, 2, 12), Vec3(-3, -1, 0),
                        Vec3(3, 5, 6), Vec3(8, 8, 8)}) {
    double best = 1e30;
    for (int i = 0; i <= 20000; ++i) {
      double t = i / 20000.0;
      Vec3 centre = Lerp(cone.a, cone.b, t);
      best = std::min(best, glm::length(p - centre) - Lerp(2.0, 0.7, t));
    }
    EXPECT_NEAR(cone.Distance(p), best, 1e-4) << p.x << " " << p.y << " " << p.z;
  }
}

TEST(TwoBoneIk, ReachesTargetsWithFixedBoneLengths) {
  TwoBoneChain leg;
  leg.bind_root = Vec3(0, 4, 37);
  leg.bind_middle = Vec3(0, 4, 20);
  leg.bind_end = Vec3(0, 4, 3);
  struct Case {
    Vec3 root, target, pole;
  };
  const Case cases[] = {
      {{0, 4, 37}, {0, 4, 3.5}, {1, 0, 0}},      // almost straight
      {{0, 4, 37}, {10, 3, 8}, {1, 0, 0}},       // foot forward
      {{0, 4, 35}, {-14, 5, 6}, {1, 0, 0}},      // foot behind
      {{0, 4, 33}, {-8, 4, 20}, {1, 0, 0}},      // deep bend (running swing)
      {{0, 4, 37}, {3, 12, 10}, {0.7, 0.7, 0}},  // sideways, pole turned
  };
  for (const Case& c : cases) {
    TwoBoneSolution s = SolveTwoBone(leg, c.root, c.target, c.pole);
    EXPECT_TRUE(s.reached);
    EXPECT_NEAR(glm::length(s.end - c.target), 0.0, 1e-9);
    EXPECT_NEAR(glm::length(s.middle - c.root), 17.0, 1e-9);
    EXPECT_NEAR(glm::length(s.end - s.middle), 17.0, 1e-9);
    // The rotations move the bind bones onto the solved ones.
    Vec3 knee = c.root + s.upper_rotation * (leg.bind_middle - leg.bind_root);
    Vec3 ankle = knee + s.lower_rotation * (leg.bind_end - leg.bind_middle);
    EXPECT_NEAR(glm::length(knee - s.middle), 0.0, 1e-9);
    EXPECT_NEAR(glm::length(ankle - c.target), 0.0, 1e-9);
    // The knee bends toward the pole, and both bones keep the same side axis (a hinge).
    Vec3 axis = glm::normalize(c.target - c.root);
    Vec3 off_axis = s.middle - c.root - axis * glm::dot(s.middle - c.root, axis);
    EXPECT_GT(glm::dot(off_axis, c.pole), 0.0);
    Vec3 bind_side(0, -1, 0);
    EXPECT_NEAR(glm::length(s.upper_rotation * bind_side - s.lower_rotation * bind_side), 0.0,
                1e-9);
  }
}

TEST(TwoBoneIk, OutOfReachPointsAtTheTargetAndSaysSo) {
  TwoBoneChain arm;
  arm.bind_root = Vec3(0, 0, 0);
  arm.bind_middle = Vec3(0, 0, -10);
  arm.bind_end = Vec3(0, 0, -18);
  TwoBoneSolution s = SolveTwoBone(arm, Vec3(0), Vec3(30, 0, 0), Vec3(0, 0, 1), 0.99);
  EXPECT_FALSE(s.reached);
  EXPECT_NEAR(s.end.x, 18.0 * 0.99, 1e-9);
  EXPECT_NEAR(s.end.y, 0.0, 1e-9);
  EXPECT_NEAR(s.end.z, 0.0, 1e-9);
  // Closer than |upper - lower| is out of reach too.
  EXPECT_FALSE(SolveTwoBone(arm, Vec3(0), Vec3(0.5, 0, 0), Vec3(0, 0, 1)).reached);
}

}  // namespace
}  // namespace md5stage::assetgen
