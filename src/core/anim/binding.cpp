#include "core/anim/binding.h"

#include "core/md5/md5_binding.h"

namespace md5stage::anim {

Status CheckAnimationFitsModel(const Model& model, const Animation& animation,
                               std::vector<Diagnostic>* warnings) {
  return md5::CheckAnimFitsMesh(model.source(), animation.source(), warnings);
}

}  // namespace md5stage::anim
