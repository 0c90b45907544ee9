#include "viewer/command_args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace md5stage::viewer {
namespace {

std::string FormatNumber(double value) {
  char text[32];
  // Whole numbers as people write them (1000000, not 1e+06), as JavaScript prints them.
  if (std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  std::snprintf(text, sizeof text, "%.17g", value);
  // The shortest form that reads back, so ranges print as people write them (0.25, not 0.2500...).
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return text;
}

std::string Range(double lo, double hi) {
  return "[" + FormatNumber(lo) + ", " + FormatNumber(hi) + "]";
}

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

std::string CommandArgs::Describe(const JsonValue& value) {
  switch (value.type()) {
    case JsonValue::Type::kNull:
      return "null";
    case JsonValue::Type::kBool:
      return value.as_bool() ? "true" : "false";
    case JsonValue::Type::kNumber:
      return FormatNumber(value.as_number());
    case JsonValue::Type::kString: {
      const std::string& text = value.as_string();
      size_t cut = std::min<size_t>(text.size(), 40);
      // Never inside a UTF-8 character: the reply must stay valid UTF-8.
      while (cut < text.size() && cut > 0 &&
             (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
      }
      std::string shown = cut < text.size() ? text.substr(0, cut) + "..." : text;
      return WriteJson(JsonValue(shown));
    }
    case JsonValue::Type::kArray:
      return "an array of " + std::to_string(value.as_array().size());
    case JsonValue::Type::kObject:
      return "an object";
  }
  return "?";
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
    Fail(field, "a number in " + Range(lo, hi), Describe(*value));
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
         Describe(*value));
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
    Fail(field, "a string", Describe(*value));
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
    Fail(field, "true or false", Describe(*value));
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
  Fail(field, "one of " + Names(names), Describe(*value));
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
    Fail(field, expected, Describe(*value));
    return glm::vec3(0.0f);
  }
  glm::vec3 result(0.0f);
  for (int i = 0; i < 3; ++i) {
    const JsonValue& v = value->as_array()[static_cast<size_t>(i)];
    if (!v.is_number() || !std::isfinite(v.as_number()) || std::abs(v.as_number()) > limit) {
      Fail(field, expected, "[" + std::to_string(i) + "] = " + Describe(v));
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
               " does not take it), found " + Describe(member.second);
      return false;
    }
  }
  return true;
}

}  // namespace md5stage::viewer
