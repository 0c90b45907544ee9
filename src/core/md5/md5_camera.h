// Parser for .md5camera (version 10), the cinematic camera paths of id Tech 4: a frame rate, the
// cut frames and a position, orientation and horizontal field of view per frame.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/md5/md5_limits.h"

namespace md5stage::md5 {

struct CameraFrame {
  glm::vec3 position{0.0f};
  // (x, y, z) of the orientation quaternion, w derived as for joints (QuatFromXyz).
  glm::vec3 orientation_xyz{0.0f};
  float fov_x_degrees = 90.0f;  // horizontal, as Doom 3's renderView fov_x
};

struct CameraFile {
  std::string file_name;
  int version = 10;
  std::string commandline;
  float frame_rate = 0.0f;
  // Strictly increasing, each in 1..frames.size()-1: the frame where a new shot starts (the
  // camera jumps from frame cut to frame cut + 1 instead of interpolating; see camera_playback.h).
  std::vector<int> cuts;
  std::vector<CameraFrame> frames;

  // Frames that play, one interval each: numFrames - 1 - numCuts (the cut frames pair up).
  int played_intervals() const;
  // played_intervals() / frame_rate seconds.
  double duration() const;
};

// Whether the name ends in .md5camera (any case).
bool IsMd5CameraName(std::string_view file_name);

// Parses and validates a camera: version, numFrames >= 1, frameRate > 0, 0 <= numCuts <
// numFrames, cut frames within 1..numFrames-1 and increasing, finite numbers, a field of view in
// (0, 180), the counts against the bytes left and the limits. Errors: FILE:LINE:COL.
Result<CameraFile> ParseMd5Camera(std::string_view file_name, std::string_view bytes,
                                  const Md5Limits& limits = Md5Limits());

}  // namespace md5stage::md5
