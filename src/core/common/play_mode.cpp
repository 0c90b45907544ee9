#include "core/common/play_mode.h"

namespace md5stage {

const char* PlayModeName(PlayMode mode) {
  switch (mode) {
    case PlayMode::kLoop:
      return "loop";
    case PlayMode::kOnce:
      return "once";
    case PlayMode::kPingPong:
      return "pingpong";
  }
  return "loop";  // a value cast from an out-of-range integer
}

bool ParsePlayMode(std::string_view name, PlayMode* mode) {
  if (mode == nullptr) return false;
  for (PlayMode candidate : {PlayMode::kLoop, PlayMode::kOnce, PlayMode::kPingPong}) {
    if (name == PlayModeName(candidate)) {
      *mode = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace md5stage
