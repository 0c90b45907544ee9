#include "viewer/construction_figure.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <glm/gtc/constants.hpp>
#include <utility>

namespace md5stage::viewer {
namespace {

constexpr float kLift = 0.06f;  // above the approach path's lines, so the figure stays on top
constexpr Rgba8 kChosen{255, 210, 70, 255};
constexpr Rgba8 kOther{170, 175, 195, 120};
constexpr Rgba8 kUnreachable{255, 90, 90, 200};
constexpr Rgba8 kShortest{110, 255, 140, 255};
constexpr Rgba8 kWord{150, 170, 160, 110};
constexpr Rgba8 kText{240, 240, 250, 255};

glm::vec3 Ground(glm::dvec2 p) {
  return glm::vec3(static_cast<float>(p.x), static_cast<float>(p.y), kLift);
}

glm::dvec2 OnCircle(glm::dvec2 centre, double radius, double angle) {
  return centre + radius * glm::dvec2(std::cos(angle), std::sin(angle));
}

// The arc of `radius` round `centre` from angle a to b, the shorter way (a full circle for
// a == b + 2π is never asked for: circles are drawn with a = 0, b = 2π, the long way round).
void AddArc(DrawList& list, glm::dvec2 centre, double radius, double a, double b, Rgba8 color) {
  const int steps =
      std::max(2, static_cast<int>(std::ceil(std::abs(b - a) / (glm::pi<double>() / 36))));
  glm::dvec2 previous = OnCircle(centre, radius, a);
  for (int i = 1; i <= steps; ++i) {
    const glm::dvec2 p = OnCircle(centre, radius, a + (b - a) * i / steps);
    list.AddLine(Ground(previous), Ground(p), color, LineDepth::kOnTop);
    previous = p;
  }
}

void AddCross(DrawList& list, glm::dvec2 p, double size, Rgba8 color) {
  list.AddLine(Ground(p - glm::dvec2(size, 0)), Ground(p + glm::dvec2(size, 0)), color,
               LineDepth::kOnTop);
  list.AddLine(Ground(p - glm::dvec2(0, size)), Ground(p + glm::dvec2(0, size)), color,
               LineDepth::kOnTop);
}

// The signed difference b - a brought into (-π, π].
double AngleBetween(double a, double b) {
  double d = std::remainder(b - a, glm::two_pi<double>());
  if (d <= -glm::pi<double>()) d += glm::two_pi<double>();
  return d;
}

void AddLabel(ConstructionFigure& figure, const char* name, int side, double value, glm::dvec2 at) {
  figure.labels.push_back({name, side, value, at, ConstructionLabelText(name, value)});
}

// The labels of one side of the arc + line construction, each pinned where its part is drawn.
void LabelSide(ConstructionFigure& figure, int s) {
  const ArcLineConstructionSide& side = figure.numbers.sides[static_cast<size_t>(s)];
  const double r = figure.radius;
  AddLabel(figure, "P", s, 0.0, side.centre);
  AddLabel(figure, "r", s, r, 0.5 * (side.centre + figure.origin.position));
  AddLabel(figure, "h", s, side.h, 0.5 * (side.centre + figure.destination));
  AddLabel(figure, "phi", s, side.phi, OnCircle(side.centre, 0.3 * r, 0.5 * side.phi));
  // Opposite the origin on the circle: the side's length, or why it has none.
  const glm::dvec2 far = 2.0 * side.centre - figure.origin.position;
  AddLabel(figure, "length", s, side.reachable ? side.length : side.h, far);
  if (!side.reachable) {
    figure.labels.back().text = "unreachable (h < r)";
    return;
  }
  AddLabel(figure, "d", s, side.d, 0.5 * (side.leave + figure.destination));
  AddLabel(figure, "Q", s, 0.0, side.leave);
  const double middle = side.phi + 0.5 * AngleBetween(side.phi, side.leave_angle);
  AddLabel(figure, "theta", s, side.theta, OnCircle(side.centre, 0.55 * r, middle));
}

void DrawSide(const ConstructionFigure& figure, int s, DrawList& list) {
  const ArcLineConstructionSide& side = figure.numbers.sides[static_cast<size_t>(s)];
  const double r = figure.radius;
  const Rgba8 color = !side.reachable ? kUnreachable : side.chosen ? kChosen : kOther;
  if (r > 0.0) AddArc(list, side.centre, r, 0.0, glm::two_pi<double>(), color);
  AddCross(list, side.centre, 0.08 * std::max(r, 10.0), color);
  list.AddLine(Ground(side.centre), Ground(figure.origin.position), color, LineDepth::kOnTop);
  list.AddLine(Ground(side.centre), Ground(figure.destination), color, LineDepth::kOnTop);
  // φ from the x axis: a short axis line from P and the arc up to the destination's direction.
  list.AddLine(Ground(side.centre), Ground(side.centre + glm::dvec2(0.4 * r, 0.0)), color,
               LineDepth::kOnTop);
  AddArc(list, side.centre, 0.25 * r, 0.0, side.phi, color);
  if (!side.reachable) return;
  list.AddLine(Ground(side.centre), Ground(side.leave), color, LineDepth::kOnTop);
  list.AddLine(Ground(side.leave), Ground(figure.destination), color, LineDepth::kOnTop);
  AddArc(list, side.centre, 0.45 * r, side.phi, side.phi + AngleBetween(side.phi, side.leave_angle),
         color);
  AddCross(list, side.leave, 0.06 * std::max(r, 10.0), color);
}

void DrawWord(const DubinsCandidate& word, DrawList& list) {
  const TurnPath& path = word.path;
  const Rgba8 color = word.shortest ? kShortest : kWord;
  const int samples = 96;
  glm::dvec2 previous = path.start.position;
  for (int i = 1; i <= samples; ++i) {
    const glm::dvec2 p = SampleTurnPath(path, path.length * i / samples).position;
    list.AddLine(Ground(previous), Ground(p), color, LineDepth::kOnTop);
    previous = p;
  }
}

// The point `s` along a walked segment: lines from their start along its heading, arcs by turning
// the start about the centre, so the segment's first point is its start exactly.
glm::dvec2 OnWalkSegment(const WalkSegment& segment, double s) {
  if (segment.kind == TurnSegment::Kind::kLine) {
    return segment.start.position +
           s * glm::dvec2(std::cos(segment.start.heading), std::sin(segment.start.heading));
  }
  const double a = segment.length > 0.0 ? segment.sweep * s / segment.length : 0.0;
  const glm::dvec2 v = segment.start.position - segment.centre;
  return segment.centre +
         glm::dvec2(v.x * std::cos(a) - v.y * std::sin(a), v.x * std::sin(a) + v.y * std::cos(a));
}

void DrawWalk(const FollowerWalk& walk, double radius, DrawList& list) {
  for (int i = 0; i < walk.segment_count; ++i) {
    const WalkSegment& segment = walk.segments[static_cast<size_t>(i)];
    const Rgba8 color = i == walk.current_segment ? kWalkCurrentColor : kWalkColor;
    const int steps = segment.kind == TurnSegment::Kind::kLine
                          ? 1
                          : std::max(1, static_cast<int>(std::ceil(std::abs(segment.sweep) /
                                                                   (glm::pi<double>() / 36))));
    glm::dvec2 previous = segment.start.position;
    for (int k = 1; k <= steps; ++k) {
      const glm::dvec2 p = OnWalkSegment(segment, segment.length * k / steps);
      list.AddLine(Ground(previous), Ground(p), color, LineDepth::kOnTop);
      previous = p;
    }
  }
  // Where the follower is and which way it faces: a cross and an arrow from that point.
  const double size = 0.5 * std::max(radius, 10.0);
  const glm::dvec2 at = walk.pose.position;
  const glm::dvec2 ahead(std::cos(walk.pose.heading), std::sin(walk.pose.heading));
  const glm::dvec2 tip = at + size * ahead;
  const glm::dvec2 side(-ahead.y, ahead.x);
  AddCross(list, at, 0.15 * size, kWalkMarkerColor);
  list.AddLine(Ground(at), Ground(tip), kWalkMarkerColor, LineDepth::kOnTop);
  list.AddLine(Ground(tip), Ground(tip - 0.25 * size * (ahead - side)), kWalkMarkerColor,
               LineDepth::kOnTop);
  list.AddLine(Ground(tip), Ground(tip - 0.25 * size * (ahead + side)), kWalkMarkerColor,
               LineDepth::kOnTop);
}

// Where a text is tried, relative to its anchor's pixel (x in box widths, y in box heights):
// right of it, then above and below, left, centred above and below, half a box further either
// way above and below, then the same two lines up or down.
constexpr double kLabelPlaces[][2] = {{0, 0},     {0, -1},    {0, 1},    {-1, 0},   {-1, -1},
                                      {-1, 1},    {-0.5, -1}, {-0.5, 1}, {0.5, -1}, {0.5, 1},
                                      {-1.5, -1}, {-1.5, 1},  {0, -2},   {0, 2},    {-1, -2},
                                      {-1, 2},    {-0.5, -2}, {-0.5, 2}, {0.5, -2}, {0.5, 2}};

// Lower is placed first: the chosen path's points and length (the shortest Dubins word), then
// the other circle's, then h and d, r, and the angles, each the chosen side's first.
int LabelRank(const ConstructionLabel& label, const ConstructionFigure& figure) {
  const std::string& name = label.name;
  bool first = label.side == figure.numbers.chosen_side;
  if (label.side < 0) {
    const int shortest = figure.numbers.shortest_dubins;
    first = shortest >= 0 &&
            name == TurnPathTypeName(figure.numbers.dubins[static_cast<size_t>(shortest)].type);
  }
  const int chosen = first ? 0 : 1;
  if (name == "P" || name == "Q") return 2 * chosen;
  if (name == "length" || label.side < 0) return 2 * chosen + 1;
  if (name == "h" || name == "d") return 4 + chosen;
  if (name == "r") return 6 + chosen;
  return 8 + chosen;  // theta, phi
}

bool Overlap(const glm::dvec4& a, const glm::dvec4& b) {
  return a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
}

// With a hair of slack, for a box pushed exactly against an edge.
bool Inside(const glm::dvec4& box, int width, int height) {
  constexpr double kSlack = 1e-9;
  return box.x >= -kSlack && box.y >= -kSlack && box.z <= width + kSlack &&
         box.w <= height + kSlack;
}

// From the anchor to the box's nearest point (0 inside it).
double DistanceToBox(glm::dvec2 p, const glm::dvec4& box) {
  const double dx = std::max({box.x - p.x, 0.0, p.x - box.z});
  const double dy = std::max({box.y - p.y, 0.0, p.y - box.w});
  return std::hypot(dx, dy);
}

// The text position that moves the box inside the view (unchanged where it fits; a box larger
// than the view stays outside).
glm::dvec2 PushedInside(glm::dvec2 position, const glm::dvec4& box, int width, int height) {
  glm::dvec2 shift(0.0);
  if (box.x < 0.0) shift.x = -box.x;
  if (box.z > width) shift.x = width - box.z;
  if (box.y < 0.0) shift.y = -box.y;
  if (box.w > height) shift.y = height - box.w;
  return position + shift;
}

JsonValue PointJson(glm::dvec2 p) { return JsonValue(JsonArray{JsonValue(p.x), JsonValue(p.y)}); }

JsonValue WalkJson(const ConstructionFigure& figure) {
  if (!figure.has_walk) return JsonValue();
  const FollowerWalk& walk = figure.walk;
  JsonValue out = JsonValue::MakeObject();
  out.Set("stage", std::string(FollowerStageName(walk.stage)));
  JsonArray segments;
  for (int i = 0; i < walk.segment_count; ++i) {
    const WalkSegment& segment = walk.segments[static_cast<size_t>(i)];
    JsonValue entry = JsonValue::MakeObject();
    const bool arc = segment.kind == TurnSegment::Kind::kArc;
    entry.Set("kind", std::string(arc ? "arc" : "line"));
    entry.Set("length", segment.length);
    entry.Set("start", PointJson(segment.start.position));
    entry.Set("start_distance", segment.start_distance);
    if (arc) {
      entry.Set("centre", PointJson(segment.centre));
      entry.Set("sweep", segment.sweep);
    }
    segments.push_back(std::move(entry));
  }
  out.Set("segments", JsonValue(std::move(segments)));
  out.Set("current_segment", walk.current_segment);
  out.Set("distance_into_segment", walk.distance_into_segment);
  out.Set("position", PointJson(walk.pose.position));
  out.Set("heading", walk.pose.heading);
  out.Set("arrived", walk.arrived);
  return out;
}

}  // namespace

glm::dvec4 LabelTextBox(glm::dvec2 position, size_t characters, float device_pixel_ratio) {
  const double ratio = device_pixel_ratio > 0.0f ? device_pixel_ratio : 1.0;
  const double half = 0.5 * kLabelHeightCssPixels * ratio;
  const double w =
      (kLabelTextOffsetCssPixels + kLabelCharWidthCssPixels * static_cast<double>(characters)) *
      ratio;
  return glm::dvec4(position.x, position.y - half, position.x + w, position.y + half);
}

void PlaceConstructionLabels(ConstructionFigure* figure, const glm::mat4& view_projection,
                             int width, int height, float device_pixel_ratio) {
  std::vector<ConstructionLabel>& labels = figure->labels;
  // At most 2 x 8 arc + line labels or 6 Dubins words: fixed arrays, no allocation a frame.
  constexpr size_t kMaxLabels = 32;
  const size_t count = std::min(labels.size(), kMaxLabels);
  std::array<size_t, kMaxLabels> order{};
  std::array<int, kMaxLabels> rank{};
  for (size_t i = 0; i < count; ++i) {
    order[i] = i;
    rank[i] = LabelRank(labels[i], *figure);
  }
  // An insertion sort: stable, and unlike std::stable_sort it never asks for a buffer.
  for (size_t i = 1; i < count; ++i) {
    for (size_t j = i; j > 0 && rank[order[j]] < rank[order[j - 1]]; --j) {
      std::swap(order[j], order[j - 1]);
    }
  }
  for (ConstructionLabel& label : labels) label.placed = false;
  const double ratio = device_pixel_ratio > 0.0f ? device_pixel_ratio : 1.0;
  const double reach = kLabelMaxDistanceCssPixels * ratio;
  std::array<glm::dvec4, kMaxLabels> placed{};
  size_t placed_count = 0;
  for (size_t k = 0; k < count; ++k) {
    ConstructionLabel& label = labels[order[k]];
    glm::dvec2 anchor;
    if (!WorldToPixel(view_projection, width, height, Ground(label.at), &anchor)) continue;
    const glm::dvec4 natural = LabelTextBox(anchor, label.text.size(), device_pixel_ratio);
    const double w = natural.z - natural.x, h = natural.w - natural.y;
    for (const auto& place : kLabelPlaces) {
      glm::dvec2 at = anchor + glm::dvec2(place[0] * w, place[1] * h);
      glm::dvec4 box = LabelTextBox(at, label.text.size(), device_pixel_ratio);
      if (!Inside(box, width, height)) {
        at = PushedInside(at, box, width, height);
        box = LabelTextBox(at, label.text.size(), device_pixel_ratio);
        if (!Inside(box, width, height)) continue;
      }
      if (DistanceToBox(anchor, box) > reach) continue;
      bool free = true;
      for (size_t j = 0; j < placed_count && free; ++j) free = !Overlap(box, placed[j]);
      if (!free) continue;
      label.placed = true;
      label.pixel = at;
      placed[placed_count++] = box;
      break;
    }
  }
}

const char* FollowerStageName(FollowerStage stage) {
  switch (stage) {
    case FollowerStage::kApproach:
      return "approach";
    case FollowerStage::kAtEnd:
      return "at_end";
    case FollowerStage::kPlanned:
      return "planned";
    case FollowerStage::kRoute:
      return "route";
    case FollowerStage::kRouteBackwards:
      return "route_backwards";
    case FollowerStage::kLoopBack:
      return "loop_back";
    case FollowerStage::kTurnAtEnd:
      return "turn_at_end";
    case FollowerStage::kTurnAtStart:
      return "turn_at_start";
  }
  return "approach";
}

std::string ConstructionLabelText(const std::string& name, double value) {
  char text[96];
  if (name == "P" || name == "Q") return name;
  if (name == "theta" || name == "phi") {
    std::snprintf(text, sizeof text, "%s = %.1f deg", name.c_str(),
                  value * 180.0 / glm::pi<double>());
  } else if (name == "length") {
    std::snprintf(text, sizeof text, "length %.1f", value);
  } else {
    std::snprintf(text, sizeof text, "%s = %.1f", name.c_str(), value);
  }
  return text;
}

void MakeConstructionFigure(const Character& character, double time, ConstructionFigure* out) {
  ConstructionFigure& figure = *out;
  figure.shown = false;
  figure.has_walk = false;
  figure.character = character.id;
  figure.labels.clear();
  const Locomotion& locomotion = character.locomotion;
  if (!locomotion.enabled || !locomotion.has_target || locomotion.follower.planned() != nullptr) {
    return;
  }
  // Where the approach began (before a scene's start delay, the pose it will begin from).
  figure.origin = locomotion.follower.approach().start;
  figure.radius = locomotion.follower.turning_radius();
  figure.destination = locomotion.target;
  figure.has_final_heading = locomotion.target_has_heading;
  figure.final_heading = locomotion.target_heading;
  figure.heading_handle =
      figure.origin.position +
      ConstructionHeadingHandleDistance(figure.radius) *
          glm::dvec2(std::cos(figure.origin.heading), std::sin(figure.origin.heading));
  TurnConstructionJob job;
  job.origin = figure.origin;
  job.radius = figure.radius;
  job.destination = figure.destination;
  job.has_final_heading = figure.has_final_heading;
  job.final_heading = figure.final_heading;
  job.out = &figure.numbers;
  if (!job.Run().ok()) return;
  figure.shown = true;
  FollowerWalkJob walk_job;
  walk_job.follower = &locomotion.follower;
  walk_job.time = time;
  walk_job.out = &figure.walk;
  figure.has_walk = walk_job.Run().ok() && figure.walk.segment_count > 0;
  if (figure.has_final_heading) {
    for (const DubinsCandidate& word : figure.numbers.dubins) {
      if (!word.exists) continue;
      AddLabel(figure, TurnPathTypeName(word.type), -1, word.path.length,
               SampleTurnPath(word.path, 0.5 * word.path.length).position);
      figure.labels.back().text =
          figure.labels.back().name + " " + ConstructionLabelText("length", word.path.length);
    }
    return;
  }
  for (int s = 0; s < 2; ++s) LabelSide(figure, s);
}

void DrawConstructionFigure(const ConstructionFigure& figure, DrawList& list) {
  if (!figure.shown) return;
  if (figure.has_final_heading) {
    // The shortest last, so it is drawn over the others where they share an arc.
    for (const DubinsCandidate& word : figure.numbers.dubins) {
      if (word.exists && !word.shortest) DrawWord(word, list);
    }
    for (const DubinsCandidate& word : figure.numbers.dubins) {
      if (word.exists && word.shortest) DrawWord(word, list);
    }
  } else {
    const int chosen = figure.numbers.chosen_side;
    for (int s = 0; s < 2; ++s) {
      if (s != chosen) DrawSide(figure, s, list);
    }
    if (chosen >= 0) DrawSide(figure, chosen, list);
  }
  AddCross(list, figure.destination, 0.06 * std::max(figure.radius, 10.0), kText);
  if (figure.has_walk) DrawWalk(figure.walk, figure.radius, list);
  const double handle = 0.12 * ConstructionHeadingHandleDistance(figure.radius);
  AddArc(list, figure.origin.position, handle, 0.0, glm::two_pi<double>(), kHandleColor);
  AddArc(list, figure.heading_handle, handle, 0.0, glm::two_pi<double>(), kHandleColor);
  list.AddLine(Ground(figure.origin.position), Ground(figure.heading_handle), kHandleColor,
               LineDepth::kOnTop);
  for (const ConstructionLabel& label : figure.labels) {
    if (!label.placed) continue;
    const bool unreachable =
        label.side >= 0 && !figure.numbers.sides[static_cast<size_t>(label.side)].reachable;
    list.texts.push_back({glm::vec2(label.pixel), unreachable ? kUnreachable : kText, label.text});
  }
}

JsonValue ConstructionFigureJson(const ConstructionFigure& figure, int instance) {
  if (!figure.shown) return JsonValue();
  const auto point = PointJson;
  JsonValue out = JsonValue::MakeObject();
  out.Set("instance", instance);
  out.Set("character", HandleText(figure.character));
  out.Set("origin", JsonValue(JsonArray{JsonValue(figure.origin.position.x),
                                        JsonValue(figure.origin.position.y),
                                        JsonValue(figure.origin.heading)}));
  out.Set("radius", figure.radius);
  out.Set("destination", point(figure.destination));
  out.Set("final_heading",
          figure.has_final_heading ? JsonValue(figure.final_heading) : JsonValue());
  JsonArray sides;
  for (const ArcLineConstructionSide& side : figure.numbers.sides) {
    JsonValue entry = JsonValue::MakeObject();
    entry.Set("side", std::string(side.side == TurnSide::kLeft ? "left" : "right"));
    entry.Set("P", point(side.centre));
    entry.Set("h", side.h);
    entry.Set("phi", side.phi);
    entry.Set("reachable", side.reachable);
    if (side.reachable) {
      entry.Set("d", side.d);
      entry.Set("theta", side.theta);
      entry.Set("Q", point(side.leave));
      entry.Set("length", side.length);
    }
    entry.Set("chosen", side.chosen);
    sides.push_back(std::move(entry));
  }
  out.Set("sides", JsonValue(std::move(sides)));
  JsonArray words;
  for (const DubinsCandidate& word : figure.numbers.dubins) {
    if (!figure.has_final_heading || !word.exists) continue;
    JsonValue entry = JsonValue::MakeObject();
    entry.Set("type", std::string(TurnPathTypeName(word.type)));
    entry.Set("length", word.path.length);
    entry.Set("shortest", word.shortest);
    words.push_back(std::move(entry));
  }
  out.Set("dubins", JsonValue(std::move(words)));
  JsonValue handles = JsonValue::MakeObject();
  handles.Set("origin", point(figure.origin.position));
  handles.Set("heading", point(figure.heading_handle));
  out.Set("handles", std::move(handles));
  JsonArray labels;
  for (const ConstructionLabel& label : figure.labels) {
    JsonValue entry = JsonValue::MakeObject();
    entry.Set("name", label.name);
    entry.Set("side", label.side);
    entry.Set("text", label.text);
    entry.Set("at", point(label.at));
    entry.Set("pixel", label.placed ? point(label.pixel) : JsonValue());
    labels.push_back(std::move(entry));
  }
  out.Set("labels", JsonValue(std::move(labels)));
  out.Set("walk", WalkJson(figure));
  return out;
}

}  // namespace md5stage::viewer
