#include "viewer/command_args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace md5stage::viewer {
namespace {

std::string Range(double lo, double hi) { return DescribeJsonPair(lo, hi); }

std::string Names(std::initializer_list<const char*> names) {
  std::string list;
  for (const char* name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

}  // namespace

CommandArgs::CommandArgs(std::string name, const JsonValue& command)
    : name_(std::move(name)), command_(command) {
  read_.push_back("cmd");
}

void CommandArgs::Fail(const char* field, const std::string& expected, const std::string& found) {
  if (!error_.empty()) return;  // the first problem is the one reported
  error_ = name_ + "." + field + ": expected " + expected + ", found " + found;
}

const JsonValue* CommandArgs::Take(const char* field) {
  read_.push_back(field);
  return command_.Find(field);
}

double CommandArgs::Number(const char* field, double lo, double hi) {
  const std::optional<double> value = OptionalNumber(field, lo, hi);
  if (!value) {
    Fail(field, "a number in " + Range(lo, hi), "nothing (the field is missing)");
    return lo;
  }
  return *value;
}

std::optional<double> CommandArgs::OptionalNumber(const char* field, double lo, double hi) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number() || !std::isfinite(value->as_number()) || value->as_number() < lo ||
      value->as_number() > hi) {
    Fail(field, "a number in " + Range(lo, hi), DescribeJson(*value));
    return lo;
  }
  return value->as_number();
}

int CommandArgs::Integer(const char* field, int lo, int hi) {
  const std::optional<int> value = OptionalInteger(field, lo, hi);
  if (!value) {
    Fail(field, lo > hi ? "no value (there is none to choose)" : "an integer in " + Range(lo, hi),
         "nothing (the field is missing)");
    return lo;
  }
  return *value;
}

std::optional<int> CommandArgs::OptionalInteger(const char* field, int lo, int hi) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number() || !std::isfinite(value->as_number()) ||
      value->as_number() != std::floor(value->as_number()) || value->as_number() < lo ||
      value->as_number() > hi) {
    Fail(field, lo > hi ? "no value (there is none to choose)" : "an integer in " + Range(lo, hi),
         DescribeJson(*value));
    return lo;
  }
  return static_cast<int>(value->as_number());
}

std::string CommandArgs::String(const char* field, size_t max_length) {
  const std::optional<std::string> value = OptionalString(field, max_length);
  if (!value) {
    Fail(field, "a string", "nothing (the field is missing)");
    return "";
  }
  return *value;
}

std::optional<std::string> CommandArgs::OptionalString(const char* field, size_t max_length) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) {
    Fail(field, "a string", DescribeJson(*value));
    return std::string();
  }
  if (value->as_string().size() > max_length) {
    Fail(field, "a string of at most " + std::to_string(max_length) + " bytes",
         std::to_string(value->as_string().size()) + " bytes");
    return std::string();
  }
  return value->as_string();
}

bool CommandArgs::Bool(const char* field) {
  const std::optional<bool> value = OptionalBool(field);
  if (!value) {
    Fail(field, "true or false", "nothing (the field is missing)");
    return false;
  }
  return *value;
}

std::optional<bool> CommandArgs::OptionalBool(const char* field) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_bool()) {
    Fail(field, "true or false", DescribeJson(*value));
    return false;
  }
  return value->as_bool();
}

int CommandArgs::Choice(const char* field, std::initializer_list<const char*> names) {
  const std::optional<int> value = OptionalChoice(field, names);
  if (!value) {
    Fail(field, "one of " + Names(names), "nothing (the field is missing)");
    return 0;
  }
  return *value;
}

std::optional<int> CommandArgs::OptionalChoice(const char* field,
                                               std::initializer_list<const char*> names) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  if (value->is_string()) {
    int index = 0;
    for (const char* name : names) {
      if (value->as_string() == name) return index;
      ++index;
    }
  }
  Fail(field, "one of " + Names(names), DescribeJson(*value));
  return 0;
}

glm::vec3 CommandArgs::Vec3(const char* field, double limit) {
  const std::optional<glm::vec3> value = OptionalVec3(field, limit);
  if (!value) {
    Fail(field, "[x, y, z]", "nothing (the field is missing)");
    return glm::vec3(0.0f);
  }
  return *value;
}

std::optional<glm::vec3> CommandArgs::OptionalVec3(const char* field, double limit) {
  const JsonValue* value = Take(field);
  if (value == nullptr) return std::nullopt;
  const std::string expected = "[x, y, z] of numbers in " + Range(-limit, limit);
  if (!value->is_array() || value->as_array().size() != 3) {
    Fail(field, expected, DescribeJson(*value));
    return glm::vec3(0.0f);
  }
  glm::vec3 result(0.0f);
  for (int i = 0; i < 3; ++i) {
    const JsonValue& v = value->as_array()[static_cast<size_t>(i)];
    if (!v.is_number() || !std::isfinite(v.as_number()) || std::abs(v.as_number()) > limit) {
      Fail(field, expected, "[" + std::to_string(i) + "] = " + DescribeJson(v));
      return glm::vec3(0.0f);
    }
    result[i] = static_cast<float>(v.as_number());
  }
  return result;
}

const JsonValue& CommandArgs::Value(const char* field) {
  static const JsonValue kNull;
  const JsonValue* value = Take(field);
  if (value == nullptr) {
    Fail(field, "a value", "nothing (the field is missing)");
    return kNull;
  }
  return *value;
}

const JsonValue* CommandArgs::OptionalValue(const char* field) { return Take(field); }

bool CommandArgs::Finish() {
  if (!error_.empty()) return false;
  if (!command_.is_object()) return true;
  for (const JsonMember& member : command_.as_object()) {
    if (std::find(read_.begin(), read_.end(), member.first) == read_.end()) {
      error_ = name_ + "." + member.first + ": expected no such field (" + name_ +
               " does not take it), found " + DescribeJson(member.second);
      return false;
    }
  }
  return true;
}

}  // namespace md5stage::viewer
