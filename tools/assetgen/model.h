// In-memory skeleton, skinned mesh and animation clip the generator builds before writing them as
// MD5 version 10 text. Bind poses are model space; clip poses are parent-relative, as in MD5.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "math_util.h"

namespace md5stage::assetgen {

struct Skeleton {
  std::vector<std::string> names;
  std::vector<int> parents;             // -1 for the root; a parent precedes its children
  std::vector<Vec3> bind_positions;     // model space
  std::vector<Quat> bind_orientations;  // model space

  int size() const { return static_cast<int>(names.size()); }
  // Index of the joint called `name`, or -1.
  int Find(const std::string& name) const;
  int Add(const std::string& name, int parent, const Vec3& position,
          const Quat& orientation = Identity());
};

struct SkinWeight {
  int joint = 0;
  double bias = 0.0;
};

struct SkinVertex {
  Vec3 position{0.0};  // bind pose, model space
  double u = 0.0;      // texture coordinates; v = 0 is the top row of the image
  double v = 0.0;
  std::vector<SkinWeight> weights;  // 1 to 4, biases summing to 1
};

struct SkinMesh {
  std::string shader;
  std::vector<SkinVertex> vertices;
  // Counter-clockwise seen from outside; the MD5 writer emits Doom 3's clockwise order.
  std::vector<std::array<int, 3>> triangles;
};

struct JointPose {
  Vec3 position{0.0};
  Quat orientation = Identity();
};

using SkeletonPose = std::vector<JointPose>;

struct AnimClip {
  std::string name;  // file base name: "walk" -> walk.md5anim
  int frame_rate = 30;
  // Parent-relative joint poses; the last frame closes the loop.
  std::vector<SkeletonPose> frames;
  std::string commandline;
};

// The parent-relative bind pose of `skeleton`.
SkeletonPose BindLocalPose(const Skeleton& skeleton);

// Model-space joint poses from parent-relative ones.
SkeletonPose ToModelSpace(const Skeleton& skeleton, const SkeletonPose& local);

// Model-space positions of `mesh`'s vertices under the model-space joint poses `model_pose`.
std::vector<Vec3> SkinPositions(const Skeleton& skeleton, const SkinMesh& mesh,
                                const SkeletonPose& model_pose);

}  // namespace md5stage::assetgen
