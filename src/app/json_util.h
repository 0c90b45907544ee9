// Small helpers for the JSON the page and the app exchange: reading optional arguments and
// writing vectors and replies.
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "core/common/json.h"
#include "ui/viewer_model.h"

namespace md5stage::app {

inline JsonValue Vec(const glm::vec3& v) {
  JsonArray a{JsonValue(static_cast<double>(v.x)), JsonValue(static_cast<double>(v.y)),
              JsonValue(static_cast<double>(v.z))};
  return JsonValue(std::move(a));
}
inline JsonValue Vec(const glm::vec2& v) {
  return JsonValue(JsonArray{JsonValue(static_cast<double>(v.x)), JsonValue(static_cast<double>(v.y))});
}

inline double NumberOr(const JsonValue& object, const char* key, double fallback) {
  const JsonValue* value = object.Find(key);
  return value != nullptr && value->is_number() ? value->as_number() : fallback;
}
inline std::string StringOr(const JsonValue& object, const char* key, const std::string& fallback) {
  const JsonValue* value = object.Find(key);
  return value != nullptr && value->is_string() ? value->as_string() : fallback;
}
inline glm::vec3 Vec3Or(const JsonValue& object, const char* key, glm::vec3 fallback) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr || !value->is_array() || value->as_array().size() != 3) return fallback;
  for (int i = 0; i < 3; ++i) fallback[i] = static_cast<float>(value->as_array()[static_cast<size_t>(i)].as_number());
  return fallback;
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

inline const char* ModeName(ui::PlayMode mode) {
  switch (mode) {
    case ui::PlayMode::kLoop: return "loop";
    case ui::PlayMode::kOnce: return "once";
    case ui::PlayMode::kPingPong: return "pingpong";
  }
  return "loop";
}


}  // namespace md5stage::app
