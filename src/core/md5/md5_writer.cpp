#include "core/md5/md5_writer.h"

#include <algorithm>

#include "core/common/number_text.h"

namespace md5stage::md5 {
namespace {

void AppendFloat(std::string* out, float value) { AppendShortestFixed(value, *out); }

void AppendInt(std::string* out, long long value) { out->append(std::to_string(value)); }

void AppendText(std::string* out, const std::string& text) {
  for (char c : text) out->push_back(c == '"' || c == '\n' || c == '\r' ? '\'' : c);
}

void AppendQuoted(std::string* out, const std::string& text) {
  out->push_back('"');
  AppendText(out, text);
  out->push_back('"');
}

void AppendTuple(std::string* out, const float* values, int count) {
  out->append("( ");
  for (int i = 0; i < count; ++i) {
    AppendFloat(out, values[i]);
    out->push_back(' ');
  }
  out->push_back(')');
}

void AppendHeader(std::string* out, int version, const std::string& commandline) {
  out->append("MD5Version ");
  AppendInt(out, version);
  out->append("\ncommandline ");
  AppendQuoted(out, commandline);
  out->append("\n\n");
}

}  // namespace

std::string FormatMd5Float(float value) {
  std::string out;
  AppendFloat(&out, value);
  return out;
}

std::string WriteMd5Mesh(const MeshFile& mesh) {
  std::string out;
  AppendHeader(&out, mesh.version, mesh.commandline);
  out.append("numJoints ");
  AppendInt(&out, static_cast<long long>(mesh.joints.size()));
  out.append("\nnumMeshes ");
  AppendInt(&out, static_cast<long long>(mesh.meshes.size()));
  out.append("\n\njoints {\n");
  for (const MeshJoint& joint : mesh.joints) {
    out.push_back('\t');
    AppendQuoted(&out, joint.name);
    out.push_back('\t');
    AppendInt(&out, joint.parent);
    out.push_back(' ');
    AppendTuple(&out, &joint.position.x, 3);
    out.push_back(' ');
    AppendTuple(&out, &joint.orientation_xyz.x, 3);
    if (joint.parent >= 0) {
      out.append("\t\t// ");
      AppendText(&out, mesh.joints[static_cast<std::size_t>(joint.parent)].name);
    }
    out.push_back('\n');
  }
  out.append("}\n");
  for (const MeshPart& part : mesh.meshes) {
    out.append("\nmesh {\n\tshader ");
    AppendQuoted(&out, part.shader);
    out.append("\n\n\tnumverts ");
    AppendInt(&out, static_cast<long long>(part.vertices.size()));
    out.push_back('\n');
    for (std::size_t v = 0; v < part.vertices.size(); ++v) {
      const MeshVertex& vertex = part.vertices[v];
      out.append("\tvert ");
      AppendInt(&out, static_cast<long long>(v));
      out.push_back(' ');
      AppendTuple(&out, &vertex.uv.x, 2);
      out.push_back(' ');
      AppendInt(&out, vertex.first_weight);
      out.push_back(' ');
      AppendInt(&out, vertex.weight_count);
      out.push_back('\n');
    }
    out.append("\n\tnumtris ");
    AppendInt(&out, static_cast<long long>(part.triangles.size()));
    out.push_back('\n');
    for (std::size_t t = 0; t < part.triangles.size(); ++t) {
      out.append("\ttri ");
      AppendInt(&out, static_cast<long long>(t));
      for (std::uint32_t index : part.triangles[t].vertices) {
        out.push_back(' ');
        AppendInt(&out, index);
      }
      out.push_back('\n');
    }
    out.append("\n\tnumweights ");
    AppendInt(&out, static_cast<long long>(part.weights.size()));
    out.push_back('\n');
    for (std::size_t w = 0; w < part.weights.size(); ++w) {
      const MeshWeight& weight = part.weights[w];
      out.append("\tweight ");
      AppendInt(&out, static_cast<long long>(w));
      out.push_back(' ');
      AppendInt(&out, weight.joint);
      out.push_back(' ');
      AppendFloat(&out, weight.bias);
      out.push_back(' ');
      AppendTuple(&out, &weight.position.x, 3);
      out.push_back('\n');
    }
    out.append("}\n");
  }
  return out;
}

std::uint64_t EstimateMd5AnimBytes(std::uint64_t frames, std::uint64_t joints) {
  // A hierarchy line (a name, three integers) and a baseframe line (six numbers) a joint; a
  // bounds line (six numbers, parentheses) and "frame N {" ... "}" a frame, then six numbers a
  // joint in it. Past 2^32 frames or joints nothing is sampled anyway: the result saturates.
  constexpr std::uint64_t kCap = std::uint64_t{1} << 32;
  frames = std::min(frames, kCap);
  joints = std::min(joints, kCap);
  const std::uint64_t per_joint = 32 + 6 * kEstimatedNumberBytes + 6;
  const std::uint64_t per_frame = 6 * kEstimatedNumberBytes + 8 + 20;
  return 256 + joints * per_joint + frames * (per_frame + joints * 6 * kEstimatedNumberBytes);
}

std::string WriteMd5Anim(const AnimFile& anim) {
  std::string out;
  AppendHeader(&out, anim.version, anim.commandline);
  out.append("numFrames ");
  AppendInt(&out, anim.frame_count);
  out.append("\nnumJoints ");
  AppendInt(&out, anim.joint_count);
  out.append("\nframeRate ");
  AppendFloat(&out, anim.frame_rate);
  out.append("\nnumAnimatedComponents ");
  AppendInt(&out, anim.animated_component_count);
  out.append("\n\nhierarchy {\n");
  for (const AnimJoint& joint : anim.hierarchy) {
    out.push_back('\t');
    AppendQuoted(&out, joint.name);
    out.push_back('\t');
    AppendInt(&out, joint.parent);
    out.push_back(' ');
    AppendInt(&out, joint.flags);
    out.push_back(' ');
    AppendInt(&out, joint.start_index);
    if (joint.parent >= 0) {
      out.append("\t// ");
      AppendText(&out, anim.hierarchy[static_cast<std::size_t>(joint.parent)].name);
    }
    out.push_back('\n');
  }
  out.append("}\n\nbounds {\n");
  for (const AnimBounds& bounds : anim.bounds) {
    out.push_back('\t');
    AppendTuple(&out, &bounds.min.x, 3);
    out.push_back(' ');
    AppendTuple(&out, &bounds.max.x, 3);
    out.push_back('\n');
  }
  out.append("}\n\nbaseframe {\n");
  for (const AnimBaseJoint& base : anim.baseframe) {
    out.push_back('\t');
    AppendTuple(&out, &base.position.x, 3);
    out.push_back(' ');
    AppendTuple(&out, &base.orientation_xyz.x, 3);
    out.push_back('\n');
  }
  out.append("}\n");
  for (int f = 0; f < anim.frame_count; ++f) {
    out.append("\nframe ");
    AppendInt(&out, f);
    out.append(" {\n");
    const float* values = anim.frame(f);
    // Six values a line, as the Doom 3 exporter writes a joint's components.
    for (int c = 0; c < anim.animated_component_count; ++c) {
      out.push_back(c % 6 == 0 ? '\t' : ' ');
      AppendFloat(&out, values[c]);
      if (c % 6 == 5 || c + 1 == anim.animated_component_count) out.push_back('\n');
    }
    out.append("}\n");
  }
  return out;
}

}  // namespace md5stage::md5
