// A figure's hotspots, placed every frame: each named point (a joint, a point of the skinned
// surface, a world point, a construction point) as a framebuffer pixel, and whether a character's
// bone capsules hide it. Per-frame code, compiled with the frame's inlining in the figures module
// (CMakeLists.txt), apart from the stage's reports.
#include <algorithm>
#include <cmath>

#include "viewer/render_interface.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

namespace {
// How far in front of a joint its limb's surface may lie, as a share of the model's largest bind
// extent: the walker's hand is about 4 of its 70 units thick.
constexpr float kJointSurfaceDepth = 0.06f;
}  // namespace

float Stage::JointSurfaceDepth(const LoadedModel& model) {
  const glm::vec3 extent = model.bind_max - model.bind_min;
  return kJointSurfaceDepth * std::max({extent.x, extent.y, extent.z});
}

void Stage::PlaceHotspots() {
  placed_hotspots_.resize(hotspots_.size() * kHotspotFloats);
  const PointView view = CurrentPointView();
  for (size_t i = 0; i < hotspots_.size(); ++i) {
    glm::vec3 world;
    glm::dvec2 pixel(0.0);
    const int flags = PlaceHotspot(view, hotspots_[i], &world, &pixel);
    float* out = &placed_hotspots_[i * kHotspotFloats];
    out[0] = static_cast<float>(pixel.x);
    out[1] = static_cast<float>(pixel.y);
    out[2] = static_cast<float>(flags);
  }
}

int Stage::PlaceHotspot(const Hotspot& spot, glm::vec3* world, glm::dvec2* pixel) {
  return PlaceHotspot(CurrentPointView(), spot, world, pixel);
}

int Stage::PlaceHotspot(const PointView& view, const Hotspot& spot, glm::vec3* world,
                        glm::dvec2* pixel) {
  *world = spot.point;
  if (!spot.names_something) return 0;
  float surface_depth = 0.0f;
  if (spot.surface) {
    const Character* character = cast_.Find(spot.character);
    if (character == nullptr) return 0;  // its character is gone: not shown
    *world = SkinnedSurfacePoint(*character, *spot.surface);
  } else if (spot.joint >= 0) {
    const Character* character = cast_.Find(spot.character);
    if (character == nullptr || spot.joint >= static_cast<int>(character->pose.models.size())) {
      return 0;  // its character is gone: not shown
    }
    *world = glm::vec3(character->pose.models[static_cast<size_t>(spot.joint)][3]);
    surface_depth = JointSurfaceDepth(ModelOf(*character));
  } else if (!spot.construction.empty()) {
    if (!construction_.shown) return 0;  // not shown now
    const ConstructionLabel* found = nullptr;
    for (const ConstructionLabel& label : construction_.labels) {
      if (label.name == spot.construction &&
          (found == nullptr || label.side == construction_.numbers.chosen_side)) {
        found = &label;
      }
    }
    if (found == nullptr) return 0;
    *world = glm::vec3(static_cast<float>(found->at.x), static_cast<float>(found->at.y), 0.0f);
  }
  bool seen = false;
  if (!LocatePoint(view, *world, surface_depth, pixel, &seen)) return 0;
  return kHotspotInFront | (seen ? kHotspotSeen : 0);
}

glm::vec3 Stage::SkinnedSurfacePoint(const Character& character,
                                     const SurfacePoint& surface) const {
  const std::vector<anim::GpuVertex>& vertices = ModelOf(character).model->gpu().vertices;
  const std::vector<glm::mat4>& palette = character.pose.palette;
  glm::vec3 point(0.0f);
  for (int k = 0; k < 3; ++k) {
    if (surface.vertices[k] >= vertices.size()) continue;  // checked when set; a new model
    const anim::GpuVertex& vertex = vertices[surface.vertices[k]];
    glm::vec4 skinned(0.0f);
    for (int i = 0; i < 4; ++i) {
      if (vertex.weights[i] == 0.0f || vertex.joints[i] >= palette.size()) continue;
      skinned += vertex.weights[i] * (palette[vertex.joints[i]] * glm::vec4(vertex.position, 1.0f));
    }
    point += surface.weights[k] * glm::vec3(skinned);
  }
  return point;
}

Stage::PointView Stage::CurrentPointView() const {
  PointView view;
  view.view_projection = ViewProjection();
  // The eye: the point the projection sends to w = 0 (x = y = 0 there).
  const glm::vec4 eye = glm::inverse(view.view_projection) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  view.has_eye = std::abs(eye.w) >= 1e-12f;
  if (view.has_eye) view.eye = glm::vec3(eye) / eye.w;
  return view;
}

bool Stage::LocatePoint(const glm::vec3& world, float surface_depth, glm::dvec2* pixel,
                        bool* seen) {
  return LocatePoint(CurrentPointView(), world, surface_depth, pixel, seen);
}

bool Stage::LocatePoint(const PointView& view, const glm::vec3& world, float surface_depth,
                        glm::dvec2* pixel, bool* seen) const {
  *seen = false;
  if (!WorldToPixel(view.view_projection, viewport_.width, viewport_.height, world, pixel)) {
    return false;
  }
  if (pixel->x < 0.0 || pixel->y < 0.0 || pixel->x > viewport_.width ||
      pixel->y > viewport_.height) {
    return true;
  }
  if (view.has_eye && cast_.Hides(LineOfSight{view.eye, world, surface_depth})) return true;
  *seen = true;
  return true;
}

}  // namespace md5stage::viewer
