// The cinematic camera side of the md5stage command: `info FILE.md5camera` (frames, rate, cuts,
// duration).
#pragma once

#include <string>

#include "core/common/json.h"

namespace md5stage::cli {

// Prints one line (or fills *json_out with the file's JSON object); errors go to stderr as
// FILE:LINE:COL messages. False when the file cannot be read or parsed.
bool DescribeCameraFile(const std::string& path, bool json, JsonValue* json_out);

}  // namespace md5stage::cli
