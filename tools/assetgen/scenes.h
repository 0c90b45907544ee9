// The demo scenes (docs/scene-format.md, version 1) that ship in assets/scenes/.
#pragma once

#include <string>

namespace md5stage::assetgen {

// The walker idles, then walks a figure-eight route of cubic Bezier curves.
std::string DefaultSceneJson();
// Three walkers with different turning radii sent to the same point.
std::string TurnsSceneJson();
// Walkers carrying the lamp in the right hand.
std::string AttachSceneJson();
// Fifty walkers, each on its own closed route.
std::string CrowdSceneJson();

}  // namespace md5stage::assetgen
