// `md5stage simulate`: steps a scene's characters at a fixed rate with the crowd core (each gives
// way to the others, keeping its turning radius) and prints each one's track, arrival and least
// distances, or the run's totals; as text or one JSON object.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/command_registry.h"
#include "cli/path_output.h"
#include "core/anim/model.h"
#include "core/common/json.h"
#include "core/crowd/crowd_scene.h"
#include "core/crowd/crowd_simulation.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"
#include "core/scene/scene_json.h"

namespace md5stage::cli {
namespace {

constexpr double kMaxDuration = 3600.0;

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "md5stage simulate: %s\nusage: md5stage simulate SCENE.json --duration S "
               "[--rate HZ] [--json] [--summary] [--assets DIR]\n",
               problem.c_str());
  return 2;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return 1;
}

// The viewer's default clearance for a model: half the wider horizontal extent of its bind pose.
Result<double> MeshClearance(const std::string& assets, const SceneModel& model) {
  if (model.local || model.mesh.rfind("https://", 0) == 0) {
    return MakeError("", 0, 0,
                     "cannot read the mesh '" + model.mesh + "' of model '" + model.name +
                         "' (give the instances a clearance)");
  }
  const std::string path = assets + "/" + model.mesh;
  const Result<std::string> text = md5::ReadFileBytes(path);
  if (!text.ok()) return text.error();
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(path, text.value());
  if (!mesh.ok()) return mesh.error();
  const std::shared_ptr<const anim::Model> built =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh.value())));
  const std::vector<anim::GpuVertex>& vertices = built->gpu().vertices;
  if (vertices.empty()) return 0.0;
  glm::vec3 lo = vertices[0].position, hi = lo;
  for (const anim::GpuVertex& v : vertices) {
    lo = glm::min(lo, v.position);
    hi = glm::max(hi, v.position);
  }
  return 0.5 * std::max(static_cast<double>(hi.x - lo.x), static_cast<double>(hi.y - lo.y));
}

struct TrackRow {
  double t, x, y, heading_degrees, speed;
};

struct CharacterReport {
  std::vector<TrackRow> track;
  double min_distance_to_character = INFINITY;
  double min_distance_to_obstacle = INFINITY;
};

struct Totals {
  double least_separation = INFINITY;  // least (distance - sum of clearances)
  int pairs_too_close = 0;
  int with_target = 0;
  int arrivals = 0;
  double mean_arrival = 0.0;
  double latest_arrival = 0.0;
  double tightest_curvature = 0.0;  // largest |curvature| x turning radius over the run
};

// Distances at one step's poses: characters pairwise, and each to the obstacles.
void MeasureDistances(const CrowdSimulation& sim, std::vector<CharacterReport>& reports,
                      std::vector<std::uint8_t>& too_close, Totals& totals) {
  const int n = sim.size();
  for (int i = 0; i < n; ++i) {
    const CrowdAgent& a = sim.agent(i);
    if (!sim.obstacles().empty()) {
      reports[i].min_distance_to_obstacle =
          std::min(reports[i].min_distance_to_obstacle, sim.obstacles().Distance(a.pose.position));
    }
    for (int j = i + 1; j < n; ++j) {
      const CrowdAgent& b = sim.agent(j);
      const double d = glm::distance(a.pose.position, b.pose.position);
      reports[i].min_distance_to_character = std::min(reports[i].min_distance_to_character, d);
      reports[j].min_distance_to_character = std::min(reports[j].min_distance_to_character, d);
      const double separation = d - a.clearance - b.clearance;
      totals.least_separation = std::min(totals.least_separation, separation);
      std::uint8_t& flag = too_close[static_cast<std::size_t>(i) * n + j];
      if (separation < -1e-9 * std::max(1.0, a.clearance + b.clearance) && !flag) {
        flag = 1;
        ++totals.pairs_too_close;
      }
    }
  }
}

void Record(const CrowdSimulation& sim, std::vector<CharacterReport>& reports) {
  for (int i = 0; i < sim.size(); ++i) {
    const CrowdAgent& a = sim.agent(i);
    reports[i].track.push_back(
        {sim.time(), a.pose.position.x, a.pose.position.y, a.pose.heading * 180.0 / kPi, a.speed});
  }
}

JsonValue NumberOrNull(double value) {
  return std::isfinite(value) ? JsonValue(value) : JsonValue(nullptr);
}

JsonValue SummaryJson(const Totals& totals) {
  JsonValue summary = JsonValue::MakeObject();
  summary.Set("least_separation", NumberOrNull(totals.least_separation));
  summary.Set("pairs_too_close", totals.pairs_too_close);
  summary.Set("characters_with_target", totals.with_target);
  summary.Set("arrivals", totals.arrivals);
  summary.Set("mean_arrival", totals.arrivals > 0 ? JsonValue(totals.mean_arrival) : nullptr);
  summary.Set("latest_arrival", totals.arrivals > 0 ? JsonValue(totals.latest_arrival) : nullptr);
  summary.Set("tightest_curvature_times_radius", totals.tightest_curvature);
  return summary;
}

void PrintJson(const CrowdSimulation& sim, double rate, const std::vector<CharacterReport>& reports,
               const Totals& totals) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("rate", rate);
  JsonValue characters = JsonValue::MakeArray();
  for (int i = 0; i < sim.size(); ++i) {
    const CrowdCharacter& c = sim.character(i);
    JsonValue character = JsonValue::MakeObject();
    character.Set("index", i);
    character.Set("clearance", c.clearance);
    character.Set("turn_radius", c.turning_radius);
    character.Set("speed", c.speed);
    JsonValue track = JsonValue::MakeArray();
    for (const TrackRow& row : reports[i].track) {
      JsonValue r = JsonValue::MakeArray();
      r.Append(row.t);
      r.Append(row.x);
      r.Append(row.y);
      r.Append(row.heading_degrees);
      r.Append(row.speed);
      track.Append(std::move(r));
    }
    character.Set("track", std::move(track));
    character.Set("arrival", c.has_target && sim.arrived(i) ? JsonValue(sim.arrival_time(i))
                                                            : JsonValue(nullptr));
    character.Set("min_distance_to_character", NumberOrNull(reports[i].min_distance_to_character));
    character.Set("min_distance_to_obstacle", NumberOrNull(reports[i].min_distance_to_obstacle));
    characters.Append(std::move(character));
  }
  root.Set("characters", std::move(characters));
  root.Set("summary", SummaryJson(totals));
  std::printf("%s\n", WriteJson(root).c_str());
}

std::string TextOrNone(double value) { return std::isfinite(value) ? TextNumber(value) : "none"; }

void PrintText(const CrowdSimulation& sim, const std::vector<CharacterReport>& reports,
               const Totals& totals, bool summary) {
  for (int i = 0; i < sim.size(); ++i) {
    const CrowdCharacter& c = sim.character(i);
    std::printf(
        "character %d clearance %s turn_radius %s speed %s arrival %s "
        "min_distance_to_character %s min_distance_to_obstacle %s\n",
        i, TextNumber(c.clearance).c_str(), TextNumber(c.turning_radius).c_str(),
        TextNumber(c.speed).c_str(),
        c.has_target && sim.arrived(i) ? TextNumber(sim.arrival_time(i)).c_str() : "none",
        TextOrNone(reports[i].min_distance_to_character).c_str(),
        TextOrNone(reports[i].min_distance_to_obstacle).c_str());
    if (summary) continue;
    for (const TrackRow& row : reports[i].track) {
      std::printf("  %s %s %s %s %s\n", TextNumber(row.t).c_str(), TextNumber(row.x).c_str(),
                  TextNumber(row.y).c_str(), TextNumber(row.heading_degrees).c_str(),
                  TextNumber(row.speed).c_str());
    }
  }
  if (!summary) return;
  std::printf("least_separation %s\n", TextOrNone(totals.least_separation).c_str());
  std::printf("pairs_too_close %d\n", totals.pairs_too_close);
  std::printf("arrivals %d of %d\n", totals.arrivals, totals.with_target);
  std::printf("mean_arrival %s\n",
              totals.arrivals > 0 ? TextNumber(totals.mean_arrival).c_str() : "none");
  std::printf("latest_arrival %s\n",
              totals.arrivals > 0 ? TextNumber(totals.latest_arrival).c_str() : "none");
  std::printf("tightest_curvature_times_radius %s\n",
              TextNumber(totals.tightest_curvature).c_str());
}

int RunSimulate(const std::vector<std::string>& args) {
  std::string file;
  double duration = 0.0, rate = 60.0;
  bool has_duration = false, json = false, summary = false;
  std::string assets = MD5STAGE_ASSETS_DIR;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--json") {
      json = true;
    } else if (arg == "--summary") {
      summary = true;
    } else if (arg == "--duration") {
      if (!has_value || !ParseNumber(args[++i], &duration) || duration <= 0.0 ||
          duration > kMaxDuration) {
        return Usage("--duration: expected seconds in (0, 3600], found '" +
                     (has_value ? args[i] : std::string()) + "'");
      }
      has_duration = true;
    } else if (arg == "--rate") {
      if (!has_value || !ParseNumber(args[++i], &rate) || rate < 1.0 || rate > 1000.0) {
        return Usage("--rate: expected steps a second in [1, 1000], found '" +
                     (has_value ? args[i] : std::string()) + "'");
      }
    } else if (arg == "--assets") {
      if (!has_value) return Usage("--assets: expected a folder, found nothing");
      assets = args[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unexpected argument '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return Usage("SCENE: expected one scene file, found a second '" + arg + "'");
    }
  }
  if (file.empty()) return Usage("SCENE: expected a scene file, found nothing");
  if (!has_duration) return Usage("--duration: expected seconds in (0, 3600], found nothing");

  const Result<std::string> text = md5::ReadFileBytes(file);
  if (!text.ok()) return Fail(text.error().ToString());
  Result<Scene> scene = ParseScene(file, text.value());
  if (!scene.ok()) return Fail(scene.error().ToString());
  if (scene.value().instances.empty()) {
    return Fail(file + ": error: instances: expected at least one character, found none");
  }
  Result<std::vector<CrowdCharacter>> characters = CrowdCharactersOf(
      scene.value(), [&](const SceneModel& model) { return MeshClearance(assets, model); });
  if (!characters.ok()) {
    Diagnostic error = characters.error();
    if (error.file.empty()) error.file = file;
    return Fail(error.ToString());
  }
  CrowdSimulationOptions options;
  options.rate = rate;
  Result<CrowdSimulation> built =
      CrowdSimulation::Build(characters.value(), scene.value().obstacles, options);
  if (!built.ok()) {
    Diagnostic error = built.error();
    error.file = file;
    return Fail(error.ToString());
  }
  CrowdSimulation& sim = built.value();
  const int n = sim.size();
  std::vector<CharacterReport> reports(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> too_close(static_cast<std::size_t>(n) * n, 0);
  Totals totals;
  Record(sim, reports);
  MeasureDistances(sim, reports, too_close, totals);
  const long steps = std::lround(duration * rate);
  for (long s = 0; s < steps; ++s) {
    Status step = sim.Step();
    if (!step.ok()) return Fail(file + ": error: " + step.error().message);
    for (int i = 0; i < n; ++i) {
      totals.tightest_curvature =
          std::max(totals.tightest_curvature,
                   std::abs(sim.last_motion(i).curvature) * sim.character(i).turning_radius);
    }
    Record(sim, reports);
    MeasureDistances(sim, reports, too_close, totals);
  }
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    if (!sim.character(i).has_target) continue;
    ++totals.with_target;
    if (!sim.arrived(i)) continue;
    ++totals.arrivals;
    sum += sim.arrival_time(i);
    totals.latest_arrival = std::max(totals.latest_arrival, sim.arrival_time(i));
  }
  if (totals.arrivals > 0) totals.mean_arrival = sum / totals.arrivals;
  if (json) {
    PrintJson(sim, rate, reports, totals);
  } else {
    PrintText(sim, reports, totals, summary);
  }
  return 0;
}

static CommandRegistrar reg{
    {"simulate", "simulate SCENE.json --duration S [--rate HZ] [--json] [--summary] [--assets DIR]",
     &RunSimulate}};

}  // namespace
}  // namespace md5stage::cli
