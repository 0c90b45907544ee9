#include "walker_anims.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "leg_ik.h"
#include "text_format.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

constexpr int kFrameRate = 30;
constexpr double kReachedSwing = 0.8;
constexpr double kSwingExtension = 0.999;

// ---- A pose in body terms --------------------------------------------------------------------

struct ArmPose {
  double swing = 0.0;      // forward rotation of the hanging arm (radians)
  double abduction = 0.0;  // out from the body
  double twist = 0.0;      // about the arm's own axis
  double elbow = 0.0;      // flexion
  double wrist = 0.0;
  double clavicle_lift = 0.0;
  double clavicle_forward = 0.0;
  // When set, `direction` and `bend` (chest frame) replace swing and abduction.
  bool explicit_direction = false;
  Vec3 direction{0.0, 0.0, -1.0};
  Vec3 bend{1.0, 0.0, 0.0};
};

struct FootPose {
  Vec3 ankle{0.0};  // origin frame
  double yaw = 0.0;
  double pitch = 0.0;  // about +Y: positive lifts the heel
  double toe_bend = 0.0;
  bool planted = false;
  double swing = 0.0;  // progress through the swing, 0..1 (0 while planted)
};

// Rotation angles (radians) about Z, Y and X, applied in that order (yaw, then pitch, then roll).
struct Euler {
  double yaw = 0.0, pitch = 0.0, roll = 0.0;
  Quat ToQuat() const { return RotZ(yaw) * RotY(pitch) * RotX(roll); }
};

struct BodyPose {
  Vec3 pelvis_offset{0.0};  // from the bind position, origin frame
  Euler pelvis, spine, chest;
  Euler head;               // wanted head orientation in the origin frame
  double neck_share = 0.4;  // how much of the head's correction the neck takes
  ArmPose arms[2];
  FootPose feet[2];
};

double Sign(Side side) { return side == kLeft ? 1.0 : -1.0; }

TwoBoneChain LegChain(const Skeleton& skeleton, Side side) {
  LimbJoints limb = WalkerLimb(side);
  TwoBoneChain chain;
  chain.bind_root = skeleton.bind_positions[limb.thigh];
  chain.bind_middle = skeleton.bind_positions[limb.shin];
  chain.bind_end = skeleton.bind_positions[limb.foot];
  chain.bind_bend = Vec3(1, 0, 0);
  return chain;
}

// Where the hip joint of `side` is for `body` (origin frame).
Vec3 HipPosition(const Skeleton& skeleton, const BodyPose& body, Side side) {
  Vec3 pelvis = skeleton.bind_positions[kPelvis] + body.pelvis_offset;
  Vec3 offset = skeleton.bind_positions[WalkerLimb(side).thigh] - skeleton.bind_positions[kPelvis];
  return pelvis + body.pelvis.ToQuat() * offset;
}

// Parent-relative joint poses for `body`. Counts planted feet IK could not reach.
SkeletonPose Assemble(const Skeleton& skeleton, const BodyPose& body, int* unreached_planted) {
  SkeletonPose local = BindLocalPose(skeleton);
  local[kOrigin] = {Vec3(0.0), Identity()};
  Quat pelvis_rotation = body.pelvis.ToQuat();
  local[kPelvis] = {skeleton.bind_positions[kPelvis] + body.pelvis_offset, pelvis_rotation};
  local[kSpine].orientation = body.spine.ToQuat();
  local[kChest].orientation = body.chest.ToQuat();
  Quat chest_model = pelvis_rotation * local[kSpine].orientation * local[kChest].orientation;

  // Neck and head share the rotation that keeps the head where the body wants it.
  Quat head_target = body.head.ToQuat();
  Quat correction = glm::inverse(chest_model) * head_target;
  local[kNeck].orientation = glm::slerp(Identity(), correction, body.neck_share);
  local[kHead].orientation =
      glm::normalize(glm::inverse(chest_model * local[kNeck].orientation) * head_target);

  for (Side side : {kLeft, kRight}) {
    const ArmPose& arm = body.arms[side];
    LimbJoints limb = WalkerLimb(side);
    double s = Sign(side);
    Quat clavicle = RotX(s * arm.clavicle_lift) * RotZ(-s * arm.clavicle_forward);
    local[limb.shoulder].orientation = clavicle;
    Vec3 bind_direction = BindArmDirection(side);
    Vec3 bind_bend = BindElbowBendDirection();
    Vec3 direction = arm.direction, bend = arm.bend;
    if (!arm.explicit_direction) {
      double ca = std::cos(arm.swing), sa = std::sin(arm.swing);
      double cb = std::cos(arm.abduction), sb = std::sin(arm.abduction);
      direction = Vec3(sa * cb, s * sb, -ca * cb);
      bend = Vec3(ca, 0.0, sa);
    }
    Quat in_chest = AxisAngle(direction, s * arm.twist) *
                    FrameRotation(bind_direction, bind_bend, direction, bend);
    local[limb.arm].orientation = glm::normalize(glm::inverse(clavicle) * in_chest);
    Vec3 hinge = glm::cross(bind_direction, bind_bend);
    local[limb.forearm].orientation = AxisAngle(hinge, arm.elbow);
    local[limb.hand].orientation = AxisAngle(hinge, arm.wrist);
  }

  for (Side side : {kLeft, kRight}) {
    const FootPose& foot = body.feet[side];
    LimbJoints limb = WalkerLimb(side);
    Vec3 hip = HipPosition(skeleton, body, side);
    Vec3 pole = RotZ(foot.yaw) * Vec3(1, 0, 0);
    TwoBoneSolution leg = SolveTwoBone(LegChain(skeleton, side), hip, foot.ankle, pole);
    if (foot.planted && !leg.reached && unreached_planted) ++*unreached_planted;
    Quat foot_model = RotZ(foot.yaw) * RotY(foot.pitch);
    local[limb.thigh].orientation =
        glm::normalize(glm::inverse(pelvis_rotation) * leg.upper_rotation);
    local[limb.shin].orientation =
        glm::normalize(glm::inverse(leg.upper_rotation) * leg.lower_rotation);
    local[limb.foot].orientation = glm::normalize(glm::inverse(leg.lower_rotation) * foot_model);
    local[limb.toe].orientation = RotY(foot.toe_bend);
  }
  return local;
}

// ---- Gait cycles -----------------------------------------------------------------------------

struct GaitParameters {
  const char* name = "";
  double cycle_seconds = 1.0;
  double ground_speed = 0.0;
  double duty = 0.6;               // stance share of the cycle
  double foot_flat = 0.1;          // phase the heel roll ends (foot flat)
  double heel_off = 0.3;           // phase the heel starts to rise (roll over the ball)
  double heel_strike_pitch = 0.0;  // radians, toes up (negative)
  double toe_off_pitch = 0.0;      // radians, heel up (positive)
  double lift = 0.0;               // extra ankle height mid-swing
  double lift_skew = 1.0;          // < 1 moves the highest point of the swing earlier
  double hip_over_ankle = 0.25;    // stance phase when the hip passes over the flat ankle
  double foot_half_spacing = 4.0;  // |y| of the footholds
  double bob = 0.0;                // pelvis height amplitude
  double bob_phase = 0.25;         // phase of the highest (walk) or lowest (run) pelvis
  bool bob_high_in_stance = true;  // walk: highest at mid-stance; run: lowest
  double max_extension = 0.99;     // leg reach used, as a share of its length
  double pelvis_yaw = 0.0, pelvis_roll = 0.0, pelvis_sway = 0.0, pelvis_lean = 0.0;
  double spine_lean = 0.0, chest_counter_yaw = 0.0;
  double arm_swing = 0.0, arm_lag = 0.0, arm_abduction = 0.0, elbow = 0.0, elbow_swing = 0.0;
  double head_nod = 0.0;
  double swing_delay = 1.0;  // exponent on the swing's forward travel (1: symmetric)
};

GaitParameters WalkParameters() {
  GaitParameters p;
  p.name = "walk";
  p.cycle_seconds = 1.0;
  p.ground_speed = 55.0;  // 1.4 m/s at 1 unit = 1 inch
  p.duty = 0.62;
  p.foot_flat = 0.10;
  p.heel_off = 0.36;
  p.heel_strike_pitch = Radians(-22.0);
  p.toe_off_pitch = Radians(36.0);
  p.lift = 1.6;
  p.lift_skew = 0.8;
  p.hip_over_ankle = 0.27;
  p.foot_half_spacing = 3.6;
  p.bob = 1.0;
  p.bob_phase = 0.27;  // mid-stance: the hip over the ankle
  p.bob_high_in_stance = true;
  p.max_extension = 0.995;
  p.pelvis_yaw = Radians(5.0);
  p.pelvis_roll = Radians(3.5);
  p.pelvis_sway = 1.1;
  p.pelvis_lean = Radians(2.0);
  p.spine_lean = Radians(3.0);
  p.chest_counter_yaw = Radians(9.0);
  p.arm_swing = Radians(20.0);
  p.arm_lag = 0.04;
  p.arm_abduction = Radians(8.0);
  p.elbow = Radians(16.0);
  p.elbow_swing = Radians(14.0);
  p.head_nod = Radians(1.5);
  p.swing_delay = 1.0;
  return p;
}

GaitParameters RunParameters() {
  GaitParameters p;
  p.name = "run";
  p.cycle_seconds = 0.7;
  p.ground_speed = 150.0;  // 3.8 m/s, a jog
  p.duty = 0.28;
  p.foot_flat = 0.03;
  p.heel_off = 0.11;
  p.heel_strike_pitch = Radians(-6.0);
  p.toe_off_pitch = Radians(50.0);
  p.lift = 12.0;
  p.lift_skew = 0.6;
  p.hip_over_ankle = 0.095;
  p.foot_half_spacing = 2.8;
  p.bob = 0.7;
  p.bob_phase = 0.14;  // the middle of the stance
  p.bob_high_in_stance = false;
  p.max_extension = 0.99;
  p.pelvis_yaw = Radians(8.0);
  p.pelvis_roll = Radians(3.0);
  p.pelvis_sway = 0.8;
  p.pelvis_lean = Radians(7.0);
  p.spine_lean = Radians(6.0);
  p.chest_counter_yaw = Radians(14.0);
  p.arm_swing = Radians(34.0);
  p.arm_lag = 0.03;
  p.arm_abduction = Radians(12.0);
  p.elbow = Radians(80.0);
  p.elbow_swing = Radians(16.0);
  p.head_nod = Radians(2.0);
  p.swing_delay = 1.4;
  return p;
}

class Gait {
 public:
  Gait(const Skeleton& skeleton, const GaitParameters& p) : skeleton_(skeleton), p_(p) {
    stride_ = p.ground_speed * p.cycle_seconds;
    SolvePelvisHeight();
  }

  // The whole body at cycle phase `phase` (0 = left heel strike), origin frame.
  BodyPose Body(double phase) const {
    BodyPose body = BodyWithoutHeight(phase);
    body.pelvis_offset.z = pelvis_base_ + BobShape(phase);
    return body;
  }

 private:
  const WalkerDimensions& d() const { return Walker(); }

  // Foot during stance, leg phase psi in [0, duty]: heel roll, flat, roll over the ball. In the
  // origin frame the foothold slides back at the ground speed, so it is fixed in the world.
  FootPose Stance(double psi, Side side) const {
    FootPose foot;
    foot.planted = true;
    double y = Sign(side) * p_.foot_half_spacing;
    double flat_x = stride_ * (p_.hip_over_ankle - psi);
    if (psi < p_.foot_flat) {
      // Toes up, rolling without slipping on the heel's rounded edge (a circle in XZ).
      double u = psi / p_.foot_flat;
      foot.pitch = p_.heel_strike_pitch * (1.0 - SmoothStep(u));
      double r = d().heel_radius;
      Vec3 centre_from_ankle(-(d().heel_back - r), 0.0, r - d().ankle_height);
      Vec3 centre(flat_x + centre_from_ankle.x + r * foot.pitch, y, r);
      foot.ankle = centre + RotY(foot.pitch) * -centre_from_ankle;
    } else if (psi < p_.heel_off) {
      foot.ankle = Vec3(flat_x, y, d().ankle_height);
    } else {
      double u = (psi - p_.heel_off) / (p_.duty - p_.heel_off);
      foot.pitch = p_.toe_off_pitch * u * u;
      Vec3 ball(flat_x + d().ball_forward, y, d().ball_height);
      foot.ankle = ball + RotY(foot.pitch) *
                              Vec3(-d().ball_forward, 0.0, d().ankle_height - d().ball_height);
      foot.toe_bend = -foot.pitch;
    }
    return foot;
  }

  // Stance, or a swing from the toe-off state to the next heel-strike state, continuous in
  // position and velocity at both ends (height and pitch as cubic Hermite curves, plus a lift
  // that vanishes with its slope at both ends).
  FootPose Foot(double psi, Side side) const {
    if (psi <= p_.duty) return Stance(psi, side);
    const double h = 1e-6;
    FootPose off = Stance(p_.duty, side), off_before = Stance(p_.duty - h, side);
    FootPose strike = Stance(0.0, side), strike_after = Stance(h, side);
    double span = 1.0 - p_.duty;
    double s = (psi - p_.duty) / span;
    auto slope = [&](double a, double b) { return (b - a) / h * span; };
    FootPose foot;
    foot.swing = s;
    foot.ankle.y = off.ankle.y;
    // Forward travel is shaped in the world frame: it leaves the toe-off state with its velocity
    // and lands at rest on the next foothold (no slide at contact). Delaying the travel (a larger
    // swing_delay) shortens the end of the swing where the body catches up with the foot, so the
    // leg does not have to reach past its foothold.
    const double world_start = off.ankle.x + stride_ * p_.duty;
    const double world_end = strike.ankle.x + stride_;
    const double start_velocity = slope(off_before.ankle.x, off.ankle.x) + stride_ * span;
    double world_x = world_start + start_velocity * s * (1.0 - s) * (1.0 - s) +
                     (world_end - world_start) * SmoothStep(std::pow(s, p_.swing_delay));
    foot.ankle.x = world_x - stride_ * (p_.duty + s * span);
    foot.ankle.z = Hermite(off.ankle.z, slope(off_before.ankle.z, off.ankle.z), strike.ankle.z,
                           slope(strike.ankle.z, strike_after.ankle.z), s);
    double skewed = std::pow(s, p_.lift_skew);
    foot.ankle.z += p_.lift * 16.0 * skewed * skewed * (1 - skewed) * (1 - skewed);
    foot.pitch = Hermite(off.pitch, slope(off_before.pitch, off.pitch), strike.pitch,
                         slope(strike.pitch, strike_after.pitch), s);
    // The toes stay level while the foot lifts off, and straighten once it is clear.
    foot.toe_bend = -foot.pitch * (1.0 - SmoothStep(s / 0.5));
    return foot;
  }

  // Pelvis height above its bind height, less pelvis_base_: walking, highest at mid-stance (the
  // hip vaults over the planted foot) and lowest in double support; running, the opposite.
  double BobShape(double phase) const {
    double c = std::cos(4.0 * kPi * (phase - p_.bob_phase));
    return p_.bob_high_in_stance ? p_.bob * c : -p_.bob * c;
  }

  BodyPose BodyWithoutHeight(double phase) const {
    BodyPose body;
    double leg_phase[2] = {Wrap01(phase), Wrap01(phase - 0.5)};
    for (Side side : {kLeft, kRight}) body.feet[side] = Foot(leg_phase[side], side);
    // cos(2 pi phase) is +1 at the left heel strike, -1 at the right one.
    double strike = std::cos(kTwoPi * phase);
    double mid_stance = std::cos(kTwoPi * (phase - p_.hip_over_ankle));
    body.pelvis.yaw = -p_.pelvis_yaw * strike;       // the leading leg's hip leads
    body.pelvis.roll = p_.pelvis_roll * mid_stance;  // the swing side drops
    body.pelvis.pitch = p_.pelvis_lean;
    body.pelvis_offset.y = p_.pelvis_sway * mid_stance;  // over the stance foot
    body.spine.yaw = 0.45 * p_.pelvis_yaw * strike;
    body.spine.pitch = p_.spine_lean * 0.5;
    body.spine.roll = -0.5 * p_.pelvis_roll * mid_stance;
    body.chest.yaw = p_.chest_counter_yaw * strike;
    body.chest.pitch = p_.spine_lean * 0.5;
    body.chest.roll = -0.4 * p_.pelvis_roll * mid_stance;
    body.head.pitch =
        Radians(3.0) + p_.head_nod * std::cos(4.0 * kPi * (phase - p_.hip_over_ankle));
    body.neck_share = 0.45;
    double arm = std::cos(kTwoPi * (phase - p_.arm_lag));
    for (Side side : {kLeft, kRight}) {
      // Each arm swings with the opposite leg.
      double forward = side == kLeft ? -arm : arm;
      ArmPose& a = body.arms[side];
      a.swing = p_.arm_swing * forward;
      a.abduction = p_.arm_abduction;
      a.elbow = p_.elbow + p_.elbow_swing * (0.5 + 0.5 * forward);
      a.wrist = Radians(6.0);
      a.clavicle_forward = Radians(3.0) * forward;
      a.clavicle_lift = Radians(1.0);
    }
    return body;
  }

  // The highest pelvis height (relative to bind) at which every planted foot is within reach.
  double HeightLimit(double phase) const {
    const double leg =
        glm::length(skeleton_.bind_positions[kShinL] - skeleton_.bind_positions[kThighL]) +
        glm::length(skeleton_.bind_positions[kFootL] - skeleton_.bind_positions[kShinL]);
    BodyPose body = BodyWithoutHeight(phase);
    double limit = std::numeric_limits<double>::max();
    for (Side side : {kLeft, kRight}) {
      // A planted foot out of reach would slide. A swing foot only straightens its leg, which
      // looks locked when it happens just before contact, so late in the swing it must be
      // reachable too (with the leg allowed almost straight).
      const FootPose& foot = body.feet[side];
      if (!foot.planted && foot.swing < kReachedSwing) continue;
      const double reach = leg * (foot.planted ? p_.max_extension : kSwingExtension);
      Vec3 hip = HipPosition(skeleton_, body, side);
      Vec3 ankle = body.feet[side].ankle;
      double dx = hip.x - ankle.x, dy = hip.y - ankle.y;
      double highest_hip = ankle.z + std::sqrt(std::max(0.0, reach * reach - dx * dx - dy * dy));
      limit = std::min(limit, highest_hip - hip.z);
    }
    return limit;
  }

  // The highest base for which base + BobShape keeps every planted foot within reach.
  void SolvePelvisHeight() {
    const int samples = 2000;
    pelvis_base_ = std::numeric_limits<double>::max();
    for (int i = 0; i < samples; ++i) {
      double phase = double(i) / samples;
      pelvis_base_ = std::min(pelvis_base_, HeightLimit(phase) - BobShape(phase));
    }
  }

  const Skeleton& skeleton_;
  GaitParameters p_;
  double stride_ = 0.0;
  double pelvis_base_ = 0.0;
};

// ---- Standing poses --------------------------------------------------------------------------

// The idle stance at `phase` of its loop; `animate` false gives the still base pose.
BodyPose StandingBody(double phase, bool animate) {
  const double wave = animate ? 1.0 : 0.0;
  const double sway = std::sin(kTwoPi * phase) * wave;          // weight shift, one per loop
  const double breath = std::sin(2.0 * kTwoPi * phase) * wave;  // two breaths per loop
  BodyPose body;
  body.pelvis_offset = Vec3(0.3, 1.1 * sway, -0.55 + 0.1 * breath);
  body.pelvis.roll = Radians(2.2) * sway;
  body.pelvis.yaw = Radians(2.0) * std::sin(kTwoPi * phase + 0.6) * wave;
  body.pelvis.pitch = Radians(1.0);
  body.spine.roll = -Radians(1.4) * sway;
  body.spine.pitch = -Radians(0.8) * breath;
  body.chest.roll = -Radians(0.8) * sway;
  body.chest.pitch = -Radians(1.2) * breath;
  body.head.yaw = Radians(9.0) * std::sin(kTwoPi * phase + 1.1) * wave;
  body.head.pitch = Radians(2.0) + Radians(1.5) * std::sin(2.0 * kTwoPi * phase + 0.4) * wave;
  body.head.roll = -Radians(1.5) * sway;
  for (Side side : {kLeft, kRight}) {
    double s = Sign(side);
    ArmPose& a = body.arms[side];
    a.swing = Radians(3.0) + Radians(1.5) * std::sin(kTwoPi * phase + s) * wave;
    a.abduction = Radians(7.0) + Radians(0.8) * breath;
    a.elbow = Radians(12.0);
    a.wrist = Radians(8.0);
    a.clavicle_lift = Radians(1.5) * breath;
    FootPose& f = body.feet[side];
    f.ankle = Vec3(side == kLeft ? 0.9 : -0.5, s * 4.7, Walker().ankle_height);
    f.yaw = s * Radians(9.0);
    f.planted = true;
  }
  return body;
}

// The wave, `t` seconds into its 3 s loop: the right arm rises, waves three times and comes down;
// the legs keep the still standing pose.
BodyPose WavingBody(double t) {
  BodyPose body = StandingBody(0.0, false);
  BodyPose rest = body;
  double up = SmootherStep((t - 0.1) / 0.6) * (1.0 - SmootherStep((t - 2.25) / 0.6));
  double shake = std::sin(kTwoPi * 1.875 * (t - 0.7)) * SmoothStep((t - 0.55) / 0.3) *
                 (1.0 - SmoothStep((t - 2.15) / 0.3));
  body.spine.roll += Radians(2.0) * up;
  body.chest.yaw += -Radians(6.0) * up;
  body.chest.roll += Radians(2.5) * up;
  body.head.yaw += -Radians(8.0) * up;
  body.head.roll += Radians(3.0) * up;
  body.head.pitch += -Radians(2.0) * up;
  ArmPose& arm = body.arms[kRight];
  // Raised: upper arm out to the side and up, forearm up, elbow bending side to side.
  Vec3 raised_direction = glm::normalize(Vec3(0.25, -0.8, 0.5));
  Vec3 raised_bend(0.0, 0.0, 1.0);
  const ArmPose& hanging = rest.arms[kRight];
  double ca = std::cos(hanging.swing), sa = std::sin(hanging.swing);
  double cb = std::cos(hanging.abduction), sb = std::sin(hanging.abduction);
  Vec3 rest_direction(sa * cb, -sb, -ca * cb);
  Vec3 rest_bend(ca, 0.0, sa);
  // The arm travels along the great circle from hanging to raised, which passes out to the side;
  // the elbow's bend direction turns from forward to up on the way.
  double angle = std::acos(std::clamp(glm::dot(rest_direction, raised_direction), -1.0, 1.0));
  Vec3 direction =
      (std::sin((1.0 - up) * angle) * rest_direction + std::sin(up * angle) * raised_direction) /
      std::sin(angle);
  arm.explicit_direction = true;
  arm.direction = glm::normalize(direction);
  arm.bend = OrthogonalUnit(Lerp(rest_bend, raised_bend, SmoothStep(up * 1.6)), arm.direction);
  // The elbow bends late in the raise, so the hand does not swing out in front first.
  arm.elbow = Lerp(hanging.elbow, Radians(95.0) + Radians(24.0) * shake, up * up);
  arm.wrist = Lerp(hanging.wrist, Radians(-10.0), up);
  arm.clavicle_lift = Radians(8.0) * up;
  body.arms[kLeft].swing += Radians(2.0) * up;
  return body;
}

// ---- Clips -----------------------------------------------------------------------------------

std::string CommandLine(const WalkerClipInfo& info) {
  std::string text = "md5stage_assetgen walker " + info.name + ": loop of " +
                     std::to_string(info.frame_count - 1) + " frames at " +
                     std::to_string(info.frame_rate) + " fps";
  if (info.ground_speed > 0.0) {
    text += ", origin moves along +X at " + FormatFixed(info.ground_speed, 3) +
            " units/s, stride " + FormatFixed(info.stride, 3);
  }
  return text;
}

// Samples `pose_at(phase)` over one loop; the last frame repeats the first (phase 0) exactly,
// apart from the root motion added to the origin.
template <typename PoseAt>
WalkerClip SampleClip(const std::string& name, double seconds, double ground_speed,
                      PoseAt pose_at) {
  WalkerClip result;
  WalkerClipInfo& info = result.info;
  info.name = name;
  info.frame_rate = kFrameRate;
  int intervals = static_cast<int>(std::lround(seconds * kFrameRate));
  info.frame_count = intervals + 1;
  info.duration = double(intervals) / kFrameRate;
  info.ground_speed = ground_speed;
  info.stride = ground_speed * info.duration;
  result.clip.name = name;
  result.clip.frame_rate = kFrameRate;
  for (int i = 0; i <= intervals; ++i) {
    double phase = i == intervals ? 0.0 : double(i) / intervals;
    SkeletonPose pose = pose_at(phase, &info.unreached_planted_frames);
    pose[kOrigin].position.x = ground_speed * i / kFrameRate;
    result.clip.frames.push_back(pose);
  }
  result.clip.commandline = CommandLine(info);
  return result;
}

WalkerClip GaitClip(const Skeleton& skeleton, const GaitParameters& parameters) {
  Gait gait(skeleton, parameters);
  WalkerClip clip = SampleClip(parameters.name, parameters.cycle_seconds, parameters.ground_speed,
                               [&](double phase, int* unreached) {
                                 return Assemble(skeleton, gait.Body(phase), unreached);
                               });
  clip.info.stance_begin[kLeft] = 0.0;
  clip.info.stance_end[kLeft] = parameters.duty;
  clip.info.stance_begin[kRight] = 0.5;
  clip.info.stance_end[kRight] = 0.5 + parameters.duty;
  return clip;
}

}  // namespace

std::vector<WalkerClip> BuildWalkerClips(const Skeleton& skeleton) {
  std::vector<WalkerClip> clips;
  clips.push_back(SampleClip("idle", 6.0, 0.0, [&](double phase, int* unreached) {
    return Assemble(skeleton, StandingBody(phase, true), unreached);
  }));
  clips.push_back(GaitClip(skeleton, WalkParameters()));
  clips.push_back(GaitClip(skeleton, RunParameters()));
  clips.push_back(SampleClip("wave", 3.0, 0.0, [&](double phase, int* unreached) {
    return Assemble(skeleton, WavingBody(phase * 3.0), unreached);
  }));
  for (WalkerClip& clip : clips) {
    if (clip.info.ground_speed == 0.0) {
      clip.info.stance_begin[kLeft] = clip.info.stance_begin[kRight] = 0.0;
      clip.info.stance_end[kLeft] = clip.info.stance_end[kRight] = 1.0;
    }
  }
  return clips;
}

}  // namespace md5stage::assetgen
