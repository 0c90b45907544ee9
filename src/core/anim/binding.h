// Runtime form of the anim-fits-mesh check (see md5/md5_binding.h), for loaded objects.
#pragma once

#include <vector>

#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/common/result.h"

namespace md5stage::anim {

// Error when joint count or parents differ (naming both files); warning when only names differ.
Status CheckAnimationFitsModel(const Model& model, const Animation& animation,
                               std::vector<Diagnostic>* warnings);

}  // namespace md5stage::anim
