#include "viewer/embed_options.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "core/common/text.h"

namespace md5stage::viewer {
namespace {

// ---- form decoding (the WHATWG URL standard's application/x-www-form-urlencoded parser) ---------

// The Encoding standard's UTF-8 decoder: one U+FFFD per maximal bad subpart, the byte that broke
// a sequence read again. The same count of replacements as the browser matters because the
// decoded text is quoted back in messages and compared as an origin.
std::string DecodeUtf8(std::string_view bytes) {
  constexpr char32_t kReplacement = 0xFFFD;
  std::string out;
  out.reserve(bytes.size());
  char32_t code_point = 0;
  int needed = 0, seen = 0;
  unsigned lower = 0x80, upper = 0xBF;
  for (std::size_t i = 0; i < bytes.size();) {
    const unsigned byte = static_cast<unsigned char>(bytes[i]);
    if (needed == 0) {
      ++i;
      if (byte <= 0x7F) {
        out += static_cast<char>(byte);
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        needed = 1;
        code_point = byte & 0x1F;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        if (byte == 0xE0) lower = 0xA0;
        if (byte == 0xED) upper = 0x9F;  // no surrogates
        needed = 2;
        code_point = byte & 0x0F;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        if (byte == 0xF0) lower = 0x90;
        if (byte == 0xF4) upper = 0x8F;  // nothing above U+10FFFF
        needed = 3;
        code_point = byte & 0x07;
      } else {
        AppendUtf8(kReplacement, out);
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      code_point = 0;
      needed = seen = 0;
      lower = 0x80;
      upper = 0xBF;
      AppendUtf8(kReplacement, out);
      continue;  // this byte starts over
    }
    ++i;
    lower = 0x80;
    upper = 0xBF;
    code_point = (code_point << 6) | (byte & 0x3F);
    if (++seen == needed) {
      AppendUtf8(code_point, out);
      code_point = 0;
      needed = seen = 0;
    }
  }
  if (needed != 0) AppendUtf8(kReplacement, out);
  return out;
}

// ---- JavaScript's view of text: its white space, Number() of the numbers embed.js accepted -----

// Length of the JavaScript white space (\s, String.prototype.trim) at `text[at]`, or 0: ASCII tab,
// LF, VT, FF, CR, space, and U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000, U+FEFF. A form value holds them decoded (`t=%C2%A02` is " 2" to the browser).
std::size_t SpaceAt(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  const unsigned b0 = byte(at);
  if (b0 == ' ' || (b0 >= '\t' && b0 <= '\r')) return 1;
  if (b0 == 0xC2 && byte(at + 1) == 0xA0) return 2;
  if (b0 == 0xE1 && byte(at + 1) == 0x9A && byte(at + 2) == 0x80) return 3;  // U+1680
  if (b0 == 0xE2 && byte(at + 1) == 0x80) {
    const unsigned b2 = byte(at + 2);
    if ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF) return 3;
  }
  if (b0 == 0xE2 && byte(at + 1) == 0x81 && byte(at + 2) == 0x9F) return 3;  // U+205F
  if (b0 == 0xE3 && byte(at + 1) == 0x80 && byte(at + 2) == 0x80) return 3;  // U+3000
  if (b0 == 0xEF && byte(at + 1) == 0xBB && byte(at + 2) == 0xBF) return 3;  // U+FEFF
  return 0;
}

// Length of the white space ending at `text[end - 1]`, or 0 (every space above ends in a byte
// that is not a UTF-8 lead byte, so trying the three lengths is unambiguous).
std::size_t SpaceBefore(std::string_view text, std::size_t end) {
  for (std::size_t length = 1; length <= 3 && length <= end; ++length) {
    if (SpaceAt(text, end - length) == length) return length;
  }
  return 0;
}

std::string_view TrimJsSpace(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  for (std::size_t n; begin < end && (n = SpaceAt(text, begin)) > 0;) begin += n;
  for (std::size_t n; end > begin && (n = SpaceBefore(text, end)) > 0;) end -= n;
  return text.substr(begin, end - begin);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// embed.js's number(): /^\s*-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i, then Number(text). No '+',
// no hex, no "Infinity"/"NaN"; an exponent too large gives an infinity, which callers refuse.
std::optional<double> ParseJsNumber(std::string_view text) {
  const std::string_view core = TrimJsSpace(text);
  std::size_t i = 0;
  if (i < core.size() && core[i] == '-') ++i;
  const std::size_t integer_start = i;
  while (i < core.size() && IsDigit(core[i])) ++i;
  const bool integer_digits = i > integer_start;
  bool fraction_digits = false;
  if (i < core.size() && core[i] == '.') {
    ++i;
    const std::size_t fraction_start = i;
    while (i < core.size() && IsDigit(core[i])) ++i;
    fraction_digits = i > fraction_start;
  }
  if (!integer_digits && !fraction_digits) return std::nullopt;
  if (i < core.size() && (core[i] == 'e' || core[i] == 'E')) {
    ++i;
    if (i < core.size() && (core[i] == '-' || core[i] == '+')) ++i;
    const std::size_t exponent_start = i;
    while (i < core.size() && IsDigit(core[i])) ++i;
    if (i == exponent_start) return std::nullopt;
  }
  if (i != core.size()) return std::nullopt;
  // The grammar is checked; strtod only converts (correctly rounded, as Number() is). A copy
  // gives it a terminator.
  const std::string copy(core);
  return std::strtod(copy.c_str(), nullptr);
}

bool IsOff(std::string_view text) {
  return text == "0" || text == "false" || text == "no" || text == "off";
}

std::string AsciiLower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

bool IsOn(std::string_view text) {
  return text.empty() || text == "1" || text == "true" || text == "yes" || text == "on";
}

// ---- the keys embed.js read ---------------------------------------------------------------------

enum OptionKey {
  kAutoplay,
  kPaused,
  kTime,
  kLoop,
  kUi,
  kCamera,
  kOrigin,
  kGrid,  // the display toggles, in DisplayOverrides' order (kToggles below)
  kSkeleton,
  kJointNames,
  kBounds,
  kWireframe,
  kNormals,
  kRoutes,
  kTurnCircles,
  kConstruction,
  kClearance,
  kAvoidance,
  kAutoRotate,
  kRotationPerSecond,
  kTimeScale,
  kShadowIntensity,
  kCrossfadeDuration,
  kKeyCount
};

constexpr std::array<std::string_view, kKeyCount> kKeyNames = {"autoplay",
                                                               "paused",
                                                               "t",
                                                               "loop",
                                                               "ui",
                                                               "camera",
                                                               "origin",
                                                               "grid",
                                                               "skeleton",
                                                               "joint_names",
                                                               "bounds",
                                                               "wireframe",
                                                               "normals",
                                                               "routes",
                                                               "turn_circles",
                                                               "construction",
                                                               "clearance",
                                                               "avoidance",
                                                               "auto_rotate",
                                                               "rotation_per_second",
                                                               "time_scale",
                                                               "shadow_intensity",
                                                               "animation_crossfade_duration"};

// A toggle's key, its field in the overrides and in the toggles themselves.
struct ToggleField {
  OptionKey key;
  std::optional<bool> DisplayOverrides::*override_field;
  bool DisplayToggles::*toggle_field;
};
constexpr std::array<ToggleField, 10> kToggles = {{
    {kGrid, &DisplayOverrides::grid, &DisplayToggles::grid},
    {kSkeleton, &DisplayOverrides::skeleton, &DisplayToggles::skeleton},
    {kJointNames, &DisplayOverrides::joint_names, &DisplayToggles::joint_names},
    {kBounds, &DisplayOverrides::bounds, &DisplayToggles::bounds},
    {kWireframe, &DisplayOverrides::wireframe, &DisplayToggles::wireframe},
    {kNormals, &DisplayOverrides::normals, &DisplayToggles::normals},
    {kRoutes, &DisplayOverrides::routes, &DisplayToggles::routes},
    {kTurnCircles, &DisplayOverrides::turn_circles, &DisplayToggles::turn_circles},
    {kConstruction, &DisplayOverrides::construction, &DisplayToggles::construction},
    {kClearance, &DisplayOverrides::clearance, &DisplayToggles::clearance},
}};
// A toggle added to DisplayToggles must get a key and a row above (and a field in
// DisplayOverrides): this breaks the build until it does.
static_assert(sizeof(DisplayToggles) == kToggles.size(), "DisplayToggles changed: update kToggles");

// The still-encoded value of each key, where it was found, and whether it was spelled
// kebab-case (`joint-names` for `joint_names`, as an HTML attribute is; model-viewer's are).
struct RawValues {
  std::array<bool, kKeyCount> has{};
  std::array<std::string_view, kKeyCount> value{};
  std::array<bool, kKeyCount> kebab{};
};

// Whether `name` is `key` with each '_' written '-' (and the key has one).
bool IsKebabSpelling(std::string_view name, std::string_view key) {
  if (name.size() != key.size() || key.find('_') == std::string_view::npos) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (name[i] != (key[i] == '_' ? '-' : key[i])) return false;
  }
  return true;
}

std::string KebabSpelling(std::string_view key) {
  std::string out(key);
  for (char& c : out) c = c == '_' ? '-' : c;
  return out;
}

// Splits on '&' into name[=value] pairs and keeps the known keys' raw values: the first of a
// repeated key, or the last when `last_wins`. Names are decoded only when they hold an escape.
void Collect(std::string_view text, bool last_wins, RawValues& out) {
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('&', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(at, end - at);
    at = end + 1;
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    const std::string_view raw_name = pair.substr(0, equals);
    const std::string_view raw_value =
        equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    std::string decoded;
    std::string_view name = raw_name;
    if (raw_name.find_first_of("%+") != std::string_view::npos) {
      decoded = DecodeFormComponent(raw_name);
      name = decoded;
    }
    for (int key = 0; key < kKeyCount; ++key) {
      const bool kebab = IsKebabSpelling(name, kKeyNames[key]);
      if (name != kKeyNames[key] && !kebab) continue;
      if (last_wins || !out.has[key]) {
        out.has[key] = true;
        out.value[key] = raw_value;
        out.kebab[key] = kebab;
      }
      break;
    }
  }
}

std::string_view WithoutPrefix(std::string_view text, char prefix) {
  return !text.empty() && text.front() == prefix ? text.substr(1) : text;
}

std::string Problem(std::string_view option, std::string_view expected, const std::string& value,
                    std::size_t max_chars = 32) {
  return "embed: " + std::string(option) + ": expected " + std::string(expected) + ", found " +
         QuoteJsonExcerpt(value, max_chars);
}

// A toggle: present means on (`skeleton`, `skeleton=1`, `skeleton=yes`, and `skeleton=skeleton`,
// an HTML boolean attribute's form), 0/false/no/off mean off, in any case. Any other value is a
// problem naming the option, which keeps its default: a value nobody meant as on (a URL, markup,
// "NaN") does not turn it on. ASCII lowering suffices: no other character lowers to these letters.
std::optional<bool> FlagValue(std::string_view option, const std::string& value,
                              std::vector<std::string>& problems) {
  const std::string lower = AsciiLower(value);
  if (IsOn(lower) || lower == option) return true;
  if (IsOff(lower)) return false;
  problems.push_back(Problem(option, "nothing, 1/true/yes/on or 0/false/no/off (any case)", value));
  return std::nullopt;
}

std::optional<EmbedLoop> ParseLoop(const std::string& text, std::vector<std::string>& problems) {
  if (text.empty() || text == "1") return EmbedLoop{true, 0.0, 0.0};
  // embed.js: /^([0-9.]+)-([0-9.]+)$/, each side then read by number(); no spaces, no signs.
  const std::size_t dash = text.find('-');
  const auto plain = [](std::string_view part) {
    if (part.empty()) return false;
    for (const char c : part) {
      if (!IsDigit(c) && c != '.') return false;
    }
    return true;
  };
  if (dash != std::string::npos) {
    const std::string_view a = std::string_view(text).substr(0, dash);
    const std::string_view b = std::string_view(text).substr(dash + 1);
    if (plain(a) && plain(b)) {
      const std::optional<double> start = ParseJsNumber(a), end = ParseJsNumber(b);
      if (start && end && *start >= 0.0 && *end > *start && *end <= kMaxEmbedNumber) {
        return EmbedLoop{false, *start, *end};
      }
    }
  }
  // "off" words turn the option off silently; case matters here (embed.js did not lower them).
  if (!IsOff(text)) {
    problems.push_back(
        Problem("loop", "A-B with 0 <= A < B <= 1000000 (seconds), or no value", text));
  }
  return std::nullopt;
}

std::optional<EmbedCamera> ParseCamera(const std::string& text,
                                       std::vector<std::string>& problems) {
  std::array<double, 6> values{};
  std::size_t count = 0;
  bool valid = true;
  std::size_t at = 0;
  for (;;) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    const std::optional<double> value = ParseJsNumber(std::string_view(text).substr(at, end - at));
    if (!value || !std::isfinite(*value) || std::fabs(*value) > kMaxEmbedNumber ||
        count >= values.size()) {
      valid = false;
    } else {
      values[count] = *value + 0.0;  // -0 is 0
    }
    ++count;
    if (end == text.size()) break;
    at = end + 1;
  }
  if (!valid || (count != 3 && count != 6)) {
    problems.push_back(Problem("camera",
                               "yaw,pitch,distance[,tx,ty,tz] (3 or 6 numbers, each from -1000000 "
                               "to 1000000)",
                               text, 64));
    return std::nullopt;
  }
  EmbedCamera camera{values[0], values[1], values[2], std::nullopt};
  if (count == 6) camera.target = glm::dvec3(values[3], values[4], values[5]);
  return camera;
}

// model-viewer's angle: NUMBERdeg, NUMBERrad, or a bare number in radians; degrees out.
std::optional<double> ParseAngleDegrees(const std::string& option, const std::string& text,
                                        std::vector<std::string>& problems) {
  constexpr double kDegreesPerRadian = 57.29577951308232;
  std::string_view number = TrimJsSpace(text);
  double scale = kDegreesPerRadian;
  const auto ends_with = [&](std::string_view unit) {
    return number.size() > unit.size() && number.substr(number.size() - unit.size()) == unit;
  };
  if (ends_with("deg")) {
    number.remove_suffix(3);
    scale = 1.0;
  } else if (ends_with("rad")) {
    number.remove_suffix(3);
  }
  const std::optional<double> value = ParseJsNumber(number);
  if (value && std::fabs(*value * scale) <= kMaxEmbedRotationDegrees) return *value * scale + 0.0;
  problems.push_back(Problem(option,
                             "an angle per second: NUMBERdeg, NUMBERrad or NUMBER (radians), at "
                             "most 3600deg either way",
                             text));
  return std::nullopt;
}

// A number in [0, max] (the value given), else a problem naming the option; absent: nullopt.
std::optional<double> BoundedNumber(const std::string& option,
                                    const std::optional<std::string>& text, double max,
                                    std::string_view expected, std::vector<std::string>& problems) {
  if (!text) return std::nullopt;
  const std::optional<double> value = ParseJsNumber(*text);
  if (value && *value >= 0.0 && *value <= max) return *value + 0.0;
  problems.push_back(Problem(option, expected, *text));
  return std::nullopt;
}

std::vector<std::string> ParseOrigins(const std::string& text) {
  std::vector<std::string> origins;
  std::size_t at = 0;
  for (;;) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    // An empty item is no URL: the page would drop it anyway.
    const std::string_view item = TrimJsSpace(std::string_view(text).substr(at, end - at));
    if (!item.empty()) origins.emplace_back(item);
    if (end == text.size()) break;
    at = end + 1;
  }
  return origins;
}

}  // namespace

bool DisplayOverrides::empty() const {
  for (const ToggleField& toggle : kToggles) {
    if ((this->*toggle.override_field).has_value()) return false;
  }
  return true;
}

DisplayToggles DisplayOverrides::AppliedTo(DisplayToggles display) const {
  for (const ToggleField& toggle : kToggles) {
    const std::optional<bool>& value = this->*toggle.override_field;
    if (value) display.*toggle.toggle_field = *value;
  }
  return display;
}

std::string DecodeFormComponent(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      bytes += ' ';
    } else if (c == '%' && i + 2 < text.size() && HexDigitValue(text[i + 1]) >= 0 &&
               HexDigitValue(text[i + 2]) >= 0) {
      bytes += static_cast<char>(HexDigitValue(text[i + 1]) * 16 + HexDigitValue(text[i + 2]));
      i += 2;
    } else {
      bytes += c;
    }
  }
  return DecodeUtf8(bytes);
}

Result<EmbedOptions> ParseEmbedOptions(std::string_view query, std::string_view fragment) {
  if (query.size() + fragment.size() > kMaxEmbedUrlChars) {
    return MakeError("embed", 0, 0,
                     "expected a query and fragment of at most " +
                         std::to_string(kMaxEmbedUrlChars) + " characters, found " +
                         std::to_string(query.size() + fragment.size()));
  }
  // URLSearchParams drops one leading '?'; embed.js also dropped the '#' of location.hash first.
  RawValues from_query, from_fragment;
  Collect(WithoutPrefix(query, '?'), /*last_wins=*/false, from_query);
  Collect(WithoutPrefix(WithoutPrefix(fragment, '#'), '?'), /*last_wins=*/true, from_fragment);

  std::array<std::optional<std::string>, kKeyCount> values;
  std::array<std::string, kKeyCount> spelled;  // the key as the page wrote it: problems name it
  for (int key = 0; key < kKeyCount; ++key) {
    const RawValues& from = from_fragment.has[key] ? from_fragment : from_query;
    if (from.has[key]) values[key] = DecodeFormComponent(from.value[key]);
    spelled[key] = from.kebab[key] ? KebabSpelling(kKeyNames[key]) : std::string(kKeyNames[key]);
  }

  EmbedOptions options;
  std::vector<std::string>& problems = options.problems;
  if (values[kAutoplay]) options.autoplay = FlagValue("autoplay", *values[kAutoplay], problems);
  options.paused =
      values[kPaused] && FlagValue("paused", *values[kPaused], problems).value_or(false);
  // `ui=` (empty) is the default, as `params.get('ui') || 'min'` made it.
  if (values[kUi] && !values[kUi]->empty() && *values[kUi] != "min") {
    if (*values[kUi] == "none") {
      options.ui = EmbedUi::kNone;
    } else {
      problems.push_back(Problem("ui", "none or min", *values[kUi]));
    }
  }
  if (values[kTime]) {
    const std::optional<double> time = ParseJsNumber(*values[kTime]);
    if (!time || *time < 0.0) {
      problems.push_back(Problem("t", "seconds >= 0", *values[kTime]));
    } else if (!(*time <= kMaxEmbedNumber)) {  // 1e400 reads as infinity
      problems.push_back(Problem("t", "seconds <= 1000000", *values[kTime]));
    } else {
      options.time = *time + 0.0;  // -0 is 0
    }
  }
  if (values[kLoop]) options.loop = ParseLoop(*values[kLoop], problems);
  if (values[kCamera]) options.camera = ParseCamera(*values[kCamera], problems);
  for (const ToggleField& toggle : kToggles) {
    if (values[toggle.key]) {
      options.display.*toggle.override_field =
          FlagValue(spelled[toggle.key], *values[toggle.key], problems);
    }
  }
  if (values[kAvoidance]) options.avoidance = FlagValue("avoidance", *values[kAvoidance], problems);
  if (values[kOrigin]) options.origins = ParseOrigins(*values[kOrigin]);
  if (values[kAutoRotate]) {
    options.auto_rotate = FlagValue(spelled[kAutoRotate], *values[kAutoRotate], problems);
  }
  if (values[kRotationPerSecond]) {
    options.rotation_degrees_per_second =
        ParseAngleDegrees(spelled[kRotationPerSecond], *values[kRotationPerSecond], problems);
  }
  options.shadow_intensity = BoundedNumber(spelled[kShadowIntensity], values[kShadowIntensity], 1.0,
                                           "a number from 0 to 1", problems);
  options.crossfade_ms = BoundedNumber(spelled[kCrossfadeDuration], values[kCrossfadeDuration],
                                       60000.0, "milliseconds from 0 to 60000", problems);
  if (values[kTimeScale]) {
    const std::optional<double> scale = ParseJsNumber(*values[kTimeScale]);
    if (scale && *scale >= 0.0 && *scale <= kMaxEmbedTimeScale) {
      options.time_scale = *scale + 0.0;
    } else {
      problems.push_back(Problem(spelled[kTimeScale],
                                 "a number from 0 to 16 (scene seconds a second)",
                                 *values[kTimeScale]));
    }
  }
  return options;
}

std::optional<bool> EmbedStartsPlaying(const EmbedOptions& options, bool prefers_reduced_motion) {
  if (options.paused || options.autoplay == false ||
      (prefers_reduced_motion && !options.autoplay.has_value())) {
    return false;
  }
  if (options.autoplay == true) return true;
  return std::nullopt;
}

std::optional<double> EmbedStartTime(const EmbedOptions& options) {
  if (options.time) return options.time;
  if (options.loop && !options.loop->whole && options.loop->start > 0.0) return options.loop->start;
  return std::nullopt;
}

JsonValue EmbedOptionsToJson(const EmbedOptions& options) {
  JsonValue out = JsonValue::MakeObject();
  out.Set("autoplay", options.autoplay ? JsonValue(*options.autoplay) : JsonValue());
  out.Set("paused", options.paused);
  out.Set("time", options.time ? JsonValue(*options.time) : JsonValue());
  JsonValue loop;
  if (options.loop) {
    loop = JsonValue::MakeObject();
    if (options.loop->whole) {
      loop.Set("whole", true);
    } else {
      loop.Set("start", options.loop->start);
      loop.Set("end", options.loop->end);
    }
  }
  out.Set("loop", std::move(loop));
  out.Set("ui", options.ui == EmbedUi::kNone ? "none" : "min");
  JsonValue camera;
  if (options.camera) {
    camera = JsonValue::MakeObject();
    camera.Set("yaw", options.camera->yaw_degrees);
    camera.Set("pitch", options.camera->pitch_degrees);
    camera.Set("distance", options.camera->distance);
    if (options.camera->target) {
      const glm::dvec3& t = *options.camera->target;
      camera.Set("target", JsonValue(JsonArray{t.x, t.y, t.z}));
    }
  }
  out.Set("camera", std::move(camera));
  JsonValue display = JsonValue::MakeObject();
  for (const ToggleField& toggle : kToggles) {
    const std::optional<bool>& value = options.display.*toggle.override_field;
    if (value) display.Set(std::string(kKeyNames[toggle.key]), *value);
  }
  out.Set("display", std::move(display));
  JsonValue origins;
  if (options.origins) {
    origins = JsonValue::MakeArray();
    for (const std::string& origin : *options.origins) origins.Append(origin);
  }
  out.Set("origins", std::move(origins));
  if (options.avoidance) out.Set("avoidance", *options.avoidance);
  if (options.auto_rotate) out.Set("auto_rotate", *options.auto_rotate);
  if (options.rotation_degrees_per_second) {
    out.Set("rotation_per_second", *options.rotation_degrees_per_second);
  }
  if (options.time_scale) out.Set("time_scale", *options.time_scale);
  if (options.shadow_intensity) out.Set("shadow_intensity", *options.shadow_intensity);
  if (options.crossfade_ms) out.Set("animation_crossfade_duration", *options.crossfade_ms);
  return out;
}

JsonValue EmbedReplyJson(const EmbedOptions& options) {
  JsonValue reply = JsonValue::MakeObject();
  reply.Set("ok", true);
  reply.Set("options", EmbedOptionsToJson(options));
  JsonValue problems = JsonValue::MakeArray();
  for (const std::string& problem : options.problems) problems.Append(problem);
  reply.Set("problems", std::move(problems));
  return reply;
}

}  // namespace md5stage::viewer
