#include "core/anim/playback_clock.h"

#include <algorithm>
#include <cmath>

namespace md5stage::anim {
namespace {

// The part of the clock that moves; shared by the clip playing and the clip fading out.
struct Motion {
  double time = 0.0;
  int direction = 1;
  bool finished = false;
};

double Finite(double value) { return std::isfinite(value) ? value : 0.0; }

// Whether a walk clip moves over the ground: below this it walks in place (or nearly), and a
// ratio of speeds would be huge and meaningless.
bool WalksOnTheGround(float clip_ground_speed) {
  constexpr float kMinClipGroundSpeed = 1e-6f;
  return std::isfinite(clip_ground_speed) && clip_ground_speed > kMinClipGroundSpeed;
}

// fmod keeps a step of any length exact up to the one rounding of time + step; no loop of
// "subtract a duration" can go wrong on long steps.
double Wrap(double time, double period) {
  double t = std::fmod(time, period);
  if (t < 0.0) t += period;
  if (t >= period) t = 0.0;  // -tiny + period rounds up to period
  return t;
}

// Moves `motion` by velocity x dt (velocity = rate x direction; dt >= 0) on a clip of length
// `duration`, with dt = 0 only bringing the time into range.
void Move(Motion& motion, PlayMode mode, double duration, double velocity, double dt) {
  const double step = velocity * dt;
  const bool moving = step != 0.0;
  const double d = std::isfinite(duration) && duration > 0.0 ? duration : 0.0;
  double t = Finite(motion.time);
  switch (mode) {
    case PlayMode::kLoop:
      motion.time = d > 0.0 ? Wrap(t + step, d) : 0.0;
      motion.finished = false;
      return;
    case PlayMode::kOnce:
      t += step;
      if (moving && (velocity > 0.0 ? t >= d : t <= 0.0)) {
        motion.time = velocity > 0.0 ? d : 0.0;
        motion.finished = true;
      } else {
        motion.time = std::clamp(t, 0.0, d);
        if (moving) motion.finished = false;  // moved away from the end it had reached
      }
      return;
    case PlayMode::kPingPong: {
      motion.finished = false;
      if (d <= 0.0 || (!moving && t >= 0.0 && t <= d)) {
        motion.time = std::min(std::max(t, 0.0), d);  // an idle clock keeps its leg at the ends
        return;
      }
      // Unfold the back-and-forth onto a line of period 2d: u in [0, d] is the forward leg
      // (time = u), u in [d, 2d) the backward leg (time = 2d - u). Any number of reflections is
      // then one wrap, and the unfolded coordinate moves at the rate (the leg gives the sign).
      const double period = 2.0 * d;
      const bool forward_leg = motion.direction >= 0;
      const double unfolded_step = forward_leg ? step : -step;
      const double u = Wrap((forward_leg ? t : period - t) + unfolded_step, period);
      if (u < d) {
        motion.time = u;
        motion.direction = 1;
      } else if (u > d) {
        motion.time = period - u;
        motion.direction = -1;
      } else {
        motion.time = d;
      }
      // At an end the leg is ambiguous: report the one the next step of this sign takes.
      if (moving && motion.time == 0.0) motion.direction = unfolded_step > 0.0 ? 1 : -1;
      if (moving && motion.time == d) motion.direction = unfolded_step > 0.0 ? -1 : 1;
      return;
    }
  }
}

}  // namespace

void AdvanceClock(PlaybackClock& clock, double duration, double dt) {
  const double wall = std::isfinite(dt) && dt > 0.0 && clock.playing ? dt : 0.0;
  const double rate = std::isfinite(clock.rate) ? clock.rate : 0.0;
  Motion motion{clock.time, clock.direction >= 0 ? 1 : -1, clock.finished};
  Move(motion, clock.mode, duration, rate * motion.direction, wall);
  clock.time = motion.time;
  clock.direction = motion.direction;
  clock.finished = motion.finished;
  if (clock.fade_from >= 0) {
    clock.fade_elapsed += static_cast<float>(wall);
    if (!(clock.fade_elapsed < clock.fade_duration)) clock.fade_from = -1;
  }
}

void SwitchClip(PlaybackClock& clock, int animation) {
  if (animation == clock.animation) return;
  if (clock.animation >= 0 && animation >= 0 && clock.crossfade_seconds > 0.0f) {
    clock.fade_from = clock.animation;
    clock.fade_from_time = clock.time;
    clock.fade_from_rate = clock.rate * static_cast<float>(clock.direction >= 0 ? 1 : -1);
    clock.fade_from_mode = clock.mode;
    clock.fade_elapsed = 0.0f;
    clock.fade_duration = clock.crossfade_seconds;
  } else {
    clock.fade_from = -1;
  }
  clock.animation = animation;
  clock.time = 0.0;
  clock.direction = 1;
  clock.playing = true;
  clock.finished = false;
}

void SetClockTime(PlaybackClock& clock, double time) {
  clock.time = Finite(time);
  clock.finished = false;
  clock.fade_from = -1;  // a scrubbed pose is the clip's own, not a blend
}

void SetClockMode(PlaybackClock& clock, PlayMode mode) {
  if (mode == clock.mode) return;
  clock.mode = mode;
  clock.direction = 1;
  clock.finished = false;
}

float CrossfadeWeight(const PlaybackClock& clock) {
  if (clock.fade_from < 0 || !(clock.fade_duration > 0.0f)) return 1.0f;
  return std::clamp(clock.fade_elapsed / clock.fade_duration, 0.0f, 1.0f);
}

double CrossfadeFromTime(const PlaybackClock& clock, double from_duration) {
  if (clock.fade_from < 0) return clock.fade_from_time;
  Motion motion{clock.fade_from_time, 1, false};
  const double rate = std::isfinite(clock.fade_from_rate) ? clock.fade_from_rate : 0.0;
  const double elapsed = std::max(0.0, Finite(clock.fade_elapsed));
  Move(motion, clock.fade_from_mode, from_duration, rate, elapsed);
  return motion.time;
}

float WalkPlaybackRate(double ground_speed, float clip_ground_speed) {
  if (!WalksOnTheGround(clip_ground_speed)) return 1.0f;
  const double speed = std::isfinite(ground_speed) && ground_speed > 0.0 ? ground_speed : 0.0;
  return static_cast<float>(speed / clip_ground_speed);
}

LocomotionClip ChooseLocomotionClip(bool moving, int walk_animation, int idle_animation,
                                    double ground_speed, float walk_clip_ground_speed) {
  LocomotionClip clip;
  if (moving && walk_animation >= 0) {
    clip.animation = walk_animation;
    clip.rate = WalkPlaybackRate(ground_speed, walk_clip_ground_speed);
  } else if (!moving && idle_animation >= 0) {
    clip.animation = idle_animation;
  }
  return clip;
}

void ApplyLocomotionClip(PlaybackClock& clock, const LocomotionClip& clip) {
  if (clip.animation < 0) return;
  SwitchClip(clock, clip.animation);  // no-op when already playing it: the fade goes on
  clock.rate = clip.rate;
}

bool SetGaitClock(PlaybackClock& clock, const Gait& gait, int walk_animation, int idle_animation,
                  float walk_clip_ground_speed, double walk_duration, double idle_duration) {
  const int animation = gait.moving ? walk_animation : idle_animation;
  if (animation < 0) return false;
  // The walk clip's time: distance over its ground speed, what a clock played at
  // WalkPlaybackRate over the same walk reaches (a clip walking in place: the walk's own time).
  const bool walks_on_ground = WalksOnTheGround(walk_clip_ground_speed);
  const double walk_time = walks_on_ground ? Finite(gait.walked) / walk_clip_ground_speed : 0.0;
  const float walk_rate = WalkPlaybackRate(gait.speed, walk_clip_ground_speed);
  const double elapsed = std::max(0.0, Finite(gait.elapsed));
  clock.animation = animation;
  clock.direction = 1;
  clock.finished = false;
  clock.rate = gait.moving ? walk_rate : 1.0f;
  clock.time = gait.moving ? (walks_on_ground ? walk_time : elapsed) : elapsed;
  clock.fade_from = -1;
  const int other = gait.moving ? idle_animation : walk_animation;
  if (other >= 0 && other != animation && gait.previous >= 0.0 && clock.crossfade_seconds > 0.0f &&
      elapsed < clock.crossfade_seconds) {
    clock.fade_from = other;
    // A stand fades out where its idle was at its end; a walk where its distance had put it.
    clock.fade_from_time =
        gait.moving ? gait.previous : (walks_on_ground ? walk_time : gait.previous);
    clock.fade_from_rate = gait.moving ? 1.0f : walk_rate;
    clock.fade_from_mode = clock.mode;
    clock.fade_elapsed = static_cast<float>(elapsed);
    clock.fade_duration = clock.crossfade_seconds;
  }
  // Brings the time into the clip's range in its mode (dt 0 moves nothing).
  const bool playing = clock.playing;
  clock.playing = false;
  AdvanceClock(clock, gait.moving ? walk_duration : idle_duration, 0.0);
  clock.playing = playing;
  return true;
}

}  // namespace md5stage::anim
