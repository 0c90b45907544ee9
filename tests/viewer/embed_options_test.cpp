#include "viewer/embed_options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace md5stage::viewer {
namespace {

EmbedOptions Parse(std::string_view query, std::string_view fragment) {
  Result<EmbedOptions> parsed = ParseEmbedOptions(query, fragment);
  EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
  return parsed.ok() ? parsed.value() : EmbedOptions{};
}

std::string Json(const EmbedOptions& options) { return WriteJson(EmbedOptionsToJson(options)); }

TEST(EmbedOptionsTest, NoOptionsGiveTheDefaults) {
  for (const auto& [query, fragment] : std::vector<std::pair<std::string, std::string>>{
           {"", ""}, {"?", "#"}, {"?embed", "#demo=turns"}, {"", "#&&&"}}) {
    const EmbedOptions options = Parse(query, fragment);
    EXPECT_EQ(Json(options),
              R"({"autoplay":null,"paused":false,"time":null,"loop":null,"ui":"min",)"
              R"("camera":null,"display":{},"origins":null})")
        << query << fragment;
    EXPECT_TRUE(options.problems.empty());
    EXPECT_TRUE(options.display.empty());
  }
}

// Keys embed.js never read (the scene's own, or made up) are skipped, a megabyte payload included.
TEST(EmbedOptionsTest, UnknownKeysAreIgnored) {
  const std::string payload(std::size_t{1} << 20, 'A');
  const EmbedOptions options =
      Parse("?scene=none&foo=1", "#scene=" + payload +
                                     "&demo=x&model=https://h/m.md5mesh&anim=a&"
                                     "T=3&Skeleton=1&time=2&%ZZ=1&paused");
  EXPECT_TRUE(options.problems.empty());
  EXPECT_FALSE(options.time.has_value());
  EXPECT_TRUE(options.display.empty());
  EXPECT_TRUE(options.paused);
}

struct FlagCase {
  const char* fragment;
  std::optional<bool> autoplay;
  bool paused;
  const char* problem;  // nullptr: none
};

TEST(EmbedOptionsTest, FlagsAreOnOrOffByTheirWordsAndAnythingElseIsAProblem) {
  const FlagCase cases[] = {
      {"", std::nullopt, false, nullptr},
      {"autoplay", true, false, nullptr},
      {"autoplay=", true, false, nullptr},
      {"autoplay=1", true, false, nullptr},
      {"autoplay=yes", true, false, nullptr},
      {"autoplay=TRUE", true, false, nullptr},
      {"autoplay=On", true, false, nullptr},
      {"autoplay=autoplay", true, false, nullptr},  // an HTML boolean attribute's form
      {"autoplay=0", false, false, nullptr},
      {"autoplay=false", false, false, nullptr},
      {"autoplay=FALSE", false, false, nullptr},
      {"autoplay=No", false, false, nullptr},
      {"autoplay=oFf", false, false, nullptr},
      {"autoplay=%30", false, false, nullptr},        // "0", escaped
      {"autoplay=%4F%46%46", false, false, nullptr},  // "OFF"
      {"paused", std::nullopt, true, nullptr},
      {"paused=1", std::nullopt, true, nullptr},
      {"paused=paused", std::nullopt, true, nullptr},
      {"paused=0", std::nullopt, false, nullptr},
      {"paused=off&autoplay=0", false, false, nullptr},
      {"%70aused", std::nullopt, true, nullptr},  // the key is decoded too
      // Neither on nor off: the option keeps its default and the problem names it.
      {"autoplay=anything", std::nullopt, false,
       R"(embed: autoplay: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found "anything")"},
      {"autoplay=+", std::nullopt, false,  // a space is neither
       R"(embed: autoplay: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found " ")"},
      {"autoplay=%200", std::nullopt, false,  // " 0": not trimmed for flags
       R"(embed: autoplay: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found " 0")"},
      {"autoplay=javascript:alert(1)", std::nullopt, false,
       R"x(embed: autoplay: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found "javascript:alert(1)")x"},
      {"paused=NaN", std::nullopt, false,
       R"(embed: paused: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found "NaN")"},
      {"paused=pause", std::nullopt, false,
       R"(embed: paused: expected nothing, 1/true/yes/on or 0/false/no/off (any case), found "pause")"},
  };
  for (const FlagCase& c : cases) {
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.autoplay, c.autoplay) << c.fragment;
    EXPECT_EQ(options.paused, c.paused) << c.fragment;
    if (c.problem == nullptr) {
      EXPECT_TRUE(options.problems.empty()) << c.fragment;
    } else {
      EXPECT_EQ(options.problems, std::vector<std::string>{c.problem}) << c.fragment;
    }
  }
}

struct TimeCase {
  const char* fragment;
  std::optional<double> time;
  const char* problem;  // nullptr: none
};

TEST(EmbedOptionsTest, TimeIsSecondsFromZeroToAMillion) {
  const TimeCase cases[] = {
      {"t=2.5", 2.5, nullptr},
      {"t=0", 0.0, nullptr},
      {"t=-0", 0.0, nullptr},
      {"t=1.", 1.0, nullptr},
      {"t=.5", 0.5, nullptr},
      {"t=2E1", 20.0, nullptr},
      {"t=25e-1", 2.5, nullptr},
      {"t=1e6", 1e6, nullptr},
      {"t=0.1", 0.1, nullptr},  // correctly rounded, as Number() reads it
      {"t=%202%20", 2.0, nullptr},
      {"t=+2", 2.0, nullptr},                   // '+' is a space
      {"t=%09%0A2%0D", 2.0, nullptr},           // ASCII white space
      {"t=%C2%A02", 2.0, nullptr},              // U+00A0
      {"t=%EF%BB%BF2", 2.0, nullptr},           // U+FEFF
      {"t=2%E3%80%80", 2.0, nullptr},           // U+3000
      {"t=%E2%80%A82%E2%80%A9", 2.0, nullptr},  // U+2028, U+2029
      {"t=soon", std::nullopt, R"(embed: t: expected seconds >= 0, found "soon")"},
      {"t=", std::nullopt, R"(embed: t: expected seconds >= 0, found "")"},
      {"t", std::nullopt, R"(embed: t: expected seconds >= 0, found "")"},
      {"t=-1", std::nullopt, R"(embed: t: expected seconds >= 0, found "-1")"},
      {"t=-1e400", std::nullopt, R"(embed: t: expected seconds >= 0, found "-1e400")"},
      {"t=NaN", std::nullopt, R"(embed: t: expected seconds >= 0, found "NaN")"},
      {"t=Infinity", std::nullopt, R"(embed: t: expected seconds >= 0, found "Infinity")"},
      {"t=inf", std::nullopt, R"(embed: t: expected seconds >= 0, found "inf")"},
      {"t=%2B2", std::nullopt, R"(embed: t: expected seconds >= 0, found "+2")"},  // no signs
      {"t=0x10", std::nullopt, R"(embed: t: expected seconds >= 0, found "0x10")"},
      {"t=.", std::nullopt, R"(embed: t: expected seconds >= 0, found ".")"},
      {"t=1e", std::nullopt, R"(embed: t: expected seconds >= 0, found "1e")"},
      {"t=1,5", std::nullopt, R"(embed: t: expected seconds >= 0, found "1,5")"},
      {"t=1%202", std::nullopt, R"(embed: t: expected seconds >= 0, found "1 2")"},
      {"t=%E2%80%8B2", std::nullopt, "embed: t: expected seconds >= 0, found \"\u200b2\""},
      {"t=1000000.5", std::nullopt, R"(embed: t: expected seconds <= 1000000, found "1000000.5")"},
      {"t=1e400", std::nullopt, R"(embed: t: expected seconds <= 1000000, found "1e400")"},
      {"t=%22%5C", std::nullopt, R"(embed: t: expected seconds >= 0, found "\"\\")"},
  };
  for (const TimeCase& c : cases) {
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.time, c.time) << c.fragment;
    if (options.time) {
      EXPECT_FALSE(std::signbit(*options.time)) << c.fragment;
    }
    if (c.problem) {
      EXPECT_EQ(options.problems, std::vector<std::string>{c.problem}) << c.fragment;
    } else {
      EXPECT_TRUE(options.problems.empty()) << c.fragment << ": " << options.problems.front();
    }
  }
}

TEST(EmbedOptionsTest, LongValuesAreCutInMessages) {
  const EmbedOptions options =
      Parse("", "t=" + std::string(40, '9') + "x&camera=" + std::string(70, '1') + "&ui=%C3%A9" +
                    std::string(40, 'u'));
  ASSERT_EQ(options.problems.size(), 3u);
  EXPECT_EQ(options.problems[0],
            "embed: ui: expected none or min, found \"\u00e9" + std::string(31, 'u') + "\"...");
  EXPECT_EQ(options.problems[1],
            "embed: t: expected seconds >= 0, found \"" + std::string(32, '9') + "\"...");
  EXPECT_EQ(options.problems[2].substr(options.problems[2].find("found")),
            "found \"" + std::string(64, '1') + "\"...");
}

struct LoopCase {
  const char* fragment;
  const char* loop_json;  // as EmbedOptionsToJson writes it
  bool problem;
};

TEST(EmbedOptionsTest, LoopIsARangeAToBOrTheWholeScene) {
  const LoopCase cases[] = {
      {"loop", R"({"whole":true})", false},
      {"loop=", R"({"whole":true})", false},
      {"loop=1", R"({"whole":true})", false},
      {"loop=1-1.6", R"({"start":1,"end":1.6})", false},
      {"loop=0-5", R"({"start":0,"end":5})", false},
      {"loop=.5-1.", R"({"start":0.5,"end":1})", false},
      {"loop=0-1000000", R"({"start":0,"end":1000000})", false},
      {"loop=1%2D2", R"({"start":1,"end":2})", false},  // an escaped '-'
      {"loop=0", "null", false},                        // "off" words: no loop, no message
      {"loop=false", "null", false},
      {"loop=no", "null", false},
      {"loop=off", "null", false},
      {"loop=OFF", "null", true},  // ... in lower case only
      {"loop=true", "null", true},
      {"loop=yes", "null", true},
      {"loop=9-3", "null", true},  // A > B
      {"loop=3-3", "null", true},  // A = B
      {"loop=1-", "null", true},   // no B
      {"loop=-2", "null", true},   // no A
      {"loop=-1-2", "null", true},
      {"loop=1-2-3", "null", true},
      {"loop=1..2-3", "null", true},
      {"loop=.-1", "null", true},
      {"loop=1-1e3", "null", true},  // no exponents
      {"loop=+1-2", "null", true},   // no spaces
      {"loop=1-2%20", "null", true},
      {"loop=0-1000000.5", "null", true},
      {"loop=0-NaN", "null", true},
  };
  for (const LoopCase& c : cases) {
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(WriteJson(EmbedOptionsToJson(options).Find("loop")[0]), c.loop_json) << c.fragment;
    EXPECT_EQ(options.problems.size(), c.problem ? 1u : 0u) << c.fragment;
  }
  EXPECT_EQ(Parse("", "loop=9-3").problems,
            std::vector<std::string>{
                R"(embed: loop: expected A-B with 0 <= A < B <= 1000000 (seconds), or no value, )"
                R"(found "9-3")"});
}

struct CameraCase {
  const char* fragment;
  const char* camera_json;
};

TEST(EmbedOptionsTest, CameraIsThreeOrSixBoundedNumbers) {
  const CameraCase cases[] = {
      {"camera=-40,35,650,0,90,35", R"({"yaw":-40,"pitch":35,"distance":650,"target":[0,90,35]})"},
      {"camera=30,20,300", R"({"yaw":30,"pitch":20,"distance":300})"},
      {"camera=+1+,%092%09,3", R"({"yaw":1,"pitch":2,"distance":3})"},
      {"camera=1%2C2%2C3", R"({"yaw":1,"pitch":2,"distance":3})"},  // escaped commas
      {"camera=-0,0,1e6", R"({"yaw":0,"pitch":0,"distance":1000000})"},
      {"camera=-1e6,.5,1.", R"({"yaw":-1000000,"pitch":0.5,"distance":1})"},
      {"camera=1,2", "null"},
      {"camera=1,2,3,4", "null"},
      {"camera=1,2,3,4,5", "null"},
      {"camera=1,2,3,4,5,6,7", "null"},
      {"camera=1,2,3,", "null"},
      {"camera=,1,2", "null"},
      {"camera=", "null"},
      {"camera", "null"},
      {"camera=1,2,NaN", "null"},
      {"camera=1,2,Infinity", "null"},
      {"camera=1,2,1e400", "null"},
      {"camera=1,2,1000000.5", "null"},
      {"camera=1,-1000001,3", "null"},
      {"camera=1;2;3", "null"},
      {"camera=a,b,c,d,e,f", "null"},
  };
  for (const CameraCase& c : cases) {
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(WriteJson(EmbedOptionsToJson(options).Find("camera")[0]), c.camera_json)
        << c.fragment;
    EXPECT_EQ(options.problems.size(), std::string(c.camera_json) == "null" ? 1u : 0u)
        << c.fragment;
  }
  EXPECT_EQ(Parse("", "camera=1,2").problems,
            std::vector<std::string>{
                "embed: camera: expected yaw,pitch,distance[,tx,ty,tz] (3 or 6 numbers, each "
                "from -1000000 to 1000000), found \"1,2\""});
}

struct UiCase {
  const char* fragment;
  EmbedUi ui;
  const char* problem;
};

TEST(EmbedOptionsTest, UiIsNoneOrMin) {
  const UiCase cases[] = {
      {"ui=none", EmbedUi::kNone, nullptr},
      {"ui=min", EmbedUi::kMin, nullptr},
      {"ui=", EmbedUi::kMin, nullptr},
      {"ui", EmbedUi::kMin, nullptr},
      {"ui=None", EmbedUi::kMin, R"(embed: ui: expected none or min, found "None")"},
      {"ui=%3Cb%3E", EmbedUi::kMin, R"(embed: ui: expected none or min, found "<b>")"},
      {"ui=none%20", EmbedUi::kMin, R"(embed: ui: expected none or min, found "none ")"},
      {"ui=%00", EmbedUi::kMin, R"(embed: ui: expected none or min, found "\u0000")"},
  };
  for (const UiCase& c : cases) {
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.ui, c.ui) << c.fragment;
    if (c.problem) {
      EXPECT_EQ(options.problems, std::vector<std::string>{c.problem}) << c.fragment;
    } else {
      EXPECT_TRUE(options.problems.empty()) << c.fragment;
    }
  }
}

TEST(EmbedOptionsTest, DisplayTogglesAreOverridesOfTheScene) {
  const EmbedOptions options =
      Parse("?grid=0",
            "#skeleton=1&wireframe&routes=OFF&turn_circles=no&joint_names=yes&"
            "bounds=1&normals=0&construction=1&clearance");
  EXPECT_EQ(WriteJson(EmbedOptionsToJson(options).Find("display")[0]),
            R"({"grid":false,"skeleton":true,"joint_names":true,"bounds":true,)"
            R"("wireframe":true,"normals":false,"routes":false,"turn_circles":false,)"
            R"("construction":true,"clearance":true})");
  EXPECT_FALSE(options.display.empty());
  EXPECT_TRUE(options.problems.empty());

  // A toggle whose value is neither on nor off is a problem naming it and overrides nothing.
  const EmbedOptions bad = Parse("", "#grid=javascript:x&joint_names=NaN&skeleton=skeleton");
  EXPECT_EQ(WriteJson(EmbedOptionsToJson(bad).Find("display")[0]), R"({"skeleton":true})");
  ASSERT_EQ(bad.problems.size(), 2u);
  EXPECT_EQ(bad.problems[0].rfind("embed: grid: expected nothing, 1/true/yes/on", 0), 0u)
      << bad.problems[0];
  EXPECT_EQ(bad.problems[1].rfind("embed: joint_names: expected nothing", 0), 0u)
      << bad.problems[1];

  // Kebab-case spellings (joint-names, turn-circles, as HTML attributes are) mean the same; a
  // problem names the spelling written; the fragment's last spelling of a key wins.
  const EmbedOptions kebab = Parse("", "#joint-names&turn-circles=0&grid-lines=1");
  EXPECT_EQ(WriteJson(EmbedOptionsToJson(kebab).Find("display")[0]),
            R"({"joint_names":true,"turn_circles":false})");
  EXPECT_TRUE(kebab.problems.empty());
  EXPECT_EQ(
      WriteJson(EmbedOptionsToJson(Parse("", "#joint_names=1&joint-names=0")).Find("display")[0]),
      R"({"joint_names":false})");
  EXPECT_EQ(
      WriteJson(EmbedOptionsToJson(Parse("", "#turn-circles=turn-circles")).Find("display")[0]),
      R"({"turn_circles":true})");
  const EmbedOptions kebab_bad = Parse("", "#joint-names=NaN&auto-play=1");
  ASSERT_EQ(kebab_bad.problems.size(), 1u);
  EXPECT_EQ(kebab_bad.problems[0].rfind("embed: joint-names: expected nothing", 0), 0u)
      << kebab_bad.problems[0];
  EXPECT_FALSE(Parse("", "#auto-play").autoplay.has_value()) << "autoplay has no '_' to spell";

  DisplayToggles scene;
  scene.normals = true;
  const DisplayToggles shown = options.display.AppliedTo(scene);
  EXPECT_FALSE(shown.grid);
  EXPECT_TRUE(shown.skeleton);
  EXPECT_TRUE(shown.joint_names);
  EXPECT_TRUE(shown.bounds);
  EXPECT_TRUE(shown.wireframe);
  EXPECT_FALSE(shown.normals);
  EXPECT_FALSE(shown.routes);
  EXPECT_FALSE(shown.turn_circles);
  EXPECT_TRUE(shown.construction);
  EXPECT_TRUE(shown.clearance);

  // Only the toggles given change; the rest keep the scene's values, whatever they are.
  const EmbedOptions one = Parse("", "#skeleton=1");
  const DisplayToggles all_on{true, true, true, true, true, true, true, true, true, true};
  const DisplayToggles kept = one.display.AppliedTo(DisplayToggles{});
  EXPECT_TRUE(kept.skeleton);
  EXPECT_TRUE(kept.grid);
  EXPECT_FALSE(kept.wireframe);
  EXPECT_TRUE(kept.routes);
  EXPECT_TRUE(one.display.AppliedTo(all_on).skeleton);
  EXPECT_TRUE(one.display.AppliedTo(all_on).normals);
}

// `avoidance` switches the scene's giving way on or off; absent, the scene decides, and the
// reply has no member for it (replies to URLs made before it read as they did).
TEST(EmbedOptionsTest, AvoidanceIsAFlagLeftOutWhenNotGiven) {
  struct Case {
    const char* fragment;
    std::optional<bool> avoidance;
    const char* json_tail;  // what the reply's options end with
    bool problem;
  };
  for (const Case& c : std::vector<Case>{
           {"#demo=swap", std::nullopt, R"("origins":null})", false},
           {"#avoidance", true, R"("origins":null,"avoidance":true})", false},
           {"#avoidance=avoidance", true, R"("origins":null,"avoidance":true})", false},
           {"#avoidance=ON", true, R"("origins":null,"avoidance":true})", false},
           {"#avoidance=0", false, R"("origins":null,"avoidance":false})", false},
           {"#avoidance=off&demo=swap", false, R"("origins":null,"avoidance":false})", false},
           {"#avoidance=maybe", std::nullopt, R"("origins":null})", true},
       }) {
    SCOPED_TRACE(c.fragment);
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.avoidance, c.avoidance);
    const std::string json = Json(options);
    EXPECT_EQ(json.substr(json.size() - std::string(c.json_tail).size()), c.json_tail) << json;
    EXPECT_TRUE(options.display.empty());
    if (c.problem) {
      ASSERT_EQ(options.problems.size(), 1u);
      EXPECT_EQ(options.problems[0].rfind("embed: avoidance: expected nothing, 1/true/yes/on", 0),
                0u)
          << options.problems[0];
    } else {
      EXPECT_TRUE(options.problems.empty());
    }
  }
}

// model-viewer's auto-rotate, rotation-per-second and time-scale, in either spelling; a bad
// value is a problem naming the option as the page spelled it, and the option stays unset.
TEST(EmbedOptionsTest, ModelViewerNamesAutoRotateRotationSpeedAndTimeScale) {
  struct Case {
    const char* fragment;
    std::optional<bool> auto_rotate;
    std::optional<double> degrees;
    std::optional<double> time_scale;
    const char* problem;  // the start of the one problem, or null
  };
  for (const Case& c : std::vector<Case>{
           {"#demo=turns", std::nullopt, std::nullopt, std::nullopt, nullptr},
           {"#auto-rotate", true, std::nullopt, std::nullopt, nullptr},
           {"#auto_rotate=auto_rotate", true, std::nullopt, std::nullopt, nullptr},
           {"#auto-rotate=auto-rotate", true, std::nullopt, std::nullopt, nullptr},
           {"#auto-rotate=0", false, std::nullopt, std::nullopt, nullptr},
           {"#auto-rotate=spin", std::nullopt, std::nullopt, std::nullopt,
            "embed: auto-rotate: expected nothing"},
           {"#rotation-per-second=90deg", std::nullopt, 90.0, std::nullopt, nullptr},
           {"#rotation-per-second=-45deg", std::nullopt, -45.0, std::nullopt, nullptr},
           {"#rotation-per-second=0.5rad", std::nullopt, 28.64788975654116, std::nullopt, nullptr},
           {"#rotation-per-second=1", std::nullopt, 57.29577951308232, std::nullopt, nullptr},
           {"#rotation-per-second=3601deg", std::nullopt, std::nullopt, std::nullopt,
            "embed: rotation-per-second: expected an angle per second"},
           {"#rotation-per-second=1e400", std::nullopt, std::nullopt, std::nullopt,
            "embed: rotation-per-second: expected an angle per second"},
           {"#rotation-per-second=fast", std::nullopt, std::nullopt, std::nullopt,
            "embed: rotation-per-second: expected an angle per second"},
           {"#rotation-per-second=deg", std::nullopt, std::nullopt, std::nullopt,
            "embed: rotation-per-second: expected an angle per second"},
           {"#time-scale=2", std::nullopt, std::nullopt, 2.0, nullptr},
           {"#time_scale=0", std::nullopt, std::nullopt, 0.0, nullptr},
           {"#time-scale=16", std::nullopt, std::nullopt, 16.0, nullptr},
           {"#time-scale=16.5", std::nullopt, std::nullopt, std::nullopt,
            "embed: time-scale: expected a number from 0 to 16"},
           {"#time-scale=-1", std::nullopt, std::nullopt, std::nullopt,
            "embed: time-scale: expected a number from 0 to 16"},
           {"#time-scale=NaN", std::nullopt, std::nullopt, std::nullopt,
            "embed: time-scale: expected a number from 0 to 16"},
           {"#time_scale=1e999", std::nullopt, std::nullopt, std::nullopt,
            "embed: time_scale: expected a number from 0 to 16"},
       }) {
    SCOPED_TRACE(c.fragment);
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.auto_rotate, c.auto_rotate);
    ASSERT_EQ(options.rotation_degrees_per_second.has_value(), c.degrees.has_value());
    if (c.degrees) {
      EXPECT_NEAR(*options.rotation_degrees_per_second, *c.degrees, 1e-9);
    }
    EXPECT_EQ(options.time_scale, c.time_scale);
    if (c.problem) {
      ASSERT_EQ(options.problems.size(), 1u);
      EXPECT_EQ(options.problems[0].rfind(c.problem, 0), 0u) << options.problems[0];
    } else {
      EXPECT_TRUE(options.problems.empty()) << options.problems[0];
    }
  }
  const std::string json = Json(Parse("", "#auto-rotate&rotation-per-second=10deg&time-scale=3"));
  EXPECT_NE(json.find(R"("auto_rotate":true,"rotation_per_second":10,"time_scale":3})"),
            std::string::npos)
      << json;
}

// model-viewer's shadow-intensity (0 to 1) and animation-crossfade-duration (ms, 0 to 60000).
TEST(EmbedOptionsTest, ModelViewerNamesShadowIntensityAndCrossfadeDuration) {
  struct Case {
    const char* fragment;
    std::optional<double> shadow;
    std::optional<double> crossfade_ms;
    const char* problem;
  };
  for (const Case& c : std::vector<Case>{
           {"#shadow-intensity=1", 1.0, std::nullopt, nullptr},
           {"#shadow_intensity=0.25", 0.25, std::nullopt, nullptr},
           {"#shadow-intensity=0", 0.0, std::nullopt, nullptr},
           {"#shadow-intensity=1.5", std::nullopt, std::nullopt,
            "embed: shadow-intensity: expected a number from 0 to 1"},
           {"#shadow-intensity=-0.1", std::nullopt, std::nullopt,
            "embed: shadow-intensity: expected a number from 0 to 1"},
           {"#shadow-intensity=NaN", std::nullopt, std::nullopt,
            "embed: shadow-intensity: expected a number from 0 to 1"},
           {"#shadow-intensity", std::nullopt, std::nullopt,
            "embed: shadow-intensity: expected a number from 0 to 1"},
           {"#animation-crossfade-duration=500", std::nullopt, 500.0, nullptr},
           {"#animation-crossfade-duration=0", std::nullopt, 0.0, nullptr},
           {"#animation-crossfade-duration=60001", std::nullopt, std::nullopt,
            "embed: animation-crossfade-duration: expected milliseconds from 0 to 60000"},
           {"#animation-crossfade-duration=1e400", std::nullopt, std::nullopt,
            "embed: animation-crossfade-duration: expected milliseconds from 0 to 60000"},
       }) {
    SCOPED_TRACE(c.fragment);
    const EmbedOptions options = Parse("", c.fragment);
    EXPECT_EQ(options.shadow_intensity, c.shadow);
    EXPECT_EQ(options.crossfade_ms, c.crossfade_ms);
    if (c.problem) {
      ASSERT_EQ(options.problems.size(), 1u);
      EXPECT_EQ(options.problems[0].rfind(c.problem, 0), 0u) << options.problems[0];
    } else {
      EXPECT_TRUE(options.problems.empty()) << options.problems[0];
    }
  }
}

struct OriginCase {
  const char* query;
  const char* fragment;
  const char* origins_json;
};

TEST(EmbedOptionsTest, OriginsAreTheTrimmedItemsOfTheList) {
  const OriginCase cases[] = {
      {"", "", "null"},
      {"", "origin=", "[]"},  // given but empty: no page is accepted
      {"", "origin=*", R"(["*"])"},
      {"", "origin=https://docs.example.test", R"(["https://docs.example.test"])"},
      {"", "origin=https%3A%2F%2Fa.test%2C%20https://b.test:8443%20,,*,%C2%A0",
       R"(["https://a.test","https://b.test:8443","*"])"},
      {"", "origin=+http://localhost:8000/page.html+", R"(["http://localhost:8000/page.html"])"},
      {"?origin=https://q.test", "", R"(["https://q.test"])"},
      {"?origin=https://q.test", "#origin=https://f.test", R"(["https://f.test"])"},
  };
  for (const OriginCase& c : cases) {
    const EmbedOptions options = Parse(c.query, c.fragment);
    EXPECT_EQ(WriteJson(EmbedOptionsToJson(options).Find("origins")[0]), c.origins_json)
        << c.query << c.fragment;
    EXPECT_TRUE(options.problems.empty());
  }
}

struct PrecedenceCase {
  const char* query;
  const char* fragment;
  std::optional<double> time;
  std::size_t problems;
};

// URLSearchParams(search), then params.set() for each fragment pair: the fragment's last value
// of a key wins, else the query's first.
TEST(EmbedOptionsTest, TheFragmentWinsOverTheQuery) {
  const PrecedenceCase cases[] = {
      {"?t=1", "", 1.0, 0},
      {"t=1", "", 1.0, 0},  // no '?'
      {"?t=1&t=3", "", 1.0, 0},
      {"", "#t=1&t=3", 3.0, 0},
      {"?t=1", "#t=2", 2.0, 0},
      {"?t=1&t=5", "#t=2&t=4", 4.0, 0},
      {"?t=5", "#t=bad", std::nullopt, 1},  // the fragment's bad value, not the query's good one
      {"?t=bad", "#t=5", 5.0, 0},
      {"?t=bad&t=5", "", std::nullopt, 1},
      {"", "t=2", 2.0, 0},             // no '#'
      {"", "#?t=2", 2.0, 0},           // "#?" as in a hand-written link
      {"", "##t=2", std::nullopt, 0},  // the key is "#t"
      {"??t=2", "", std::nullopt, 0},
      {"", "#&&t=2&&", 2.0, 0},
      {"", "#%74=4", 4.0, 0},
      {"", "#t%3D4", std::nullopt, 0},  // the key is "t=4"
      {"", "#t=4=5", std::nullopt, 1},  // the value is "4=5"
      {"", "#t+=4", std::nullopt, 0},   // the key is "t "
  };
  for (const PrecedenceCase& c : cases) {
    const EmbedOptions options = Parse(c.query, c.fragment);
    EXPECT_EQ(options.time, c.time) << c.query << " " << c.fragment;
    EXPECT_EQ(options.problems.size(), c.problems) << c.query << " " << c.fragment;
  }
}

// The browser test's bad link: every problem named, in embed.js's order, none fatal.
TEST(EmbedOptionsTest, EveryProblemIsListedAndTheRestStillApplies) {
  const EmbedOptions options =
      Parse("", "#demo=default&t=soon&camera=1,2&loop=9-3&ui=%3Cb%3E&skeleton=1&paused");
  EXPECT_EQ(options.problems,
            (std::vector<std::string>{
                R"(embed: ui: expected none or min, found "<b>")",
                R"(embed: t: expected seconds >= 0, found "soon")",
                R"(embed: loop: expected A-B with 0 <= A < B <= 1000000 (seconds), or no value, )"
                R"(found "9-3")",
                "embed: camera: expected yaw,pitch,distance[,tx,ty,tz] (3 or 6 numbers, each "
                "from -1000000 to 1000000), found \"1,2\""}));
  EXPECT_EQ(options.display.skeleton, true);
  EXPECT_TRUE(options.paused);
  EXPECT_EQ(options.ui, EmbedUi::kMin);
}

TEST(EmbedOptionsTest, OnlyAnOverlongUrlFails) {
  const std::string half(kMaxEmbedUrlChars / 2, 'a');
  EXPECT_TRUE(ParseEmbedOptions(half, half).ok());
  Result<EmbedOptions> failed = ParseEmbedOptions(half, half + "&");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().ToString(),
            "embed: error: expected a query and fragment of at most 4194304 characters, found "
            "4194305");
}

struct DecodeCase {
  const char* text;
  const char* decoded;
};

TEST(EmbedOptionsTest, FormDecodingIsTheBrowsers) {
  const DecodeCase cases[] = {
      {"", ""},
      {"a+b", "a b"},
      {"%41%62", "Ab"},
      {"%4", "%4"},
      {"%", "%"},
      {"%zz", "%zz"},
      {"%%41", "%A"},
      {"%2B", "+"},
      {"%C3%A9", "\u00e9"},
      {"\xC3\xA9", "\u00e9"},                        // raw UTF-8 stays
      {"%F0%9F%98%80", "\U0001F600"},                // four bytes
      {"%EF%BB%BF", "\ufeff"},                       // a BOM is kept
      {"%FF", "\ufffd"},                             // not a lead byte
      {"%C3", "\ufffd"},                             // cut short
      {"%E2%82", "\ufffd"},                          // cut short: one replacement
      {"%E2%28%A1", "\ufffd(\ufffd"},                // broken: the breaking byte is read again
      {"%C0%AF", "\ufffd\ufffd"},                    // overlong
      {"%E0%80%AF", "\ufffd\ufffd\ufffd"},           // overlong
      {"%ED%A0%80", "\ufffd\ufffd\ufffd"},           // a surrogate
      {"%F4%90%80%80", "\ufffd\ufffd\ufffd\ufffd"},  // above U+10FFFF
      {"%F0%9F%98", "\ufffd"},
      {"a%80b", "a\ufffdb"},
  };
  for (const DecodeCase& c : cases) EXPECT_EQ(DecodeFormComponent(c.text), c.decoded) << c.text;
  EXPECT_EQ(DecodeFormComponent("%00"), std::string(1, '\0'));
}

struct StartCase {
  const char* fragment;
  bool reduced_motion;
  std::optional<bool> playing;
  const char* why;
};

TEST(EmbedOptionsTest, StartPlayingFollowsPausedAutoplayAndReducedMotion) {
  const StartCase cases[] = {
      {"", false, std::nullopt, "nothing given: as the scene says"},
      {"", true, false, "reduced motion, autoplay not given: paused"},
      {"autoplay", false, true, "autoplay plays"},
      {"autoplay", true, true, "autoplay plays even for reduced motion"},
      {"autoplay=0", false, false, "autoplay=0 pauses"},
      {"autoplay=0", true, false, "autoplay=0 pauses, reduced motion or not"},
      {"paused", false, false, "paused pauses"},
      {"paused&autoplay", false, false, "paused wins over autoplay"},
      {"paused=0", true, false, "paused=0 is no autoplay: reduced motion pauses"},
      {"paused=0", false, std::nullopt, "paused=0 is not given"},
  };
  for (const StartCase& c : cases) {
    EXPECT_EQ(EmbedStartsPlaying(Parse("", c.fragment), c.reduced_motion), c.playing) << c.why;
  }
}

struct StartTimeCase {
  const char* fragment;
  std::optional<double> time;
  const char* why;
};

TEST(EmbedOptionsTest, StartTimeIsTOrTheLoopsStart) {
  const StartTimeCase cases[] = {
      {"", std::nullopt, "nothing given: the scene's time"},
      {"t=2", 2.0, "t"},
      {"loop=1-3", 1.0, "the loop's start A"},
      {"loop=1-3&t=0.5", 0.5, "t wins, even before A"},
      {"loop=0-3", std::nullopt, "A = 0: no seek"},
      {"loop", std::nullopt, "the whole scene loops from 0: no seek"},
      {"loop=9-3", std::nullopt, "a bad loop is no loop"},
      {"t=bad&loop=2-3", 2.0, "a bad t is no t"},
  };
  for (const StartTimeCase& c : cases) {
    EXPECT_EQ(EmbedStartTime(Parse("", c.fragment)), c.time) << c.why;
  }
}

TEST(EmbedOptionsTest, TheReplyCarriesOptionsAndProblems) {
  const EmbedOptions options = Parse("?autoplay=0",
                                     "#demo=turns&t=2.5&loop=1-4&ui=none&camera=-40,35,650&grid=0&"
                                     "origin=*&camera=1");
  EXPECT_EQ(WriteJson(EmbedReplyJson(options)),
            R"({"ok":true,"options":{"autoplay":false,"paused":false,"time":2.5,)"
            R"("loop":{"start":1,"end":4},"ui":"none","camera":null,"display":{"grid":false},)"
            R"("origins":["*"]},"problems":["embed: camera: expected yaw,pitch,distance)"
            R"([,tx,ty,tz] (3 or 6 numbers, each from -1000000 to 1000000), found \"1\""]})");
}

}  // namespace
}  // namespace md5stage::viewer
