#include "core/common/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>

#include "core/common/dragonbox.h"
#include "core/common/number_text.h"
#include "core/common/text.h"

namespace md5stage {

namespace {

const std::string& EmptyString() {
  static const std::string* empty = new std::string();
  return *empty;
}
const JsonArray& EmptyArray() {
  static const JsonArray* empty = new JsonArray();
  return *empty;
}
const JsonObject& EmptyObject() {
  static const JsonObject* empty = new JsonObject();
  return *empty;
}

}  // namespace

bool JsonValue::as_bool() const {
  const bool* value = std::get_if<bool>(&data_);
  return value != nullptr && *value;
}

double JsonValue::as_number() const {
  const double* value = std::get_if<double>(&data_);
  return value != nullptr ? *value : 0.0;
}

const std::string& JsonValue::as_string() const {
  const std::string* value = std::get_if<std::string>(&data_);
  return value != nullptr ? *value : EmptyString();
}

const JsonArray& JsonValue::as_array() const {
  const JsonArray* value = std::get_if<JsonArray>(&data_);
  return value != nullptr ? *value : EmptyArray();
}

const JsonObject& JsonValue::as_object() const {
  const JsonObject* value = std::get_if<JsonObject>(&data_);
  return value != nullptr ? *value : EmptyObject();
}

JsonArray& JsonValue::mutable_array() {
  if (!is_array()) data_ = JsonArray{};
  return std::get<JsonArray>(data_);
}

JsonObject& JsonValue::mutable_object() {
  if (!is_object()) data_ = JsonObject{};
  return std::get<JsonObject>(data_);
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  const JsonObject* object = std::get_if<JsonObject>(&data_);
  if (object == nullptr) return nullptr;
  for (const JsonMember& member : *object) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

JsonValue& JsonValue::Set(std::string key, JsonValue value) {
  JsonObject& object = mutable_object();
  for (JsonMember& member : object) {
    if (member.first == key) {
      member.second = std::move(value);
      return member.second;
    }
  }
  object.emplace_back(std::move(key), std::move(value));
  return object.back().second;
}

JsonValue& JsonValue::Append(JsonValue value) {
  JsonArray& array = mutable_array();
  array.push_back(std::move(value));
  return array.back();
}

const char* JsonTypeName(JsonValue::Type type) {
  switch (type) {
    case JsonValue::Type::kNull:
      return "null";
    case JsonValue::Type::kBool:
      return "bool";
    case JsonValue::Type::kNumber:
      return "number";
    case JsonValue::Type::kString:
      return "string";
    case JsonValue::Type::kArray:
      return "array";
    case JsonValue::Type::kObject:
      return "object";
  }
  return "?";
}

// ---- parser ------------------------------------------------------------------------------------

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_';
}

// Length of the well-formed UTF-8 sequence at text[0] (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0.
std::size_t Utf8SequenceLength(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

class Parser {
 public:
  Parser(std::string_view file, std::string_view text, const JsonLimits& limits)
      : file_(file), text_(text), limits_(limits) {}

  Result<JsonValue> ParseDocument() {
    if (text_.size() > limits_.max_bytes) {
      return MakeError(std::string(file_), 0, 0,
                       "expected at most " + std::to_string(limits_.max_bytes) +
                           " bytes of JSON, found " + std::to_string(text_.size()));
    }
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") Advance(3);
    JsonValue root;
    SkipSpace();
    if (!ParseValue(root, 0)) return std::move(error_);
    SkipSpace();
    if (!AtEnd()) return Fail("end of input");
    return root;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }

  void Advance(std::size_t count) {
    for (std::size_t i = 0; i < count && !AtEnd(); ++i) {
      if (text_[pos_] == '\n') {
        ++line_;
        line_start_ = pos_ + 1;
      }
      ++pos_;
    }
  }

  int Column() const { return static_cast<int>(pos_ - line_start_) + 1; }

  void SkipSpace() {
    while (!AtEnd()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      Advance(1);
    }
  }

  // How the text at the current position reads in a message.
  std::string Found() const {
    if (AtEnd()) return "end of input";
    const char c = text_[pos_];
    if (IsWordChar(c) || c == '-' || c == '+' || c == '.') {
      std::size_t end = pos_;
      while (
          end < text_.size() && end - pos_ < 16 &&
          (IsWordChar(text_[end]) || text_[end] == '-' || text_[end] == '+' || text_[end] == '.')) {
        ++end;
      }
      return "'" + std::string(text_.substr(pos_, end - pos_)) + "'";
    }
    return DescribeByte(c);
  }

  bool FailAt(int line, int column, const std::string& expected, const std::string& found) {
    error_ =
        MakeError(std::string(file_), line, column, "expected " + expected + ", found " + found);
    return false;
  }
  bool FailHere(const std::string& expected, const std::string& found) {
    return FailAt(line_, Column(), expected, found);
  }
  Diagnostic Fail(const std::string& expected) {
    FailHere(expected, Found());
    return error_;
  }
  bool FailExpected(const std::string& expected) { return FailHere(expected, Found()); }

  bool ParseValue(JsonValue& out, int depth) {
    const int line = line_, column = Column();
    switch (Peek()) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"': {
        std::string text;
        if (!ParseString(text)) return false;
        out = JsonValue(std::move(text));
        out.set_location(line, column);
        return true;
      }
      case 't':
        return ParseLiteral("true", JsonValue(true), out);
      case 'f':
        return ParseLiteral("false", JsonValue(false), out);
      case 'n':
        return ParseLiteral("null", JsonValue(), out);
      default:
        if (Peek() == '-' || IsDigit(Peek())) {
          double number = 0;
          if (!ParseNumber(number)) return false;
          out = JsonValue(number);
          out.set_location(line, column);
          return true;
        }
        return FailExpected("a value");
    }
  }

  bool ParseLiteral(std::string_view word, JsonValue value, JsonValue& out) {
    std::size_t end = pos_;
    while (end < text_.size() && IsWordChar(text_[end])) ++end;
    if (text_.substr(pos_, end - pos_) != word) return FailExpected("a value");
    const int line = line_, column = Column();
    Advance(word.size());
    out = std::move(value);
    out.set_location(line, column);
    return true;
  }

  bool EnterNested(int depth) {
    if (depth <= limits_.max_depth) return true;
    return FailHere("at most " + std::to_string(limits_.max_depth) + " nested arrays/objects",
                    "more");
  }

  bool ParseArray(JsonValue& out, int depth) {
    if (!EnterNested(depth)) return false;
    const int line = line_, column = Column();
    JsonArray items;
    Advance(1);  // '['
    SkipSpace();
    if (Peek() == ']') {
      Advance(1);
    } else {
      for (;;) {
        SkipSpace();
        items.emplace_back();
        if (!ParseValue(items.back(), depth)) return false;
        SkipSpace();
        if (Peek() == ',') {
          Advance(1);
          continue;
        }
        if (Peek() == ']') {
          Advance(1);
          break;
        }
        return FailExpected("',' or ']'");
      }
    }
    out = JsonValue(std::move(items));
    out.set_location(line, column);
    return true;
  }

  bool ParseObject(JsonValue& out, int depth) {
    if (!EnterNested(depth)) return false;
    const int line = line_, column = Column();
    JsonObject members;
    // Duplicate detection: a linear scan for small objects, a set once the object grows, so a
    // hostile object with many keys stays linear.
    std::unordered_set<std::string> seen;
    Advance(1);  // '{'
    SkipSpace();
    if (Peek() == '}') {
      Advance(1);
    } else {
      for (;;) {
        SkipSpace();
        if (Peek() != '"')
          return FailExpected(members.empty() ? "a string key or '}'" : "a string key");
        const int key_line = line_, key_column = Column();
        std::string key;
        if (!ParseString(key)) return false;
        bool duplicate = false;
        if (members.size() < 16) {
          for (const JsonMember& member : members) duplicate = duplicate || member.first == key;
        } else {
          if (seen.empty()) {
            for (const JsonMember& member : members) seen.insert(member.first);
          }
          duplicate = seen.count(key) > 0;
        }
        if (duplicate) {
          return FailAt(key_line, key_column, "unique keys", "\"" + key + "\" again");
        }
        SkipSpace();
        if (Peek() != ':') return FailExpected("':'");
        Advance(1);
        SkipSpace();
        if (!seen.empty()) seen.insert(key);
        members.emplace_back(std::move(key), JsonValue());
        if (!ParseValue(members.back().second, depth)) return false;
        SkipSpace();
        if (Peek() == ',') {
          Advance(1);
          continue;
        }
        if (Peek() == '}') {
          Advance(1);
          break;
        }
        return FailExpected("',' or '}'");
      }
    }
    out = JsonValue(std::move(members));
    out.set_location(line, column);
    return true;
  }

  bool ParseHex4(unsigned& out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = pos_ + i < text_.size() ? HexDigitValue(text_[pos_ + i]) : -1;
      if (digit < 0) {
        Advance(i);
        return FailExpected("4 hex digits after \\u");
      }
      out = out * 16 + static_cast<unsigned>(digit);
    }
    Advance(4);
    return true;
  }

  bool ParseString(std::string& out) {
    const int line = line_, column = Column();
    Advance(1);  // '"'
    for (;;) {
      if (AtEnd()) {
        FailHere("'\"' to end the string started at " + std::to_string(line) + ":" +
                     std::to_string(column),
                 "end of input");
        return false;
      }
      const char c = text_[pos_];
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"') {
        Advance(1);
        return true;
      }
      if (byte < 0x20) return FailExpected("a control character to be escaped");
      if (byte >= 0x80) {
        const std::size_t length = Utf8SequenceLength(text_.substr(pos_));
        if (length == 0) return FailExpected("UTF-8 text");
        out.append(text_.data() + pos_, length);
        Advance(length);
        continue;
      }
      if (c != '\\') {
        out += c;
        Advance(1);
        continue;
      }
      Advance(1);  // '\\'
      const char escape = Peek();
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out += escape;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const int escape_line = line_, escape_column = Column() - 1;
          Advance(1);
          unsigned code = 0;
          if (!ParseHex4(code)) return false;
          if (code >= 0xDC00 && code <= 0xDFFF) {
            return FailAt(escape_line, escape_column, "a high surrogate before a low one",
                          "a lone low surrogate");
          }
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") {
              return FailExpected("a low surrogate \\uDC00-\\uDFFF after a high one");
            }
            Advance(2);
            unsigned low = 0;
            if (!ParseHex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) {
              return FailAt(line_, Column() - 6, "a low surrogate \\uDC00-\\uDFFF after a high one",
                            "another code unit");
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code, out);
          continue;  // already advanced past the digits
        }
        default:
          return FailExpected("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
      }
      Advance(1);
    }
  }

  bool ParseNumber(double& out) {
    const std::size_t start = pos_;
    const int column = Column();
    if (Peek() == '-') Advance(1);
    if (!IsDigit(Peek())) return FailExpected("a digit");
    if (Peek() == '0') {
      Advance(1);
      if (IsDigit(Peek())) return FailExpected("no digit after a leading 0");
    } else {
      while (IsDigit(Peek())) Advance(1);
    }
    if (Peek() == '.') {
      Advance(1);
      if (!IsDigit(Peek())) return FailExpected("a digit after '.'");
      while (IsDigit(Peek())) Advance(1);
    }
    if (Peek() == 'e' || Peek() == 'E') {
      Advance(1);
      if (Peek() == '+' || Peek() == '-') Advance(1);
      if (!IsDigit(Peek())) return FailExpected("a digit in the exponent");
      while (IsDigit(Peek())) Advance(1);
    }
    // The grammar is checked above; strtod only converts. A copy gives it a terminator.
    const std::string token(text_.substr(start, pos_ - start));
    out = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(out)) {
      return FailAt(line_, column, "a finite number", "'" + token.substr(0, 24) + "'");
    }
    return true;
  }

  std::string_view file_;
  std::string_view text_;
  JsonLimits limits_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  Diagnostic error_;
};

}  // namespace

// ---- writer ------------------------------------------------------------------------------------

void AppendJsonString(std::string_view text, std::string& out) {
  out += '"';
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (byte < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", byte);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

std::string QuoteJson(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  AppendJsonString(text, out);
  return out;
}

std::string QuoteJsonExcerpt(std::string_view text, std::size_t max_chars) {
  std::size_t cut = 0, chars = 0;
  while (cut < text.size() && chars < max_chars) {
    ++cut;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
    ++chars;
  }
  if (cut == text.size()) return QuoteJson(text);
  return QuoteJson(text.substr(0, cut)) + "...";
}

namespace {

// A number in a message: the JSON digits with the exponent's sign as JavaScript (and printf) show
// it, since the page's messages quote numbers its scripts passed ("1e+300"); values built in code
// can be non-finite, which the message names rather than writing null.
std::string DescribeNumber(double number) {
  if (std::isnan(number)) return "nan";
  if (std::isinf(number)) return number < 0 ? "-inf" : "inf";
  std::string text = FormatJsonNumber(number);
  const std::size_t e = text.find('e');
  if (e != std::string::npos && text[e + 1] != '-') text.insert(e + 1, "+");
  return text;
}

// Appends `value` as a short literal for a message ([1, "x"], [[0, 0], [1, 0]]); false when it
// has none: an object, more than 4 items or 2 levels, a string that would be cut.
bool AppendShortLiteral(const JsonValue& value, int depth, std::string& out) {
  switch (value.type()) {
    case JsonValue::Type::kObject:
      return false;
    case JsonValue::Type::kString:
      if (value.as_string().size() > kDescribedStringChars) return false;
      break;
    case JsonValue::Type::kArray: {
      const JsonArray& items = value.as_array();
      if (items.size() > 4 || depth >= 2) return false;
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ", ";
        if (!AppendShortLiteral(items[i], depth + 1, out)) return false;
      }
      out += ']';
      return true;
    }
    default:
      break;
  }
  out += DescribeJson(&value);
  return true;
}

}  // namespace

std::string DescribeJsonPair(double a, double b) {
  return "[" + DescribeNumber(a) + ", " + DescribeNumber(b) + "]";
}

std::string DescribeJson(const JsonValue* value) {
  if (value == nullptr) return "nothing";
  switch (value->type()) {
    case JsonValue::Type::kNull:
      return "null";
    case JsonValue::Type::kBool:
      return value->as_bool() ? "true" : "false";
    case JsonValue::Type::kNumber:
      return DescribeNumber(value->as_number());
    case JsonValue::Type::kString:
      return QuoteJsonExcerpt(value->as_string(), kDescribedStringChars);
    case JsonValue::Type::kArray: {
      // A point or a short list of points reads best as itself; anything longer by its size.
      if (value->as_array().empty()) return "an empty array";
      std::string text;
      if (AppendShortLiteral(*value, 0, text) && text.size() <= kDescribedArrayChars) return text;
      return "an array of " + std::to_string(value->as_array().size());
    }
    case JsonValue::Type::kObject:
      return "an object";
  }
  return "?";
}

namespace {

void Newline(const JsonWriteOptions& options, int depth, std::string& out) {
  if (options.indent <= 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(options.indent * depth), ' ');
}

void WriteValue(const JsonValue& value, const JsonWriteOptions& options, int depth,
                std::string& out) {
  switch (value.type()) {
    case JsonValue::Type::kNull:
      out += "null";
      return;
    case JsonValue::Type::kBool:
      out += value.as_bool() ? "true" : "false";
      return;
    case JsonValue::Type::kNumber:
      out += FormatJsonNumber(value.as_number());
      return;
    case JsonValue::Type::kString:
      AppendJsonString(value.as_string(), out);
      return;
    case JsonValue::Type::kArray: {
      const JsonArray& items = value.as_array();
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        Newline(options, depth + 1, out);
        WriteValue(items[i], options, depth + 1, out);
      }
      if (!items.empty()) Newline(options, depth, out);
      out += ']';
      return;
    }
    case JsonValue::Type::kObject: {
      const JsonObject& members = value.as_object();
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0) out += ',';
        Newline(options, depth + 1, out);
        AppendJsonString(members[i].first, out);
        out += options.indent > 0 ? ": " : ":";
        WriteValue(members[i].second, options, depth + 1, out);
      }
      if (!members.empty()) Newline(options, depth, out);
      out += '}';
      return;
    }
  }
}

}  // namespace

Result<JsonValue> ParseJson(std::string_view file, std::string_view text,
                            const JsonLimits& limits) {
  Parser parser(file, text, limits);
  return parser.ParseDocument();
}

// ---- numbers -----------------------------------------------------------------------------------

namespace {

// A double's shortest round-trip decimal: value = ±d1.d2...dn × 10^exponent, no trailing zeros.
struct ShortestDecimal {
  char digits[24];
  int count = 0;
  int exponent = 0;
  bool negative = false;
};

// Reads "-d.ddde±XX" (printf's %e and to_chars' scientific form) into digits and exponent.
ShortestDecimal ReadScientific(const char* text) {
  ShortestDecimal out;
  const char* p = text;
  if (*p == '-') {
    out.negative = true;
    ++p;
  }
  for (; *p != '\0' && *p != 'e'; ++p) {
    if (*p != '.') out.digits[out.count++] = *p;
  }
  if (*p == 'e') out.exponent = std::atoi(p + 1);
  return out;
}

void TrimZeros(ShortestDecimal& d) {
  while (d.count > 1 && d.digits[d.count - 1] == '0') --d.count;
}

std::string WriteScientific(const ShortestDecimal& d) {
  std::string text = d.negative ? "-" : "";
  text += d.digits[0];
  if (d.count > 1) {
    text += '.';
    text.append(d.digits + 1, static_cast<std::size_t>(d.count - 1));
  }
  return text + "e" + std::to_string(d.exponent);
}

// The layout %.Pg gives with P = max(15, digits): plain notation for exponents from -5 to P - 1,
// so whole numbers below 1e15 and decimals down to 0.0001 read as people write them. This is
// the text the scene files and share links were written with before to_chars; keeping it keeps
// them byte-identical.
std::string Layout(const ShortestDecimal& d) {
  const int plain_limit = d.count > 15 ? d.count : 15;
  if (d.exponent < -4 || d.exponent >= plain_limit) return WriteScientific(d);
  std::string text = d.negative ? "-" : "";
  if (d.exponent < 0) {
    text += "0.";
    text.append(static_cast<std::size_t>(-d.exponent - 1), '0');
    text.append(d.digits, static_cast<std::size_t>(d.count));
    return text;
  }
  const int whole = d.exponent + 1;
  for (int i = 0; i < whole; ++i) text += i < d.count ? d.digits[i] : '0';
  if (d.count > whole) {
    text += '.';
    text.append(d.digits + whole, static_cast<std::size_t>(d.count - whole));
  }
  return text;
}

// The shortest digits that read back to `value` (the nearest such when there are several), from
// {fmt}'s Dragonbox: the digits to_chars finds, with no search.
ShortestDecimal DragonboxDigits(double value) {
  const fmt::detail::dragonbox::decimal_fp<double> decimal =
      fmt::detail::dragonbox::to_decimal(value);
  ShortestDecimal d;
  d.negative = value < 0.0;
  const std::to_chars_result end =
      std::to_chars(d.digits, d.digits + sizeof d.digits, decimal.significand);
  d.count = static_cast<int>(end.ptr - d.digits);
  d.exponent = decimal.exponent + d.count - 1;  // of the first digit
  TrimZeros(d);
  return d;
}

}  // namespace

std::string FormatJsonNumberByDigits(double value) {
  if (!std::isfinite(value)) return "null";
  if (value == 0) return "0";  // also folds -0, which JSON readers treat inconsistently
  return Layout(DragonboxDigits(value));
}

std::string FormatJsonNumber(double value) {
#if MD5STAGE_HAVE_FLOATING_TO_CHARS
  if (!std::isfinite(value)) return "null";
  if (value == 0) return "0";
  char buffer[40];
  const std::to_chars_result end =
      std::to_chars(buffer, buffer + sizeof buffer - 1, value, std::chars_format::scientific);
  *end.ptr = '\0';
  ShortestDecimal d = ReadScientific(buffer);
  TrimZeros(d);
  return Layout(d);
#else
  return FormatJsonNumberByDigits(value);
#endif
}

std::string WriteJson(const JsonValue& value, const JsonWriteOptions& options) {
  std::string out;
  WriteValue(value, options, 0, out);
  return out;
}

}  // namespace md5stage
