// libFuzzer harness: route JSON (ReadRouteJson). A route that reads must sample to finite poses at
// any distance (including hostile ones), report its tight stretches in order, and write back to a
// file that reads again with the same segments.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/path/route.h"
#include "core/path/route_json.h"
#include "fuzz_util.h"

using namespace md5stage;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Result<Route> read = ReadRouteJson("fuzz.route.json", text);
  if (!read.ok()) {
    FUZZ_CHECK(!read.error().message.empty());
    return 0;
  }
  const Route& route = read.value();
  const double length = route.length();
  FUZZ_CHECK(length >= 0.0);
  const double distances[] = {0.0,
                              length * 0.25,
                              length * 0.5,
                              length,
                              -1.0,
                              length + 1.0,
                              1e300,
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN()};
  const bool finite_route = std::isfinite(length);
  std::vector<Pose2> poses(sizeof(distances) / sizeof(distances[0]));
  RouteSampleJob job;
  job.route = &route;
  job.distances = distances;
  job.count = poses.size();
  job.poses = poses.data();
  FUZZ_CHECK(job.Run());
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (finite_route && !std::isnan(distances[i])) {
      FUZZ_CHECK(IsFinite(poses[i].position) && std::isfinite(poses[i].heading));
    }
  }
  for (double radius : {0.0, 1.0, 40.0, 1e6, std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::quiet_NaN()}) {
    const std::vector<TightStretch> stretches = route.FindTightStretches(radius);
    double previous = -1.0;
    for (const TightStretch& stretch : stretches) {
      FUZZ_CHECK(stretch.start_distance <= stretch.end_distance);
      FUZZ_CHECK(stretch.start_distance >= previous);
      previous = stretch.start_distance;
    }
  }
  const std::string written = WriteRouteJson(route);
  const Result<Route> reread = ReadRouteJson("rewritten.route.json", written);
  if (!reread.ok()) std::fprintf(stderr, "%s\n", reread.error().ToString().c_str());
  FUZZ_CHECK(reread.ok());
  FUZZ_CHECK(reread.value().segments() == route.segments());
  FUZZ_CHECK(reread.value().closed() == route.closed());
  return 0;
}
