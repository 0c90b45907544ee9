// The playback clock of one character (which clip, where in it, how it repeats, the crossfade from
// the clip it replaced) and the policy that plays a walk clip in step with the ground.
#pragma once

#include "core/common/play_mode.h"

namespace md5stage::anim {

// A plain value, one per character; the functions below are its only rules. Times are seconds.
// After AdvanceClock, `time` lies in [0, duration] ([0, duration) for kLoop): the clock has done
// the wrapping, so sample it with PlaybackMode::kClamp (a ping-pong time is not a loop time).
struct PlaybackClock {
  int animation = -1;  // the caller's clip index; -1 = none (the bind pose)
  double time = 0.0;
  float rate = 1.0f;  // negative plays backwards
  PlayMode mode = PlayMode::kLoop;
  // The user's play/pause switch. A finished clip stays `playing`, so the viewer can tell "paused"
  // from "ended" (and restart an ended clip on play).
  bool playing = true;
  // Time moves by rate x direction. kPingPong flips it at each end; SetClockMode and SwitchClip
  // reset it to +1.
  int direction = 1;
  // A kOnce clip has reached the end it was playing towards and is held there. Cleared by
  // SetClockTime, SetClockMode (to another mode), SwitchClip, or a step away from that end.
  bool finished = false;
  float crossfade_seconds = 0.25f;  // how long the fade started by SwitchClip lasts
  // The clip being faded out (-1: no fade), where it was at the switch and how it was moving, so it
  // carries on at its own pace (a walk fading into an idle keeps its walk rate).
  int fade_from = -1;
  double fade_from_time = 0.0;
  float fade_from_rate = 1.0f;  // its rate x direction at the switch
  PlayMode fade_from_mode = PlayMode::kLoop;
  float fade_elapsed = 0.0f;
  float fade_duration = 0.0f;
};

// Moves the clock by dt seconds of wall time (negative or non-finite dt counts as 0; play
// backwards with a negative rate) on a clip `duration` seconds long, wrapping (kLoop), holding at
// the end (kOnce) or reflecting (kPingPong) as often as a long step needs. A paused clock does not
// move and its fade is frozen; a duration <= 0 pins the time at 0. The fade runs on wall time
// (independent of the rate) and ends, fade_from = -1, after fade_duration.
void AdvanceClock(PlaybackClock& clock, double duration, double dt);

// Plays another clip from its start (same rate and mode; playing again), fading from the current
// one over crossfade_seconds when both are clips. A switch during a fade starts a new fade from
// the current clip: the one already fading out is dropped. Switching to the current clip does
// nothing.
void SwitchClip(PlaybackClock& clock, int animation);

// Scrubbing: jumps to a time (non-finite counts as 0; the next AdvanceClock wraps or clamps it),
// ends any fade, clears `finished`.
void SetClockTime(PlaybackClock& clock, double time);

// Changes the mode; a real change clears `finished` and plays forwards (direction +1).
void SetClockMode(PlaybackClock& clock, PlayMode mode);

// The BlendJob weight of the current clip over fade_from: fade_elapsed / fade_duration clamped to
// [0, 1]; 1 when there is no fade.
float CrossfadeWeight(const PlaybackClock& clock);

// Where the clip fading out is now: fade_from_time moved by fade_elapsed at fade_from_rate in
// fade_from_mode, on a clip `from_duration` seconds long. fade_from_time when there is no fade.
double CrossfadeFromTime(const PlaybackClock& clock, double from_duration);

// The rate that keeps a walk clip's feet on the ground: the character's ground speed over the
// clip's average ground speed (Animation::average_ground_speed()). 1 for a clip that does not move
// (walks in place); negative or non-finite speeds count as 0.
float WalkPlaybackRate(double ground_speed, float clip_ground_speed);

// What a character that walks and stands should play now.
struct LocomotionClip {
  int animation = -1;  // -1: no clip for this state; keep playing what plays
  float rate = 1.0f;
};

// The walk clip at WalkPlaybackRate while moving, the idle clip at rate 1 while standing.
LocomotionClip ChooseLocomotionClip(bool moving, int walk_animation, int idle_animation,
                                    double ground_speed, float walk_clip_ground_speed);

// Plays a chosen clip: SwitchClip (a crossfade) only when it is not already the current clip, so
// calling it every frame keeps a fade going, then sets the rate. Does nothing for animation -1.
void ApplyLocomotionClip(PlaybackClock& clock, const LocomotionClip& clip);

// Where a walker is in its walking and standing at a time, given by whoever moves it (the crowd,
// a follower) as a function of that time, so the clock SetGaitClock makes of it is one too:
// seeking to a time shows the limbs playing there shows.
struct Gait {
  bool moving = false;
  double walked = 0.0;     // distance walked so far, over every walk (the walk cycle's phase)
  double speed = 0.0;      // ground speed while moving; the last walk's while standing
  double elapsed = 0.0;    // seconds of the current walk or stand so far
  double previous = -1.0;  // how long the walk or stand before it lasted; < 0: none
};

// Sets the clock to the gait (the clip, its time, the crossfade), not moved from where it was:
// moving, the walk clip at WalkPlaybackRate and at time walked / walk_clip_ground_speed (so the
// feet keep to the ground over any change of speed; elapsed for a clip that walks in place);
// standing, the idle clip at rate 1 and time elapsed. Within crossfade_seconds of a change it
// fades from the other clip where that was at the change (a walk holds its phase from the last
// distance walked and runs on at the last walk's rate; an idle from the stand's length). Times
// wrap or clamp in the clock's mode. False (the clock untouched) when the clip for the state is
// -1: the caller plays what plays.
bool SetGaitClock(PlaybackClock& clock, const Gait& gait, int walk_animation, int idle_animation,
                  float walk_clip_ground_speed, double walk_duration, double idle_duration);

}  // namespace md5stage::anim
