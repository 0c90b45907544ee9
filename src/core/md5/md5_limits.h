// Bounds a loader enforces before trusting an MD5 file's header counts, so a hostile or broken
// file fails with a message instead of exhausting memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace md5stage::md5 {

struct Md5Limits {
  std::size_t max_file_bytes = std::size_t{256} << 20;
  int max_joints = 65535;  // GPU joint indices are 16-bit
  int max_meshes = 4096;
  int max_vertices_per_mesh = 1 << 24;
  int max_triangles_per_mesh = 1 << 24;
  int max_weights_per_mesh = 1 << 26;
  int max_frames = 1 << 20;
  int max_animated_components = 6 * 65535;
  // Run-time size, which the file size alone does not bound. A vertex takes ~100 bytes once loaded
  // (GPU vertex, bind pose, normal) against 14 in a file: 256 MB of bare vertices would need
  // 1.8 GB, more than the browser's 2 GB heap holds next to the file. And an animation holds a
  // 28-byte transform per joint per frame, while a frame may take 23 bytes whatever the joint
  // count (65535 joints x 2000 frames fit in 1.5 MB of file, and need 3.7 GB).
  int max_total_vertices = 1 << 22;         // over all meshes of a file: ~420 MB loaded
  std::int64_t max_joint_frames = 1 << 22;  // numJoints x numFrames: ~117 MB loaded
  float max_frame_rate = 10000.0f;
  // The format has one root, but real files (imprimis_arm_bones: a left and a right arm) have
  // several; each root then takes the character's transform. When false, a second root is an
  // error; when true it is a warning.
  bool allow_multiple_roots = true;
  // Reads vert, tri, weight and frame-value lines with a fast scanner that falls back to the
  // checked token reads on anything unusual. Results and messages are the same either way; tests
  // turn it off to prove that.
  bool scan_simple_lines = true;
};

// The fewest bytes one item can take in a file ("vert 0(0 0)0 0" is 14 bytes, and so on). A count
// that would need more bytes than are left in the file is rejected before anything is reserved.
inline constexpr std::size_t kMinBytesPerJoint = 18;      // ""-1(0 0 0)(0 0 0)
inline constexpr std::size_t kMinBytesPerVertex = 14;     // vert 0(0 0)0 0
inline constexpr std::size_t kMinBytesPerTriangle = 11;   // tri 0 0 0 0
inline constexpr std::size_t kMinBytesPerWeight = 18;     // weight 0 0 0(0 0 0)
inline constexpr std::size_t kMinBytesPerMesh = 6;        // mesh{}
inline constexpr std::size_t kMinBytesPerHierarchy = 8;   // "" -1 0 0
inline constexpr std::size_t kMinBytesPerBounds = 14;     // (0 0 0)(0 0 0)
inline constexpr std::size_t kMinBytesPerBaseJoint = 14;  // (0 0 0)(0 0 0)
inline constexpr std::size_t kMinBytesPerFrame = 9;       // frame 0{}
inline constexpr std::size_t kMinBytesPerComponent = 2;   // "0 "

}  // namespace md5stage::md5
