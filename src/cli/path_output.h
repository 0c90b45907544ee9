// How the path commands (turn, plan, route) print numbers, points, poses and turn segments: the
// text lines they document and the JSON they write through the core's writer.
#pragma once

#include <glm/vec2.hpp>
#include <string>

#include "core/common/json.h"
#include "core/path/pose.h"
#include "core/path/turn_path.h"

namespace md5stage::cli {

// A number in the text output: %.15g, the precision the text format documents (JSON output
// carries every digit instead).
std::string TextNumber(double value);
// "(x, y)".
std::string TextPoint(glm::dvec2 p);

// "end (x, y) heading H", then one "arc ..." or "line ..." line per segment.
void PrintEndAndSegmentsText(const Pose2& end, const TurnSegment* segments, int count);

// [x, y].
JsonValue PointJson(glm::dvec2 p);
// {"position": [x, y], "heading": H}.
JsonValue PoseJson(const Pose2& pose);
// [{"kind": "arc"|"line", "start", "heading", "length", and for arcs "centre", "radius",
// "start_angle", "sweep"}, ...].
JsonValue SegmentsJson(const TurnSegment* segments, int count);

}  // namespace md5stage::cli
