// Everything the generator makes, in memory: the models, clips and textures, and the exact bytes
// of each file under assets/ (paths relative to assets/, '/'-separated).
#pragma once

#include <string>
#include <vector>

#include "image.h"
#include "model.h"
#include "walker_anims.h"

namespace md5stage::assetgen {

struct GeneratedFile {
  std::string path;  // e.g. "models/walker/walker.md5mesh"
  std::string bytes;
};

struct AssetSet {
  Skeleton walker_skeleton;
  SkinMesh walker_mesh;
  std::vector<WalkerClip> walker_clips;  // idle, walk, run, wave
  Image walker_texture;
  Image walker_normal_map;    // walker_local.png
  Image walker_specular_map;  // walker_s.png
  Skeleton lamp_skeleton;
  SkinMesh lamp_mesh;
  Image lamp_texture;
  std::vector<GeneratedFile> files;  // sorted by path
};

AssetSet GenerateAssets();

}  // namespace md5stage::assetgen
