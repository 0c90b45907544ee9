// A character instance in the viewer: which shared model it shows, its playback clock (with
// crossfades), its placement on the ground, its own pose buffers and the props attached to it.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "app/model_library.h"
#include "core/anim/jobs.h"
#include "core/anim/pose.h"
#include "core/anim/transform_node.h"
#include "core/path/follower.h"
#include "ui/viewer_model.h"

namespace md5stage::app {

struct Playback {
  int animation = -1;  // index into LoadedModel::animations; -1 = bind pose
  double time = 0.0;
  float rate = 1.0f;
  ui::PlayMode mode = ui::PlayMode::kLoop;
  bool playing = true;
  int direction = 1;  // ping-pong: +1 forward, -1 backward
  float crossfade_seconds = 0.25f;
  // The animation being faded out, and how far the fade has gone.
  int fade_from = -1;
  double fade_from_time = 0.0;
  float fade_elapsed = 0.0f;
  float fade_duration = 0.0f;
};

struct Attachment {
  int model = -1;  // the attached model (its own shared data)
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
  int route = -1;
  RouteMode route_mode = RouteMode::kLoop;
  double start_delay = 0.0;
  bool has_target = false;
  glm::dvec2 target{0.0, 0.0};
  bool target_has_heading = false;
  double target_heading = 0.0;  // radians
  double plan_start = 0.0;      // scene time the current plan began
  int walk_animation = -1;
  int idle_animation = -1;
  bool moving = false;
};

struct Character {
  int model = -1;
  std::string label;
  Playback playback;
  anim::RootMotion root_motion = anim::RootMotion::kKeep;
  glm::vec2 position{0.0f};
  float heading = 0.0f;  // radians, counter-clockwise from +x
  anim::Pose pose;
  std::vector<Attachment> attachments;
  Locomotion locomotion;
  bool visible = true;

  glm::mat4 RootMatrix() const;
};

// Wraps or clamps a time into [0, duration] for a play mode; flips the ping-pong direction and
// stops playback at the end of a "once" clip.
void AdvancePlayback(Playback& playback, float duration, double dt);

// Switches animation, fading from the current one over playback.crossfade_seconds.
void SwitchAnimation(Playback& playback, int animation);

// Samples, blends, places and skins the character and its attachments (pose.models are world
// matrices, pose.palette is ready for the GPU). No allocation once the pose buffers are sized.
void PoseCharacter(Character& character, const std::vector<LoadedModel>& models);

}  // namespace md5stage::app
