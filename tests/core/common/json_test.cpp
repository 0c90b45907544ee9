#include "core/common/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

struct ValidCase {
  const char* input;
  const char* compact;  // what WriteJson gives back
};

TEST(JsonParseTest, ValidDocumentsRewriteCompactly) {
  const ValidCase cases[] = {
      {"null", "null"},
      {" true ", "true"},
      {"false", "false"},
      {"0", "0"},
      {"-0", "0"},
      {"-0.0e+0", "0"},
      {"12", "12"},
      {"-3.5", "-3.5"},
      {"1e3", "1000"},
      {"1E-2", "0.01"},
      {"2.5e+20", "2.5e20"},
      {"1e-7", "1e-7"},
      {"0.1", "0.1"},
      {"\"\"", "\"\""},
      {"\"a b\"", "\"a b\""},
      {"[]", "[]"},
      {"{}", "{}"},
      {"[ 1 , [ 2 , [ ] ] , { } ]", "[1,[2,[]],{}]"},
      {"{\"b\":1,\"a\":2}", "{\"b\":1,\"a\":2}"},  // key order kept
      {"\n\t{ \"k\" :\r\n [true, false, null] }\n", "{\"k\":[true,false,null]}"},
      {"\xEF\xBB\xBF[1]", "[1]"},  // byte order mark skipped
      {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\\"\\\\/\\b\\f\\n\\r\\t\""},
      {"\"\\u0001\"", "\"\\u0001\""},
      {"\"\\u0041\\u00e9\"", "\"A\xC3\xA9\""},
      {"\"\\u20AC\"", "\"\xE2\x82\xAC\""},
      {"\"\\ud83d\\ude00\"", "\"\xF0\x9F\x98\x80\""},  // surrogate pair → U+1F600
      {"\"\xF0\x9F\x98\x80 \xE2\x82\xAC\"", "\"\xF0\x9F\x98\x80 \xE2\x82\xAC\""},
      {"\"\\u0000x\"", "\"\\u0000x\""},
  };
  for (const ValidCase& c : cases) {
    SCOPED_TRACE(c.input);
    Result<JsonValue> parsed = ParseJson("t.json", c.input);
    ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
    EXPECT_EQ(WriteJson(parsed.value()), c.compact);
  }
}

struct ErrorCase {
  std::string input;
  const char* message;  // full diagnostic text
};

TEST(JsonParseTest, ErrorsNameLineColumnExpectedAndFound) {
  const ErrorCase cases[] = {
      {"", "t.json:1:1: error: expected a value, found end of input"},
      {"   ", "t.json:1:4: error: expected a value, found end of input"},
      {"[1] x", "t.json:1:5: error: expected end of input, found 'x'"},
      {"1 2", "t.json:1:3: error: expected end of input, found '2'"},
      {"tru", "t.json:1:1: error: expected a value, found 'tru'"},
      {"trueish", "t.json:1:1: error: expected a value, found 'trueish'"},
      {"NaN", "t.json:1:1: error: expected a value, found 'NaN'"},
      {"[Infinity]", "t.json:1:2: error: expected a value, found 'Infinity'"},
      {"'a'", "t.json:1:1: error: expected a value, found '''"},
      {"[1,]", "t.json:1:4: error: expected a value, found ']'"},
      {"[1 2]", "t.json:1:4: error: expected ',' or ']', found '2'"},
      {"[1", "t.json:1:3: error: expected ',' or ']', found end of input"},
      {"{", "t.json:1:2: error: expected a string key or '}', found end of input"},
      {"{a:1}", "t.json:1:2: error: expected a string key or '}', found 'a'"},
      {"{\"a\":1,}", "t.json:1:8: error: expected a string key, found '}'"},
      {"{\"a\" 1}", "t.json:1:6: error: expected ':', found '1'"},
      {"{\"a\":1 \"b\":2}", "t.json:1:8: error: expected ',' or '}', found '\"'"},
      {"{\"a\":1,\"a\":2}", "t.json:1:8: error: expected unique keys, found \"a\" again"},
      {"{\"a\":}", "t.json:1:6: error: expected a value, found '}'"},
      {"-", "t.json:1:2: error: expected a digit, found end of input"},
      {"-a", "t.json:1:2: error: expected a digit, found 'a'"},
      {"+1", "t.json:1:1: error: expected a value, found '+1'"},
      {".5", "t.json:1:1: error: expected a value, found '.5'"},
      {"01", "t.json:1:2: error: expected no digit after a leading 0, found '1'"},
      {"1.", "t.json:1:3: error: expected a digit after '.', found end of input"},
      {"1.e5", "t.json:1:3: error: expected a digit after '.', found 'e5'"},
      {"1e", "t.json:1:3: error: expected a digit in the exponent, found end of input"},
      {"1e+", "t.json:1:4: error: expected a digit in the exponent, found end of input"},
      {"[1e999]", "t.json:1:2: error: expected a finite number, found '1e999'"},
      {"[-1e400]", "t.json:1:2: error: expected a finite number, found '-1e400'"},
      {"\"abc",
       "t.json:1:5: error: expected '\"' to end the string started at 1:1, found end of input"},
      {"\"a\nb\"",
       "t.json:1:3: error: expected a control character to be escaped, found byte 0x0a"},
      {"\"a\tb\"",
       "t.json:1:3: error: expected a control character to be escaped, found byte 0x09"},
      {"\"\\x\"",
       "t.json:1:3: error: expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), found "
       "'x'"},
      {"\"\\u12\"", "t.json:1:6: error: expected 4 hex digits after \\u, found '\"'"},
      {"\"\\u12G4\"", "t.json:1:6: error: expected 4 hex digits after \\u, found 'G4'"},
      {"\"\\ud83d\"",
       "t.json:1:8: error: expected a low surrogate \\uDC00-\\uDFFF after a high one, found '\"'"},
      {"\"\\ud83d\\u0041\"",
       "t.json:1:8: error: expected a low surrogate \\uDC00-\\uDFFF after a high one, found "
       "another code unit"},
      {"\"\\ude00\"",
       "t.json:1:2: error: expected a high surrogate before a low one, found a lone low surrogate"},
      {"\"\xFF\"", "t.json:1:2: error: expected UTF-8 text, found byte 0xff"},
      {"\"\xC0\xAF\"", "t.json:1:2: error: expected UTF-8 text, found byte 0xc0"},      // overlong
      {"\"\xED\xA0\x80\"", "t.json:1:2: error: expected UTF-8 text, found byte 0xed"},  // surrogate
      {"\"\xE2\x82\"", "t.json:1:2: error: expected UTF-8 text, found byte 0xe2"},      // truncated
      {"\"\xF4\x90\x80\x80\"", "t.json:1:2: error: expected UTF-8 text, found byte 0xf4"},
      {"\xFF", "t.json:1:1: error: expected a value, found byte 0xff"},
      {std::string("[1,\0]", 5), "t.json:1:4: error: expected a value, found byte 0x00"},
      {"{\n  \"a\": [1,\n        2,,\n  ]\n}", "t.json:3:11: error: expected a value, found ','"},
      {"[\r\n1\r\n x]", "t.json:3:2: error: expected ',' or ']', found 'x'"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.input);
    Result<JsonValue> parsed = ParseJson("t.json", c.input);
    ASSERT_FALSE(parsed.ok()) << WriteJson(parsed.value());
    EXPECT_EQ(parsed.error().ToString(), c.message);
  }
}

TEST(JsonParseTest, DuplicateKeysAreFoundInLargeObjects) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  std::string ok_text = text + "\"last\":0}";
  std::string dup_text = text + "\"k57\":0}";
  Result<JsonValue> ok = ParseJson("t.json", ok_text);
  ASSERT_TRUE(ok.ok()) << ok.error().ToString();
  EXPECT_EQ(ok.value().as_object().size(), 101u);
  EXPECT_EQ(ok.value().Find("k57")->as_number(), 57);
  Result<JsonValue> dup = ParseJson("t.json", dup_text);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("\"k57\" again"), std::string::npos) << dup.error().message;
}

TEST(JsonParseTest, DepthLimit) {
  const JsonLimits limits{1 << 20, 8};
  struct DepthCase {
    int depth;
    char open, close;
    bool ok;
  };
  const DepthCase cases[] = {{8, '[', ']', true},
                             {9, '[', ']', false},
                             {1, '[', ']', true},
                             {8, '{', '}', true},
                             {9, '{', '}', false}};
  for (const DepthCase& c : cases) {
    std::string text;
    for (int i = 0; i < c.depth; ++i) text += c.open == '[' ? "[" : "{\"k\":";
    text += "0";
    for (int i = 0; i < c.depth; ++i) text += c.close;
    SCOPED_TRACE(text);
    Result<JsonValue> parsed = ParseJson("d.json", text, limits);
    EXPECT_EQ(parsed.ok(), c.ok);
    if (!c.ok) {
      const int column = c.open == '[' ? 9 : 9 * 5 - 4;  // the ninth opening bracket
      EXPECT_EQ(parsed.error().ToString(),
                "d.json:1:" + std::to_string(column) +
                    ": error: expected at most 8 nested arrays/objects, found more");
    }
  }
  // The default limit stops a hostile document long before the stack would.
  const std::string deep(100000, '[');
  Result<JsonValue> parsed = ParseJson("d.json", deep);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().column, 65);
}

TEST(JsonParseTest, SizeLimit) {
  const JsonLimits limits{10, 64};
  EXPECT_TRUE(ParseJson("s.json", "[1,2,3,45]", limits).ok());
  Result<JsonValue> parsed = ParseJson("s.json", "[1,2,3,456]", limits);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().ToString(),
            "s.json: error: expected at most 10 bytes of JSON, found 11");
}

TEST(JsonParseTest, RecordsLocationsOfValues) {
  Result<JsonValue> parsed = ParseJson("t.json", "{\n  \"a\": [1, \"x\"],\n  \"b\": true\n}");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const JsonValue& root = parsed.value();
  EXPECT_EQ(root.line(), 1);
  EXPECT_EQ(root.column(), 1);
  const JsonValue* a = root.Find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->line(), 2);
  EXPECT_EQ(a->column(), 8);
  EXPECT_EQ(a->as_array()[1].column(), 12);
  EXPECT_EQ(root.Find("b")->line(), 3);
  EXPECT_EQ(root.Find("b")->column(), 8);
}

// Every kind of value, at any depth and on any line, knows where it started: the scene, route and
// obstacle readers put that line:col on their messages.
TEST(JsonParseTest, EveryKindOfValueCarriesItsLineAndColumn) {
  const std::string text =
      "[null,\n"
      "  -1.5e3, {\"k\": [true,\n"
      "\t\"s\", false, {}]}]";
  Result<JsonValue> parsed = ParseJson("t.json", text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const JsonArray& root = parsed.value().as_array();
  ASSERT_EQ(root.size(), 3u);
  const JsonValue& object = root[2];
  const JsonArray& inner = object.Find("k")->as_array();
  ASSERT_EQ(inner.size(), 4u);
  const struct {
    const JsonValue* value;
    JsonValue::Type type;
    int line, column;
  } rows[] = {
      {&parsed.value(), JsonValue::Type::kArray, 1, 1},
      {&root[0], JsonValue::Type::kNull, 1, 2},
      {&root[1], JsonValue::Type::kNumber, 2, 3},
      {&object, JsonValue::Type::kObject, 2, 11},
      {object.Find("k"), JsonValue::Type::kArray, 2, 17},
      {&inner[0], JsonValue::Type::kBool, 2, 18},
      {&inner[1], JsonValue::Type::kString, 3, 2},  // a tab is one byte, one column
      {&inner[2], JsonValue::Type::kBool, 3, 7},
      {&inner[3], JsonValue::Type::kObject, 3, 14},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(WriteJson(*row.value));
    EXPECT_EQ(row.value->type(), row.type);
    EXPECT_EQ(row.value->line(), row.line);
    EXPECT_EQ(row.value->column(), row.column);
  }
  // After a CRLF line end the column starts again at 1 (the '\r' belongs to the line before).
  Result<JsonValue> crlf = ParseJson("t.json", "[1,\r\n 2]");
  ASSERT_TRUE(crlf.ok());
  EXPECT_EQ(crlf.value().as_array()[1].line(), 2);
  EXPECT_EQ(crlf.value().as_array()[1].column(), 2);
}

// Keys are compared after unescaping, per object: "a" and "\u0061" are the same key, while the
// same key in two different objects is fine.
TEST(JsonParseTest, DuplicateKeysAreComparedDecodedAndPerObject) {
  const struct {
    const char* text;
    const char* error;  // "" when the document is valid
  } rows[] = {
      {R"({"a":1,"\u0061":2})", "t.json:1:8: error: expected unique keys, found \"a\" again"},
      {R"({"a":{"a":1},"b":{"a":2}})", ""},
      {R"({"x":[{"a":1,"b":2,"a":3}]})",
       "t.json:1:20: error: expected unique keys, found \"a\" again"},
      {R"({"":1,"":2})", "t.json:1:7: error: expected unique keys, found \"\" again"},
      {R"({"A":1,"a":2})", ""},  // case matters
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.text);
    Result<JsonValue> parsed = ParseJson("t.json", row.text);
    if (row.error[0] == '\0') {
      EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
    } else {
      ASSERT_FALSE(parsed.ok());
      EXPECT_EQ(parsed.error().ToString(), row.error);
    }
  }
}

TEST(JsonParseTest, SizeLimitCountsEveryByteAndDefaultsToOneMebibyte) {
  EXPECT_EQ(JsonLimits{}.max_bytes, std::size_t{1} << 20);
  EXPECT_EQ(JsonLimits{}.max_depth, 64);
  // White space and a byte order mark count: the limit is on the text handed in.
  const JsonLimits limits{10, 64};
  EXPECT_TRUE(ParseJson("s.json", "[1,2,3,45]", limits).ok());
  EXPECT_FALSE(ParseJson("s.json", " [1,2,3,45]", limits).ok());
  EXPECT_FALSE(ParseJson("s.json", "\xEF\xBB\xBF[1,2,3,4]", limits).ok());
  // A default-limited document one byte over is refused before it is read.
  std::string big = "\"" + std::string((1 << 20) - 2, 'x') + "\"";
  EXPECT_TRUE(ParseJson("s.json", big).ok());
  big += ' ';
  Result<JsonValue> parsed = ParseJson("s.json", big);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().ToString(),
            "s.json: error: expected at most 1048576 bytes of JSON, found 1048577");
}

TEST(JsonValueTest, AccessorsAndTypeChecks) {
  Result<JsonValue> parsed =
      ParseJson("t.json", "{\"n\":2.5,\"s\":\"hi\",\"b\":true,\"a\":[1],\"o\":{},\"z\":null}");
  ASSERT_TRUE(parsed.ok());
  const JsonValue& root = parsed.value();
  EXPECT_TRUE(root.is_object());
  EXPECT_EQ(root.Find("n")->type(), JsonValue::Type::kNumber);
  EXPECT_EQ(root.Find("n")->as_number(), 2.5);
  EXPECT_EQ(root.Find("s")->as_string(), "hi");
  EXPECT_TRUE(root.Find("b")->as_bool());
  EXPECT_TRUE(root.Find("a")->is_array());
  EXPECT_TRUE(root.Find("o")->is_object());
  EXPECT_TRUE(root.Find("z")->is_null());
  EXPECT_EQ(root.Find("missing"), nullptr);
  // Wrong-type access gives empty values rather than crashing.
  EXPECT_EQ(root.Find("s")->as_number(), 0.0);
  EXPECT_EQ(root.Find("n")->as_string(), "");
  EXPECT_TRUE(root.Find("n")->as_array().empty());
  EXPECT_TRUE(root.Find("a")->as_object().empty());
  EXPECT_EQ(root.Find("a")->Find("x"), nullptr);
  EXPECT_STREQ(JsonTypeName(root.Find("o")->type()), "object");
  EXPECT_STREQ(JsonTypeName(JsonValue::Type::kString), "string");
}

TEST(JsonValueTest, BuildAndWrite) {
  JsonValue root = JsonValue::MakeObject();
  root.Set("version", 1);
  root.Set("name", "a\"b");
  JsonValue& list = root.Set("list", JsonValue::MakeArray());
  list.Append(1.5);
  list.Append(nullptr);
  list.Append(false);
  root.Set("version", 2);  // replaces in place, keeps order
  EXPECT_EQ(WriteJson(root), "{\"version\":2,\"name\":\"a\\\"b\",\"list\":[1.5,null,false]}");
  EXPECT_EQ(WriteJson(root, {2}),
            "{\n  \"version\": 2,\n  \"name\": \"a\\\"b\",\n  \"list\": [\n    1.5,\n    null,\n"
            "    false\n  ]\n}");
  EXPECT_EQ(WriteJson(JsonValue::MakeArray(), {2}), "[]");
  // What the writer writes, the parser reads back equal.
  Result<JsonValue> back = ParseJson("t.json", WriteJson(root, {2}));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), root);
}

TEST(JsonNumberTest, ShortestFormsThatRoundTrip) {
  struct NumberCase {
    double value;
    const char* text;
  };
  const NumberCase cases[] = {
      {0.0, "0"},
      {-0.0, "0"},
      {1.0, "1"},
      {-2.0, "-2"},
      {0.1, "0.1"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1.0 / 3.0, "0.3333333333333333"},
      {100.0, "100"},
      {123456789012345.0, "123456789012345"},
      {1e21, "1e21"},
      {1.5e-9, "1.5e-9"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e308"},
      {std::numeric_limits<double>::denorm_min(), "5e-324"},
      {3 * std::numeric_limits<double>::denorm_min(), "1.5e-323"},
      {std::numeric_limits<double>::infinity(), "null"},
      {std::nan(""), "null"},
  };
  for (const NumberCase& c : cases) EXPECT_EQ(FormatJsonNumber(c.value), c.text) << c.text;
}

TEST(JsonNumberTest, RandomDoublesRoundTripExactly) {
  std::mt19937_64 random(12345);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random();
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    if (!std::isfinite(value)) continue;
    if (i % 2 == 0) value = std::ldexp(static_cast<double>(bits >> 11), -40);  // ordinary sizes
    const std::string text = FormatJsonNumber(value);
    Result<JsonValue> parsed = ParseJson("n.json", text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error().ToString();
    ASSERT_EQ(parsed.value().as_number(), value) << text;
  }
}

// The text keeps the layout the scene files were written with (printf's %g at 15 digits or more),
// so committed scenes and share links do not change with the switch to to_chars.
TEST(JsonNumberTest, LayoutIsPlainFromATenThousandthTo15DigitsBeforeThePoint) {
  const struct {
    double value;
    const char* text;
  } rows[] = {
      {1e14, "100000000000000"},
      {999999999999999.0, "999999999999999"},
      {1e15, "1e15"},
      {1234567890123456.0, "1234567890123456"},  // 16 digits: plain while the digits reach
      {12345678901234568.0, "12345678901234568"},
      {1e16, "1e16"},
      {1000000.0, "1000000"},
      {-250.5, "-250.5"},
      {0.0001, "0.0001"},
      {0.00012, "0.00012"},
      {0.00001, "1e-5"},
      {-0.000015, "-1.5e-5"},
      {1e-7, "1e-7"},
      {1e100, "1e100"},
      {2.5e-300, "2.5e-300"},
      {123.456, "123.456"},
      {0.1 * 3, "0.30000000000000004"},
      {std::ldexp(1.0, -1074), "5e-324"},
      {std::ldexp(1.0, -1022), "2.2250738585072014e-308"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(FormatJsonNumber(row.value), row.text) << row.text;
    EXPECT_EQ(FormatJsonNumberByDigits(row.value), row.text) << row.text;
  }
  EXPECT_EQ(FormatJsonNumberByDigits(-0.0), "0");
  EXPECT_EQ(FormatJsonNumberByDigits(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(FormatJsonNumberByDigits(std::nan("")), "null");
}

// The wasm build (no floating-point to_chars in its libc++) writes Dragonbox's digits; both builds
// must write the same text, or a share link made in the browser differs from the CLI's.
TEST(JsonNumberTest, DigitsWriterWritesWhatToCharsWrites) {
  std::vector<double> values;
  // Powers of two, where the rounding interval is lopsided and the nearest decimal can miss.
  for (int exponent = -1074; exponent <= 1023; ++exponent) {
    const double power = std::ldexp(1.0, exponent);
    values.push_back(power);
    values.push_back(std::nextafter(power, 0.0));
    values.push_back(std::nextafter(power, std::numeric_limits<double>::infinity()));
  }
  // Decimals people write, and their neighbours.
  for (int exponent = -320; exponent <= 308; ++exponent) {
    for (const double mantissa : {1.0, 1.5, 2.5, 9.99, 123.0}) {
      const double value = mantissa * std::pow(10.0, exponent);
      if (!std::isfinite(value) || value == 0) continue;
      values.push_back(value);
      values.push_back(std::nextafter(value, 0.0));
      values.push_back(-std::nextafter(value, std::numeric_limits<double>::infinity()));
    }
  }
  std::mt19937_64 random(2026);
  for (int i = 0; i < 60000; ++i) {
    const std::uint64_t bits = random();
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    if (i % 3 == 0) value = std::ldexp(static_cast<double>(bits >> 11), -50);  // scene sizes
    if (i % 3 == 1) value = std::round(value * 1e4) / 1e4;  // coordinates with 4 decimals
    if (std::isfinite(value)) values.push_back(value);
  }
  int differences = 0;
  for (const double value : values) {
    const std::string by_digits = FormatJsonNumberByDigits(value);
    if (by_digits != FormatJsonNumber(value) && ++differences <= 10) {
      ADD_FAILURE() << by_digits << " != " << FormatJsonNumber(value);
    }
    ASSERT_EQ(std::strtod(by_digits.c_str(), nullptr), value) << by_digits;
  }
  EXPECT_EQ(differences, 0) << "of " << values.size();
}

TEST(JsonStringTest, OneEscapingForTheTree) {
  const struct {
    std::string text;
    const char* quoted;
  } rows[] = {
      {"", R"("")"},
      {"plain", R"("plain")"},
      {"say \"hi\"", R"("say \"hi\"")"},
      {"back\\slash", R"("back\\slash")"},
      {"a/b", R"("a/b")"},  // '/' may stay as it is
      {"\n\r\t\b\f", R"("\n\r\t\b\f")"},
      {std::string("\x01\x1f\0", 3), R"("\u0001\u001f\u0000")"},
      {"\x7f", "\"\x7f\""},  // DEL is not a control character to JSON
      {"\xc3\xa9\xf0\x9f\x98\x80", "\"\xc3\xa9\xf0\x9f\x98\x80\""},  // UTF-8 passes through
  };
  for (const auto& row : rows) {
    EXPECT_EQ(QuoteJson(row.text), row.quoted);
    std::string appended = "x";
    AppendJsonString(row.text, appended);
    EXPECT_EQ(appended, "x" + std::string(row.quoted));
    Result<JsonValue> back = ParseJson("q.json", row.quoted);
    ASSERT_TRUE(back.ok()) << back.error().ToString();
    EXPECT_EQ(back.value().as_string(), row.text);
  }
}

TEST(JsonDescribeTest, EachKindReadsShortly) {
  JsonValue object = JsonValue::MakeObject();
  object.Set("k", 1);
  const struct {
    JsonValue value;
    const char* text;
  } rows[] = {
      // Nested arrays are built with JsonValue(...) round each one: a braced list holding a single
      // JsonArray copies it under clang (CWG 1467) and nests it under GCC.
      {JsonValue(), "null"},
      {JsonValue(true), "true"},
      {JsonValue(false), "false"},
      {JsonValue(12), "12"},
      {JsonValue(-0.25), "-0.25"},
      {JsonValue(1.0 / 3.0), "0.3333333333333333"},
      {JsonValue(2147483648.0), "2147483648"},
      {JsonValue(1e300), "1e+300"},
      {JsonValue(-1.5e-7), "-1.5e-7"},
      {JsonValue(std::numeric_limits<double>::infinity()), "inf"},
      {JsonValue(-std::numeric_limits<double>::infinity()), "-inf"},
      {JsonValue(std::nan("")), "nan"},
      {JsonValue("name"), R"("name")"},
      {JsonValue("say \"hi\"\n"), R"("say \"hi\"\n")"},
      {JsonValue(JsonArray{}), "an empty array"},
      {JsonValue(JsonArray{5, 5}), "[5, 5]"},
      {JsonValue(JsonArray{1, "x", nullptr, true}), R"([1, "x", null, true])"},
      {JsonValue(JsonArray{1, 2, 3, 4, 5}), "an array of 5"},
      {JsonValue(JsonArray{JsonValue(JsonArray{1})}), "[[1]]"},
      {JsonValue(JsonArray{JsonArray{0, 0}, JsonArray{1, 0}}), "[[0, 0], [1, 0]]"},
      {JsonValue(JsonArray{JsonValue(JsonArray{JsonValue(JsonArray{1})})}), "an array of 1"},  // 3
      {JsonValue(JsonArray{JsonValue(JsonArray{1, 2, 3, 4, 5})}), "an array of 1"},
      {JsonValue(JsonArray{std::string(41, 'x')}), "an array of 1"},  // no cut inside
      {JsonValue(JsonArray{JsonValue(JsonArray{})}), "[[]]"},
      {JsonValue(JsonArray{object}), "an array of 1"},
      {JsonValue(JsonArray{0.1 + 0.2, 0.1 + 0.2, 1.0 / 3.0}), "an array of 3"},  // over 40
      {object, "an object"},
      {JsonValue::MakeObject(), "an object"},
  };
  for (const auto& row : rows) EXPECT_EQ(DescribeJson(row.value), row.text) << row.text;
  EXPECT_EQ(DescribeJson(nullptr), "nothing");
}

TEST(JsonDescribeTest, LongStringsAreCutAtWholeCharacters) {
  const std::string forty(40, 'a');
  EXPECT_EQ(DescribeJson(JsonValue(forty)), "\"" + forty + "\"");
  EXPECT_EQ(DescribeJson(JsonValue(forty + "b")), "\"" + forty + "\"...");
  EXPECT_EQ(DescribeJson(JsonValue(std::string(1 << 20, 'c'))),
            "\"" + std::string(40, 'c') + "\"...");
  // Escapes come after the cut: 41 quotes show as 40 escaped quotes.
  std::string escaped;
  for (int i = 0; i < 40; ++i) escaped += "\\\"";
  EXPECT_EQ(DescribeJson(JsonValue(std::string(41, '"'))), "\"" + escaped + "\"...");
  // Characters, not bytes: 41 two-byte characters cut to 40 whole ones, valid UTF-8.
  std::string accents;
  for (int i = 0; i < 41; ++i) accents += "\xc3\xa9";
  const std::string shown = DescribeJson(JsonValue(accents));
  EXPECT_EQ(shown, "\"" + accents.substr(0, 80) + "\"...");
  Result<JsonValue> back = ParseJson("d.json", shown.substr(0, shown.size() - 3));
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(QuoteJsonExcerpt("abcdef", 3), "\"abc\"...");
  EXPECT_EQ(QuoteJsonExcerpt("abc", 3), "\"abc\"");
  EXPECT_EQ(QuoteJsonExcerpt("", 0), "\"\"");
}

TEST(JsonParseTest, EveryPrefixOfAValidDocumentFailsCleanly) {
  const std::string text =
      "{\"a\":[1,-2.5e3,true,false,null,\"x\\u00e9\\ud83d\\ude00\"],\"b\":{\"c\":[]}}";
  ASSERT_TRUE(ParseJson("p.json", text).ok());
  for (std::size_t length = 0; length < text.size(); ++length) {
    Result<JsonValue> parsed = ParseJson("p.json", text.substr(0, length));
    // "{"a":[1,-2" style prefixes can only be errors, never crashes or success.
    EXPECT_FALSE(parsed.ok()) << text.substr(0, length);
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.error().message.rfind("expected ", 0), 0u) << parsed.error().message;
    }
  }
}

}  // namespace
}  // namespace md5stage
