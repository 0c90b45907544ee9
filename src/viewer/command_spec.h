// The page's vocabulary as data: each command's name, its arguments (name, type, whether it must
// be given), whether it is part of the documented page API, and how the page's JavaScript calls
// it. One table (commands.cpp) answers the commands, generates `window.md5stage` (the page asks
// for it with the `commands` command) and the TypeScript declaration of the page API
// (WritePageApiTypeScript), so none of them is listed by hand twice.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/common/json.h"

namespace md5stage::viewer {

enum class ArgType {
  kNumber,
  kInteger,
  kString,
  kBoolean,
  kChoice,     // one of `choices`
  kVec3,       // [x, y, z]
  kJson,       // a JSON value the command reads itself (a scene, a route, an obstacle)
  kCharacter,  // a character's handle ("c7") or its position in state().instances
  kRoute,      // a route's handle ("r2") or its position in state().routes (-1: none, where taken)
  kObstacle,   // an obstacle's handle ("o3") or its position in state().obstacles
  kModel,      // a loaded model's name ("walker") or handle ("m1")
  kJoint,      // a joint's name in the character's skeleton
  kAnimation,  // an animation's name among the character's model's
};

// Plain constant data (string literals and initializer lists), so the table costs the figures'
// module its bytes of text and no code to build it.
struct CommandArg {
  const char* name;
  ArgType type;
  bool required;
  std::initializer_list<const char*> choices;  // kChoice
};

// How the page's generated function passes its arguments: one after another in the declared
// order (`md5stage.setTime(instance, time)`), or as one object of fields (`md5stage.display({grid:
// false})`).
enum class ArgStyle { kPositional, kFields };

struct CommandSpec {
  const char* name;
  std::initializer_list<CommandArg> args;
  bool is_public;  // documented on window.md5stage and in the TypeScript declaration
  ArgStyle style;
  const char* summary;  // one line, for the declaration's comment
};

// The table's specs, in order.
class CommandSpecList {
 public:
  CommandSpecList(const CommandSpec* const* specs, size_t count) : specs_(specs), count_(count) {}
  size_t size() const { return count_; }
  const CommandSpec& operator[](size_t i) const { return *specs_[i]; }
  struct Iterator {
    const CommandSpec* const* at;
    const CommandSpec& operator*() const { return **at; }
    Iterator& operator++() {
      ++at;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at != other.at; }
  };
  Iterator begin() const { return {specs_}; }
  Iterator end() const { return {specs_ + count_}; }

 private:
  const CommandSpec* const* specs_;
  size_t count_;
};

// The stage's commands (commands.cpp) and the hub's (createStage, closeStage, stages), in table
// order.
CommandSpecList CommandSpecs();
const CommandSpec* FindCommandSpec(const std::string& name);

// {"commands": [{"name", "args": [{"name", "type", "required", "choices"?}], "public", "style",
// "summary"}]}: what the page generates its functions from.
JsonValue CommandSpecsJson();

// The names window.md5stage documents that differ from a command's (sceneJSON for sceneJson), as
// {alias, command} pairs; the page keeps both.
struct CommandAlias {
  const char* alias;
  const char* command;
};
const std::vector<CommandAlias>& CommandAliases();

// The TypeScript types every declaration of the page's commands shares: the reference types
// (CharacterRef, ...), Reply, and Command (each command as the object `call()` takes).
std::string WriteCommandTypeScriptTypes();

// The TypeScript declaration of window.md5stage: one method per public command (its arguments
// typed as declared), the aliases, and the page runtime's own functions (loadDemo, createStage,
// ...).
std::string WritePageApiTypeScript();

// The table as the page's script takes it at build time (build_wasm.sh bundles it before main.js):
// `const md5stageCommandTable = {"commands": [[name, [arg names], style, public], ...],
// "aliases": [[alias, command], ...]};`, from which the runtime makes window.md5stage's functions.
std::string WritePageCommandTableScript();

}  // namespace md5stage::viewer
