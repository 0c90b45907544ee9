// The page's command table (Stage::Call): a validity table of every command's fields (an unknown
// field, each required field missing, each field of a wrong type or out of its range) with a
// failed command changing nothing; per-character commands naming their instance; each command
// with valid arguments doing what it says; and playback through the viewer's core clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/anim/jobs.h"
#include "core/scene/scene_json.h"
#include "viewer/command_args.h"
#include "viewer/command_spec.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

// ---- helpers ------------------------------------------------------------------------------------

JsonValue Parse(const std::string& json) {
  auto parsed = ParseJson("test", json);
  EXPECT_TRUE(parsed.ok()) << json << ": " << (parsed.ok() ? "" : parsed.error().ToString());
  return parsed.ok() ? parsed.value() : JsonValue::MakeObject();
}

// {"cmd": name, members...}; members is JSON text without braces.
JsonValue Cmd(const std::string& name, const std::string& members = "") {
  return Parse("{\"cmd\":\"" + name + "\"" + (members.empty() ? "" : "," + members) + "}");
}

JsonValue With(JsonValue command, const std::string& key, JsonValue value) {
  command.Set(key, std::move(value));
  return command;
}

JsonValue Without(const JsonValue& command, const std::string& key) {
  JsonValue out = JsonValue::MakeObject();
  for (const JsonMember& member : command.as_object()) {
    if (member.first != key) out.Set(member.first, member.second);
  }
  return out;
}

const JsonValue& Get(const JsonValue& value, const std::string& key) {
  static const JsonValue kNull;
  const JsonValue* found = value.Find(key);
  return found ? *found : kNull;
}
const JsonValue& Item(const JsonValue& value, size_t index) {
  static const JsonValue kNull;
  return value.is_array() && index < value.as_array().size() ? value.as_array()[index] : kNull;
}

bool Ok(const JsonValue& reply) {
  const JsonValue* ok = reply.Find("ok");
  return ok && ok->is_bool() && ok->as_bool();
}
// A reply that is not a failure: {"ok": true, ...}, or a command answering its data directly
// (state, sceneJson, getRoutes answer without an "ok").
bool NotAFailure(const JsonValue& reply) {
  const JsonValue* ok = reply.Find("ok");
  return !(ok && ok->is_bool() && !ok->as_bool()) && reply.Find("error") == nullptr;
}
std::string Error(const JsonValue& reply) {
  const JsonValue& error = Get(reply, "error");
  return error.is_string() ? error.as_string() : "";
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}
bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The state without what moves by itself (the frame counter and the timings).
JsonValue Comparable(const JsonValue& state) { return Without(Without(state, "frame"), "stats"); }

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const char* const kMissing = "nothing (the field is missing)";

// A viewer over the null backend; optionally with the walker (idle and walk) and one route.
struct TestStage {
  TestStage() : viewer(&backend, nullptr) { viewer.SetViewport(1280, 720, 1.0f); }

  void LoadWalker() {
    const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";
    for (const char* name : {"walker.md5mesh", "idle.md5anim", "walk.md5anim", "walker.png"}) {
      InputFile file;
      file.name = name;
      file.source = "local";
      file.bytes = ReadBytes(dir + name);
      viewer.QueueFile(std::move(file));
    }
    const JsonValue reply = viewer.LoadQueuedFiles();
    ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
    ASSERT_EQ(viewer.character_count(), 1);
  }
  void AddRoute() {
    const JsonValue reply = viewer.Call(
        Cmd("setRoute", R"("route":{"segments":[{"line":[[0,0],[100,0]]}]},"name":"line")"));
    ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
  }
  JsonValue Call(const JsonValue& command) { return viewer.Call(command); }
  JsonValue Run(const std::string& name, const std::string& members = "") {
    return viewer.Call(Cmd(name, members));
  }
  JsonValue State() { return viewer.Call(Cmd("state")); }
  const JsonValue Instance0() { return Item(Get(State(), "instances"), 0); }

  NullRenderBackend backend;
  Stage viewer;
};

// ---- the field table ----------------------------------------------------------------------------

enum class Kind {
  kNumber,
  kInteger,
  kString,
  kBool,
  kChoice,
  kVec3,
  kValue,      // any JSON value (the handler reads it further)
  kModel,      // a string naming a loaded model
  kJoint,      // a string naming a joint of the character's model
  kAnimation,  // an animation name of the character's model, or null
};

struct Field {
  std::string name;
  Kind kind = Kind::kValue;
  bool required = true;
  double lo = 0.0, hi = 0.0;  // kNumber, kInteger; kVec3: hi is the limit of each element
  size_t max_length = 0;      // kString
  std::vector<std::string> choices;
};

constexpr bool kRequired = true;
constexpr bool kOptional = false;

Field Make(std::string name, Kind kind, bool required, double lo = 0.0, double hi = 0.0,
           size_t max_length = 0) {
  Field field;
  field.name = std::move(name);
  field.kind = kind;
  field.required = required;
  field.lo = lo;
  field.hi = hi;
  field.max_length = max_length;
  return field;
}
Field Num(std::string name, double lo, double hi, bool required = kRequired) {
  return Make(std::move(name), Kind::kNumber, required, lo, hi);
}
Field Int(std::string name, double lo, double hi, bool required = kRequired) {
  return Make(std::move(name), Kind::kInteger, required, lo, hi);
}
Field Str(std::string name, size_t max_length, bool required = kRequired) {
  return Make(std::move(name), Kind::kString, required, 0.0, 0.0, max_length);
}
Field Bool(std::string name, bool required = kRequired) {
  return Make(std::move(name), Kind::kBool, required);
}
Field Choice(std::string name, std::vector<std::string> choices, bool required = kRequired) {
  Field field = Make(std::move(name), Kind::kChoice, required);
  field.choices = std::move(choices);
  return field;
}
Field Vec(std::string name, double limit, bool required = kRequired) {
  return Make(std::move(name), Kind::kVec3, required, -limit, limit);
}
Field Any(std::string name) { return Make(std::move(name), Kind::kValue, kRequired); }
Field Model(std::string name) { return Make(std::move(name), Kind::kModel, kRequired, 0, 0, 256); }
Field Joint(std::string name, bool required = kRequired) {
  return Make(std::move(name), Kind::kJoint, required, 0, 0, 256);
}
Field Animation(std::string name) { return Make(std::move(name), Kind::kAnimation, kRequired); }
// The instance field of a per-character command in the fixture's scene of one character.
Field Instance() { return Int("instance", 0, 0); }

const std::vector<std::string> kModes = {"loop", "once", "pingpong"};

// One command: arguments that pass every field, the fields, and whether it acts on one character
// (and so must name its instance).
struct CommandRow {
  std::string name;
  std::string valid;
  std::vector<Field> fields;
  bool per_character = false;
};

// In the fixture's scene: the walker (one character; animations idle and walk) and one route.
std::vector<CommandRow> CommandRows() {
  const std::string instance = R"("instance":0)";
  return {
      // ---- the whole viewer ----
      {"state", "", {}},
      {"clock", "", {}},
      {"stats", "", {}},
      {"loadQueued", "", {}},
      {"reportError", R"("message":"boom")", {Str("message", 1 << 16)}},
      {"sceneJson", "", {}},
      {"prepareScene", R"("scene":{})", {Any("scene")}},
      {"applyScene", "", {}},
      {"cancelScene", "", {}},
      {"screenshot", "", {}},
      {"openScene", R"("scene":{})", {Any("scene")}},
      {"openDemo", R"("name":"turns")", {Str("name", 256)}},
      {"openLink", R"("payload":"abc")", {Str("payload", size_t{4} << 20)}},
      {"openModel",
       R"("mesh":"models/walker/walker.md5mesh")",
       {Str("mesh", 4096), Make("anims", Kind::kValue, kOptional),
        Make("materials", Kind::kValue, kOptional)}},
      {"openLocation",
       R"("fragment":"#demo=turns")",
       {Str("query", size_t{4} << 20, kOptional), Str("fragment", size_t{4} << 20, kOptional)}},
      {"shareLink", "", {}},
      {"decodeLink", R"("payload":"abc")", {Str("payload", size_t{1} << 20)}},
      {"setRoute",
       R"("route":{"segments":[{"line":[[0,0],[10,0]]}]})",
       {Int("index", 0, 1, kOptional), Any("route"), Str("name", 128, kOptional)}},
      {"getRoutes", "", {}},
      {"sampleRoute",
       R"("route":0,"distance":5)",
       {Int("route", 0, 0), Num("distance", -1e15, 1e15)}},
      {"removeRoute", R"("route":0)", {Int("route", 0, 0)}},
      {"follow", R"("on":true)", {Bool("on")}},
      {"commands", "", {}},
      {"setCrowdSize", R"("count":2)", {Int("count", 1, 5000)}},
      {"updateSteps", "", {Int("count", 1, 1000, kOptional), Num("dt", 0, 0.25, kOptional)}},
      {"groundAt", R"("x":640,"y":360)", {Num("x", -1e6, 1e6), Num("y", -1e6, 1e6)}},
      {"screenAt", R"("point":[0,0,0])", {Vec("point", 1e6)}},
      {"tool",
       R"("tool":"camera")",
       {Choice("tool", {"camera", "goto", "route", "obstacle"}),
        Choice("shape", {"circle", "polygon"}, kOptional), Int("route", -1, 0, kOptional),
        Bool("round", kOptional), Bool("close", kOptional)}},
      // The fixture has one obstacle, far from the character and the route.
      {"addObstacle", R"("obstacle":{"circle":{"centre":[0,50],"radius":5}})", {Any("obstacle")}},
      {"removeObstacle", R"("index":0)", {Int("index", 0, 0)}},
      {"moveObstacle",
       R"("index":0,"dx":1,"dy":2)",
       {Int("index", 0, 0), Num("dx", -1e6, 1e6), Num("dy", -1e6, 1e6)}},
      {"clearObstacles", "", {}},
      {"routeAround", R"("route":0)", {Int("route", 0, 0), Int("instance", 0, 0, kOptional)}},
      // The route pen's and the obstacle tool's edits (the panels send these; `tool` takes them).
      {"editRoute", R"("route":0)", {Int("route", -1, 0)}},
      {"toggleRouteLoop", "", {}},
      {"deleteRoutePoint", "", {}},
      {"setRoundCorners", R"("round":true)", {Bool("round")}},
      {"setObstacleShape", R"("shape":"polygon")", {Choice("shape", {"circle", "polygon"})}},
      {"closePolygon", "", {}},
      {"openFiles", "", {}},
      {"pageAction", R"("action":"copyLink")", {Str("action", 256)}},
      {"playCamera", R"("camera":"")", {Str("camera", 128)}},
      {"ui", R"("panels":true)", {Bool("panels")}},
      {"setSceneTime", R"("time":1)", {Num("time", 0, 1e6)}},
      {"playScene", "", {}},
      {"pauseScene", "", {}},
      {"display",
       "",
       {Bool("grid", kOptional), Bool("skeleton", kOptional), Bool("joint_names", kOptional),
        Bool("bounds", kOptional), Bool("wireframe", kOptional), Bool("normals", kOptional),
        Bool("routes", kOptional), Bool("turn_circles", kOptional), Bool("construction", kOptional),
        Bool("clearance", kOptional)}},
      {"setLight",
       "",
       {Num("azimuth", -360, 360, kOptional), Num("elevation", -90, 90, kOptional)}},
      {"setShading",
       "",
       {Bool("normalMaps", kOptional), Bool("specular", kOptional),
        Choice("channel", {"lit", "diffuse", "normals", "specular"}, kOptional)}},
      {"camera",
       "",
       {Vec("target", 1e6, kOptional), Num("yaw", -1e6, 1e6, kOptional),
        Num("pitch", -89, 89, kOptional), Num("distance", 1, 100000, kOptional)}},
      {"frame", "", {Int("instance", 0, 0, kOptional)}},
      {"embed",
       "",
       {Str("query", size_t{4} << 20, kOptional), Str("fragment", size_t{4} << 20, kOptional),
        Bool("reduced_motion", kOptional), Bool("apply_to_scene", kOptional)}},
      {"embedScrub", R"("active":true)", {Bool("active")}},
      {"removeModel", R"("model":"walker")", {Model("model")}},
      {"setSkin", R"("model":"walker","skin":"")", {Model("model"), Str("skin", 256)}},
      {"addInstance",
       R"("model":"walker")",
       {Model("model"), Vec("position", 1e6, kOptional), Num("heading", -1e3, 1e3, kOptional)}},
      // ---- one character ----
      {"select", instance, {Instance(), Joint("joint", kOptional)}, true},
      {"setAnimation",
       instance + R"(,"name":"walk")",
       {Instance(), Animation("name"), Num("crossfade", 0, 60, kOptional)},
       true},
      {"setCrossfade",
       instance + R"(,"crossfade":0.5)",
       {Instance(), Num("crossfade", 0, 60)},
       true},
      {"setLocomotionAnimation",
       instance + R"(,"name":"walk")",
       {Instance(), Animation("name")},
       true},
      {"setTime", instance + R"(,"time":0.5)", {Instance(), Num("time", 0, 1e6)}, true},
      {"play", instance, {Instance()}, true},
      {"pause", instance, {Instance()}, true},
      {"setRate", instance + R"(,"rate":2)", {Instance(), Num("rate", -100, 100)}, true},
      {"setMode", instance + R"(,"mode":"once")", {Instance(), Choice("mode", kModes)}, true},
      {"step", instance, {Instance(), Int("frames", -1e6, 1e6, kOptional)}, true},
      {"setPlacement",
       instance,
       {Instance(), Vec("position", 1e6, kOptional), Num("heading", -1e3, 1e3, kOptional)},
       true},
      {"attach",
       instance + R"(,"model":"walker","joint":"pelvis")",
       {Instance(), Model("model"), Joint("joint"), Vec("offset", 1e6, kOptional),
        Vec("rotation", 1e5, kOptional)},
       true},
      // The fixture's walker carries one walker (SetUp).
      {"editAttachment",
       instance + R"(,"attachment":0,"offset":[1,2,3])",
       {Instance(), Int("attachment", 0, 0), Vec("offset", 1e6, kOptional),
        Vec("rotation", 1e5, kOptional)},
       true},
      {"detach", instance + R"(,"attachment":0)", {Instance(), Int("attachment", 0, 0)}, true},
      {"assignRoute",
       instance + R"(,"route":0)",
       {Instance(), Int("route", -1, 0), Choice("mode", kModes, kOptional)},
       true},
      {"goTo",
       instance + R"(,"x":10,"y":20)",
       {Instance(), Num("x", -1e6, 1e6), Num("y", -1e6, 1e6), Num("heading", -1e3, 1e3, kOptional)},
       true},
      {"setConstructionOrigin",
       instance + R"(,"x":10,"y":20)",
       {Instance(), Num("x", -1e6, 1e6), Num("y", -1e6, 1e6), Num("heading", -1e3, 1e3, kOptional)},
       true},
      {"setSpeed", instance + R"(,"speed":40)", {Instance(), Num("speed", 0, 100000)}, true},
      {"setTurnRadius", instance + R"(,"radius":20)", {Instance(), Num("radius", 0, 1e5)}, true},
      {"setPlanBudget", R"("ms":2)", {Num("ms", 0, 1e6, kOptional)}},
      {"setClearance",
       instance + R"(,"clearance":20)",
       {Instance(), Num("clearance", 0, 1e6)},
       true},
      {"gpuSkinCheck", instance, {Instance()}, true},
      {"screenBounds", instance, {Instance()}, true},
      {"clip", instance, {Instance()}, true},
      {"locate",
       instance + R"(,"joint":"pelvis")",
       {Int("instance", 0, 0, kOptional), Joint("joint", kOptional), Vec("point", 1e6, kOptional),
        Str("construction", 32, kOptional), Make("surface", Kind::kValue, kOptional)},
       true},
      {"setHotspots", R"("spots":[])", {Any("spots")}},
      {"jointWorld", instance + R"(,"joint":"pelvis")", {Instance(), Joint("joint")}, true},
      {"exportGltf", R"("model":"walker")", {Model("model")}},
      {"exportMd5", R"("model":"walker")", {Model("model")}},
  };
}

// A value of the wrong JSON type for the field (none for kValue, which takes any).
std::vector<JsonValue> WrongTypes(const Field& field) {
  const JsonValue object = Parse(R"({"v":1})");
  switch (field.kind) {
    case Kind::kNumber:
      return {JsonValue("1"), JsonValue(true), JsonValue(), JsonValue(JsonArray{1}), object};
    case Kind::kInteger:
      return {JsonValue("0"), JsonValue(false), JsonValue(), JsonValue(JsonArray{0}), object};
    case Kind::kString:
    case Kind::kModel:
    case Kind::kJoint:
      return {JsonValue(7), JsonValue(true), JsonValue(), JsonValue(JsonArray{"a"}), object};
    case Kind::kBool:
      return {JsonValue(1), JsonValue(0), JsonValue("true"), JsonValue(), object};
    case Kind::kChoice:
      return {JsonValue(0), JsonValue(), JsonValue(JsonArray{JsonValue(field.choices[0])}), object};
    case Kind::kVec3:
      return {JsonValue("1,2,3"), JsonValue(1), JsonValue(), object};
    case Kind::kAnimation:  // null is the bind pose
      return {JsonValue(7), JsonValue(true), JsonValue(JsonArray{"walk"}), object};
    case Kind::kValue:
      return {};
  }
  return {};
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// Values beyond the field's range, and how the error's "found" part must read ("" to check the
// number that follows "found " numerically instead).
struct OutOfRange {
  JsonValue value;
  std::string found;
};

std::vector<OutOfRange> OutOfRangeValues(const Field& field) {
  std::vector<OutOfRange> values;
  switch (field.kind) {
    case Kind::kNumber:
      values.push_back({field.lo - std::max(1.0, std::abs(field.lo)), ""});
      values.push_back({field.hi + std::max(1.0, std::abs(field.hi)), ""});
      values.push_back({1e300, ""});
      values.push_back({-1e300, ""});
      break;
    case Kind::kInteger:
      values.push_back({field.lo - 1, ""});
      values.push_back({field.hi + 1, ""});
      values.push_back({field.lo + 0.5, ""});  // not whole (also where lo == hi)
      values.push_back({1e300, ""});
      break;
    case Kind::kString:
      values.push_back({JsonValue(std::string(field.max_length + 1, 'a')),
                        std::to_string(field.max_length + 1) + " bytes"});
      break;
    case Kind::kChoice:
      values.push_back({JsonValue(Upper(field.choices[0])), "\"" + Upper(field.choices[0]) + "\""});
      values.push_back({JsonValue("bogus"), "\"bogus\""});
      values.push_back({JsonValue(""), "\"\""});
      break;
    case Kind::kVec3:
      values.push_back({JsonValue(JsonArray{1, 2}), "[1, 2]"});
      values.push_back({JsonValue(JsonArray{1, 2, 3, 4}), "[1, 2, 3, 4]"});
      values.push_back({JsonValue(JsonArray{1, 2, 3, 4, 5}), "an array of 5"});
      values.push_back({JsonValue(JsonArray{}), "an empty array"});
      values.push_back({JsonValue(JsonArray{0, "a", 0}), "[1] = \"a\""});
      values.push_back({JsonValue(JsonArray{0, 0, JsonValue()}), "[2] = null"});
      values.push_back({JsonValue(JsonArray{0, 0, 2 * field.hi}), ""});
      values.push_back({JsonValue(JsonArray{-2 * field.hi, 0, 0}), ""});
      break;
    case Kind::kModel:
      values.push_back({JsonValue("nosuch"), "\"nosuch\""});
      values.push_back({JsonValue("Walker"), "\"Walker\""});
      values.push_back({JsonValue(std::string(257, 'm')), "257 bytes"});
      break;
    case Kind::kJoint:
      values.push_back({JsonValue("nosuch"), "\"nosuch\""});
      values.push_back({JsonValue("Pelvis"), "\"Pelvis\""});
      values.push_back({JsonValue(""), "\"\""});
      values.push_back({JsonValue(std::string(257, 'j')), "257 bytes"});
      break;
    case Kind::kAnimation:
      values.push_back({JsonValue("run"), "\"run\""});
      values.push_back({JsonValue("Walk"), "\"Walk\""});
      values.push_back({JsonValue(""), "\"\""});
      break;
    case Kind::kBool:
    case Kind::kValue:
      break;
  }
  return values;
}

// The number a message gives after its last "found " (and any "[i] = "), read back.
bool FoundNumber(const std::string& error, double* value) {
  size_t at = error.rfind(", found ");
  if (at == std::string::npos) return false;
  std::string text = error.substr(at + 8);
  const size_t eq = text.find("] = ");
  if (!text.empty() && text[0] == '[' && eq != std::string::npos) text = text.substr(eq + 4);
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

// The range a numeric message states, "[lo, hi]" after "in ", read back.
bool StatedRange(const std::string& error, double* lo, double* hi) {
  const size_t at = error.find(" in [");
  if (at == std::string::npos) return false;
  const char* text = error.c_str() + at + 5;
  char* end = nullptr;
  *lo = std::strtod(text, &end);
  if (end == text || std::string(end, 2) != ", ") return false;
  text = end + 2;
  *hi = std::strtod(text, &end);
  return end != text && *end == ']';
}

// What a field's error says it expected, when that does not involve printing numbers.
std::string ExpectedWithoutNumbers(const Field& field, bool missing) {
  switch (field.kind) {
    case Kind::kString:
    case Kind::kModel:
    case Kind::kJoint:
      return "a string";
    case Kind::kBool:
      return "true or false";
    case Kind::kChoice: {
      std::string list;
      for (const std::string& choice : field.choices) list += (list.empty() ? "" : ", ") + choice;
      return "one of " + list;
    }
    case Kind::kVec3:
      return missing ? "[x, y, z]" : "";
    default:
      return "";
  }
}

class CommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stage_ = std::make_unique<TestStage>();
    ASSERT_NO_FATAL_FAILURE(stage_->LoadWalker());
    ASSERT_NO_FATAL_FAILURE(stage_->AddRoute());
    const JsonValue reply =
        stage_->Run("addObstacle", R"("obstacle":{"circle":{"centre":[5000,5000],"radius":10}})");
    ASSERT_TRUE(Ok(reply)) << WriteJson(reply);
    const JsonValue attached =
        stage_->Run("attach", R"("instance":0,"model":"walker","joint":"pelvis")");
    ASSERT_TRUE(Ok(attached)) << WriteJson(attached);
  }

  // Sends a command that must fail; the error must start with `prefix` and the viewer's state
  // must not change. Returns the error.
  std::string Reject(const JsonValue& command, const std::string& prefix) {
    const JsonValue before = Comparable(stage_->viewer.State());
    const JsonValue reply = stage_->Call(command);
    const JsonValue after = Comparable(stage_->viewer.State());
    ++cases_;
    EXPECT_FALSE(Ok(reply)) << WriteJson(command) << " -> " << WriteJson(reply);
    const std::string error = Error(reply);
    EXPECT_TRUE(StartsWith(error, prefix))
        << WriteJson(command).substr(0, 300) << "\n  error: " << error
        << "\n  want prefix: " << prefix;
    EXPECT_TRUE(before == after) << "a rejected command changed the state: " << WriteJson(command)
                                 << "\n before: " << WriteJson(before)
                                 << "\n after:  " << WriteJson(after);
    return error;
  }

  std::unique_ptr<TestStage> stage_;
  int cases_ = 0;
};

// ---- the declared table: one vocabulary --------------------------------------------------------

// What a row's field kind may be declared as: integers name characters, routes and obstacles by
// position (and their handles, which the rows do not use).
bool DeclaredAs(Kind kind, ArgType type) {
  switch (kind) {
    case Kind::kNumber:
      return type == ArgType::kNumber;
    case Kind::kInteger:
      return type == ArgType::kInteger || type == ArgType::kCharacter || type == ArgType::kRoute ||
             type == ArgType::kObstacle;
    case Kind::kString:
      return type == ArgType::kString;
    case Kind::kBool:
      return type == ArgType::kBoolean;
    case Kind::kChoice:
      return type == ArgType::kChoice;
    case Kind::kVec3:
      return type == ArgType::kVec3;
    case Kind::kValue:
      return type == ArgType::kJson;
    case Kind::kModel:
      return type == ArgType::kModel;
    case Kind::kJoint:
      return type == ArgType::kJoint;
    case Kind::kAnimation:
      return type == ArgType::kAnimation;
  }
  return false;
}

// The table's declaration of each command is what its handler reads (each row's fields are
// checked against the handler by the validity table below): same names, types, requiredness
// and choices.
TEST_F(CommandsTest, EachCommandDeclaresTheFieldsItsHandlerReads) {
  for (const CommandRow& row : CommandRows()) {
    SCOPED_TRACE(row.name);
    const CommandSpec* spec = FindCommandSpec(row.name);
    ASSERT_NE(spec, nullptr);
    ASSERT_EQ(spec->args.size(), row.fields.size());
    for (const Field& field : row.fields) {
      SCOPED_TRACE(field.name);
      const auto declared = std::find_if(spec->args.begin(), spec->args.end(),
                                         [&](const CommandArg& a) { return field.name == a.name; });
      ASSERT_NE(declared, spec->args.end()) << "not declared";
      EXPECT_TRUE(DeclaredAs(field.kind, declared->type));
      EXPECT_EQ(declared->required, field.required);
      if (field.kind == Kind::kChoice) {
        EXPECT_EQ(std::vector<std::string>(declared->choices.begin(), declared->choices.end()),
                  field.choices);
      }
    }
  }
  // The hub's commands are declared too (answered before any stage; a stage alone refuses them).
  for (const char* hub : {"createStage", "closeStage", "stages"}) {
    ASSERT_NE(FindCommandSpec(hub), nullptr) << hub;
    const JsonValue reply = stage_->Run(hub);
    EXPECT_FALSE(Ok(reply)) << hub;
  }
}

// setRoute takes a route as a route file holds it, or its segments alone (md5stage.setRoute(i,
// segments)): the same route either way.
TEST_F(CommandsTest, SetRouteTakesTheSegmentsAlone) {
  const JsonValue whole = stage_->Run(
      "setRoute", R"("index":0,"route":{"segments":[{"line":[[0,0],[30,40]]}],"closed":false})");
  ASSERT_TRUE(Ok(whole)) << WriteJson(whole);
  const std::string as_file = WriteJson(Get(stage_->State(), "routes"));
  const JsonValue alone =
      stage_->Run("setRoute", R"("index":0,"route":[{"line":[[0,0],[30,40]]}])");
  ASSERT_TRUE(Ok(alone)) << WriteJson(alone);
  EXPECT_EQ(WriteJson(Get(stage_->State(), "routes")), as_file);
  EXPECT_EQ(Get(Item(Get(stage_->State(), "routes"), 0), "length").as_number(), 50.0);
}

// The page generates its functions from `commands`: every command, with its arguments in order.
TEST_F(CommandsTest, TheCommandsCommandAnswersTheTable) {
  const JsonValue reply = stage_->Run("commands");
  const JsonValue* commands = reply.Find("commands");
  ASSERT_NE(commands, nullptr);
  ASSERT_EQ(commands->as_array().size(), CommandSpecs().size());
  for (size_t i = 0; i < CommandSpecs().size(); ++i) {
    const CommandSpec& spec = CommandSpecs()[i];
    const JsonValue& json = commands->as_array()[i];
    SCOPED_TRACE(spec.name);
    EXPECT_EQ(json.Find("name")->as_string(), spec.name);
    EXPECT_EQ(json.Find("public")->as_bool(), spec.is_public);
    ASSERT_EQ(json.Find("args")->as_array().size(), spec.args.size());
    for (size_t a = 0; a < spec.args.size(); ++a)
      EXPECT_EQ(json.Find("args")->as_array()[a].Find("name")->as_string(),
                spec.args.begin()[a].name);
  }
  EXPECT_EQ(WriteJson(*reply.Find("aliases")), R"([{"alias":"sceneJSON","command":"sceneJson"}])");
}

// The TypeScript declaration has a method for every public command and alias, none for the
// internal ones, and every command in the Command union.
TEST_F(CommandsTest, TheTypeScriptDeclarationComesFromTheTable) {
  const std::string ts = WritePageApiTypeScript();
  const size_t begin = ts.find("export interface Md5StageCommands {");
  ASSERT_NE(begin, std::string::npos);
  const std::string methods = ts.substr(begin, ts.find("\n}\n", begin) - begin);
  for (const CommandSpec& spec : CommandSpecs()) {
    SCOPED_TRACE(spec.name);
    const std::string name = spec.name;
    EXPECT_NE(ts.find("{ cmd: '" + name + "';"), std::string::npos);
    const bool has_method = methods.find("\n  " + name + "(") != std::string::npos;
    EXPECT_EQ(has_method, spec.is_public);
  }
  EXPECT_NE(ts.find("\n  sceneJSON(): Reply;"), std::string::npos);
  EXPECT_NE(ts.find("\n  setTime(instance: CharacterRef, time: number): Reply;"),
            std::string::npos);
  EXPECT_NE(ts.find("\n  display(fields: { grid?: boolean;"), std::string::npos);
  EXPECT_NE(ts.find("\n  setMode(instance: CharacterRef, mode: 'loop' | 'once' | 'pingpong'): "
                    "Reply;"),
            std::string::npos);
}

// ---- every command has a row
// ----------------------------------------------------------------------

TEST_F(CommandsTest, EveryCommandHasARowAndEveryRowACommand) {
  const std::vector<std::string> names = CommandNames();
  std::set<std::string> known(names.begin(), names.end());
  EXPECT_EQ(known.size(), names.size()) << "a command name appears twice in the table";
  std::set<std::string> rows;
  for (const CommandRow& row : CommandRows()) {
    EXPECT_TRUE(rows.insert(row.name).second) << "two rows for " << row.name;
    EXPECT_TRUE(known.count(row.name)) << "a row for " << row.name << ", which is not a command";
  }
  for (const std::string& name : names) {
    EXPECT_TRUE(rows.count(name)) << "command '" << name
                                  << "' has no row in CommandRows(): add its fields";
  }
}

// ---- the validity table -------------------------------------------------------------------------

TEST_F(CommandsTest, ValidityTable) {
  for (const CommandRow& row : CommandRows()) {
    SCOPED_TRACE("command " + row.name);
    const JsonValue valid = Cmd(row.name, row.valid);
    const std::string name = row.name;

    // (a) a field the command does not take.
    {
      const std::string error =
          Reject(With(valid, "bogus", 1), name + ".bogus: expected no such field");
      EXPECT_EQ(error,
                name + ".bogus: expected no such field (" + name + " does not take it), found 1");
      Reject(With(valid, "Instance", 0), name + ".Instance: expected no such field");
    }

    for (const Field& field : row.fields) {
      SCOPED_TRACE("field " + field.name);
      const std::string prefix = name + "." + field.name + ": expected ";
      // (b) missing.
      if (field.required) {
        const std::string error = Reject(Without(valid, field.name), prefix);
        EXPECT_TRUE(EndsWith(error, std::string(", found ") + kMissing)) << error;
        const std::string expected = ExpectedWithoutNumbers(field, true);
        if (!expected.empty()) {
          EXPECT_EQ(error, prefix + expected + ", found " + kMissing);
        }
        if (field.kind == Kind::kNumber || field.kind == Kind::kInteger) {
          EXPECT_TRUE(StartsWith(
              error, prefix + (field.kind == Kind::kNumber ? "a number in [" : "an integer in [")))
              << error;
          double lo = 0, hi = 0;
          ASSERT_TRUE(StatedRange(error, &lo, &hi)) << error;
          EXPECT_EQ(lo, field.lo) << error;
          EXPECT_EQ(hi, field.hi) << error;
        }
      }
      // (c) a wrong type.
      for (const JsonValue& wrong : WrongTypes(field)) {
        const std::string error = Reject(With(valid, field.name, wrong), prefix);
        EXPECT_TRUE(EndsWith(error, ", found " + DescribeJson(wrong))) << error;
        const std::string expected = ExpectedWithoutNumbers(field, false);
        if (!expected.empty()) {
          EXPECT_EQ(error, prefix + expected + ", found " + DescribeJson(wrong));
        }
        if (field.kind == Kind::kNumber || field.kind == Kind::kInteger ||
            field.kind == Kind::kVec3) {
          double lo = 0, hi = 0;
          ASSERT_TRUE(StatedRange(error, &lo, &hi)) << error;
          EXPECT_EQ(lo, field.lo) << error;
          EXPECT_EQ(hi, field.hi) << error;
        }
      }
      // (d) out of range.
      for (const OutOfRange& bad : OutOfRangeValues(field)) {
        const std::string error = Reject(With(valid, field.name, bad.value), prefix);
        if (bad.found.empty()) {
          double found = 0, expected = bad.value.is_number() ? bad.value.as_number() : 0.0;
          if (bad.value.is_array()) {
            for (const JsonValue& element : bad.value.as_array()) {
              if (element.is_number() && std::abs(element.as_number()) > field.hi) {
                expected = element.as_number();
              }
            }
          }
          ASSERT_TRUE(FoundNumber(error, &found)) << error;
          EXPECT_EQ(found, expected) << error;
        } else {
          EXPECT_TRUE(EndsWith(error, ", found " + bad.found)) << error;
        }
        if (field.kind == Kind::kNumber || field.kind == Kind::kInteger ||
            field.kind == Kind::kVec3) {
          double lo = 0, hi = 0;
          ASSERT_TRUE(StatedRange(error, &lo, &hi)) << error;
          EXPECT_EQ(lo, field.lo) << error;
          EXPECT_EQ(hi, field.hi) << error;
        }
      }
    }
    // The valid arguments themselves pass every field: with an unknown field added, the unknown
    // one is what is reported (checked in (a)); with nothing added, no field is named.
  }
  std::printf("[ validity ] %d rejected commands checked\n", cases_);
}

// ---- exact messages
// -------------------------------------------------------------------------------

TEST_F(CommandsTest, ExactMessages) {
  const struct {
    const char* command;
    const char* error;
  } rows[] = {
      {R"({"cmd":"setMode","instance":0,"mode":"bogus"})",
       R"(setMode.mode: expected one of loop, once, pingpong, found "bogus")"},
      // A budget of nothing would never plan: zero is refused by the stage, not the range.
      {R"({"cmd":"setPlanBudget","ms":0})",
       "setPlanBudget.ms: expected a number in (0, 1000000], found 0"},
      {R"({"cmd":"setMode","instance":0,"mode":"Once"})",
       R"(setMode.mode: expected one of loop, once, pingpong, found "Once")"},
      {R"({"cmd":"setMode","instance":0})",
       "setMode.mode: expected one of loop, once, pingpong, found nothing (the field is missing)"},
      {R"({"cmd":"setMode","mode":"once"})",
       "setMode.instance: expected an integer in [0, 0], found nothing (the field is missing)"},
      {R"({"cmd":"setMode","instance":1,"mode":"once"})",
       "setMode.instance: expected an integer in [0, 0], found 1"},
      {R"({"cmd":"setMode","instance":-1,"mode":"once"})",
       "setMode.instance: expected an integer in [0, 0], found -1"},
      {R"({"cmd":"setMode","instance":0,"mode":"once","speed":2})",
       "setMode.speed: expected no such field (setMode does not take it), found 2"},
      // Found by the handler: the origin of a construction needs a go-to target.
      {R"({"cmd":"setConstructionOrigin","instance":0,"x":1,"y":2})",
       "setConstructionOrigin.instance: expected a character going to a target (send goTo "
       "first), found 0, which has none"},
      // The instance is read first: a bad instance is named before a bad mode.
      {R"({"cmd":"setMode","instance":5,"mode":"bogus"})",
       "setMode.instance: expected an integer in [0, 0], found 5"},
      {R"({"cmd":"setTime","instance":"0","time":1})",
       R"(setTime.instance: expected an integer in [0, 0], found "0")"},
      {R"({"cmd":"setTime","instance":0.5,"time":1})",
       "setTime.instance: expected an integer in [0, 0], found 0.5"},
      {R"({"cmd":"frame","instance":null})",
       "frame.instance: expected an integer in [0, 0], found null"},
      {R"({"cmd":"camera","pitch":90})", "camera.pitch: expected a number in [-89, 89], found 90"},
      {R"({"cmd":"camera","yaw":10,"pitch":-89.5})",
       "camera.pitch: expected a number in [-89, 89], found -89.5"},
      {R"({"cmd":"updateSteps","dt":0.5})",
       "updateSteps.dt: expected a number in [0, 0.25], found 0.5"},
      {R"({"cmd":"updateSteps","count":0})",
       "updateSteps.count: expected an integer in [1, 1000], found 0"},
      {R"({"cmd":"removeModel","model":"nosuch"})",
       R"(removeModel.model: expected a loaded model (walker), found "nosuch")"},
      {R"({"cmd":"addInstance"})",
       "addInstance.model: expected a string, found nothing (the field is missing)"},
      {R"({"cmd":"select","instance":0,"joint":"nosuch"})",
       R"(select.joint: expected a joint of 'walker', found "nosuch")"},
      {R"({"cmd":"select","instance":0,"joint":3})", "select.joint: expected a string, found 3"},
      {R"({"cmd":"setAnimation","instance":0,"name":"run"})",
       R"(setAnimation.name: expected an animation of 'walker' (idle, walk) or null for the bind pose, found "run")"},
      {R"({"cmd":"setAnimation","instance":0,"name":3})",
       "setAnimation.name: expected an animation name, or null for the bind pose, found 3"},
      {R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":-0.5})",
       "setAnimation.crossfade: expected a number in [0, 60], found -0.5"},
      {R"({"cmd":"attach","instance":0,"model":"nosuch"})",
       R"(attach.model: expected a loaded model (walker), found "nosuch")"},
      {R"({"cmd":"attach","instance":0,"model":"walker"})",
       "attach.joint: expected a string, found nothing (the field is missing)"},
      {R"({"cmd":"jointWorld","instance":0,"joint":"pelvis ","x":1})",
       R"(jointWorld.joint: expected a joint of 'walker', found "pelvis ")"},
      {R"({"cmd":"tool","tool":"Route"})",
       R"(tool.tool: expected one of camera, goto, route, obstacle, found "Route")"},
      {R"({"cmd":"tool","tool":"route","route":1})",
       "tool.route: expected an integer in [-1, 0], found 1"},
      {R"({"cmd":"ui","panels":"no"})", R"(ui.panels: expected true or false, found "no")"},
      {R"({"cmd":"ui"})",
       "ui.panels: expected true or false, found nothing (the field is missing)"},
      {R"({"cmd":"display","grid":1})", "display.grid: expected true or false, found 1"},
      {R"({"cmd":"display","Grid":true})",
       "display.Grid: expected no such field (display does not take it), found true"},
      {R"({"cmd":"sampleRoute","route":1,"distance":0})",
       "sampleRoute.route: expected an integer in [0, 0], found 1"},
      {R"({"cmd":"assignRoute","instance":0,"route":1})",
       "assignRoute.route: expected an integer in [-1, 0], found 1"},
      {R"({"cmd":"assignRoute","instance":0,"route":0,"mode":"LOOP"})",
       R"(assignRoute.mode: expected one of loop, once, pingpong, found "LOOP")"},
      {R"({"cmd":"reportError"})",
       "reportError.message: expected a string, found nothing (the field is missing)"},
      {R"({"cmd":"setRoute","index":2,"route":{}})",
       "setRoute.index: expected an integer in [0, 1], found 2"},
      {R"({"cmd":"prepareScene"})",
       "prepareScene.scene: expected a value, found nothing (the field is missing)"},
      {R"({"cmd":"state","verbose":true})",
       "state.verbose: expected no such field (state does not take it), found true"},
      {R"({"cmd":"play","instance":0,"time":0})",
       "play.time: expected no such field (play does not take it), found 0"},
      // The command itself.
      {"5", "command: expected an object {\"cmd\": NAME, ...}, found 5"},
      {"[]", "command: expected an object {\"cmd\": NAME, ...}, found an empty array"},
      {"{}", "command.cmd: expected a command name, found nothing (the field is missing)"},
      {R"({"cmd":7})", "command.cmd: expected a command name, found 7"},
      {R"({"cmd":"bogus"})", R"(command.cmd: expected a known command, found "bogus")"},
      {R"({"cmd":"SetMode","instance":0,"mode":"once"})",
       R"(command.cmd: expected a known command, found "SetMode")"},
      {R"({"cmd":""})", R"(command.cmd: expected a known command, found "")"},
  };
  for (const auto& row : rows) {
    const std::string error = Reject(Parse(row.command), "");
    EXPECT_EQ(error, row.error) << row.command;
  }
  const JsonValue long_name =
      With(Cmd("setRoute", R"("route":{"segments":[]})"), "name", std::string(129, 'n'));
  EXPECT_EQ(Reject(long_name, ""),
            "setRoute.name: expected a string of at most 128 bytes, found 129 bytes");
  EXPECT_EQ(Reject(With(Cmd("reportError"), "message", std::string((1 << 16) + 1, 'm')), ""),
            "reportError.message: expected a string of at most 65536 bytes, found 65537 bytes");
}

// Ranges in messages print as people write them: [-1000, 1000], not [-1e+03, 1e+03].
TEST_F(CommandsTest, RangesPrintAsPeopleWriteThem) {
  const struct {
    const char* command;
    const char* error;
  } rows[] = {
      {R"({"cmd":"setRate","instance":0,"rate":1500})",
       "setRate.rate: expected a number in [-100, 100], found 1500"},
      {R"({"cmd":"setCrowdSize","count":0})",
       "setCrowdSize.count: expected an integer in [1, 5000], found 0"},
      {R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":61})",
       "setAnimation.crossfade: expected a number in [0, 60], found 61"},
      {R"({"cmd":"camera","distance":0.5})",
       "camera.distance: expected a number in [1, 100000], found 0.5"},
      {R"({"cmd":"setSpeed","instance":0,"speed":-1})",
       "setSpeed.speed: expected a number in [0, 100000], found -1"},
  };
  for (const auto& row : rows) EXPECT_EQ(Reject(Parse(row.command), ""), row.error) << row.command;
}

// ---- per-character commands name their instance
// ---------------------------------------------------

TEST_F(CommandsTest, PerCharacterCommandsNameTheirInstance) {
  // Two characters; the second selected. A command without an instance never falls back to the
  // selection, and instance == count is out of range.
  ASSERT_TRUE(Ok(stage_->Run("addInstance", R"("model":"walker","position":[200,0,0])")));
  ASSERT_EQ(stage_->viewer.character_count(), 2);
  for (const CommandRow& row : CommandRows()) {
    if (!row.per_character) continue;
    SCOPED_TRACE(row.name);
    ASSERT_FALSE(row.fields.empty());
    EXPECT_EQ(row.fields[0].name, "instance") << "the instance is the first field read";
    const JsonValue valid = Cmd(row.name, row.valid);
    const std::string prefix = row.name + ".instance: expected an integer in [0, 1], found ";
    EXPECT_EQ(Reject(Without(valid, "instance"), prefix), prefix + kMissing);
    EXPECT_EQ(Reject(With(valid, "instance", -1), prefix), prefix + "-1");
    EXPECT_EQ(Reject(With(valid, "instance", 2), prefix), prefix + "2");
    EXPECT_EQ(Reject(With(valid, "instance", JsonValue()), prefix), prefix + "null");
  }
  // Instance 1 is the second character only.
  ASSERT_TRUE(Ok(stage_->Run("setMode", R"("instance":1,"mode":"pingpong")")));
  const JsonValue instances = Get(stage_->State(), "instances");
  EXPECT_EQ(Get(Item(instances, 0), "mode").as_string(), "loop");
  EXPECT_EQ(Get(Item(instances, 1), "mode").as_string(), "pingpong");
}

// The commands the table marks as per-character are exactly those that, on an empty scene, ask
// for an instance.
TEST(CommandsEmptySceneTest, PerCharacterCommandsOnAnEmptyScene) {
  for (const CommandRow& row : CommandRows()) {
    SCOPED_TRACE(row.name);
    TestStage stage;
    const JsonValue valid = Cmd(row.name, row.valid);
    const JsonValue before = Comparable(stage.viewer.State());
    const std::string prefix =
        row.name + ".instance: expected an instance index (the scene has no characters), found ";
    if (row.per_character) {
      EXPECT_EQ(Error(stage.Call(valid)), prefix + "0");
      EXPECT_EQ(Error(stage.Call(Without(valid, "instance"))), prefix + kMissing);
      EXPECT_EQ(Error(stage.Call(With(valid, "instance", -1))), prefix + "-1");
      EXPECT_EQ(Error(stage.Call(With(valid, "instance", "first"))), prefix + "\"first\"");
      EXPECT_TRUE(Comparable(stage.viewer.State()) == before);
    } else {
      const std::string error = Error(stage.Call(valid));
      EXPECT_FALSE(StartsWith(error, row.name + ".instance:")) << error;
    }
  }
  TestStage stage;
  EXPECT_EQ(Error(stage.Run("frame", R"("instance":0)")),
            "frame.instance: expected an instance index (the scene has no characters), found 0");
  EXPECT_TRUE(Ok(stage.Run("frame")));
  EXPECT_EQ(Error(stage.Run("addInstance", R"("model":"walker")")),
            R"(addInstance.model: expected a loaded model (none is loaded), found "walker")");
  EXPECT_EQ(Error(stage.Run("sampleRoute", R"("route":0,"distance":0)")),
            "sampleRoute.route: expected no value (there is none to choose), found 0");
  EXPECT_EQ(
      Error(stage.Run("assignRoute", R"("instance":0,"route":-1)")),
      "assignRoute.instance: expected an instance index (the scene has no characters), found 0");
  // With nothing to clone the crowd stays empty.
  const JsonValue crowd = stage.Run("setCrowdSize", R"("count":10)");
  EXPECT_TRUE(Ok(crowd));
  EXPECT_EQ(Get(crowd, "characters").as_number(), 0.0);
}

// ---- failures found by the handler (after the fields)
// --------------------------------------------

TEST_F(CommandsTest, FailuresFoundByTheHandlerChangeNothing) {
  // A route whose segments do not join, a route that is not an object, a scene that is not one,
  // applying when no scene is being opened.
  EXPECT_EQ(Reject(Cmd("setRoute", R"("route":{"segments":[{"line":[[0,0],[10,0]]},)"
                                   R"({"line":[[20,0],[30,0]]}]})"),
                   "setRoute.route:"),
            "setRoute.route:1:73: error: segments[1].line[0]: expected the end of segments[0] "
            "[10, 0], found [20, 0]");
  Reject(Cmd("setRoute", R"("route":5)"), "setRoute.route:");
  Reject(Cmd("setRoute", R"("index":0,"route":{"segments":[]})"), "setRoute.route:");
  EXPECT_FALSE(Reject(Cmd("prepareScene", R"("scene":5)"), "").empty());
  EXPECT_EQ(Reject(Cmd("applyScene"), ""), "no scene is being opened");
  // A link that does not decode is also reported to the page (last_error and the status line);
  // nothing else changes.
  const JsonValue before = Without(Without(Comparable(stage_->State()), "last_error"), "status");
  const JsonValue reply = stage_->Run("decodeLink", R"("payload":"!!")");
  EXPECT_FALSE(Ok(reply));
  const JsonValue after = stage_->State();
  EXPECT_EQ(Get(after, "last_error").as_string(), Error(reply));
  EXPECT_TRUE(Without(Without(Comparable(after), "last_error"), "status") == before);
}

// setPlacement answers ok for a character that has walked somewhere (goTo, assignRoute): the
// placement must then show, or the command must say why it cannot.
TEST_F(CommandsTest, SetPlacementOfACharacterThatHasWalked) {
  ASSERT_TRUE(Ok(stage_->Run("goTo", R"("instance":0,"x":100,"y":0)")));
  stage_->viewer.Update(0.5);
  const JsonValue reply =
      stage_->Run("setPlacement", R"("instance":0,"position":[300,40,0],"heading":1)");
  if (Ok(reply)) {
    EXPECT_EQ(WriteJson(Get(stage_->Instance0(), "position")), "[300,40]");
    stage_->viewer.Update(0.0);
    EXPECT_EQ(WriteJson(Get(stage_->Instance0(), "position")), "[300,40]");
    EXPECT_EQ(Get(stage_->Instance0(), "heading").as_number(), 1.0);
  } else {
    EXPECT_TRUE(StartsWith(Error(reply), "setPlacement.")) << Error(reply);
  }
}

// What a command accepts, the scene it leaves must hold: sceneJson (and so a share link) of the
// viewer's own state reads back. Each row is one command at (or near) the end of its range.
TEST(CommandsSceneTest, AcceptedValuesSurviveTheSceneRoundTrip) {
  const char* const rows[] = {
      R"({"cmd":"setRate","instance":0,"rate":-100})",
      R"({"cmd":"setRate","instance":0,"rate":100})",
      R"({"cmd":"setTurnRadius","instance":0,"radius":100000})",
      R"({"cmd":"setSpeed","instance":0,"speed":100000})",
      R"({"cmd":"setSceneTime","time":1000000})",
      R"({"cmd":"setTime","instance":0,"time":0})",
      R"({"cmd":"setTime","instance":0,"time":1000000})",
      R"({"cmd":"setPlacement","instance":0,"position":[1000000,-1000000,0],"heading":1000})",
      R"({"cmd":"addInstance","model":"walker","position":[-1000000,1000000,0],"heading":-1000})",
      (R"({"cmd":"attach","instance":0,"model":"walker","joint":"pelvis","offset":[1000000,0,0],)"
       R"("rotation":[100000,0,0]})"),
      R"({"cmd":"camera","target":[1000000,0,0],"yaw":-1000000,"pitch":89,"distance":100000})",
  };
  for (const char* command : rows) {
    SCOPED_TRACE(command);
    TestStage stage;
    ASSERT_NO_FATAL_FAILURE(stage.LoadWalker());
    ASSERT_TRUE(Ok(stage.Call(Parse(command)))) << WriteJson(stage.Call(Parse(command)));
    stage.viewer.Update(0.0);  // a frame, so the clock has wrapped or clamped what it plays
    const JsonValue scene = stage.Run("sceneJson");
    auto read = SceneFromJson("sceneJson", scene);
    EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().ToString());
  }
}

// ---- valid arguments: each command answers and has its effect
// ------------------------------------

struct EffectRow {
  std::string covers;                 // the command this row is for
  std::vector<std::string> commands;  // all but the last must succeed; the last is checked
  bool ok;                            // whether the last one answers ok
  std::function<void(TestStage&, const JsonValue& reply)> check;
};

std::vector<EffectRow> EffectRows() {
  const auto time0 = [](TestStage& s) { return Get(s.Instance0(), "time").as_number(); };
  return {
      {"state",
       {R"({"cmd":"state"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Get(r, "instances").as_array().size(), 1u);
         EXPECT_EQ(Get(Item(Get(r, "instances"), 0), "animation").as_string(), "idle");
         EXPECT_EQ(Get(r, "routes").as_array().size(), 1u);
       }},
      {"clock",
       {R"({"cmd":"clock"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Get(r, "scene_time").as_number(), 0.0);
         EXPECT_TRUE(Get(r, "scene_playing").as_bool());
         EXPECT_FALSE(Get(r, "finished").as_bool());
       }},
      {"commands",
       {R"({"cmd":"commands"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Get(r, "commands").as_array().size(), CommandSpecs().size());
       }},
      {"stats",
       {R"({"cmd":"stats"})"},
       true,
       [](TestStage&, const JsonValue& r) { EXPECT_EQ(Get(r, "characters").as_number(), 1.0); }},
      {"loadQueued",
       {R"({"cmd":"loadQueued"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "models").as_array().empty());
         EXPECT_EQ(s.viewer.character_count(), 1);
       }},
      {"reportError",
       {R"({"cmd":"reportError","message":"boom\nmore"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue state = s.State();
         EXPECT_EQ(Get(state, "last_error").as_string(), "boom\nmore");
         EXPECT_EQ(Get(state, "status").as_string(), "boom");
       }},
      {"sceneJson",
       {R"({"cmd":"sceneJson"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Get(r, "instances").as_array().size(), 1u);
         EXPECT_EQ(Get(Item(Get(r, "models"), 0), "name").as_string(), "walker");
       }},
      {"prepareScene",
       {R"({"cmd":"prepareScene","scene":{"version":1,"models":[],"instances":[]}})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "files").as_array().empty());
         EXPECT_EQ(s.viewer.character_count(), 1);  // not yet applied
       }},
      {"applyScene",
       {R"({"cmd":"prepareScene","scene":{"version":1,"models":[],"instances":[]}})",
        R"({"cmd":"applyScene"})"},
       true,
       [](TestStage& s, const JsonValue&) { EXPECT_EQ(s.viewer.character_count(), 0); }},
      {"cancelScene",
       {R"({"cmd":"prepareScene","scene":{"version":1,"models":[],"instances":[]}})",
        R"({"cmd":"cancelScene"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(s.viewer.character_count(), 1);
         EXPECT_EQ(Error(s.Run("applyScene")), "no scene is being opened");
       }},
      // Without a host that fetches, an opening that needs files fails and changes nothing; one
      // that needs none applies at once.
      {"openScene",
       {R"({"cmd":"openScene","scene":{"version":1,"models":[],"instances":[]}})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(WriteJson(Get(r, "opening")), "1");
         EXPECT_EQ(s.viewer.character_count(), 0);
       }},
      // Without a host there is nobody to save it; actions_test checks the download.
      {"screenshot", {R"({"cmd":"screenshot"})"}, true, [](TestStage&, const JsonValue&) {}},
      {"openDemo",
       {R"({"cmd":"openDemo","name":"turns"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_FALSE(s.viewer.opening());
         EXPECT_EQ(s.viewer.character_count(), 1);
       }},
      {"openLink",
       {R"({"cmd":"openLink","payload":"abc"})"},
       true,
       [](TestStage& s, const JsonValue&) { EXPECT_EQ(s.viewer.character_count(), 1); }},
      {"openModel",
       {R"({"cmd":"openModel","mesh":"models/walker/walker.md5mesh","anims":["walk.md5anim"]})"},
       true,
       [](TestStage& s, const JsonValue&) { EXPECT_EQ(s.viewer.character_count(), 1); }},
      {"openLocation",
       {R"({"cmd":"openLocation","query":"?scene=none"})"},
       true,
       [](TestStage& s, const JsonValue&) { EXPECT_EQ(s.viewer.character_count(), 1); }},
      {"shareLink",
       {R"({"cmd":"shareLink"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         ASSERT_TRUE(Get(r, "payload").is_string());
         EXPECT_FALSE(Get(r, "payload").as_string().empty());
         EXPECT_EQ(WriteJson(Get(r, "left_out")), R"(["walker"])");
         JsonValue decode = Cmd("decodeLink");
         decode.Set("payload", Get(r, "payload"));
         const JsonValue decoded = s.Call(decode);
         EXPECT_TRUE(Ok(decoded)) << WriteJson(decoded);
         EXPECT_EQ(Get(Get(decoded, "scene"), "routes").as_array().size(), 1u);
       }},
      {"decodeLink",
       {R"({"cmd":"decodeLink","payload":"!!not a link!!"})"},
       false,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_FALSE(Error(r).empty());
         // A link that does not decode is reported to the page like any other error.
         EXPECT_EQ(Get(s.State(), "last_error").as_string(), Error(r));
       }},
      {"setRoute",
       {R"({"cmd":"setRoute","route":{"segments":[{"line":[[0,0],[0,50]]}]},"name":"up"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "index").as_number(), 1.0);
         const JsonValue routes = Get(s.State(), "routes");
         ASSERT_EQ(routes.as_array().size(), 2u);
         EXPECT_EQ(Get(Item(routes, 1), "name").as_string(), "up");
         EXPECT_NEAR(Get(Item(routes, 1), "length").as_number(), 50.0, 1e-9);
       }},
      {"setRoute",  // replacing route 0
       {R"({"cmd":"setRoute","index":0,"route":{"segments":[{"line":[[0,0],[30,40]]}]}})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "index").as_number(), 0.0);
         const JsonValue routes = Get(s.State(), "routes");
         ASSERT_EQ(routes.as_array().size(), 1u);
         EXPECT_NEAR(Get(Item(routes, 0), "length").as_number(), 50.0, 1e-9);
       }},
      {"getRoutes",
       {R"({"cmd":"getRoutes"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         ASSERT_TRUE(r.is_array());
         EXPECT_EQ(Get(Item(r, 0), "name").as_string(), "line");
       }},
      {"sampleRoute",
       {R"({"cmd":"sampleRoute","route":0,"distance":25})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_NEAR(Item(Get(r, "position"), 0).as_number(), 25.0, 1e-9);
         EXPECT_NEAR(Item(Get(r, "position"), 1).as_number(), 0.0, 1e-9);
         EXPECT_NEAR(Get(r, "heading").as_number(), 0.0, 1e-12);
       }},
      {"setCrowdSize",
       {R"({"cmd":"setCrowdSize","count":3})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "characters").as_number(), 3.0);
         EXPECT_EQ(s.viewer.character_count(), 3);
       }},
      {"updateSteps",
       {R"({"cmd":"updateSteps","count":4,"dt":0.125})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "update_ms").as_array().size(), 4u);
         // No crowd here: its part of each update is within the update's time.
         ASSERT_EQ(Get(r, "crowd_ms").as_array().size(), 4u);
         for (std::size_t i = 0; i < 4; ++i) {
           EXPECT_GE(Item(Get(r, "crowd_ms"), i).as_number(), 0.0);
           EXPECT_LE(Item(Get(r, "crowd_ms"), i).as_number(),
                     Item(Get(r, "update_ms"), i).as_number());
         }
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 0.5);
       }},
      {"groundAt",
       {R"({"cmd":"groundAt","x":640,"y":700})"},
       true,
       [](TestStage&, const JsonValue& r) { EXPECT_EQ(Get(r, "point").as_array().size(), 2u); }},
      {"screenAt",
       {R"({"cmd":"camera","target":[0,0,0],"yaw":0,"pitch":30,"distance":100})",
        R"({"cmd":"screenAt","point":[0,0,0]})"},
       true,
       [](TestStage&, const JsonValue& r) {
         // The camera's target is the middle of the picture.
         EXPECT_NEAR(Item(Get(r, "pixel"), 0).as_number(), 640.0, 1e-3);
         EXPECT_NEAR(Item(Get(r, "pixel"), 1).as_number(), 360.0, 1e-3);
       }},
      {"tool",
       {R"({"cmd":"tool","tool":"route","route":0})"},
       true,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Get(r, "edited_route").as_number(), 0.0);
         EXPECT_EQ(Get(r, "anchors").as_number(), 2.0);
       }},
      {"ui",
       {R"({"cmd":"ui","panels":false})"},
       true,
       [](TestStage& s, const JsonValue&) { EXPECT_FALSE(Get(s.State(), "panels").as_bool()); }},
      {"setSceneTime",
       {R"({"cmd":"setSceneTime","time":2.5})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 2.5);
       }},
      {"pauseScene",
       {R"({"cmd":"pauseScene"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_FALSE(Get(s.State(), "scene_playing").as_bool());
         EXPECT_FALSE(Get(s.Instance0(), "playing").as_bool());
         s.viewer.Update(0.5);
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 0.0);
         EXPECT_EQ(Get(s.Instance0(), "time").as_number(), 0.0);
       }},
      {"playScene",
       {R"({"cmd":"pauseScene"})", R"({"cmd":"playScene"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(Get(s.State(), "scene_playing").as_bool());
         EXPECT_TRUE(Get(s.Instance0(), "playing").as_bool());
         s.viewer.Update(0.5);
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 0.5);
       }},
      {"display",
       {R"({"cmd":"display","grid":false,"skeleton":true})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue display = Get(s.State(), "display");
         EXPECT_FALSE(Get(display, "grid").as_bool());
         EXPECT_TRUE(Get(display, "skeleton").as_bool());
         // The toggles not named keep their values.
         EXPECT_FALSE(Get(display, "wireframe").as_bool());
         EXPECT_TRUE(Get(display, "routes").as_bool());
         ASSERT_TRUE(Ok(s.Run("display", R"("skeleton":false)")));
         EXPECT_FALSE(Get(Get(s.State(), "display"), "skeleton").as_bool());
         EXPECT_FALSE(Get(Get(s.State(), "display"), "grid").as_bool());
       }},
      {"camera",
       {R"({"cmd":"camera","target":[1,2,3],"yaw":10,"pitch":-89,"distance":50})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue camera = Get(s.State(), "camera");
         EXPECT_EQ(WriteJson(Get(camera, "target")), "[1,2,3]");
         EXPECT_EQ(Get(camera, "yaw").as_number(), 10.0);
         EXPECT_EQ(Get(camera, "pitch").as_number(), -89.0);
         EXPECT_EQ(Get(camera, "distance").as_number(), 50.0);
         // Out of range: an error, and nothing of the command is applied (not even the yaw).
         const JsonValue reply = s.Run("camera", R"("yaw":20,"pitch":89.5)");
         EXPECT_EQ(Error(reply), "camera.pitch: expected a number in [-89, 89], found 89.5");
         EXPECT_TRUE(Get(s.State(), "camera") == camera);
       }},
      {"frame",
       {R"({"cmd":"addInstance","model":"walker","position":[500,0,0]})",
        R"({"cmd":"select","instance":0})", R"({"cmd":"frame","instance":1})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.State(), "selected").as_number(), 1.0);
         EXPECT_GT(s.viewer.camera().target.x, 250.0f);
       }},
      {"frame",
       {R"({"cmd":"camera","target":[9000,0,0]})", R"({"cmd":"frame"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_LT(std::abs(s.viewer.camera().target.x), 100.0f);
       }},
      {"embed",
       {R"({"cmd":"embed","query":"?embed","fragment":"#t=2&paused&skeleton=1"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "problems").as_array().empty()) << WriteJson(r);
         const JsonValue state = s.State();
         EXPECT_EQ(Get(state, "scene_time").as_number(), 2.0);
         EXPECT_FALSE(Get(state, "scene_playing").as_bool());
         EXPECT_TRUE(Get(Get(state, "display"), "skeleton").as_bool());
       }},
      {"embed",
       {R"({"cmd":"embed","fragment":"#t=2&paused&skeleton=1","apply_to_scene":false})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue state = s.State();
         EXPECT_EQ(Get(state, "scene_time").as_number(), 0.0);
         EXPECT_TRUE(Get(state, "scene_playing").as_bool());
         EXPECT_FALSE(Get(Get(state, "display"), "skeleton").as_bool());
       }},
      {"embedScrub",
       {R"({"cmd":"embed","fragment":"#loop=1-2"})", R"({"cmd":"setSceneTime","time":2.5})",
        R"({"cmd":"embedScrub","active":true})"},
       true,
       [](TestStage& s, const JsonValue&) {
         // While the slider is held the loop does not jump back; after the release it does.
         s.viewer.Update(0.0);
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 2.5);
         ASSERT_TRUE(Ok(s.Run("embedScrub", R"("active":false)")));
         s.viewer.Update(0.0);
         EXPECT_EQ(Get(s.State(), "scene_time").as_number(), 1.0);
       }},
      {"removeModel",
       {R"({"cmd":"removeModel","model":"walker"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(s.viewer.character_count(), 0);
         EXPECT_TRUE(s.viewer.models().empty());
       }},
      {"setSkin",
       {R"({"cmd":"setSkin","model":"walker","skin":""})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "skin").as_string(), "");
         EXPECT_EQ(Get(Item(Get(s.State(), "models"), 0), "skin").as_string(), "");
       }},
      {"addInstance",
       {R"({"cmd":"addInstance","model":"walker","position":[10,20,0],"heading":0.5})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "instance").as_number(), 1.0);
         const JsonValue state = s.State();
         EXPECT_EQ(Get(state, "selected").as_number(), 1.0);
         const JsonValue added = Item(Get(state, "instances"), 1);
         EXPECT_EQ(WriteJson(Get(added, "position")), "[10,20]");
         EXPECT_EQ(Get(added, "heading").as_number(), 0.5);
         EXPECT_EQ(Get(added, "label").as_string(), "walker 2");
       }},
      {"select",
       {R"({"cmd":"select","instance":0,"joint":"pelvis"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue state = s.State();
         EXPECT_EQ(Get(state, "selected").as_number(), 0.0);
         EXPECT_EQ(Get(state, "selected_joint").as_number(), 1.0);  // origin, pelvis, ...
         ASSERT_TRUE(Ok(s.Run("select", R"("instance":0)")));
         EXPECT_EQ(Get(s.State(), "selected_joint").as_number(), -1.0);
       }},
      {"setAnimation",
       {R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":0})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "animation").as_string(), "walk");
         ASSERT_TRUE(Ok(s.Run("setAnimation", R"("instance":0,"name":null)")));
         EXPECT_TRUE(Get(s.Instance0(), "animation").is_null());
       }},
      {"setTime",
       {R"({"cmd":"setTime","instance":0,"time":1.25})"},
       true,
       [time0](TestStage& s, const JsonValue&) { EXPECT_EQ(time0(s), 1.25); }},
      {"pause",
       {R"({"cmd":"pause","instance":0})"},
       true,
       [time0](TestStage& s, const JsonValue&) {
         EXPECT_FALSE(Get(s.Instance0(), "playing").as_bool());
         s.viewer.Update(0.5);
         EXPECT_EQ(time0(s), 0.0);
       }},
      {"play",
       {R"({"cmd":"pause","instance":0})", R"({"cmd":"play","instance":0})"},
       true,
       [time0](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(Get(s.Instance0(), "playing").as_bool());
         s.viewer.Update(0.5);
         EXPECT_EQ(time0(s), 0.5);
       }},
      {"setRate",
       {R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":0})",
        R"({"cmd":"setTime","instance":0,"time":0.5})",
        R"({"cmd":"setRate","instance":0,"rate":-1})"},
       true,
       [time0](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "rate").as_number(), -1.0);
         s.viewer.Update(0.125);
         EXPECT_EQ(time0(s), 0.375);  // backwards
       }},
      {"setMode",
       {R"({"cmd":"setMode","instance":0,"mode":"once"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "mode").as_string(), "once");
       }},
      {"step",
       {R"({"cmd":"setAnimation","instance":0,"name":"walk","crossfade":0})",
        R"({"cmd":"step","instance":0,"frames":-1})"},
       true,
       [time0](TestStage& s, const JsonValue&) {
         // walk: 31 frames at 30 fps, the last the first again: back from 0 is frame 29.
         EXPECT_FALSE(Get(s.Instance0(), "playing").as_bool());
         EXPECT_NEAR(time0(s), 29.0 / 30.0, 1e-6);
         ASSERT_TRUE(Ok(s.Run("step", R"("instance":0)")));
         EXPECT_NEAR(time0(s), 0.0, 1e-9);
         ASSERT_TRUE(Ok(s.Run("step", R"("instance":0,"frames":61)")));
         EXPECT_NEAR(time0(s), 1.0 / 30.0, 1e-6);
         // In "once" every frame counts, the last one too.
         ASSERT_TRUE(Ok(s.Run("setMode", R"("instance":0,"mode":"once")")));
         ASSERT_TRUE(Ok(s.Run("step", R"("instance":0,"frames":-2)")));
         EXPECT_NEAR(time0(s), 1.0, 1e-6);
       }},
      {"setPlacement",
       {R"({"cmd":"setPlacement","instance":0,"position":[5,-6,0],"heading":1.5})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(WriteJson(Get(s.Instance0(), "position")), "[5,-6]");
         EXPECT_EQ(Get(s.Instance0(), "heading").as_number(), 1.5);
         ASSERT_TRUE(Ok(s.Run("setPlacement", R"("instance":0,"heading":-0.5)")));
         EXPECT_EQ(WriteJson(Get(s.Instance0(), "position")), "[5,-6]");
       }},
      {"attach",
       {R"({"cmd":"attach","instance":0,"model":"walker","joint":"pelvis","offset":[0,0,1]})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue attachments = Get(s.Instance0(), "attachments");
         ASSERT_EQ(attachments.as_array().size(), 1u);
         EXPECT_EQ(Get(Item(attachments, 0), "joint").as_string(), "pelvis");
         EXPECT_EQ(Get(Item(attachments, 0), "model").as_string(), "walker");
       }},
      {"assignRoute",
       {R"({"cmd":"assignRoute","instance":0,"route":0,"mode":"once"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "route").as_number(), 0.0);
         ASSERT_TRUE(Ok(s.Run("assignRoute", R"("instance":0,"route":-1)")));
         EXPECT_EQ(Get(s.Instance0(), "route").as_number(), -1.0);
       }},
      {"goTo",
       {R"({"cmd":"setSpeed","instance":0,"speed":50})",
        R"({"cmd":"goTo","instance":0,"x":100,"y":0})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "path").is_object() || Get(r, "path").is_array()) << WriteJson(r);
         s.viewer.Update(1.0);
         EXPECT_NEAR(Item(Get(s.Instance0(), "position"), 0).as_number(), 50.0, 1e-6);
         EXPECT_TRUE(Get(s.Instance0(), "moving").as_bool());
       }},
      {"setConstructionOrigin",
       {R"({"cmd":"goTo","instance":0,"x":100,"y":0})",
        R"({"cmd":"setConstructionOrigin","instance":0,"x":-20,"y":5,"heading":1.5})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "path").is_object() || Get(r, "path").is_array()) << WriteJson(r);
         // Placed there, facing that way, and going to the same target from it.
         EXPECT_NEAR(Item(Get(s.Instance0(), "position"), 0).as_number(), -20.0, 1e-6);
         EXPECT_NEAR(Item(Get(s.Instance0(), "position"), 1).as_number(), 5.0, 1e-6);
         const Follower& follower = s.viewer.characters()[0].locomotion.follower;
         EXPECT_EQ(follower.approach().start.position, glm::dvec2(-20, 5));
         EXPECT_EQ(follower.approach().start.heading, 1.5);
         EXPECT_NEAR(follower.approach().end.position.x, 100.0, 1e-9);
         EXPECT_NEAR(follower.approach().end.position.y, 0.0, 1e-9);
       }},
      {"setSpeed",
       {R"({"cmd":"setSpeed","instance":0,"speed":40})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "speed").as_number(), 40.0);
       }},
      {"setTurnRadius",
       {R"({"cmd":"setTurnRadius","instance":0,"radius":20})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "turn_radius").as_number(), 20.0);
       }},
      {"setPlanBudget",
       {R"({"cmd":"setPlanBudget","ms":2})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue budget = Get(s.State(), "plan_budget");
         EXPECT_EQ(Get(budget, "ms").as_number(), 2.0);
         const double two_ms = Get(budget, "expansions").as_number();
         ASSERT_TRUE(Ok(s.Run("setPlanBudget", R"("ms":4)")));
         EXPECT_GT(Get(Get(s.State(), "plan_budget"), "expansions").as_number(), two_ms);
         ASSERT_TRUE(Ok(s.Run("setPlanBudget", "")));  // back to the default
         EXPECT_TRUE(Get(Get(s.State(), "plan_budget"), "ms").is_null());
       }},
      {"setClearance",
       {R"({"cmd":"setClearance","instance":0,"clearance":7.5})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(s.Instance0(), "clearance").as_number(), 7.5);
       }},
      {"addObstacle",
       {R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[50,0],"radius":10}}})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "index").as_number(), 0.0);
         EXPECT_EQ(WriteJson(Get(s.State(), "obstacles")),
                   R"([{"circle":{"centre":[50,0],"radius":10}}])");
         // The route from (0, 0) to (100, 0) now crosses it.
         const JsonValue route = Item(Get(s.State(), "routes"), 0);
         EXPECT_EQ(Get(route, "crossing").as_array().size(), 1u) << WriteJson(route);
       }},
      {"follow",
       {R"({"cmd":"follow","on":true})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(Get(s.State(), "follow_selected").as_bool());
       }},
      {"removeRoute",
       {R"({"cmd":"assignRoute","instance":0,"route":0})", R"({"cmd":"removeRoute","route":0})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(Get(s.State(), "routes").as_array().empty());
         EXPECT_EQ(Get(s.Instance0(), "route").as_number(), -1.0);
       }},
      {"removeObstacle",
       {R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[50,0],"radius":10}}})",
        R"({"cmd":"addObstacle","obstacle":{"polygon":[[0,60],[10,60],[10,70]]}})",
        R"({"cmd":"removeObstacle","index":0})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(WriteJson(Get(s.State(), "obstacles")),
                   R"([{"polygon":[[0,60],[10,60],[10,70]]}])");
       }},
      {"moveObstacle",
       {R"({"cmd":"addObstacle","obstacle":{"polygon":[[0,60],[10,60],[10,70]]}})",
        R"({"cmd":"moveObstacle","index":0,"dx":5,"dy":-10})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(WriteJson(Get(s.State(), "obstacles")),
                   R"([{"polygon":[[5,50],[15,50],[15,60]]}])");
       }},
      {"playCamera",
       {R"({"cmd":"playCamera","camera":""})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(Get(Get(s.State(), "cinematic"), "playing").as_string(), "");
       }},
      {"clearObstacles",
       {R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[50,0],"radius":10}}})",
        R"({"cmd":"clearObstacles"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(WriteJson(Get(s.State(), "obstacles")), "[]");
       }},
      {"routeAround",
       {R"({"cmd":"addObstacle","obstacle":{"circle":{"centre":[50,0],"radius":10}}})",
        R"({"cmd":"setTurnRadius","instance":0,"radius":10})",
        R"({"cmd":"routeAround","route":0,"instance":0})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_GT(Get(r, "segments").as_number(), 1.0) << WriteJson(r);
         const JsonValue route = Item(Get(s.State(), "routes"), 0);
         EXPECT_TRUE(Get(route, "valid").as_bool());
         // No stretch within the character's clearance is left.
         ASSERT_TRUE(Ok(s.Run("assignRoute", R"("instance":0,"route":0,"mode":"once")")));
         const JsonValue checked = Item(Get(s.State(), "routes"), 0);
         EXPECT_EQ(Get(checked, "crossing").as_array().size(), 0u) << WriteJson(checked);
         EXPECT_EQ(Get(checked, "tight").as_array().size(), 0u) << WriteJson(checked);
       }},
      {"setLight",
       {R"({"cmd":"setLight","azimuth":-30,"elevation":15})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue light = Get(s.State(), "light");
         EXPECT_DOUBLE_EQ(Get(light, "azimuth").as_number(), 330.0);
         EXPECT_DOUBLE_EQ(Get(light, "elevation").as_number(), 15.0);
       }},
      {"setShading",
       {R"({"cmd":"setShading","specular":false,"channel":"diffuse"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const JsonValue shading = Get(s.State(), "shading");
         EXPECT_FALSE(Get(shading, "specular").as_bool());
         EXPECT_TRUE(Get(shading, "normalMaps").as_bool());  // not named: kept
         EXPECT_EQ(Get(shading, "channel").as_string(), "diffuse");
       }},
      // The null backend cannot read skinned positions back.
      {"gpuSkinCheck",
       {R"({"cmd":"gpuSkinCheck","instance":0})"},
       false,
       [](TestStage&, const JsonValue& r) {
         EXPECT_EQ(Error(r), "gpuSkinCheck: the renderer cannot read skinned positions back");
       }},
      {"screenBounds",
       {R"({"cmd":"screenBounds","instance":0})"},
       true,
       [](TestStage&, const JsonValue& r) {
         const JsonValue& rect = Get(r, "rect");
         ASSERT_EQ(rect.as_array().size(), 4u);
         EXPECT_LT(Item(rect, 0).as_number(), Item(rect, 2).as_number());
         EXPECT_LT(Item(rect, 1).as_number(), Item(rect, 3).as_number());
       }},
      {"clip",
       {R"({"cmd":"setAnimation","instance":0,"name":"walk"})",
        R"({"cmd":"setTime","instance":0,"time":0.5})",
        R"({"cmd":"setRate","instance":0,"rate":2})", R"({"cmd":"pause","instance":0})",
        R"({"cmd":"clip","instance":0})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         const JsonValue instance = Item(Get(s.State(), "instances"), 0);
         EXPECT_EQ(Get(r, "animation").as_string(), "walk");
         EXPECT_EQ(Get(r, "animation").as_string(), Get(instance, "animation").as_string());
         EXPECT_DOUBLE_EQ(Get(r, "time").as_number(), 0.5);
         EXPECT_EQ(Get(r, "rate").as_number(), 2.0);
         EXPECT_FALSE(Get(r, "playing").as_bool());
         EXPECT_GT(Get(r, "duration").as_number(), 0.5);
         const JsonValue& names = Get(r, "animations");
         ASSERT_GE(names.as_array().size(), 2u);
         EXPECT_EQ(WriteJson(names),
                   WriteJson(Get(Item(Get(s.State(), "models"), 0), "animations")));
       }},
      // The walker stands at the origin, about 70 units tall, facing the camera on +x: a point
      // on the far side of it is hidden, one on the near side seen; its pelvis is seen (its own
      // hips in front of it do not hide it) at the pixel of the joint's world point.
      {"locate",
       {R"({"cmd":"camera","target":[0,0,35],"yaw":0,"pitch":0,"distance":300})",
        R"({"cmd":"locate","instance":0,"joint":"pelvis"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         const JsonValue matrix =
             Get(s.Run("jointWorld", R"("instance":0,"joint":"pelvis")"), "matrix");
         const JsonValue& world = Get(r, "world");
         for (int i = 0; i < 3; ++i) {
           EXPECT_NEAR(Item(world, i).as_number(), Item(matrix, 12 + i).as_number(), 1e-4);
         }
         EXPECT_TRUE(Get(r, "visible").as_bool());
         const JsonValue at = s.Run("screenAt", R"("point":)" + WriteJson(world));
         EXPECT_NEAR(Item(Get(r, "pixel"), 0).as_number(), Item(Get(at, "pixel"), 0).as_number(),
                     1e-6);
         EXPECT_NEAR(Item(Get(r, "pixel"), 1).as_number(), Item(Get(at, "pixel"), 1).as_number(),
                     1e-6);
         const JsonValue behind = s.Run("locate", R"("point":[-40,0,35])");
         EXPECT_FALSE(Get(behind, "visible").as_bool()) << WriteJson(behind);
         EXPECT_TRUE(Get(behind, "pixel").is_array());
         const JsonValue in_front = s.Run("locate", R"("point":[40,0,35])");
         EXPECT_TRUE(Get(in_front, "visible").as_bool()) << WriteJson(in_front);
         const JsonValue above = s.Run("locate", R"("point":[-40,0,120])");
         EXPECT_TRUE(Get(above, "visible").as_bool()) << WriteJson(above);
         const JsonValue behind_eye = s.Run("locate", R"("point":[400,0,35])");
         EXPECT_TRUE(Get(behind_eye, "pixel").is_null()) << WriteJson(behind_eye);
         EXPECT_FALSE(Get(behind_eye, "visible").as_bool());
         const JsonValue aside = s.Run("locate", R"("point":[0,5000,35])");
         EXPECT_FALSE(Get(aside, "visible").as_bool()) << WriteJson(aside);
         EXPECT_EQ(Error(s.Run("locate", "")),
                   "locate.joint: expected one of joint, point, construction or surface, found "
                   "none or several");
         EXPECT_EQ(Error(s.Run("locate", R"("construction":"Q")")),
                   "locate.construction: expected a point of the construction shown (none), "
                   "found \"Q\"");
       }},
      // model-viewer's data-surface: a triangle of a mesh part and barycentric weights, placed on
      // the skinned surface as the core's CPU twin of the vertex shader (PaletteSkinningJob)
      // skins its vertices, in the walk's pose now and 0.4 s later; bad triangles and weights
      // are refused naming surface.
      {"locate",
       {R"({"cmd":"setAnimation","instance":0,"name":"walk"})",
        R"({"cmd":"locate","instance":0,"surface":[0,10,1,0,0]})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const LoadedModel& model = s.viewer.models()[0];
         const anim::GpuSkinData& gpu = model.model->gpu();
         ASSERT_FALSE(gpu.submeshes.empty());
         const anim::GpuSubmesh& part = gpu.submeshes[0];
         ASSERT_GT(part.index_count, 3u * 11);
         for (double dt : {0.0, 0.4}) {
           s.viewer.Update(dt);
           s.viewer.JointWorld(0, 0);  // posed now
           std::vector<glm::vec3> skinned(gpu.vertices.size());
           anim::PaletteSkinningJob job;
           job.model = model.model.get();
           job.palette = s.viewer.characters()[0].pose.palette;
           job.positions = skinned;
           ASSERT_TRUE(job.Validate() && job.Run());
           const auto vertex = [&](int k) {
             return skinned[gpu.indices[part.first_index + 3 * 10 + static_cast<uint32_t>(k)]];
           };
           struct Case {
             const char* weights;
             glm::vec3 expected;
           };
           for (const Case& c :
                {Case{"1,0,0", vertex(0)}, Case{"0,0,2", vertex(2)},
                 Case{"1,1,0", 0.5f * (vertex(0) + vertex(1))},
                 Case{"0.2,0.3,0.5", 0.2f * vertex(0) + 0.3f * vertex(1) + 0.5f * vertex(2)}}) {
             SCOPED_TRACE(c.weights);
             const JsonValue r =
                 s.Run("locate", std::string(R"("instance":0,"surface":[0,10,)") + c.weights + "]");
             const JsonValue& world = Get(r, "world");
             for (int i = 0; i < 3; ++i) {
               EXPECT_NEAR(Item(world, i).as_number(), c.expected[i], 1e-3) << WriteJson(r);
             }
           }
         }
         for (const char* bad :
              {R"([0,10,0,0,0])", R"([0,10,-1,1,1])", R"([0,1e9,1,0,0])", R"([99,0,1,0,0])",
               R"([0,0.5,1,0,0])", R"([0,10,1,0])", R"("0 10 1 0 0")", R"([0,10,1,0,"x"])"}) {
           SCOPED_TRACE(bad);
           EXPECT_EQ(Error(s.Run("locate", std::string(R"("instance":0,"surface":)") + bad))
                         .rfind("locate.surface: expected [part, triangle, b0, b1, b2]", 0),
                     0u);
         }
       }},
      // A figure's hotspots, placed each frame as locate places one: the pelvis seen, a point
      // behind the walker hidden, one in front seen; a spot naming nothing is kept, never shown,
      // and its problem is in its place; the pelvis's spot follows the walk.
      {"setHotspots",
       {R"({"cmd":"camera","target":[0,0,35],"yaw":0,"pitch":0,"distance":300})",
        R"({"cmd":"setHotspots","spots":[{"instance":0,"joint":"pelvis"},{"point":[-40,0,35]},)"
        R"({"point":[40,0,35]},{"instance":0,"joint":"nose"},5,{"point":[0,0,1],"joint":"head"}]})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         const JsonValue& problems = Get(r, "problems");
         ASSERT_EQ(problems.as_array().size(), 6u);
         for (int i = 0; i < 3; ++i) EXPECT_TRUE(Item(problems, i).is_null()) << i;
         EXPECT_NE(Item(problems, 3).as_string().find("setHotspots.spots[3].joint:"),
                   std::string::npos)
             << WriteJson(problems);
         EXPECT_EQ(Item(problems, 4).as_string(),
                   "setHotspots.spots[4]: expected an object, found 5");
         EXPECT_NE(Item(problems, 5).as_string().find("one of joint, point, construction or"),
                   std::string::npos);
         for (double dt : {0.0, 0.4}) {
           s.viewer.Update(dt);
           s.viewer.PlaceHotspots();
           const std::vector<float>& placed = s.viewer.placed_hotspots();
           ASSERT_EQ(placed.size(), 6u * Stage::kHotspotFloats);
           const auto flags = [&](int i) { return static_cast<int>(placed[i * 3 + 2]); };
           EXPECT_EQ(flags(0), Stage::kHotspotInFront | Stage::kHotspotSeen);
           EXPECT_EQ(flags(1), Stage::kHotspotInFront) << "behind the walker";
           EXPECT_EQ(flags(2), Stage::kHotspotInFront | Stage::kHotspotSeen) << "in front";
           EXPECT_EQ(flags(3), 0);
           EXPECT_EQ(flags(4), 0);
           EXPECT_EQ(flags(5), 0);
           const JsonValue pelvis = s.Run("locate", R"("instance":0,"joint":"pelvis")");
           EXPECT_NEAR(placed[0], Item(Get(pelvis, "pixel"), 0).as_number(), 1e-3);
           EXPECT_NEAR(placed[1], Item(Get(pelvis, "pixel"), 1).as_number(), 1e-3);
         }
         s.Run("setAnimation", R"("instance":0,"name":"walk")");
         s.viewer.Update(0.0);
         s.viewer.PlaceHotspots();
         const float x0 = s.viewer.placed_hotspots()[0], y0 = s.viewer.placed_hotspots()[1];
         s.viewer.Update(0.3);
         s.viewer.PlaceHotspots();
         const float moved = std::abs(s.viewer.placed_hotspots()[0] - x0) +
                             std::abs(s.viewer.placed_hotspots()[1] - y0);
         EXPECT_GT(moved, 0.5f) << "the pelvis's hotspot did not follow the walk";
         s.Run("setHotspots", R"("spots":[])");
         s.viewer.PlaceHotspots();
         EXPECT_TRUE(s.viewer.placed_hotspots().empty());
         EXPECT_NE(Error(s.Run("setHotspots", R"("spots":{})")).find("setHotspots.spots:"),
                   std::string::npos);
       }},
      {"jointWorld",
       {R"({"cmd":"jointWorld","instance":0,"joint":"pelvis"})"},
       true,
       [](TestStage&, const JsonValue& r) {
         const JsonValue& m = Get(r, "matrix");
         ASSERT_EQ(m.as_array().size(), 16u);
         EXPECT_NEAR(Item(m, 14).as_number(), 38.5, 5.0);  // the pelvis's height, about
         EXPECT_EQ(Item(m, 15).as_number(), 1.0);
       }},
      // ---- what the panels send that had no command before ----
      {"setCrossfade",
       {R"({"cmd":"setCrossfade","instance":0,"crossfade":0.75})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(s.viewer.BuildViewerModel().instances[0].crossfade_seconds, 0.75f);
       }},
      {"setLocomotionAnimation",
       {R"({"cmd":"setLocomotionAnimation","instance":0,"name":"idle"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_EQ(s.viewer.BuildViewerModel().instances[0].locomotion_animation, 0);  // idle
         ASSERT_TRUE(Ok(s.Run("setLocomotionAnimation", R"("instance":0,"name":null)")));
         EXPECT_EQ(s.viewer.BuildViewerModel().instances[0].locomotion_animation, -1);
       }},
      {"editAttachment",
       {R"({"cmd":"attach","instance":0,"model":"walker","joint":"pelvis"})",
        R"({"cmd":"editAttachment","instance":0,"attachment":0,"offset":[1,2,3]})"},
       true,
       [](TestStage& s, const JsonValue&) {
         const ui::AttachmentSummary a = s.viewer.BuildViewerModel().instances[0].attachments[0];
         EXPECT_EQ(a.offset, glm::vec3(1, 2, 3));
         EXPECT_EQ(a.rotation_degrees, glm::vec3(0.0f));  // not given: kept
         ASSERT_TRUE(
             Ok(s.Run("editAttachment", R"("instance":0,"attachment":0,"rotation":[0,90,0])")));
         const ui::AttachmentSummary b = s.viewer.BuildViewerModel().instances[0].attachments[0];
         EXPECT_EQ(b.offset, glm::vec3(1, 2, 3));
         EXPECT_EQ(b.rotation_degrees, glm::vec3(0, 90, 0));
       }},
      {"detach",
       {R"({"cmd":"attach","instance":0,"model":"walker","joint":"pelvis"})",
        R"({"cmd":"detach","instance":0,"attachment":0})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(Get(s.Instance0(), "attachments").as_array().empty());
         EXPECT_EQ(Error(s.Run("detach", R"("instance":0,"attachment":0)")),
                   "detach.attachment: expected an attachment index (the character carries "
                   "nothing), found 0");
       }},
      {"editRoute",
       {R"({"cmd":"editRoute","route":0})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "edited_route").as_number(), 0.0);
         EXPECT_EQ(s.viewer.BuildViewerModel().edited_route, 0);
         ASSERT_TRUE(Ok(s.Run("editRoute", R"("route":-1)")));
         EXPECT_EQ(s.viewer.BuildViewerModel().edited_route, -1);
       }},
      {"toggleRouteLoop",
       {R"({"cmd":"setRoute","route":{"segments":[{"line":[[0,0],[100,0]]},{"line":[[100,0],[100,80]]}]}})",
        R"({"cmd":"editRoute","route":1})", R"({"cmd":"toggleRouteLoop"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_TRUE(Get(r, "closed").as_bool());
         EXPECT_TRUE(s.viewer.BuildViewerModel().routes[1].closed);
       }},
      // Nothing is selected on the route just taken up: nothing is deleted.
      {"deleteRoutePoint",
       {R"({"cmd":"editRoute","route":0})", R"({"cmd":"deleteRoutePoint"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "anchors").as_number(), 2.0);
         EXPECT_EQ(s.viewer.BuildViewerModel().routes[0].points, 1);
       }},
      {"setRoundCorners",
       {R"({"cmd":"setRoundCorners","round":true})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(s.viewer.BuildViewerModel().auto_round_corners);
       }},
      {"setObstacleShape",
       {R"({"cmd":"setObstacleShape","shape":"polygon"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         EXPECT_TRUE(s.viewer.BuildViewerModel().obstacle_polygon_shape);
       }},
      // With no polygon being drawn there is nothing to close.
      {"closePolygon",
       {R"({"cmd":"closePolygon"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "obstacles").as_number(), 0.0);
         EXPECT_TRUE(Get(s.State(), "obstacles").as_array().empty());
       }},
      // Without a host there is no page to ask; actions_test and tests/ui check what reaches it.
      {"openFiles", {R"({"cmd":"openFiles"})"}, true, [](TestStage&, const JsonValue&) {}},
      {"pageAction",
       {R"({"cmd":"pageAction","action":"demo:turns"})"},
       true,
       [](TestStage& s, const JsonValue&) {
         // Every button of the Scene panel that asks the page (panels.cpp) is accepted.
         for (const char* action : {"copyLink", "copyEmbed", "copyFigure", "downloadPoster"}) {
           const JsonValue reply =
               s.Run("pageAction", std::string(R"("action":")") + action + "\"");
           EXPECT_TRUE(Ok(reply)) << action << ": " << WriteJson(reply);
         }
         EXPECT_EQ(Error(s.Run("pageAction", R"("action":"rm -rf")")),
                   R"(pageAction.action: expected copyLink, copyEmbed, copyFigure, )"
                   R"(downloadPoster or demo:NAME, found "rm -rf")");
       }},
      // Without a host nothing is downloaded; the reply says what the .glb holds
      // (tests/viewer/gltf_download_test.cpp reads the file itself).
      {"exportGltf",
       {R"({"cmd":"exportGltf","model":"walker"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         EXPECT_EQ(Get(r, "file").as_string(), "walker.glb");
         EXPECT_GT(Get(r, "bytes").as_number(), 1000.0);
         EXPECT_EQ(Get(r, "animations").as_number(), 2.0);
         EXPECT_EQ(Get(r, "images").as_number(), 1.0);
         EXPECT_EQ(s.viewer.models().size(), 1u);
       }},
      // The mesh and both animations as md5 text (tests/viewer/gltf_drop_test.cpp parses them),
      // then the diffuse image the walker's part guessed.
      {"exportMd5",
       {R"({"cmd":"exportMd5","model":"walker"})"},
       true,
       [](TestStage& s, const JsonValue& r) {
         const JsonArray& files = Get(r, "files").as_array();
         ASSERT_EQ(files.size(), 4u);
         EXPECT_EQ(files[0].as_string(), "walker.md5mesh");
         EXPECT_EQ(files[3].as_string(), "walker.png");
         EXPECT_GT(Get(r, "bytes").as_number(), 1000.0);
         EXPECT_EQ(s.viewer.models().size(), 1u);
       }},
  };
}

TEST(CommandsEffectTest, EachCommandWithValidArgumentsHasItsEffect) {
  std::set<std::string> covered;
  for (const EffectRow& row : EffectRows()) {
    SCOPED_TRACE(row.covers + ": " + row.commands.back());
    TestStage stage;
    ASSERT_NO_FATAL_FAILURE(stage.LoadWalker());
    ASSERT_NO_FATAL_FAILURE(stage.AddRoute());
    for (size_t i = 0; i + 1 < row.commands.size(); ++i) {
      const JsonValue reply = stage.Call(Parse(row.commands[i]));
      ASSERT_TRUE(NotAFailure(reply)) << row.commands[i] << " -> " << WriteJson(reply);
    }
    const JsonValue last = Parse(row.commands.back());
    EXPECT_EQ(Get(last, "cmd").as_string(), row.covers);
    const JsonValue reply = stage.Call(last);
    if (row.ok) {
      EXPECT_TRUE(NotAFailure(reply)) << WriteJson(reply);
    } else {
      EXPECT_FALSE(Ok(reply)) << WriteJson(reply);
    }
    row.check(stage, reply);
    covered.insert(row.covers);
  }
  for (const std::string& name : CommandNames()) {
    EXPECT_TRUE(covered.count(name)) << "command '" << name << "' has no row in EffectRows()";
  }
}

// Commands that answer their data rather than {"ok": true, ...}.
TEST(CommandsEffectTest, WhichCommandsAnswerWithoutOk) {
  TestStage stage;
  ASSERT_NO_FATAL_FAILURE(stage.LoadWalker());
  std::vector<std::string> without_ok;
  for (const char* name : {"state", "clock", "stats", "sceneJson", "getRoutes", "shareLink"}) {
    if (stage.Run(name).Find("ok") == nullptr) without_ok.push_back(name);
  }
  // Documented here so that a change is seen; the page reads these replies' fields directly.
  EXPECT_EQ(without_ok, (std::vector<std::string>{"state", "sceneJson", "getRoutes"}));
}

// ---- playback through the viewer
// ------------------------------------------------------------------

// One step of a playback row: a command (optional), then an update by dt (dt < 0: none), then
// what state() says about instance 0.
struct PlayStep {
  std::string command;
  double dt;
  double time;
  bool playing;
  bool finished;
};

struct PlayRow {
  const char* what;
  const char* mode;
  double rate;
  double start;
  std::vector<PlayStep> steps;
};

// On "walk": 31 frames at 30 fps, 1 s long.
TEST(CommandsPlaybackTest, TheViewerPlaysWithTheCoreClock) {
  const std::string pause = R"({"cmd":"pause","instance":0})";
  const std::string play = R"({"cmd":"play","instance":0})";
  const std::vector<PlayRow> rows = {
      {"once forward holds at the end",
       "once",
       1,
       0.5,
       {{"", 0.25, 0.75, true, false}, {"", 0.5, 1.0, false, true}, {"", 1.0, 1.0, false, true}}},
      {"once at twice the rate",
       "once",
       2,
       0.0,
       {{"", 0.25, 0.5, true, false}, {"", 0.25, 1.0, false, true}}},
      {"once backwards holds at the start",
       "once",
       -1,
       0.5,
       {{"", 0.25, 0.25, true, false}, {"", 0.5, 0.0, false, true}, {"", 1.0, 0.0, false, true}}},
      {"once: play after the end starts again",
       "once",
       1,
       0.875,
       {{"", 0.25, 1.0, false, true}, {play, -1, 0.0, true, false}, {"", 0.25, 0.25, true, false}}},
      {"once backwards: play after the start starts again from the end",
       "once",
       -1,
       0.125,
       {{"", 0.25, 0.0, false, true}, {play, -1, 1.0, true, false}, {"", 0.25, 0.75, true, false}}},
      {"once with rate 0 at the end does not finish",
       "once",
       0,
       1.0,
       {{"", 1.0, 1.0, true, false}}},
      {"once: a time past the end is clamped by the next update",
       "once",
       1,
       5.0,
       {{"", 0.0, 1.0, true, false}, {"", 0.125, 1.0, false, true}}},
      {"pingpong turns at the end",
       "pingpong",
       1,
       0.75,
       {{"", 0.5, 0.75, true, false},
        {"", 0.5, 0.25, true, false},
        {"", 0.5, 0.25, true, false},
        {"", 0.25, 0.5, true, false}}},
      {"pingpong backwards turns at the start",
       "pingpong",
       -1,
       0.25,
       {{"", 0.5, 0.25, true, false}, {"", 0.5, 0.75, true, false}, {"", 0.5, 0.75, true, false}}},
      {"pingpong over several lengths in one step",
       "pingpong",
       1,
       0.0,
       {{"", 2.25, 0.25, true, false},
        {"", 3.5, 0.25, true, false},
        {"", 0.125, 0.125, true, false}}},
      {"loop wraps at the end",
       "loop",
       1,
       0.75,
       {{"", 0.5, 0.25, true, false}, {"", 2.25, 0.5, true, false}}},
      {"loop backwards wraps at the start",
       "loop",
       -1,
       0.25,
       {{"", 0.5, 0.75, true, false}, {"", 0.25, 0.5, true, false}}},
      {"loop: a time past the end is wrapped by the next update",
       "loop",
       1,
       1.5,
       {{"", 0.0, 0.5, true, false}}},
      {"loop: a time past the end is wrapped", "loop", 1, 1.25, {{"", 0.0, 0.25, true, false}}},
      {"rate 0 holds", "loop", 0, 0.5, {{"", 1.0, 0.5, true, false}, {"", 10.0, 0.5, true, false}}},
      {"paused holds, play goes on",
       "loop",
       1,
       0.25,
       {{pause, 0.5, 0.25, false, false}, {play, 0.5, 0.75, true, false}}},
      {"a rate change mid-play",
       "loop",
       1,
       0.5,
       {{"", 0.125, 0.625, true, false},
        {R"({"cmd":"setRate","instance":0,"rate":-2})", 0.125, 0.375, true, false}}},
      {"a mode change plays forwards again",
       "pingpong",
       1,
       0.75,
       {{"", 0.5, 0.75, true, false},  // on the way back
        {R"({"cmd":"setMode","instance":0,"mode":"loop"})", 0.125, 0.875, true, false}}},
      {"setTime clears finished",
       "once",
       1,
       0.875,
       {{"", 0.5, 1.0, false, true},
        {R"({"cmd":"setTime","instance":0,"time":0.5})", -1, 0.5, true, false},
        {"", 0.25, 0.75, true, false}}},
      {"pauseScene pauses the character",
       "loop",
       1,
       0.25,
       {{R"({"cmd":"pauseScene"})", 0.5, 0.25, false, false},
        {R"({"cmd":"playScene"})", 0.5, 0.75, true, false}}},
  };
  for (const PlayRow& row : rows) {
    SCOPED_TRACE(row.what);
    TestStage stage;
    ASSERT_NO_FATAL_FAILURE(stage.LoadWalker());
    ASSERT_TRUE(Ok(stage.Run("setAnimation", R"("instance":0,"name":"walk","crossfade":0)")));
    ASSERT_TRUE(
        Ok(stage.Run("setMode", std::string(R"("instance":0,"mode":")") + row.mode + "\"")));
    JsonValue rate = Cmd("setRate", R"("instance":0)");
    rate.Set("rate", row.rate);
    ASSERT_TRUE(Ok(stage.Call(rate)));
    JsonValue time = Cmd("setTime", R"("instance":0)");
    time.Set("time", row.start);
    ASSERT_TRUE(Ok(stage.Call(time)));
    int index = 0;
    for (const PlayStep& step : row.steps) {
      SCOPED_TRACE("step " + std::to_string(index++) +
                   (step.command.empty() ? "" : " " + step.command) + " dt " +
                   std::to_string(step.dt));
      if (!step.command.empty()) {
        ASSERT_TRUE(Ok(stage.Call(Parse(step.command))));
      }
      if (step.dt >= 0.0) stage.viewer.Update(step.dt);
      const JsonValue instance = stage.Instance0();
      EXPECT_NEAR(Get(instance, "time").as_number(), step.time, 1e-9);
      EXPECT_EQ(Get(instance, "playing").as_bool(), step.playing);
      EXPECT_EQ(Get(instance, "finished").as_bool(), step.finished);
    }
  }
}

}  // namespace
}  // namespace md5stage::viewer
