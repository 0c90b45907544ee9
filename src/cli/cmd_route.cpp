// `md5stage route`: reads a route file, prints its length, evenly spaced samples by true arc
// length, and optionally the stretches tighter than a turning radius.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "core/path/route.h"
#include "core/path/route_json.h"

namespace md5stage::cli {
namespace {

constexpr long kMaxSamples = 10000000;

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "md5stage route: %s\nusage: md5stage route ROUTE.json [--samples N] [--radius R]\n",
               problem.c_str());
  return 2;
}

std::string Number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

int RunRoute(const std::vector<std::string>& args) {
  std::string file;
  long samples = 10;
  double radius = 0.0;
  bool has_radius = false;
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
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unexpected argument '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return Usage("only one route file");
    }
  }
  if (file.empty()) return Usage("a route file is required");

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

  const Route& r = route.value();
  std::printf("length %s\n", Number(r.length()).c_str());
  std::printf("distance,x,y,heading\n");
  for (long k = 0; k <= samples; ++k) {
    // The last sample is exactly the length, not k·(length/N) with its rounding.
    const double distance = k == samples ? r.length() : r.length() * k / samples;
    const Pose2 pose = r.Sample(distance);
    std::printf("%s,%s,%s,%s\n", Number(distance).c_str(), Number(pose.position.x).c_str(),
                Number(pose.position.y).c_str(), Number(pose.heading).c_str());
  }
  if (has_radius) {
    const std::vector<TightStretch> stretches = r.FindTightStretches(radius);
    std::printf("tighter than radius %s: %zu\n", Number(radius).c_str(), stretches.size());
    std::printf("start,end,min_radius,min_radius_at\n");
    for (const TightStretch& s : stretches) {
      std::printf("%s,%s,%s,%s\n", Number(s.start_distance).c_str(), Number(s.end_distance).c_str(),
                  Number(s.min_radius).c_str(), Number(s.min_radius_distance).c_str());
    }
  }
  return 0;
}

static CommandRegistrar reg{{"route", "route ROUTE.json [--samples N] [--radius R]", &RunRoute}};

}  // namespace
}  // namespace md5stage::cli
