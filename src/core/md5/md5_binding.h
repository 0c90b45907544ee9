// Does an animation fit a mesh? Binding is by joint index: the joint count and every parent must
// agree (otherwise an error naming both files); differing names only warn.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/md5/md5_types.h"

namespace md5stage::md5 {

// The joints of one side of the check, as parallel arrays (raw files or runtime objects).
struct JointListView {
  std::string_view file_name;
  const std::vector<std::string>* names = nullptr;
  const std::vector<int>* parents = nullptr;
  // Source line of each joint when known (for messages); may be null.
  const std::vector<int>* lines = nullptr;
  int count_line = 0;  // of the joint count, when known
};

// Errors: "ANIM:LINE: error: expected the 59 joints of MESH, found 27 joints (the anim does not
// fit the mesh)" or a parent mismatch naming both joints. Warning when names differ.
Status CheckAnimFitsMesh(const JointListView& mesh, const JointListView& anim,
                         std::vector<Diagnostic>* warnings);
Status CheckAnimFitsMesh(const MeshFile& mesh, const AnimFile& anim,
                         std::vector<Diagnostic>* warnings);

}  // namespace md5stage::md5
