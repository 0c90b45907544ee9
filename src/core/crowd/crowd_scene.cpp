#include "core/crowd/crowd_scene.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "core/path/pose.h"

namespace md5stage {
namespace {

Diagnostic FieldError(const std::string& field, const std::string& message) {
  return MakeError("", 0, 0, field + ": " + message);
}

// The scene's routes, built when first walked (an unused route that does not build is no error).
class SceneRoutes {
 public:
  explicit SceneRoutes(const Scene& scene) : scene_(scene), built_(scene.routes.size()) {}

  Result<std::shared_ptr<const Route>> Get(int index) {
    if (index < 0 || index >= static_cast<int>(scene_.routes.size())) {
      return FieldError("route", "no route " + std::to_string(index));
    }
    std::shared_ptr<const Route>& built = built_[static_cast<std::size_t>(index)];
    if (!built) {
      const SceneRoute& route = scene_.routes[static_cast<std::size_t>(index)];
      Result<Route> made = Route::Build(route.segments, route.closed);
      if (!made.ok())
        return FieldError("routes[" + std::to_string(index) + "]", made.error().message);
      built = std::make_shared<const Route>(std::move(made.value()));
    }
    return built;
  }

 private:
  const Scene& scene_;
  std::vector<std::shared_ptr<const Route>> built_;
};

}  // namespace

double CrowdTurningRadius(double scene_turn_radius) {
  return scene_turn_radius > 0.0 ? scene_turn_radius : kCrowdInPlaceTurnRadius;
}

Result<std::vector<CrowdCharacter>> CrowdCharactersOf(const Scene& scene,
                                                      const ModelClearance& model_clearance) {
  SceneRoutes routes(scene);
  std::vector<CrowdCharacter> characters;
  std::vector<std::pair<std::string, double>> clearances;  // per model, asked once
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    const SceneInstance& instance = scene.instances[i];
    const std::string field = "instances[" + std::to_string(i) + "]";
    CrowdCharacter c;
    c.start = {instance.position, instance.heading_degrees * kPi / 180.0};
    c.speed = instance.speed;
    c.turning_radius = CrowdTurningRadius(instance.turn_radius);
    c.start_delay = instance.start_delay;
    if (instance.clearance) {
      c.clearance = *instance.clearance;
    } else {
      auto known = std::find_if(clearances.begin(), clearances.end(),
                                [&](const auto& entry) { return entry.first == instance.model; });
      if (known == clearances.end()) {
        const SceneModel* model = FindSceneModel(scene, instance.model);
        if (!model) return FieldError(field + ".model", "no model '" + instance.model + "'");
        Result<double> clearance = model_clearance(*model);
        if (!clearance.ok()) {
          Diagnostic error = clearance.error();
          error.message = field + ".clearance: absent, and " + error.message;
          return error;
        }
        clearances.emplace_back(instance.model, clearance.value());
        known = clearances.end() - 1;
      }
      c.clearance = known->second;
    }
    if (instance.target) {
      c.has_target = true;
      c.target = instance.target->position;
    } else if (instance.route >= 0) {
      Result<std::shared_ptr<const Route>> route = routes.Get(instance.route);
      if (!route.ok()) return route.error();
      c.route = route.value();
      c.route_mode = instance.route_mode;
      const Pose2 route_start = c.route->Sample(0.0);
      if (RoutePointsMeet(route_start.position, c.start.position)) {
        c.start.heading = route_start.heading;
      }
    }
    characters.push_back(std::move(c));
  }
  return characters;
}

}  // namespace md5stage
