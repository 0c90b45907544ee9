#include "detour_crowd.h"

#include <recastnavigation/DetourCrowd.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

namespace md5stage::bench {
namespace {

Diagnostic Error(const std::string& message) { return MakeError("", 0, 0, message); }

// Scene (x, y) on Recast's ground plane: y up, the scene's plane is Recast's x-z.
void ToRecast(glm::dvec2 p, float* out) {
  out[0] = static_cast<float>(p.x);
  out[1] = 0.0f;
  out[2] = static_cast<float>(p.y);
}

struct RecastDeleter {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <typename T>
using RecastPtr = std::unique_ptr<T, RecastDeleter>;

// The one clearance every character has (the navmesh's agent radius), or the field that differs.
Result<double> ScenarioClearance(const CrowdScenario& scenario) {
  if (scenario.characters.empty()) return Error("characters: none");
  const double clearance = scenario.characters[0].clearance;
  if (!(clearance > 0.0)) return Error("characters[0].clearance: expected > 0 (the agent radius)");
  for (std::size_t i = 0; i < scenario.characters.size(); ++i) {
    const CrowdCharacter& c = scenario.characters[i];
    const std::string field = "characters[" + std::to_string(i) + "]";
    if (c.clearance != clearance) {
      return Error(field + ".clearance: " + std::to_string(c.clearance) +
                   ", expected the scenario's one clearance " + std::to_string(clearance));
    }
    if (!c.has_target || c.route) return Error(field + ": expected a target and no route");
  }
  return clearance;
}

// The navmesh's build settings from the Recast demo's defaults (agent radius 0.6 on cells of
// 0.3, edges of at most 12 m), scaled to the scenario's agent radius; the ground from every
// start and target, plus the margin.
rcConfig NavMeshConfig(const CrowdScenario& scenario, double radius,
                       const DetourCrowdOptions& options) {
  glm::dvec2 lo = scenario.characters[0].start.position;
  glm::dvec2 hi = lo;
  for (const CrowdCharacter& c : scenario.characters) {
    lo = glm::min(lo, glm::min(c.start.position, c.target));
    hi = glm::max(hi, glm::max(c.start.position, c.target));
  }
  lo -= glm::dvec2(options.ground_margin);
  hi += glm::dvec2(options.ground_margin);
  rcConfig cfg{};
  cfg.cs = static_cast<float>(radius / 2.0);
  cfg.ch = cfg.cs;
  cfg.walkableSlopeAngle = 45.0f;
  cfg.walkableHeight = static_cast<int>(std::ceil(options.agent_height / cfg.ch));
  cfg.walkableClimb = 2;
  cfg.walkableRadius = static_cast<int>(std::ceil(radius / cfg.cs));
  cfg.maxEdgeLen = 40;  // 12 m / 0.3 m
  cfg.maxSimplificationError = 1.3f;
  cfg.minRegionArea = 8 * 8;
  cfg.mergeRegionArea = 20 * 20;
  cfg.maxVertsPerPoly = 6;
  cfg.detailSampleDist = 6.0f * cfg.cs;
  cfg.detailSampleMaxError = cfg.ch;
  cfg.bmin[0] = static_cast<float>(lo.x);
  cfg.bmin[1] = -2.0f * cfg.ch;
  cfg.bmin[2] = static_cast<float>(lo.y);
  cfg.bmax[0] = static_cast<float>(hi.x);
  cfg.bmax[1] = static_cast<float>(options.agent_height) + 2.0f * cfg.ch;
  cfg.bmax[2] = static_cast<float>(hi.y);
  rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
  return cfg;
}

// The ground rectangle as two upward-facing triangles, rasterized into a heightfield, then the
// walkable spans with every cell whose centre lies in an obstacle made unwalkable, eroded by the
// agent radius (so the navmesh keeps the walkers' clearance from the obstacles).
Result<RecastPtr<rcCompactHeightfield>> WalkableField(rcContext& ctx, const rcConfig& cfg,
                                                      const ObstacleSet& obstacles) {
  RecastPtr<rcHeightfield> solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax,
                                     cfg.cs, cfg.ch)) {
    return Error("recast: the heightfield (" + std::to_string(cfg.width) + " x " +
                 std::to_string(cfg.height) + " cells)");
  }
  const float x0 = cfg.bmin[0], x1 = cfg.bmax[0], z0 = cfg.bmin[2], z1 = cfg.bmax[2];
  const float verts[] = {x0, 0, z0, x0, 0, z1, x1, 0, z1, x1, 0, z0};
  const int tris[] = {0, 1, 2, 0, 2, 3};
  unsigned char areas[2] = {0, 0};
  rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, 4, tris, 2, areas);
  if (!rcRasterizeTriangles(&ctx, verts, 4, tris, areas, 2, *solid, cfg.walkableClimb)) {
    return Error("recast: rasterizing the ground");
  }
  rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
  rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
  rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
  RecastPtr<rcCompactHeightfield> field(rcAllocCompactHeightfield());
  if (!field ||
      !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *field)) {
    return Error("recast: the compact heightfield");
  }
  for (int z = 0; z < field->height; ++z) {
    for (int x = 0; x < field->width; ++x) {
      const glm::dvec2 centre{cfg.bmin[0] + (x + 0.5) * cfg.cs, cfg.bmin[2] + (z + 0.5) * cfg.cs};
      if (obstacles.FirstWithin(centre, 0.0) < 0) continue;
      const rcCompactCell& cell = field->cells[x + z * field->width];
      const unsigned end = cell.index + static_cast<unsigned>(cell.count);
      for (unsigned s = cell.index; s < end; ++s) {
        field->areas[s] = RC_NULL_AREA;
      }
    }
  }
  if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *field)) {
    return Error("recast: eroding by the agent radius");
  }
  return field;
}

// Regions (watershed, as the demo), contours, polygons and their height detail, as Detour's
// single-tile navmesh data.
Result<dtNavMesh*> NavMeshOf(rcContext& ctx, const rcConfig& cfg, rcCompactHeightfield& field,
                             double radius, double height, int* polygons) {
  if (!rcBuildDistanceField(&ctx, field) ||
      !rcBuildRegions(&ctx, field, 0, cfg.minRegionArea, cfg.mergeRegionArea)) {
    return Error("recast: the regions");
  }
  RecastPtr<rcContourSet> contours(rcAllocContourSet());
  if (!contours ||
      !rcBuildContours(&ctx, field, cfg.maxSimplificationError, cfg.maxEdgeLen, *contours)) {
    return Error("recast: the contours");
  }
  RecastPtr<rcPolyMesh> mesh(rcAllocPolyMesh());
  if (!mesh || !rcBuildPolyMesh(&ctx, *contours, cfg.maxVertsPerPoly, *mesh)) {
    return Error("recast: the polygon mesh");
  }
  RecastPtr<rcPolyMeshDetail> detail(rcAllocPolyMeshDetail());
  if (!detail || !rcBuildPolyMeshDetail(&ctx, *mesh, field, cfg.detailSampleDist,
                                        cfg.detailSampleMaxError, *detail)) {
    return Error("recast: the detail mesh");
  }
  if (mesh->npolys == 0) return Error("recast: no walkable polygon");
  for (int i = 0; i < mesh->npolys; ++i) mesh->flags[i] = 1;  // walkable, for the query filter
  dtNavMeshCreateParams params{};
  params.verts = mesh->verts;
  params.vertCount = mesh->nverts;
  params.polys = mesh->polys;
  params.polyAreas = mesh->areas;
  params.polyFlags = mesh->flags;
  params.polyCount = mesh->npolys;
  params.nvp = mesh->nvp;
  params.detailMeshes = detail->meshes;
  params.detailVerts = detail->verts;
  params.detailVertsCount = detail->nverts;
  params.detailTris = detail->tris;
  params.detailTriCount = detail->ntris;
  params.walkableHeight = static_cast<float>(height);
  params.walkableRadius = static_cast<float>(radius);
  params.walkableClimb = cfg.walkableClimb * cfg.ch;
  rcVcopy(params.bmin, mesh->bmin);
  rcVcopy(params.bmax, mesh->bmax);
  params.cs = cfg.cs;
  params.ch = cfg.ch;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) {
    return Error("detour: the navmesh data (" + std::to_string(mesh->npolys) + " polygons, " +
                 std::to_string(mesh->nverts) + " vertices)");
  }
  dtNavMesh* navmesh = dtAllocNavMesh();
  if (!navmesh || dtStatusFailed(navmesh->init(data, size, DT_TILE_FREE_DATA))) {
    dtFree(data);
    dtFreeNavMesh(navmesh);
    return Error("detour: the navmesh");
  }
  *polygons = mesh->npolys;
  return navmesh;
}

// The Recast demo's four avoidance settings (its crowd tool's low, medium, good, high quality).
void SetDemoAvoidance(dtCrowd& crowd) {
  dtObstacleAvoidanceParams params = *crowd.getObstacleAvoidanceParams(0);
  const unsigned char divs[] = {5, 5, 7, 7}, rings[] = {2, 2, 2, 3}, depths[] = {1, 2, 3, 3};
  for (int quality = 0; quality < 4; ++quality) {
    params.velBias = 0.5f;
    params.adaptiveDivs = divs[quality];
    params.adaptiveRings = rings[quality];
    params.adaptiveDepth = depths[quality];
    crowd.setObstacleAvoidanceParams(quality, &params);
  }
}

// The demo's agent (radius 0.6, speed 3.5, acceleration 8, queries 8 and 30 radii; its crowd
// tool's default options: anticipated turns, path visibility and topology optimization, obstacle
// avoidance; separation off, as there: it holds agents off targets near others), at the
// character's speed, reached in the demo's 0.44 s.
dtCrowdAgentParams AgentParams(const CrowdCharacter& c, const DetourCrowdOptions& options) {
  dtCrowdAgentParams p{};
  p.radius = static_cast<float>(c.clearance);
  p.height = static_cast<float>(options.agent_height);
  p.maxSpeed = static_cast<float>(c.speed);
  p.maxAcceleration = static_cast<float>(c.speed * 8.0 / 3.5);
  p.collisionQueryRange = p.radius * 8.0f;
  p.pathOptimizationRange = p.radius * 30.0f;
  p.separationWeight = 2.0f;
  p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                  DT_CROWD_OBSTACLE_AVOIDANCE;
  p.obstacleAvoidanceType = static_cast<unsigned char>(options.avoidance_quality);
  p.queryFilterType = 0;
  return p;
}

}  // namespace

void DetourCrowdRun::NavMeshDeleter::operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }
void DetourCrowdRun::CrowdDeleter::operator()(dtCrowd* crowd) const { dtFreeCrowd(crowd); }

Result<DetourCrowdRun> DetourCrowdRun::Build(const CrowdScenario& scenario,
                                             const DetourCrowdOptions& options) {
  if (!(options.rate >= 1.0 && options.rate <= 1000.0)) return Error("rate: expected [1, 1000]");
  if (options.avoidance_quality < 0 || options.avoidance_quality > 3) {
    return Error("avoidance_quality: expected 0 to 3");
  }
  Result<double> clearance = ScenarioClearance(scenario);
  if (!clearance.ok()) return clearance.error();
  const double radius = clearance.value();
  rcContext ctx(false);
  const rcConfig cfg = NavMeshConfig(scenario, radius, options);
  Result<RecastPtr<rcCompactHeightfield>> field = WalkableField(ctx, cfg, scenario.obstacles);
  if (!field.ok()) return field.error();
  DetourCrowdRun run;
  Result<dtNavMesh*> navmesh =
      NavMeshOf(ctx, cfg, *field.value(), radius, options.agent_height, &run.navmesh_polygons_);
  if (!navmesh.ok()) return navmesh.error();
  run.navmesh_.reset(navmesh.value());
  run.crowd_.reset(dtAllocCrowd());
  const int count = static_cast<int>(scenario.characters.size());
  if (!run.crowd_ || !run.crowd_->init(count, static_cast<float>(radius), run.navmesh_.get())) {
    return Error("detour: the crowd of " + std::to_string(count));
  }
  SetDemoAvoidance(*run.crowd_);
  const dtNavMeshQuery* query = run.crowd_->getNavMeshQuery();
  const dtQueryFilter* filter = run.crowd_->getFilter(0);
  const float* extents = run.crowd_->getQueryHalfExtents();
  for (int i = 0; i < count; ++i) {
    const CrowdCharacter& c = scenario.characters[static_cast<std::size_t>(i)];
    const std::string field_name = "characters[" + std::to_string(i) + "]";
    float start[3], target[3], nearest[3];
    ToRecast(c.start.position, start);
    ToRecast(c.target, target);
    const dtCrowdAgentParams params = AgentParams(c, options);
    if (run.crowd_->addAgent(start, &params) != i) return Error(field_name + ": not added");
    dtPolyRef target_polygon = 0;
    query->findNearestPoly(target, extents, filter, &target_polygon, nearest);
    if (!target_polygon || !run.crowd_->requestMoveTarget(i, target_polygon, nearest)) {
      return Error(field_name + ".target: not on the navmesh");
    }
    run.targets_.push_back({nearest[0], nearest[2]});
  }
  run.arrival_times_.assign(static_cast<std::size_t>(count), -1.0);
  run.tolerance_ = std::max(1e-3, 0.1 * radius);
  run.step_ = 1.0 / options.rate;
  return run;
}

glm::dvec2 DetourCrowdRun::position(int i) const {
  const float* p = crowd_->getAgent(i)->npos;
  return {p[0], p[2]};
}

void DetourCrowdRun::Update() {
  crowd_->update(static_cast<float>(step_), nullptr);
  ++step_count_;
}

void DetourCrowdRun::Step() {
  Update();
  for (int i = 0; i < size(); ++i) {
    double& arrival = arrival_times_[static_cast<std::size_t>(i)];
    if (arrival < 0.0 && glm::distance(position(i), target(i)) <= tolerance_) {
      arrival = time();
      ++arrived_;
    }
  }
}

}  // namespace md5stage::bench
