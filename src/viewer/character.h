// A character instance in the viewer: which shared model it shows, its playback clock (the core's
// PlaybackClock, with crossfades), its placement on the ground, its own pose buffers and the props
// attached to it.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "core/anim/jobs.h"
#include "core/anim/playback_clock.h"
#include "core/anim/pose.h"
#include "core/anim/transform_node.h"
#include "core/path/follower.h"
#include "core/path/obstacle_planner.h"
#include "viewer/handles.h"
#include "viewer/model_library.h"
#include "viewer/render_interface.h"
#include "viewer/viewer_model.h"

namespace md5stage::viewer {

struct Attachment {
  ModelId model;   // the attached model (its own shared data)
  int joint = -1;  // joint of the carrying character
  glm::vec3 offset{0.0f};
  glm::vec3 rotation_degrees{0.0f};
  anim::TransformNode node;
  anim::Pose pose;
};

// How a character moves on the ground: a follower (turning radius + speed) towards a route or a
// target, and the walk/idle animations it switches between, the walk played in step with its speed.
struct Locomotion {
  bool enabled = false;  // the follower places the root
  Follower follower;
  double speed = 50.0;
  double turn_radius = 0.0;
  RouteId route;  // none: not on a route
  PlayMode route_mode = PlayMode::kLoop;
  double start_delay = 0.0;
  bool has_target = false;
  glm::dvec2 target{0.0, 0.0};
  bool target_has_heading = false;
  double target_heading = 0.0;  // radians
  double plan_start = 0.0;      // scene time the current plan began
  int walk_animation = -1;
  int idle_animation = -1;
  bool moving = false;
  // How far it keeps from obstacles: by default half its bind pose's wider horizontal extent.
  double clearance = 0.0;
  bool clearance_set = false;  // given by hand (panel, command): not reset from the bounds
  // Planning around obstacles: the search's memory is kept per character, so replanning (a new
  // target, or obstacles changed while it walks) does not allocate once it has grown.
  ObstaclePlannerScratch plan_scratch;
  PlannedPath plan;
  std::string plan_message;        // why the last plan failed ("" when it did not)
  ObstaclePlanResult plan_result;  // the last plan's search: expansions, passes, proven best
};

// The shape a path's segment is drawn as, on top, `lift` above the ground: an arc round its
// turning circle, or a straight segment. One instance each, however long the segment or its
// turn: every figure on a page hands its paths to the renderer each frame.
ShapeInstance TurnSegmentShape(const TurnSegment& segment, float lift, Rgba8 color);

// A walked path's drawing, on top just above the ground: its arcs' turning circles when
// `circles` (tinted `circle_color`), and its segments of non-zero length when `routes`. A few
// instances a path, so they are made each frame rather than kept.
void AddTurnPathShapes(const TurnSegment* segments, size_t count, bool routes, bool circles,
                       Rgba8 circle_color, std::vector<ShapeInstance>* shapes);

struct Character {
  CharacterId id;
  ModelId model;
  std::string label;
  anim::PlaybackClock playback;  // which clip, where, how it repeats, the crossfade
  anim::RootMotion root_motion = anim::RootMotion::kKeep;
  glm::vec2 position{0.0f};
  float heading = 0.0f;  // radians, counter-clockwise from +x
  anim::Pose pose;
  std::vector<Attachment> attachments;
  Locomotion locomotion;
  bool visible = true;

  glm::mat4 RootMatrix() const;
};

// Places a local pose (pose.locals) under a root transform: joint model matrices and the GPU
// palette (model x inverse bind).
void SkinPose(const anim::Model& model, const glm::mat4& root, anim::Pose& pose);

// Samples, blends, places and skins the character and its attachments with the core's
// CharacterPoseJob (pose.models are world matrices, pose.palette is ready for the GPU); false
// when a job refused its inputs. No allocation once the pose buffers are sized.
bool PoseCharacter(Character& character, const std::vector<LoadedModel>& models);

}  // namespace md5stage::viewer
