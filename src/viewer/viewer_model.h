// What the ImGui panels show and what they ask for: plain data that the viewer fills each frame
// and applies afterwards, so the UI knows nothing of GL or of the viewer's internals.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "viewer/shading.h"

namespace md5stage::ui {

// One type per concept, shared with scenes and embeds.
using md5stage::DisplayToggles;
using md5stage::PlayMode;

struct FrameStats {
  float fps = 0.0f;
  float frame_ms = 0.0f;   // wall time between frames, smoothed
  float update_ms = 0.0f;  // CPU time spent updating the scene, as the page loop measured it
  float render_ms = 0.0f;  // CPU time spent submitting draw calls
  int draw_calls = 0;
  int instances = 0;  // drawn (after culling)
  int culled = 0;     // characters outside the view, not submitted
  int characters = 0;
  int framebuffer_width = 0;
  int framebuffer_height = 0;
  float device_pixel_ratio = 1.0f;
  std::string gl_version;
};

// What a left click on the ground does: orbit the camera, send the selected character there,
// edit the current route, or draw, move and select obstacles.
enum class Tool { kCamera = 0, kGoTo = 1, kRoute = 2, kObstacle = 3 };

struct RouteSummary {
  std::string name;
  double length = 0.0;
  bool valid = false;
  bool closed = false;
  int points = 0;
  int tight_stretches = 0;
  int obstacle_crossings = 0;  // stretches within the clearance of an obstacle
};

struct ObstacleSummary {
  bool circle = true;
  glm::vec2 centre{0.0f};  // circle: its centre; polygon: its bounds' centre
  float radius = 0.0f;     // circle
  int vertices = 0;        // polygon
};

struct ModelSummary {
  std::string name;
  std::vector<std::string> files;
  bool local = false;  // came from dropped files: cannot travel in a share link
  int joints = 0;
  int meshes = 0;
  int vertices = 0;
  int triangles = 0;
  int weights = 0;
  int max_influences = 0;
  float top4_error = 0.0f;  // worst vertex error from keeping 4 influences, model units
  std::vector<std::string> warnings;
  std::vector<std::string> joint_names;
  std::vector<int> parents;
  std::vector<std::string> animations;
  std::size_t shared_bytes = 0;  // CPU + GPU bytes shared by every instance
  int instances = 0;
  std::vector<std::string> skins;  // loaded skins meant for it
  std::string skin;                // the one shown, "" for its own shaders
};

struct AttachmentSummary {
  int model = -1;
  std::string joint;
  glm::vec3 offset{0.0f};
  glm::vec3 rotation_degrees{0.0f};
};

struct InstanceSummary {
  std::string label;
  int model = -1;
  int animation = -1;
  float time = 0.0f;
  float duration = 0.0f;
  float frame_rate = 0.0f;
  int frame_count = 0;
  float rate = 1.0f;
  PlayMode mode = PlayMode::kLoop;
  bool playing = true;
  float crossfade_seconds = 0.25f;
  glm::vec2 position{0.0f};
  float heading_degrees = 0.0f;
  float speed = 0.0f;
  float turn_radius = 0.0f;
  float clearance = 0.0f;
  std::string plan_message;  // why the last go-to found no path
  int route = -1;
  PlayMode route_mode = PlayMode::kLoop;
  int locomotion_animation = -1;
  bool moving = false;
  std::vector<AttachmentSummary> attachments;
  std::size_t instance_bytes = 0;  // bytes this instance owns (pose buffers, palette)
};

struct JointDetail {
  int joint = -1;
  glm::vec3 local_translation{0.0f};
  glm::quat local_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 world_translation{0.0f};
  glm::quat world_rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

struct ViewerModel {
  std::vector<ModelSummary> models;
  std::vector<InstanceSummary> instances;
  int selected_instance = -1;
  int selected_joint = -1;
  JointDetail joint_detail;
  DisplayToggles display;
  viewer::ShadingOptions shading;
  FrameStats stats;
  std::string last_error;
  std::string status;
  bool loading = false;
  float loading_progress = 0.0f;
  float scene_time = 0.0f;
  bool scene_playing = true;
  Tool tool = Tool::kCamera;
  int crowd_size = 0;
  std::vector<RouteSummary> routes;
  int edited_route = -1;
  bool auto_round_corners = false;
  std::string hover_text;  // e.g. the minimum radius of the tight stretch under the cursor
  bool has_local_models = false;
  std::vector<ObstacleSummary> obstacles;
  int selected_obstacle = -1;
  bool obstacle_polygon_shape = false;
  int polygon_draft_corners = 0;
  // Cinematic cameras (.md5camera) by name, and the one the view follows (-1: the orbit camera).
  std::vector<std::string> cameras;
  int playing_camera = -1;
  int camera_frame = 0;
  int camera_shot = 0;
};

// The Model panel's requests, each naming a model by index.
struct ModelRequests {
  std::optional<int> add_instance_of_model;
  std::optional<int> remove_model;
  std::optional<int> download_gltf;                     // its .glb goes to the page as a download
  std::optional<int> download_md5;                      // its md5mesh and md5anims, as downloads
  std::optional<std::pair<int, std::string>> set_skin;  // (model, skin or "")
};

// A model carried at a joint of the selected character.
struct AttachRequest {
  int model = -1;
  int joint = -1;
  glm::vec3 offset{0.0f};
  glm::vec3 rotation_degrees{0.0f};
};

struct AttachmentRequests {
  std::optional<AttachRequest> attach;
  std::optional<std::pair<int, AttachmentSummary>> edit_attachment;  // (index, new values)
  std::optional<int> detach;
};

// The selected character's ground movement.
struct LocomotionRequests {
  std::optional<float> set_speed;
  std::optional<float> set_turn_radius;
  std::optional<float> set_clearance;
  std::optional<int> set_locomotion_animation;
  std::optional<std::pair<int, PlayMode>> assign_route;  // (route or -1, mode)
};

// The route pen's panel.
struct RouteRequests {
  std::optional<int> edit_route;  // -1: start a new route
  bool close_route = false;
  bool delete_route_point = false;
  std::optional<bool> auto_round_corners;
  std::optional<int> route_around;
};

// Requests from the panels, applied by the app after the UI pass.
struct ViewerRequests {
  using Attach = AttachRequest;
  std::optional<int> select_instance;
  std::optional<int> select_joint;
  std::optional<int> set_animation;
  std::optional<float> set_time;
  std::optional<bool> set_playing;
  std::optional<float> set_rate;
  std::optional<PlayMode> set_mode;
  std::optional<float> set_crossfade;
  std::optional<int> step_frames;  // +1 / -1
  ModelRequests models;
  AttachmentRequests attachments;
  LocomotionRequests locomotion;
  RouteRequests routes;
  std::optional<DisplayToggles> display;
  std::optional<viewer::ShadingOptions> shading;
  bool frame_model = false;
  bool follow_selected = false;
  bool screenshot = false;
  bool open_files = false;
  std::optional<Tool> set_tool;
  std::optional<int> crowd_size;
  std::optional<bool> obstacle_polygon_shape;
  std::optional<int> remove_obstacle;
  bool clear_obstacles = false;
  bool close_polygon = false;
  std::optional<float> scene_time;
  std::optional<bool> scene_playing;
  // Something the page does: "copyLink", "copyEmbed", "copyFigure", "downloadPoster", "demo:NAME".
  std::optional<std::string> page_action;
  // Where some widgets were drawn this frame (label, [x0, y0, x1, y1] in UI pixels), so browser
  // tests can click them as a person does.
  std::vector<std::pair<std::string, glm::vec4>> item_rects;
  std::optional<int> play_camera;  // -1: back to the orbit camera
};

}  // namespace md5stage::ui
