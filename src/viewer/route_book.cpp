// The routes feature (route_book.h): building, removing and editing routes, their checks
// against who walks them, and their drawing and reports.
#include "viewer/route_book.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/constants.hpp>

#include "core/path/corner_rounding.h"
#include "core/path/route_editor.h"
#include "core/path/route_json.h"
#include "core/path/route_obstacles.h"
#include "core/scene/scene_json.h"

namespace md5stage::viewer {
namespace {

constexpr float kPenLift = 0.1f;  // the pen's anchors, above the routes

}  // namespace

// ---- who walks them ----------------------------------------------------------------------------

double RouteWalkers::TurnRadius(RouteId route) const {
  double radius = 0.0;
  if (characters == nullptr || !route.valid()) return radius;
  for (const Character& character : *characters) {
    if (character.locomotion.enabled && character.locomotion.route == route) {
      radius = std::max(radius, character.locomotion.turn_radius);
    }
  }
  return radius;
}

double RouteWalkers::RoundingRadius(RouteId route) const {
  const double radius = TurnRadius(route);
  if (radius <= 0.0 && selected != nullptr) return selected->locomotion.turn_radius;
  return radius;
}

double RouteWalkers::Clearance(RouteId route) const {
  double clearance = -1.0;
  if (characters != nullptr && route.valid()) {
    for (const Character& character : *characters) {
      if (character.locomotion.enabled && character.locomotion.route == route) {
        clearance = std::max(clearance, character.locomotion.clearance);
      }
    }
  }
  if (clearance < 0.0 && selected != nullptr) clearance = selected->locomotion.clearance;
  return std::max(clearance, 0.0);
}

// ---- the routes --------------------------------------------------------------------------------

int RouteBook::IndexOf(RouteId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < routes_.size(); ++i) {
    if (routes_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

std::shared_ptr<const Route> RouteBook::Built(RouteId id) const {
  const int index = IndexOf(id);
  return index >= 0 ? routes_[static_cast<size_t>(index)].route : nullptr;
}

Status RouteBook::Build(int index, std::vector<RouteSegment> segments, bool closed,
                        const std::string& name) {
  if (index < 0 || index > static_cast<int>(routes_.size()) ||
      index >= static_cast<int>(kMaxSceneRoutes)) {
    return MakeError("route", 0, 0, "route index " + std::to_string(index) + " is out of range");
  }
  if (segments.size() > kMaxRouteSegments) {
    return MakeError("route", 0, 0,
                     "a route holds at most " + std::to_string(kMaxRouteSegments) + " segments");
  }
  auto built = Route::Build(segments, closed);
  if (!built.ok()) return built.error();
  ViewerRoute route;
  // An edited route keeps its handle, so what walks it or edits it keeps it.
  route.id = index == static_cast<int>(routes_.size()) ? serials_.Next<HandleKind::kRoute>()
                                                       : routes_[static_cast<size_t>(index)].id;
  route.name = name.empty() ? "route " + std::to_string(index + 1) : name;
  route.closed = closed;
  route.drawn_segments = segments;
  route.segments = std::move(segments);
  route.route = std::make_shared<const Route>(std::move(built).value());
  if (index == static_cast<int>(routes_.size())) {
    routes_.push_back(std::move(route));
  } else {
    routes_[static_cast<size_t>(index)] = std::move(route);
  }
  return Status();
}

void RouteBook::AddUnbuilt(const SceneRoute& route) {
  ViewerRoute unbuilt;
  unbuilt.id = serials_.Next<HandleKind::kRoute>();
  unbuilt.name = route.name;
  unbuilt.closed = route.closed;
  unbuilt.segments = route.segments;
  routes_.push_back(std::move(unbuilt));
}

Status RouteBook::Remove(int index, RouteId* removed) {
  if (index < 0 || index >= size()) {
    return MakeError("route", 0, 0,
                     "route " + std::to_string(index) + ": the scene has " +
                         std::to_string(routes_.size()) + " routes");
  }
  *removed = routes_[static_cast<size_t>(index)].id;
  routes_.erase(routes_.begin() + index);
  if (pen_.edited_route() == *removed) pen_.Reset();
  return Status();
}

void RouteBook::Clear() {
  routes_.clear();
  pen_.Reset();
}

void RouteBook::WriteScene(std::vector<SceneRoute>* routes) const {
  for (const ViewerRoute& route : routes_) {
    routes->push_back(SceneRoute{route.name, route.closed, route.segments});
  }
}

// ---- the pen -----------------------------------------------------------------------------------

bool RouteBook::StartEditing(int index, std::string* error) {
  pen_.Reset();
  if (index < 0 || index >= size()) return true;
  const ViewerRoute& route = routes_[static_cast<size_t>(index)];
  auto editor = RouteEditor::FromSegments(route.drawn_segments, route.closed);
  if (!editor.ok()) {
    *error = editor.error().ToString();
    return false;
  }
  pen_.Edit(std::move(editor).value(), route.id);
  return true;
}

int RouteBook::CommitEdited(const RouteWalkers& walkers, std::string* error) {
  std::vector<RouteSegment> drawn = pen_.editor().Segments();
  if (drawn.empty()) return -1;  // one point: nothing to build yet
  const int edited = IndexOf(pen_.edited_route());
  const int index = edited >= 0 ? edited : size();
  std::vector<RouteSegment> segments = drawn;
  bool closed = pen_.editor().closed();
  const double radius = walkers.RoundingRadius(pen_.edited_route());
  if (pen_.auto_round() && radius > 0.0) {
    auto rounded = RoundCorners(drawn, closed, radius);
    if (rounded.ok()) {
      segments = rounded.value().segments;
      closed = rounded.value().closed;
    }
  }
  const std::string name = index < size() ? routes_[static_cast<size_t>(index)].name : "";
  Status status = Build(index, std::move(segments), closed, name);
  if (!status.ok()) {
    *error = status.error().message;
    return -1;
  }
  routes_[static_cast<size_t>(index)].drawn_segments = std::move(drawn);
  pen_.set_edited_route(routes_[static_cast<size_t>(index)].id);
  return index;
}

// ---- checks and reports ------------------------------------------------------------------------

JsonValue RouteBook::Json(const RouteWalkers& walkers, const ObstacleSet& obstacles) const {
  JsonArray list;
  for (size_t r = 0; r < routes_.size(); ++r) {
    const ViewerRoute& route = routes_[r];
    JsonValue json = RouteToJson(route.segments, route.closed);
    json.Set("id", HandleText(route.id));
    json.Set("name", route.name);
    json.Set("valid", route.route != nullptr);
    json.Set("length", route.route ? route.route->length() : 0.0);
    // Stretches tighter than the largest turning radius of the characters assigned to it.
    const double radius = walkers.TurnRadius(route.id);
    json.Set("check_radius", radius);
    json.Set("tight", route.route && radius > 0.0
                          ? TightStretchesToJson(route.route->FindTightStretches(radius))
                          : JsonValue::MakeArray());
    // Stretches within the clearance of an obstacle (the walkers', else the selected's).
    const double clearance = walkers.Clearance(route.id);
    json.Set("check_clearance", clearance);
    json.Set("crossing", route.route && !obstacles.empty()
                             ? ObstacleStretchesToJson(
                                   FindObstacleStretches(*route.route, obstacles, clearance))
                             : JsonValue::MakeArray());
    list.push_back(std::move(json));
  }
  return JsonValue(std::move(list));
}

std::vector<ui::RouteSummary> RouteBook::Summaries(const RouteWalkers& walkers,
                                                   const ObstacleSet& obstacles) const {
  std::vector<ui::RouteSummary> summaries;
  for (const ViewerRoute& route : routes_) {
    ui::RouteSummary summary;
    summary.id = HandleText(route.id);
    summary.name = route.name;
    summary.valid = route.route != nullptr;
    summary.length = route.route ? route.route->length() : 0.0;
    summary.closed = route.closed;
    summary.points = static_cast<int>(route.drawn_segments.size());
    const double radius = walkers.RoundingRadius(route.id);
    if (route.route && radius > 0.0)
      summary.tight_stretches = static_cast<int>(route.route->FindTightStretches(radius).size());
    if (route.route && !obstacles.empty()) {
      summary.obstacle_crossings = static_cast<int>(
          FindObstacleStretches(*route.route, obstacles, walkers.Clearance(route.id)).size());
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

std::string RouteBook::HoverText(glm::dvec2 ground, double reach,
                                 const RouteWalkers& walkers) const {
  for (const ViewerRoute& route : routes_) {
    if (!route.route) continue;
    const RouteNearestPoint nearest = NearestPointOnRoute(*route.route, ground);
    if (!(nearest.gap < reach)) continue;
    const double radius = walkers.RoundingRadius(route.id);
    if (radius > 0.0) {
      const std::vector<TightStretch> stretches = route.route->FindTightStretches(radius);
      const int at = FindStretchAt(*route.route, stretches, nearest.distance, reach);
      if (at >= 0) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "%s at %.1f: radius %.2f is tighter than the turning radius %.1f",
                      route.name.c_str(), nearest.distance,
                      stretches[static_cast<size_t>(at)].min_radius, radius);
        return text;
      }
    }
    char text[128];
    std::snprintf(text, sizeof text, "%s at %.1f of %.1f", route.name.c_str(), nearest.distance,
                  route.route->length());
    return text;
  }
  return "";
}

// ---- drawing -----------------------------------------------------------------------------------

void RouteBook::Draw(DrawList& list, const RouteWalkers& walkers, const ObstacleSet& obstacles,
                     float camera_distance) const {
  for (const ViewerRoute& route : routes_)
    DrawRoute(route, list, walkers, obstacles, camera_distance);
}

// The route with its tight stretches (red, ringed where tightest), the stretches crossing
// obstacles (magenta), distance ticks and direction arrows.
void RouteBook::DrawRoute(const ViewerRoute& route, DrawList& list, const RouteWalkers& walkers,
                          const ObstacleSet& obstacles, float camera_distance) const {
  const float lift = 0.05f;  // just above the grid
  if (!route.route) return;
  const double length = route.route->length();
  if (!(length > 0.0)) return;
  const double radius = walkers.TurnRadius(route.id);
  const std::vector<TightStretch> tight =
      radius > 0.0 ? route.route->FindTightStretches(radius) : std::vector<TightStretch>{};
  auto is_tight = [&](double d) {
    for (const TightStretch& t : tight) {
      if (d >= t.start_distance - 1e-9 && d <= t.end_distance + 1e-9) return true;
    }
    return false;
  };
  // Stretches that come within the clearance of an obstacle: magenta, and thicker.
  const std::vector<ObstacleStretch> crossing =
      obstacles.empty()
          ? std::vector<ObstacleStretch>{}
          : FindObstacleStretches(*route.route, obstacles, walkers.Clearance(route.id));
  auto is_crossing = [&](double d) {
    for (const ObstacleStretch& c : crossing) {
      if (d >= c.start_distance - 1e-9 && d <= c.end_distance + 1e-9) return true;
    }
    return false;
  };
  const int samples = std::clamp(static_cast<int>(length / 2.0), 64, 2000);
  glm::vec3 previous(0.0f);
  for (int i = 0; i <= samples; ++i) {
    const double d = length * i / samples;
    const Pose2 pose = route.route->Sample(d);
    const glm::vec3 p(static_cast<float>(pose.position.x), static_cast<float>(pose.position.y),
                      lift);
    if (i > 0) {
      const double mid = d - 0.5 * length / samples;
      const bool warn = is_tight(mid);
      if (is_crossing(mid)) {
        const glm::vec3 side(static_cast<float>(-std::sin(pose.heading) * camera_distance * 0.002),
                             static_cast<float>(std::cos(pose.heading) * camera_distance * 0.002),
                             0.0f);
        for (const float k : {-1.0f, 0.0f, 1.0f}) {
          list.AddLine(previous + k * side, p + k * side, {255, 60, 220, 255}, LineDepth::kOnTop);
        }
      } else {
        list.AddLine(previous, p, warn ? Rgba8{255, 70, 60, 255} : Rgba8{255, 210, 80, 255},
                     LineDepth::kOnTop);
      }
    }
    previous = p;
  }
  // A kink has no length to colour: mark every tight stretch where it is tightest.
  for (const TightStretch& stretch : tight) {
    const Pose2 pose = route.route->Sample(stretch.min_radius_distance);
    const glm::vec2 p(pose.position);
    const float r = static_cast<float>(std::max(length / 80.0, 1.0));
    glm::vec3 previous_ring(0.0f);
    for (int i = 0; i <= 24; ++i) {
      const float a = glm::two_pi<float>() * static_cast<float>(i) / 24.0f;
      const glm::vec3 q(p.x + r * std::cos(a), p.y + r * std::sin(a), lift);
      if (i > 0) list.AddLine(previous_ring, q, {255, 60, 50, 255}, LineDepth::kOnTop);
      previous_ring = q;
    }
  }
  // Distance ticks every "nice" step of true arc length, and arrows for the direction.
  const double raw_step = length / 20.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  const double step = raw_step / magnitude < 2.0   ? magnitude
                      : raw_step / magnitude < 5.0 ? 2.0 * magnitude
                                                   : 5.0 * magnitude;
  const float tick = static_cast<float>(step * 0.15);
  for (double d = 0.0; d <= length + 1e-9; d += step) {
    const Pose2 pose = route.route->Sample(d);
    const glm::vec2 n(-std::sin(pose.heading), std::cos(pose.heading));
    const glm::vec2 p(pose.position);
    list.AddLine(glm::vec3(p - n * tick, lift), glm::vec3(p + n * tick, lift), {240, 240, 240, 220},
                 LineDepth::kOnTop);
  }
  for (double d = step * 0.5; d < length; d += step * 2.0) {
    const Pose2 pose = route.route->Sample(d);
    const glm::vec2 f(std::cos(pose.heading), std::sin(pose.heading));
    const glm::vec2 n(-f.y, f.x);
    const glm::vec2 p(pose.position);
    const float size = tick * 1.5f;
    list.AddLine(glm::vec3(p, lift), glm::vec3(p - f * size + n * size * 0.6f, lift),
                 {255, 240, 150, 255}, LineDepth::kOnTop);
    list.AddLine(glm::vec3(p, lift), glm::vec3(p - f * size - n * size * 0.6f, lift),
                 {255, 240, 150, 255}, LineDepth::kOnTop);
  }
}

void RouteBook::DrawPen(DrawList& list, float camera_distance) const {
  // Anchors as squares, handles as diamonds joined to their anchor.
  const float size = 0.008f * camera_distance;
  const RouteEditor& editor = pen_.editor();
  for (size_t i = 0; i < editor.anchors().size(); ++i) {
    const RouteAnchor& anchor = editor.anchors()[i];
    const glm::vec3 p(static_cast<float>(anchor.position.x), static_cast<float>(anchor.position.y),
                      kPenLift);
    const Rgba8 color = static_cast<int>(i) == pen_.selected_anchor() ? Rgba8{255, 90, 90, 255}
                                                                      : Rgba8{255, 255, 255, 255};
    list.AddLine(p + glm::vec3(-size, -size, 0), p + glm::vec3(size, -size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(size, -size, 0), p + glm::vec3(size, size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(size, size, 0), p + glm::vec3(-size, size, 0), color,
                 LineDepth::kOnTop);
    list.AddLine(p + glm::vec3(-size, size, 0), p + glm::vec3(-size, -size, 0), color,
                 LineDepth::kOnTop);
    for (HandleSide side : {HandleSide::kIn, HandleSide::kOut}) {
      if (!anchor.has(side)) continue;
      const glm::dvec2 h = anchor.handle(side);
      const glm::vec3 q(static_cast<float>(h.x), static_cast<float>(h.y), kPenLift);
      list.AddLine(p, q, {160, 200, 255, 255}, LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(-size, 0, 0), q + glm::vec3(0, size, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(0, size, 0), q + glm::vec3(size, 0, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(size, 0, 0), q + glm::vec3(0, -size, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
      list.AddLine(q + glm::vec3(0, -size, 0), q + glm::vec3(-size, 0, 0), {160, 200, 255, 255},
                   LineDepth::kOnTop);
    }
  }
}

}  // namespace md5stage::viewer
