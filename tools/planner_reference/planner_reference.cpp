// Writes the planner quality test's reference (tests/core/path/testdata/planner_reference.csv):
// for each generated case (bench/planner_cases.h) the shortest path found by the slow
// fine-lattice search of tests/core/path/exhaustive_planner.h (cells of r/6, 72 headings, arcs of
// r, 2r and 4r, run until no open state can beat the best), shortened further by PathShortenJob
// with a large budget, with the planner's settings and with thorough ones (the shorter counts).
// Run: md5stage_planner_reference > planner_reference.csv (a few minutes on one core; `--cases A-B`
// for a range).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../../bench/planner_cases.h"
#include "../../tests/core/path/exhaustive_planner.h"
#include "core/path/obstacle_planner.h"

namespace md5stage {
namespace {

int Main(int argc, char** argv) {
  int first = 0, last = planner_cases::kCaseCount - 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cases" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d-%d", &first, &last) != 2 || first < 0 || last < first ||
          last >= planner_cases::kCaseCount) {
        std::fprintf(stderr, "planner_reference: --cases: expected A-B within 0-%d\n",
                     planner_cases::kCaseCount - 1);
        return 2;
      }
    } else {
      std::fprintf(stderr, "planner_reference: unexpected argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  std::printf(
      "case,kind,radius,clearance,x0,y0,h0,x1,y1,h1,found,length,search_length,complete,"
      "expansions\n");
  for (int i = first; i <= last; ++i) {
    const planner_cases::Case c = planner_cases::MakeCase(i);
    const double* heading = c.has_heading ? &c.heading : nullptr;
    testing::ExhaustiveOptions options;
    options.cells_per_radius = 6.0;
    options.heading_bins = 72;
    options.max_cells_per_side = 256;
    options.max_expansions = 6000000;
    const auto t0 = std::chrono::steady_clock::now();
    const testing::ExhaustiveResult best = testing::ExhaustivePlan(
        c.start, c.goal, heading, c.radius, c.clearance, c.obstacles, options);
    double length = best.length;
    if (best.found) {
      // The shortening is a local descent, so two settings (the planner's and a thorough one)
      // can end in different optima: the shorter counts.
      for (int thorough = 0; thorough < 2; ++thorough) {
        PathShortenScratch scratch;
        PlannedPath shortened;
        PathShortenResult result;
        PathShortenJob job;
        job.path = &best.lattice_path;
        job.goal = c.goal;
        job.has_goal_heading = c.has_heading;
        job.goal_heading = c.heading;
        job.turning_radius = c.radius;
        job.clearance = c.clearance;
        job.obstacles = &c.obstacles;
        job.budget = 1000000;
        if (thorough) {
          job.options.anchor_spacing = 0.25;
          job.options.last_step = 1e-3;
          job.options.sweeps = 4;
          job.options.along_moves = true;
        }
        job.scratch = &scratch;
        job.out = &shortened;
        job.result = &result;
        const Status status = job.Run();
        if (!status.ok()) {
          std::fprintf(stderr, "case %d: %s\n", i, status.error().message.c_str());
        } else {
          length = std::min(length, shortened.length);
        }
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "case %d (%s): %s %.3f in %.1f s\n", i, c.kind,
                 best.found ? "found" : "none", length, seconds);
    char heading_text[64] = "";
    if (c.has_heading) std::snprintf(heading_text, sizeof heading_text, "%.17g", c.heading);
    std::printf("%d,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%.17g,%.17g,%s,%zu\n", i,
                c.kind, c.radius, c.clearance, c.start.position.x, c.start.position.y,
                c.start.heading, c.goal.x, c.goal.y, heading_text, best.found ? "true" : "false",
                best.found ? length : 0.0, best.found ? best.length : 0.0,
                best.complete ? "true" : "false", best.expansions);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace md5stage

int main(int argc, char** argv) { return md5stage::Main(argc, argv); }
