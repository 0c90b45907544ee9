// The command table as data for the page (CommandSpecsJson) and as its TypeScript declaration.
#include "viewer/command_spec.h"

#include <sstream>

namespace md5stage::viewer {

namespace {

const char* ArgTypeName(ArgType type) {
  switch (type) {
    case ArgType::kNumber:
      return "number";
    case ArgType::kInteger:
      return "integer";
    case ArgType::kString:
      return "string";
    case ArgType::kBoolean:
      return "boolean";
    case ArgType::kChoice:
      return "choice";
    case ArgType::kVec3:
      return "vec3";
    case ArgType::kJson:
      return "json";
    case ArgType::kCharacter:
      return "character";
    case ArgType::kRoute:
      return "route";
    case ArgType::kObstacle:
      return "obstacle";
    case ArgType::kModel:
      return "model";
    case ArgType::kJoint:
      return "joint";
    case ArgType::kAnimation:
      return "animation";
  }
  return "json";
}

std::string TypeScriptType(const CommandArg& arg) {
  switch (arg.type) {
    case ArgType::kNumber:
    case ArgType::kInteger:
      return "number";
    case ArgType::kString:
      return "string";
    case ArgType::kBoolean:
      return "boolean";
    case ArgType::kChoice: {
      std::string out;
      for (const char* choice : arg.choices)
        out += (out.empty() ? "" : " | ") + ("'" + std::string(choice) + "'");
      return out.empty() ? "string" : out;
    }
    case ArgType::kVec3:
      return "Vec3";
    case ArgType::kJson:
      return "unknown";
    case ArgType::kCharacter:
      return "CharacterRef";
    case ArgType::kRoute:
      return "RouteRef";
    case ArgType::kObstacle:
      return "ObstacleRef";
    case ArgType::kModel:
      return "ModelRef";
    case ArgType::kJoint:
      return "string";
    case ArgType::kAnimation:
      return "string | number";
  }
  return "unknown";
}

// `name: type` or `name?: type`.
std::string TypeScriptField(const CommandArg& arg, bool required) {
  return arg.name + std::string(required ? ": " : "?: ") + TypeScriptType(arg);
}

// The method's parameter list: positional, or one object of fields.
std::string TypeScriptParameters(const CommandSpec& spec) {
  std::string out;
  if (spec.style == ArgStyle::kFields) {
    out = "fields: {";
    for (const CommandArg& arg : spec.args) out += " " + TypeScriptField(arg, arg.required) + ";";
    return out + " }";
  }
  // A required argument after an optional one stays required for TypeScript's sake only when
  // every one before it is: positions are positions.
  bool optional_seen = false;
  for (const CommandArg& arg : spec.args) {
    optional_seen = optional_seen || !arg.required;
    out += (out.empty() ? "" : ", ") + TypeScriptField(arg, !optional_seen);
  }
  return out;
}

}  // namespace

const CommandSpec* FindCommandSpec(const std::string& name) {
  for (const CommandSpec& spec : CommandSpecs()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

JsonValue CommandSpecsJson() {
  JsonArray commands;
  for (const CommandSpec& spec : CommandSpecs()) {
    JsonValue command = JsonValue::MakeObject();
    command.Set("name", spec.name);
    JsonArray args;
    for (const CommandArg& arg : spec.args) {
      JsonValue a = JsonValue::MakeObject();
      a.Set("name", arg.name);
      a.Set("type", ArgTypeName(arg.type));
      a.Set("required", arg.required);
      if (arg.choices.size() > 0) {
        JsonArray choices;
        for (const char* choice : arg.choices) choices.emplace_back(choice);
        a.Set("choices", JsonValue(std::move(choices)));
      }
      args.push_back(std::move(a));
    }
    command.Set("args", JsonValue(std::move(args)));
    command.Set("public", spec.is_public);
    command.Set("style", spec.style == ArgStyle::kFields ? "fields" : "positional");
    command.Set("summary", spec.summary);
    commands.push_back(std::move(command));
  }
  JsonArray aliases;
  for (const CommandAlias& alias : CommandAliases()) {
    aliases.emplace_back(JsonValue(
        JsonObject{{"alias", JsonValue(alias.alias)}, {"command", JsonValue(alias.command)}}));
  }
  JsonValue out = JsonValue::MakeObject();
  out.Set("commands", JsonValue(std::move(commands)));
  out.Set("aliases", JsonValue(std::move(aliases)));
  return out;
}

const std::vector<CommandAlias>& CommandAliases() {
  static const std::vector<CommandAlias> aliases = {{"sceneJSON", "sceneJson"}};
  return aliases;
}

std::string WritePageCommandTableScript() {
  JsonArray commands;
  for (const CommandSpec& spec : CommandSpecs()) {
    JsonArray names;
    for (const CommandArg& arg : spec.args) names.emplace_back(arg.name);
    commands.emplace_back(
        JsonValue(JsonArray{JsonValue(spec.name), JsonValue(std::move(names)),
                            JsonValue(spec.style == ArgStyle::kFields ? "fields" : "positional"),
                            JsonValue(spec.is_public)}));
  }
  JsonArray aliases;
  for (const CommandAlias& alias : CommandAliases()) {
    aliases.emplace_back(JsonValue(JsonArray{JsonValue(alias.alias), JsonValue(alias.command)}));
  }
  JsonValue table = JsonValue::MakeObject();
  table.Set("commands", JsonValue(std::move(commands)));
  table.Set("aliases", JsonValue(std::move(aliases)));
  return "// Generated from the command table (src/viewer/commands.cpp) by md5stage_api_types.\n"
         "const md5stageCommandTable = " +
         WriteJson(table) + ";\n";
}

std::string WriteCommandTypeScriptTypes() {
  std::ostringstream ts;
  ts << "/** A character's handle (\"c7\") or its position in state().instances. */\n"
        "export type CharacterRef = string | number;\n"
        "/** A route's handle (\"r2\") or its position in state().routes. */\n"
        "export type RouteRef = string | number;\n"
        "/** An obstacle's handle (\"o3\") or its position in state().obstacles. */\n"
        "export type ObstacleRef = string | number;\n"
        "/** A loaded model's name (\"walker\") or handle (\"m1\"). */\n"
        "export type ModelRef = string;\n"
        "export type Vec3 = [number, number, number];\n\n"
        "/** A command's answer: {ok: false, error} names the field that is wrong. */\n"
        "export interface Reply {\n  ok?: boolean;\n  error?: string;\n  [field: string]: "
        "unknown;\n}\n\n";
  // Every command as the object md5stage.call takes.
  ts << "/** A command as md5stage.call() takes it; \"stage\" picks a stage (0: the page's). */\n"
        "export type Command =\n";
  for (const CommandSpec& spec : CommandSpecs()) {
    ts << "  | { cmd: '" << spec.name << "'; stage?: number;";
    for (const CommandArg& arg : spec.args) ts << " " << TypeScriptField(arg, arg.required) << ";";
    ts << " }\n";
  }
  ts << "  ;\n\n";
  return ts.str();
}

std::string WritePageApiTypeScript() {
  std::ostringstream ts;
  ts << "// The page API of md5stage (window.md5stage): generated from the command table\n"
        "// (src/viewer/commands.cpp) by md5stage_api_types. Do not edit.\n\n"
     << WriteCommandTypeScriptTypes();
  ts << "/** One function per public command, as the table declares it. */\n"
        "export interface Md5StageCommands {\n";
  for (const CommandSpec& spec : CommandSpecs()) {
    if (!spec.is_public) continue;
    ts << "  /** " << spec.summary << " */\n";
    ts << "  " << spec.name << "(" << TypeScriptParameters(spec) << "): Reply;\n";
  }
  for (const CommandAlias& alias : CommandAliases()) {
    const CommandSpec* spec = FindCommandSpec(alias.command);
    if (spec == nullptr) continue;
    ts << "  /** The same as " << alias.command << "(). */\n";
    ts << "  " << alias.alias << "(" << TypeScriptParameters(*spec) << "): Reply;\n";
  }
  ts << "}\n\n";
  // The runtime's own functions: file and URL loading, links, stages, events.
  ts << "/** A stage of the page: its commands, and its scene loaders. */\n"
        "export interface Md5StageStage extends Md5StageCommands {\n"
        "  readonly id: number;\n"
        "  call(command: Command): Reply;\n"
        "  loadFiles(files: Iterable<File>): Promise<Reply>;\n"
        "  loadScene(scene: object | string): Promise<Reply>;\n"
        "  loadDemo(name: string): Promise<Reply>;\n"
        "  loadLink(payload: string): Promise<Reply>;\n"
        "  loadModelUrl(mesh: string, anims?: string[]): Promise<Reply>;\n"
        "  onEvent(handler: (name: string, detail: unknown) => void): void;\n"
        "  close(): Reply;\n"
        "}\n\n"
        "/** window.md5stage: stage 0's commands and the page's own functions. */\n"
        "export interface Md5StagePage extends Omit<Md5StageStage, 'id' | 'close' | 'onEvent'> {\n"
        "  readonly ready: Promise<void>;\n"
        "  readonly embed: boolean;\n"
        "  /** The result of the scene the page opened with (its URL's). */\n"
        "  opened: Promise<Reply> | null;\n"
        "  createStage(): Md5StageStage | Reply;\n"
        "  stage(id: number): Md5StageStage;\n"
        "  openFilePicker(): void;\n"
        "  shareLink(): string;\n"
        "  shareInfo(): Reply;\n"
        "  embedSnippet(options?: object): string;\n"
        "  embedInfo(options?: object): Reply;\n"
        "  notice(message: string): void;\n"
        "  pageAction(action: string): Promise<Reply>;\n"
        "}\n\n"
        "declare global {\n  interface Window {\n    md5stage: Md5StagePage;\n  }\n}\n";
  return ts.str();
}

}  // namespace md5stage::viewer
