#include "core/md5/md5_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace md5stage::md5 {
namespace {

// Fixed notation with the fewest decimals that read back to the same float. std::to_chars would
// do it, but Emscripten 3.1.6's libc++ has no floating-point to_chars, and this module builds for
// the browser too. Reading back is monotonic in the decimals (more never hurts) and 9 significant
// digits always suffice, so a binary search below that takes about four tries.
void AppendFloat(std::string* out, float value) {
  if (value == 0.0f || !std::isfinite(value)) {  // -0 and non-finite (never valid MD5)
    out->push_back('0');
    return;
  }
  char buffer[80];
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int low = 0;
  int high = std::max(0, 9 - exponent);  // one spare for log10 rounding at powers of ten
  const auto reads_back = [&](int decimals) {
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, static_cast<double>(value));
    return std::strtof(buffer, nullptr) == value;
  };
  // Usually the first decimals count whose rounding, done in doubles, gives the float back is the
  // answer; one formatted read confirms it (double rounding may rarely disagree with strtof).
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (high <= 22 && std::fabs(value) < 1e15f) {
    for (int decimals = 0; decimals <= high; ++decimals) {
      const double scaled = std::nearbyint(static_cast<double>(value) * kPowers[decimals]);
      if (static_cast<float>(scaled / kPowers[decimals]) != value) continue;
      if (reads_back(decimals)) {
        out->append(buffer);
        return;
      }
      break;
    }
  }
  while (low < high) {
    const int middle = (low + high) / 2;
    if (reads_back(middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  reads_back(high);
  out->append(buffer);
}

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
