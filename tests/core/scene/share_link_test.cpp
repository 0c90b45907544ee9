#include "core/scene/share_link.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/scene/base64url.h"
#include "core/scene/scene_json.h"
#include "scene_test_util.h"

namespace md5stage {
namespace {

using testing_util::ExpectScenesNear;
using testing_util::FullScene;

// Raw DEFLATE of `data` by zlib at its best level, without a dictionary.
std::vector<std::uint8_t> RawDeflate(const std::string& data) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::vector<std::uint8_t> out(deflateBound(&stream, data.size()));
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// What a link would carry if its JSON were `json` (for building hostile payloads): format byte 1,
// then DEFLATE. A stream made without the dictionary is still valid with it.
std::string PayloadOf(const std::string& json) {
  std::vector<std::uint8_t> bytes = RawDeflate(json);
  bytes.insert(bytes.begin(), 1);
  return Base64UrlEncode(bytes.data(), bytes.size());
}

std::string PayloadOfBytes(std::vector<std::uint8_t> bytes) {
  return Base64UrlEncode(bytes.data(), bytes.size());
}

TEST(ShareLinkTest, RoundTripsWithinTheRoundingOfNumbers) {
  const Scene scene = FullScene();
  Result<std::string> payload = EncodeSceneLink(scene);
  ASSERT_TRUE(payload.ok()) << payload.error().ToString();
  for (const std::string& form :
       {payload.value(), "#scene=" + payload.value(), "scene=" + payload.value()}) {
    Result<Scene> decoded = DecodeSceneLink(form);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    ExpectScenesNear(decoded.value(), scene, 1e-6);
  }
  // Decoding and encoding again is stable: rounding twice changes nothing.
  Result<Scene> decoded = DecodeSceneLink(payload.value());
  ASSERT_TRUE(decoded.ok());
  Result<std::string> again = EncodeSceneLink(decoded.value());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), payload.value());
}

// fuzz_scene: a camera distance of 5e-324 was valid but arrived as 0 (invalid) through the
// link's 6 decimals. Every value a scene allows must survive a link, the smallest ones included.
TEST(ShareLinkTest, TheSmallestValuesASceneAllowsSurviveALink) {
  for (const double distance : {kMinSceneCameraDistance, 0.0012345, kMaxSceneCoordinate}) {
    Scene scene = FullScene();
    scene.camera.distance = distance;
    Result<std::string> payload = EncodeSceneLink(scene);
    ASSERT_TRUE(payload.ok()) << payload.error().ToString();
    Result<Scene> decoded = DecodeSceneLink(payload.value());
    ASSERT_TRUE(decoded.ok()) << distance << ": " << decoded.error().ToString();
    EXPECT_NEAR(decoded.value().camera.distance, distance, 1e-6) << distance;
  }
}

TEST(ShareLinkTest, ObstaclesTravel) {
  const Scene scene = FullScene();  // a circle and a concave polygon
  ASSERT_EQ(scene.obstacles.size(), 2u);
  Result<std::string> payload = EncodeSceneLink(scene);
  ASSERT_TRUE(payload.ok()) << payload.error().ToString();
  Result<Scene> decoded = DecodeSceneLink(payload.value());
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  ASSERT_EQ(decoded.value().obstacles.size(), 2u);
  ExpectScenesNear(decoded.value(), scene, 1e-6);
  // A circle too small for the link's decimals keeps its radius rather than becoming invalid.
  Scene tiny;
  tiny.obstacles = ObstacleSet::Build({Obstacle::Circle({1, 2}, 1e-9)}).value();
  Result<std::string> tiny_payload = EncodeSceneLink(tiny);
  ASSERT_TRUE(tiny_payload.ok());
  Result<Scene> tiny_decoded = DecodeSceneLink(tiny_payload.value());
  ASSERT_TRUE(tiny_decoded.ok()) << tiny_decoded.error().ToString();
  EXPECT_EQ(tiny_decoded.value().obstacles.obstacles()[0].radius, 1e-9);
}

TEST(ShareLinkTest, PayloadIsUrlSafe) {
  Result<std::string> payload = EncodeSceneLink(FullScene());
  ASSERT_TRUE(payload.ok());
  for (const char c : payload.value()) {
    const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    ASSERT_TRUE(safe) << "'" << c << "'";
  }
}

// A scene as an editor makes it: 4 routes of 10 Beziers whose points wander at random (so the
// compressor finds no pattern in them), 5 walkers on the routes, one carrying a lamp. Points are
// rounded to `decimals` (-1: left as the doubles a mouse pick gives).
Scene EditorScene(int decimals) {
  std::mt19937 random(2024);
  std::uniform_real_distribution<double> step(-200.0, 200.0), handle(-80.0, 80.0);
  const auto round = [&](glm::dvec2 p) {
    if (decimals < 0) return p;
    const double scale = std::pow(10.0, decimals);
    return glm::dvec2(std::round(p.x * scale), std::round(p.y * scale)) / scale;
  };
  Scene scene;
  scene.models.push_back(
      {"walker",
       "models/walker/walker.md5mesh",
       {"models/walker/idle.md5anim", "models/walker/walk.md5anim", "models/walker/run.md5anim"},
       false,
       {},
       ""});
  scene.models.push_back({"lamp", "https://example.org/props/lamp.md5mesh", {}, false, {}, ""});
  for (int r = 0; r < 4; ++r) {
    SceneRoute route;
    route.name = "route " + std::to_string(r + 1);
    glm::dvec2 start = round(glm::dvec2(2.5 * step(random), 2.5 * step(random)));
    for (int i = 0; i < 10; ++i) {
      const glm::dvec2 end = round(start + glm::dvec2(step(random), step(random)));
      const glm::dvec2 c1 = round(start + glm::dvec2(handle(random), handle(random)));
      const glm::dvec2 c2 = round(end + glm::dvec2(handle(random), handle(random)));
      route.segments.push_back(RouteSegment::Bezier(start, c1, c2, end));
      start = end;
    }
    scene.routes.push_back(route);
  }
  for (int i = 0; i < 5; ++i) {
    SceneInstance walker;
    walker.model = "walker";
    walker.position = scene.routes[i % 4].segments[0].start();
    walker.locomotion = i == 4 ? "run" : "walk";
    walker.idle = "idle";
    walker.speed = i == 4 ? 140 : 60;
    walker.turn_radius = 35;
    walker.route = i % 4;
    walker.start_delay = i == 4 ? 3 : 0;
    if (i == 0) walker.attachments.push_back({"lamp", "tag_hand_r", {0, 0, 4}, {0, 0, 0}});
    scene.instances.push_back(walker);
  }
  scene.camera = SceneCamera{{0, 0, 35}, 45, 30, 900, ""};
  scene.display.skeleton = true;
  scene.time = 4.5;
  return scene;
}

// The issue's budget: a scene with 4 routes of ~10 Bezier segments and 5 instances stays well
// under 2,000 characters. The route points dominate: 248 numbers. On a 0.01 grid each carries
// about 15 bits of information; unrounded, the link keeps 6 decimals (the 1e-6 round-trip
// promise), about 28 bits each, which no coder squeezes below ~1200 characters.
TEST(ShareLinkTest, FourRoutesOfTenBeziersAndFiveInstancesStayUnder2000Characters) {
  struct SizeCase {
    const char* name;
    int decimals;
    std::size_t max_chars;
  };
  const SizeCase cases[] = {
      {"points on a 0.01 grid", 2, 1300},
      {"points on a 0.001 grid", 3, 1500},
      {"unrounded points", -1, 2050},
  };
  for (const SizeCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Scene scene = EditorScene(c.decimals);
    ASSERT_TRUE(ValidateScene(scene).ok()) << ValidateScene(scene).error().ToString();
    Result<std::string> payload = EncodeSceneLink(scene);
    ASSERT_TRUE(payload.ok()) << payload.error().ToString();
    SceneWriteOptions plain, packed;
    plain.omit_defaults = packed.omit_defaults = true;
    plain.decimals = packed.decimals = kSceneLinkDecimals;
    packed.pack_routes = true;
    std::printf(
        "[ size     ] %s: JSON %zu bytes (%zu with segment objects) -> #scene= %zu "
        "characters\n",
        c.name, WriteScene(scene, packed).size(), WriteScene(scene, plain).size(),
        payload.value().size());
    EXPECT_LE(payload.value().size(), c.max_chars);
    Result<Scene> decoded = DecodeSceneLink(payload.value());
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    ExpectScenesNear(decoded.value(), scene, c.decimals >= 0 ? 0.0 : 1e-6);
  }
}

TEST(ShareLinkTest, LocalModelsDoNotTravel) {
  Scene scene = FullScene();
  scene.models.push_back({"mine", "mine.md5mesh", {}, true, {}, ""});
  Result<std::string> refused = EncodeSceneLink(scene);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().ToString(),
            "#scene: error: models[2].local: expected a bundled or https model in a share link, "
            "found a local file (\"mine\")");
  Result<std::string> without = EncodeSceneLink(WithoutLocalModels(scene));
  ASSERT_TRUE(without.ok()) << without.error().ToString();

  // A hand-made link that claims a local model is refused on the way in as well.
  Result<Scene> decoded = DecodeSceneLink(
      PayloadOf(R"({"version":1,"models":[{"name":"m","mesh":"C:\\x.md5mesh","local":true}]})"));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message,
            "models[0].local: expected a bundled or https model in a share link, found a local "
            "file (\"m\")");
}

TEST(ShareLinkTest, InvalidScenesAreNotEncoded) {
  Scene scene = FullScene();
  scene.instances[3].speed = -1;
  Result<std::string> payload = EncodeSceneLink(scene);
  ASSERT_FALSE(payload.ok());
  EXPECT_EQ(payload.error().ToString(),
            "#scene: error: instances[3].speed: expected a number in [0, 100000], found -1");
}

struct HostileCase {
  const char* name;
  std::string payload;
  std::string message_start;  // the diagnostic, from its start
};

TEST(ShareLinkTest, RejectsHostilePayloads) {
  const std::string good = EncodeSceneLink(FullScene()).value();
  std::vector<std::uint8_t> corrupt_bytes = RawDeflate(WriteScene(FullScene()));
  corrupt_bytes[corrupt_bytes.size() / 2] ^= 0x5a;
  corrupt_bytes.insert(corrupt_bytes.begin(), 1);
  const std::string zeros_bomb = PayloadOf(std::string(kMaxSceneJsonBytes + 1, ' '));
  const HostileCase cases[] = {
      {"empty", "", "#scene: error: expected link format 1, found no data"},
      {"unknown format", PayloadOfBytes({2, 0x03, 0x00}),
       "#scene: error: expected link format 1, found 2"},
      {"format byte only", PayloadOfBytes({1}),
       "#scene: error: compressed data at byte 0: expected more compressed data"},
      {"not base64", "<script>alert(1)</script>",
       "#scene:1:1: error: expected a base64url character (A-Z a-z 0-9 - _), found '<'"},
      {"standard base64 alphabet", "ab+/",
       "#scene:1:3: error: expected a base64url character (A-Z a-z 0-9 - _), found '+'"},
      {"impossible length", "abcde",
       "#scene:1:5: error: expected a base64url length that is not 1 more than a multiple of 4"},
      {"too long", std::string(kMaxSceneLinkChars + 1, 'A'),
       "#scene: error: expected at most 1048576 characters of base64url, found 1048577"},
      {"truncated", good.substr(0, good.size() / 2 / 4 * 4),
       "#scene: error: compressed data at byte "},
      {"last characters cut", good.substr(0, (good.size() - 4) / 4 * 4),
       "#scene: error: compressed data at byte "},
      {"garbage bytes", PayloadOfBytes({1, 0xff, 0xff, 0xff}),
       "#scene: error: compressed data at byte 1: expected a block type 0, 1 or 2, found 3"},
      {"corrupted", Base64UrlEncode(corrupt_bytes.data(), corrupt_bytes.size()), "#scene"},
      {"decompression bomb", zeros_bomb,
       "#scene: error: compressed data at byte "},  // stopped at the bound, see below
      {"not JSON", PayloadOf("hello"), "#scene:1:1: error: expected a value, found 'hello'"},
      {"script text", PayloadOf("<script>alert(1)</script>"),
       "#scene:1:1: error: expected a value, found '<'"},
      {"JSON but not an object", PayloadOf("[1,2]"),
       "#scene:1:1: error: scene: expected an object, found [1, 2]"},
      {"wrong version", PayloadOf("{\"version\":99}"),
       "#scene:1:12: error: version: expected 1, found 99"},
      {"wrong types", PayloadOf("{\"version\":1,\"instances\":\"x\"}"),
       "#scene:1:26: error: instances: expected an array of instances, found \"x\""},
      {"deep nesting", PayloadOf(std::string(10000, '[') + std::string(10000, ']')),
       "#scene:1:65: error: expected at most 64 nested arrays/objects, found more"},
      {"huge instance count",
       PayloadOf("{\"version\":1,\"models\":[{\"name\":\"m\",\"mesh\":\"m\"}],"
                 "\"instances\":[" +
                 [] {
                   std::string items;
                   for (int i = 0; i < 5000; ++i) {
                     items += (i ? "," : "") + std::string("{\"model\":\"m\"}");
                   }
                   return items;
                 }() +
                 "]}"),
       "#scene:1:61: error: instances: expected at most 4096 instances, found 5000"},
  };
  for (const HostileCase& c : cases) {
    SCOPED_TRACE(c.name);
    Result<Scene> decoded = DecodeSceneLink(c.payload);
    ASSERT_FALSE(decoded.ok());
    const std::string text = decoded.error().ToString();
    EXPECT_EQ(text.rfind(c.message_start, 0), 0u) << text;
  }
  Result<Scene> bomb = DecodeSceneLink(zeros_bomb);
  ASSERT_FALSE(bomb.ok());
  EXPECT_NE(bomb.error().message.find("expected at most 1048576 bytes of output, found more"),
            std::string::npos)
      << bomb.error().message;
  EXPECT_LT(zeros_bomb.size(), 3000u);  // the bomb really is small
}

struct BadStreamCase {
  const char* name;
  std::vector<std::uint8_t> deflate;  // what follows the format byte
  const char* message;
};

// Each way a DEFLATE stream can be malformed, named in RFC 1951's terms at the byte where the
// decompressor stopped reading.
TEST(ShareLinkTest, MalformedCompressedDataIsNamedWithItsByte) {
  const BadStreamCase cases[] = {
      {"no data",
       {},
       "#scene: error: compressed data at byte 0: expected more compressed data, found the end "
       "of the data"},
      {"block type 3",
       {0x07},
       "#scene: error: compressed data at byte 1: expected a block type 0, 1 or 2, found 3"},
      {"stored length check",
       {0x01, 0x03, 0x00, 0xfc, 0xfe, 'a', 'b', 'c'},
       "#scene: error: compressed data at byte 5: expected a stored block length and its "
       "complement, found two that do not match"},
      {"stored block cut short",
       {0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b'},
       "#scene: error: compressed data at byte 7: expected more compressed data, found the end "
       "of the data"},
      {"bytes after the final block",
       {0x03, 0x00, 0x00},
       "#scene: error: compressed data at byte 2: expected end of data after the final block, "
       "found 1 more bytes"},
      // Fixed block whose first symbol is a match (length 3) reaching 1,025 bytes back, past
      // the 815-byte dictionary.
      {"distance before the dictionary",
       {0x03, 0x16, 0x00, 0x00},
       "#scene: error: compressed data at byte 3: expected a distance within the dictionary and "
       "the 0 bytes written, found a longer one"},
      // Fixed block with literal/length code 286 (11000110 in 8 bits).
      {"length code 286",
       {0x1b, 0x03},
       "#scene: error: compressed data at byte 2: expected a length code 257-285, found 286 or "
       "287"},
      // Dynamic block declaring 30 + 257 literal/length codes (HLIT = 30).
      {"too many length codes",
       {0xf5, 0x00, 0x00},
       "#scene: error: compressed data at byte 3: expected at most 286 literal/length and 30 "
       "distance codes, found more"},
  };
  for (const BadStreamCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::uint8_t> bytes = c.deflate;
    bytes.insert(bytes.begin(), 1);
    Result<Scene> decoded = DecodeSceneLink(PayloadOfBytes(bytes));
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error().ToString(), c.message);
  }
}

// The JSON bound holds for every block type, and a scene of exactly the bound's size is read.
TEST(ShareLinkTest, OutputBoundHoldsForCompressedAndStoredBlocks) {
  const std::string spaces(kMaxSceneJsonBytes - 13, ' ');
  const std::string at_bound = "{\"version\":1" + spaces + "}";
  ASSERT_EQ(at_bound.size(), kMaxSceneJsonBytes);
  Result<Scene> exact = DecodeSceneLink(PayloadOf(at_bound));
  ASSERT_TRUE(exact.ok()) << exact.error().ToString();
  Result<Scene> over = DecodeSceneLink(PayloadOf(at_bound + " "));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("expected at most 1048576 bytes of output, found more"),
            std::string::npos)
      << over.error().message;
  // Stored blocks (zlib sends incompressible bytes as they are) count towards the bound too:
  // 600,000 random bytes, then enough spaces to pass it.
  std::mt19937 random(9);
  std::string noise(600000, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  const std::string stored_payload = PayloadOf(noise + std::string(kMaxSceneJsonBytes, ' '));
  ASSERT_LE(stored_payload.size(), kMaxSceneLinkChars);
  Result<Scene> stored = DecodeSceneLink(stored_payload);
  ASSERT_FALSE(stored.ok());
  EXPECT_NE(stored.error().message.find("expected at most 1048576 bytes of output, found more"),
            std::string::npos)
      << stored.error().message;
}

// Every prefix of a link's compressed data is refused (none is taken for a shorter scene).
TEST(ShareLinkTest, EveryTruncationOfTheCompressedDataIsRefused) {
  const std::string good = EncodeSceneLink(FullScene()).value();
  std::vector<std::uint8_t> bytes = Base64UrlDecode("t", good, kMaxSceneLinkChars).value();
  for (std::size_t length = 1; length < bytes.size(); ++length) {
    Result<Scene> decoded = DecodeSceneLink(Base64UrlEncode(bytes.data(), length));
    ASSERT_FALSE(decoded.ok()) << "a prefix of " << length << " bytes decoded";
    EXPECT_EQ(decoded.error().message.rfind("compressed data at byte ", 0), 0u)
        << decoded.error().message;
  }
}

TEST(ShareLinkTest, RandomDamageNeverCrashesOrSucceedsWithADifferentScene) {
  const Scene scene = FullScene();
  const std::string good = EncodeSceneLink(scene).value();
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::mt19937 random(17);
  int accepted = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    std::string damaged = good;
    damaged[random() % damaged.size()] = alphabet[random() % alphabet.size()];
    Result<Scene> decoded = DecodeSceneLink(damaged);
    // A change in unused padding bits, an equivalent rewrite or (raw DEFLATE has no checksum) a
    // literal turned into another, a digit for a digit, may still decode; then the scene must
    // still be a valid one.
    if (decoded.ok()) {
      ++accepted;
      EXPECT_TRUE(ValidateScene(decoded.value()).ok());
    }
  }
  // zlib's Z_FILTERED stream of this scene sends most digits as literals: 134 of the 1000 read.
  EXPECT_LT(accepted, 200);
}

}  // namespace
}  // namespace md5stage
