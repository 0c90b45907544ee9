// The walker's skeleton: a ~70-unit adult in an A-pose bind (arms 45 degrees down), Z up, +X
// forward, left = +Y. Every bind orientation is the identity except tag_hand_r's, so a joint's
// local rotation axes are model axes in the bind pose, which keeps the pose code readable.
#pragma once

#include "model.h"

namespace md5stage::assetgen {

enum WalkerJoint : int {
  kOrigin = 0,  // on the ground under the pelvis; carries the root motion
  kPelvis,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kShoulderL,  // clavicle
  kArmL,
  kForearmL,
  kHandL,
  kShoulderR,
  kArmR,
  kForearmR,
  kHandR,
  kTagHandR,  // grip point in the right fist; see WalkerRig::tag_hand_r_bind
  kThighL,
  kShinL,
  kFootL,
  kToeL,
  kThighR,
  kShinR,
  kFootR,
  kToeR,
  kWalkerJointCount
};

enum Side : int { kLeft = 0, kRight = 1 };

struct LimbJoints {
  int shoulder, arm, forearm, hand;
  int thigh, shin, foot, toe;
};
LimbJoints WalkerLimb(Side side);

// Proportions (model units) shared by the mesh and the animations.
struct WalkerDimensions {
  double hip_height = 37.0;     // hip joint centre
  double hip_half_width = 4.0;  // |y| of the hip joints
  double ankle_height = 3.0;
  double heel_back = 2.65;    // heel behind the ankle
  double heel_radius = 1.2;   // the shoe's rounded heel edge: the foot rolls on it
  double ball_forward = 5.6;  // toe joint (ball of the foot) ahead of the ankle
  double ball_height = 1.0;   // toe joint above the ground
  double toe_tip_forward = 8.6;
  double foot_half_width = 1.9;
  double shoulder_height = 57.2;
  double shoulder_half_width = 7.6;  // |y| of the arm joints
  double upper_arm_length = 12.8;
  double forearm_length = 10.4;
  double bind_arm_drop = Radians(55.0);  // A-pose: arms this far below horizontal
  double height = 70.0;
};

const WalkerDimensions& Walker();

// The walker skeleton (kWalkerJointCount joints, named as in WalkerJointName).
Skeleton BuildWalkerSkeleton();

// Unit direction of the upper arm/forearm in the bind pose.
Vec3 BindArmDirection(Side side);

// The bind-pose side vector the elbow bends toward (forward, +X); the hinge axis is
// BindArmDirection x this.
inline Vec3 BindElbowBendDirection() { return Vec3(1, 0, 0); }

// tag_hand_r's bind orientation: chosen so the tag frame is the model frame (lamp hanging
// straight down along -Z, bail along X) when the right arm hangs straight down.
Quat TagHandRBindOrientation();

}  // namespace md5stage::assetgen
