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

// Writes the value: numbers as FormatJsonNumber, strings as AppendJsonString.
std::string WriteJson(const JsonValue& value, const JsonWriteOptions& options = {});

// The number text WriteJson uses: the shortest digits that read back to the same double
// (std::to_chars where the standard library has it for double), laid out as printf's %g lays
// them out at 15 digits or more: plain from 0.0001 to 15 digits before the point ("1000000",
// "0.25"), else "1.5e-7" / "1e300" (no '+', no leading exponent zeros). -0 is written 0 and
// non-finite numbers (which JSON cannot hold) null.
std::string FormatJsonNumber(double value);
// The same text from {fmt}'s Dragonbox digits (no search): what the wasm build uses, whose libc++
// lacks floating-point to_chars. Public so native tests hold it to the to_chars text.
std::string FormatJsonNumberByDigits(double value);

// Appends `text` as a JSON string literal: quoted, with '"', '\\' and control characters escaped
// (UTF-8 passes through). The one escaping function of the tree.
void AppendJsonString(std::string_view text, std::string& out);
std::string QuoteJson(std::string_view text);

// ---- values in error messages ("expected ..., found <this>") -----------------------------------

constexpr std::size_t kDescribedStringChars = 40;
constexpr std::size_t kDescribedArrayChars = 40;

// `text` quoted as JSON, cut after `max_chars` characters (whole UTF-8 sequences, so the message
// stays valid UTF-8) with "..." after the closing quote when cut.
std::string QuoteJsonExcerpt(std::string_view text, std::size_t max_chars);

// How a value reads in a message, short and never a whole document: null, true, 12.5, "name"
// (cut as QuoteJsonExcerpt at 40 characters), [1, 2] or [[0, 0], [1, 0]] (arrays of up to 4 items,
// 2 levels deep, no objects, that fit in 40 characters), "an empty array", "an array of N",
// "an object"; "nothing" for nullptr (a missing field). Numbers have FormatJsonNumber's digits
// with the exponent's sign as JavaScript shows it (1e+300, 1.5e-7); non-finite numbers built in
// code read nan / inf / -inf.
std::string DescribeJson(const JsonValue* value);
inline std::string DescribeJson(const JsonValue& value) { return DescribeJson(&value); }
// Two numbers in a message (a point, a range): "[a, b]" at any length.
std::string DescribeJsonPair(double a, double b);

}  // namespace md5stage
