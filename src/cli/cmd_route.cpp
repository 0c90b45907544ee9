// `md5stage route`: reads a route file, prints its length, evenly spaced samples by true arc
// length, and optionally the stretches tighter than a turning radius and those that come within a
// clearance of the obstacles of a file; as text or --json.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "cli/obstacle_cli.h"
#include "cli/path_output.h"
#include "core/common/json.h"
#include "core/md5/file_reader.h"
#include "core/path/route.h"
#include "core/path/route_json.h"

namespace md5stage::cli {
namespace {

constexpr long kMaxSamples = 10000000;

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "md5stage route: %s\nusage: md5stage route ROUTE.json [--samples N] [--radius R] "
               "[--obstacles FILE.json [--clearance C]] [--json]\n",
               problem.c_str());
  return 2;
}

// What `route` was asked for.
struct RouteOptions {
  std::string file;
  long samples = 10;
  double radius = 0.0;  // --radius: the tight stretches' turning radius
  bool has_radius = false;
  std::string obstacles_file;  // --obstacles ("": none)
  double clearance = 0.0;
  bool json = false;
};

// The options from the arguments: 0, or the usage error's exit code.
int ParseRouteArguments(const std::vector<std::string>& args, RouteOptions* options) {
  bool has_clearance = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--samples" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      errno = 0;
      options->samples = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || errno == ERANGE || options->samples < 0 ||
          options->samples > kMaxSamples) {
        return Usage("--samples expects an integer from 0 to " + std::to_string(kMaxSamples));
      }
    } else if (arg == "--radius" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      options->radius = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(options->radius) ||
          options->radius < 0.0) {
        return Usage("--radius expects a number >= 0");
      }
      options->has_radius = true;
    } else if (arg == "--obstacles" && i + 1 < args.size()) {
      options->obstacles_file = args[++i];
    } else if (arg == "--clearance" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      options->clearance = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(options->clearance) ||
          options->clearance < 0.0) {
        return Usage("--clearance expects a number >= 0");
      }
      has_clearance = true;
    } else if (arg == "--json") {
      options->json = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unexpected argument '" + arg + "'");
    } else if (options->file.empty()) {
      options->file = arg;
    } else {
      return Usage("only one route file");
    }
  }
  if (options->file.empty()) return Usage("a route file is required");
  if (has_clearance && options->obstacles_file.empty()) {
    return Usage("--clearance needs --obstacles");
  }
  return 0;
}

// The route file read and built: whether it was (else the error printed).
bool ReadRouteFile(const std::string& file, Route* route) {
  const Result<std::string> text = md5::ReadFileBytes(file);
  if (!text.ok()) {
    std::fprintf(stderr, "%s\n", text.error().ToString().c_str());
    return false;
  }
  Result<Route> read = ReadRouteJson(file, text.value());
  if (!read.ok()) {
    std::fprintf(stderr, "%s\n", read.error().ToString().c_str());
    return false;
  }
  *route = std::move(read).value();
  return true;
}

// What `route` finds on a route besides its samples: the stretches tighter than the radius and
// those within the clearance of an obstacle (each when asked for).
struct RouteReport {
  std::vector<TightStretch> tight;
  std::vector<ObstacleStretch> near;
};

// Sample k of `samples`: the last is exactly the length, not k·(length/N) with its rounding.
double SampleDistance(const Route& route, long k, long samples) {
  return k == samples ? route.length() : route.length() * k / samples;
}

void PrintRouteJson(const RouteOptions& options, const Route& route, const RouteReport& report) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("length", route.length());
  JsonValue& list = root.Set("samples", JsonValue::MakeArray());
  for (long k = 0; k <= options.samples; ++k) {
    const double distance = SampleDistance(route, k, options.samples);
    const Pose2 pose = route.Sample(distance);
    JsonValue item = JsonValue::MakeObject();
    item.Set("distance", distance);
    item.Set("position", PointJson(pose.position));
    item.Set("heading", pose.heading);
    list.Append(std::move(item));
  }
  if (options.has_radius) {
    root.Set("radius", options.radius);
    root.Set("tight_stretches", TightStretchesToJson(report.tight));
  }
  if (!options.obstacles_file.empty()) {
    root.Set("clearance", options.clearance);
    root.Set("obstacle_stretches", ObstacleStretchesToJson(report.near));
  }
  std::printf("%s\n", WriteJson(root).c_str());
}

void PrintRouteText(const RouteOptions& options, const Route& route, const RouteReport& report) {
  std::printf("length %s\n", TextNumber(route.length()).c_str());
  std::printf("distance,x,y,heading\n");
  for (long k = 0; k <= options.samples; ++k) {
    const double distance = SampleDistance(route, k, options.samples);
    const Pose2 pose = route.Sample(distance);
    std::printf("%s,%s,%s,%s\n", TextNumber(distance).c_str(), TextNumber(pose.position.x).c_str(),
                TextNumber(pose.position.y).c_str(), TextNumber(pose.heading).c_str());
  }
  if (options.has_radius) {
    std::printf("tighter than radius %s: %zu\n", TextNumber(options.radius).c_str(),
                report.tight.size());
    std::printf("start,end,min_radius,min_radius_at\n");
    for (const TightStretch& s : report.tight) {
      std::printf("%s,%s,%s,%s\n", TextNumber(s.start_distance).c_str(),
                  TextNumber(s.end_distance).c_str(), TextNumber(s.min_radius).c_str(),
                  TextNumber(s.min_radius_distance).c_str());
    }
  }
  if (!options.obstacles_file.empty()) {
    std::printf("within clearance %s of an obstacle: %zu\n", TextNumber(options.clearance).c_str(),
                report.near.size());
    std::printf("start,end,obstacle,min_distance\n");
    for (const ObstacleStretch& s : report.near) {
      std::printf("%s,%s,%d,%s\n", TextNumber(s.start_distance).c_str(),
                  TextNumber(s.end_distance).c_str(), s.obstacle,
                  TextNumber(s.min_distance).c_str());
    }
  }
}

int RunRoute(const std::vector<std::string>& args) {
  RouteOptions options;
  if (const int usage = ParseRouteArguments(args, &options); usage != 0) return usage;
  Route route;
  if (!ReadRouteFile(options.file, &route)) return 1;
  ObstacleSet obstacles;
  if (!options.obstacles_file.empty()) {
    Result<ObstacleSet> loaded = LoadObstaclesFile(options.obstacles_file);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", loaded.error().ToString().c_str());
      return 1;
    }
    obstacles = std::move(loaded.value());
  }
  RouteReport report;
  if (options.has_radius) report.tight = route.FindTightStretches(options.radius);
  if (!options.obstacles_file.empty()) {
    report.near = FindObstacleStretches(route, obstacles, options.clearance);
  }
  if (options.json) {
    PrintRouteJson(options, route, report);
  } else {
    PrintRouteText(options, route, report);
  }
  return 0;
}

static CommandRegistrar reg{{"route",
                             "route ROUTE.json [--samples N] [--radius R] [--obstacles FILE.json "
                             "[--clearance C]] [--json]",
                             &RunRoute}};

}  // namespace
}  // namespace md5stage::cli
