// The stage's characters as one feature: the characters and their handles, the selected one (and
// its joint), each one's playback (clip, time, rate, mode, crossfade, frame steps), placement,
// attachments and locomotion (a route or a go-to target, walk and idle clips), the frame's step,
// and their parts of the draw list (instances culled against the view, skeletons, joint names,
// bounds, normals, walked paths) and of state(). It reads the shared models of the stage's
// library and never changes them; starting a walker reads the routes and obstacles features.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/common/line_of_sight.h"
#include "core/crowd/crowd_simulation.h"
#include "core/view/frustum.h"
#include "viewer/character.h"
#include "viewer/crowd_playback.h"
#include "viewer/handles.h"
#include "viewer/model_library.h"
#include "viewer/obstacle_field.h"
#include "viewer/render_interface.h"
#include "viewer/route_book.h"
#include "viewer/stage_state.h"
#include "viewer/viewer_model.h"

namespace md5stage::viewer {

// A walker's current path as state() and the `path` replies write it: "planned" (around
// obstacles) or its Dubins word, its length and segments.
JsonValue LocomotionPathJson(const Locomotion& locomotion);

// What the character overlays are drawn for: the toggles, the pointer (for the joint under it),
// and the framebuffer.
struct OverlayView {
  const DisplayToggles* display = nullptr;
  glm::dvec2 pointer{0.0};
  bool pointer_free = true;  // the UI does not have the mouse: the joint under it is named
  float device_pixel_ratio = 1.0f;
  int width = 1, height = 1;
};

class CharacterCast {
 public:
  explicit CharacterCast(const ModelLibrary* library) : library_(library) {}

  // ---- the characters, by handle; positions are the page's boundary (state()'s order) ----
  const std::vector<Character>& all() const { return characters_; }
  int size() const { return static_cast<int>(characters_.size()); }
  Character* At(int index);
  const Character* At(int index) const;
  Character* Find(CharacterId id) { return At(IndexOf(id)); }
  const Character* Find(CharacterId id) const { return At(IndexOf(id)); }
  int IndexOf(CharacterId id) const;
  CharacterId IdAt(int index) const;
  // The model a character shows (its model is removed with it, so there always is one).
  const LoadedModel& ModelOf(const Character& character) const;

  // ---- the selection ----
  const Selection& selection() const { return selection_; }
  int selected_index() const { return IndexOf(selection_.character); }
  Character* Selected() { return Find(selection_.character); }
  const Character* Selected() const { return Find(selection_.character); }
  // The character at `index` (none out of range) and one of its joints (-1: none).
  void Select(int index, int joint);
  // A joint of the selected character (-1: none).
  void SelectJoint(int joint) { selection_.joint = joint; }

  // ---- adding and removing ----
  // A character of the library's model at `model` standing at `position` (else right of everyone
  // shown); it becomes selected. Its position, or -1 for a bad model.
  int Add(int model, std::optional<glm::vec2> position, float heading);
  // Characters of the model go, and the attachments of it; what is selected stays selected
  // unless it went.
  void RemoveModel(ModelId model);
  // Whether a character shows or carries the model.
  bool Uses(ModelId model) const;
  // Every character goes (a scene is being applied); so does the selection.
  void Clear();
  // A scene's character: added as it is, not selected.
  Character& AddUnselected(int model, glm::vec2 position, float heading);
  // Stress and performance: the crowd grows by cloning the characters there were when it first
  // grew (clones on a route queue at its start), or shrinks from the end.
  void SetCrowdSize(int count, const RouteBook& routes);
  // The characters there are now are those the crowd clones (a scene was applied).
  void SetCrowdTemplates() { crowd_templates_ = size(); }

  // ---- one character's playback (a bad position changes nothing) ----
  // Plays the clip; one that has ended plays again from the end it ended away from.
  void Play(int index);
  void Pause(int index);
  void TogglePlay(int index);
  // Whether its clip runs now (its switch on and not ended).
  bool IsPlaying(int index) const;
  bool AnyPlaying() const;
  void StepFrames(int index, int frames);
  void SetAnimation(int index, int animation);
  void SetCrossfade(int index, float seconds);
  void SetClipTime(int index, double time);
  void SetRate(int index, float rate);
  void SetPlayMode(int index, PlayMode mode);
  // Placed by hand at `now`: a plan it was following ends, and it stands where it was put.
  void SetPlacement(int index, std::optional<glm::vec2> position, std::optional<float> heading,
                    double now);
  // A model carried at a joint (a bad model or joint changes nothing).
  void Attach(int index, int model, int joint, glm::vec3 offset, glm::vec3 rotation_degrees);
  void EditAttachment(int index, int attachment, glm::vec3 offset, glm::vec3 rotation_degrees);
  void Detach(int index, int attachment);

  // ---- locomotion ----
  void SetSpeed(int index, double speed, double now);
  void SetTurnRadius(int index, double radius, double now);
  // False for a bad position; the walkers going somewhere then need to plan again.
  bool SetClearance(int index, double clearance, double now);
  void SetLocomotionAnimation(int index, int animation);
  // Walk and idle default to the model's "walk" and "idle" clips.
  void EnsureLocomotionAnimations(Character& character);
  // Walks the route from `now` (after its start delay); none: stops where it is.
  Status StartRoute(Character& character, RouteId route, PlayMode mode, const RouteBook& routes,
                    double now);
  // Goes to the point (and heading): around the obstacles when there are any.
  Status StartGoTo(Character& character, glm::dvec2 point, const double* heading,
                   const ObstacleField& obstacles, double now);
  // The characters walking the route take it again from where they are (it was built anew).
  void RestartWalkersOn(RouteId route, const RouteBook& routes, double now);
  // The characters walking the route stop where they are (it was removed).
  void StopWalkersOn(RouteId route, double now);
  // Characters going to a target plan again from where they are (obstacles or clearances
  // changed); the messages of those that found no path (they stop), one a line.
  std::string ReplanTargets(const ObstacleField& obstacles, double now);

  // ---- giving way (a scene's `avoidance`; crowd_playback.h) ----
  // While on, the characters are placed by the crowd: they give way to each other. Turning it
  // on builds the crowd from the scene's start at the next BuildCrowd; off drops it.
  bool avoidance() const { return avoidance_; }
  void SetAvoidance(bool on);
  // An edit at `now` (a target, route, speed, radius, clearance, obstacle) needs the crowd built
  // anew from that time; `placed` was put somewhere by hand (it starts there, not where the
  // crowd had it).
  void CrowdEdited(double now, CharacterId placed = CharacterId());
  // Whether BuildCrowd must run: an edit, or characters added or removed since the last build.
  bool CrowdNeedsBuild() const;
  // A run of the crowd from the edit's time (else `now`) of these characters: the cast's, in
  // order (core/crowd/crowd_scene.h converts the stage's scene).
  Status BuildCrowd(double now, std::vector<CrowdCharacter> characters,
                    const ObstacleSet& obstacles);
  const CrowdPlayback& crowd() const { return crowd_; }
  // The crowd's steps up to `now` made ahead of the frame's Step (CrowdPlayback::StepTo).
  void StepCrowdTo(double now) { crowd_.StepTo(now); }
  // The clearance a character of the model keeps when none is given: half its bind pose's wider
  // horizontal extent.
  static double DefaultClearance(const LoadedModel& model);

  // ---- the frame ----
  // Every character placed by its follower and posed at `now`, clocks unmoved (a scene applied;
  // a walker the crowd places has its clock set for `now`).
  void PlaceAndPose(double now, bool scene_playing);
  // Locomotion, clocks (moved by dt, or set for `now` where the crowd places the walker) and
  // poses at scene time `now`; the messages of characters hidden because their pose could not be
  // computed.
  std::string Step(double dt, double now, bool scene_playing);
  // Each character (and prop) in the view as a draw list instance; the count culled.
  int AddInstances(DrawList& list, const Frustum& frustum) const;
  // A soft contact shadow under each shown character (AppendContactShadow), a quarter of its
  // model's bind-pose height across: nothing at intensity 0.
  void AddContactShadows(DrawList& list, float intensity) const;
  // Skeletons, joint names (the selected character's, and the joint under the pointer), bounds
  // and the selected character's normals.
  void DrawOverlays(DrawList& list, const OverlayView& view);
  // The path each walker is on, and its turning circles.
  void DrawPaths(DrawList& list, bool paths, bool circles) const;
  // Each character the crowd places at `now` (avoidance on): its clearance ring (amber while it
  // gives way, green while it takes what it wants) and two short lines from its centre, the
  // heading it wants (white) and the one it takes (red), each the clearance plus half a
  // second at its speed long. Nothing for characters outside the crowd.
  void DrawGivingWay(DrawList& list, double now) const;
  // The box (world space) framing fits for a character: its skinned mesh over every frame of
  // its current animation, with its placement.
  bool Extent(int index, glm::vec3* lo, glm::vec3* hi) const;

  // Whether a shown character's bone capsules (core/anim/bone_capsules.h) in its current pose
  // hide the sight's point (crossings within its surface_depth before the point do not count): a
  // hotspot's visibility.
  bool Hides(const LineOfSight& sight) const;

  // ---- reports ----
  // state()'s instances at scene time `now` (routes by their positions in `routes`).
  JsonValue Json(double now, const RouteBook& routes) const;
  std::vector<ui::InstanceSummary> Summaries(const RouteBook& routes) const;

 private:
  // Applies `change` to character `index`'s clock (nothing when there is no such character) and
  // poses the character by the changed clock: what every playback setter does.
  template <typename ClockChange>
  void ChangeClock(int index, ClockChange change);
  // Where a new character of the model stands when nobody says: right of everything shown.
  glm::vec2 FreePlaceFor(int model) const;
  // The follower (or the crowd) places the root at `now`; walk or idle clip by whether it moves.
  // True when the clock was set for `now` (the crowd's gait): the frame's time must not move it.
  bool UpdateLocomotion(Character& character, double now, bool scene_playing);
  // Where the crowd has the character at `now` and its speed; false when it is not in the crowd.
  bool CrowdPose(const Character& character, double now, Pose2* pose, double* speed) const;
  // A new plan made while the crowd places the character starts where the crowd has it.
  void AnchorToCrowd(Character& character, double now);
  bool IsVisible(const Character& character, const Frustum& frustum) const;
  void DrawNormals(const Character& character, const LoadedModel& model, DrawList& list);
  // A selection of a character no longer here is cleared.
  void ForgetRemoved();

  const ModelLibrary* library_;
  std::vector<Character> characters_;
  Selection selection_;
  int crowd_templates_ = 0;  // characters SetCrowdSize clones
  HandleSerials serials_;
  bool avoidance_ = false;
  // The crowd is a cache of the scene's characters stepped on: reading a pose at a time steps
  // or restores it, so const reports (state()) may move it.
  mutable CrowdPlayback crowd_;
  bool crowd_edited_ = false;
  double crowd_edit_time_ = 0.0;
  std::vector<CharacterId> crowd_placed_;
  // Per-frame scratch of the overlays, kept to avoid allocating each frame: one projection per
  // joint serves the hover test and the names; the selected model's skinned normals.
  std::vector<glm::vec2> joint_screen_;
  std::vector<char> joint_on_screen_;
  std::vector<glm::vec3> normal_positions_, normal_directions_;
};

}  // namespace md5stage::viewer
