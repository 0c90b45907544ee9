// The lamp prop: a hand lantern whose bail (handle) passes through the origin, so attaching it to
// tag_hand_r puts the handle in the walker's fist; the lantern hangs below along -Z.
#pragma once

#include "model.h"

namespace md5stage::assetgen {

// Two joints: "handle" at the origin and "lantern" at the bail's pivots below it.
Skeleton BuildLampSkeleton();

// The lamp mesh (shader "models/lamp/lamp") on BuildLampSkeleton's joints, UVs in the layout of
// PaintLampTexture.
SkinMesh BuildLampMesh();

}  // namespace md5stage::assetgen
