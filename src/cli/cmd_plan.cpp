// `md5stage plan`: a turning-radius path around the obstacles of a file, from a pose to a point or
// a pose; one query from the arguments, or many as CSV on stdin with one obstacles file.
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
#include "core/path/obstacles.h"

namespace md5stage::cli {
namespace {

struct Planner {
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
};

// CSV lines x0,y0,h0,x1,y1,h1,r (h1 empty: no final heading) → "length,found" per line ("nan,false"
// when there is no path). Lines that are not seven numbers, or whose query is refused (a radius
// <= 0, a start or goal within the clearance of an obstacle), are reported on stderr and
// answered "nan,invalid".
int RunBatch(const ObstacleSet& obstacles, double clearance, const ObstaclePlanLimits& limits) {
  Planner planner;
  std::string line;
  int line_number = 0;
  int status = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = Split(line, ',');
    double v[7] = {0, 0, 0, 0, 0, 0, 0};
    bool valid = fields.size() == 7;
    for (std::size_t i = 0; valid && i < 7; ++i) {
      if (i == 5 && fields[i].empty()) continue;
      valid = ParseNumber(fields[i], &v[i]);
    }
    if (!valid) {
      std::fprintf(stderr,
                   "stdin:%d: error: expected 7 finite numbers x0,y0,h0,x1,y1,h1,r (h1 may be "
                   "empty), found \"%s\"\n",
                   line_number, line.c_str());
      std::printf("nan,invalid\n");
      status = 1;
      continue;
    }
    ObstaclePlanJob job;
    job.start = {{v[0], v[1]}, v[2]};
    job.goal = {v[3], v[4]};
    job.has_goal_heading = !fields[5].empty();
    job.goal_heading = v[5];
    job.turning_radius = v[6];
    job.clearance = clearance;
    job.limits = limits;
    job.obstacles = &obstacles;
    job.scratch = &planner.scratch;
    job.path = &planner.path;
    job.result = &planner.result;
    const Status run = job.Run();
    if (!run.ok()) {
      std::fprintf(stderr, "stdin:%d: error: %s\n", line_number, run.error().message.c_str());
      std::printf("nan,invalid\n");
      status = 1;
      continue;
    }
    if (planner.result.found()) {
      std::printf("%s,true\n", TextNumber(planner.path.length).c_str());
    } else {
      std::printf("nan,false\n");
    }
  }
  return status;
}

int Usage(const char* problem) {
  std::fprintf(
      stderr,
      "md5stage plan: %s\nusage: md5stage plan --from X,Y,HEADING --to X,Y[,HEADING] "
      "--radius R --obstacles FILE.json [--clearance C] [--budget-ms N] [--json]\n"
      "       md5stage plan --batch --obstacles FILE.json [--clearance C] [--budget-ms N]"
      "  (CSV x0,y0,h0,x1,y1,h1,r on stdin)\n"
      "--budget-ms N: the search's budget, N x %d state expansions (calibrated once: about N "
      "ms a query on the bench field; the answer is the same on every machine); default "
      "%d expansions\n",
      problem, kPlanExpansionsPerMs, kDefaultPlanBudget);
  return 2;
}

int RunPlan(const std::vector<std::string>& args) {
  ObstaclePlanJob job;
  std::string obstacles_file;
  bool has_from = false, has_to = false, has_radius = false, json = false, batch = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--json") {
      json = true;
    } else if (arg == "--batch") {
      batch = true;
    } else if (arg == "--from" && has_value) {
      if (!ParseStartPose(args[++i], &job.start)) return Usage("--from expects X,Y,HEADING");
      has_from = true;
    } else if (arg == "--to" && has_value) {
      if (!ParseGoal(args[++i], &job.goal, &job.has_goal_heading, &job.goal_heading)) {
        return Usage("--to expects X,Y or X,Y,HEADING");
      }
      has_to = true;
    } else if (arg == "--radius" && has_value) {
      if (!ParseNumber(args[++i], &job.turning_radius) || job.turning_radius <= 0.0) {
        return Usage("--radius expects a number > 0");
      }
      has_radius = true;
    } else if (arg == "--clearance" && has_value) {
      if (!ParseNumber(args[++i], &job.clearance) || job.clearance < 0.0) {
        return Usage("--clearance expects a number >= 0");
      }
    } else if (arg == "--budget-ms" && has_value) {
      double ms = 0.0;
      if (!ParseNumber(args[++i], &ms) || !(ms > 0.0) || ms > 1e6) {
        return Usage(("--budget-ms: expected a number of milliseconds > 0 and <= 1e6, found '" +
                      args[i] + "'")
                         .c_str());
      }
      job.limits.budget = PlanBudgetFromMilliseconds(ms);
    } else if (arg == "--obstacles" && has_value) {
      obstacles_file = args[++i];
    } else {
      return Usage(("unexpected argument '" + arg + "'").c_str());
    }
  }
  if (obstacles_file.empty()) return Usage("--obstacles FILE.json is required");
  if (batch && (has_from || has_to || has_radius || json)) {
    return Usage("--batch takes only --obstacles, --clearance and --budget-ms");
  }
  if (!batch && (!has_from || !has_to || !has_radius)) {
    return Usage("--from, --to and --radius are required");
  }
  const Result<ObstacleSet> obstacles = LoadObstaclesFile(obstacles_file);
  if (!obstacles.ok()) {
    std::fprintf(stderr, "%s\n", obstacles.error().ToString().c_str());
    return 1;
  }
  if (batch) return RunBatch(obstacles.value(), job.clearance, job.limits);
  Planner planner;
  job.obstacles = &obstacles.value();
  job.scratch = &planner.scratch;
  job.path = &planner.path;
  job.result = &planner.result;
  const Status run = job.Run();
  if (!run.ok()) {
    std::fprintf(stderr, "md5stage plan: error: %s\n", run.error().message.c_str());
    return 1;
  }
  if (json) {
    PrintPlanJson(planner.result, planner.path);
  } else {
    PrintPlanText(planner.result, planner.path);
  }
  return planner.result.found() ? 0 : 1;
}

static CommandRegistrar reg{
    {"plan",
     "plan --from X,Y,H --to X,Y[,H] --radius R --obstacles FILE.json "
     "[--clearance C] [--budget-ms N] [--json] | --batch --obstacles FILE.json",
     &RunPlan}};

}  // namespace
}  // namespace md5stage::cli
