// `md5stage scene`: share-link payloads from scene files and back, and scene validation.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "core/md5/file_reader.h"
#include "core/scene/scene_json.h"
#include "core/scene/share_link.h"

namespace md5stage::cli {
namespace {

constexpr const char* kUsage =
    "usage: md5stage scene encode [--without-local] SCENE.json\n"
    "       md5stage scene decode [--compact] PAYLOAD|-\n"
    "       md5stage scene check SCENE.json...\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "md5stage scene: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

int Fail(const Diagnostic& error) {
  std::fprintf(stderr, "%s\n", error.ToString().c_str());
  return 1;
}

// Reads and validates a scene file; prints the error and returns false when it is not one.
bool LoadScene(const std::string& file, Scene& scene) {
  const Result<std::string> text = md5::ReadFileBytes(file);
  if (!text.ok()) {
    Fail(text.error());
    return false;
  }
  Result<Scene> read = ParseScene(file, text.value());
  if (!read.ok()) {
    Fail(read.error());
    return false;
  }
  scene = std::move(read.value());
  return true;
}

int Encode(const std::vector<std::string>& args) {
  bool without_local = false;
  std::string file;
  for (const std::string& arg : args) {
    if (arg == "--without-local") {
      without_local = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unexpected argument '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return Usage("encode takes one scene file");
    }
  }
  if (file.empty()) return Usage("encode needs a scene file");
  Scene scene;
  if (!LoadScene(file, scene)) return 1;
  if (without_local) {
    std::vector<std::string> dropped;
    scene = WithoutLocalModels(scene, &dropped);
    for (const std::string& name : dropped) {
      std::fprintf(stderr, "%s: note: left out local model \"%s\"\n", file.c_str(), name.c_str());
    }
  }
  Result<std::string> payload = EncodeSceneLink(scene);
  if (!payload.ok()) return Fail(payload.error());
  std::printf("%s\n", payload.value().c_str());
  return 0;
}

int Decode(const std::vector<std::string>& args) {
  bool compact = false;
  std::string payload;
  bool has_payload = false;
  for (const std::string& arg : args) {
    if (arg == "--compact") {
      compact = true;
    } else if (arg == "-" && !has_payload) {
      // Links can be longer than a command line allows.
      payload.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      while (!payload.empty() &&
             (payload.back() == '\n' || payload.back() == '\r' || payload.back() == ' ')) {
        payload.pop_back();
      }
      has_payload = true;
    } else if (arg.rfind("--", 0) == 0) {
      return Usage("unexpected argument '" + arg + "'");
    } else if (!has_payload) {
      payload = arg;
      has_payload = true;
    } else {
      return Usage("decode takes one payload");
    }
  }
  if (!has_payload) return Usage("decode needs a payload (or - to read it from stdin)");
  Result<Scene> scene = DecodeSceneLink(payload);
  if (!scene.ok()) return Fail(scene.error());
  SceneWriteOptions options;
  options.indent = compact ? 0 : 2;
  options.omit_defaults = compact;
  std::printf("%s\n", WriteScene(scene.value(), options).c_str());
  return 0;
}

int Check(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("check needs a scene file");
  int status = 0;
  for (const std::string& file : args) {
    Scene scene;
    if (!LoadScene(file, scene)) {
      status = 1;
      continue;
    }
    std::size_t segments = 0;
    for (const SceneRoute& route : scene.routes) segments += route.segments.size();
    std::printf("%s: ok: %zu models, %zu routes (%zu segments), %zu instances\n", file.c_str(),
                scene.models.size(), scene.routes.size(), segments, scene.instances.size());
  }
  return status;
}

int RunScene(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("a subcommand is required");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "encode") return Encode(rest);
  if (args[0] == "decode") return Decode(rest);
  if (args[0] == "check") return Check(rest);
  return Usage("unknown subcommand '" + args[0] + "'");
}

static CommandRegistrar reg{
    {"scene", "scene encode|decode|check ... (share-link payloads, scene validation)", &RunScene}};

}  // namespace
}  // namespace md5stage::cli
