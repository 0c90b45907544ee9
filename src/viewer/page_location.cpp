#include "viewer/page_location.h"

#include <cctype>

#include "viewer/embed_options.h"

namespace md5stage::viewer {
namespace {

std::string_view WithoutPrefix(std::string_view text, char prefix) {
  return !text.empty() && text.front() == prefix ? text.substr(1) : text;
}

// (name, value) pairs of form-encoded text, decoded.
std::vector<std::pair<std::string, std::string>> FormPairs(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(start, end - start);
    if (!item.empty()) {
      const size_t equals = item.find('=');
      pairs.emplace_back(DecodeFormComponent(item.substr(0, equals)),
                         equals == std::string_view::npos
                             ? std::string()
                             : DecodeFormComponent(item.substr(equals + 1)));
    }
    start = end + 1;
  }
  return pairs;
}

const std::string* First(const std::vector<std::pair<std::string, std::string>>& pairs,
                         const char* key) {
  for (const auto& pair : pairs) {
    if (pair.first == key) return &pair.second;
  }
  return nullptr;
}

// "scheme:" at the start (a letter, then letters, digits, + - .).
size_t SchemeLength(const std::string& text) {
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0]))) return 0;
  for (size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ':') return i + 1;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

// Removes . and .. segments from an absolute path ("/a/b/../c" -> "/a/c").
std::string RemoveDotSegments(const std::string& path) {
  std::vector<std::string> segments;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string segment = path.substr(start, end - start);
    const bool last = end == path.size();
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
      if (last) segments.emplace_back();
    } else if (segment == ".") {
      if (last) segments.emplace_back();
    } else {
      segments.push_back(segment);
    }
    start = end + 1;
  }
  std::string out;
  for (const std::string& segment : segments) out += "/" + segment;
  return out.empty() ? "/" : out;
}

}  // namespace

PageLocation ParsePageLocation(std::string_view query, std::string_view fragment) {
  PageLocation location;
  const auto hash = FormPairs(WithoutPrefix(fragment, '#'));
  if (const std::string* link = First(hash, "scene")) {
    location.kind = PageLocation::Kind::kLink;
    location.link = *link;
  } else if (const std::string* demo = First(hash, "demo")) {
    location.kind = PageLocation::Kind::kDemo;
    location.demo = *demo;
  } else if (const std::string* mesh = First(hash, "model")) {
    location.kind = PageLocation::Kind::kModel;
    location.mesh = *mesh;
    for (const auto& pair : hash) {
      if (pair.first == "anim") location.anims.push_back(pair.second);
    }
  } else {
    const auto search = FormPairs(WithoutPrefix(query, '?'));
    const std::string* scene = First(search, "scene");
    if (scene && *scene == "none") location.kind = PageLocation::Kind::kNothing;
  }
  return location;
}

std::string ResolveUrl(const std::string& reference, const std::string& base) {
  if (SchemeLength(reference) > 0) return reference;
  const size_t scheme = SchemeLength(base);
  if (scheme == 0 || base.compare(scheme, 2, "//") != 0) return reference;
  if (reference.rfind("//", 0) == 0) return base.substr(0, scheme) + reference;
  const size_t path_start = base.find('/', scheme + 2);
  const std::string origin = base.substr(0, path_start);
  std::string base_path = path_start == std::string::npos ? "/" : base.substr(path_start);
  base_path = base_path.substr(0, base_path.find_first_of("?#"));
  std::string path;
  if (!reference.empty() && reference[0] == '/') {
    path = reference;
  } else {
    path = base_path.substr(0, base_path.find_last_of('/') + 1) + reference;
  }
  const size_t tail = path.find_first_of("?#");
  const std::string suffix = tail == std::string::npos ? "" : path.substr(tail);
  return origin + RemoveDotSegments(path.substr(0, tail)) + suffix;
}

std::string SourceStem(const std::string& source) {
  std::string path = source.substr(0, source.find_first_of("?#"));
  path = path.substr(path.find_last_of('/') + 1);
  const size_t dot = path.find_last_of('.');
  return dot == std::string::npos ? path : path.substr(0, dot);
}

JsonValue ModelLinkScene(const std::string& mesh, const std::vector<std::string>& anims,
                         const std::vector<std::string>& materials) {
  const bool https = mesh.size() >= 8 &&
                     (mesh.compare(0, 8, "https://") == 0 || mesh.compare(0, 8, "HTTPS://") == 0);
  // A file named with the mesh: relative to it for an https mesh; for an assets path, a bare
  // name lies beside the mesh and a path (with a '/') is an assets path of its own.
  const auto beside_mesh = [&](const std::string& file) {
    if (https) return ResolveUrl(file, mesh);
    if (SchemeLength(file) == 0 && file.find('/') == std::string::npos && SchemeLength(mesh) == 0) {
      return mesh.substr(0, mesh.find_last_of('/') + 1) + file;
    }
    return file;
  };
  JsonArray sources;
  std::string first_stem;
  for (const std::string& anim : anims) {
    std::string resolved = beside_mesh(anim);
    if (first_stem.empty() && sources.empty()) first_stem = SourceStem(resolved);
    sources.emplace_back(resolved);
  }
  JsonArray decls;
  for (const std::string& material : materials) decls.emplace_back(beside_mesh(material));
  std::string name = SourceStem(mesh);
  if (name.empty()) name = "model";
  JsonValue model = JsonValue::MakeObject();
  model.Set("name", name);
  model.Set("mesh", mesh);
  const bool any = !sources.empty();
  model.Set("anims", JsonValue(std::move(sources)));
  if (!decls.empty()) model.Set("materials", JsonValue(std::move(decls)));
  JsonValue instance = JsonValue::MakeObject();
  instance.Set("model", name);
  if (any) instance.Set("animation", first_stem);
  JsonValue scene = JsonValue::MakeObject();
  scene.Set("version", 1);
  scene.Set("models", JsonValue(JsonArray{std::move(model)}));
  scene.Set("instances", JsonValue(JsonArray{std::move(instance)}));
  return scene;
}

}  // namespace md5stage::viewer
