// CommandArgs, the typed reader of one command's fields: every reader, required and optional, with
// its types, ranges and error messages, Finish() and its unread fields, the first error winning.
#include "viewer/command_args.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace md5stage::viewer {
namespace {

// {"cmd": "t", ...members}: the members as JSON text without braces.
JsonValue Command(const std::string& members) {
  const std::string text = "{\"cmd\":\"t\"" + (members.empty() ? "" : "," + members) + "}";
  auto parsed = ParseJson("test", text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? parsed.value() : JsonValue::MakeObject();
}

// A command whose field `key` holds a value JSON text cannot (NaN, infinities).
JsonValue CommandWith(const std::string& key, JsonValue value) {
  JsonValue command = Command("");
  command.Set(key, std::move(value));
  return command;
}

std::string Show(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}
std::string Show(int value) { return std::to_string(value); }
std::string Show(bool value) { return value ? "true" : "false"; }
std::string Show(const std::string& value) { return "'" + value + "'"; }
std::string Show(const glm::vec3& v) {
  return "[" + Show(static_cast<double>(v.x)) + ", " + Show(static_cast<double>(v.y)) + ", " +
         Show(static_cast<double>(v.z)) + "]";
}
std::string Show(const JsonValue* value) { return value ? WriteJson(*value) : "none"; }
template <typename T>
std::string Show(const std::optional<T>& value) {
  return value ? Show(*value) : "none";
}

// One read: the command, what the handler reads, what it gets back (as text) and the error after
// Finish() ("" when the command is accepted).
struct Row {
  const char* what;
  JsonValue command;
  std::function<std::string(CommandArgs&)> read;
  std::string value;
  std::string error;
};

void RunRows(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(row.what) + ": " + WriteJson(row.command));
    CommandArgs args("t", row.command);
    const std::string value = row.read(args);
    const bool finished = args.Finish();
    EXPECT_EQ(value, row.value);
    EXPECT_EQ(args.error(), row.error);
    EXPECT_EQ(finished, row.error.empty());
    EXPECT_EQ(args.ok(), row.error.empty());
  }
}

const std::string kMissing = "nothing (the field is missing)";
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---- numbers ------------------------------------------------------------------------------------

TEST(CommandArgsTest, Number) {
  const auto number = [](CommandArgs& a) { return Show(a.Number("x", -0.5, 2.5)); };
  const std::string expected = "t.x: expected a number in [-0.5, 2.5], found ";
  RunRows({
      {"inside", Command(R"("x":1.25)"), number, "1.25", ""},
      {"the low end is inside", Command(R"("x":-0.5)"), number, "-0.5", ""},
      {"the high end is inside", Command(R"("x":2.5)"), number, "2.5", ""},
      {"an integer is a number", Command(R"("x":2)"), number, "2", ""},
      {"exponent form", Command(R"("x":25e-1)"), number, "2.5", ""},
      {"negative zero", Command(R"("x":-0)"), number, "-0", ""},
      {"missing", Command(""), number, "-0.5", expected + kMissing},
      {"just above", Command(R"("x":2.5000001)"), number, "-0.5", expected + "2.5000001"},
      {"just below", Command(R"("x":-0.51)"), number, "-0.5", expected + "-0.51"},
      {"huge", Command(R"("x":1.7e308)"), number, "-0.5", expected + "1.7e+308"},
      {"huge negative", Command(R"("x":-1.7e308)"), number, "-0.5", expected + "-1.7e+308"},
      {"tiny is inside", Command(R"("x":4.9e-324)"), number, "4.9406564584124654e-324", ""},
      {"a string of a number", Command(R"("x":"1")"), number, "-0.5", expected + "\"1\""},
      {"a bool", Command(R"("x":true)"), number, "-0.5", expected + "true"},
      {"null", Command(R"("x":null)"), number, "-0.5", expected + "null"},
      {"an array", Command(R"("x":[1])"), number, "-0.5", expected + "[1]"},
      {"an object", Command(R"("x":{"v":1})"), number, "-0.5", expected + "an object"},
      // JSON cannot hold these, but a command built in code can.
      {"NaN", CommandWith("x", kNaN), number, "-0.5", expected + "nan"},
      {"infinity", CommandWith("x", kInf), number, "-0.5", expected + "inf"},
      {"minus infinity", CommandWith("x", -kInf), number, "-0.5", expected + "-inf"},
  });
}

TEST(CommandArgsTest, NumberOverTheWholeDoubleRange) {
  const auto number = [](CommandArgs& a) { return Show(a.Number("x", -1.7e308, 1.7e308)); };
  RunRows({
      {"huge inside", Command(R"("x":1.6e308)"), number, "1.6e+308", ""},
      {"infinity is never a number", CommandWith("x", kInf), number, "-1.6999999999999999e+308",
       "t.x: expected a number in [-1.7e+308, 1.7e+308], found inf"},
  });
}

TEST(CommandArgsTest, OptionalNumber) {
  const auto number = [](CommandArgs& a) { return Show(a.OptionalNumber("x", 0.0, 0.25)); };
  const std::string expected = "t.x: expected a number in [0, 0.25], found ";
  RunRows({
      {"absent", Command(""), number, "none", ""},
      {"present", Command(R"("x":0.125)"), number, "0.125", ""},
      {"zero", Command(R"("x":0)"), number, "0", ""},
      {"out of range", Command(R"("x":0.5)"), number, "0", expected + "0.5"},
      {"negative", Command(R"("x":-0.001)"), number, "0", expected + "-0.001"},
      // null is a value, not an absent field (JavaScript's undefined is what leaves a key out).
      {"null is not absent", Command(R"("x":null)"), number, "0", expected + "null"},
      {"a string", Command(R"("x":"0.1")"), number, "0", expected + "\"0.1\""},
      {"NaN", CommandWith("x", kNaN), number, "0", expected + "nan"},
  });
}

TEST(CommandArgsTest, JsonTextCannotCarryNonFiniteNumbers) {
  // What the page sends is parsed first: 1e400 never reaches a reader as infinity.
  EXPECT_FALSE(ParseJson("test", R"({"cmd":"t","x":1e400})").ok());
  EXPECT_FALSE(ParseJson("test", R"({"cmd":"t","x":NaN})").ok());
  EXPECT_FALSE(ParseJson("test", R"({"cmd":"t","x":Infinity})").ok());
}

// ---- integers -----------------------------------------------------------------------------------

TEST(CommandArgsTest, Integer) {
  const auto integer = [](CommandArgs& a) { return Show(a.Integer("n", -3, 7)); };
  const std::string expected = "t.n: expected an integer in [-3, 7], found ";
  RunRows({
      {"inside", Command(R"("n":2)"), integer, "2", ""},
      {"low end", Command(R"("n":-3)"), integer, "-3", ""},
      {"high end", Command(R"("n":7)"), integer, "7", ""},
      {"written with a fraction part", Command(R"("n":2.0)"), integer, "2", ""},
      {"written with an exponent", Command(R"("n":5e0)"), integer, "5", ""},
      {"negative zero", Command(R"("n":-0)"), integer, "0", ""},
      {"missing", Command(""), integer, "-3", expected + kMissing},
      {"not whole", Command(R"("n":2.5)"), integer, "-3", expected + "2.5"},
      {"nearly whole", Command(R"("n":2.0000001)"), integer, "-3", expected + "2.0000001"},
      {"above", Command(R"("n":8)"), integer, "-3", expected + "8"},
      {"below", Command(R"("n":-4)"), integer, "-3", expected + "-4"},
      {"huge (no overflow in the cast)", Command(R"("n":1e300)"), integer, "-3",
       expected + "1e+300"},
      {"huge negative", Command(R"("n":-1e300)"), integer, "-3", expected + "-1e+300"},
      {"a string", Command(R"("n":"2")"), integer, "-3", expected + "\"2\""},
      {"a bool", Command(R"("n":false)"), integer, "-3", expected + "false"},
      {"null", Command(R"("n":null)"), integer, "-3", expected + "null"},
      {"an array", Command(R"("n":[2])"), integer, "-3", expected + "[2]"},
      {"NaN", CommandWith("n", kNaN), integer, "-3", expected + "nan"},
      {"infinity", CommandWith("n", kInf), integer, "-3", expected + "inf"},
  });
}

TEST(CommandArgsTest, IntegerAtTheLimitsOfInt) {
  const auto integer = [](CommandArgs& a) { return Show(a.Integer("n", INT_MIN, INT_MAX)); };
  const std::string expected = "t.n: expected an integer in [-2147483648, 2147483647], found ";
  RunRows({
      {"INT_MAX", Command(R"("n":2147483647)"), integer, "2147483647", ""},
      {"INT_MIN", Command(R"("n":-2147483648)"), integer, "-2147483648", ""},
      {"INT_MAX + 1", Command(R"("n":2147483648)"), integer, "-2147483648",
       expected + "2147483648"},
      {"INT_MIN - 1", Command(R"("n":-2147483649)"), integer, "-2147483648",
       expected + "-2147483649"},
  });
}

TEST(CommandArgsTest, OptionalInteger) {
  const auto integer = [](CommandArgs& a) { return Show(a.OptionalInteger("n", 1, 999)); };
  const std::string expected = "t.n: expected an integer in [1, 999], found ";
  RunRows({
      {"absent", Command(""), integer, "none", ""},
      {"present", Command(R"("n":999)"), integer, "999", ""},
      {"zero is below", Command(R"("n":0)"), integer, "1", expected + "0"},
      {"not whole", Command(R"("n":1.5)"), integer, "1", expected + "1.5"},
      {"null is not absent", Command(R"("n":null)"), integer, "1", expected + "null"},
  });
}

// A range with nothing in it (lo > hi): e.g. a route index when the scene has no routes.
TEST(CommandArgsTest, IntegerWithAnEmptyRange) {
  const auto integer = [](CommandArgs& a) { return Show(a.Integer("n", 0, -1)); };
  const auto optional = [](CommandArgs& a) { return Show(a.OptionalInteger("n", 0, -1)); };
  const std::string expected = "t.n: expected no value (there is none to choose), found ";
  RunRows({
      {"zero", Command(R"("n":0)"), integer, "0", expected + "0"},
      {"minus one", Command(R"("n":-1)"), integer, "0", expected + "-1"},
      {"optional and absent", Command(""), optional, "none", ""},
      {"optional and present", Command(R"("n":0)"), optional, "0", expected + "0"},
  });
}

// Missing from an empty range should say the same as present in it, not print the impossible
// range "[0, -1]".
TEST(CommandArgsTest, IntegerMissingFromAnEmptyRangeSaysThereIsNoneToChoose) {
  const JsonValue command = Command("");
  CommandArgs args("t", command);
  args.Integer("n", 0, -1);
  EXPECT_EQ(args.error(), "t.n: expected no value (there is none to choose), found " + kMissing);
}

// ---- strings ------------------------------------------------------------------------------------

TEST(CommandArgsTest, String) {
  const auto string = [](CommandArgs& a) { return Show(a.String("s", 8)); };
  const std::string expected = "t.s: expected a string, found ";
  const std::string too_long = "t.s: expected a string of at most 8 bytes, found ";
  RunRows({
      {"short", Command(R"("s":"abc")"), string, "'abc'", ""},
      {"empty", Command(R"("s":"")"), string, "''", ""},
      {"exactly the limit", Command(R"("s":"12345678")"), string, "'12345678'", ""},
      {"one over the limit", Command(R"("s":"123456789")"), string, "''", too_long + "9 bytes"},
      // The limit counts bytes: five two-byte characters are ten.
      {"multi-byte over the limit", Command(R"("s":"ééééé")"), string, "''", too_long + "10 bytes"},
      {"four multi-byte characters fit", Command(R"("s":"éééé")"), string, "'éééé'", ""},
      {"escapes are decoded first", Command(R"("s":"\u0041\n")"), string, "'A\n'", ""},
      {"missing", Command(""), string, "''", expected + kMissing},
      {"a number", Command(R"("s":5)"), string, "''", expected + "5"},
      {"a bool", Command(R"("s":true)"), string, "''", expected + "true"},
      {"null", Command(R"("s":null)"), string, "''", expected + "null"},
      {"an array of strings", Command(R"("s":["a","b"])"), string, "''",
       expected + R"(["a", "b"])"},
      {"an object", Command(R"("s":{})"), string, "''", expected + "an object"},
  });
}

TEST(CommandArgsTest, StringDefaultLimit) {
  const auto string = [](CommandArgs& a) { return Show(static_cast<int>(a.String("s").size())); };
  const auto optional = [](CommandArgs& a) { return Show(a.OptionalString("s").has_value()); };
  RunRows({
      {"4096 bytes", Command("\"s\":\"" + std::string(4096, 'a') + "\""), string, "4096", ""},
      {"4097 bytes", Command("\"s\":\"" + std::string(4097, 'a') + "\""), string, "0",
       "t.s: expected a string of at most 4096 bytes, found 4097 bytes"},
      {"optional, 4097 bytes", Command("\"s\":\"" + std::string(4097, 'a') + "\""), optional,
       "true", "t.s: expected a string of at most 4096 bytes, found 4097 bytes"},
  });
}

TEST(CommandArgsTest, OptionalString) {
  const auto string = [](CommandArgs& a) { return Show(a.OptionalString("s", 4)); };
  RunRows({
      {"absent", Command(""), string, "none", ""},
      {"present", Command(R"("s":"abcd")"), string, "'abcd'", ""},
      {"empty is present", Command(R"("s":"")"), string, "''", ""},
      {"too long", Command(R"("s":"abcde")"), string, "''",
       "t.s: expected a string of at most 4 bytes, found 5 bytes"},
      {"null is not absent", Command(R"("s":null)"), string, "''",
       "t.s: expected a string, found null"},
  });
}

// ---- bools --------------------------------------------------------------------------------------

TEST(CommandArgsTest, Bool) {
  const auto boolean = [](CommandArgs& a) { return Show(a.Bool("b")); };
  const auto optional = [](CommandArgs& a) { return Show(a.OptionalBool("b")); };
  const std::string expected = "t.b: expected true or false, found ";
  RunRows({
      {"true", Command(R"("b":true)"), boolean, "true", ""},
      {"false", Command(R"("b":false)"), boolean, "false", ""},
      {"missing", Command(""), boolean, "false", expected + kMissing},
      {"one is not true", Command(R"("b":1)"), boolean, "false", expected + "1"},
      {"zero is not false", Command(R"("b":0)"), boolean, "false", expected + "0"},
      {"a string", Command(R"("b":"true")"), boolean, "false", expected + "\"true\""},
      {"null", Command(R"("b":null)"), boolean, "false", expected + "null"},
      {"optional, absent", Command(""), optional, "none", ""},
      {"optional, false", Command(R"("b":false)"), optional, "false", ""},
      {"optional, null", Command(R"("b":null)"), optional, "false", expected + "null"},
  });
}

// ---- choices ------------------------------------------------------------------------------------

TEST(CommandArgsTest, Choice) {
  const auto mode = [](CommandArgs& a) {
    return Show(a.Choice("mode", {"loop", "once", "pingpong"}));
  };
  const auto optional = [](CommandArgs& a) {
    return Show(a.OptionalChoice("mode", {"loop", "once", "pingpong"}));
  };
  const std::string expected = "t.mode: expected one of loop, once, pingpong, found ";
  RunRows({
      {"first", Command(R"("mode":"loop")"), mode, "0", ""},
      {"second", Command(R"("mode":"once")"), mode, "1", ""},
      {"third", Command(R"("mode":"pingpong")"), mode, "2", ""},
      {"missing", Command(""), mode, "0", expected + kMissing},
      {"unknown", Command(R"("mode":"bogus")"), mode, "0", expected + "\"bogus\""},
      {"names are case-sensitive", Command(R"("mode":"Loop")"), mode, "0", expected + "\"Loop\""},
      {"upper case", Command(R"("mode":"ONCE")"), mode, "0", expected + "\"ONCE\""},
      {"no trimming", Command(R"("mode":" once")"), mode, "0", expected + "\" once\""},
      {"a prefix is not a name", Command(R"("mode":"ping")"), mode, "0", expected + "\"ping\""},
      {"empty", Command(R"("mode":"")"), mode, "0", expected + "\"\""},
      {"an index is not a name", Command(R"("mode":1)"), mode, "0", expected + "1"},
      {"null", Command(R"("mode":null)"), mode, "0", expected + "null"},
      {"an array of the name", Command(R"("mode":["once"])"), mode, "0", expected + R"(["once"])"},
      {"optional, absent", Command(""), optional, "none", ""},
      {"optional, present", Command(R"("mode":"pingpong")"), optional, "2", ""},
      {"optional, wrong case", Command(R"("mode":"PingPong")"), optional, "0",
       expected + "\"PingPong\""},
  });
}

// The example of the issue, word for word.
TEST(CommandArgsTest, TheIssuesExampleMessage) {
  const JsonValue command = Command(R"("mode":"bogus")");
  CommandArgs args("setMode", command);
  args.Choice("mode", {"loop", "once", "pingpong"});
  EXPECT_FALSE(args.Finish());
  EXPECT_EQ(args.error(), R"(setMode.mode: expected one of loop, once, pingpong, found "bogus")");
}

// ---- vectors ------------------------------------------------------------------------------------

TEST(CommandArgsTest, Vec3) {
  const auto vec = [](CommandArgs& a) { return Show(a.Vec3("v", 2.5)); };
  const std::string expected = "t.v: expected [x, y, z] of numbers in [-2.5, 2.5], found ";
  const std::string zero = "[0, 0, 0]";
  RunRows({
      {"inside", Command(R"("v":[1,-2,0.5])"), vec, "[1, -2, 0.5]", ""},
      {"the limits are inside", Command(R"("v":[-2.5,2.5,0])"), vec, "[-2.5, 2.5, 0]", ""},
      {"read as floats", Command(R"("v":[0.1,0,0])"), vec, "[0.10000000149011612, 0, 0]", ""},
      {"missing", Command(""), vec, zero, "t.v: expected [x, y, z], found " + kMissing},
      {"two elements", Command(R"("v":[1,2])"), vec, zero, expected + "[1, 2]"},
      {"four elements", Command(R"("v":[1,2,3,4])"), vec, zero, expected + "[1, 2, 3, 4]"},
      {"five elements", Command(R"("v":[1,2,3,4,5])"), vec, zero, expected + "an array of 5"},
      {"empty", Command(R"("v":[])"), vec, zero, expected + "an empty array"},
      {"a string element", Command(R"("v":[1,"2",0])"), vec, zero, expected + "[1] = \"2\""},
      {"a null element", Command(R"("v":[null,0,0])"), vec, zero, expected + "[0] = null"},
      {"a bool element", Command(R"("v":[0,0,true])"), vec, zero, expected + "[2] = true"},
      {"a nested array", Command(R"("v":[[1],2,0])"), vec, zero, expected + "[0] = [1]"},
      {"an element out of range", Command(R"("v":[0,0,2.75])"), vec, zero, expected + "[2] = 2.75"},
      {"a negative element out of range", Command(R"("v":[-2.75,0,0])"), vec, zero,
       expected + "[0] = -2.75"},
      {"a huge element", Command(R"("v":[0,1e300,0])"), vec, zero, expected + "[1] = 1e+300"},
      {"the first bad element is named", Command(R"("v":[0,"a",9])"), vec, zero,
       expected + "[1] = \"a\""},
      {"a number", Command(R"("v":1)"), vec, zero, expected + "1"},
      {"a string", Command(R"("v":"1,2,0")"), vec, zero, expected + "\"1,2,0\""},
      {"an object", Command(R"("v":{"x":1,"y":2,"z":0})"), vec, zero, expected + "an object"},
      {"null", Command(R"("v":null)"), vec, zero, expected + "null"},
      {"a NaN element", CommandWith("v", JsonValue(JsonArray{0.0, kNaN, 0.0})), vec, zero,
       expected + "[1] = nan"},
  });
}

TEST(CommandArgsTest, OptionalVec3) {
  const auto vec = [](CommandArgs& a) { return Show(a.OptionalVec3("v", 1e6)); };
  RunRows({
      {"absent", Command(""), vec, "none", ""},
      {"present", Command(R"("v":[1,2,3])"), vec, "[1, 2, 3]", ""},
      {"the limit", Command(R"("v":[1000000,-1000000,0])"), vec, "[1000000, -1000000, 0]", ""},
      {"beyond the limit", Command(R"("v":[1000001,0,0])"), vec, "[0, 0, 0]",
       "t.v: expected [x, y, z] of numbers in [-1000000, 1000000], found [0] = 1000001"},
      {"null is not absent", Command(R"("v":null)"), vec, "[0, 0, 0]",
       "t.v: expected [x, y, z] of numbers in [-1000000, 1000000], found null"},
  });
}

// ---- any value ----------------------------------------------------------------------------------

TEST(CommandArgsTest, Value) {
  const auto value = [](CommandArgs& a) { return WriteJson(a.Value("v")); };
  const auto optional = [](CommandArgs& a) { return Show(a.OptionalValue("v")); };
  RunRows({
      {"an object", Command(R"("v":{"a":[1,2]})"), value, R"({"a":[1,2]})", ""},
      {"a number", Command(R"("v":3)"), value, "3", ""},
      {"null is a value", Command(R"("v":null)"), value, "null", ""},
      {"missing", Command(""), value, "null", "t.v: expected a value, found " + kMissing},
      {"optional, absent", Command(""), optional, "none", ""},
      {"optional, null", Command(R"("v":null)"), optional, "null", ""},
      {"optional, a string", Command(R"("v":"x")"), optional, "\"x\"", ""},
  });
}

// ---- Finish: unread fields ----------------------------------------------------------------------

TEST(CommandArgsTest, FinishReportsAnUnreadField) {
  const auto reads_x = [](CommandArgs& a) { return Show(a.OptionalNumber("x", 0, 1)); };
  const auto reads_nothing = [](CommandArgs&) { return std::string("-"); };
  RunRows({
      {"nothing but cmd", Command(""), reads_nothing, "-", ""},
      {"cmd counts as read", Command(""), reads_x, "none", ""},
      {"one unread field", Command(R"("y":1)"), reads_x, "none",
       "t.y: expected no such field (t does not take it), found 1"},
      {"the read field and an unread one", Command(R"("x":0.5,"bogus":"z")"), reads_x, "0.5",
       R"(t.bogus: expected no such field (t does not take it), found "z")"},
      // The first unread field in the command's own order.
      {"two unread fields", Command(R"("b":true,"a":null)"), reads_x, "none",
       "t.b: expected no such field (t does not take it), found true"},
      {"an unread object", Command(R"("extra":{"k":1})"), reads_nothing, "-",
       "t.extra: expected no such field (t does not take it), found an object"},
      {"field names are case-sensitive", Command(R"("X":0.5)"), reads_x, "none",
       "t.X: expected no such field (t does not take it), found 0.5"},
      // A long unread value is cut in the message like any other.
      {"an unread long string", Command("\"note\":\"" + std::string(100, 'n') + "\""),
       reads_nothing, "-",
       "t.note: expected no such field (t does not take it), found \"" + std::string(40, 'n') +
           "\"..."},
  });
}

TEST(CommandArgsTest, AFieldReadAndAbsentStillCountsAsRead) {
  const JsonValue command = Command(R"("x":1)");
  CommandArgs args("t", command);
  EXPECT_FALSE(args.OptionalBool("y").has_value());
  EXPECT_EQ(args.OptionalNumber("x", 0, 2), 1.0);
  EXPECT_TRUE(args.Finish());
  EXPECT_TRUE(args.ok());
}

TEST(CommandArgsTest, ReadingAFieldTwiceIsHarmless) {
  const JsonValue command = Command(R"("x":1)");
  CommandArgs args("t", command);
  EXPECT_EQ(args.Number("x", 0, 2), 1.0);
  EXPECT_EQ(args.Integer("x", 0, 2), 1);
  EXPECT_TRUE(args.Finish());
}

TEST(CommandArgsTest, FinishTwiceGivesTheSameAnswer) {
  const JsonValue command = Command(R"("extra":1)");
  CommandArgs args("t", command);
  EXPECT_FALSE(args.Finish());
  const std::string first = args.error();
  EXPECT_FALSE(args.Finish());
  EXPECT_EQ(args.error(), first);
}

// ---- the first error wins -----------------------------------------------------------------------

TEST(CommandArgsTest, TheFirstErrorWins) {
  const auto two_reads = [](CommandArgs& a) {
    const double x = a.Number("x", 0, 1);
    const bool b = a.Bool("b");
    return Show(x) + " " + Show(b);
  };
  RunRows({
      {"both missing", Command(""), two_reads, "0 false",
       "t.x: expected a number in [0, 1], found " + kMissing},
      {"the first wrong", Command(R"("x":5,"b":3)"), two_reads, "0 false",
       "t.x: expected a number in [0, 1], found 5"},
      {"the second wrong", Command(R"("x":0.5,"b":3)"), two_reads, "0.5 false",
       "t.b: expected true or false, found 3"},
      // A wrong field comes before an unread one, wherever they stand in the command.
      {"wrong beats unread", Command(R"("bogus":1,"x":0.5,"b":3)"), two_reads, "0.5 false",
       "t.b: expected true or false, found 3"},
      {"all fine but one unread", Command(R"("x":0.5,"b":true,"bogus":1)"), two_reads, "0.5 true",
       "t.bogus: expected no such field (t does not take it), found 1"},
  });
}

TEST(CommandArgsTest, FailFromTheHandler) {
  {
    const JsonValue command = Command(R"("joint":"nose")");
    CommandArgs args("goTo", command);
    args.String("joint");
    args.Fail("joint", "a joint of 'walker'", DescribeJson(JsonValue("nose")));
    EXPECT_FALSE(args.ok());
    EXPECT_FALSE(args.Finish());
    EXPECT_EQ(args.error(), R"(goTo.joint: expected a joint of 'walker', found "nose")");
  }
  {
    // A reader's error before it wins over the handler's.
    const JsonValue command = Command(R"("x":"a")");
    CommandArgs args("t", command);
    args.Number("x", 0, 1);
    args.Fail("y", "something", "else");
    EXPECT_EQ(args.error(), R"(t.x: expected a number in [0, 1], found "a")");
  }
  {
    // And the handler's before a later reader's.
    const JsonValue command = Command(R"("x":"a")");
    CommandArgs args("t", command);
    args.Fail("y", "something", "else");
    args.Number("x", 0, 1);
    EXPECT_EQ(args.error(), "t.y: expected something, found else");
    EXPECT_EQ(args.name(), "t");
  }
}

// A command that is not an object (Dispatch rejects those before a handler runs) has no fields.
TEST(CommandArgsTest, ANonObjectCommandHasNoFields) {
  const JsonValue command = JsonValue(5);
  CommandArgs args("t", command);
  EXPECT_FALSE(args.OptionalNumber("x", 0, 1).has_value());
  EXPECT_TRUE(args.Finish());
  args.Number("x", 0, 1);
  EXPECT_EQ(args.error(), "t.x: expected a number in [0, 1], found " + kMissing);
}

// How values read in messages (DescribeJson) is tested with the core JSON
// (tests/core/common/json_test.cpp); here only that ranges and round numbers read plainly.
TEST(CommandArgsTest, RoundNumbersPrintWithoutAnExponent) {
  const struct {
    double value;
    const char* text;
  } rows[] = {{10, "10"},     {60, "60"},         {100, "100"},     {300, "300"},
              {1000, "1000"}, {-1000, "-1000"},   {5000, "5000"},   {100000, "100000"},
              {20, "20"},     {123456, "123456"}, {0.001, "0.001"}, {1200, "1200"}};
  for (const auto& row : rows) {
    EXPECT_EQ(DescribeJson(JsonValue(row.value)), row.text);
  }
  const JsonValue command = Command(R"("count":6000)");
  CommandArgs args("setCrowdSize", command);
  args.Integer("count", 1, 5000);
  EXPECT_EQ(args.error(), "setCrowdSize.count: expected an integer in [1, 5000], found 6000");
}

}  // namespace
}  // namespace md5stage::viewer
