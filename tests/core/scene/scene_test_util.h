// Test helpers for scenes: a scene with every field away from its default, and a comparison
// that allows a tolerance on numbers (share links round them).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/scene/scene.h"

namespace md5stage {
namespace testing_util {

inline ::testing::AssertionResult Near(const char* what, double a, double b, double tolerance) {
  if (std::abs(a - b) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": " << a << " vs " << b;
}

// Every field of `a` and `b` equal, numbers within `tolerance`.
inline void ExpectScenesNear(const Scene& a, const Scene& b, double tolerance) {
  ASSERT_EQ(a.models.size(), b.models.size());
  for (std::size_t i = 0; i < a.models.size(); ++i) {
    EXPECT_EQ(a.models[i].name, b.models[i].name);
    EXPECT_EQ(a.models[i].mesh, b.models[i].mesh);
    EXPECT_EQ(a.models[i].anims, b.models[i].anims);
    EXPECT_EQ(a.models[i].local, b.models[i].local);
  }
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) {
    SCOPED_TRACE("routes[" + std::to_string(r) + "]");
    EXPECT_EQ(a.routes[r].name, b.routes[r].name);
    EXPECT_EQ(a.routes[r].closed, b.routes[r].closed);
    ASSERT_EQ(a.routes[r].segments.size(), b.routes[r].segments.size());
    for (std::size_t s = 0; s < a.routes[r].segments.size(); ++s) {
      const RouteSegment& sa = a.routes[r].segments[s];
      const RouteSegment& sb = b.routes[r].segments[s];
      EXPECT_EQ(sa.kind, sb.kind);
      for (int p = 0; p < 4; ++p) {
        EXPECT_TRUE(Near("x", sa.points[p].x, sb.points[p].x, tolerance));
        EXPECT_TRUE(Near("y", sa.points[p].y, sb.points[p].y, tolerance));
      }
    }
  }
  ASSERT_EQ(a.instances.size(), b.instances.size());
  for (std::size_t i = 0; i < a.instances.size(); ++i) {
    SCOPED_TRACE("instances[" + std::to_string(i) + "]");
    const SceneInstance& ia = a.instances[i];
    const SceneInstance& ib = b.instances[i];
    EXPECT_EQ(ia.model, ib.model);
    EXPECT_TRUE(Near("position.x", ia.position.x, ib.position.x, tolerance));
    EXPECT_TRUE(Near("position.y", ia.position.y, ib.position.y, tolerance));
    EXPECT_TRUE(Near("heading", ia.heading_degrees, ib.heading_degrees, tolerance));
    EXPECT_EQ(ia.animation, ib.animation);
    EXPECT_TRUE(Near("time", ia.time, ib.time, tolerance));
    EXPECT_TRUE(Near("rate", ia.rate, ib.rate, tolerance));
    EXPECT_EQ(ia.mode, ib.mode);
    EXPECT_EQ(ia.locomotion, ib.locomotion);
    EXPECT_EQ(ia.idle, ib.idle);
    EXPECT_TRUE(Near("speed", ia.speed, ib.speed, tolerance));
    EXPECT_TRUE(Near("turn_radius", ia.turn_radius, ib.turn_radius, tolerance));
    EXPECT_EQ(ia.route, ib.route);
    EXPECT_EQ(ia.route_mode, ib.route_mode);
    EXPECT_TRUE(Near("start_delay", ia.start_delay, ib.start_delay, tolerance));
    ASSERT_EQ(ia.target.has_value(), ib.target.has_value());
    if (ia.target.has_value()) {
      EXPECT_TRUE(Near("target.x", ia.target->position.x, ib.target->position.x, tolerance));
      EXPECT_TRUE(Near("target.y", ia.target->position.y, ib.target->position.y, tolerance));
      ASSERT_EQ(ia.target->heading_degrees.has_value(), ib.target->heading_degrees.has_value());
      if (ia.target->heading_degrees.has_value()) {
        EXPECT_TRUE(Near("target.heading", *ia.target->heading_degrees, *ib.target->heading_degrees,
                         tolerance));
      }
    }
    ASSERT_EQ(ia.attachments.size(), ib.attachments.size());
    for (std::size_t k = 0; k < ia.attachments.size(); ++k) {
      const SceneAttachment& aa = ia.attachments[k];
      const SceneAttachment& ab = ib.attachments[k];
      EXPECT_EQ(aa.model, ab.model);
      EXPECT_EQ(aa.joint, ab.joint);
      for (int c = 0; c < 3; ++c) {
        EXPECT_TRUE(Near("offset", aa.offset[c], ab.offset[c], tolerance));
        EXPECT_TRUE(Near("rotation", aa.rotation_degrees[c], ab.rotation_degrees[c], tolerance));
      }
    }
  }
  ASSERT_EQ(a.obstacles.size(), b.obstacles.size());
  for (std::size_t i = 0; i < a.obstacles.size(); ++i) {
    SCOPED_TRACE("obstacles[" + std::to_string(i) + "]");
    const Obstacle& oa = a.obstacles.obstacles()[i];
    const Obstacle& ob = b.obstacles.obstacles()[i];
    EXPECT_EQ(oa.kind, ob.kind);
    EXPECT_TRUE(Near("centre.x", oa.centre.x, ob.centre.x, tolerance));
    EXPECT_TRUE(Near("centre.y", oa.centre.y, ob.centre.y, tolerance));
    EXPECT_TRUE(Near("radius", oa.radius, ob.radius, tolerance));
    ASSERT_EQ(oa.vertices.size(), ob.vertices.size());
    for (std::size_t k = 0; k < oa.vertices.size(); ++k) {
      EXPECT_TRUE(Near("vertex.x", oa.vertices[k].x, ob.vertices[k].x, tolerance));
      EXPECT_TRUE(Near("vertex.y", oa.vertices[k].y, ob.vertices[k].y, tolerance));
    }
  }
  for (int c = 0; c < 3; ++c) {
    EXPECT_TRUE(Near("camera.target", a.camera.target[c], b.camera.target[c], tolerance));
  }
  EXPECT_TRUE(Near("camera.yaw", a.camera.yaw_degrees, b.camera.yaw_degrees, tolerance));
  EXPECT_TRUE(Near("camera.pitch", a.camera.pitch_degrees, b.camera.pitch_degrees, tolerance));
  EXPECT_TRUE(Near("camera.distance", a.camera.distance, b.camera.distance, tolerance));
  EXPECT_EQ(a.display.grid, b.display.grid);
  EXPECT_EQ(a.display.skeleton, b.display.skeleton);
  EXPECT_EQ(a.display.joint_names, b.display.joint_names);
  EXPECT_EQ(a.display.bounds, b.display.bounds);
  EXPECT_EQ(a.display.wireframe, b.display.wireframe);
  EXPECT_EQ(a.display.normals, b.display.normals);
  EXPECT_EQ(a.display.routes, b.display.routes);
  EXPECT_EQ(a.display.turn_circles, b.display.turn_circles);
  EXPECT_EQ(a.display.construction, b.display.construction);
  EXPECT_EQ(a.display.clearance, b.display.clearance);
  EXPECT_TRUE(Near("time", a.time, b.time, tolerance));
  EXPECT_EQ(a.playing, b.playing);
  EXPECT_EQ(a.avoidance, b.avoidance);
}

// A route of `count` joined cubic Beziers winding around (cx, cy), with unrounded coordinates
// as a user dragging points makes them.
inline SceneRoute WindingRoute(const std::string& name, double cx, double cy, int count,
                               double seed) {
  SceneRoute route;
  route.name = name;
  glm::dvec2 start(cx + 300.0 + seed, cy + 0.1 * seed);
  for (int i = 0; i < count; ++i) {
    const double a1 = (i + 1) * 2.0 * 3.141592653589793 / count;
    const double r = 300.0 + 80.0 * std::sin(3.0 * a1 + seed) + seed;
    const glm::dvec2 end(cx + r * std::cos(a1), cy + r * std::sin(a1));
    const glm::dvec2 c1 = start + glm::dvec2(-std::sin(a1 - 0.3), std::cos(a1 - 0.3)) * 61.37;
    const glm::dvec2 c2 = end - glm::dvec2(-std::sin(a1), std::cos(a1)) * 58.91;
    route.segments.push_back(RouteSegment::Bezier(start, c1, c2, end));
    start = end;
  }
  return route;
}

// A scene with every kind of field set away from its default.
inline Scene FullScene() {
  Scene scene;
  scene.models.push_back({"walker",
                          "models/walker/walker.md5mesh",
                          {"models/walker/idle.md5anim", "models/walker/walk.md5anim",
                           "https://example.org/anims/run.md5anim"},
                          false,
                          {},
                          ""});
  scene.models.push_back({"lamp", "https://example.org/lamp.md5mesh", {}, false, {}, ""});
  for (int r = 0; r < 4; ++r) {
    scene.routes.push_back(WindingRoute("route" + std::to_string(r), 150.0 * r, -40.0 * r, 10,
                                        0.731 * r + 0.123456789));
  }
  scene.routes[1].segments.push_back(
      RouteSegment::Line(scene.routes[1].segments.back().end(), glm::dvec2(-12.5, 7.25)));
  SceneRoute closed;
  closed.closed = true;
  closed.segments.push_back(RouteSegment::Line({0, 0}, {100, 0}));
  closed.segments.push_back(RouteSegment::Bezier({100, 0}, {150, 50}, {50, 100}, {0, 0}));
  scene.routes.push_back(closed);
  for (int i = 0; i < 5; ++i) {
    SceneInstance instance;
    instance.model = "walker";
    instance.position = glm::dvec2(10.0 * i + 0.3333333333, -7.0 * i);
    instance.heading_degrees = 45.0 * i - 90.0;
    instance.animation = i % 2 == 0 ? "walk" : "idle";
    instance.time = 0.25 * i;
    instance.rate = i == 3 ? -0.5 : 1.0 + 0.1 * i;
    instance.mode = i == 1 ? PlayMode::kPingPong : i == 2 ? PlayMode::kOnce : PlayMode::kLoop;
    instance.locomotion = i == 4 ? "run" : "walk";
    instance.idle = "idle";
    instance.speed = 55.0 + 10.0 * i;
    instance.turn_radius = 40.0 + i;
    if (i < 4) {
      instance.route = i;
      instance.route_mode = i == 2 ? PlayMode::kPingPong : PlayMode::kOnce;
      instance.start_delay = 0.5 * i;
    } else {
      instance.target = SceneTarget{{200.0, 100.0}, 90.0};
    }
    if (i == 0) {
      instance.attachments.push_back({"lamp", "tag_hand_r", {1.5, -2.0, 3.25}, {0.0, 90.0, 12.5}});
    }
    scene.instances.push_back(instance);
  }
  SceneInstance standing;
  standing.model = "lamp";
  standing.target = SceneTarget{{-3.0, 4.0}, std::nullopt};
  scene.instances.push_back(standing);
  // A circle and a concave polygon (an L), with unrounded coordinates.
  Result<ObstacleSet> obstacles = ObstacleSet::Build(
      {Obstacle::Circle({310.123456789, -45.5}, 37.25), Obstacle::Polygon({{-200.0, 50.0},
                                                                           {-120.3333333333, 50.0},
                                                                           {-120.3333333333, 80.0},
                                                                           {-170.0, 80.0},
                                                                           {-170.0, 160.0},
                                                                           {-200.0, 160.0}})});
  EXPECT_TRUE(obstacles.ok());
  if (obstacles.ok()) scene.obstacles = std::move(obstacles).value();
  scene.camera = SceneCamera{{1.0, 2.0, 40.0}, -135.0, 35.5, 420.0, ""};
  scene.display = DisplayToggles{false, true, true, true, true, true, false, false};
  scene.time = 12.75;
  scene.playing = false;
  return scene;
}

}  // namespace testing_util
}  // namespace md5stage
