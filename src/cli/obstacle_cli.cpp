// Shared by `plan`, `turn --obstacles` and `route --obstacles`: the obstacles file, the planned
// path's output, and the route stretches near obstacles.
#include "cli/obstacle_cli.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/path_output.h"
#include "core/common/json.h"
#include "core/md5/file_reader.h"

namespace md5stage::cli {
namespace {}  // namespace

Result<ObstacleSet> LoadObstaclesFile(const std::string& file) {
  const Result<std::string> text = md5::ReadFileBytes(file);
  if (!text.ok()) return text.error();
  return ReadObstaclesJson(file, text.value());
}

void PrintPlanText(const ObstaclePlanResult& result, const PlannedPath& path) {
  std::printf("found %s\n", result.found() ? "true" : "false");
  if (!result.found()) {
    std::printf("reason %s\n", result.reason);
    return;
  }
  std::printf("length %s\n", TextNumber(path.length).c_str());
  PrintEndAndSegmentsText(path.end, path.segments.data(), static_cast<int>(path.segments.size()));
}

void PrintPlanJson(const ObstaclePlanResult& result, const PlannedPath& path) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("found", result.found());
  // The work done (the same on every machine) and whether the last lattice pass ran to its end.
  JsonValue search = JsonValue::MakeObject();
  search.Set("expansions", static_cast<double>(result.expansions));
  search.Set("passes", static_cast<double>(result.passes));
  search.Set("complete", result.search_complete);
  root.Set("search", std::move(search));
  if (!result.found()) {
    root.Set("reason", result.reason);
    std::printf("%s\n", WriteJson(root).c_str());
    return;
  }
  root.Set("length", path.length);
  root.Set("end", PoseJson(path.end));
  root.Set("segments", SegmentsJson(path.segments.data(), static_cast<int>(path.segments.size())));
  std::printf("%s\n", WriteJson(root).c_str());
}

}  // namespace md5stage::cli
