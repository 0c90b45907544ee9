// The keys a stage answers, in one table for the viewer page and the <md5-stage> element: each
// key's names as the browser's KeyboardEvent.key gives them, its label and what it does (the Help
// panel lists them from here). What a key does is one stage action (Stage::HandleKeyPress), the
// same in the viewer and in a figure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "viewer/stage_state.h"

namespace md5stage::viewer {

struct KeyBinding {
  Key key;
  std::vector<std::string> names;  // KeyboardEvent.key values ("ArrowLeft", " ", "f", "F", ...)
  std::string label;               // as people write it ("Space", "F", "Left")
  std::string does;
  bool repeats = false;  // a held key acts again at the keyboard's repeat rate (orbit, zoom)
};

const std::vector<KeyBinding>& KeyBindings();

// The binding of the key a KeyboardEvent.key names, or null for a key no stage answers.
const KeyBinding* FindKeyBinding(const std::string& name);
std::optional<Key> KeyFromName(const std::string& name);

// "  Space         play / pause the scene\n" ... one line a binding, for the Help panel.
std::string KeyHelpText();

}  // namespace md5stage::viewer
