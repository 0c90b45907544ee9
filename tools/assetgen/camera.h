// The demo cinematic camera: a slow orbit round the walker standing at the origin, with one cut
// to a closer shot from the other side (assets/cameras/walker_orbit.md5camera).
#pragma once

#include <string>

namespace md5stage::assetgen {

std::string WalkerOrbitCamera();

}  // namespace md5stage::assetgen
