// Share links: a scene carried whole in a URL fragment, `#scene=` + base64url(format byte 1, raw
// DEFLATE with a preset dictionary of the compact JSON). Decoding treats the payload as hostile:
// every size is bounded before work is done.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/scene/scene.h"

namespace md5stage {

// Longest payload DecodeSceneLink reads (base64url characters).
constexpr std::size_t kMaxSceneLinkChars = 1 << 20;
// Numbers in a link are rounded to this many decimals (error <= 5e-7, well under the 1e-6 that a
// round trip promises), which keeps numbers short.
constexpr int kSceneLinkDecimals = 6;

// The payload that follows `#scene=`. Fails when the scene is invalid or holds a local model
// (see WithoutLocalModels).
Result<std::string> EncodeSceneLink(const Scene& scene);

// Reads a payload (a leading "#scene=" or "scene=" is skipped). Errors name "#scene" as the file:
// bad base64url, an unknown format byte, corrupt or truncated compressed data, more than
// kMaxSceneJsonBytes of JSON, malformed JSON, an invalid scene, or a local model.
Result<Scene> DecodeSceneLink(std::string_view payload);

}  // namespace md5stage
