// Dynamic resolution for a page of figures (model-viewer's render scale): fed the time each
// frame's figures took, it steps the scale they are drawn at down while frames run over budget
// and back up once there is time, never below the page's bound. Platform-free: the figures
// module feeds it (src/app/figures_main.cpp) and tests drive it with tables of frame times.
#pragma once

namespace md5stage::viewer {

struct RenderScaleSettings {
  // The frame's own work (update, render, copies) fits this, in ms: a 60 Hz frame with room
  // for the browser's part.
  double budget_ms = 12.0;
  // Back up only when a frame at the next scale would still fit: at most this share of the
  // budget now. Stepping up multiplies the pixels by 1 / step^2 (1.56x), so a level that
  // recovers stays in budget at the next one: no oscillation.
  double recover_share = 0.5;
  double step = 0.8;        // one step down multiplies the scale by this
  int window = 12;          // frames averaged for each decision
  double min_bound = 0.25;  // min-render-scale's range
};

class RenderScaleController {
 public:
  explicit RenderScaleController(RenderScaleSettings settings = {}) : settings_(settings) {}
  // The lowest scale it may go to, clamped to [settings.min_bound, 1] (non-finite: 1); the scale
  // rises to it at once if below.
  void SetMinimum(double minimum);
  double minimum() const { return minimum_; }
  // One frame's time in ms (non-finite or negative ones are not counted); returns the scale
  // for the next frames, in [minimum, 1]. Decides once per window of frames, and the first
  // window after a change is not counted (its frames may carry the change's own costs).
  double Observe(double frame_ms);
  double scale() const { return scale_; }
  // How many times the scale changed (a benchmark's and the tests' measure of oscillation).
  int changes() const { return changes_; }

 private:
  void SetScale(double scale);

  RenderScaleSettings settings_;
  double minimum_ = 0.5;  // model-viewer's default minimumRenderScale
  double scale_ = 1.0;
  double sum_ms_ = 0.0;
  int frames_ = 0;
  bool settling_ = false;  // the window after a change is skipped
  int changes_ = 0;
};

}  // namespace md5stage::viewer
