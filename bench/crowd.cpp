#include "crowd.h"

#include <cmath>
#include <utility>

#include "core/anim/jobs.h"

namespace md5stage::bench {
namespace {

// Closed loop of four Beziers approximating an ellipse with half-axes a, b around `centre`.
std::shared_ptr<const Route> MakeLoop(glm::dvec2 centre, double a, double b) {
  constexpr double k = 0.5522847498307936;  // quarter-circle control distance
  const glm::dvec2 p[4] = {centre + glm::dvec2(a, 0), centre + glm::dvec2(0, b),
                           centre + glm::dvec2(-a, 0), centre + glm::dvec2(0, -b)};
  const glm::dvec2 t[4] = {{0, k * b}, {-k * a, 0}, {0, -k * b}, {k * a, 0}};
  std::vector<RouteSegment> segments;
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    segments.push_back(RouteSegment::Bezier(p[i], p[i] + t[i], p[j] - t[j], p[j]));
  }
  Result<Route> route = Route::Build(std::move(segments), true);
  return route.ok() ? std::make_shared<const Route>(std::move(route).value()) : nullptr;
}

glm::mat4 WorldOf(const Pose2& root) {
  const float c = static_cast<float>(std::cos(root.heading));
  const float s = static_cast<float>(std::sin(root.heading));
  return glm::mat4(
      glm::vec4(c, s, 0, 0), glm::vec4(-s, c, 0, 0), glm::vec4(0, 0, 1, 0),
      glm::vec4(static_cast<float>(root.position.x), static_cast<float>(root.position.y), 0, 1));
}

}  // namespace

Crowd::Crowd(std::shared_ptr<const anim::Model> model,
             std::vector<std::shared_ptr<const anim::Animation>> animations, int count,
             int route_count)
    : model_(std::move(model)), animations_(std::move(animations)), count_(count) {
  joints_ = model_->skeleton().joint_count();
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(route_count))));
  for (int r = 0; r < route_count; ++r) {
    const glm::dvec2 centre(400.0 * (r % side), 400.0 * (r / side));
    routes_.push_back(MakeLoop(centre, 150.0 + 10.0 * (r % 3), 90.0 + 15.0 * (r % 4)));
  }
  followers_.reserve(count_);
  for (int i = 0; i < count_; ++i) {
    const anim::Animation* animation = animations_[i % animations_.size()].get();
    const std::shared_ptr<const Route>& route = routes_[i % route_count];
    const double speed = std::max(1.0, static_cast<double>(animation->average_ground_speed()));
    // Each unit joined its loop at a different (earlier) time, so at any time they are spread
    // along it.
    const double joined = -route->length() / speed * (static_cast<double>(i) / count_);
    Follower follower(route->Sample(0.0), 40.0, speed, joined);
    follower.FollowRoute(joined, route, PlayMode::kLoop);
    followers_.push_back(std::move(follower));
    animation_of_.push_back(animation);
    time_offsets_.push_back(0.137f * static_cast<float>(i % 17));
  }
  roots_.resize(count_);
  const std::size_t slots = static_cast<std::size_t>(count_) * joints_;
  locals_.resize(slots);
  world_joints_.resize(slots);
  palettes_.resize(slots);
}

bool Crowd::Update(double time) {
  FollowerPoseJob follow;
  follow.followers = followers_.data();
  follow.count = followers_.size();
  follow.time = time;
  follow.poses = roots_.data();
  if (!follow.Run()) return false;

  const anim::Skeleton& skeleton = model_->skeleton();
  const anim::Span<const glm::mat4> inverse_bind(skeleton.inverse_bind_matrices().data(),
                                                 skeleton.inverse_bind_matrices().size());
  const std::size_t joints = static_cast<std::size_t>(joints_);
  bool ok = true;
  for (int i = 0; i < count_; ++i) {
    const std::size_t first = static_cast<std::size_t>(i) * joints;
    const anim::Span<anim::JointTransform> locals(locals_.data() + first, joints);
    const anim::Span<glm::mat4> world(world_joints_.data() + first, joints);
    anim::SampleJob sample;
    sample.animation = animation_of_[i];
    sample.time = static_cast<float>(time) + time_offsets_[i];
    sample.root_motion = anim::RootMotion::kStripHorizontal;
    sample.output = locals;
    anim::LocalToModelJob to_world;
    to_world.skeleton = &skeleton;
    to_world.locals = anim::Span<const anim::JointTransform>(locals.data, joints);
    to_world.root = WorldOf(roots_[i]);
    to_world.models = world;
    anim::SkinningPaletteJob palette;
    palette.joint_matrices = anim::Span<const glm::mat4>(world.data, joints);
    palette.inverse_bind_matrices = inverse_bind;
    palette.palette = anim::Span<glm::mat4>(palettes_.data() + first, joints);
    ok = sample.Run() && to_world.Run() && palette.Run() && ok;
  }
  return ok;
}

}  // namespace md5stage::bench
