// Share links already out in the world keep opening: tests/core/scene/golden_links.txt holds links
// made by an earlier encoder, each with the scene (as canonical JSON) it must decode to.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"

namespace md5stage {
namespace {

struct GoldenLink {
  std::string name;
  std::string link;  // the payload after #scene=
  std::string json;  // WriteScene(decoded scene): every field, one line
};

std::vector<GoldenLink> ReadGoldenLinks() {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/tests/core/scene/golden_links.txt");
  EXPECT_TRUE(in.good()) << "tests/core/scene/golden_links.txt is missing";
  std::vector<GoldenLink> links;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "name") {
      links.push_back({value, "", ""});
    } else if (key == "link" && !links.empty() && links.back().link.empty()) {
      links.back().link = value;
    } else if (key == "json" && !links.empty() && links.back().json.empty()) {
      links.back().json = value;
    } else {
      ADD_FAILURE() << "golden_links.txt:" << line_number << ": expected name, link or json "
                    << "(once per entry), found '" << key << "'";
    }
  }
  return links;
}

TEST(GoldenLinksTest, TheFileHoldsTheDemoAndEditedScenes) {
  const std::vector<GoldenLink> links = ReadGoldenLinks();
  EXPECT_GE(links.size(), 11u);
  std::set<std::string> names;
  for (const GoldenLink& golden : links) {
    SCOPED_TRACE(golden.name);
    EXPECT_TRUE(names.insert(golden.name).second) << "name used twice";
    EXPECT_FALSE(golden.link.empty());
    EXPECT_FALSE(golden.json.empty());
  }
  for (const char* demo : {"assets/scenes/attach.json", "assets/scenes/crowd.json",
                           "assets/scenes/default.json", "assets/scenes/turns.json"}) {
    EXPECT_EQ(names.count(demo), 1u) << demo;
  }
}

TEST(GoldenLinksTest, EveryGoldenLinkDecodesToItsScene) {
  for (const GoldenLink& golden : ReadGoldenLinks()) {
    SCOPED_TRACE(golden.name);
    Result<Scene> decoded = DecodeSceneLink(golden.link);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(WriteScene(decoded.value()), golden.json);
    // The canonical JSON is itself a fixed point, so the comparison above is one of scenes.
    Result<Scene> reparsed = ParseScene(golden.name, golden.json);
    ASSERT_TRUE(reparsed.ok()) << reparsed.error().ToString();
    EXPECT_EQ(WriteScene(reparsed.value()), golden.json);
  }
}

// Today's encoder makes links at most 2% longer than the golden ones (the bound of issue 16 when
// the hand-written DEFLATE gave way to zlib), and they decode to the same scene.
TEST(GoldenLinksTest, TodaysLinksAreAtMostTwoPercentLongerThanTheGoldenOnes) {
  std::size_t golden_total = 0, today_total = 0;
  for (const GoldenLink& golden : ReadGoldenLinks()) {
    SCOPED_TRACE(golden.name);
    Result<Scene> scene = ParseScene(golden.name, golden.json);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    Result<std::string> link = EncodeSceneLink(scene.value());
    ASSERT_TRUE(link.ok()) << link.error().ToString();
    const std::size_t today = link.value().size(), before = golden.link.size();
    std::printf("[ size     ] %-30s golden %6zu, today %6zu characters (%+.2f%%)\n",
                golden.name.c_str(), before, today, 100.0 * (double(today) / before - 1.0));
    EXPECT_LE(today * 100, before * 102);
    golden_total += before;
    today_total += today;
    Result<Scene> decoded = DecodeSceneLink(link.value());
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    EXPECT_EQ(WriteScene(decoded.value()), golden.json);
  }
  std::printf("[ size     ] all: golden %zu, today %zu characters\n", golden_total, today_total);
  EXPECT_LE(today_total * 100, golden_total * 102);
}

}  // namespace
}  // namespace md5stage
