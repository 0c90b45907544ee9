#include "cli/decl_cli.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "cli/cli_files.h"
#include "core/common/json.h"
#include "core/material/decl_lexer.h"
#include "core/material/material_parser.h"
#include "core/material/material_resolve.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

namespace fs = std::filesystem;
using material::DeclFile;
using material::ImageLookup;
using material::MapKind;
using material::Material;
using material::ResolvedMap;
using material::Skin;
using material::Stage;

JsonValue WarningsJson(const std::vector<Diagnostic>& warnings) {
  JsonArray out;
  for (const Diagnostic& w : warnings) out.emplace_back(w.ToString());
  return JsonValue(std::move(out));
}

std::string Count(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string Where(const md5::SourceLocation& where) {
  return std::to_string(where.line) + ":" + std::to_string(where.column);
}

std::string FlagsText(const Material& m) {
  std::string out;
  if (m.two_sided) out += " twoSided";
  if (m.translucent) out += " translucent";
  if (m.alpha_test) {
    out += " alphaTest " + (m.alpha_test_expression.empty() ? FormatJsonNumber(*m.alpha_test)
                                                            : m.alpha_test_expression);
  }
  return out;
}

JsonValue MaterialJson(const Material& m) {
  JsonValue out = JsonValue::MakeObject();
  out.Set("name", m.name);
  out.Set("line", m.where.line);
  out.Set("column", m.where.column);
  out.Set("two_sided", m.two_sided);
  out.Set("translucent", m.translucent);
  out.Set("alpha_test", m.alpha_test ? JsonValue(static_cast<double>(*m.alpha_test)) : JsonValue());
  if (!m.alpha_test_expression.empty()) out.Set("alpha_test_expression", m.alpha_test_expression);
  JsonArray stages;
  for (const Stage& s : m.stages) {
    JsonValue stage = JsonValue::MakeObject();
    stage.Set("kind", material::MapKindName(s.kind));
    stage.Set("blend", s.blend);
    stage.Set("line", s.where.line);
    stage.Set("conditional", s.conditional);
    stage.Set("program", s.has_image ? JsonValue(s.image.ToString()) : JsonValue());
    JsonArray images;
    std::vector<const material::ImageProgram*> leaves;
    if (s.has_image) s.image.CollectImages(&leaves);
    for (const auto* leaf : leaves) images.emplace_back(leaf->text);
    stage.Set("images", JsonValue(std::move(images)));
    stages.push_back(std::move(stage));
  }
  out.Set("stages", JsonValue(std::move(stages)));
  return out;
}

JsonValue SkinJson(const Skin& s) {
  JsonValue out = JsonValue::MakeObject();
  out.Set("name", s.name);
  out.Set("line", s.where.line);
  out.Set("quake_style", s.quake_style);
  JsonArray models;
  for (const std::string& m : s.models) models.emplace_back(m);
  out.Set("models", JsonValue(std::move(models)));
  JsonArray remaps;
  for (const auto& r : s.remaps) {
    JsonValue remap = JsonValue::MakeObject();
    remap.Set("from", r.from);
    remap.Set("to", r.to);
    remaps.push_back(std::move(remap));
  }
  out.Set("remaps", JsonValue(std::move(remaps)));
  return out;
}

// Every file under `folder`, relative to it, '/'-separated, sorted (so ties break the same way
// on every machine).
std::vector<std::string> ListFolder(const fs::path& folder) {
  std::vector<std::string> paths;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file(error)) {
      paths.push_back(fs::relative(it->path(), folder, error).generic_string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string MapText(const ResolvedMap& map, int* missing) {
  if (!map.present) return "none";
  std::string found;
  for (std::size_t i = 0; i < map.images.size(); ++i) {
    const ImageLookup& image = map.images[i];
    found += i > 0 ? " + " : "";
    if (image.how == ImageLookup::How::kMissing) {
      found += "MISSING " + image.requested;
      ++*missing;
    } else if (image.how == ImageLookup::How::kBuiltin) {
      found += image.requested + " (built in)";
    } else {
      found += image.path;
    }
  }
  const bool program = map.program.op != material::ImageProgram::Op::kImage;
  return program ? map.program.ToString() + " = " + found : found;
}

JsonValue MapJson(const ResolvedMap& map) {
  if (!map.present) return JsonValue();
  JsonValue out = JsonValue::MakeObject();
  out.Set("program", map.program.ToString());
  JsonArray images;
  for (const ImageLookup& image : map.images) {
    JsonValue entry = JsonValue::MakeObject();
    entry.Set("requested", image.requested);
    entry.Set("file", image.path.empty() ? JsonValue() : JsonValue(image.path));
    entry.Set("how", material::LookupHowName(image.how));
    images.push_back(std::move(entry));
  }
  out.Set("images", JsonValue(std::move(images)));
  out.Set("complete", map.Complete());
  return out;
}

}  // namespace

bool DescribeDeclFile(const std::string& path, bool json, JsonValue* json_out) {
  auto fail = [&](const Diagnostic& error) {
    std::fprintf(stderr, "%s\n", error.ToString().c_str());
    JsonValue out = JsonValue::MakeObject();
    out.Set("file", path);
    out.Set("kind", "decls");
    out.Set("error", error.ToString());
    *json_out = std::move(out);
    return false;
  };
  Result<std::string> bytes = md5::ReadFileBytes(path);
  if (!bytes.ok()) return fail(bytes.error());
  Result<DeclFile> parsed = material::ParseDeclFile(path, bytes.value());
  if (!parsed.ok()) return fail(parsed.error());
  const DeclFile& file = parsed.value();
  PrintDiagnostics(file.warnings);
  if (json) {
    JsonValue out = JsonValue::MakeObject();
    out.Set("file", path);
    out.Set("kind", "decls");
    JsonArray materials, skins;
    for (const Material& m : file.materials) materials.push_back(MaterialJson(m));
    for (const Skin& s : file.skins) skins.push_back(SkinJson(s));
    out.Set("materials", JsonValue(std::move(materials)));
    out.Set("skins", JsonValue(std::move(skins)));
    out.Set("skipped_decls", file.skipped_decls);
    out.Set("warnings", WarningsJson(file.warnings));
    *json_out = std::move(out);
    return true;
  }
  std::printf(
      "%s: decls, %s, %s, %s skipped, %s\n", path.c_str(),
      Count(file.materials.size(), "material", "materials").c_str(),
      Count(file.skins.size(), "skin", "skins").c_str(),
      Count(static_cast<std::size_t>(file.skipped_decls), "other decl", "other decls").c_str(),
      Count(file.warnings.size(), "warning", "warnings").c_str());
  for (const Material& m : file.materials) {
    std::printf("  material %s (%s)%s\n", m.name.c_str(), Where(m.where).c_str(),
                FlagsText(m).c_str());
    for (const Stage& s : m.stages) {
      std::string how = s.shortcut ? "" : " (blend " + (s.blend.empty() ? "-" : s.blend) + ")";
      std::printf("    %s%s: %s%s\n", material::MapKindName(s.kind), how.c_str(),
                  s.has_image ? s.image.ToString().c_str() : "no image",
                  s.conditional ? " [conditional]" : "");
    }
  }
  for (const Skin& s : file.skins) {
    std::string models;
    for (const std::string& m : s.models) models += " model " + m;
    std::printf("  skin %s (%s)%s%s\n", s.name.c_str(), Where(s.where).c_str(),
                s.quake_style ? " quake-style" : "", models.c_str());
    for (const auto& r : s.remaps) std::printf("    %s -> %s\n", r.from.c_str(), r.to.c_str());
  }
  return true;
}

const Skin* MaterialFolder::FindSkin(const std::string& name) const {
  for (const DeclFile* file : decl_files) {
    for (const Skin& s : file->skins) {
      if (material::EqualsIgnoreCase(s.name, name)) return &s;
    }
  }
  return nullptr;
}

Result<std::unique_ptr<MaterialFolder>> ReadMaterialFolder(const std::string& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) {
    return MakeError("", 0, 0, "--materials: expected a folder, found '" + folder + "'");
  }
  auto out = std::make_unique<MaterialFolder>();
  out->folder = folder;
  out->paths = ListFolder(folder);
  for (const std::string& path : out->paths) {
    // .def files too: Doom 3 keeps many skin decls next to the modelDefs that use them.
    const bool def =
        path.size() > 4 && material::EqualsIgnoreCase(path.substr(path.size() - 4), ".def");
    if (!material::IsDeclFileName(path) && !def) continue;
    const std::string full = (fs::path(folder) / path).string();
    Result<std::string> bytes = md5::ReadFileBytes(full);
    Result<DeclFile> parsed =
        bytes.ok() ? material::ParseDeclFile(path, bytes.value()) : Result<DeclFile>(bytes.error());
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
      out->all_read = false;
      continue;
    }
    PrintDiagnostics(parsed.value().warnings);
    out->decls.push_back(std::make_unique<DeclFile>(std::move(parsed).value()));
  }
  for (const auto& d : out->decls) out->decl_files.push_back(d.get());
  out->table = std::make_unique<material::MaterialTable>(out->decl_files);
  PrintDiagnostics(out->table->warnings());
  out->images = material::ImageIndex(out->paths);
  return out;
}

Result<material::ResolveOutput> ResolveFolderMaterials(const MaterialFolder& folder,
                                                       const std::vector<std::string>& shaders,
                                                       const std::string& model_name,
                                                       const std::string& skin_name) {
  const Skin* skin = nullptr;
  if (!skin_name.empty()) {
    skin = folder.FindSkin(skin_name);
    if (skin == nullptr) {
      return MakeError(
          "", 0, 0,
          "--skin: expected a skin defined under " + folder.folder + ", found '" + skin_name + "'");
    }
  }
  material::ResolveInput input;
  input.shaders = shaders;
  input.model_name = model_name;
  input.materials = folder.table.get();
  input.skin = skin;
  input.images = &folder.images;
  return material::ResolveMaterials(input);
}

namespace {

constexpr MapKind kShownMaps[] = {MapKind::kDiffuse, MapKind::kNormal, MapKind::kSpecular,
                                  MapKind::kHeight};

// What the check found on the mesh's parts, as text lines and JSON, and its counts.
struct PartsReport {
  std::string text;
  JsonArray json;
  int missing = 0;  // images
  int complete_parts = 0;
  int without_diffuse = 0;
};

// Part i's material, its maps and whether it is complete, added to the report.
void DescribePart(const material::PartResolution& part, std::size_t i, PartsReport* report) {
  const bool has_diffuse = part.map(MapKind::kDiffuse).Complete();
  report->without_diffuse += has_diffuse ? 0 : 1;
  bool complete = has_diffuse;
  for (MapKind kind : kShownMaps) {
    if (part.map(kind).present && !part.map(kind).Complete()) complete = false;
  }
  report->complete_parts += complete ? 1 : 0;
  std::string shader = "\"" + part.shader + "\"";
  if (part.shader_after_skin != part.shader) shader += " (skin: " + part.shader_after_skin + ")";
  const std::string origin = part.material != nullptr
                                 ? "material " + part.material->name + " (" + part.material->file +
                                       ":" + Where(part.material->where) + ")"
                                 : std::string("no material, guessed from the shader's name");
  report->text += "  part " + std::to_string(i) + " " + shader + ": " + origin + "\n";
  JsonValue part_json = JsonValue::MakeObject();
  part_json.Set("index", static_cast<int>(i));
  part_json.Set("shader", part.shader);
  part_json.Set("shader_after_skin", part.shader_after_skin);
  part_json.Set("material", part.material ? JsonValue(part.material->name) : JsonValue());
  part_json.Set("material_file", part.material ? JsonValue(part.material->file) : JsonValue());
  JsonValue maps = JsonValue::MakeObject();
  for (MapKind kind : kShownMaps) {
    const ResolvedMap& map = part.map(kind);
    if (kind == MapKind::kHeight && !map.present) continue;
    report->text += std::string("    ") + material::MapKindName(kind) + ": " +
                    MapText(map, &report->missing) + "\n";
    maps.Set(material::MapKindName(kind), MapJson(map));
  }
  part_json.Set("maps", std::move(maps));
  part_json.Set("complete", complete);
  report->json.push_back(std::move(part_json));
}

// Everything `check --materials` prints: the folder, the skins, the parts and the verdict.
struct MaterialCheckReport {
  const MaterialFolder* folder = nullptr;
  const Skin* skin = nullptr;  // --skin's, or null
  std::vector<std::string> skins_for_mesh;
  std::size_t part_count = 0;
  PartsReport parts;
  bool ok = false;
};

// The mesh read and parsed (its warnings printed): whether it was (else the error printed).
bool ReadCheckedMesh(const std::string& path, md5::MeshFile* mesh) {
  Result<std::string> mesh_bytes = md5::ReadFileBytes(path);
  if (!mesh_bytes.ok()) {
    std::fprintf(stderr, "%s\n", mesh_bytes.error().ToString().c_str());
    return false;
  }
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh(path, mesh_bytes.value());
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
    return false;
  }
  PrintDiagnostics(parsed.value().warnings);
  *mesh = std::move(parsed).value();
  return true;
}

// The folder's skins that name the mesh among their models.
std::vector<std::string> SkinsForMesh(const MaterialFolder& folder, const std::string& mesh) {
  std::vector<std::string> names;
  for (const DeclFile* file : folder.decl_files) {
    for (const Skin& s : file->skins) {
      if (s.IsFor(mesh)) names.push_back(s.name);
    }
  }
  return names;
}

void PrintCheckJson(const MaterialCheckOptions& options, MaterialCheckReport* report) {
  const MaterialFolder& folder = *report->folder;
  JsonValue root = JsonValue::MakeObject();
  root.Set("mesh", options.mesh);
  root.Set("materials_folder", options.folder);
  root.Set("decl_files", static_cast<int>(folder.decl_files.size()));
  root.Set("materials", folder.table->size());
  root.Set("images", folder.images.image_count());
  root.Set("skin", report->skin ? JsonValue(report->skin->name) : JsonValue());
  JsonArray skins;
  for (const std::string& s : report->skins_for_mesh) skins.emplace_back(s);
  root.Set("skins_for_mesh", JsonValue(std::move(skins)));
  root.Set("parts", JsonValue(std::move(report->parts.json)));
  root.Set("complete_parts", report->parts.complete_parts);
  root.Set("missing_images", report->parts.missing);
  root.Set("ok", report->ok);
  std::printf("%s\n", WriteJson(root, {2}).c_str());
}

void PrintCheckText(const MaterialCheckOptions& options, const MaterialCheckReport& report) {
  const MaterialFolder& folder = *report.folder;
  std::printf(
      "%s: %s; %s, %s, %s under %s\n", options.mesh.c_str(),
      Count(report.part_count, "part", "parts").c_str(),
      Count(folder.decl_files.size(), "decl file", "decl files").c_str(),
      Count(static_cast<std::size_t>(folder.table->size()), "material", "materials").c_str(),
      Count(static_cast<std::size_t>(folder.images.image_count()), "image", "images").c_str(),
      options.folder.c_str());
  if (!report.skins_for_mesh.empty()) {
    std::string names;
    for (const std::string& s : report.skins_for_mesh) names += (names.empty() ? "" : ", ") + s;
    std::printf("  skins: %s\n", names.c_str());
  }
  std::printf("%s", report.parts.text.c_str());
  std::printf(
      "%d of %zu parts complete, %s missing, %s without a diffuse image\n",
      report.parts.complete_parts, report.part_count,
      Count(static_cast<std::size_t>(report.parts.missing), "image", "images").c_str(),
      Count(static_cast<std::size_t>(report.parts.without_diffuse), "part", "parts").c_str());
}

}  // namespace

int RunMaterialCheck(const MaterialCheckOptions& options) {
  Result<std::unique_ptr<MaterialFolder>> read = ReadMaterialFolder(options.folder);
  if (!read.ok()) {
    std::fprintf(stderr, "md5stage check: %s\n", read.error().message.c_str());
    return 2;
  }
  const MaterialFolder& folder = *read.value();
  md5::MeshFile mesh;
  if (!ReadCheckedMesh(options.mesh, &mesh)) return 1;
  MaterialCheckReport report;
  report.folder = &folder;
  report.skin = options.skin.empty() ? nullptr : folder.FindSkin(options.skin);
  report.skins_for_mesh = SkinsForMesh(folder, options.mesh);
  if (!options.skin.empty() && report.skin == nullptr) {
    std::fprintf(stderr, "md5stage check: --skin: expected a skin defined under %s, found '%s'\n",
                 options.folder.c_str(), options.skin.c_str());
    return 2;
  }
  std::vector<std::string> shaders;
  for (const md5::MeshPart& part : mesh.meshes) shaders.push_back(part.shader);
  Result<material::ResolveOutput> resolved =
      ResolveFolderMaterials(folder, shaders, fs::path(options.mesh).stem().string(), options.skin);
  if (!resolved.ok()) {
    std::fprintf(stderr, "%s\n", resolved.error().ToString().c_str());
    return 1;
  }
  const material::ResolveOutput& out = resolved.value();
  PrintDiagnostics(out.warnings);
  report.part_count = out.parts.size();
  for (std::size_t i = 0; i < out.parts.size(); ++i) DescribePart(out.parts[i], i, &report.parts);
  report.ok = folder.all_read && report.parts.missing == 0 && report.parts.without_diffuse == 0;
  if (options.json) {
    PrintCheckJson(options, &report);
  } else {
    PrintCheckText(options, report);
  }
  return report.ok ? 0 : 1;
}

}  // namespace md5stage::cli
