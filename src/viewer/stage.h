// The viewer without a platform: models, characters, playback, locomotion, routes and the mouse
// tools, camera control, picking, the page's command set, and each frame's draw list. src/app
// feeds it input and a render backend; tests drive it natively with NullRenderBackend.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/anim/camera_playback.h"
#include "core/common/json.h"
#include "core/path/route.h"
#include "core/path/route_editor.h"
#include "core/scene/scene.h"
#include "core/view/frustum.h"
#include "core/view/orbit_camera.h"
#include "viewer/camera_rig.h"
#include "viewer/character.h"
#include "viewer/character_cast.h"
#include "viewer/embed_options.h"
#include "viewer/embed_timeline.h"
#include "viewer/ground_tools.h"
#include "viewer/model_library.h"
#include "viewer/obstacle_field.h"
#include "viewer/render_interface.h"
#include "viewer/route_book.h"
#include "viewer/scene_opener.h"
#include "viewer/shading.h"
#include "viewer/stage_host.h"
#include "viewer/stage_state.h"
#include "viewer/viewer_model.h"

namespace md5stage::viewer {

enum class MouseButton { kLeft, kRight, kMiddle };

// Whether a file name has an image extension (.png .tga .jpg .jpeg, any case).
bool IsImageFileName(const std::string& name);

// The names of every command Stage::Call answers (the table in commands.cpp).
std::vector<std::string> CommandNames();

class Stage : private OpeningTarget {
 public:
  // No pointer is owned; all outlive the stage. host may be null; shared_cache (the hub's, so
  // that stages parse a file once between them) may be null for a cache of the stage's own.
  Stage(RenderBackend* backend, StageHost* host, anim::ResourceCache* shared_cache = nullptr);
  ~Stage();
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

  // The framebuffer's size in pixels and the device pixel ratio (CSS pixels -> framebuffer).
  void SetViewport(int width, int height, float device_pixel_ratio);
  // Whether the UI (ImGui) takes the mouse or the keyboard this frame.
  void SetUiCapture(bool mouse, bool keyboard);

  // Input in framebuffer pixels.
  void OnMouseButton(MouseButton button, bool pressed);
  void OnCursor(double x, double y);
  void OnScroll(double steps);  // positive: zoom in
  void OnTouch(int touches, const double* xs, const double* ys);
  // A key press counts once however short (pressed and released between two frames) or long
  // (held: no repeat) it is; presses are applied at the next Update.
  void OnKeyDown(Key key);
  void OnKeyUp(Key key);
  // Whether Shift is held: a left drag with Shift turns the key light instead of the camera.
  void SetShiftHeld(bool held) { pointer_.shift_held = held; }

  // One frame: queued key presses, scene clock (dt times the time scale), locomotion, playback,
  // poses, embed timeline; auto-rotate; a "cameraChange" event {source} to the host when the
  // orbit camera moved.
  void Update(double dt);
  // model-viewer's time-scale: scene seconds per second of frames (0 <= scale <= 16).
  void SetTimeScale(double scale) { time_scale_ = std::clamp(scale, 0.0, kMaxEmbedTimeScale); }
  double time_scale() const { return time_scale_; }
  // model-viewer's auto-rotate and rotation-per-second.
  void SetAutoRotate(const CameraRig::AutoRotate& rotate) { camera_.SetAutoRotate(rotate); }
  // What to draw for the current state (instances are culled against the view).
  void BuildDrawList(DrawList* list);
  // The panels' view of the state; they answer with commands of the table (Call), run after the
  // UI pass.
  ui::ViewerModel BuildViewerModel() const;
  // Where the panels drew some widgets this frame (state().ui_items), so that browser tests click
  // them as a person does.
  void SetPanelItemRects(std::vector<std::pair<std::string, glm::vec4>> rects) {
    item_rects_ = std::move(rects);
  }
  // Counts the frame; call after it was presented.
  void EndFrame() { ++frame_; }

  // Files handed over by the page (dropped, picked or fetched), loaded as one batch.
  void QueueFile(InputFile file) { pending_files_.push_back(std::move(file)); }
  JsonValue LoadQueuedFiles();

  // ---- actions (stage_actions.cpp): each user action once; keys, panels, page commands and
  // elements only translate into these. Instance and obstacle indices are checked by callers
  // that take them from outside (the command table names the field); bad ones change nothing.
  // Plays the clip; one that has ended ("once", or a ping-pong that stopped) plays again from the
  // end it ended away from.
  void Play(int instance);
  void Pause(int instance);
  // Space and the panel's Play/Pause: pauses what plays, plays (so rewinds) what does not.
  void TogglePlay(int instance);
  // Whether the instance's clip is running now (its switch on and not ended), as state() and
  // the panel's label say it.
  bool IsPlaying(int instance) const;
  void StepFrames(int instance, int frames);
  void SetDisplay(const DisplayToggles& display) { options_.display = display; }
  // The scene's `avoidance` (the embed's option, the element's attribute): on, the characters
  // give way from the scene's start (the crowd is built from there, so the time shown is what
  // playing to it shows); off, each walks its own plan again.
  void SetAvoidance(bool on);
  void SetShading(ShadingOptions shading);
  void SetCamera(const OrbitCamera& camera);
  // The arrow keys' and +/-'s camera steps: degrees of yaw and pitch, zoom steps (as the wheel).
  void OrbitBy(float yaw_degrees, float pitch_degrees);
  void ZoomBy(float steps);
  void Select(int instance, int joint);
  void FrameSelection();
  // A character of the model at `position`, else beside everything shown; it becomes selected.
  int AddInstance(int model, std::optional<glm::vec2> position, float heading);
  Status RemoveObstacle(int index);
  Status ClearObstacles();
  void SetSceneTime(double time) { scene_time_ = std::max(0.0, time); }
  // The scene clock and every clip, as Play and Pause do each (an ended clip plays again); a
  // "play" or "pause" event to the host when the clock starts or stops.
  void SetScenePlaying(bool playing);
  // Space, in the viewer and in figures alike: pauses the scene (its clock and every clip) when
  // it plays, else plays it, each ended clip again from the end it ended away from. With one
  // character this is its clip and the clock; with many, all of them together.
  void ToggleScenePlaying();
  // Whether the scene plays: its clock runs and a clip (or the cinematic camera) moves.
  bool ScenePlaying() const;
  // Escape and "Leave camera": the polygon being drawn is dropped and the orbit camera is back.
  void LeaveCinematicCamera();
  void Screenshot();
  void SetPanelsVisible(bool visible) { options_.panels_visible = visible; }
  // The orbit camera's target follows the selected character (the Scene panel's "Follow").
  void SetFollowSelected(bool follow) { camera_.SetFollowing(follow); }
  void ToggleHelp() { options_.help_open = !options_.help_open; }
  // What a left click on the ground does. The route pen starts on the last route when it edits
  // none and holds no point; any tool but the obstacle tool drops a polygon being drawn.
  void SetTool(ui::Tool tool);
  // The route pen: the route it edits (-1: a new one), its loop opened or closed, its selected
  // point deleted, corners rounded automatically; each change rebuilds the route.
  void EditRoute(int route) { StartEditingRoute(route); }
  void ToggleRouteLoop();
  void DeleteRoutePoint();
  void SetRoundCorners(bool round);
  // The obstacle tool's shape (circle or polygon), and the polygon being drawn closed (Enter).
  void SetObstacleShape(bool polygon);
  void ClosePolygon() { ClosePolygonDraft(); }
  // What only the page does: its file picker, and "copyLink", "copyEmbed", "copyFigure",
  // "downloadPoster", "demo:NAME".
  void OpenFilePicker();
  void RunPageAction(const std::string& action);

  // The loaded cinematic camera of that name, or -1.
  int FindCamera(const std::string& name) const;

  // One character's playback, placement and locomotion (the panels act on the selected one).
  // The clip shown (-1: the bind pose); the crossfade from the one before.
  void SetAnimation(int instance, int animation);
  void SetCrossfade(int instance, float seconds);
  void SetClipTime(int instance, double time);
  void SetRate(int instance, float rate);
  void SetPlayMode(int instance, PlayMode mode);
  // Placed by hand: a plan it was following ends, and it stands where it was put.
  void SetPlacement(int instance, std::optional<glm::vec2> position, std::optional<float> heading);
  // A model carried at a joint of the instance (a bad model or joint changes nothing).
  void Attach(int instance, int model, int joint, glm::vec3 offset, glm::vec3 rotation_degrees);
  void EditAttachment(int instance, int attachment, glm::vec3 offset, glm::vec3 rotation_degrees);
  void Detach(int instance, int attachment);
  void SetSpeed(int instance, double speed);
  void SetTurnRadius(int instance, double radius);
  // The distance it keeps from obstacles; walkers going somewhere plan again.
  void SetClearance(int instance, double clearance);
  void SetLocomotionAnimation(int instance, int animation);
  // Walks the route (-1: stops where it is); walk and idle clips default to "walk" and "idle".
  Status AssignRoute(int instance, int route, PlayMode mode);
  // Walks to the point (and heading), around the obstacles; "no path" is the error.
  Status GoTo(int instance, glm::dvec2 point, std::optional<double> heading);
  // The planner's budget for the next go-tos, replans and "route around": about `milliseconds`
  // of search (PlanBudgetFromMilliseconds, as `md5stage plan --budget-ms`); unset, the default.
  // The best legal path found within it is taken; state() says whether it is proven best.
  Status SetPlanBudget(std::optional<double> milliseconds);
  // The construction view's origin handles (and setConstructionOrigin): the character, which
  // must be going to a target, is placed at `origin` and goes to the same target (and heading)
  // from there, so the figure starts from it. On error (no target, no path) nothing changes.
  Status SetConstructionOrigin(int instance, const Pose2& origin);

  // Routes: set one (index == the count: a new one; the route being edited is edited anew), and
  // replace its stretches that cross obstacles by planned paths, with the instance's turning
  // radius and clearance or, without one, those of the route's characters.
  Status SetRoute(int index, std::vector<RouteSegment> segments, bool closed,
                  const std::string& name);
  Status RouteAround(int route, std::optional<int> instance);
  // Removes the route: characters walking it stop where they are, and its editing ends; every
  // other route keeps its handle (and what walks or edits it).
  Status RemoveRoute(int route);
  // Obstacles: each edit is refused whole when the set does not validate; walkers replan.
  Status AddObstacle(Obstacle obstacle);
  Status MoveObstacle(int index, glm::dvec2 offset);

  // A cinematic camera by index, or -1: Leave (the orbit camera as it was).
  void SelectCamera(int index);
  // The embed's URL options: its loop always, and with apply_to_scene its display, camera, play
  // state and start time on the open scene (the timeline starts again from there).
  void ApplyEmbedOptions(const EmbedOptions& options, bool reduced_motion, bool apply_to_scene);
  // While the timeline slider is held the loop does not jump.
  void SetEmbedScrubbing(bool scrubbing) { embed_timeline_.SetScrubbing(scrubbing); }
  // A message from the page for the status line (e.g. a fetch that failed).
  void ReportError(const std::string& message) { SetError(message); }
  // Removes the model, its characters and what carries it.
  void RemoveModel(int model);
  // Shows a model under a loaded skin ("" for its own shaders): its textures are re-bound, and
  // the reply carries the warnings (missing images) of the new resolution.
  JsonValue SetModelSkin(int model, const std::string& skin);
  // "Download glTF" (gltf_download.cpp): the model as a .glb handed to the host; the reply says
  // what went in, or the exporter's error (also shown on the status line).
  JsonValue DownloadGltf(int model);
  // "Download MD5" (md5_download.cpp): the md5mesh and each md5anim as separate downloads.
  JsonValue DownloadMd5(int model);
  // Stress and performance: grow or shrink the crowd by cloning the scene's characters.
  void SetCrowdSize(int count);
  // The engine's part of a frame alone (locomotion, playback, poses), for benchmarks: no keys,
  // embed timeline, hover or camera follow.
  void StepEngine(double dt) { Update(dt, false); }
  // The crowd's part of StepEngine(dt) made ahead of it (a scene with `avoidance`: its 60 Hz
  // steps up to the update's time), so a benchmark times the steps and the rest apart; the update
  // that follows gives the same poses. Nothing while the crowd awaits a build (the update builds
  // it from its own time).
  void StepCrowdAhead(double dt);

  // The steps of opening a scene one by one (OpenScene runs them all): validate it and list the
  // files to fetch, then apply it once they are loaded, or cancel it.
  JsonValue PrepareScene(const JsonValue& scene_json) override;
  JsonValue ApplyPendingScene() override;
  void CancelPendingScene() override;

  // ---- queries ----
  Scene CurrentScene() const;
  JsonValue RoutesJson() const;
  JsonValue PathJson(const Character& character) const;
  JsonValue ClockJson() const;
  // The frame's timings and counts (the `stats` command and state()'s "stats").
  void AddFrameStats(JsonValue& into) const;
  // The ground point under a framebuffer pixel: what a click there would hit.
  std::optional<glm::vec3> GroundUnderCursor(double x, double y) const;
  bool ProjectToScreen(const glm::vec3& world, glm::dvec2* screen) const;
  // The instance's bind-pose box on screen [x0, y0, x1, y1], framebuffer pixels; false when none
  // of it shows in front of the camera.
  bool ScreenBounds(int instance, glm::vec4* rect) const;
  // The joint's model-to-world matrix in the instance's current pose (posed now).
  glm::mat4 JointWorld(int instance, int joint);
  // Where a figure's hotspot shows: the framebuffer pixel of a world point (false when it is
  // behind the camera), and whether it is seen: inside the view and hidden by no shown
  // character's bone capsules (crossings up to surface_depth before the point do not count).
  bool LocatePoint(const glm::vec3& world, float surface_depth, glm::dvec2* pixel, bool* seen);
  // The view's projection and eye, worked out once for all the points a frame locates.
  struct PointView {
    glm::mat4 view_projection{1.0f};
    bool has_eye = false;  // false: a view with its eye at infinity; nothing counts as in front
    glm::vec3 eye{0.0f};
  };
  PointView CurrentPointView() const;
  bool LocatePoint(const PointView& view, const glm::vec3& world, float surface_depth,
                   glm::dvec2* pixel, bool* seen) const;
  // How deep a joint of the model lies inside its limb: its own surface in front of it does not
  // hide it.
  static float JointSurfaceDepth(const LoadedModel& model);

  // ---- a figure's hotspots: set once, placed every frame with no command ----
  // model-viewer's data-surface: a point of one triangle of a character's mesh, as barycentric
  // weights of its three vertices (indices into the model's GPU vertices), following the skin.
  struct SurfacePoint {
    std::array<uint32_t, 3> vertices{};
    glm::vec3 weights{0.0f};  // >= 0, summing to 1
  };
  struct Hotspot {
    CharacterId character;  // with joint >= 0 or a surface: that character as it animates
    int joint = -1;
    glm::vec3 point{0.0f};        // else a world point,
    std::string construction;     // or, when not empty, the construction point with this label
    bool names_something = true;  // false: what it named was refused (it is never shown)
    std::optional<SurfacePoint> surface;  // a point of the character's skinned surface
  };
  // The surface point on the character as its pose was last computed (its palette, the GPU
  // skinning's four weights a vertex, as the picture drawn).
  glm::vec3 SkinnedSurfacePoint(const Character& character, const SurfacePoint& surface) const;
  // Per hotspot in PlacedHotspots: framebuffer x, y, then flags.
  static constexpr int kHotspotFloats = 3;
  static constexpr int kHotspotInFront = 1;  // x, y hold its pixel (it is before the camera)
  static constexpr int kHotspotSeen = 2;     // inside the view and hidden by no character
  void SetHotspots(std::vector<Hotspot> hotspots) { hotspots_ = std::move(hotspots); }
  size_t hotspot_count() const { return hotspots_.size(); }
  // Places every hotspot in the current pose and view (the frame's, after BuildDrawList).
  void PlaceHotspots();
  // One hotspot: its world point, its pixel and its flags (0 when what it names is not there).
  int PlaceHotspot(const Hotspot& spot, glm::vec3* world, glm::dvec2* pixel);
  int PlaceHotspot(const PointView& view, const Hotspot& spot, glm::vec3* world, glm::dvec2* pixel);
  const std::vector<float>& placed_hotspots() const { return placed_hotspots_; }
  // GPU skinning read back from the renderer against the core's CPU skinning of the current pose.
  JsonValue GpuSkinCheck(int instance);

  // Whether the picture changes with time alone (a clip or the scene clock runs): a figure that
  // does not is drawn again only when something acts on it.
  bool Animating() const;
  // The models' GPU objects made again on the (new) backend, after a context loss.
  void RecreateGpuObjects() { library_->RecreateGpuObjects(); }

  // ---- opening scenes (scene_opener.h: the SceneOpener feature) ----
  // One protocol for every way a scene opens: validate it, fetch the files it names through the
  // host one after another, load them, fetch the images they lack, then apply it; a failure at
  // any step cancels, and the scene that was open stays. Openings run one at a time, in order.
  // Each returns its id; the host's "sceneOpened" event {id, ok, error, warnings} ends it.
  int OpenScene(const JsonValue& scene_json) { return opener_.OpenScene(scene_json); }
  // assets/scenes/NAME.json
  int OpenDemo(const std::string& name) { return opener_.OpenDemo(name); }
  // A share link's #scene= payload.
  int OpenLink(const std::string& payload) { return opener_.OpenLink(payload); }
  // `materials`: .mtr / .shader / .skin URLs fetched with the model (each resolved as an anim).
  int OpenModel(const std::string& mesh, const std::vector<std::string>& anims,
                const std::vector<std::string>& materials = {}) {
    return opener_.OpenModel(mesh, anims, materials);
  }
  // What the page's URL asks for (page_location.h); a failed ask falls back to the default demo.
  int OpenLocation(const std::string& query, const std::string& fragment) {
    return opener_.OpenLocation(query, fragment);
  }
  // The host's answer to Fetch: the bytes, or what went wrong ("HTTP 404 Not Found").
  void OnFetched(int request, bool ok, std::string bytes, const std::string& error) {
    opener_.OnFetched(request, ok, std::move(bytes), error);
  }
  bool opening() const { return opener_.opening(); }

  // One command: {"cmd": NAME, ...} -> a JSON reply; {"ok": false, "error"} names the field
  // that is wrong or missing. The table is in commands.cpp.
  JsonValue Call(const JsonValue& command);
  JsonValue State() const;

  ui::FrameStats& stats() { return stats_; }
  const ui::FrameStats& stats() const { return stats_; }
  bool panels_visible() const { return options_.panels_visible; }
  bool* help_open() { return &options_.help_open; }
  std::string StatusLine() const {
    return report_.error.empty() ? report_.status : "Error: " + report_.status;
  }
  uint64_t frame() const { return frame_; }
  const OrbitCamera& camera() const { return camera_.orbit(); }
  const DisplayToggles& display() const { return options_.display; }
  // What the construction view drew last (not shown when the toggle is off or there is no
  // go-to target): the selected character's, or the first one's when none is selected.
  const ConstructionFigure& construction_figure() const { return construction_; }
  const ShadingOptions& shading() const { return options_.shading; }
  int character_count() const { return cast_.size(); }
  const std::vector<Character>& characters() const { return cast_.all(); }
  const CharacterCast& cast() const { return cast_; }
  const std::vector<LoadedModel>& models() const { return library_->models(); }
  const ModelLibrary& library() const { return *library_; }
  const std::vector<ViewerRoute>& routes() const { return routes_.routes(); }
  const ObstacleSet& obstacles() const { return obstacles_.set(); }
  const ObstacleField& obstacle_field() const { return obstacles_; }
  const RouteTool& route_tool() const { return routes_.pen(); }
  const std::vector<CinematicCamera>& cinematic_cameras() const { return camera_.cinematics(); }
  const std::string& last_error() const { return report_.error; }

  // The character with that handle, or null (removed, or never here); its position in
  // characters() (state()'s order), or -1. Positions are for the page's boundary only: what one
  // part of the stage keeps of another is a handle.
  const Character* FindCharacter(CharacterId id) const { return cast_.Find(id); }
  int CharacterIndex(CharacterId id) const { return cast_.IndexOf(id); }
  // The handle of the character at a position (none out of range).
  CharacterId CharacterAt(int index) const { return cast_.IdAt(index); }
  // The model a character shows (its model is removed with it, so there always is one).
  const LoadedModel& ModelOf(const Character& character) const { return cast_.ModelOf(character); }
  // The route and the obstacle with that handle: their positions, or -1.
  int RouteIndex(RouteId id) const { return routes_.IndexOf(id); }
  int ObstacleIndex(ObstacleId id) const { return obstacles_.IndexOf(id); }
  int CameraIndex(CameraId id) const;

  // The box (world space) that framing fits for a character: its skinned mesh over every frame
  // of its current animation, with its placement.
  bool CharacterExtent(int instance, glm::vec3* lo, glm::vec3* hi) const;

 private:
  glm::mat4 ViewProjection() const;
  void HandleKeyPress(Key key);
  void Update(double dt, bool from_frame);
  Character* Selected() { return cast_.Selected(); }
  const Character* Selected() const { return cast_.Selected(); }
  // The selected character's position in characters(), or -1.
  int SelectedIndex() const { return cast_.selected_index(); }
  Character* FindCharacter(CharacterId id) { return cast_.Find(id); }
  // A construction handle's drag of a character no longer here lets go of it.
  void ForgetRemovedCharacters();
  void SetError(const std::string& message);

  // Scenes, routes and locomotion (viewer_scene.cpp).
  // Builds the route at index (== the count: a new one); characters on it take the new one.
  Status BuildRoute(int index, std::vector<RouteSegment> segments, bool closed,
                    const std::string& name);
  // The characters feature's walkers, started at the scene time with the stage's routes and
  // obstacles: a route (none: stops where it is), or a point (and heading).
  Status StartRoute(Character& character, RouteId route, PlayMode mode);
  Status StartGoTo(Character& character, glm::dvec2 point, const double* heading);
  // One character of a scene being applied (its models at model_index); its problems, one a line.
  std::string AddSceneInstance(const Scene& scene, size_t i, const std::vector<int>& model_index);
  // Parts of State(): the models and the characters.
  JsonValue ModelsJson() const;
  JsonValue InstancesJson() const;
  void DrawRouteOverlays(DrawList& list);

  // Mouse tools: go-to and route drawing (viewer_tools.cpp).
  bool ToolPress(double x, double y);
  // The construction view's handles, taken before the tools: true when the press took one.
  bool ConstructionHandlePress(std::optional<glm::dvec2> ground, glm::dvec2 screen, double pick);
  void ToolMove(double x, double y);
  void ToolRelease(double x, double y);
  void CommitEditedRoute();
  void StartEditingRoute(int route);
  // Who walks the routes (the characters, the selected one), for the routes' checks.
  RouteWalkers Walkers() const { return RouteWalkers{&cast_.all(), cast_.Selected()}; }
  // The handle of the route at a position (none out of range).
  RouteId RouteAt(int route) const {
    const ViewerRoute* at = routes_.At(route);
    return at ? at->id : RouteId();
  }
  // The characters walking the route take it again from where they are (it was built anew).
  void RestartWalkersOn(RouteId route);
  void UpdateHover();
  void DrawToolOverlays(DrawList& list);

  // The stage's side of the obstacles feature (stage_obstacles.cpp).
  // What an edit of the obstacles means for the rest: refused, the status line says why;
  // changed, the walkers going somewhere plan again.
  Status AfterObstacleEdit(ObstacleEdit edit);
  // Characters going to a target plan again from where they are (after obstacles or clearances
  // change); returns the messages of those that found no path (they stop).
  std::string ReplanTargets();
  // With avoidance on, the crowd built anew when an edit (or characters added or removed) needs
  // it: the scene as it is now (CurrentScene) through the core's conversion (crowd_scene.h).
  void BuildCrowd();
  // Replaces each segment of the route that comes within the clearance of an obstacle by a
  // planned path between its ends (same end headings), as Beziers; all or nothing.
  Status RouteAroundWith(int route, double turning_radius, double clearance);
  bool ObstacleToolPress(glm::dvec2 ground, glm::dvec2 screen, double pick_radius);
  void ObstacleToolRelease();
  void ClosePolygonDraft();

  // Embeds: the loop range and "finished", run each frame after the clock moves; events go to
  // the host (embed_timeline.h).
  EmbedClock MeasureEmbedClock() const;
  void RunEmbedTimeline();

  // What an opening asks of the stage (OpeningTarget; PrepareScene, ApplyPendingScene and
  // CancelPendingScene are public commands too).
  JsonValue LoadFetchedFiles(std::vector<InputFile> files) override;
  void LoadFetchedImages(std::vector<InputFile> images) override;
  void PresentModelLink() override;
  void AddOpeningWarnings(const std::vector<std::string>& warnings) override;

  // Plays a cinematic camera (-1: back to the orbit camera, as it was); a drag under way stops.
  void PlayCamera(int index);

  RenderBackend* backend_;
  StageHost* host_;
  std::unique_ptr<ModelLibrary> library_;
  CharacterCast cast_;  // the characters (reads the library's models)
  std::vector<InputFile> pending_files_;
  RouteBook routes_;                      // the routes and the pen editing one
  ObstacleField obstacles_;               // the obstacles, their tool and planning around them
  std::unique_ptr<Scene> pending_scene_;  // prepared, waiting for its files
  SceneOpener opener_;                    // scene openings, one at a time
  CameraRig camera_;                      // the orbit camera, following, cinematic cameras
  ViewOptions options_;
  Viewport viewport_;
  PointerState pointer_;
  KeyQueue keys_;
  ui::Tool tool_ = ui::Tool::kCamera;
  GoToTool go_to_;
  std::string hover_text_;
  double scene_time_ = 0.0;
  bool scene_playing_ = true;
  double time_scale_ = 1.0;
  EmbedTimeline embed_timeline_;
  StatusReport report_;
  ui::FrameStats stats_;
  std::vector<std::pair<std::string, glm::vec4>> item_rects_;  // the panels' last frame
  // What the construction view drew last (state() and the tests read the very numbers drawn).
  ConstructionFigure construction_;
  uint64_t frame_ = 0;
  std::vector<Hotspot> hotspots_;
  std::vector<float> placed_hotspots_;  // kHotspotFloats per hotspot
};

}  // namespace md5stage::viewer
