// The turning-radius construction as the viewer draws it (display toggle `construction`): Pinter's
// Figures 5 and 6 for a character's go-to target, every point and number from TurnConstructionJob.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/common/json.h"
#include "core/path/turn_construction.h"
#include "viewer/character.h"
#include "viewer/render_interface.h"

namespace md5stage::viewer {

// A number of the figure pinned to a ground point. `value` is the core's own number (radians for
// angles, which the text shows in degrees), kept beside the text so tests compare it exactly;
// P and Q name their point (`at`) and carry value 0; an unreachable side's "length" carries h.
struct ConstructionLabel {
  std::string name;  // "P", "Q", "r", "h", "d", "theta", "phi", "length", or a Dubins word
  int side = -1;     // 0 left, 1 right circle; -1 for Dubins words
  double value = 0.0;
  glm::dvec2 at{0.0, 0.0};  // the ground point it labels (its anchor)
  std::string text;
  // Where PlaceConstructionLabels put the text (a DrawList text position, framebuffer pixels):
  // at or near the anchor's pixel; not placed (and not drawn) when no free place was near it.
  bool placed = false;
  glm::dvec2 pixel{0.0, 0.0};
};

// A label's text box on screen. The viewer draws DrawList texts with ImGui's default font
// (ProggyClean: every glyph 7 px wide, 13 px lines, scaled by the pixel ratio; src/app/app.cpp);
// the figures module's page draws them with the 2D canvas at 12 px system-ui (DejaVu Sans on
// Debian, whose advances average 6.2-6.8 px over these ASCII texts), 4 px right of the point and
// vertically centred on it (web/md5stage-element.js, _drawTexts). So a box is 7 px a character,
// 15 px high (12 px and the 3 px outline), from the point to 4 px + the text right of it and
// centred on it: CSS pixels, times the device pixel ratio. ImGui draws from the top-left, half a
// line lower, which moves every box alike and so keeps them apart.
constexpr double kLabelCharWidthCssPixels = 7.0;
constexpr double kLabelHeightCssPixels = 15.0;
constexpr double kLabelTextOffsetCssPixels = 4.0;
// A text is placed at most this far (CSS pixels, anchor to its box's nearest point) from its
// anchor, so it still reads as that point's: two lines above or below it.
constexpr double kLabelMaxDistanceCssPixels = 2.0 * kLabelHeightCssPixels;

// The box [x0, y0, x1, y1] (framebuffer pixels) of a text of `characters` drawn at `position`.
glm::dvec4 LabelTextBox(glm::dvec2 position, size_t characters, float device_pixel_ratio);

struct ConstructionFigure {
  bool shown = false;
  CharacterId character;
  // The job's inputs: the approach's start, the follower's radius, the target.
  Pose2 origin;
  double radius = 0.0;
  glm::dvec2 destination{0.0, 0.0};
  bool has_final_heading = false;
  double final_heading = 0.0;
  TurnConstruction numbers;
  std::vector<ConstructionLabel> labels;
  // Pinter's Listing 2: the segments the follower walks at the figure's time, as FollowerWalkJob
  // gives them; has_walk is false when the follower's stage has no turn path.
  bool has_walk = false;
  FollowerWalk walk;
  // The drag handles (ConstructionHandleTool): the origin is origin.position; this point lies
  // ConstructionHeadingHandleDistance(radius) ahead of it along origin.heading.
  glm::dvec2 heading_handle{0.0, 0.0};
};

// The heading handle's distance from the origin: the radius (so it scales with the figure), and
// at least 10 so that radius 0 still has one to take.
inline double ConstructionHeadingHandleDistance(double radius) { return std::max(radius, 10.0); }

// The handles are drawn as circles in kHandleColor, joined by a line.
constexpr Rgba8 kHandleColor{255, 150, 60, 255};

// The walk's segments are drawn in kWalkColor, the one the follower is on in kWalkCurrentColor
// (brighter), and a marker at its pose in kWalkMarkerColor.
constexpr Rgba8 kWalkColor{80, 170, 255, 130};
constexpr Rgba8 kWalkCurrentColor{130, 225, 255, 255};
constexpr Rgba8 kWalkMarkerColor{255, 255, 255, 255};

// The figure of a character's current point or pose target and of its walk at `time` (the scene
// time): not shown without a target, or while it follows a path planned round obstacles (no
// arc + line there).
void MakeConstructionFigure(const Character& character, double time, ConstructionFigure* out);

// Places the labels' texts on screen (greedy, in priority order: the chosen side's P, Q and
// length or the shortest Dubins word, then the other side's or the other words, then h and d, r
// and the angles, the chosen side's first): each at the first of a few places round its anchor's
// pixel (right of it, above and below, left, further up and down; each also pushed inside the view)
// whose box lies in the view, meets no box placed before it and is within
// kLabelMaxDistanceCssPixels of the anchor. A label with no such place (or whose anchor is behind
// the camera) is left out.
void PlaceConstructionLabels(ConstructionFigure* figure, const glm::mat4& view_projection,
                             int width, int height, float device_pixel_ratio);

// Its lines (drawn on top, the chosen side or shortest word bright, the rest dimmed, an
// unreachable side red), the walk's segments and marker, the handles, and its placed labels as
// texts.
void DrawConstructionFigure(const ConstructionFigure& figure, DrawList& list);

// The figure's numbers for state(): origin [x, y, heading], radius, destination; per side P, h,
// phi, reachable, d, theta, Q, length, chosen; the Dubins words that exist with their lengths; the
// handles (origin, heading: ground points); the labels (name, side, text, at, and pixel: where the
// text was placed, null when left out); the walk (null without one): its stage, its segments
// (kind, length, start, start_distance; arcs also centre and sweep), current_segment,
// distance_into_segment, position, heading and arrived. Null when not shown.
// `instance` is the figure's character's position in state()'s list (its handle is "character").
JsonValue ConstructionFigureJson(const ConstructionFigure& figure, int instance);

// "approach", "at_end", "planned", "route", "route_backwards", "loop_back", "turn_at_end",
// "turn_at_start": a follower stage as state() names it.
const char* FollowerStageName(FollowerStage stage);

// "h = 95.2", "theta = 41.4 deg": the label texts (ASCII, which every font the views use has).
std::string ConstructionLabelText(const std::string& name, double value);

}  // namespace md5stage::viewer
