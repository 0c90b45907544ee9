// `md5stage turn`: the turning-radius path from a pose to a point (arc + line) or to a pose
// (Dubins), one query from the arguments or many as CSV on stdin; with --obstacles, a path that
// comes within the clearance of one is planned around them instead (printed like `plan`). With
// --explain, also the construction the path was made from (TurnConstructionJob).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/command_registry.h"
#include "cli/obstacle_cli.h"
#include "cli/path_output.h"
#include "core/common/json.h"
#include "core/path/obstacle_planner.h"
#include "core/path/turn_construction.h"
#include "core/path/turn_path.h"

namespace md5stage::cli {
namespace {

struct TurnQuery {
  Pose2 from;
  glm::dvec2 to{0.0, 0.0};
  bool has_final_heading = false;
  double final_heading = 0.0;
  double radius = 0.0;
};

TurnPath Solve(const TurnQuery& query) {
  if (query.has_final_heading) {
    return DubinsPath(query.from, {query.to, query.final_heading}, query.radius);
  }
  return ArcLinePath(query.from.position, query.from.heading, query.radius, query.to);
}

void PrintText(const TurnPath& path) {
  std::printf("type %s\n", TurnPathTypeName(path.type));
  std::printf("length %s\n", path.ok() ? TextNumber(path.length).c_str() : "nan");
  if (!path.ok()) return;
  PrintEndAndSegmentsText(path.end, path.segments.data(), path.segment_count);
}

JsonValue PathJson(const TurnPath& path) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("type", TurnPathTypeName(path.type));
  root.Set("length", path.ok() ? JsonValue(path.length) : JsonValue());
  if (path.ok()) {
    root.Set("end", PoseJson(path.end));
    root.Set("segments", SegmentsJson(path.segments.data(), path.segment_count));
  }
  return root;
}

// ---- --explain: the construction ---------------------------------------------------------------

const char* SideName(TurnSide side) { return side == TurnSide::kLeft ? "left" : "right"; }

// Non-finite values (an unreachable side's d, theta, Q, lengths) are null, not a number.
JsonValue NumberOrNull(double value) {
  return std::isfinite(value) ? JsonValue(value) : JsonValue();
}

JsonValue PointOrNull(glm::dvec2 p) { return IsFinite(p) ? PointJson(p) : JsonValue(); }

JsonValue ConstructionJson(const TurnConstructionJob& job, const TurnConstruction& c) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("origin", PoseJson(job.origin));
  root.Set("radius", job.radius);
  root.Set("destination", PointJson(job.destination));
  root.Set("chosen",
           c.chosen_side >= 0 ? JsonValue(SideName(c.sides[c.chosen_side].side)) : JsonValue());
  JsonValue sides = JsonValue::MakeArray();
  for (const ArcLineConstructionSide& s : c.sides) {
    JsonValue side = JsonValue::MakeObject();
    side.Set("side", SideName(s.side));
    side.Set("P", PointJson(s.centre));
    side.Set("h", s.h);
    side.Set("phi", s.phi);
    side.Set("reachable", s.reachable);
    side.Set("d", NumberOrNull(s.d));
    side.Set("theta", NumberOrNull(s.theta));
    side.Set("Q", PointOrNull(s.leave));
    side.Set("leave_angle", NumberOrNull(s.leave_angle));
    side.Set("arc_angle", NumberOrNull(s.arc_angle));
    side.Set("arc_length", NumberOrNull(s.arc_length));
    side.Set("length", NumberOrNull(s.length));
    side.Set("chosen", s.chosen);
    sides.Append(std::move(side));
  }
  root.Set("sides", std::move(sides));
  if (c.has_final_heading) {
    root.Set("final_heading", job.final_heading);
    JsonValue words = JsonValue::MakeArray();
    for (const DubinsCandidate& candidate : c.dubins) {
      JsonValue word = JsonValue::MakeObject();
      word.Set("type", TurnPathTypeName(candidate.type));
      word.Set("exists", candidate.exists);
      word.Set("length", candidate.exists ? JsonValue(candidate.path.length) : JsonValue());
      JsonValue lengths = JsonValue::MakeArray();
      for (int i = 0; candidate.exists && i < candidate.path.segment_count; ++i) {
        lengths.Append(candidate.path.segments[i].length);
      }
      word.Set("segment_lengths", std::move(lengths));
      word.Set("shortest", candidate.shortest);
      words.Append(std::move(word));
    }
    root.Set("dubins", std::move(words));
  }
  return root;
}

void PrintConstructionText(const TurnConstructionJob& job, const TurnConstruction& c) {
  std::printf("construction radius %s destination %s chosen %s\n", TextNumber(job.radius).c_str(),
              TextPoint(job.destination).c_str(),
              c.chosen_side >= 0 ? SideName(c.sides[c.chosen_side].side) : "none");
  for (const ArcLineConstructionSide& s : c.sides) {
    std::printf("side %s P %s h %s phi %s", SideName(s.side), TextPoint(s.centre).c_str(),
                TextNumber(s.h).c_str(), TextNumber(s.phi).c_str());
    if (!s.reachable) {
      std::printf(" unreachable\n");
      continue;
    }
    std::printf(" reachable d %s theta %s Q %s arc_angle %s arc_length %s length %s%s\n",
                TextNumber(s.d).c_str(), TextNumber(s.theta).c_str(), TextPoint(s.leave).c_str(),
                TextNumber(s.arc_angle).c_str(), TextNumber(s.arc_length).c_str(),
                TextNumber(s.length).c_str(), s.chosen ? " chosen" : "");
  }
  if (!c.has_final_heading) return;
  for (const DubinsCandidate& candidate : c.dubins) {
    if (!candidate.exists) {
      std::printf("dubins %s none\n", TurnPathTypeName(candidate.type));
      continue;
    }
    std::printf("dubins %s length %s segments", TurnPathTypeName(candidate.type),
                TextNumber(candidate.path.length).c_str());
    for (int i = 0; i < candidate.path.segment_count; ++i) {
      std::printf(" %s", TextNumber(candidate.path.segments[i].length).c_str());
    }
    std::printf("%s\n", candidate.shortest ? " shortest" : "");
  }
}

// CSV lines x0,y0,h0,x1,y1,h1,r (h1 empty: no final heading) → "length,type" per line. Numbers
// the path core rejects (NaN, infinite, negative radius) have no path: "nan,unreachable". Lines
// that are not seven numbers are reported on stderr and answered "nan,invalid".
int RunBatch() {
  std::string line;
  int line_number = 0;
  int status = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = Split(line, ',');
    TurnQuery query;
    double v[7] = {0, 0, 0, 0, 0, 0, 0};
    bool valid = fields.size() == 7;
    for (std::size_t i = 0; valid && i < 7; ++i) {
      if (i == 5 && fields[i].empty()) continue;
      valid = ParseNumber(fields[i], &v[i], true);
    }
    if (!valid) {
      std::fprintf(stderr,
                   "stdin:%d: error: expected 7 numbers x0,y0,h0,x1,y1,h1,r (h1 may be empty), "
                   "found \"%s\"\n",
                   line_number, line.c_str());
      std::printf("nan,invalid\n");
      status = 1;
      continue;
    }
    query.from = {{v[0], v[1]}, v[2]};
    query.to = {v[3], v[4]};
    query.has_final_heading = !fields[5].empty();
    query.final_heading = v[5];
    query.radius = v[6];
    const TurnPath path = Solve(query);
    if (path.ok()) {
      std::printf("%s,%s\n", TextNumber(path.length).c_str(), TurnPathTypeName(path.type));
    } else {
      std::printf("nan,unreachable\n");
    }
  }
  return status;
}

// The turn path comes within the clearance of obstacles[crossed]: plan round the obstacles and
// print the answer like `plan` (exit 1 when there is no path or the query is refused).
int PlanAround(const TurnQuery& query, double clearance, const ObstacleSet& obstacles, int crossed,
               bool json) {
  std::fprintf(stderr,
               "md5stage turn: the turn path comes within clearance %s of obstacles[%d]; "
               "planning around the obstacles\n",
               TextNumber(clearance).c_str(), crossed);
  ObstaclePlannerScratch scratch;
  PlannedPath planned;
  ObstaclePlanResult result;
  ObstaclePlanJob job;
  job.start = query.from;
  job.goal = query.to;
  job.has_goal_heading = query.has_final_heading;
  job.goal_heading = query.final_heading;
  job.turning_radius = query.radius;
  job.clearance = clearance;
  job.obstacles = &obstacles;
  job.scratch = &scratch;
  job.path = &planned;
  job.result = &result;
  const Status run = job.Run();
  if (!run.ok()) {
    std::fprintf(stderr, "md5stage turn: error: %s\n", run.error().message.c_str());
    return 1;
  }
  if (json) {
    PrintPlanJson(result, planned);
  } else {
    PrintPlanText(result, planned);
  }
  return result.found() ? 0 : 1;
}

// The path as without --explain, then its construction: in JSON as the "construction" member.
int Explain(const TurnQuery& query, const TurnPath& path, bool json) {
  TurnConstruction construction;
  TurnConstructionJob job;
  job.origin = query.from;
  job.radius = query.radius;
  job.destination = query.to;
  job.has_final_heading = query.has_final_heading;
  job.final_heading = query.final_heading;
  job.out = &construction;
  const Status run = job.Run();
  if (!run.ok()) {
    std::fprintf(stderr, "md5stage turn: error: %s\n", run.error().message.c_str());
    return 1;
  }
  if (json) {
    JsonValue root = PathJson(path);
    root.Set("construction", ConstructionJson(job, construction));
    std::printf("%s\n", WriteJson(root).c_str());
  } else {
    PrintText(path);
    PrintConstructionText(job, construction);
  }
  return path.ok() ? 0 : 1;
}

int Usage(const char* problem) {
  std::fprintf(stderr,
               "md5stage turn: %s\nusage: md5stage turn --from X,Y,HEADING --to X,Y[,HEADING] "
               "--radius R [--obstacles FILE.json [--clearance C]] [--json]\n       md5stage turn "
               "--from X,Y,HEADING --to X,Y[,HEADING] --radius R --explain [--json]  (both "
               "turning circles: P, h, d, theta, phi, Q; with HEADING the Dubins candidates)\n"
               "       md5stage turn --batch  (CSV x0,y0,h0,x1,y1,h1,r on stdin)\n",
               problem);
  return 2;
}

int RunTurn(const std::vector<std::string>& args) {
  TurnQuery query;
  std::string obstacles_file;
  double clearance = 0.0;
  bool has_clearance = false;
  bool has_from = false, has_to = false, has_radius = false, json = false, batch = false;
  bool explain = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--json") {
      json = true;
    } else if (arg == "--explain") {
      explain = true;
    } else if (arg == "--batch") {
      batch = true;
    } else if (arg == "--from" && has_value) {
      if (!ParseStartPose(args[++i], &query.from)) return Usage("--from expects X,Y,HEADING");
      has_from = true;
    } else if (arg == "--to" && has_value) {
      if (!ParseGoal(args[++i], &query.to, &query.has_final_heading, &query.final_heading)) {
        return Usage("--to expects X,Y or X,Y,HEADING");
      }
      has_to = true;
    } else if (arg == "--radius" && has_value) {
      if (!ParseNumber(args[++i], &query.radius) || query.radius < 0.0) {
        return Usage("--radius expects a number >= 0");
      }
      has_radius = true;
    } else if (arg == "--obstacles" && has_value) {
      obstacles_file = args[++i];
    } else if (arg == "--clearance" && has_value) {
      if (!ParseNumber(args[++i], &clearance) || clearance < 0.0) {
        return Usage("--clearance expects a number >= 0");
      }
      has_clearance = true;
    } else {
      return Usage(("unexpected argument '" + arg + "'").c_str());
    }
  }
  if (batch) {
    if (has_from || has_to || has_radius || json || explain || !obstacles_file.empty() ||
        has_clearance) {
      return Usage("--batch takes no other options");
    }
    return RunBatch();
  }
  if (!has_from || !has_to || !has_radius) return Usage("--from, --to and --radius are required");
  if (has_clearance && obstacles_file.empty()) return Usage("--clearance needs --obstacles");
  // The construction is of the obstacle-free path; a path planned round obstacles has none.
  if (explain && !obstacles_file.empty()) return Usage("--explain takes no --obstacles");
  const TurnPath path = Solve(query);
  if (explain) return Explain(query, path, json);
  if (!obstacles_file.empty()) {
    const Result<ObstacleSet> obstacles = LoadObstaclesFile(obstacles_file);
    if (!obstacles.ok()) {
      std::fprintf(stderr, "%s\n", obstacles.error().ToString().c_str());
      return 1;
    }
    int crossed = -1;
    for (int i = 0; path.ok() && crossed < 0 && i < path.segment_count; ++i) {
      crossed = obstacles.value().FirstTurnSegmentWithin(path.segments[i], clearance);
    }
    // A clear turn path (or none at all) is answered as without obstacles.
    if (crossed >= 0) return PlanAround(query, clearance, obstacles.value(), crossed, json);
  }
  if (json) {
    std::printf("%s\n", WriteJson(PathJson(path)).c_str());
  } else {
    PrintText(path);
  }
  return path.ok() ? 0 : 1;
}

static CommandRegistrar reg{
    {"turn",
     "turn --from X,Y,H --to X,Y[,H] --radius R [--obstacles FILE.json [--clearance C] | "
     "--explain] [--json] | --batch",
     &RunTurn}};

}  // namespace
}  // namespace md5stage::cli
