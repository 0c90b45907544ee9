#include "core/md5/md5_binding.h"

namespace md5stage::md5 {
namespace {

std::string Quote(std::string_view text) { return "\"" + std::string(text) + "\""; }

int LineOf(const JointListView& list, int index) {
  if (list.lines == nullptr || index < 0 || index >= static_cast<int>(list.lines->size())) {
    return 0;
  }
  return (*list.lines)[index];
}

}  // namespace

Status CheckAnimFitsMesh(const JointListView& mesh, const JointListView& anim,
                         std::vector<Diagnostic>* warnings) {
  const int mesh_count = static_cast<int>(mesh.names->size());
  const int anim_count = static_cast<int>(anim.names->size());
  const std::string anim_file(anim.file_name);
  const std::string mesh_file(mesh.file_name);
  if (mesh_count != anim_count) {
    return MakeError(anim_file, anim.count_line, 0,
                     "expected the " + std::to_string(mesh_count) + " joints of " + mesh_file +
                         ", found " + std::to_string(anim_count) + " joints (" + anim_file +
                         " does not fit " + mesh_file + ")");
  }
  int first_name_difference = -1;
  int name_differences = 0;
  for (int j = 0; j < mesh_count; ++j) {
    const int mesh_parent = (*mesh.parents)[j];
    const int anim_parent = (*anim.parents)[j];
    if (mesh_parent != anim_parent) {
      return MakeError(anim_file, LineOf(anim, j), 0,
                       "expected joint " + std::to_string(j) + " " + Quote((*anim.names)[j]) +
                           " to have parent " + std::to_string(mesh_parent) + " like joint " +
                           std::to_string(j) + " " + Quote((*mesh.names)[j]) + " of " + mesh_file +
                           ", found parent " + std::to_string(anim_parent) + " (" + anim_file +
                           " does not fit " + mesh_file + ")");
    }
    if ((*mesh.names)[j] != (*anim.names)[j]) {
      if (first_name_difference < 0) first_name_difference = j;
      ++name_differences;
    }
  }
  if (name_differences > 0 && warnings != nullptr) {
    const int j = first_name_difference;
    warnings->push_back(MakeWarning(
        anim_file, LineOf(anim, j), 0,
        std::to_string(name_differences) + " of " + std::to_string(mesh_count) +
            " joint names differ from " + mesh_file + " (first: joint " + std::to_string(j) +
            " is " + Quote((*anim.names)[j]) + " here and " + Quote((*mesh.names)[j]) +
            " there); count, order and parents match, so joints are bound by index"));
  }
  return Status();
}

Status CheckAnimFitsMesh(const MeshFile& mesh, const AnimFile& anim,
                         std::vector<Diagnostic>* warnings) {
  std::vector<std::string> mesh_names, anim_names;
  std::vector<int> mesh_parents, anim_parents, mesh_lines, anim_lines;
  for (const MeshJoint& joint : mesh.joints) {
    mesh_names.push_back(joint.name);
    mesh_parents.push_back(joint.parent);
    mesh_lines.push_back(joint.line);
  }
  for (const AnimJoint& joint : anim.hierarchy) {
    anim_names.push_back(joint.name);
    anim_parents.push_back(joint.parent);
    anim_lines.push_back(joint.line);
  }
  return CheckAnimFitsMesh(
      {mesh.file_name, &mesh_names, &mesh_parents, &mesh_lines},
      {anim.file_name, &anim_names, &anim_parents, &anim_lines, anim.joint_count_line}, warnings);
}

}  // namespace md5stage::md5
