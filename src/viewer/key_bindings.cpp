// The key table (key_bindings.h).
#include "viewer/key_bindings.h"

#include <algorithm>
#include <iterator>

namespace md5stage::viewer {

namespace {

const KeyBinding kBindings[] = {
    {Key::kSpace,
     {" ", "Spacebar"},
     "Space",
     "play / pause the scene (every clip and the clock)",
     false},
    {Key::kF, {"f", "F"}, "F", "frame the selected character's whole animation", false},
    {Key::kComma, {","}, ",", "step the selected character's clip one frame back", false},
    {Key::kPeriod, {"."}, ".", "step the selected character's clip one frame forward", false},
    {Key::kK, {"k", "K"}, "K", "toggle the skeleton", false},
    {Key::kW, {"w", "W"}, "W", "toggle the wireframe", false},
    {Key::kH, {"h", "H"}, "H", "toggle this help", false},
    {Key::kEnter, {"Enter"}, "Enter", "obstacle tool: close the polygon being drawn", false},
    {Key::kEscape, {"Escape", "Esc"}, "Esc", "leave the cinematic camera; drop the polygon", false},
    {Key::kDelete,
     {"Delete", "Backspace"},
     "Delete",
     "obstacle tool: delete the selected one",
     false},
    {Key::kLeft, {"ArrowLeft", "Left"}, "Left", "orbit left", true},
    {Key::kRight, {"ArrowRight", "Right"}, "Right", "orbit right", true},
    {Key::kUp, {"ArrowUp", "Up"}, "Up", "orbit up", true},
    {Key::kDown, {"ArrowDown", "Down"}, "Down", "orbit down", true},
    {Key::kZoomIn, {"+", "="}, "+", "zoom in", true},
    {Key::kZoomOut, {"-", "_"}, "-", "zoom out", true},
};

}  // namespace

const KeyBinding* KeyBindingsBegin() { return kBindings; }
const KeyBinding* KeyBindingsEnd() { return kBindings + std::size(kBindings); }

const KeyBinding* FindKeyBinding(const std::string& name) {
  for (const KeyBinding& binding : KeyBindings()) {
    for (const char* each : binding.names) {
      if (name == each) return &binding;
    }
  }
  return nullptr;
}

std::optional<Key> KeyFromName(const std::string& name) {
  const KeyBinding* binding = FindKeyBinding(name);
  return binding ? std::optional<Key>(binding->key) : std::nullopt;
}

std::string KeyHelpText() {
  std::string text;
  for (const KeyBinding& binding : KeyBindings()) {
    std::string label = std::string("  ") + binding.label;
    label.resize(std::max<size_t>(label.size() + 1, 16), ' ');
    text += label + binding.does + "\n";
  }
  return text;
}

}  // namespace md5stage::viewer
