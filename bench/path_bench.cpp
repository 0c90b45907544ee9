// Path queries: Dubins shortest path and arc + line per query, route position at a distance per
// query (random distances), and the route's arc-length tables per segment built. Queries come
// from a fixed-seed generator of our own, so native and wasm answer exactly the same ones.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/path/route.h"
#include "core/path/turn_path.h"

namespace md5stage::bench {
namespace {

constexpr int kQueries = 4096;  // a power of two: the benchmarks cycle with a mask

// splitmix64: the same numbers under every standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  double Uniform(double lo, double hi) {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
  }

 private:
  std::uint64_t state_;
};

struct PoseQuery {
  Pose2 from, to;
};

// Start and end anywhere in a square of half-size `extent` turning radii, any headings.
std::vector<PoseQuery> MakePoseQueries(double radius, double extent, std::uint64_t seed) {
  Random random(seed);
  std::vector<PoseQuery> queries(kQueries);
  const double half = extent * radius;
  for (PoseQuery& q : queries) {
    q.from = {{random.Uniform(-half, half), random.Uniform(-half, half)},
              random.Uniform(-kPi, kPi)};
    q.to = {{random.Uniform(-half, half), random.Uniform(-half, half)}, random.Uniform(-kPi, kPi)};
  }
  return queries;
}

void Dubins(benchmark::State& state, double extent) {
  const double radius = 2.5;
  const std::vector<PoseQuery> queries = MakePoseQueries(radius, extent, 42);
  std::size_t i = 0;
  for (auto _ : state) {
    const PoseQuery& q = queries[i++ & (kQueries - 1)];
    TurnPath path = DubinsPath(q.from, q.to, radius);
    benchmark::DoNotOptimize(path);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void ArcLine(benchmark::State& state) {
  const double radius = 2.5;
  const std::vector<PoseQuery> queries = MakePoseQueries(radius, 8.0, 7);
  std::size_t i = 0;
  for (auto _ : state) {
    const PoseQuery& q = queries[i++ & (kQueries - 1)];
    TurnPath path = ArcLinePath(q.from.position, q.from.heading, radius, q.to.position);
    benchmark::DoNotOptimize(path);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// The 2,000 cases of ../shared/reference/dubins_ref.csv (the set the reference C library was timed
// on): general, near, aligned and degenerate poses at many radii. Empty without ../shared.
struct RadiusQuery {
  Pose2 from, to;
  double radius;
};
std::vector<RadiusQuery> ReferenceDubinsQueries() {
  std::vector<RadiusQuery> queries;
  std::istringstream csv(ReadWholeFile(SharedDir() + "/reference/dubins_ref.csv"));
  std::string line;
  std::getline(csv, line);  // header: case_id,category,x0,y0,theta0,x1,y1,theta1,rho,...
  while (std::getline(csv, line)) {
    std::istringstream fields(line);
    std::string field;
    std::vector<double> values;
    for (int column = 0; column < 9 && std::getline(fields, field, ','); ++column) {
      if (column >= 2) values.push_back(std::strtod(field.c_str(), nullptr));
    }
    if (values.size() != 7) continue;
    queries.push_back(
        {{{values[0], values[1]}, values[2]}, {{values[3], values[4]}, values[5]}, values[6]});
  }
  return queries;
}

void DubinsReference(benchmark::State& state) {
  const std::vector<RadiusQuery> queries = ReferenceDubinsQueries();
  if (queries.empty()) {
    state.SkipWithError("skipped: ../shared/reference/dubins_ref.csv not found");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const RadiusQuery& q = queries[i];
    i = i + 1 == queries.size() ? 0 : i + 1;
    TurnPath path = DubinsPath(q.from, q.to, q.radius);
    benchmark::DoNotOptimize(path);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// A wandering chain of `count` segments; every third a line when `with_lines`, else Beziers,
// with random (not tangent-continuous) control points, like hand-edited routes.
std::vector<RouteSegment> MakeSegments(int count, bool with_lines, std::uint64_t seed) {
  Random random(seed);
  std::vector<RouteSegment> segments;
  glm::dvec2 at(0.0, 0.0);
  double heading = 0.0;
  for (int i = 0; i < count; ++i) {
    heading += random.Uniform(-1.2, 1.2);
    const double length = random.Uniform(10.0, 60.0);
    const glm::dvec2 end = at + length * Direction(heading);
    if (with_lines && i % 3 == 0) {
      segments.push_back(RouteSegment::Line(at, end));
    } else {
      // Each bend before its reach: sequenced, as GCC evaluated the products these were (the
      // operands' order is unspecified, and the wasm build's clang took the other one).
      const glm::dvec2 bend1 = Direction(heading + random.Uniform(-0.8, 0.8));
      const glm::dvec2 c1 = at + random.Uniform(0.2, 0.5) * length * bend1;
      const glm::dvec2 bend2 = Direction(heading + random.Uniform(-0.8, 0.8));
      const glm::dvec2 c2 = end - random.Uniform(0.2, 0.5) * length * bend2;
      segments.push_back(RouteSegment::Bezier(at, c1, c2, end));
    }
    at = end;
  }
  return segments;
}

void RouteSample(benchmark::State& state, bool with_lines) {
  Result<Route> built = Route::Build(MakeSegments(64, with_lines, 3));
  if (!built.ok()) {
    state.SkipWithError("route build failed");
    return;
  }
  const Route route = std::move(built).value();
  Random random(11);
  std::vector<double> distances(kQueries);
  for (double& d : distances) d = random.Uniform(0.0, route.length());
  std::size_t i = 0;
  for (auto _ : state) {
    Pose2 pose = route.Sample(distances[i++ & (kQueries - 1)]);
    benchmark::DoNotOptimize(pose);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void RouteBuild(benchmark::State& state) {
  const std::vector<RouteSegment> segments = MakeSegments(64, false, 5);
  for (auto _ : state) {
    Result<Route> route = Route::Build(segments);
    benchmark::DoNotOptimize(route.ok());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(segments.size()));
}

}  // namespace

void RegisterPathBenchmarks() {
  benchmark::RegisterBenchmark("dubins", [](benchmark::State& s) { Dubins(s, 8.0); });
  benchmark::RegisterBenchmark("dubins/near", [](benchmark::State& s) { Dubins(s, 2.0); });
  benchmark::RegisterBenchmark("dubins/reference", DubinsReference);
  benchmark::RegisterBenchmark("arc_line", ArcLine);
  benchmark::RegisterBenchmark("route_sample/bezier",
                               [](benchmark::State& s) { RouteSample(s, false); });
  benchmark::RegisterBenchmark("route_sample/mixed",
                               [](benchmark::State& s) { RouteSample(s, true); });
  benchmark::RegisterBenchmark("route_build/bezier", RouteBuild);
}

}  // namespace md5stage::bench
