// An embed's per-frame clock logic: the loop range (jump back to A at B) and the `finished` event,
// fed the scene clock once a frame; it says what to do and the viewer does it (seek, push events).
#pragma once

#include <optional>

#include "core/common/json.h"
#include "viewer/embed_options.h"

namespace md5stage::viewer {

// The scene clock as the viewer measures it each frame (the fields of the `clock` command).
struct EmbedClock {
  double scene_time = 0.0;
  bool finished = false;            // every character with somewhere to go has arrived
  std::optional<double> scene_end;  // when the last one-way plan ends; absent: none arrives
  bool scene_repeats = false;       // some character moves for ever (a looping route)
};

// What one frame asks for, in this order: push `finished`, then seek and push `seeked`.
struct EmbedTimelineStep {
  std::optional<double> finished_at;  // push finished {time}: the frame's scene time
  std::optional<double> seek_to;      // set the scene time, push seeked {time, reason: "loop"}
};

// Play state does not enter: a paused scene moved past B (a host's `seek`, the slider) jumps back
// to A as well, and `finished` follows the time wherever it is moved, as embed.js did.
class EmbedTimeline {
 public:
  // The embed's loop (none by default); it applies to every scene that opens later too.
  void SetLoop(const std::optional<EmbedLoop>& loop) { loop_ = loop; }
  const std::optional<EmbedLoop>& loop() const { return loop_; }

  // While the person drags the timeline slider the loop does not jump (B is the slider's end);
  // the jump comes on the first frame after the release.
  void SetScrubbing(bool scrubbing) { scrubbing_ = scrubbing; }

  // A scene was applied, or the embed's options were: `finished` is the state it starts from, so
  // a scene that opens already finished pushes no event until it finishes again.
  void Restart(bool finished) { was_finished_ = finished; }

  // The range the loop covers for this clock: A-B as given, or for the whole scene 0 to one
  // second after scene_end (the last character is seen standing), none while nothing arrives or
  // something moves for ever.
  std::optional<EmbedLoop> LoopRange(const EmbedClock& clock) const;

  // One frame. `finished` is pushed on each change to finished (so once per run: a jump back
  // re-arms it); the loop jumps when the time has reached B. No allocation.
  EmbedTimelineStep Step(const EmbedClock& clock);

 private:
  std::optional<EmbedLoop> loop_;
  bool scrubbing_ = false;
  bool was_finished_ = false;
};

// The details of the events a step asks for (StageHost::Event("finished" | "seeked", detail)).
JsonValue FinishedEventDetail(double time);  // {"time": T}
JsonValue SeekedEventDetail(double time);    // {"time": T, "reason": "loop"}

}  // namespace md5stage::viewer
