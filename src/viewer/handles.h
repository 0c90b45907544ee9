// Stable names for what a stage holds (models, characters, routes, obstacles, cinematic cameras):
// one part of the stage refers to another by handle, never by where it sits in a vector, so that
// removing one thing never re-targets a reference to another (issue 43).
//
// A handle is a kind and a serial the stage hands out once: a serial is never given again in the
// stage's life, so a stale handle (its thing removed) can never name a later thing; it only stops
// resolving. (sokol's pools reuse slots and check a generation; a stage holds at most thousands
// of things, so a 32-bit serial that is never reused is the same check without the slots.)
// At the page's boundary a handle is text: a letter for its kind and the serial ("c7", "m2"), so
// that an integer there always means a position in state()'s list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace md5stage::viewer {

enum class HandleKind : uint8_t { kModel, kCharacter, kRoute, kObstacle, kCamera };

template <HandleKind Kind>
struct Handle {
  static constexpr HandleKind kKind = Kind;
  uint32_t serial = 0;  // 0: no thing

  bool valid() const { return serial != 0; }
  friend bool operator==(Handle a, Handle b) { return a.serial == b.serial; }
  friend bool operator!=(Handle a, Handle b) { return a.serial != b.serial; }
};

using ModelId = Handle<HandleKind::kModel>;
using CharacterId = Handle<HandleKind::kCharacter>;
using RouteId = Handle<HandleKind::kRoute>;
using ObstacleId = Handle<HandleKind::kObstacle>;
using CameraId = Handle<HandleKind::kCamera>;

// The letter a kind's handles are written with: m, c, r, o, k (camera).
char HandlePrefix(HandleKind kind);

// "c7" for a character's 7th serial; "" for no thing.
template <HandleKind Kind>
std::string HandleText(Handle<Kind> handle) {
  return handle.valid() ? HandlePrefix(Kind) + std::to_string(handle.serial) : std::string();
}

// The serial of a handle's text for that kind ("c7" -> 7), or nothing when the text is not one
// (another kind's letter, no digits, a leading zero, past 32 bits).
std::optional<uint32_t> ParseHandleSerial(HandleKind kind, const std::string& text);

template <HandleKind Kind>
std::optional<Handle<Kind>> ParseHandle(const std::string& text) {
  const std::optional<uint32_t> serial = ParseHandleSerial(Kind, text);
  if (!serial) return std::nullopt;
  return Handle<Kind>{*serial};
}

// Hands out each kind's serials, from 1, never twice.
class HandleSerials {
 public:
  template <HandleKind Kind>
  Handle<Kind> Next() {
    return Handle<Kind>{next_[static_cast<int>(Kind)]++};
  }

 private:
  uint32_t next_[5] = {1, 1, 1, 1, 1};
};

}  // namespace md5stage::viewer
