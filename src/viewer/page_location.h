// What a page's URL asks to open (`#scene=`, `#demo=`, `#model=&anim=`, `?scene=none`, else the
// default demo), read once in C++ for the viewer, the embeds and the native smoke run alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/json.h"
#include "core/common/result.h"

namespace md5stage::viewer {

struct PageLocation {
  enum class Kind { kDefaultDemo, kNothing, kLink, kDemo, kModel };
  Kind kind = Kind::kDefaultDemo;
  std::string link;                // kLink: the #scene= payload
  std::string demo;                // kDemo: the name as written (checked when opened)
  std::string mesh;                // kModel: #model=
  std::vector<std::string> anims;  // kModel: each &anim=, in order
  // Whether the URL asked for something: a failure then falls back to the default demo.
  bool asked() const { return kind == Kind::kLink || kind == Kind::kDemo || kind == Kind::kModel; }
};

// Reads location.search and location.hash (leading '?' / '#' optional) as URLSearchParams does:
// '&'-separated, form-decoded, the first of a repeated key counts (all of `anim`).
PageLocation ParsePageLocation(std::string_view query, std::string_view fragment);

// The one-model scene a #model= link stands for: the mesh and its animations (each resolved
// against the mesh's URL or folder), one instance playing the first animation. Nothing is
// checked here: the scene's reader decides which sources are allowed.
JsonValue ModelLinkScene(const std::string& mesh, const std::vector<std::string>& anims,
                         const std::vector<std::string>& materials = {});

// `reference` resolved against `base` as the URL parser does for the cases links use: an
// absolute URL stays, "//host/x", "/x" and relative paths (with . and .. segments) join the base.
std::string ResolveUrl(const std::string& reference, const std::string& base);

// The base name without query, fragment or extension ("https://h/a/walk.md5anim?x" -> "walk").
std::string SourceStem(const std::string& source);

}  // namespace md5stage::viewer
