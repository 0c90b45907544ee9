// The keys a stage answers, in one table for the viewer page and the <md5-stage> element: each
// key's names as the browser's KeyboardEvent.key gives them, its label and what it does (the Help
// panel lists them from here). What a key does is one stage action (Stage::HandleKeyPress), the
// same in the viewer and in a figure.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include "viewer/stage_state.h"

namespace md5stage::viewer {

// Constant data (literals and initializer lists): the figures' module holds the table's text and
// no code to build it.
struct KeyBinding {
  Key key;
  std::initializer_list<const char*> names;  // KeyboardEvent.key values (" ", "f", "F", ...)
  const char* label;                         // as people write it ("Space", "F", "Left")
  const char* does;
  bool repeats;  // a held key acts again at the keyboard's repeat rate (orbit, zoom)
};

// The table, in the Help panel's order.
const KeyBinding* KeyBindingsBegin();
const KeyBinding* KeyBindingsEnd();
struct KeyBindingList {
  const KeyBinding* begin() const { return KeyBindingsBegin(); }
  const KeyBinding* end() const { return KeyBindingsEnd(); }
};
inline KeyBindingList KeyBindings() { return {}; }

// The binding of the key a KeyboardEvent.key names, or null for a key no stage answers.
const KeyBinding* FindKeyBinding(const std::string& name);
std::optional<Key> KeyFromName(const std::string& name);

// "  Space         play / pause the scene\n" ... one line a binding, for the Help panel.
std::string KeyHelpText();

}  // namespace md5stage::viewer
