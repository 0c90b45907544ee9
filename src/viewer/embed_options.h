// The options of an embed's URL (`#demo=turns&paused&t=2&loop=1-3&skeleton=1`, web/embed.js):
// parsed from the query and the fragment as the browser's URLSearchParams reads them.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/json.h"
#include "core/common/result.h"
#include "core/scene/scene.h"

namespace md5stage::viewer {

// Longest query + fragment ParseEmbedOptions reads. Far above any URL a browser keeps (a share
// link's payload is at most 1 MiB), so only a caller gone wrong reaches it.
constexpr std::size_t kMaxEmbedUrlChars = std::size_t{4} << 20;
// Largest |value| of t, loop ends and camera numbers, as the scene format bounds coordinates.
constexpr double kMaxEmbedNumber = 1e6;
// Bounds of `time-scale` and of `rotation-per-second` (degrees; a turn in a tenth of a second).
constexpr double kMaxEmbedTimeScale = 16.0;
constexpr double kMaxEmbedRotationDegrees = 3600.0;

// The display toggles a URL names (`grid=0`, `skeleton=1`); the others keep the scene's value.
struct DisplayOverrides {
  std::optional<bool> grid;
  std::optional<bool> skeleton;
  std::optional<bool> joint_names;
  std::optional<bool> bounds;
  std::optional<bool> wireframe;
  std::optional<bool> normals;
  std::optional<bool> routes;
  std::optional<bool> turn_circles;
  std::optional<bool> construction;
  std::optional<bool> clearance;

  bool empty() const;
  // `display` with the given toggles replaced.
  DisplayToggles AppliedTo(DisplayToggles display) const;
};

// `loop=A-B` jumps back to A when the scene time reaches B; bare `loop` (or `loop=1`) loops the
// whole scene: back to 0 one second after the last character arrives (see EmbedTimeline).
struct EmbedLoop {
  bool whole = false;
  double start = 0.0;  // A (seconds), when !whole
  double end = 0.0;    // B > A, when !whole
};

// `camera=yaw,pitch,distance[,tx,ty,tz]`: angles in degrees, as the `camera` command takes them.
// The values are only bounded here; the viewer clamps pitch and distance as for any camera.
struct EmbedCamera {
  double yaw_degrees = 0.0;
  double pitch_degrees = 0.0;
  double distance = 0.0;
  std::optional<glm::dvec3> target;  // absent: the camera keeps its target
};

enum class EmbedUi { kMin, kNone };  // `ui=min` (default): play/pause and timeline; `ui=none`

struct EmbedOptions {
  std::optional<bool> autoplay;  // `autoplay` / `autoplay=0`; absent: as the scene says
  bool paused = false;           // `paused`
  std::optional<double> time;    // `t=SECONDS`
  std::optional<EmbedLoop> loop;
  EmbedUi ui = EmbedUi::kMin;
  std::optional<EmbedCamera> camera;
  DisplayOverrides display;
  // `avoidance` / `avoidance=0`: the characters give way to each other (the scene's `avoidance`)
  // or not; absent: as the scene says.
  std::optional<bool> avoidance;
  // `auto-rotate` / `auto-rotate=0` (model-viewer's name and meaning): the orbit camera turns on
  // its own while the reader leaves it alone; `rotation-per-second` its speed (model-viewer's
  // angle: `30deg`, `0.5rad`, a bare number in radians). Absent: as the stage is.
  std::optional<bool> auto_rotate;
  std::optional<double> rotation_degrees_per_second;
  // `time-scale=R` (model-viewer's): the scene clock runs R seconds per second, 0 <= R <= 16.
  std::optional<double> time_scale;
  // `shadow-intensity=S` (model-viewer's): the contact shadow under each character, 0 to 1.
  std::optional<double> shadow_intensity;
  // `animation-crossfade-duration=MS` (model-viewer's): how long a change of clip blends from the
  // one before, in ms (0 to 60000), for every character of the scene.
  std::optional<double> crossfade_ms;
  // `origin=A,B`: the items as written, trimmed, empty ones dropped ("*" for any). The page turns
  // each into an origin with the browser's URL parser, the one that also makes event.origin, so
  // both sides of the comparison are serialized alike. Absent: the page's default (its parent).
  std::optional<std::vector<std::string>> origins;
  // What was wrong with a value, one message per option (`embed: t: expected seconds >= 0,
  // found "soon"`). Never fatal: the option keeps its default and the page shows the messages.
  std::vector<std::string> problems;
};

// Reads the options from `query` (location.search, a leading '?' optional) and `fragment`
// (location.hash, a leading '#' optional); a key in the fragment wins over the query. Within the
// fragment the last occurrence of a key counts, within the query the first (what embed.js's
// URLSearchParams merge did). Keys and values are form-decoded ('+', %XX, UTF-8 with U+FFFD for
// bad bytes). Unknown keys (scene, demo, model, anim, ...) are skipped without being decoded.
// Fails only when query + fragment exceed kMaxEmbedUrlChars.
Result<EmbedOptions> ParseEmbedOptions(std::string_view query, std::string_view fragment);

// One name or value of application/x-www-form-urlencoded text, decoded as URLSearchParams does:
// '+' is a space, %XX a byte (a '%' without two hex digits stays), then UTF-8 with each bad
// sequence replaced by U+FFFD.
std::string DecodeFormComponent(std::string_view text);

// Whether the embed starts playing: false for `paused`, `autoplay=0`, or a reader who prefers
// reduced motion when `autoplay` is not given; true for `autoplay`; nullopt: as the scene says.
std::optional<bool> EmbedStartsPlaying(const EmbedOptions& options, bool prefers_reduced_motion);

// The scene time the embed starts at: `t`, else the start of `loop=A-B` when A > 0, else nullopt.
std::optional<double> EmbedStartTime(const EmbedOptions& options);

// {"autoplay": bool|null, "paused": bool, "time": number|null,
//  "loop": null | {"whole": true} | {"start": A, "end": B}, "ui": "min"|"none",
//  "camera": null | {"yaw", "pitch", "distance"[, "target": [x, y, z]]},
//  "display": {only the toggles given: bool}, "origins": null | [string]}, and
//  "avoidance": bool only when given (so replies to URLs without it read as before); likewise
//  "auto_rotate": bool, "rotation_per_second": degrees, "time_scale", "shadow_intensity" and
//  "animation_crossfade_duration": numbers
JsonValue EmbedOptionsToJson(const EmbedOptions& options);

// The reply of the page's `embed` command: {"ok": true, "options": {...}, "problems": [...]}.
JsonValue EmbedReplyJson(const EmbedOptions& options);

}  // namespace md5stage::viewer
