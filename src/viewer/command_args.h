// Typed reading of one command's fields: each field is read with its type and range, and the first
// problem becomes the error, naming command and field (`setMode.mode: expected one of loop, once,
// pingpong, found "bogus"`). Fields the command does not read are errors too, so a typo is never
// silently ignored.
#pragma once

#include <glm/glm.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "core/common/json.h"

namespace md5stage::viewer {

class CommandArgs {
 public:
  // `command` is the whole {"cmd": NAME, ...} object; "cmd" itself counts as read.
  CommandArgs(std::string name, const JsonValue& command);
  // The command is referred to, not copied: it must outlive the reader.
  CommandArgs(std::string name, JsonValue&& command) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }
  // Records a problem found by the handler itself (e.g. a joint name that does not exist).
  void Fail(const char* field, const std::string& expected, const std::string& found);

  // Required fields: a missing or wrong field records an error and returns a neutral value.
  double Number(const char* field, double lo, double hi);
  int Integer(const char* field, int lo, int hi);
  std::string String(const char* field, size_t max_length = 4096);
  bool Bool(const char* field);
  int Choice(const char* field, std::initializer_list<const char*> names);
  glm::vec3 Vec3(const char* field, double limit);
  const JsonValue& Value(const char* field);

  // Optional fields: absent gives nullopt; present but wrong records an error.
  std::optional<double> OptionalNumber(const char* field, double lo, double hi);
  std::optional<int> OptionalInteger(const char* field, int lo, int hi);
  std::optional<std::string> OptionalString(const char* field, size_t max_length = 4096);
  std::optional<bool> OptionalBool(const char* field);
  std::optional<int> OptionalChoice(const char* field, std::initializer_list<const char*> names);
  std::optional<glm::vec3> OptionalVec3(const char* field, double limit);
  const JsonValue* OptionalValue(const char* field);

  // After the handler has read its fields: false (with the error) when one was wrong or when the
  // command carries a field no one read.
  bool Finish();

 private:
  const JsonValue* Take(const char* field);

  std::string name_;
  const JsonValue& command_;
  std::vector<std::string> read_;
  std::string error_;
};

}  // namespace md5stage::viewer
