// The <md5-stage> element's vocabulary as data (web/md5stage-element.js): its attributes, its
// properties and methods, and its events with their details. md5stage_api_types writes from this
// one table the element's TypeScript declaration, its React JSX declaration and the attribute
// table the element script observes, as command_spec.h does for the page's commands; the
// element's `call()` takes those commands, typed by that table.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>

namespace md5stage::viewer {

// Who reads an attribute: its changes reopen the scene (kSource), go to C++'s embed-option
// parser with the iframe embed's names (kOption, embed_options.h), or are the element's own
// (kPage).
enum class AttributeRole { kSource, kOption, kPage };

// What an attribute's value is, for its declared type.
enum class AttributeValue {
  kText,      // any text (a demo name, alt text, an animation's name)
  kUrl,       // one URL
  kUrlList,   // URLs separated by spaces or commas
  kFlag,      // on: present, "", 1/true/yes/on or its own name; off: 0/false/no/off
  kPresence,  // on when present, whatever its value (HTML's boolean attributes)
  kSeconds,   // a number of seconds
  kNumber,    // a number (a rate, a scale)
  kChoice,    // one of `choices`
  kNumbers,   // numbers separated by commas or a dash (camera, loop)
};

struct ElementAttribute {
  const char* name;
  AttributeRole role;
  AttributeValue value;
  std::initializer_list<const char*> choices;  // kChoice
  const char* summary;
};

// A property: its TypeScript type, and whether a page may set it.
struct ElementProperty {
  const char* name;
  const char* type;
  bool read_only;
  const char* summary;
};

// A method: its TypeScript parameter list and result.
struct ElementMethod {
  const char* name;
  const char* parameters;
  const char* result;
  const char* summary;
};

// A field of an event's detail.
struct EventField {
  const char* name;
  const char* type;
  bool optional;
};

// An event the element dispatches (a CustomEvent; `fields` empty: its detail is null).
struct ElementEvent {
  const char* name;
  std::initializer_list<EventField> fields;
  const char* summary;
};

// One of the tables: constant arrays, since the initializer lists inside their entries live only
// as long as an array they directly initialize (copied into a vector, they would dangle).
template <typename T>
struct ElementTable {
  const T* first;
  std::size_t count;
  const T* begin() const { return first; }
  const T* end() const { return first + count; }
  std::size_t size() const { return count; }
  const T& operator[](std::size_t i) const { return first[i]; }
};

ElementTable<ElementAttribute> ElementAttributes();
ElementTable<ElementProperty> ElementProperties();
ElementTable<ElementMethod> ElementMethods();
ElementTable<ElementEvent> ElementEvents();

// md5stage-element.d.ts: the commands' types (as the page API's declaration has them), the
// attributes, the event details and their event map, the element's interface, and
// HTMLElementTagNameMap['md5-stage'].
std::string WriteElementTypeScript();

// md5stage-element-react.d.ts: IntrinsicElements['md5-stage'] in React 19's module JSX namespace
// (`declare module 'react'`): React's HTML props, the attributes, and the events as `on` + the
// event's name (React 19 listens to a custom element's events by that name).
std::string WriteElementReactTypeScript();

// The attribute table as the element script takes it at build time (build_wasm.sh bundles it
// before md5stage-element.js): `const md5stageElementTable = {"attributes": [[name, role], ...]};`.
std::string WriteElementTableScript();

}  // namespace md5stage::viewer
