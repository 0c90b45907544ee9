#include "core/path/route_json.h"

#include <cmath>
#include <string>
#include <utility>

namespace md5stage {
namespace {

std::string DescribePoint(glm::dvec2 p) { return DescribeJsonPair(p.x, p.y); }

class Reader {
 public:
  explicit Reader(std::string_view file) : file_(file) {}

  Diagnostic Fail(const JsonValue& at, const std::string& path, const std::string& expected) {
    return MakeError(file_, at.line(), at.column(),
                     path + ": expected " + expected + ", found " + DescribeJson(at));
  }

  Result<RouteDescription> Read(const JsonValue& root) {
    if (!root.is_object()) return Fail(root, "route", "an object");
    RouteDescription out;
    if (const JsonValue* closed = root.Find("closed")) {
      if (!closed->is_bool()) return Fail(*closed, "closed", "true or false");
      out.closed = closed->as_bool();
    }
    const JsonValue* segments = root.Find("segments");
    if (segments == nullptr) {
      return MakeError(file_, root.line(), root.column(),
                       "route: expected a \"segments\" member, found none");
    }
    const std::size_t count = segments->as_array().size();
    if (!segments->is_array() || count == 0 || count > kMaxRouteFileSegments) {
      return Fail(*segments, "segments",
                  "an array of 1 to " + std::to_string(kMaxRouteFileSegments) + " segments");
    }
    out.segments.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const JsonValue& item = segments->as_array()[i];
      const std::string path = "segments[" + std::to_string(i) + "]";
      if (!item.is_object()) return Fail(item, path, "an object");
      const JsonValue* line = item.Find("line");
      const JsonValue* bezier = item.Find("bezier");
      if ((line == nullptr) == (bezier == nullptr)) {
        return MakeError(file_, item.line(), item.column(),
                         path + ": expected a \"line\" or a \"bezier\" member, found " +
                             (line == nullptr ? "neither" : "both"));
      }
      const bool is_line = line != nullptr;
      const JsonValue& points = is_line ? *line : *bezier;
      const std::string points_path = path + (is_line ? ".line" : ".bezier");
      const std::size_t wanted = is_line ? 2 : 4;
      if (!points.is_array() || points.as_array().size() != wanted) {
        return Fail(points, points_path, "an array of " + std::to_string(wanted) + " points");
      }
      RouteSegment& segment = out.segments[i];
      segment.kind = is_line ? RouteSegment::Kind::kLine : RouteSegment::Kind::kBezier;
      for (std::size_t k = 0; k < wanted; ++k) {
        const JsonValue& point = points.as_array()[k];
        const std::string point_path = points_path + "[" + std::to_string(k) + "]";
        const JsonArray& xy = point.as_array();
        if (!point.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number() ||
            !std::isfinite(xy[0].as_number()) || !std::isfinite(xy[1].as_number())) {
          return Fail(point, point_path, "a point [x, y] of two finite numbers");
        }
        if (std::abs(xy[0].as_number()) > kMaxRouteCoordinate ||
            std::abs(xy[1].as_number()) > kMaxRouteCoordinate) {
          return Fail(point, point_path, "coordinates of at most 1e15 in size");
        }
        segment.points[k] = glm::dvec2(xy[0].as_number(), xy[1].as_number());
      }
      for (std::size_t k = wanted; k < 4; ++k) segment.points[k] = segment.points[wanted - 1];
      if (i > 0 && !RoutePointsMeet(out.segments[i - 1].end(), segment.start())) {
        const JsonValue& first = points.as_array()[0];
        return MakeError(file_, first.line(), first.column(),
                         points_path + "[0]: expected the end of segments[" +
                             std::to_string(i - 1) + "] " +
                             DescribePoint(out.segments[i - 1].end()) + ", found " +
                             DescribePoint(segment.start()));
      }
    }
    if (out.closed && !RoutePointsMeet(out.segments.back().end(), out.segments.front().start())) {
      const JsonValue& closed = *root.Find("closed");
      return MakeError(file_, closed.line(), closed.column(),
                       "closed: the route ends at " + DescribePoint(out.segments.back().end()) +
                           " but starts at " + DescribePoint(out.segments.front().start()));
    }
    return out;
  }

 private:
  std::string file_;
};

JsonValue PointToJson(glm::dvec2 p) { return JsonValue(JsonArray{p.x, p.y}); }

}  // namespace

Result<RouteDescription> RouteDescriptionFromJson(std::string_view file, const JsonValue& value) {
  return Reader(file).Read(value);
}

Result<Route> ReadRouteJson(std::string_view file, std::string_view text) {
  Result<JsonValue> document = ParseJson(file, text);
  if (!document.ok()) return document.error();
  Result<RouteDescription> description = RouteDescriptionFromJson(file, document.value());
  if (!description.ok()) return description.error();
  Result<Route> route =
      Route::Build(std::move(description.value().segments), description.value().closed);
  if (!route.ok()) {
    Diagnostic error = route.error();
    error.file = std::string(file);
    return error;
  }
  return route;
}

JsonValue RouteToJson(const std::vector<RouteSegment>& segments, bool closed) {
  JsonValue root = JsonValue::MakeObject();
  JsonValue& list = root.Set("segments", JsonValue::MakeArray());
  for (const RouteSegment& segment : segments) {
    const bool is_line = segment.kind == RouteSegment::Kind::kLine;
    JsonValue points = JsonValue::MakeArray();
    for (int k = 0; k < (is_line ? 2 : 4); ++k) points.Append(PointToJson(segment.points[k]));
    JsonValue item = JsonValue::MakeObject();
    item.Set(is_line ? "line" : "bezier", std::move(points));
    list.Append(std::move(item));
  }
  if (closed) root.Set("closed", true);
  return root;
}

std::string WriteRouteJson(const Route& route, int indent) {
  JsonWriteOptions options;
  options.indent = indent;
  return WriteJson(RouteToJson(route.segments(), route.closed()), options);
}

JsonValue TightStretchesToJson(const std::vector<TightStretch>& stretches) {
  JsonValue list = JsonValue::MakeArray();
  for (const TightStretch& stretch : stretches) {
    JsonValue item = JsonValue::MakeObject();
    item.Set("start", stretch.start_distance);
    item.Set("end", stretch.end_distance);
    item.Set("min_radius", stretch.min_radius);
    item.Set("min_radius_at", stretch.min_radius_distance);
    list.Append(std::move(item));
  }
  return list;
}

JsonValue ObstacleStretchesToJson(const std::vector<ObstacleStretch>& stretches) {
  JsonValue list = JsonValue::MakeArray();
  for (const ObstacleStretch& stretch : stretches) {
    JsonValue item = JsonValue::MakeObject();
    item.Set("start", stretch.start_distance);
    item.Set("end", stretch.end_distance);
    item.Set("obstacle", stretch.obstacle);
    item.Set("min_distance", stretch.min_distance);
    list.Append(std::move(item));
  }
  return list;
}

}  // namespace md5stage
