// Handles' text at the page's boundary (handles.h).
#include "viewer/handles.h"

namespace md5stage::viewer {

char HandlePrefix(HandleKind kind) {
  switch (kind) {
    case HandleKind::kModel:
      return 'm';
    case HandleKind::kCharacter:
      return 'c';
    case HandleKind::kRoute:
      return 'r';
    case HandleKind::kObstacle:
      return 'o';
    case HandleKind::kCamera:
      return 'k';
  }
  return '?';
}

std::optional<uint32_t> ParseHandleSerial(HandleKind kind, const std::string& text) {
  // One letter, then 1 to 10 digits without a leading zero, at most 2^32 - 1.
  if (text.size() < 2 || text.size() > 11 || text[0] != HandlePrefix(kind)) return std::nullopt;
  if (text[1] == '0') return std::nullopt;
  uint64_t serial = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    serial = serial * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (serial > 0xffffffffu) return std::nullopt;
  return static_cast<uint32_t>(serial);
}

}  // namespace md5stage::viewer
