#include "viewer/render_scale.h"

#include <algorithm>
#include <cmath>

namespace md5stage::viewer {

void RenderScaleController::SetMinimum(double minimum) {
  minimum_ = std::isfinite(minimum) ? std::clamp(minimum, settings_.min_bound, 1.0) : 1.0;
  if (scale_ < minimum_) SetScale(minimum_);
}

double RenderScaleController::Observe(double frame_ms) {
  if (!std::isfinite(frame_ms) || frame_ms < 0.0) return scale_;
  sum_ms_ += frame_ms;
  if (++frames_ < settings_.window) return scale_;
  const double mean_ms = sum_ms_ / frames_;
  sum_ms_ = 0.0;
  frames_ = 0;
  if (settling_) {
    settling_ = false;
    return scale_;
  }
  if (mean_ms > settings_.budget_ms && scale_ > minimum_) {
    SetScale(std::max(minimum_, scale_ * settings_.step));
  } else if (mean_ms < settings_.budget_ms * settings_.recover_share && scale_ < 1.0) {
    SetScale(std::min(1.0, scale_ / settings_.step));
  }
  return scale_;
}

void RenderScaleController::SetScale(double scale) {
  if (scale == scale_) return;
  scale_ = scale;
  ++changes_;
  settling_ = true;
  sum_ms_ = 0.0;
  frames_ = 0;
}

}  // namespace md5stage::viewer
