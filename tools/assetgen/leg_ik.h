// Analytic two-bone inverse kinematics for a leg (or any hinge limb), so a planted foot stays
// exactly where the gait puts it.
#pragma once

#include "math_util.h"

namespace md5stage::assetgen {

struct TwoBoneChain {
  Vec3 bind_root{0.0};  // model-space bind positions: hip, knee, ankle
  Vec3 bind_middle{0.0};
  Vec3 bind_end{0.0};
  // Bind-pose direction the middle joint bends toward (a knee bends forward, +X); the solution
  // bends toward the pole given to SolveTwoBone.
  Vec3 bind_bend{1.0, 0.0, 0.0};
};

struct TwoBoneSolution {
  Quat upper_rotation = Identity();  // model-space rotations relative to the bind pose
  Quat lower_rotation = Identity();
  Vec3 middle{0.0};  // where the knee ends up
  Vec3 end{0.0};     // where the ankle ends up (== target when reached)
  bool reached = false;
};

// Places the chain's root at `root` and bends it so its end lands on `target`, the middle joint
// bending toward `pole`. When the target is out of reach the chain points at it, stretched to
// `max_extension` of its length, and `reached` is false.
TwoBoneSolution SolveTwoBone(const TwoBoneChain& chain, const Vec3& root, const Vec3& target,
                             const Vec3& pole, double max_extension = 0.9999);

}  // namespace md5stage::assetgen
