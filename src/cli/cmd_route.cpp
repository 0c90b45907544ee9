// `md5stage route`: reads a route file, prints its length, evenly spaced samples by true arc
// length, and optionally the stretches tighter than a turning radius and those that come within a
// clearance of the obstacles of a file; as text or --json.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "cli/obstacle_cli.h"
#include "cli/path_output.h"
#include "core/common/json.h"
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

int RunRoute(const std::vector<std::string>& args) {
  std::string file;
  long samples = 10;
  double radius = 0.0;
  bool has_radius = false;
  std::string obstacles_file;
  double clearance = 0.0;
  bool has_clearance = false;
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--samples" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      errno = 0;
      samples = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || errno == ERANGE || samples < 0 || samples > kMaxSamples) {
        return Usage("--samples expects an integer from 0 to " + std::to_string(kMaxSamples));
      }
    } else if (arg == "--radius" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      radius = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(radius) || radius < 0.0) {
        return Usage("--radius expects a number >= 0");
      }
      has_radius = true;
    } else if (arg == "--obstacles" && i + 1 < args.size()) {
      obstacles_file = args[++i];
    } else if (arg == "--clearance" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      clearance = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(clearance) || clearance < 0.0) {
        return Usage("--clearance expects a number >= 0");
      }
      has_clearance = true;
    } else if (arg == "--json") {
      json = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unexpected argument '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return Usage("only one route file");
    }
  }
  if (file.empty()) return Usage("a route file is required");
  if (has_clearance && obstacles_file.empty()) return Usage("--clearance needs --obstacles");

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: error: cannot open file\n", file.c_str());
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const Result<Route> route = ReadRouteJson(file, text.str());
  if (!route.ok()) {
    std::fprintf(stderr, "%s\n", route.error().ToString().c_str());
    return 1;
  }

  ObstacleSet obstacles;
  if (!obstacles_file.empty()) {
    Result<ObstacleSet> loaded = LoadObstaclesFile(obstacles_file);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", loaded.error().ToString().c_str());
      return 1;
    }
    obstacles = std::move(loaded.value());
  }

  const Route& r = route.value();
  // The last sample is exactly the length, not k·(length/N) with its rounding.
  auto sample_distance = [&](long k) {
    return k == samples ? r.length() : r.length() * k / samples;
  };
  std::vector<TightStretch> tight;
  if (has_radius) tight = r.FindTightStretches(radius);
  std::vector<ObstacleStretch> near;
  if (!obstacles_file.empty()) near = FindObstacleStretches(r, obstacles, clearance);

  if (json) {
    JsonValue root = JsonValue::MakeObject();
    root.Set("length", r.length());
    JsonValue& list = root.Set("samples", JsonValue::MakeArray());
    for (long k = 0; k <= samples; ++k) {
      const double distance = sample_distance(k);
      const Pose2 pose = r.Sample(distance);
      JsonValue item = JsonValue::MakeObject();
      item.Set("distance", distance);
      item.Set("position", PointJson(pose.position));
      item.Set("heading", pose.heading);
      list.Append(std::move(item));
    }
    if (has_radius) {
      root.Set("radius", radius);
      JsonValue& out = root.Set("tight_stretches", JsonValue::MakeArray());
      for (const TightStretch& s : tight) {
        JsonValue item = JsonValue::MakeObject();
        item.Set("start", s.start_distance);
        item.Set("end", s.end_distance);
        item.Set("min_radius", s.min_radius);
        item.Set("min_radius_at", s.min_radius_distance);
        out.Append(std::move(item));
      }
    }
    if (!obstacles_file.empty()) {
      root.Set("clearance", clearance);
      JsonValue& out = root.Set("obstacle_stretches", JsonValue::MakeArray());
      for (const ObstacleStretch& s : near) {
        JsonValue item = JsonValue::MakeObject();
        item.Set("start", s.start_distance);
        item.Set("end", s.end_distance);
        item.Set("obstacle", s.obstacle);
        item.Set("min_distance", s.min_distance);
        out.Append(std::move(item));
      }
    }
    std::printf("%s\n", WriteJson(root).c_str());
    return 0;
  }

  std::printf("length %s\n", TextNumber(r.length()).c_str());
  std::printf("distance,x,y,heading\n");
  for (long k = 0; k <= samples; ++k) {
    const double distance = sample_distance(k);
    const Pose2 pose = r.Sample(distance);
    std::printf("%s,%s,%s,%s\n", TextNumber(distance).c_str(), TextNumber(pose.position.x).c_str(),
                TextNumber(pose.position.y).c_str(), TextNumber(pose.heading).c_str());
  }
  if (has_radius) {
    std::printf("tighter than radius %s: %zu\n", TextNumber(radius).c_str(), tight.size());
    std::printf("start,end,min_radius,min_radius_at\n");
    for (const TightStretch& s : tight) {
      std::printf("%s,%s,%s,%s\n", TextNumber(s.start_distance).c_str(),
                  TextNumber(s.end_distance).c_str(), TextNumber(s.min_radius).c_str(),
                  TextNumber(s.min_radius_distance).c_str());
    }
  }
  if (!obstacles_file.empty()) {
    std::printf("within clearance %s of an obstacle: %zu\n", TextNumber(clearance).c_str(),
                near.size());
    std::printf("start,end,obstacle,min_distance\n");
    for (const ObstacleStretch& s : near) {
      std::printf("%s,%s,%d,%s\n", TextNumber(s.start_distance).c_str(),
                  TextNumber(s.end_distance).c_str(), s.obstacle,
                  TextNumber(s.min_distance).c_str());
    }
  }
  return 0;
}

static CommandRegistrar reg{{"route",
                             "route ROUTE.json [--samples N] [--radius R] [--obstacles FILE.json "
                             "[--clearance C]] [--json]",
                             &RunRoute}};

}  // namespace
}  // namespace md5stage::cli
