// The key table (key_bindings.h).
#include "viewer/key_bindings.h"

#include <algorithm>

namespace md5stage::viewer {

const std::vector<KeyBinding>& KeyBindings() {
  static const std::vector<KeyBinding> bindings = {
      {Key::kSpace,
       {" ", "Spacebar"},
       "Space",
       "play / pause the scene (every clip and the clock)"},
      {Key::kF, {"f", "F"}, "F", "frame the selected character's whole animation"},
      {Key::kComma, {","}, ",", "step the selected character's clip one frame back"},
      {Key::kPeriod, {"."}, ".", "step the selected character's clip one frame forward"},
      {Key::kK, {"k", "K"}, "K", "toggle the skeleton"},
      {Key::kW, {"w", "W"}, "W", "toggle the wireframe"},
      {Key::kH, {"h", "H"}, "H", "toggle this help"},
      {Key::kEnter, {"Enter"}, "Enter", "obstacle tool: close the polygon being drawn"},
      {Key::kEscape, {"Escape", "Esc"}, "Esc", "leave the cinematic camera; drop the polygon"},
      {Key::kDelete, {"Delete", "Backspace"}, "Delete", "obstacle tool: delete the selected one"},
      {Key::kLeft, {"ArrowLeft", "Left"}, "Left", "orbit left", true},
      {Key::kRight, {"ArrowRight", "Right"}, "Right", "orbit right", true},
      {Key::kUp, {"ArrowUp", "Up"}, "Up", "orbit up", true},
      {Key::kDown, {"ArrowDown", "Down"}, "Down", "orbit down", true},
      {Key::kZoomIn, {"+", "="}, "+", "zoom in", true},
      {Key::kZoomOut, {"-", "_"}, "-", "zoom out", true},
  };
  return bindings;
}

const KeyBinding* FindKeyBinding(const std::string& name) {
  for (const KeyBinding& binding : KeyBindings()) {
    if (std::find(binding.names.begin(), binding.names.end(), name) != binding.names.end())
      return &binding;
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
    std::string label = "  " + binding.label;
    label.resize(std::max<size_t>(label.size() + 1, 16), ' ');
    text += label + binding.does + "\n";
  }
  return text;
}

}  // namespace md5stage::viewer
