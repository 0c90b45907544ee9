// Shared by `plan`, `turn --obstacles` and `route --obstacles`: the obstacles file, the planned
// path's output, and the route stretches near obstacles.
#include "cli/obstacle_cli.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/common/json.h"

namespace md5stage::cli {
namespace {

std::string Number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

std::string Point(glm::dvec2 p) { return "(" + Number(p.x) + ", " + Number(p.y) + ")"; }

JsonValue PointJson(glm::dvec2 p) { return JsonValue(JsonArray{p.x, p.y}); }

}  // namespace

Result<ObstacleSet> LoadObstaclesFile(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return MakeError(file, 0, 0, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return ReadObstaclesJson(file, text.str());
}

void PrintPlanText(const ObstaclePlanResult& result, const PlannedPath& path) {
  std::printf("found %s\n", result.found() ? "true" : "false");
  if (!result.found()) {
    std::printf("reason %s\n", result.reason);
    return;
  }
  std::printf("length %s\n", Number(path.length).c_str());
  std::printf("end %s heading %s\n", Point(path.end.position).c_str(),
              Number(path.end.heading).c_str());
  for (const TurnSegment& s : path.segments) {
    if (s.kind == TurnSegment::Kind::kArc) {
      std::printf("arc start %s heading %s length %s centre %s radius %s start_angle %s sweep %s\n",
                  Point(s.start.position).c_str(), Number(s.start.heading).c_str(),
                  Number(s.length).c_str(), Point(s.centre).c_str(), Number(s.radius).c_str(),
                  Number(s.start_angle).c_str(), Number(s.sweep).c_str());
    } else {
      std::printf("line start %s heading %s length %s\n", Point(s.start.position).c_str(),
                  Number(s.start.heading).c_str(), Number(s.length).c_str());
    }
  }
}

void PrintPlanJson(const ObstaclePlanResult& result, const PlannedPath& path) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("found", result.found());
  if (!result.found()) {
    root.Set("reason", result.reason);
    std::printf("%s\n", WriteJson(root).c_str());
    return;
  }
  root.Set("length", path.length);
  JsonValue end = JsonValue::MakeObject();
  end.Set("position", PointJson(path.end.position));
  end.Set("heading", path.end.heading);
  root.Set("end", std::move(end));
  JsonValue& segments = root.Set("segments", JsonValue::MakeArray());
  for (const TurnSegment& s : path.segments) {
    JsonValue item = JsonValue::MakeObject();
    const bool arc = s.kind == TurnSegment::Kind::kArc;
    item.Set("kind", arc ? "arc" : "line");
    item.Set("start", PointJson(s.start.position));
    item.Set("heading", s.start.heading);
    item.Set("length", s.length);
    if (arc) {
      item.Set("centre", PointJson(s.centre));
      item.Set("radius", s.radius);
      item.Set("start_angle", s.start_angle);
      item.Set("sweep", s.sweep);
    }
    segments.Append(std::move(item));
  }
  std::printf("%s\n", WriteJson(root).c_str());
}

}  // namespace md5stage::cli
