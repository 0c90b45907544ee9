// The one key table (viewer/key_bindings.h) the viewer page and the figures share.
#include "viewer/key_bindings.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace md5stage::viewer {
namespace {

struct KeyNameRow {
  std::string name;  // KeyboardEvent.key
  std::optional<Key> key;
};

TEST(KeyBindingsTest, TheBrowsersKeyNamesMapToTheStagesKeys) {
  const std::vector<KeyNameRow> rows = {
      {" ", Key::kSpace},
      {"Spacebar", Key::kSpace},
      {"f", Key::kF},
      {"F", Key::kF},
      {",", Key::kComma},
      {".", Key::kPeriod},
      {"k", Key::kK},
      {"w", Key::kW},
      {"h", Key::kH},
      {"Enter", Key::kEnter},
      {"Escape", Key::kEscape},
      {"Delete", Key::kDelete},
      {"Backspace", Key::kDelete},
      {"ArrowLeft", Key::kLeft},
      {"ArrowRight", Key::kRight},
      {"ArrowUp", Key::kUp},
      {"ArrowDown", Key::kDown},
      {"+", Key::kZoomIn},
      {"=", Key::kZoomIn},
      {"-", Key::kZoomOut},
      {"_", Key::kZoomOut},
      {"q", std::nullopt},
      {"Space", std::nullopt},
      {"", std::nullopt},
      {"Tab", std::nullopt},
      {"ArrowLeftX", std::nullopt},
  };
  for (const KeyNameRow& row : rows) {
    SCOPED_TRACE("'" + row.name + "'");
    EXPECT_EQ(KeyFromName(row.name), row.key);
  }
}

TEST(KeyBindingsTest, EveryKeyHasOneBindingAndEveryNameOneKey) {
  std::set<int> keys;
  std::set<std::string> names;
  for (const KeyBinding& binding : KeyBindings()) {
    EXPECT_TRUE(keys.insert(static_cast<int>(binding.key)).second) << binding.label;
    EXPECT_NE(binding.names.size(), 0u) << binding.label;
    for (const std::string name : binding.names) {
      EXPECT_TRUE(names.insert(name).second) << "'" << name << "' named twice";
      EXPECT_EQ(FindKeyBinding(name), &binding);
    }
    // Only moving the camera repeats while held; toggles and steps act once a press.
    const bool camera = binding.key == Key::kLeft || binding.key == Key::kRight ||
                        binding.key == Key::kUp || binding.key == Key::kDown ||
                        binding.key == Key::kZoomIn || binding.key == Key::kZoomOut;
    EXPECT_EQ(binding.repeats, camera) << binding.label;
  }
  EXPECT_EQ(keys.size(), static_cast<size_t>(Key::kZoomOut) + 1) << "a Key without a binding";
  // The Help panel lists each key with what it does.
  const std::string help = KeyHelpText();
  for (const KeyBinding& binding : KeyBindings()) {
    EXPECT_NE(help.find("  " + std::string(binding.label) + " "), std::string::npos)
        << binding.label;
    EXPECT_NE(help.find(binding.does), std::string::npos) << binding.label;
  }
}

}  // namespace
}  // namespace md5stage::viewer
