#include "core/material/material.h"

#include <cstdio>

#include "core/material/decl_lexer.h"

namespace md5stage::material {

const char* MapKindName(MapKind kind) {
  switch (kind) {
    case MapKind::kDiffuse:
      return "diffuse";
    case MapKind::kNormal:
      return "normal";
    case MapKind::kSpecular:
      return "specular";
    case MapKind::kHeight:
      return "height";
    default:
      return "other";
  }
}

void ImageProgram::CollectImages(std::vector<const ImageProgram*>* out) const {
  if (op == Op::kImage) {
    out->push_back(this);
    return;
  }
  for (const ImageProgram& arg : args) arg.CollectImages(out);
}

std::string ImageProgram::ToString() const {
  if (op == Op::kImage) return text;
  if (op == Op::kNumber) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", number);
    return buffer;
  }
  std::string out = text + "(";
  for (std::size_t i = 0; i < args.size(); ++i) out += (i > 0 ? ", " : "") + args[i].ToString();
  return out + ")";
}

const Stage* Material::FindStage(MapKind kind) const {
  const Stage* first = nullptr;
  for (const Stage& stage : stages) {
    if (stage.kind != kind || !stage.has_image) continue;
    if (!stage.conditional) return &stage;
    if (first == nullptr) first = &stage;
  }
  return first;
}

std::string Skin::Remap(const std::string& shader) const {
  for (const SkinRemap& remap : remaps) {
    if (remap.from == "*" || EqualsIgnoreCase(remap.from, shader)) return remap.to;
  }
  return shader;
}

bool Skin::IsFor(const std::string& mesh_path) const {
  if (models.empty()) return true;
  std::string mesh = ToLower(mesh_path);
  for (char& c : mesh) c = c == '\\' ? '/' : c;
  for (const std::string& model : models) {
    std::string m = ToLower(model);
    for (char& c : m) c = c == '\\' ? '/' : c;
    if (mesh == m) return true;
    if (mesh.size() > m.size() && mesh.compare(mesh.size() - m.size(), m.size(), m) == 0 &&
        mesh[mesh.size() - m.size() - 1] == '/') {
      return true;
    }
    if (m.size() > mesh.size() && m.compare(m.size() - mesh.size(), mesh.size(), mesh) == 0 &&
        m[m.size() - mesh.size() - 1] == '/') {
      return true;  // a mesh given by base name or a shorter relative path
    }
  }
  return false;
}

}  // namespace md5stage::material
