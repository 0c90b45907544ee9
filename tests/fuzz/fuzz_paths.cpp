// libFuzzer harness: the path builders on raw numbers, NaN, infinities, huge and zero values
// included: ArcLinePath(OnSide), DubinsPath(OfType), Route::Build from random control points,
// CubicBezier, and a Follower retargeted several times, each result sampled at hostile distances
// and times. Invariants: bad input gives "no path" or an error, never a crash or a hang; for
// moderate finite input a path that exists samples to finite poses.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/path/cubic_bezier.h"
#include "core/path/follower.h"
#include "core/path/route.h"
#include "core/path/turn_path.h"
#include "fuzz_util.h"

using namespace md5stage;
using fuzz::AllWithin;
using fuzz::ConsumeEdgyDouble;

namespace {

// Inputs up to this size are "moderate": results must then be finite.
constexpr double kModerate = 1e6;

glm::dvec2 ConsumePoint(FuzzedDataProvider& in) {
  const double x = ConsumeEdgyDouble(in);
  return {x, ConsumeEdgyDouble(in)};
}

bool PoseFinite(const Pose2& pose) {
  return IsFinite(pose.position) && std::isfinite(pose.heading);
}

void SampleTurn(const TurnPath& path, bool moderate, FuzzedDataProvider& in) {
  if (!path.ok()) return;
  FUZZ_CHECK(path.segment_count >= 0 && path.segment_count <= TurnPath::kMaxSegments);
  if (moderate) FUZZ_CHECK(std::isfinite(path.length) && path.length >= 0.0);
  double distances[] = {0.0,
                        path.length * 0.5,
                        path.length,
                        -1.0,
                        path.length * 2.0 + 1.0,
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(),
                        ConsumeEdgyDouble(in)};
  Pose2 poses[sizeof(distances) / sizeof(distances[0])];
  TurnPathSampleJob job;
  job.path = &path;
  job.distances = distances;
  job.count = sizeof(distances) / sizeof(distances[0]);
  job.poses = poses;
  FUZZ_CHECK(job.Run());
  if (!moderate) return;
  for (std::size_t i = 0; i + 1 < job.count; ++i) {
    FUZZ_CHECK(PoseFinite(poses[i]));
    FUZZ_CHECK(poses[i].heading > -3.1415927 && poses[i].heading <= 3.1415927);
  }
}

void FuzzArcLine(FuzzedDataProvider& in) {
  const glm::dvec2 from = ConsumePoint(in);
  const double heading = ConsumeEdgyDouble(in);
  const double radius = ConsumeEdgyDouble(in);
  const glm::dvec2 to = ConsumePoint(in);
  const bool moderate =
      AllWithin({from.x, from.y, heading, radius, to.x, to.y}, kModerate) && radius >= 0.0;
  const TurnPath path =
      in.ConsumeBool() ? ArcLinePath(from, heading, radius, to)
                       : ArcLinePathOnSide(from, heading, radius, to,
                                           in.ConsumeBool() ? TurnSide::kLeft : TurnSide::kRight);
  (void)TurnPathTypeName(path.type);
  SampleTurn(path, moderate, in);
}

void FuzzDubins(FuzzedDataProvider& in) {
  Pose2 from{ConsumePoint(in), ConsumeEdgyDouble(in)};
  Pose2 to{ConsumePoint(in), ConsumeEdgyDouble(in)};
  const double radius = ConsumeEdgyDouble(in);
  const bool moderate = AllWithin({from.position.x, from.position.y, from.heading, to.position.x,
                                   to.position.y, to.heading, radius},
                                  kModerate) &&
                        radius >= 0.0;
  (void)DubinsWordLengths(from, to, radius);
  const int word = in.ConsumeIntegralInRange<int>(0, 6);
  const TurnPath path =
      word == 0 ? DubinsPath(from, to, radius)
                : DubinsPathOfType(from, to, radius, static_cast<TurnPathType>(word + 2));
  if (moderate && word == 0) FUZZ_CHECK(path.ok());  // some word always exists
  SampleTurn(path, moderate, in);
}

std::vector<RouteSegment> ConsumeSegments(FuzzedDataProvider& in, bool* moderate) {
  std::vector<RouteSegment> segments;
  const int count = in.ConsumeIntegralInRange<int>(0, 12);
  glm::dvec2 at = ConsumePoint(in);
  *moderate = AllWithin({at.x, at.y}, kModerate);
  for (int i = 0; i < count; ++i) {
    // Mostly chained (ends meet), sometimes a fresh start to exercise the join check.
    const glm::dvec2 start = in.ConsumeIntegral<unsigned char>() < 240 ? at : ConsumePoint(in);
    if (in.ConsumeBool()) {
      const glm::dvec2 end = ConsumePoint(in);
      *moderate = *moderate && AllWithin({start.x, start.y, end.x, end.y}, kModerate);
      segments.push_back(RouteSegment::Line(start, end));
      at = end;
    } else {
      const glm::dvec2 c1 = ConsumePoint(in), c2 = ConsumePoint(in), end = ConsumePoint(in);
      *moderate = *moderate &&
                  AllWithin({start.x, start.y, c1.x, c1.y, c2.x, c2.y, end.x, end.y}, kModerate);
      segments.push_back(RouteSegment::Bezier(start, c1, c2, end));
      at = end;
    }
  }
  return segments;
}

void CheckRoute(const Route& route, bool moderate, FuzzedDataProvider& in) {
  const double length = route.length();
  if (moderate) FUZZ_CHECK(std::isfinite(length) && length >= 0.0);
  for (double distance : {0.0, length * 0.3, length, -5.0, length + 5.0, ConsumeEdgyDouble(in)}) {
    const Pose2 pose = route.Sample(distance);
    if (moderate && !std::isnan(distance)) FUZZ_CHECK(PoseFinite(pose));
  }
  (void)route.FindTightStretches(ConsumeEdgyDouble(in));
}

void FuzzRoute(FuzzedDataProvider& in) {
  bool moderate = true;
  std::vector<RouteSegment> segments = ConsumeSegments(in, &moderate);
  const bool closed = in.ConsumeBool();
  if (closed && !segments.empty()) {
    RouteSegment& last = segments.back();
    (last.kind == RouteSegment::Kind::kLine ? last.points[1] : last.points[3]) =
        segments.front().start();
  }
  const Result<Route> route = Route::Build(segments, closed);
  if (!route.ok()) {
    FUZZ_CHECK(!route.error().message.empty());
    return;
  }
  CheckRoute(route.value(), moderate, in);
}

void FuzzBezier(FuzzedDataProvider& in) {
  std::array<glm::dvec2, 4> points{ConsumePoint(in), ConsumePoint(in), ConsumePoint(in),
                                   ConsumePoint(in)};
  bool finite = true, in_range = true;
  for (const glm::dvec2& p : points) {
    finite = finite && IsFinite(p);
    in_range = in_range && AllWithin({p.x, p.y}, kMaxRouteCoordinate);
  }
  if (!finite) return;  // the constructor requires finite points (Route::Build checks)
  const CubicBezier curve(points);
  // Beyond kMaxRouteCoordinate the curve is outside its contract: building it must still end
  // quickly, but its lengths overflow and it is not queried.
  if (!in_range) return;
  FUZZ_CHECK(curve.knot_count() < 1 << 20);
  const double t = ConsumeEdgyDouble(in);
  (void)curve.Position(t);
  (void)curve.TangentHeading(t);
  (void)curve.Curvature(t);
  (void)curve.DistanceAtParameter(t);
  const double distance = ConsumeEdgyDouble(in);
  const double parameter = curve.ParameterAtDistance(distance);
  if (!std::isnan(distance)) FUZZ_CHECK(parameter >= 0.0 && parameter <= 1.0);
  (void)curve.Sample(distance);
}

// A unit whose pose, radius, speed and targets are all moderate has a finite pose at any time
// (huge, infinite and NaN times included); hostile numbers must only never crash or hang.
void FuzzFollower(FuzzedDataProvider& in) {
  const Pose2 start{ConsumePoint(in), ConsumeEdgyDouble(in)};
  const double radius = ConsumeEdgyDouble(in);
  const double speed = ConsumeEdgyDouble(in);
  Follower follower(start, radius, speed, ConsumeEdgyDouble(in));
  bool moderate =
      AllWithin({start.position.x, start.position.y, start.heading, radius, speed}, kModerate);
  std::shared_ptr<const Route> route;
  for (int step = 0; step < 6 && in.remaining_bytes() > 0; ++step) {
    const double time = ConsumeEdgyDouble(in);
    switch (in.ConsumeIntegralInRange<int>(0, 6)) {
      case 0: {
        const glm::dvec2 point = ConsumePoint(in);
        if (follower.GoToPoint(time, point).ok()) {
          moderate = moderate && AllWithin({point.x, point.y}, kModerate);
        }
        break;
      }
      case 1: {
        const Pose2 target{ConsumePoint(in), ConsumeEdgyDouble(in)};
        if (follower.GoToPose(time, target).ok()) {
          moderate = moderate &&
                     AllWithin({target.position.x, target.position.y, target.heading}, kModerate);
        }
        break;
      }
      case 2: {
        bool route_moderate = true;
        Result<Route> built = Route::Build(ConsumeSegments(in, &route_moderate), false);
        if (built.ok()) route = std::make_shared<const Route>(std::move(built).value());
        const PlayMode mode = static_cast<PlayMode>(in.ConsumeIntegralInRange<int>(0, 2));
        if (follower.FollowRoute(time, route, mode).ok()) {
          moderate = moderate && route_moderate && built.ok();
        }
        break;
      }
      case 3:
        follower.Stop(time);
        break;
      case 4: {
        const double new_speed = ConsumeEdgyDouble(in);
        if (follower.SetSpeed(time, new_speed).ok()) {
          moderate = moderate && AllWithin({new_speed}, kModerate);
        }
        break;
      }
      case 5: {
        const double new_radius = ConsumeEdgyDouble(in);
        if (follower.SetTurningRadius(new_radius).ok()) {
          moderate = moderate && AllWithin({new_radius}, kModerate);
        }
        break;
      }
      default: {
        const double query = ConsumeEdgyDouble(in);
        const Pose2 pose = follower.PoseAt(query);
        if (moderate) FUZZ_CHECK(PoseFinite(pose));
        (void)follower.DistanceAt(query);
        (void)follower.ArrivedAt(query);
        (void)follower.PlanLength();
        break;
      }
    }
  }
  Follower group[2] = {follower, Follower(start, 10.0, 50.0)};
  Pose2 poses[2];
  FollowerPoseJob job;
  job.followers = group;
  job.count = 2;
  job.time = ConsumeEdgyDouble(in);
  job.poses = poses;
  FUZZ_CHECK(job.Run());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      FuzzArcLine(in);
      break;
    case 1:
      FuzzDubins(in);
      break;
    case 2:
      FuzzRoute(in);
      break;
    case 3:
      FuzzBezier(in);
      break;
    default:
      FuzzFollower(in);
      break;
  }
  return 0;
}
