// Obstacles in the viewer: the set and its edits (tool and commands), go-to planned around them
// with the core's ObstaclePlanJob (per-character scratch), replanning when they change, routes
// marked where they cross them and routed around them, and their drawing (filled shapes, the
// planned paths with their turning circles).
#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

#include "core/path/polygon_triangulation.h"
#include "core/path/route_obstacles.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

constexpr float kFillLift = 0.02f;     // just above the grid, below the route lines
constexpr float kOutlineLift = 0.06f;  // the outlines draw with the routes
// The planner needs a turning radius > 0; a character that turns on the spot plans with this.
constexpr double kMinPlanRadius = 1.0;
// Route-around writes arcs as Beziers of at most 15°: the cubic's distance from the circle is then
// below 1e-8 of the radius and its curvature within about 1e-5 of the circle's, so planning with
// the radius widened by 1e-3 keeps the route within the turning radius and the clearance.
constexpr double kMaxBezierSweep = glm::pi<double>() / 12.0;
constexpr double kBezierRadiusMargin = 1.001;

glm::vec3 Ground(glm::dvec2 p, float lift) {
  return glm::vec3(static_cast<float>(p.x), static_cast<float>(p.y), lift);
}

// The cubic Bezier through an arc of the circle (centre, radius) from angle a0 to a1 (|a1 - a0| is
// small): control points on the tangents at distance 4/3·tan(sweep/4)·radius.
RouteSegment ArcBezier(glm::dvec2 centre, double radius, double a0, double a1) {
  const double k = 4.0 / 3.0 * std::tan((a1 - a0) / 4.0) * radius;
  const glm::dvec2 p0 = centre + radius * glm::dvec2(std::cos(a0), std::sin(a0));
  const glm::dvec2 p3 = centre + radius * glm::dvec2(std::cos(a1), std::sin(a1));
  const glm::dvec2 t0(-std::sin(a0), std::cos(a0)), t1(-std::sin(a1), std::cos(a1));
  return RouteSegment::Bezier(p0, p0 + k * t0, p3 - k * t1, p3);
}

// A planned path as route segments: lines as lines, arcs as short Beziers. Segments of no length
// are left out; consecutive pieces share their end points exactly.
void AppendPlannedSegments(const PlannedPath& path, std::vector<RouteSegment>* out) {
  for (const TurnSegment& segment : path.segments) {
    if (!(segment.length > 1e-9)) continue;
    const glm::dvec2 start = segment.start.position;
    if (segment.kind == TurnSegment::Kind::kLine) {
      const Pose2 end = TurnSegmentEnd(segment);
      out->push_back(RouteSegment::Line(start, end.position));
      continue;
    }
    const int pieces =
        std::max(1, static_cast<int>(std::ceil(std::abs(segment.sweep) / kMaxBezierSweep)));
    for (int i = 0; i < pieces; ++i) {
      const double a0 = segment.start_angle + segment.sweep * i / pieces;
      const double a1 = segment.start_angle + segment.sweep * (i + 1) / pieces;
      out->push_back(ArcBezier(segment.centre, segment.radius, a0, a1));
    }
  }
  // Join the pieces exactly (the arcs' end points are computed, not copied).
  for (size_t i = 1; i < out->size(); ++i) (*out)[i].points[0] = (*out)[i - 1].end();
}

}  // namespace

// ---- the set -----------------------------------------------------------------------------------

Status Stage::SetObstacles(std::vector<Obstacle> obstacles, std::vector<ObstacleId> ids) {
  auto built = ObstacleSet::Build(std::move(obstacles));
  if (!built.ok()) return built.error();
  obstacles_.set = std::move(built).value();
  obstacles_.ids = std::move(ids);
  obstacles_.fill_dirty = true;
  // A removed obstacle is no longer selected; any other stays selected where it moved to.
  if (ObstacleIndex(selection_.obstacle) < 0) selection_.obstacle = ObstacleId();
  const std::string problems = ReplanTargets();
  if (!problems.empty()) SetError(problems);
  return Status();
}

int Stage::ObstacleAt(glm::dvec2 ground) const {
  // The last drawn is on top: picked first.
  for (int i = static_cast<int>(obstacles_.set.size()) - 1; i >= 0; --i) {
    if (ObstacleContains(obstacles_.set.obstacles()[static_cast<size_t>(i)], ground)) return i;
  }
  return -1;
}

// ---- planning ----------------------------------------------------------------------------------

Status Stage::PlanGoTo(Character& character, glm::dvec2 point, const double* heading) {
  Locomotion& locomotion = character.locomotion;
  ObstaclePlanResult result;
  ObstaclePlanJob job;
  job.start = locomotion.follower.PoseAt(scene_time_);
  job.goal = point;
  job.has_goal_heading = heading != nullptr;
  job.goal_heading = heading != nullptr ? *heading : 0.0;
  job.turning_radius = std::max(locomotion.turn_radius, kMinPlanRadius);
  job.clearance = locomotion.clearance;
  job.obstacles = &obstacles_.set;
  // A count of expansions, not a clock (kDefaultPlanBudget unless setPlanBudget asked for
  // another): the same answer as `md5stage plan` and on any machine, however loaded.
  job.limits.budget = obstacles_.plan_budget;
  job.scratch = &locomotion.plan_scratch;
  job.path = &locomotion.plan;
  job.result = &result;
  Status status = job.Run();
  locomotion.plan_result = result;
  if (!status.ok()) {
    locomotion.plan_message = status.error().message;
    return MakeError("goTo", 0, 0, locomotion.plan_message);
  }
  if (!result.found()) {
    locomotion.plan_message = std::string("no path: ") + result.reason;
    return MakeError("goTo", 0, 0, locomotion.plan_message);
  }
  status = locomotion.follower.GoToPlanned(scene_time_, locomotion.plan);
  if (!status.ok()) {
    locomotion.plan_message = status.error().message;
    return status;
  }
  locomotion.plan_message.clear();
  return Status();
}

std::string Stage::ReplanTargets() {
  std::string problems;
  for (size_t i = 0; i < characters_.size(); ++i) {
    Character& character = characters_[i];
    Locomotion& locomotion = character.locomotion;
    if (!locomotion.enabled || !locomotion.has_target) continue;
    if (locomotion.follower.ArrivedAt(scene_time_)) continue;
    // A plan that has not begun yet (a scene's start delay) is planned again from its start.
    const double now = scene_time_;
    scene_time_ = std::max(scene_time_, locomotion.plan_start);
    const glm::dvec2 target = locomotion.target;
    const double heading = locomotion.target_heading;
    Status status =
        StartGoTo(character, target, locomotion.target_has_heading ? &heading : nullptr);
    scene_time_ = now;
    if (!status.ok()) {
      // No way there any more: it stops where it is and keeps the target for the next change.
      locomotion.follower.Stop(std::max(scene_time_, locomotion.plan_start));
      problems += character.label + ": " + status.error().message + "\n";
    }
  }
  if (!problems.empty()) problems.pop_back();
  return problems;
}

double Stage::RouteClearance(int route) const {
  const RouteId id =
      route >= 0 && route < static_cast<int>(routes_.size()) ? routes_[route].id : RouteId();
  double clearance = -1.0;
  for (const Character& character : characters_) {
    if (character.locomotion.enabled && character.locomotion.route == id) {
      clearance = std::max(clearance, character.locomotion.clearance);
    }
  }
  if (const Character* selected = FindCharacter(selection_.character);
      clearance < 0.0 && selected != nullptr) {
    clearance = selected->locomotion.clearance;
  }
  return std::max(clearance, 0.0);
}

Status Stage::RouteAroundWith(int route, double turning_radius, double clearance) {
  if (route < 0 || route >= static_cast<int>(routes_.size()) ||
      !routes_[static_cast<size_t>(route)].route) {
    return MakeError("routeAround", 0, 0, "no valid route " + std::to_string(route));
  }
  const ViewerRoute& current = routes_[static_cast<size_t>(route)];
  std::vector<RouteSegment> segments;
  int replaced = 0;
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  for (size_t i = 0; i < current.segments.size(); ++i) {
    const RouteSegment& segment = current.segments[i];
    auto single = Route::Build({segment}, false);
    if (!single.ok() || FindObstacleStretches(single.value(), obstacles_.set, clearance).empty()) {
      segments.push_back(segment);
      continue;
    }
    // The same ends and end headings, so the route stays smooth where it was.
    const Pose2 start = single.value().Sample(0.0);
    const Pose2 end = single.value().Sample(single.value().length());
    ObstaclePlanResult result;
    ObstaclePlanJob job;
    job.start = start;
    job.goal = end.position;
    job.has_goal_heading = true;
    job.goal_heading = end.heading;
    job.turning_radius = std::max(turning_radius, kMinPlanRadius) * kBezierRadiusMargin;
    job.clearance = clearance * kBezierRadiusMargin;
    job.obstacles = &obstacles_.set;
    job.limits.budget = obstacles_.plan_budget;
    job.scratch = &scratch;
    job.path = &path;
    job.result = &result;
    Status status = job.Run();
    const std::string where = "routeAround: segment " + std::to_string(i) + ": ";
    if (!status.ok()) return MakeError("routeAround", 0, 0, where + status.error().message);
    if (!result.found()) return MakeError("routeAround", 0, 0, where + "no path: " + result.reason);
    std::vector<RouteSegment> planned;
    AppendPlannedSegments(path, &planned);
    if (planned.empty()) {
      segments.push_back(segment);
      continue;
    }
    planned.front().points[0] = segment.start();
    RouteSegment& last = planned.back();
    last.points[last.kind == RouteSegment::Kind::kLine ? 1 : 3] = segment.end();
    segments.insert(segments.end(), planned.begin(), planned.end());
    ++replaced;
  }
  if (replaced == 0) {
    return MakeError("routeAround", 0, 0,
                     "route " + std::to_string(route) + " crosses no obstacle at clearance " +
                         std::to_string(clearance));
  }
  if (segments.size() > kMaxRouteSegments) {
    return MakeError("routeAround", 0, 0,
                     "the route around would need " + std::to_string(segments.size()) +
                         " segments, more than " + std::to_string(kMaxRouteSegments));
  }
  const bool closed = current.closed;
  const std::string name = current.name;
  Status status = BuildRoute(route, std::move(segments), closed, name);
  if (!status.ok()) return status;
  if (routes_[static_cast<size_t>(route)].id == route_tool_.edited_route()) {
    StartEditingRoute(route);
  }
  return Status();
}

// ---- the obstacle tool -------------------------------------------------------------------------

bool Stage::ObstacleToolPress(glm::dvec2 ground, glm::dvec2 screen, double pick) {
  const int picked = ObstacleAt(ground);
  const ObstaclePressStep step = obstacle_tool_.Press(
      ground, picked,
      picked >= 0 ? &obstacles_.set.obstacles()[static_cast<size_t>(picked)] : nullptr,
      [&](glm::dvec2 corner) {
        glm::dvec2 pixel;
        return ProjectToScreen(Ground(corner, kOutlineLift), &pixel) &&
               std::hypot(pixel.x - screen.x, pixel.y - screen.y) <= pick;
      });
  if (step.select) {
    selection_.obstacle =
        *step.select >= 0 ? obstacles_.ids[static_cast<size_t>(*step.select)] : ObstacleId();
  }
  if (step.close_polygon) ClosePolygonDraft();
  return true;
}

void Stage::ObstacleToolMove(glm::dvec2 ground) {
  const std::optional<Obstacle> moved = obstacle_tool_.Move(ground);
  const int selected = ObstacleIndex(selection_.obstacle);
  if (!moved || selected < 0) return;
  // The shape follows the mouse; walkers replan once, when it is let go.
  std::vector<Obstacle> list = obstacles_.set.obstacles();
  list[static_cast<size_t>(selected)] = *moved;
  auto built = ObstacleSet::Build(std::move(list));
  if (built.ok()) {
    obstacles_.set = std::move(built).value();
    obstacles_.fill_dirty = true;
  }
}

void Stage::ObstacleToolRelease() {
  const ObstacleReleaseStep step =
      obstacle_tool_.Release(static_cast<double>(camera_.orbit().distance));
  if (step.add) AddObstacleShape(*step.add);
  if (step.replan) {
    // Set again (the same shapes) so that walkers replan around where it was put.
    Status status = SetObstacles(obstacles_.set.obstacles(), obstacles_.ids);
    if (!status.ok()) SetError(status.error().ToString());
  }
}

void Stage::AddObstacleShape(Obstacle obstacle) {
  Status status = AddObstacle(std::move(obstacle));
  if (!status.ok()) {
    SetError(status.error().ToString());
    return;
  }
  selection_.obstacle = obstacles_.ids.back();
}

void Stage::ClosePolygonDraft() {
  if (std::optional<Obstacle> polygon = obstacle_tool_.ClosePolygon())
    AddObstacleShape(std::move(*polygon));
}

// ---- drawing -----------------------------------------------------------------------------------

void Stage::DrawObstacles(DrawList& list) {
  if (obstacles_.fill_dirty) {
    obstacles_.fill.clear();
    std::vector<std::array<int, 3>> triangles;
    std::vector<int> remaining;
    for (const Obstacle& obstacle : obstacles_.set.obstacles()) {
      if (obstacle.kind == Obstacle::Kind::kCircle) {
        const int n = 48;
        for (int i = 0; i < n; ++i) {
          const double a0 = glm::two_pi<double>() * i / n, a1 = glm::two_pi<double>() * (i + 1) / n;
          obstacles_.fill.push_back(glm::vec2(obstacle.centre));
          obstacles_.fill.push_back(glm::vec2(
              obstacle.centre + obstacle.radius * glm::dvec2(std::cos(a0), std::sin(a0))));
          obstacles_.fill.push_back(glm::vec2(
              obstacle.centre + obstacle.radius * glm::dvec2(std::cos(a1), std::sin(a1))));
        }
        continue;
      }
      triangles.clear();
      if (!TriangulatePolygon(obstacle.vertices, &triangles, &remaining)) continue;
      for (const auto& t : triangles) {
        for (int k : t)
          obstacles_.fill.push_back(glm::vec2(obstacle.vertices[static_cast<size_t>(k)]));
      }
    }
    obstacles_.fill_dirty = false;
  }
  const Rgba8 fill{200, 70, 60, 210};
  for (size_t i = 0; i + 2 < obstacles_.fill.size(); i += 3) {
    list.AddTriangle(glm::vec3(obstacles_.fill[i], kFillLift),
                     glm::vec3(obstacles_.fill[i + 1], kFillLift),
                     glm::vec3(obstacles_.fill[i + 2], kFillLift), fill);
  }
  for (size_t o = 0; o < obstacles_.set.size(); ++o) {
    const Obstacle& obstacle = obstacles_.set.obstacles()[o];
    const Rgba8 outline = obstacles_.ids[o] == selection_.obstacle ? Rgba8{255, 255, 255, 255}
                                                                   : Rgba8{255, 140, 110, 255};
    if (obstacle.kind == Obstacle::Kind::kCircle) {
      glm::vec3 previous(0.0f);
      for (int i = 0; i <= 48; ++i) {
        const double a = glm::two_pi<double>() * i / 48;
        const glm::vec3 p = Ground(
            obstacle.centre + obstacle.radius * glm::dvec2(std::cos(a), std::sin(a)), kOutlineLift);
        if (i > 0) list.AddLine(previous, p, outline, LineDepth::kTested);
        previous = p;
      }
    } else {
      const size_t n = obstacle.vertices.size();
      for (size_t i = 0; i < n; ++i) {
        list.AddLine(Ground(obstacle.vertices[i], kOutlineLift),
                     Ground(obstacle.vertices[(i + 1) % n], kOutlineLift), outline,
                     LineDepth::kTested);
      }
    }
  }
  // What the tool is drawing: the circle being dragged out, the polygon's corners so far.
  const ObstacleTool& tool = obstacle_tool_;
  if (tool.drawing_circle()) {
    const double radius = glm::length(tool.current() - tool.start());
    glm::vec3 previous(0.0f);
    for (int i = 0; i <= 48; ++i) {
      const double a = glm::two_pi<double>() * i / 48;
      const glm::vec3 p =
          Ground(tool.start() + radius * glm::dvec2(std::cos(a), std::sin(a)), kOutlineLift);
      if (i > 0) list.AddLine(previous, p, {255, 255, 255, 255}, LineDepth::kOnTop);
      previous = p;
    }
  }
  const std::vector<glm::dvec2>& draft = tool.draft();
  for (size_t i = 0; i < draft.size(); ++i) {
    const glm::dvec2 next = i + 1 < draft.size() ? draft[i + 1] : tool.current();
    if (i + 1 < draft.size() || tool_ == ui::Tool::kObstacle) {
      list.AddLine(Ground(draft[i], kOutlineLift), Ground(next, kOutlineLift), {255, 255, 255, 255},
                   LineDepth::kOnTop);
    }
  }
}

}  // namespace md5stage::viewer
