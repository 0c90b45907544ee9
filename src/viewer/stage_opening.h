// The state of one scene opening (Stage::Open*, stage_opening.cpp): what it opens, which file it
// waits for, what has arrived. Private to the stage's sources.
#pragma once

#include <string>
#include <vector>

#include "core/common/json.h"
#include "viewer/model_library.h"
#include "viewer/page_location.h"
#include "viewer/stage.h"

namespace md5stage::viewer {

struct Stage::Opening {
  enum class Kind { kScene, kDemo, kLink, kModel, kLocation, kNothing };
  enum class Phase { kStart, kDemo, kFiles, kTextures };
  struct File {
    std::string source;
    std::string url;
  };

  int id = 0;
  Kind kind = Kind::kScene;
  JsonValue scene;                     // kScene
  std::string name;                    // kDemo: the demo; kLink: the payload; kModel: the mesh
  std::vector<std::string> anims;      // kModel
  std::vector<std::string> materials;  // kModel: .mtr/.shader/.skin
  std::string query, fragment;         // kLocation
  // A location that asked for something falls back to the default demo when that fails; the
  // asked one's error is kept for the result.
  bool fall_back = false;
  std::string asked_error;
  bool is_model_link = false;  // errors read "#model: ...", and the character is framed

  Phase phase = Phase::kStart;
  int request = 0;  // the fetch waited for; 0: none
  std::vector<File> files;
  size_t next_file = 0;
  std::vector<InputFile> fetched;
  // Per missing image, the candidate paths tried in turn (the first that arrives is used).
  std::vector<std::vector<std::string>> textures;
  size_t next_texture = 0;
  size_t next_candidate = 0;
  std::vector<InputFile> images;
  std::vector<std::string> warnings;
};

// A #model= link's error: "#model: " and the message without the made-up scene's position
// ("scene: " or "scene:LINE:COL: " at its start, ScenePositionLength bytes).
size_t ScenePositionLength(const std::string& message);
std::string ModelLinkMessage(const std::string& message);

}  // namespace md5stage::viewer
