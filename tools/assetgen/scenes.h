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
// Three walkers with different turning radii sent through a maze of walls (a narrow gap, a
// cul-de-sac): each plans its own legal way round.
std::string MazeSceneJson();
// The walker idling at the origin, seen through the demo cinematic camera (camera.h).
std::string CameraSceneJson();

}  // namespace md5stage::assetgen
