// The obstacles feature (obstacle_field.h): the set and its edits, the obstacle tool, planning a
// character's go-to and a route's stretches around the set with the core's ObstaclePlanJob, and
// its drawing (filled shapes, outlines, the shape being drawn).
#include "viewer/obstacle_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/constants.hpp>

#include "core/path/polygon_triangulation.h"
#include "core/path/route_obstacles.h"
#include "viewer/json_util.h"

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

int ObstacleField::IndexOf(ObstacleId id) const {
  if (!id.valid()) return -1;
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (ids_[i] == id) return static_cast<int>(i);
  }
  return -1;
}

int ObstacleField::At(glm::dvec2 ground) const {
  for (int i = size() - 1; i >= 0; --i) {
    if (ObstacleContains(set_.obstacles()[static_cast<size_t>(i)], ground)) return i;
  }
  return -1;
}

// ---- edits -------------------------------------------------------------------------------------

ObstacleEdit ObstacleField::Replace(std::vector<Obstacle> obstacles, std::vector<ObstacleId> ids) {
  auto built = ObstacleSet::Build(std::move(obstacles));
  if (!built.ok()) return {Status(built.error()), false};
  set_ = std::move(built).value();
  ids_ = std::move(ids);
  fill_dirty_ = true;
  if (IndexOf(selected_) < 0) selected_ = ObstacleId();
  return {Status(), true};
}

namespace {
Status NoObstacle(int index, size_t count) {
  return MakeError("", 0, 0,
                   "obstacle " + std::to_string(index) + ": the scene has " +
                       std::to_string(count) + " obstacles");
}
}  // namespace

ObstacleEdit ObstacleField::Add(Obstacle obstacle) {
  std::vector<Obstacle> list = set_.obstacles();
  list.push_back(std::move(obstacle));
  std::vector<ObstacleId> ids = ids_;
  ids.push_back(serials_.Next<HandleKind::kObstacle>());
  return Replace(std::move(list), std::move(ids));
}

ObstacleEdit ObstacleField::Move(int index, glm::dvec2 offset) {
  if (index < 0 || index >= size()) return {NoObstacle(index, set_.size()), false};
  std::vector<Obstacle> list = set_.obstacles();
  Obstacle& moved = list[static_cast<size_t>(index)];
  moved.centre += offset;
  for (glm::dvec2& p : moved.vertices) p += offset;
  return Replace(std::move(list), ids_);
}

ObstacleEdit ObstacleField::Remove(int index) {
  if (index < 0 || index >= size()) return {NoObstacle(index, set_.size()), false};
  std::vector<Obstacle> list = set_.obstacles();
  list.erase(list.begin() + index);
  std::vector<ObstacleId> ids = ids_;
  ids.erase(ids.begin() + index);
  return Replace(std::move(list), std::move(ids));
}

ObstacleEdit ObstacleField::Clear() { return Replace({}, {}); }

void ObstacleField::ApplyScene(const ObstacleSet& set) {
  set_ = set;
  ids_.clear();
  for (size_t o = 0; o < set_.size(); ++o) ids_.push_back(serials_.Next<HandleKind::kObstacle>());
  fill_dirty_ = true;
  selected_ = ObstacleId();
  tool_.DropDraft();
}

// ---- planning ----------------------------------------------------------------------------------

Status ObstacleField::SetPlanBudget(std::optional<double> milliseconds) {
  if (milliseconds && !(*milliseconds > 0.0 && *milliseconds <= kMaxPlanBudgetMs)) {
    return MakeError("setPlanBudget", 0, 0,
                     "setPlanBudget.ms: expected a number in (0, " +
                         FormatJsonNumber(kMaxPlanBudgetMs) + "], found " +
                         FormatJsonNumber(*milliseconds));
  }
  plan_budget_ms_ = milliseconds;
  plan_budget_ = milliseconds ? PlanBudgetFromMilliseconds(*milliseconds) : kDefaultPlanBudget;
  return Status();
}

Status ObstacleField::PlanGoTo(Locomotion& locomotion, double now, glm::dvec2 point,
                               const double* heading, double clearance_factor) const {
  ObstaclePlanResult result;
  ObstaclePlanJob job;
  job.start = locomotion.follower.PoseAt(now);
  job.goal = point;
  job.has_goal_heading = heading != nullptr;
  job.goal_heading = heading != nullptr ? *heading : 0.0;
  job.turning_radius = std::max(locomotion.turn_radius, kMinPlanRadius);
  job.clearance = locomotion.clearance * clearance_factor;
  job.obstacles = &set_;
  // A count of expansions, not a clock (kDefaultPlanBudget unless setPlanBudget asked for
  // another): the same answer as `md5stage plan` and on any machine, however loaded.
  job.limits.budget = plan_budget_;
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
  status = locomotion.follower.GoToPlanned(now, locomotion.plan);
  if (!status.ok()) {
    locomotion.plan_message = status.error().message;
    return status;
  }
  locomotion.plan_message.clear();
  return Status();
}

Status ObstacleField::RouteAround(const std::vector<RouteSegment>& route_segments, int route_index,
                                  double turning_radius, double clearance,
                                  std::vector<RouteSegment>* out) const {
  std::vector<RouteSegment>& segments = *out;
  segments.clear();
  int replaced = 0;
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  for (size_t i = 0; i < route_segments.size(); ++i) {
    const RouteSegment& segment = route_segments[i];
    auto single = Route::Build({segment}, false);
    if (!single.ok() || FindObstacleStretches(single.value(), set_, clearance).empty()) {
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
    job.obstacles = &set_;
    job.limits.budget = plan_budget_;
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
                     "route " + std::to_string(route_index) + " crosses no obstacle at clearance " +
                         std::to_string(clearance));
  }
  if (segments.size() > kMaxRouteSegments) {
    return MakeError("routeAround", 0, 0,
                     "the route around would need " + std::to_string(segments.size()) +
                         " segments, more than " + std::to_string(kMaxRouteSegments));
  }
  return Status();
}

// ---- the obstacle tool -------------------------------------------------------------------------

ObstacleEdit ObstacleField::ToolPress(glm::dvec2 ground, const NearCursor& near_cursor) {
  const int picked = At(ground);
  const ObstaclePressStep step = tool_.Press(
      ground, picked, picked >= 0 ? &set_.obstacles()[static_cast<size_t>(picked)] : nullptr,
      near_cursor);
  if (step.select) {
    selected_ = *step.select >= 0 ? ids_[static_cast<size_t>(*step.select)] : ObstacleId();
  }
  if (step.close_polygon) return ClosePolygon();
  return {};
}

void ObstacleField::ToolDrag(glm::dvec2 ground) {
  const std::optional<Obstacle> moved = tool_.Move(ground);
  const int selected = selected_index();
  if (!moved || selected < 0) return;
  // The shape follows the mouse; walkers replan once, when it is let go.
  std::vector<Obstacle> list = set_.obstacles();
  list[static_cast<size_t>(selected)] = *moved;
  auto built = ObstacleSet::Build(std::move(list));
  if (built.ok()) {
    set_ = std::move(built).value();
    fill_dirty_ = true;
  }
}

ObstacleEdit ObstacleField::ToolRelease(double camera_distance) {
  const ObstacleReleaseStep step = tool_.Release(camera_distance);
  if (step.add) return AddShape(*step.add);
  // Moved: the set as it is now (already taken while dragging) changed for the walkers.
  if (step.replan) return {Status(), true};
  return {};
}

ObstacleEdit ObstacleField::AddShape(Obstacle obstacle) {
  ObstacleEdit edit = Add(std::move(obstacle));
  if (edit.changed) selected_ = ids_.back();
  return edit;
}

ObstacleEdit ObstacleField::ClosePolygon() {
  if (std::optional<Obstacle> polygon = tool_.ClosePolygon()) return AddShape(std::move(*polygon));
  return {};
}

// ---- drawing -----------------------------------------------------------------------------------

void ObstacleField::RebuildFill() {
  fill_.clear();
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> remaining;
  for (const Obstacle& obstacle : set_.obstacles()) {
    if (obstacle.kind == Obstacle::Kind::kCircle) {
      const int n = 48;
      for (int i = 0; i < n; ++i) {
        const double a0 = glm::two_pi<double>() * i / n, a1 = glm::two_pi<double>() * (i + 1) / n;
        fill_.push_back(glm::vec2(obstacle.centre));
        fill_.push_back(
            glm::vec2(obstacle.centre + obstacle.radius * glm::dvec2(std::cos(a0), std::sin(a0))));
        fill_.push_back(
            glm::vec2(obstacle.centre + obstacle.radius * glm::dvec2(std::cos(a1), std::sin(a1))));
      }
      continue;
    }
    triangles.clear();
    if (!TriangulatePolygon(obstacle.vertices, &triangles, &remaining)) continue;
    for (const auto& t : triangles) {
      for (int k : t) fill_.push_back(glm::vec2(obstacle.vertices[static_cast<size_t>(k)]));
    }
  }
  fill_dirty_ = false;
}

void ObstacleField::Draw(DrawList& list, bool tool_on) {
  if (fill_dirty_) RebuildFill();
  const Rgba8 fill{200, 70, 60, 210};
  for (size_t i = 0; i + 2 < fill_.size(); i += 3) {
    list.AddTriangle(glm::vec3(fill_[i], kFillLift), glm::vec3(fill_[i + 1], kFillLift),
                     glm::vec3(fill_[i + 2], kFillLift), fill);
  }
  for (size_t o = 0; o < set_.size(); ++o) {
    const Obstacle& obstacle = set_.obstacles()[o];
    const Rgba8 outline =
        ids_[o] == selected_ ? Rgba8{255, 255, 255, 255} : Rgba8{255, 140, 110, 255};
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
  const ObstacleTool& tool = tool_;
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
    if (i + 1 < draft.size() || tool_on) {
      list.AddLine(Ground(draft[i], kOutlineLift), Ground(next, kOutlineLift), {255, 255, 255, 255},
                   LineDepth::kOnTop);
    }
  }
}

void ObstacleField::WriteState(JsonValue* state) const {
  // The obstacles as a scene writes them, and their handles in the same order.
  state->Set("obstacles", *ObstaclesToJson(set_).Find("obstacles"));
  JsonArray obstacle_ids;
  for (ObstacleId id : ids_) obstacle_ids.emplace_back(HandleText(id));
  state->Set("obstacle_ids", JsonValue(std::move(obstacle_ids)));
  state->Set("selected_obstacle", selected_index());
  state->Set("selected_obstacle_id", IdJson(selected_));
  JsonValue budget = JsonValue::MakeObject();
  budget.Set("ms", plan_budget_ms_ ? JsonValue(*plan_budget_ms_) : JsonValue());
  budget.Set("expansions", plan_budget_);
  state->Set("plan_budget", std::move(budget));
  state->Set("polygon_draft", static_cast<double>(tool_.draft().size()));
}

}  // namespace md5stage::viewer
