// `md5stage info FILE... [--json]`: facts about each .md5mesh / .md5anim / .md5camera, and the
// materials and skins of each .mtr / .shader / .skin; errors and warnings go to stderr as
// FILE:LINE:COL messages, and the exit status is 1 unless every file is valid.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli/camera_cli.h"
#include "cli/cli_files.h"
#include "cli/command_registry.h"
#include "cli/decl_cli.h"
#include "core/common/json.h"
#include "core/material/material_parser.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_camera.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

// Floats as the text line shows them: 9 significant digits read back as the same float.
std::string FloatText(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}
// The same digits in --json, so the two outputs agree ("0.200000003", not the double's
// "0.20000000298023224").
JsonValue FloatJson(float value) {
  return JsonValue(std::strtod(FloatText(value).c_str(), nullptr));
}

JsonValue WarningsJson(const std::vector<Diagnostic>& warnings) {
  JsonValue list = JsonValue::MakeArray();
  for (const Diagnostic& warning : warnings) list.Append(warning.ToString());
  return list;
}

JsonValue FileJson(const std::string& path, const char* kind) {
  JsonValue object = JsonValue::MakeObject();
  object.Set("file", path);
  object.Set("kind", kind);
  return object;
}

// One file: prints its text line (or fills its JSON object); returns false on an error.
bool Describe(const std::string& path, bool json, JsonValue* json_out) {
  if (material::IsDeclFileName(path)) return DescribeDeclFile(path, json, json_out);
  if (md5::IsMd5CameraName(path)) return DescribeCameraFile(path, json, json_out);
  Result<std::string> bytes = md5::ReadFileBytes(path);
  const md5::Md5Kind kind =
      bytes.ok() ? md5::DetectMd5Kind(path, bytes.value()) : md5::DetectMd5Kind(path, "");
  const char* kind_name = kind == md5::Md5Kind::kAnim ? "anim" : "mesh";
  auto fail = [&](const Diagnostic& error) {
    std::fprintf(stderr, "%s\n", error.ToString().c_str());
    *json_out = FileJson(path, kind_name);
    json_out->Set("error", error.ToString());
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
      *json_out = FileJson(path, "mesh");
      json_out->Set("joints", static_cast<double>(f.joints.size()));
      json_out->Set("meshes", static_cast<double>(f.meshes.size()));
      json_out->Set("vertices", f.vertex_count());
      json_out->Set("triangles", f.triangle_count());
      json_out->Set("weights", f.weight_count());
      json_out->Set("max_weights_per_vertex", f.max_weights_per_vertex());
      json_out->Set("warnings", WarningsJson(f.warnings));
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
    *json_out = FileJson(path, "anim");
    json_out->Set("joints", f.joint_count);
    json_out->Set("frames", f.frame_count);
    json_out->Set("frame_rate", FloatJson(f.frame_rate));
    json_out->Set("animated_components", f.animated_component_count);
    json_out->Set("duration", FloatJson(f.duration()));
    json_out->Set("warnings", WarningsJson(f.warnings));
  } else {
    std::printf("%s: anim, %d joints, %d frames at %s fps, %d animated components, %s s\n",
                path.c_str(), f.joint_count, f.frame_count, FloatText(f.frame_rate).c_str(),
                f.animated_component_count, FloatText(f.duration()).c_str());
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
  JsonValue objects = JsonValue::MakeArray();
  for (const std::string& file : files) {
    JsonValue object;
    all_valid &= Describe(file, json, &object);
    objects.Append(std::move(object));
  }
  if (json) {
    // One file: its object; several: an array in argument order.
    const JsonArray& list = objects.as_array();
    std::printf("%s\n", WriteJson(list.size() == 1 ? list[0] : objects).c_str());
  }
  return all_valid ? 0 : 1;
}

static CommandRegistrar reg{{"info", "info FILE... [--json]", &RunInfo}};

}  // namespace
}  // namespace md5stage::cli
