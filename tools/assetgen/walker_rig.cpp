#include "walker_rig.h"

namespace md5stage::assetgen {

const WalkerDimensions& Walker() {
  static const WalkerDimensions dimensions;
  return dimensions;
}

LimbJoints WalkerLimb(Side side) {
  if (side == kLeft) return {kShoulderL, kArmL, kForearmL, kHandL, kThighL, kShinL, kFootL, kToeL};
  return {kShoulderR, kArmR, kForearmR, kHandR, kThighR, kShinR, kFootR, kToeR};
}

Vec3 BindArmDirection(Side side) {
  const double drop = Walker().bind_arm_drop;
  double lateral = side == kLeft ? 1.0 : -1.0;
  return Vec3(0.0, lateral * std::cos(drop), -std::sin(drop));
}

Quat TagHandRBindOrientation() {
  // The hand's model rotation when the arm hangs straight down, inverted.
  Quat hanging = FrameRotation(BindArmDirection(kRight), BindElbowBendDirection(), Vec3(0, 0, -1),
                               Vec3(1, 0, 0));
  return glm::inverse(hanging);
}

Skeleton BuildWalkerSkeleton() {
  const WalkerDimensions& d = Walker();
  Skeleton s;
  s.Add("origin", -1, Vec3(0, 0, 0));
  s.Add("pelvis", kOrigin, Vec3(0, 0, d.hip_height + 1.5));
  s.Add("spine", kPelvis, Vec3(-0.2, 0, 44.0));
  s.Add("chest", kSpine, Vec3(-0.3, 0, 50.5));
  s.Add("neck", kChest, Vec3(-0.5, 0, 59.0));
  s.Add("head", kNeck, Vec3(-0.1, 0, 62.8));
  for (Side side : {kLeft, kRight}) {
    double y = side == kLeft ? 1.0 : -1.0;
    const char* suffix = side == kLeft ? "_l" : "_r";
    int chest_child = s.Add(std::string("shoulder") + suffix, kChest,
                            Vec3(0.4, y * 1.4, d.shoulder_height + 0.3));
    Vec3 arm_root(-0.3, y * d.shoulder_half_width, d.shoulder_height);
    Vec3 dir = BindArmDirection(side);
    int arm = s.Add(std::string("arm") + suffix, chest_child, arm_root);
    Vec3 elbow = arm_root + dir * d.upper_arm_length;
    int forearm = s.Add(std::string("forearm") + suffix, arm, elbow);
    Vec3 wrist = elbow + dir * d.forearm_length;
    int hand = s.Add(std::string("hand") + suffix, forearm, wrist);
    if (side == kRight) {
      // Centre of the fist: along the hand and a little toward the palm (the body's midline).
      Vec3 palm = glm::normalize(glm::cross(BindElbowBendDirection(), dir));
      if (palm.y < 0) palm = -palm;
      s.Add("tag_hand_r", hand, wrist + dir * 3.4 + palm * 0.2, TagHandRBindOrientation());
    }
  }
  for (Side side : {kLeft, kRight}) {
    double y = (side == kLeft ? 1.0 : -1.0) * d.hip_half_width;
    const char* suffix = side == kLeft ? "_l" : "_r";
    int thigh = s.Add(std::string("thigh") + suffix, kPelvis, Vec3(0, y, d.hip_height));
    double knee_height = (d.hip_height + d.ankle_height) * 0.5;
    int shin = s.Add(std::string("shin") + suffix, thigh, Vec3(0, y, knee_height));
    int foot = s.Add(std::string("foot") + suffix, shin, Vec3(0, y, d.ankle_height));
    s.Add(std::string("toe") + suffix, foot, Vec3(d.ball_forward, y, d.ball_height));
  }
  return s;
}

}  // namespace md5stage::assetgen
