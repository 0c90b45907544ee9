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
};

// The figure of a character's current point or pose target (instance is its index): not shown
// without one, or while it follows a path planned round obstacles (no arc + line there).
void MakeConstructionFigure(const Character& character, int instance, ConstructionFigure* out);

// Its lines (drawn on top, the chosen side or shortest word bright, the rest dimmed, an
// unreachable side red) and its labels as texts at the list's projection of their ground points.
void DrawConstructionFigure(const ConstructionFigure& figure, DrawList& list);

// The figure's numbers for state(): origin [x, y, heading], radius, destination; per side P, h,
// phi, reachable, d, theta, Q, length, chosen; the Dubins words that exist with their lengths; null
// when not shown.
JsonValue ConstructionFigureJson(const ConstructionFigure& figure);

// "h = 95.2", "theta = 41.4 deg": the label texts (ASCII, which every font the views use has).
std::string ConstructionLabelText(const std::string& name, double value);

}  // namespace md5stage::viewer
