#include "viewer/construction_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/constants.hpp>

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

void MakeConstructionFigure(const Character& character, int instance, double time,
                            ConstructionFigure* out) {
  ConstructionFigure& figure = *out;
  figure.shown = false;
  figure.has_walk = false;
  figure.instance = instance;
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
  for (const ConstructionLabel& label : figure.labels) {
    glm::dvec2 pixel;
    if (!WorldToPixel(list.view_projection, list.width, list.height, Ground(label.at), &pixel)) {
      continue;
    }
    const bool unreachable =
        label.side >= 0 && !figure.numbers.sides[static_cast<size_t>(label.side)].reachable;
    list.texts.push_back({glm::vec2(pixel), unreachable ? kUnreachable : kText, label.text});
  }
}

JsonValue ConstructionFigureJson(const ConstructionFigure& figure) {
  if (!figure.shown) return JsonValue();
  const auto point = PointJson;
  JsonValue out = JsonValue::MakeObject();
  out.Set("instance", figure.instance);
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
  out.Set("walk", WalkJson(figure));
  return out;
}

}  // namespace md5stage::viewer
