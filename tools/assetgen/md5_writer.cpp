#include "md5_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "text_format.h"

namespace md5stage::assetgen {
namespace {

constexpr long kBiasScale = 1000000;

void AppendTriple(std::string& out, const Vec3& v) {
  out += "( ";
  AppendFixed(out, v.x);
  out += ' ';
  AppendFixed(out, v.y);
  out += ' ';
  AppendFixed(out, v.z);
  out += " )";
}

Vec3 QuatXyz(const Quat& q) {
  Quat c = CanonicalMd5(q);
  return Vec3(c.x, c.y, c.z);
}

// The six values of a joint pose (Tx Ty Tz Qx Qy Qz, the order of the hierarchy's flag bits)
// exactly as a file prints them.
std::array<std::string, 6> PoseComponents(const JointPose& pose) {
  std::array<std::string, 6> text;
  Vec3 xyz = QuatXyz(pose.orientation);
  double values[6] = {pose.position.x, pose.position.y, pose.position.z, xyz.x, xyz.y, xyz.z};
  for (int i = 0; i < 6; ++i) AppendFixed(text[i], values[i]);
  return text;
}

std::string ParentComment(const Skeleton& skeleton, int joint) {
  int parent = skeleton.parents[joint];
  return parent < 0 ? std::string() : skeleton.names[parent];
}

}  // namespace

void QuantizeWeights(SkinMesh& mesh) {
  for (SkinVertex& vertex : mesh.vertices) {
    std::vector<SkinWeight>& weights = vertex.weights;
    std::stable_sort(weights.begin(), weights.end(),
                     [](const SkinWeight& a, const SkinWeight& b) { return a.bias > b.bias; });
    double total = 0.0;
    for (const SkinWeight& w : weights) total += w.bias;
    std::vector<long> units;
    long sum = 0;
    for (const SkinWeight& w : weights) {
      long u = std::lround(w.bias / total * kBiasScale);
      units.push_back(u);
      sum += u;
    }
    units[0] += kBiasScale - sum;
    std::vector<SkinWeight> kept;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (units[i] <= 0) continue;
      kept.push_back({weights[i].joint, static_cast<double>(units[i]) / kBiasScale});
    }
    weights = kept;
  }
}

std::string WriteMd5Mesh(const Skeleton& skeleton, const std::vector<SkinMesh>& meshes,
                         const std::string& commandline) {
  std::string out;
  out += "MD5Version 10\n";
  out += "commandline \"" + commandline + "\"\n\n";
  out += "numJoints " + std::to_string(skeleton.size()) + "\n";
  out += "numMeshes " + std::to_string(meshes.size()) + "\n\n";
  out += "joints {\n";
  for (int j = 0; j < skeleton.size(); ++j) {
    out += "\t\"" + skeleton.names[j] + "\"\t" + std::to_string(skeleton.parents[j]) + " ";
    AppendTriple(out, skeleton.bind_positions[j]);
    out += " ";
    AppendTriple(out, QuatXyz(skeleton.bind_orientations[j]));
    out += "\t\t// " + ParentComment(skeleton, j) + "\n";
  }
  out += "}\n";
  for (const SkinMesh& mesh : meshes) {
    out += "\nmesh {\n";
    out += "\tshader \"" + mesh.shader + "\"\n\n";
    out += "\tnumverts " + std::to_string(mesh.vertices.size()) + "\n";
    int first_weight = 0;
    for (size_t i = 0; i < mesh.vertices.size(); ++i) {
      const SkinVertex& vertex = mesh.vertices[i];
      out += "\tvert " + std::to_string(i) + " ( ";
      AppendFixed(out, vertex.u);
      out += ' ';
      AppendFixed(out, vertex.v);
      out +=
          " ) " + std::to_string(first_weight) + " " + std::to_string(vertex.weights.size()) + "\n";
      first_weight += static_cast<int>(vertex.weights.size());
    }
    out += "\n\tnumtris " + std::to_string(mesh.triangles.size()) + "\n";
    for (size_t i = 0; i < mesh.triangles.size(); ++i) {
      const auto& t = mesh.triangles[i];
      // Doom 3 meshes wind front faces clockwise.
      out += "\ttri " + std::to_string(i) + " " + std::to_string(t[0]) + " " +
             std::to_string(t[2]) + " " + std::to_string(t[1]) + "\n";
    }
    out += "\n\tnumweights " + std::to_string(first_weight) + "\n";
    int index = 0;
    for (const SkinVertex& vertex : mesh.vertices) {
      for (const SkinWeight& weight : vertex.weights) {
        int j = weight.joint;
        Vec3 offset = glm::inverse(skeleton.bind_orientations[j]) *
                      (vertex.position - skeleton.bind_positions[j]);
        out += "\tweight " + std::to_string(index++) + " " + std::to_string(j) + " ";
        AppendFixed(out, weight.bias);
        out += " ";
        AppendTriple(out, offset);
        out += "\n";
      }
    }
    out += "}\n";
  }
  return out;
}

std::string WriteMd5Anim(const Skeleton& skeleton, const std::vector<SkinMesh>& meshes,
                         const AnimClip& clip) {
  const int joint_count = skeleton.size();
  const int frame_count = static_cast<int>(clip.frames.size());
  std::vector<std::vector<std::array<std::string, 6>>> text(
      frame_count, std::vector<std::array<std::string, 6>>(joint_count));
  for (int f = 0; f < frame_count; ++f) {
    for (int j = 0; j < joint_count; ++j) text[f][j] = PoseComponents(clip.frames[f][j]);
  }
  // As Doom 3's exporter does, a frame carries only the components that change over the clip
  // (a flag bit each); the others stay at the baseframe's value, which prints the same text as
  // frame 0. The poses read back are the same numbers, in fewer bytes (a figure fetches the walk
  // clip before its first picture: bench/README.md, "Bytes").
  std::vector<int> flags(joint_count, 0);
  std::vector<int> start(joint_count, 0);
  int components = 0;
  for (int j = 0; j < joint_count; ++j) {
    for (int c = 0; c < 6; ++c) {
      for (int f = 1; f < frame_count; ++f) {
        if (text[f][j][c] != text[0][j][c]) {
          flags[j] |= 1 << c;
          break;
        }
      }
    }
    start[j] = flags[j] ? components : 0;
    for (int c = 0; c < 6; ++c) components += (flags[j] >> c) & 1;
  }

  std::string out;
  out += "MD5Version 10\n";
  out += "commandline \"" + clip.commandline + "\"\n\n";
  out += "numFrames " + std::to_string(frame_count) + "\n";
  out += "numJoints " + std::to_string(joint_count) + "\n";
  out += "frameRate " + std::to_string(clip.frame_rate) + "\n";
  out += "numAnimatedComponents " + std::to_string(components) + "\n\n";
  out += "hierarchy {\n";
  for (int j = 0; j < joint_count; ++j) {
    out += "\t\"" + skeleton.names[j] + "\"\t" + std::to_string(skeleton.parents[j]) + " " +
           std::to_string(flags[j]) + " " + std::to_string(start[j]) + "\t// " +
           ParentComment(skeleton, j) + "\n";
  }
  out += "}\n\nbounds {\n";
  for (int f = 0; f < frame_count; ++f) {
    SkeletonPose model = ToModelSpace(skeleton, clip.frames[f]);
    Vec3 lo(std::numeric_limits<double>::max());
    Vec3 hi(-std::numeric_limits<double>::max());
    for (const SkinMesh& mesh : meshes) {
      for (const Vec3& p : SkinPositions(skeleton, mesh, model)) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
      }
    }
    out += "\t";
    AppendTriple(out, lo);
    out += " ";
    AppendTriple(out, hi);
    out += "\n";
  }
  out += "}\n\nbaseframe {\n";
  for (int j = 0; j < joint_count; ++j) {
    const JointPose& pose = clip.frames[0][j];
    out += "\t";
    AppendTriple(out, pose.position);
    out += " ";
    AppendTriple(out, QuatXyz(pose.orientation));
    out += "\n";
  }
  out += "}\n";
  for (int f = 0; f < frame_count; ++f) {
    out += "\nframe " + std::to_string(f) + " {\n";
    for (int j = 0; j < joint_count; ++j) {
      if (!flags[j]) continue;
      out += '\t';
      bool first = true;
      for (int c = 0; c < 6; ++c) {
        if (!((flags[j] >> c) & 1)) continue;
        if (!first) out += ' ';
        out += text[f][j][c];
        first = false;
      }
      out += '\n';
    }
    out += "}\n";
  }
  return out;
}

}  // namespace md5stage::assetgen
