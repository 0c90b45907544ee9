// The walker's animations: idle, walk, run and wave. Walk and run are gait cycles whose legs are
// solved with two-bone IK against planted footholds, so a foot in contact does not slide; the
// origin joint carries the root motion (see WalkerClipInfo).
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace md5stage::assetgen {

// What a clip promises, for documentation and tests.
struct WalkerClipInfo {
  std::string name;
  int frame_rate = 30;
  int frame_count = 0;    // the last frame closes the loop
  double duration = 0.0;  // (frame_count - 1) / frame_rate
  // Root motion: the origin joint moves along +X at `ground_speed`; the last frame equals the
  // first except that origin.x is one `stride` further, so looping with root motion is seamless.
  double ground_speed = 0.0;
  double stride = 0.0;  // ground_speed * duration: one full cycle, two steps
  // Stance phase of each foot as fractions of the cycle [begin, end), left then right; end may
  // exceed 1 (it wraps).
  double stance_begin[2] = {0.0, 0.0};
  double stance_end[2] = {0.0, 0.0};
  // Frames where IK could not put a planted foot on its foothold (0 for every shipped clip).
  int unreached_planted_frames = 0;
};

struct WalkerClip {
  AnimClip clip;
  WalkerClipInfo info;
};

// All four clips, in the order idle, walk, run, wave.
std::vector<WalkerClip> BuildWalkerClips(const Skeleton& skeleton);

}  // namespace md5stage::assetgen
