// A small JSON document model for scenes and routes: a bounded, located parser and a compact writer
// whose numbers read back to the same double.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/common/result.h"

namespace md5stage {

class JsonValue;
using JsonArray = std::vector<JsonValue>;
using JsonMember = std::pair<std::string, JsonValue>;
using JsonObject = std::vector<JsonMember>;  // keeps the document's key order

class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;                                       // null
  JsonValue(std::nullptr_t) {}                                 // NOLINT: implicit by design
  JsonValue(bool value) : data_(value) {}                      // NOLINT
  JsonValue(double value) : data_(value) {}                    // NOLINT
  JsonValue(int value) : data_(static_cast<double>(value)) {}  // NOLINT
  JsonValue(std::string value) : data_(std::move(value)) {}    // NOLINT
  JsonValue(const char* value) : data_(std::string(value)) {}  // NOLINT
  JsonValue(JsonArray value) : data_(std::move(value)) {}      // NOLINT
  JsonValue(JsonObject value) : data_(std::move(value)) {}     // NOLINT

  static JsonValue MakeArray() { return JsonValue(JsonArray{}); }
  static JsonValue MakeObject() { return JsonValue(JsonObject{}); }

  Type type() const { return static_cast<Type>(data_.index()); }
  bool is_null() const { return type() == Type::kNull; }
  bool is_bool() const { return type() == Type::kBool; }
  bool is_number() const { return type() == Type::kNumber; }
  bool is_string() const { return type() == Type::kString; }
  bool is_array() const { return type() == Type::kArray; }
  bool is_object() const { return type() == Type::kObject; }

  // Typed access; calling one on the wrong type returns the empty/zero value.
  bool as_bool() const;
  double as_number() const;
  const std::string& as_string() const;
  const JsonArray& as_array() const;
  const JsonObject& as_object() const;
  JsonArray& mutable_array();    // turns a non-array into an empty array first
  JsonObject& mutable_object();  // turns a non-object into an empty object first

  // Object member by key (first match), or nullptr when absent or when this is not an object.
  const JsonValue* Find(std::string_view key) const;
  // Sets (replacing an existing key in place) or appends an object member.
  JsonValue& Set(std::string key, JsonValue value);
  // Appends to an array.
  JsonValue& Append(JsonValue value);

  // Where the value started in its source text (1-based; 0 for values built in code).
  int line() const { return line_; }
  int column() const { return column_; }
  void set_location(int line, int column) {
    line_ = line;
    column_ = column;
  }

  // Structural equality (ignores source locations; object key order matters).
  friend bool operator==(const JsonValue& a, const JsonValue& b) { return a.data_ == b.data_; }
  friend bool operator!=(const JsonValue& a, const JsonValue& b) { return !(a == b); }

 private:
  std::variant<std::monostate, bool, double, std::string, JsonArray, JsonObject> data_;
  int line_ = 0;
  int column_ = 0;
};

// "null", "bool", "number", "string", "array", "object".
const char* JsonTypeName(JsonValue::Type type);

struct JsonLimits {
  std::size_t max_bytes = 1 << 20;  // whole document
  int max_depth = 64;               // nested arrays/objects
};

// Parses one JSON document (RFC 8259: UTF-8 only, no comments, no trailing commas, no NaN).
// Duplicate keys are rejected. Errors read `file:line:col: error: expected ..., found ...`; the
// column counts bytes from 1. A leading UTF-8 byte order mark is skipped.
Result<JsonValue> ParseJson(std::string_view file, std::string_view text,
                            const JsonLimits& limits = {});

struct JsonWriteOptions {
  int indent = 0;  // 0: compact, one line; > 0: that many spaces per level
};

// Writes the value. Numbers use the shortest %.Ng form (N <= 17) that reads back exactly;
// non-finite numbers (which JSON cannot hold) are written as null.
std::string WriteJson(const JsonValue& value, const JsonWriteOptions& options = {});

// The number text WriteJson uses.
std::string FormatJsonNumber(double value);

}  // namespace md5stage
