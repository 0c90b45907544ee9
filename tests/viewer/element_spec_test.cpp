// The <md5-stage> element's table (viewer/element_spec.h) and what md5stage_api_types writes from
// it: every attribute, property, method and event appears in the TypeScript declaration, the
// React JSX declaration augments React 19's module JSX namespace, and the attribute table the
// element script observes lists every attribute with who reads it. (tsc itself checks the
// declarations in tests/browser/types.test.mjs.)
#include "viewer/element_spec.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/common/json.h"
#include "viewer/command_spec.h"

namespace md5stage::viewer {
namespace {

// The text between `begin` and the next "\n}\n" (an interface's body).
std::string Body(const std::string& ts, const std::string& begin) {
  const size_t at = ts.find(begin);
  if (at == std::string::npos) return "";
  return ts.substr(at, ts.find("\n}\n", at) - at);
}

TEST(ElementSpecTest, NamesAreUniqueAndEveryEntryIsDescribed) {
  std::set<std::string> names;
  for (const ElementAttribute& attribute : ElementAttributes()) {
    EXPECT_TRUE(names.insert(attribute.name).second) << attribute.name << " twice";
    EXPECT_GT(std::string(attribute.summary).size(), 8u) << attribute.name;
    EXPECT_EQ(attribute.value == AttributeValue::kChoice, attribute.choices.size() > 0)
        << attribute.name << ": choices only for a choice";
  }
  names.clear();
  for (const ElementProperty& property : ElementProperties())
    EXPECT_TRUE(names.insert(property.name).second) << property.name << " twice";
  for (const ElementMethod& method : ElementMethods())
    EXPECT_TRUE(names.insert(method.name).second) << method.name << " twice, or also a property";
  names.clear();
  for (const ElementEvent& event : ElementEvents())
    EXPECT_TRUE(names.insert(event.name).second) << event.name << " twice";
}

TEST(ElementSpecTest, TheDeclarationHasEveryAttributeMemberAndEvent) {
  const std::string ts = WriteElementTypeScript();
  // The commands' types, as the page API's declaration has them, for call().
  EXPECT_NE(ts.find(WriteCommandTypeScriptTypes()), std::string::npos);
  const std::string attributes = Body(ts, "export interface Md5StageAttributes {");
  for (const ElementAttribute& attribute : ElementAttributes()) {
    const std::string name = attribute.name;
    const std::string key = name.find('-') == std::string::npos ? name : "'" + name + "'";
    EXPECT_NE(attributes.find("\n  " + key + "?: "), std::string::npos) << name;
  }
  EXPECT_NE(attributes.find("\n  loading?: 'lazy' | 'eager';"), std::string::npos) << attributes;
  EXPECT_NE(attributes.find("\n  skeleton?: boolean | Md5StageFlag;"), std::string::npos);
  EXPECT_NE(attributes.find("\n  'camera-controls'?: boolean | '';"), std::string::npos);
  EXPECT_NE(attributes.find("\n  t?: number | `${number}`;"), std::string::npos);

  const std::string element = Body(ts, "export interface Md5StageElement extends HTMLElement {");
  for (const ElementProperty& property : ElementProperties()) {
    const std::string line = std::string("\n  ") + (property.read_only ? "readonly " : "") +
                             property.name + ": " + property.type + ";";
    EXPECT_NE(element.find(line), std::string::npos) << line;
  }
  for (const ElementMethod& method : ElementMethods()) {
    const std::string line =
        std::string("\n  ") + method.name + "(" + method.parameters + "): " + method.result + ";";
    EXPECT_NE(element.find(line), std::string::npos) << line;
  }
  EXPECT_NE(element.find("\n  call(command: Command): Reply;"), std::string::npos);
  EXPECT_NE(element.find("addEventListener<K extends keyof Md5StageEventMap>("), std::string::npos);

  const std::string events = Body(ts, "export interface Md5StageOwnEvents {");
  for (const ElementEvent& event : ElementEvents()) {
    const std::string name = event.name;
    const std::string key = name.find('-') == std::string::npos ? name : "'" + name + "'";
    EXPECT_NE(events.find("\n  " + key + ": CustomEvent<"), std::string::npos) << name;
  }
  // A kebab-case event (model-viewer's camera-change) has a camel-case detail type.
  EXPECT_NE(events.find("\n  'camera-change': CustomEvent<Md5StageCameraChangeDetail>;"),
            std::string::npos)
      << events;
  EXPECT_NE(Body(ts, "export interface Md5StageCameraChangeDetail {")
                .find("\n  source: 'user-interaction' | 'automatic' | 'none';"),
            std::string::npos);
  EXPECT_NE(events.find("\n  play: CustomEvent<null>;"), std::string::npos);
  EXPECT_NE(events.find("\n  error: CustomEvent<Md5StageErrorDetail>;"), std::string::npos);
  EXPECT_NE(events.find("\n  restored: CustomEvent<null>;"), std::string::npos);
  const std::string error = Body(ts, "export interface Md5StageErrorDetail {");
  EXPECT_NE(error.find("\n  message: string;"), std::string::npos) << error;
  EXPECT_NE(error.find("\n  attribute?: Md5StageAttributeName;"), std::string::npos) << error;
  EXPECT_NE(ts.find("'md5-stage': Md5StageElement;"), std::string::npos);
}

TEST(ElementSpecTest, TheJsxDeclarationAugmentsReactsModuleNamespace) {
  const std::string ts = WriteElementReactTypeScript();
  EXPECT_NE(ts.find("declare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements "
                    "{\n      'md5-stage': Md5StageProps;"),
            std::string::npos)
      << ts;
  EXPECT_NE(ts.find("from './md5stage-element';"), std::string::npos);
  EXPECT_NE(ts.find("as `on${K}`"), std::string::npos);
}

TEST(ElementSpecTest, TheAttributeTableNamesEveryAttributeAndItsRole) {
  const std::string script = WriteElementTableScript();
  const std::string prefix = "const md5stageElementTable = ";
  const size_t at = script.find(prefix);
  ASSERT_NE(at, std::string::npos) << script;
  const size_t end = script.rfind(';');
  const Result<JsonValue> table =
      ParseJson("element_table.js", script.substr(at + prefix.size(), end - at - prefix.size()));
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  const JsonValue* attributes = table.value().Find("attributes");
  ASSERT_NE(attributes, nullptr);
  ASSERT_EQ(attributes->as_array().size(), ElementAttributes().size());
  const char* roles[] = {"source", "option", "page"};
  for (size_t i = 0; i < ElementAttributes().size(); ++i) {
    const ElementAttribute& attribute = ElementAttributes()[i];
    const JsonValue& entry = attributes->as_array()[i];
    EXPECT_EQ(entry.as_array()[0].as_string(), attribute.name);
    EXPECT_EQ(entry.as_array()[1].as_string(), roles[static_cast<int>(attribute.role)]);
  }
}

}  // namespace
}  // namespace md5stage::viewer
