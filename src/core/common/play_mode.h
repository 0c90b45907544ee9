// How a clip or a route repeats: the one play-mode enum of the core, the scene format and the
// viewer, with the names the scene format and the page use for it.
#pragma once

#include <string_view>

namespace md5stage {

// The values are stable (the viewer's UI indexes its combo boxes with them).
enum class PlayMode {
  kLoop = 0,      // wrap from the end back to the start
  kOnce = 1,      // stop at the end
  kPingPong = 2,  // turn round at each end
};

// "loop", "once" or "pingpong".
const char* PlayModeName(PlayMode mode);

// The exact (case-sensitive) name of a mode; false, leaving *mode unchanged, for anything else.
bool ParsePlayMode(std::string_view name, PlayMode* mode);

}  // namespace md5stage
