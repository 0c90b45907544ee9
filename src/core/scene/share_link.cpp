#include "core/scene/share_link.h"

#include <cstdint>
#include <vector>

#include "core/scene/base64url.h"
#include "core/scene/deflate.h"
#include "core/scene/scene_json.h"

namespace md5stage {

namespace {

constexpr char kLinkFile[] = "#scene";

// The first byte of a payload: which compression and dictionary the rest uses.
constexpr std::uint8_t kLinkFormat = 1;

// Preset DEFLATE dictionary of format 1: the keys and common values of a scene, so that even a
// small scene's first keys compress to matches. Changing it needs a new format number.
constexpr char kLinkDictionary[] =
    "{\"version\":1,\"models\":[{\"name\":\"\",\"mesh\":\"models/.md5mesh\",\"anims\":[\"mode"
    "ls/.md5anim\",\"https://\"],\"local\":true}],\"routes\":[{\"name\":\"route\",\"closed\":"
    "true,\"kinds\":\"bbbbbbbbbbbbbbbb\",\"scale\":100,\"deltas\":[],\"segments\":[{\"line\":"
    "[[0,0]]},{\"bezier\":[[0,0]]}]}],\"instances\":[{\"model\":\"\",\"position\":[0,0],\"hea"
    "ding\":0,\"animation\":\"idle\",\"time\":0,\"rate\":1,\"mode\":\"once\",\"locomotion\":\""
    "walk\",\"idle\":\"idle\",\"speed\":60,\"turn_radius\":0,\"route\":0,\"route_mode\":\"pin"
    "gpong\",\"start_delay\":0,\"target\":{\"x\":0,\"y\":0,\"heading\":0},\"attachments\":[{\""
    "model\":\"\",\"joint\":\"tag_\",\"offset\":[0,0,0],\"rotation\":[0,0,0]}]}],\"camera\":{"
    "\"target\":[0,0,35],\"yaw\":0,\"pitch\":0,\"distance\":0},\"display\":{\"grid\":false,\""
    "skeleton\":true,\"joint_names\":true,\"bounds\":true,\"wireframe\":true,\"normals\":true"
    ",\"routes\":false,\"turn_circles\":false},\"time\":0,\"playing\":false}";

Status CheckNoLocalModels(const Scene& scene) {
  for (std::size_t i = 0; i < scene.models.size(); ++i) {
    if (scene.models[i].local) {
      return MakeError(kLinkFile, 0, 0,
                       "models[" + std::to_string(i) +
                           "].local: expected a bundled or https model in a share link, found "
                           "a local file (\"" +
                           scene.models[i].name + "\")");
    }
  }
  return Status();
}

}  // namespace

Result<std::string> EncodeSceneLink(const Scene& scene) {
  Status valid = ValidateScene(scene);
  if (!valid.ok()) {
    Diagnostic error = valid.error();
    error.file = kLinkFile;
    return error;
  }
  Status travels = CheckNoLocalModels(scene);
  if (!travels.ok()) return travels.error();
  SceneWriteOptions options;
  options.omit_defaults = true;
  options.decimals = kSceneLinkDecimals;
  options.pack_routes = true;
  const std::string json = WriteScene(scene, options);
  std::vector<std::uint8_t> bytes = DeflateCompress(json, kLinkDictionary);
  bytes.insert(bytes.begin(), kLinkFormat);
  return Base64UrlEncode(bytes.data(), bytes.size());
}

Result<Scene> DecodeSceneLink(std::string_view payload) {
  if (payload.substr(0, 1) == "#") payload.remove_prefix(1);
  if (payload.substr(0, 6) == "scene=") payload.remove_prefix(6);
  Result<std::vector<std::uint8_t>> bytes = Base64UrlDecode(kLinkFile, payload, kMaxSceneLinkChars);
  if (!bytes.ok()) return bytes.error();
  const std::vector<std::uint8_t>& data = bytes.value();
  if (data.empty() || data[0] != kLinkFormat) {
    return MakeError(kLinkFile, 0, 0,
                     "expected link format " + std::to_string(kLinkFormat) + ", found " +
                         (data.empty() ? std::string("no data") : std::to_string(data[0])));
  }
  Result<std::string> json = DeflateDecompress(kLinkFile, data.data() + 1, data.size() - 1,
                                               kMaxSceneJsonBytes, kLinkDictionary);
  if (!json.ok()) return json.error();
  Result<Scene> scene = ParseScene(kLinkFile, json.value());
  if (!scene.ok()) return scene;
  Status travels = CheckNoLocalModels(scene.value());
  if (!travels.ok()) return travels.error();
  return scene;
}

}  // namespace md5stage
