#include "cli/path_output.h"

#include <cstdio>
#include <utility>

namespace md5stage::cli {

std::string TextNumber(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

std::string TextPoint(glm::dvec2 p) { return "(" + TextNumber(p.x) + ", " + TextNumber(p.y) + ")"; }

void PrintEndAndSegmentsText(const Pose2& end, const TurnSegment* segments, int count) {
  std::printf("end %s heading %s\n", TextPoint(end.position).c_str(),
              TextNumber(end.heading).c_str());
  for (int i = 0; i < count; ++i) {
    const TurnSegment& s = segments[i];
    if (s.kind == TurnSegment::Kind::kArc) {
      std::printf("arc start %s heading %s length %s centre %s radius %s start_angle %s sweep %s\n",
                  TextPoint(s.start.position).c_str(), TextNumber(s.start.heading).c_str(),
                  TextNumber(s.length).c_str(), TextPoint(s.centre).c_str(),
                  TextNumber(s.radius).c_str(), TextNumber(s.start_angle).c_str(),
                  TextNumber(s.sweep).c_str());
    } else {
      std::printf("line start %s heading %s length %s\n", TextPoint(s.start.position).c_str(),
                  TextNumber(s.start.heading).c_str(), TextNumber(s.length).c_str());
    }
  }
}

JsonValue PointJson(glm::dvec2 p) { return JsonValue(JsonArray{p.x, p.y}); }

JsonValue PoseJson(const Pose2& pose) {
  JsonValue object = JsonValue::MakeObject();
  object.Set("position", PointJson(pose.position));
  object.Set("heading", pose.heading);
  return object;
}

JsonValue SegmentsJson(const TurnSegment* segments, int count) {
  JsonValue list = JsonValue::MakeArray();
  for (int i = 0; i < count; ++i) {
    const TurnSegment& s = segments[i];
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
    list.Append(std::move(item));
  }
  return list;
}

}  // namespace md5stage::cli
