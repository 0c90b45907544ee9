#include "viewer/embed_timeline.h"

namespace md5stage::viewer {

std::optional<EmbedLoop> EmbedTimeline::LoopRange(const EmbedClock& clock) const {
  if (!loop_) return std::nullopt;
  if (!loop_->whole) return loop_;
  // A scene whose walkers never arrive (or one that repeats) has no end to loop at.
  if (!clock.scene_end || clock.scene_repeats) return std::nullopt;
  return EmbedLoop{false, 0.0, *clock.scene_end + 1.0};
}

EmbedTimelineStep EmbedTimeline::Step(const EmbedClock& clock) {
  EmbedTimelineStep step;
  if (clock.finished && !was_finished_) step.finished_at = clock.scene_time;
  was_finished_ = clock.finished;
  if (!scrubbing_) {
    const std::optional<EmbedLoop> range = LoopRange(clock);
    if (range && clock.scene_time >= range->end) step.seek_to = range->start;
  }
  return step;
}

JsonValue FinishedEventDetail(double time) {
  JsonValue detail = JsonValue::MakeObject();
  detail.Set("time", time);
  return detail;
}

JsonValue SeekedEventDetail(double time) {
  JsonValue detail = JsonValue::MakeObject();
  detail.Set("time", time);
  detail.Set("reason", "loop");
  return detail;
}

}  // namespace md5stage::viewer
