// `md5stage info FILE... [--json]`: facts about each .md5mesh / .md5anim, and the materials and
// skins of each .mtr / .shader / .skin; errors and warnings go to stderr as FILE:LINE:COL
// messages, and the exit status is 1 unless every file is valid.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "cli/decl_cli.h"
#include "core/material/material_parser.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

std::string WarningsJson(const std::vector<Diagnostic>& warnings) {
  std::string out = "[";
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    out += (i > 0 ? ", " : "") + JsonString(warnings[i].ToString());
  }
  return out + "]";
}

void PrintDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics) std::fprintf(stderr, "%s\n", d.ToString().c_str());
}

// One file: prints its text line (or fills its JSON object); returns false on an error.
bool Describe(const std::string& path, bool json, std::string* json_out) {
  if (material::IsDeclFileName(path)) return DescribeDeclFile(path, json, json_out);
  Result<std::string> bytes = md5::ReadFileBytes(path);
  const md5::Md5Kind kind =
      bytes.ok() ? md5::DetectMd5Kind(path, bytes.value()) : md5::DetectMd5Kind(path, "");
  const char* kind_name = kind == md5::Md5Kind::kAnim ? "anim" : "mesh";
  auto fail = [&](const Diagnostic& error) {
    std::fprintf(stderr, "%s\n", error.ToString().c_str());
    *json_out = "{\"file\": " + JsonString(path) + ", \"kind\": \"" + kind_name +
                "\", \"error\": " + JsonString(error.ToString()) + "}";
    return false;
  };
  if (!bytes.ok()) return fail(bytes.error());
  if (kind == md5::Md5Kind::kUnknown) {
    return fail(MakeError(path, 0, 0,
                          "expected an .md5mesh or .md5anim file (numMeshes or numFrames in the "
                          "header), found neither"));
  }
  if (kind == md5::Md5Kind::kMesh) {
    Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(path, bytes.value());
    if (!mesh.ok()) return fail(mesh.error());
    const md5::MeshFile& f = mesh.value();
    PrintDiagnostics(f.warnings);
    if (json) {
      *json_out = "{\"file\": " + JsonString(path) +
                  ", \"kind\": \"mesh\", \"joints\": " + std::to_string(f.joints.size()) +
                  ", \"meshes\": " + std::to_string(f.meshes.size()) +
                  ", \"vertices\": " + std::to_string(f.vertex_count()) +
                  ", \"triangles\": " + std::to_string(f.triangle_count()) +
                  ", \"weights\": " + std::to_string(f.weight_count()) +
                  ", \"max_weights_per_vertex\": " + std::to_string(f.max_weights_per_vertex()) +
                  ", \"warnings\": " + WarningsJson(f.warnings) + "}";
    } else {
      std::printf(
          "%s: mesh, %zu joints, %zu meshes, %d vertices, %d triangles, %d weights, "
          "at most %d weights per vertex\n",
          path.c_str(), f.joints.size(), f.meshes.size(), f.vertex_count(), f.triangle_count(),
          f.weight_count(), f.max_weights_per_vertex());
    }
    return true;
  }
  Result<md5::AnimFile> anim = md5::ParseMd5Anim(path, bytes.value());
  if (!anim.ok()) return fail(anim.error());
  const md5::AnimFile& f = anim.value();
  PrintDiagnostics(f.warnings);
  if (json) {
    *json_out = "{\"file\": " + JsonString(path) +
                ", \"kind\": \"anim\", \"joints\": " + std::to_string(f.joint_count) +
                ", \"frames\": " + std::to_string(f.frame_count) +
                ", \"frame_rate\": " + Number(f.frame_rate) +
                ", \"animated_components\": " + std::to_string(f.animated_component_count) +
                ", \"duration\": " + Number(f.duration()) +
                ", \"warnings\": " + WarningsJson(f.warnings) + "}";
  } else {
    std::printf("%s: anim, %d joints, %d frames at %s fps, %d animated components, %s s\n",
                path.c_str(), f.joint_count, f.frame_count, Number(f.frame_rate).c_str(),
                f.animated_component_count, Number(f.duration()).c_str());
  }
  return true;
}

int RunInfo(const std::vector<std::string>& args) {
  bool json = false;
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    if (arg == "--json") {
      json = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr,
                   "md5stage info: unknown option '%s'\nusage: md5stage info FILE... [--json]\n",
                   arg.c_str());
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: md5stage info FILE... [--json]\n");
    return 2;
  }
  bool all_valid = true;
  std::vector<std::string> objects;
  for (const std::string& file : files) {
    std::string object;
    all_valid &= Describe(file, json, &object);
    objects.push_back(object);
  }
  if (json) {
    // One file: its object; several: an array in argument order.
    if (objects.size() == 1) {
      std::printf("%s\n", objects[0].c_str());
    } else {
      std::printf("[\n");
      for (std::size_t i = 0; i < objects.size(); ++i) {
        std::printf("  %s%s\n", objects[i].c_str(), i + 1 < objects.size() ? "," : "");
      }
      std::printf("]\n");
    }
  }
  return all_valid ? 0 : 1;
}

static CommandRegistrar reg{{"info", "info FILE... [--json]", &RunInfo}};

}  // namespace
}  // namespace md5stage::cli
