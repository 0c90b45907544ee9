#include "core/scene/scene.h"

#include <algorithm>

namespace md5stage {

std::string AnimNameFromSource(std::string_view source) {
  const std::size_t query = source.find_first_of("?#");
  if (query != std::string_view::npos) source = source.substr(0, query);
  const std::size_t slash = source.find_last_of("/\\");
  if (slash != std::string_view::npos) source = source.substr(slash + 1);
  const std::size_t dot = source.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) source = source.substr(0, dot);
  return std::string(source);
}

const SceneModel* FindSceneModel(const Scene& scene, std::string_view name) {
  for (const SceneModel& model : scene.models) {
    if (model.name == name) return &model;
  }
  return nullptr;
}

Scene WithoutLocalModels(const Scene& scene, std::vector<std::string>* dropped_models) {
  Scene out = scene;
  std::vector<std::string> dropped;
  for (const SceneModel& model : scene.models) {
    if (model.local) dropped.push_back(model.name);
  }
  const auto is_dropped = [&](const std::string& name) {
    return std::find(dropped.begin(), dropped.end(), name) != dropped.end();
  };
  out.models.erase(std::remove_if(out.models.begin(), out.models.end(),
                                  [](const SceneModel& m) { return m.local; }),
                   out.models.end());
  out.instances.erase(
      std::remove_if(out.instances.begin(), out.instances.end(),
                     [&](const SceneInstance& instance) { return is_dropped(instance.model); }),
      out.instances.end());
  for (SceneInstance& instance : out.instances) {
    auto& attachments = instance.attachments;
    attachments.erase(std::remove_if(attachments.begin(), attachments.end(),
                                     [&](const SceneAttachment& a) { return is_dropped(a.model); }),
                      attachments.end());
  }
  if (dropped_models != nullptr) *dropped_models = std::move(dropped);
  return out;
}

}  // namespace md5stage
