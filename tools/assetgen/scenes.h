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
// The giving-way demos (a scene's `avoidance` on): sixteen walkers on a circle swapping sides,
// and two meeting head-on in a corridor.
std::string SwapSceneJson();
std::string CorridorSceneJson();
// Two groups of twenty crossing at right angles, giving way.
std::string CrossingSceneJson();
// A group of ten passing one gap in a wall, giving way.
std::string DoorwaySceneJson();
// The walker idling at the origin, seen through the demo cinematic camera (camera.h).
std::string CameraSceneJson();

// The tutorial's turn figures (web/docs-example.html): one walker, turning radius 60, sent from
// the origin facing +x to a pose whose shortest Dubins path is the given word.
struct DubinsFigure {
  const char* name;  // the scene's file name: dubins_lsl, ...
  double x, y, heading_degrees;
};
extern const DubinsFigure kDubinsFigures[6];
std::string DubinsSceneJson(const DubinsFigure& figure);
// Arc then line to a point inside the left turning circle: that side cannot reach it, so the
// walker turns right.
std::string ArcLineSceneJson();

}  // namespace md5stage::assetgen
