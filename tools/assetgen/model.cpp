#include "model.h"

namespace md5stage::assetgen {

int Skeleton::Find(const std::string& name) const {
  for (int i = 0; i < size(); ++i) {
    if (names[i] == name) return i;
  }
  return -1;
}

int Skeleton::Add(const std::string& name, int parent, const Vec3& position,
                  const Quat& orientation) {
  names.push_back(name);
  parents.push_back(parent);
  bind_positions.push_back(position);
  bind_orientations.push_back(glm::normalize(orientation));
  return size() - 1;
}

SkeletonPose BindLocalPose(const Skeleton& skeleton) {
  SkeletonPose local(skeleton.size());
  for (int j = 0; j < skeleton.size(); ++j) {
    int parent = skeleton.parents[j];
    if (parent < 0) {
      local[j] = {skeleton.bind_positions[j], skeleton.bind_orientations[j]};
      continue;
    }
    Quat parent_inverse = glm::inverse(skeleton.bind_orientations[parent]);
    local[j].position =
        parent_inverse * (skeleton.bind_positions[j] - skeleton.bind_positions[parent]);
    local[j].orientation = glm::normalize(parent_inverse * skeleton.bind_orientations[j]);
  }
  return local;
}

SkeletonPose ToModelSpace(const Skeleton& skeleton, const SkeletonPose& local) {
  SkeletonPose model(skeleton.size());
  for (int j = 0; j < skeleton.size(); ++j) {
    int parent = skeleton.parents[j];
    if (parent < 0) {
      model[j] = local[j];
      continue;
    }
    model[j].position = model[parent].position + model[parent].orientation * local[j].position;
    model[j].orientation = glm::normalize(model[parent].orientation * local[j].orientation);
  }
  return model;
}

std::vector<Vec3> SkinPositions(const Skeleton& skeleton, const SkinMesh& mesh,
                                const SkeletonPose& model_pose) {
  std::vector<Vec3> positions;
  positions.reserve(mesh.vertices.size());
  for (const SkinVertex& vertex : mesh.vertices) {
    Vec3 sum(0.0);
    for (const SkinWeight& weight : vertex.weights) {
      int j = weight.joint;
      Vec3 offset = glm::inverse(skeleton.bind_orientations[j]) *
                    (vertex.position - skeleton.bind_positions[j]);
      sum += weight.bias * (model_pose[j].position + model_pose[j].orientation * offset);
    }
    positions.push_back(sum);
  }
  return positions;
}

}  // namespace md5stage::assetgen
