// Scene ↔ JSON (docs/scene-format.md): validation with messages that name the field path
// (`instances[2].speed: expected a number in [0, 100000], found "fast"`), and the writer.
#pragma once

#include <string>
#include <string_view>

#include "core/common/json.h"
#include "core/common/result.h"
#include "core/scene/scene.h"

namespace md5stage {

// Reads and validates a scene document. Unknown fields are ignored; absent optional fields take
// the defaults of the Scene structs; wrong types, out-of-range values, broken references (an
// instance's model, route or animation) and oversized arrays are errors located at the value.
Result<Scene> SceneFromJson(std::string_view file, const JsonValue& root);

// ParseJson (bounded to kMaxSceneJsonBytes) followed by SceneFromJson.
Result<Scene> ParseScene(std::string_view file, std::string_view text);

struct SceneWriteOptions {
  bool omit_defaults = false;  // leave out fields equal to their defaults (share links)
  int decimals = -1;           // >= 0: round every number to that many decimals
  // Write routes in the packed form ("kinds" + integer "deltas", docs/scene-format.md) on a grid
  // of 10^-decimals (at most 6 decimals; 6 when decimals < 0).
  bool pack_routes = false;
  int indent = 0;  // WriteScene only: 0 for one line
};

JsonValue SceneToJson(const Scene& scene, const SceneWriteOptions& options = {});
std::string WriteScene(const Scene& scene, const SceneWriteOptions& options = {});

// Checks a scene built in code against the same rules SceneFromJson applies (messages name the
// field path; there is no line/column).
Status ValidateScene(const Scene& scene);

}  // namespace md5stage
