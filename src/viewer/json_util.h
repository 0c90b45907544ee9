// Small helpers for the JSON the page and the viewer exchange: vectors and replies (arguments
// are read by CommandArgs).
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "core/common/json.h"
#include "viewer/handles.h"
#include "viewer/viewer_model.h"

namespace md5stage::viewer {

inline JsonValue Vec(const glm::vec3& v) {
  JsonArray a{JsonValue(static_cast<double>(v.x)), JsonValue(static_cast<double>(v.y)),
              JsonValue(static_cast<double>(v.z))};
  return JsonValue(std::move(a));
}
inline JsonValue Vec(const glm::vec2& v) {
  return JsonValue(
      JsonArray{JsonValue(static_cast<double>(v.x)), JsonValue(static_cast<double>(v.y))});
}

// A handle's text, or null for none.
template <HandleKind Kind>
JsonValue IdJson(Handle<Kind> handle) {
  return handle.valid() ? JsonValue(HandleText(handle)) : JsonValue();
}

inline JsonValue Reply(bool ok) {
  JsonValue reply = JsonValue::MakeObject();
  reply.Set("ok", ok);
  return reply;
}
inline JsonValue Failure(const std::string& message) {
  JsonValue reply = Reply(false);
  reply.Set("error", message);
  return reply;
}

}  // namespace md5stage::viewer
