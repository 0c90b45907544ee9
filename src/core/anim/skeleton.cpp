#include "core/anim/skeleton.h"

#include <utility>

namespace md5stage::anim {
namespace {

std::uint32_t HashName(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

}  // namespace

Skeleton Skeleton::FromMeshFile(const md5::MeshFile& file) {
  Skeleton skeleton;
  const std::size_t count = file.joints.size();
  skeleton.names_.reserve(count);
  skeleton.parents_.reserve(count);
  skeleton.bind_models_.reserve(count);
  for (const md5::MeshJoint& joint : file.joints) {
    skeleton.names_.push_back(joint.name);
    skeleton.parents_.push_back(joint.parent);
    skeleton.bind_models_.push_back({joint.position, joint.orientation});
  }
  skeleton.bind_locals_.resize(count);
  for (std::size_t j = 0; j < count; ++j) {
    const JointTransform& model = skeleton.bind_models_[j];
    const int parent = skeleton.parents_[j];
    if (parent < 0) {
      skeleton.bind_locals_[j] = model;
      continue;
    }
    const JointTransform& parent_model = skeleton.bind_models_[parent];
    const glm::quat inverse_parent = glm::conjugate(parent_model.rotation);
    skeleton.bind_locals_[j].translation =
        inverse_parent * (model.translation - parent_model.translation);
    skeleton.bind_locals_[j].rotation = glm::normalize(inverse_parent * model.rotation);
  }
  skeleton.BuildDerived();
  return skeleton;
}

Skeleton Skeleton::FromLocals(std::vector<std::string> names, std::vector<int> parents,
                              std::vector<JointTransform> bind_locals) {
  Skeleton skeleton;
  skeleton.names_ = std::move(names);
  skeleton.parents_ = std::move(parents);
  skeleton.bind_locals_ = std::move(bind_locals);
  const std::size_t count = skeleton.names_.size();
  skeleton.bind_models_.resize(count);
  for (std::size_t j = 0; j < count; ++j) {
    const JointTransform& local = skeleton.bind_locals_[j];
    const int parent = skeleton.parents_[j];
    if (parent < 0) {
      skeleton.bind_models_[j] = local;
      continue;
    }
    const JointTransform& parent_model = skeleton.bind_models_[parent];
    skeleton.bind_models_[j].translation =
        parent_model.translation + parent_model.rotation * local.translation;
    skeleton.bind_models_[j].rotation = glm::normalize(parent_model.rotation * local.rotation);
  }
  skeleton.BuildDerived();
  return skeleton;
}

void Skeleton::BuildDerived() {
  const std::size_t count = names_.size();
  bind_matrices_.resize(count);
  inverse_bind_matrices_.resize(count);
  for (std::size_t j = 0; j < count; ++j) {
    bind_matrices_[j] = ToMatrix(bind_models_[j]);
    inverse_bind_matrices_[j] = InverseRigid(bind_matrices_[j]);
  }
  std::size_t slots = 4;
  while (slots < 2 * count) slots *= 2;
  name_slots_.assign(slots, 0);
  for (std::size_t j = 0; j < count; ++j) {
    std::size_t slot = HashName(names_[j]) & (slots - 1);
    bool duplicate = false;
    while (name_slots_[slot] != 0) {
      if (names_[name_slots_[slot] - 1] == names_[j]) {
        duplicate = true;  // FindJoint returns the first joint of that name
        break;
      }
      slot = (slot + 1) & (slots - 1);
    }
    if (!duplicate) name_slots_[slot] = static_cast<std::int32_t>(j + 1);
  }
}

int Skeleton::FindJoint(std::string_view name) const {
  if (name_slots_.empty()) return -1;
  const std::size_t mask = name_slots_.size() - 1;
  for (std::size_t slot = HashName(name) & mask;; slot = (slot + 1) & mask) {
    const std::int32_t entry = name_slots_[slot];
    if (entry == 0) return -1;
    if (names_[entry - 1] == name) return entry - 1;
  }
}

}  // namespace md5stage::anim
