// The <md5-stage> element's table and the declarations and script md5stage_api_types writes
// from it.
#include "viewer/element_spec.h"

#include <iterator>
#include <sstream>

#include "core/common/json.h"
#include "viewer/command_spec.h"

namespace md5stage::viewer {

namespace {

using Role = AttributeRole;
using Value = AttributeValue;

const char* RoleName(AttributeRole role) {
  switch (role) {
    case AttributeRole::kSource:
      return "source";
    case AttributeRole::kOption:
      return "option";
    case AttributeRole::kPage:
      return "page";
  }
  return "page";
}

// The attribute's type as a page (or React, which sets a custom element's attributes from its
// props: true as "", false removed) writes it.
std::string AttributeTypeScript(const ElementAttribute& attribute) {
  switch (attribute.value) {
    case AttributeValue::kText:
    case AttributeValue::kUrl:
    case AttributeValue::kUrlList:
    case AttributeValue::kNumbers:
      return "string";
    case AttributeValue::kFlag:
      return "boolean | Md5StageFlag";
    case AttributeValue::kPresence:
      return "boolean | ''";
    case AttributeValue::kSeconds:
    case AttributeValue::kNumber:
      return "number | `${number}`";
    case AttributeValue::kChoice: {
      std::string out;
      for (const char* choice : attribute.choices) {
        out += (out.empty() ? "'" : " | '") + std::string(choice) + "'";
      }
      return out;
    }
  }
  return "string";
}

// `Md5StageLoadDetail` for "load", `Md5StageCameraChangeDetail` for "camera-change".
std::string DetailTypeName(const ElementEvent& event) {
  std::string name;
  bool upper = true;
  for (const char* c = event.name; *c != '\0'; ++c) {
    if (*c == '-') {
      upper = true;
      continue;
    }
    name += upper && *c >= 'a' && *c <= 'z' ? static_cast<char>(*c - 32) : *c;
    upper = false;
  }
  return "Md5Stage" + name + "Detail";
}

std::string DetailType(const ElementEvent& event) {
  return event.fields.size() > 0 ? DetailTypeName(event) : "null";
}

// A name TypeScript takes as a property key as it is, or quoted.
std::string PropertyKey(const std::string& name) {
  return name.find_first_of("-") == std::string::npos ? name : "'" + name + "'";
}

void WriteAttributes(std::ostringstream& ts) {
  ts << "/** A toggle's value: on (\"\", 1, true, yes, on or its own name) or off (0, false, no, "
        "off). */\n"
        "export type Md5StageFlag =\n"
        "  | '' | '1' | 'true' | 'yes' | 'on' | '0' | 'false' | 'no' | 'off';\n\n"
        "/** The attributes of <md5-stage>, as a page writes them. */\n"
        "export interface Md5StageAttributes {\n";
  for (const ElementAttribute& attribute : ElementAttributes()) {
    ts << "  /** " << attribute.summary << " */\n";
    ts << "  " << PropertyKey(attribute.name) << "?: " << AttributeTypeScript(attribute) << ";\n";
  }
  ts << "}\n\n"
        "/** An attribute's name, as an error event's detail names it. */\n"
        "export type Md5StageAttributeName = keyof Md5StageAttributes;\n\n";
}

void WriteEvents(std::ostringstream& ts) {
  for (const ElementEvent& event : ElementEvents()) {
    if (event.fields.size() == 0) continue;
    ts << "/** The detail of the \"" << event.name << "\" event. */\n";
    ts << "export interface " << DetailTypeName(event) << " {\n";
    for (const EventField& field : event.fields) {
      ts << "  " << field.name << (field.optional ? "?: " : ": ") << field.type << ";\n";
    }
    ts << "}\n\n";
  }
  ts << "/** The events of <md5-stage>, with their details. */\n"
        "export interface Md5StageEventMap\n"
        "    extends Omit<HTMLElementEventMap, keyof Md5StageOwnEvents>, Md5StageOwnEvents {}\n\n"
        "/** The events <md5-stage> dispatches itself (CustomEvents). */\n"
        "export interface Md5StageOwnEvents {\n";
  for (const ElementEvent& event : ElementEvents()) {
    ts << "  /** " << event.summary << " */\n";
    ts << "  " << PropertyKey(event.name) << ": CustomEvent<" << DetailType(event) << ">;\n";
  }
  ts << "}\n\n";
}

void WriteElementInterface(std::ostringstream& ts) {
  ts << "/** An <md5-stage> element. */\n"
        "export interface Md5StageElement extends HTMLElement {\n";
  for (const ElementProperty& property : ElementProperties()) {
    ts << "  /** " << property.summary << " */\n";
    ts << "  " << (property.read_only ? "readonly " : "") << property.name << ": " << property.type
       << ";\n";
  }
  for (const ElementMethod& method : ElementMethods()) {
    ts << "  /** " << method.summary << " */\n";
    ts << "  " << method.name << "(" << method.parameters << "): " << method.result << ";\n";
  }
  for (const char* verb : {"add", "remove"}) {
    const char* options =
        std::string(verb) == "add" ? "AddEventListenerOptions" : "EventListenerOptions";
    ts << "  " << verb << "EventListener<K extends keyof Md5StageEventMap>(\n"
       << "    type: K,\n"
       << "    listener: (this: Md5StageElement, event: Md5StageEventMap[K]) => unknown,\n"
       << "    options?: boolean | " << options << ",\n"
       << "  ): void;\n"
       << "  " << verb << "EventListener(\n"
       << "    type: string,\n"
       << "    listener: EventListenerOrEventListenerObject,\n"
       << "    options?: boolean | " << options << ",\n"
       << "  ): void;\n";
  }
  ts << "}\n\n";
}

}  // namespace

const ElementAttribute kAttributes[] = {
    {"scene",
     Role::kSource,
     Value::kText,
     {},
     "A demo's name (turns), a share link or its #scene= payload."},
    {"src",
     Role::kSource,
     Value::kUrl,
     {},
     "An .md5mesh to show, on this page's origin or an https:// URL; wins over scene."},
    {"anims",
     Role::kSource,
     Value::kUrlList,
     {},
     "The .md5anim files of src, separated by spaces or commas."},
    {"materials",
     Role::kSource,
     Value::kUrlList,
     {},
     "The .mtr files of src, separated by spaces or commas."},
    {"mesh-pack",
     Role::kSource,
     Value::kUrl,
     {},
     "The .md5pack `md5stage pack` made of src, fetched in its place (fewer bytes); src stays "
     "the model's name, and its text the fallback when the pack cannot be fetched."},
    {"autoplay", Role::kOption, Value::kFlag, {}, "Starts playing, even under reduced motion."},
    {"paused", Role::kOption, Value::kFlag, {}, "Starts paused; removing it plays."},
    {"t", Role::kOption, Value::kSeconds, {}, "The scene time to start at, in seconds."},
    {"loop",
     Role::kOption,
     Value::kNumbers,
     {},
     "A-B: back to A at B (seconds); bare: the whole scene."},
    {"camera",
     Role::kOption,
     Value::kNumbers,
     {},
     "yaw,pitch,distance[,tx,ty,tz]: angles in degrees."},
    {"grid", Role::kOption, Value::kFlag, {}, "The ground grid."},
    {"skeleton", Role::kOption, Value::kFlag, {}, "The skeletons."},
    {"joint_names", Role::kOption, Value::kFlag, {}, "The joints' names."},
    {"joint-names", Role::kOption, Value::kFlag, {}, "The joints' names (joint_names)."},
    {"bounds", Role::kOption, Value::kFlag, {}, "The bounding boxes."},
    {"wireframe", Role::kOption, Value::kFlag, {}, "The meshes as wireframes."},
    {"normals", Role::kOption, Value::kFlag, {}, "The vertex normals."},
    {"routes", Role::kOption, Value::kFlag, {}, "The routes."},
    {"turn_circles", Role::kOption, Value::kFlag, {}, "The turning circles."},
    {"turn-circles", Role::kOption, Value::kFlag, {}, "The turning circles (turn_circles)."},
    {"construction",
     Role::kOption,
     Value::kFlag,
     {},
     "The turning-radius construction of the go-to path."},
    {"clearance",
     Role::kOption,
     Value::kFlag,
     {},
     "Each character giving way: its clearance ring, the heading it wants and the one it takes."},
    {"avoidance",
     Role::kOption,
     Value::kFlag,
     {},
     "The characters give way to each other (on) or not (0); absent: as the scene says."},
    {"auto-rotate",
     Role::kOption,
     Value::kFlag,
     {},
     "The camera turns around the scene by itself, 3 s after the reader last moved it."},
    {"rotation-per-second",
     Role::kOption,
     Value::kText,
     {},
     "auto-rotate's speed: 30deg, 0.5rad or a bare number of radians (default 32deg)."},
    {"shadow-intensity",
     Role::kOption,
     Value::kNumber,
     {},
     "A soft contact shadow under each character, from 0 (none, the default) to 1."},
    {"animation-crossfade-duration",
     Role::kOption,
     Value::kNumber,
     {},
     "How long a change of clip blends from the one before, in ms (0 to 60000; default 250)."},
    {"time-scale",
     Role::kOption,
     Value::kNumber,
     {},
     "Scene seconds per second, from 0 to 16 (default 1)."},
    {"loading",
     Role::kPage,
     Value::kChoice,
     {"lazy", "eager"},
     "lazy (the default): starts when near the viewport; eager: at once."},
    {"poster", Role::kPage, Value::kUrl, {}, "An http(s) image shown until the figure draws."},
    {"alt", Role::kPage, Value::kText, {}, "The figure's text alternative, read as plain text."},
    {"ui",
     Role::kPage,
     Value::kChoice,
     {"none", "timeline", "controls"},
     "timeline: play/pause and the scene's time; controls: a character's clip, play/pause, "
     "frame step, speed and time."},
    {"camera-controls",
     Role::kPage,
     Value::kPresence,
     {},
     "The mouse, touch and wheel move the camera."},
    {"animation", Role::kPage, Value::kText, {}, "The clip every character plays, by name."},
    {"interaction-prompt",
     Role::kPage,
     Value::kChoice,
     {"auto", "none"},
     "auto (the default): with camera-controls, a hint shows until the reader first acts on the "
     "figure; none: never."},
    {"min-render-scale",
     Role::kPage,
     Value::kNumber,
     {},
     "The lowest scale, from 0.25 to 1 (default 0.5), dynamic resolution may draw the figure at "
     "while the page's frames run over budget."},
    {"tool",
     Role::kPage,
     Value::kChoice,
     {"camera", "goto"},
     "goto: a click on the ground sends the character there."},
};

ElementTable<ElementAttribute> ElementAttributes() { return {kAttributes, std::size(kAttributes)}; }

const ElementProperty kProperties[] = {
    {"ready", "Promise<Md5StageElement>", true,
     "Resolves when the figure's first scene has opened; rejects if it cannot."},
    {"loaded", "boolean", true, "Whether a scene of the figure has opened."},
    {"frames", "number", true, "Pictures copied into the figure so far."},
    {"firstPictureTime", "number | null", true,
     "performance.now() at the first picture of an opened scene (null before)."},
    {"currentTime", "number", false, "The scene time in seconds; setting it seeks."},
    {"paused", "boolean", false,
     "Whether the scene's clock stands; setting it sets or removes the paused attribute."},
};

ElementTable<ElementProperty> ElementProperties() { return {kProperties, std::size(kProperties)}; }

const ElementMethod kMethods[] = {
    {"play", "", "void", "Plays the scene."},
    {"pause", "", "void", "Pauses the scene."},
    {"seek", "time: number", "void", "Moves the scene clock to `time` seconds."},
    {"state", "", "Reply | null", "The figure's state() (null before it started)."},
    {"call", "command: Command", "Reply",
     "Any command of the page API on the figure's stage; the figure draws again."},
    {"toBlob", "options?: { type?: string; width?: number; height?: number }", "Promise<Blob>",
     "A picture of the current view (PNG unless `type` says otherwise) of `width` x `height` "
     "device pixels, the figure's own size by default, drawn for that size."},
    {"positionOf",
     "target: { joint: string; character?: string | number } | { position: [number, number, "
     "number] | string } | { construction: string } | { surface: [number, number, number, "
     "number, number] | string; character?: string | number }",
     "{ x: number; y: number } | null",
     "Where a joint (as it animates), a world point, a point of the turning-radius construction "
     "(P, Q, ...) or of the skinned surface (part, triangle, 3 weights) shows, in the element's "
     "CSS pixels; null off the figure."},
};

ElementTable<ElementMethod> ElementMethods() { return {kMethods, std::size(kMethods)}; }

const ElementEvent kEvents[] = {
    {"load", {{"warnings", "string[]", false}}, "A scene opened (the first and every next one)."},
    {"progress",
     {{"progress", "number", false}, {"file", "string", true}},
     "Files of the opening arrive: progress from 0 to 1."},
    {"error",
     {{"message", "string", false},
      {"attribute", "Md5StageAttributeName", true},
      {"type", "'webglcontextlost' | 'webglcontextrestored'", true}},
     "A value, a file or the context failed; `attribute` names the attribute at fault."},
    {"finished", {{"time", "number", false}}, "The scene ended (it does not repeat)."},
    {"restored", {}, "The WebGL context came back; the figure draws again."},
    {"play", {}, "The scene's clock started (play(), Space, a control, paused removed)."},
    {"pause", {}, "The scene's clock stopped."},
    {"camera-change",
     {{"source", "'user-interaction' | 'automatic' | 'none'", false}},
     "The camera moved: by the reader, by auto-rotate, or by a command or attribute."},
};

ElementTable<ElementEvent> ElementEvents() { return {kEvents, std::size(kEvents)}; }

std::string WriteElementTypeScript() {
  std::ostringstream ts;
  ts << "// <md5-stage> (md5stage-element.js): generated from the element's table\n"
        "// (src/viewer/element_spec.cpp) and the command table by md5stage_api_types. Do not "
        "edit.\n\n"
     << WriteCommandTypeScriptTypes();
  WriteAttributes(ts);
  WriteEvents(ts);
  WriteElementInterface(ts);
  ts << "declare global {\n"
        "  interface HTMLElementTagNameMap {\n"
        "    'md5-stage': Md5StageElement;\n"
        "  }\n"
        "}\n";
  return ts.str();
}

std::string WriteElementReactTypeScript() {
  std::ostringstream ts;
  ts << "// <md5-stage> in React 19's JSX: generated from the element's table\n"
        "// (src/viewer/element_spec.cpp) by md5stage_api_types. Do not edit.\n\n"
        "import type { DetailedHTMLProps, HTMLAttributes } from 'react';\n"
        "import type { Md5StageAttributes, Md5StageElement, Md5StageOwnEvents } from "
        "'./md5stage-element';\n\n"
        "/** The element's events as React 19 listens to a custom element's: `on` + the name. */\n"
        "export type Md5StageEventProps = {\n"
        "  [K in keyof Md5StageOwnEvents as `on${K}`]?: (event: Md5StageOwnEvents[K]) => void;\n"
        "};\n\n"
        "/** The props of <md5-stage> in JSX. */\n"
        "export type Md5StageProps = DetailedHTMLProps<HTMLAttributes<Md5StageElement>, "
        "Md5StageElement> &\n"
        "  Md5StageAttributes &\n"
        "  Md5StageEventProps;\n\n"
        "declare module 'react' {\n"
        "  namespace JSX {\n"
        "    interface IntrinsicElements {\n"
        "      'md5-stage': Md5StageProps;\n"
        "    }\n"
        "  }\n"
        "}\n";
  return ts.str();
}

std::string WriteElementTableScript() {
  JsonArray attributes;
  for (const ElementAttribute& attribute : ElementAttributes()) {
    attributes.emplace_back(
        JsonValue(JsonArray{JsonValue(attribute.name), JsonValue(RoleName(attribute.role))}));
  }
  JsonValue table = JsonValue::MakeObject();
  table.Set("attributes", JsonValue(std::move(attributes)));
  return "// Generated from the element's table (src/viewer/element_spec.cpp) by "
         "md5stage_api_types.\n"
         "const md5stageElementTable = " +
         WriteJson(table) + ";\n";
}

}  // namespace md5stage::viewer
