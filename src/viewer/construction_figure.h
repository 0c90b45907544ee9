// The turning-radius construction as the viewer draws it (display toggle `construction`): Pinter's
// Figures 5 and 6 for a character's go-to target, every point and number from TurnConstructionJob.
#pragma once

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
  glm::dvec2 at{0.0, 0.0};
  std::string text;
};

struct ConstructionFigure {
  bool shown = false;
  int instance = -1;
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
};

// The walk's segments are drawn in kWalkColor, the one the follower is on in kWalkCurrentColor
// (brighter), and a marker at its pose in kWalkMarkerColor.
constexpr Rgba8 kWalkColor{80, 170, 255, 130};
constexpr Rgba8 kWalkCurrentColor{130, 225, 255, 255};
constexpr Rgba8 kWalkMarkerColor{255, 255, 255, 255};

// The figure of a character's current point or pose target (instance is its index) and of its
// walk at `time` (the scene time): not shown without a target, or while it follows a path
// planned round obstacles (no arc + line there).
void MakeConstructionFigure(const Character& character, int instance, double time,
                            ConstructionFigure* out);

// Its lines (drawn on top, the chosen side or shortest word bright, the rest dimmed, an
// unreachable side red), the walk's segments and marker, and its labels as texts at the list's
// projection of their ground points.
void DrawConstructionFigure(const ConstructionFigure& figure, DrawList& list);

// The figure's numbers for state(): per side P, h, phi, reachable, d, theta, Q, length, chosen;
// the Dubins words that exist with their lengths; the walk (null without one): its stage, its
// segments (kind, length, start, start_distance; arcs also centre and sweep), current_segment,
// distance_into_segment, position, heading and arrived. Null when not shown.
JsonValue ConstructionFigureJson(const ConstructionFigure& figure);

// "approach", "at_end", "planned", "route", "route_backwards", "loop_back", "turn_at_end",
// "turn_at_start": a follower stage as state() names it.
const char* FollowerStageName(FollowerStage stage);

// "h = 95.2", "theta = 41.4 deg": the label texts (ASCII, which every font the views use has).
std::string ConstructionLabelText(const std::string& name, double value);

}  // namespace md5stage::viewer
