// A scene as plain data: what assets/scenes/*.json, sceneJSON() and share links carry
// (docs/scene-format.md). Runtime objects (meshes, routes, players) are built from it elsewhere.
#pragma once

#include <array>
#include <cstddef>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/play_mode.h"
#include "core/path/obstacles.h"
#include "core/path/route.h"

namespace md5stage {

constexpr int kSceneVersion = 1;

// Bounds a scene must stay within (docs/scene-format.md, "Bounds").
constexpr std::size_t kMaxSceneJsonBytes = 1 << 20;
constexpr std::size_t kMaxSceneModels = 64;
constexpr std::size_t kMaxModelAnims = 256;
constexpr std::size_t kMaxSceneRoutes = 256;
constexpr std::size_t kMaxRouteSegments = 4096;
constexpr std::size_t kMaxSceneInstances = 4096;
constexpr std::size_t kMaxInstanceAttachments = 16;
constexpr std::size_t kMaxSceneNameLength = 128;     // model, route, anim, joint names
constexpr std::size_t kMaxSceneSourceLength = 2048;  // mesh/anim paths and URLs
// Ranges of the values a scene holds; the viewer's commands accept the same, so anything set
// through them can be saved and shared.
constexpr double kMaxSceneTime = 1e6;        // seconds: scene time, playback time, start delay
constexpr double kMaxRate = 100.0;           // playback rate, either direction
constexpr double kMaxSpeed = 1e5;            // units per second, also the largest turn radius
constexpr double kMaxSceneCoordinate = 1e6;  // |x|, |y|, |z|, |angle in degrees|
// Not just > 0: a share link keeps 6 decimals, and a smaller distance would arrive as 0.
constexpr double kMinSceneCameraDistance = 1e-3;

struct SceneModel {
  std::string name;
  std::string mesh;                // assets-relative path or https:// URL (a label when local)
  std::vector<std::string> anims;  // same kinds of sources
  bool local = false;              // came from dropped files: cannot travel in a share link
  // Material decls and skins (.mtr .shader .skin) fetched with the model, same kinds of sources,
  // and the skin it shows ("" for the mesh's own shaders). Both optional in the JSON.
  std::vector<std::string> materials;
  std::string skin;
};

// Segments are the path core's plain RouteSegment; a line's unused points repeat its end (as
// RouteSegment::Line makes them). Consecutive segments share end points, and a closed route ends
// where it starts (the rule of Route::Build).
struct SceneRoute {
  std::string name;
  bool closed = false;
  std::vector<RouteSegment> segments;
};

struct SceneTarget {
  glm::dvec2 position{0.0, 0.0};
  std::optional<double> heading_degrees;  // final heading, when the instance should turn to one
};

struct SceneAttachment {
  std::string model;
  std::string joint;
  glm::dvec3 offset{0.0, 0.0, 0.0};            // in the joint's frame
  glm::dvec3 rotation_degrees{0.0, 0.0, 0.0};  // x/y/z Euler angles in the joint's frame
};

struct SceneInstance {
  std::string model;
  glm::dvec2 position{0.0, 0.0};
  double heading_degrees = 0.0;
  std::string animation;  // anim name (file base name) or empty
  double time = 0.0;
  double rate = 1.0;
  PlayMode mode = PlayMode::kLoop;
  std::string locomotion;  // anim played while moving
  std::string idle;        // anim played while standing
  double speed = 50.0;     // units per second along a route or towards a target
  double turn_radius = 0.0;
  // Distance the planner keeps from obstacles; absent: the viewer's default from the model's
  // bind-pose bounds (so a scene made for one model still fits another).
  std::optional<double> clearance;
  int route = -1;  // index into Scene::routes, -1 for none
  PlayMode route_mode = PlayMode::kLoop;
  double start_delay = 0.0;
  std::optional<SceneTarget> target;
  std::vector<SceneAttachment> attachments;
};

struct SceneCamera {
  glm::dvec3 target{0.0, 0.0, 35.0};
  double yaw_degrees = 30.0;
  double pitch_degrees = 20.0;
  double distance = 300.0;
  // The .md5camera (an assets path or https URL) the view follows on the scene clock; "" for
  // the orbit camera above. Optional in the format, so older scenes and links still open.
  std::string cinematic;
};

// What the viewer draws besides the models: one type for scenes, the UI panels and embeds.
struct DisplayToggles {
  bool grid = true;
  bool skeleton = false;
  bool joint_names = false;
  bool bounds = false;
  bool wireframe = false;
  bool normals = false;
  bool routes = true;
  bool turn_circles = true;
  // Pinter's turning-radius construction for the selected character's go-to path (docs/design.md,
  // "The construction view"). Added after format 1's links: written only when on.
  bool construction = false;
  // Each character giving way (the scene's `avoidance`): its clearance ring and its wanted and
  // chosen headings. Added after format 1's links: written only when on.
  bool clearance = false;
};

// The toggles by the names the scene format and the viewer's commands and state use, in order.
struct DisplayToggleName {
  const char* name;
  bool DisplayToggles::*member;
  // Written even when it equals the default in a full scene (WriteSceneOptions::omit_defaults
  // false). The toggles added later are not, so scenes and links made before them keep their
  // canonical JSON (tests/core/scene/golden_links.txt).
  bool always_written = true;
};
inline constexpr DisplayToggleName kDisplayToggleNames[] = {
    {"grid", &DisplayToggles::grid},
    {"skeleton", &DisplayToggles::skeleton},
    {"joint_names", &DisplayToggles::joint_names},
    {"bounds", &DisplayToggles::bounds},
    {"wireframe", &DisplayToggles::wireframe},
    {"normals", &DisplayToggles::normals},
    {"routes", &DisplayToggles::routes},
    {"turn_circles", &DisplayToggles::turn_circles},
    {"construction", &DisplayToggles::construction, false},
    {"clearance", &DisplayToggles::clearance, false}};

struct Scene {
  std::vector<SceneModel> models;
  std::vector<SceneRoute> routes;
  std::vector<SceneInstance> instances;
  ObstacleSet obstacles;  // what go-to plans around; validated when read (obstacles.h)
  SceneCamera camera;
  DisplayToggles display;
  double time = 0.0;
  bool playing = true;
  // Characters that move give way to each other (docs/design.md, "Characters giving way"). Added
  // after format 1's links: written only when on, so scenes and links made before keep their bytes.
  bool avoidance = false;
};

// "walk" for "models/walker/walk.md5anim" or "https://x.org/a/walk.md5anim?raw=1".
std::string AnimNameFromSource(std::string_view source);

// The model with this name, or nullptr.
const SceneModel* FindSceneModel(const Scene& scene, std::string_view name);

// The scene without local models, the instances of them and the attachments of them: what a share
// link can carry. `dropped_models` (optional) receives the names of the models left out.
Scene WithoutLocalModels(const Scene& scene, std::vector<std::string>* dropped_models = nullptr);

}  // namespace md5stage
