#include "core/md5/mesh_pack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace md5stage::md5 {
namespace {

constexpr double kSteps = 65535.0;
constexpr std::size_t kMeshHeaderFloats = 12;  // uv min/max, bias min/max, position min/max

// Bytes of one mesh's arrays: weight counts (1 a vertex), UVs (4), triangle corner deltas (6 a
// triangle), weight joints, biases and positions (10 a weight).
std::uint64_t ArrayBytes(std::uint64_t vertices, std::uint64_t triangles, std::uint64_t weights) {
  return 5 * vertices + 6 * triangles + 10 * weights;
}

class Writer {
 public:
  void Bytes(const void* data, std::size_t size) {
    out_.append(static_cast<const char*>(data), size);
  }
  void U16(std::uint32_t value) {
    const unsigned char b[2] = {static_cast<unsigned char>(value),
                                static_cast<unsigned char>(value >> 8)};
    Bytes(b, 2);
  }
  void U32(std::uint32_t value) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  void F32(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    U32(bits);
  }
  void Text16(const std::string& text) {
    U16(static_cast<std::uint32_t>(text.size()));
    out_ += text;
  }
  // 16-bit values as a plane of low bytes then one of high bytes.
  void Planes(const std::vector<std::uint16_t>& values) {
    for (std::uint16_t v : values) out_.push_back(static_cast<char>(v & 0xff));
    for (std::uint16_t v : values) out_.push_back(static_cast<char>(v >> 8));
  }
  // Differences from the previous value (mod 2^16), as planes: UVs of neighbouring vertices and
  // positions of neighbouring weights are close, so the differences are small and repeat.
  void DeltaPlanes(const std::vector<std::uint16_t>& values) {
    std::vector<std::uint16_t> deltas;
    std::uint32_t previous = 0;
    for (std::uint16_t v : values) {
      deltas.push_back(static_cast<std::uint16_t>((v - previous) & 0xffff));
      previous = v;
    }
    Planes(deltas);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  std::size_t offset() const { return offset_; }
  std::size_t left() const { return bytes_.size() - offset_; }
  bool Skip(std::uint64_t size) {
    if (size > left()) return false;
    offset_ += static_cast<std::size_t>(size);
    return true;
  }
  bool U16(std::uint32_t* value) {
    if (left() < 2) return false;
    const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data() + offset_);
    *value = b[0] | (static_cast<std::uint32_t>(b[1]) << 8);
    offset_ += 2;
    return true;
  }
  bool U32(std::uint32_t* value) {
    if (left() < 4) return false;
    const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data() + offset_);
    *value = b[0] | (static_cast<std::uint32_t>(b[1]) << 8) |
             (static_cast<std::uint32_t>(b[2]) << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
    offset_ += 4;
    return true;
  }
  bool F32(float* value) {
    std::uint32_t bits = 0;
    if (!U32(&bits)) return false;
    std::memcpy(value, &bits, 4);
    return true;
  }
  bool Text(std::size_t size, std::string* text) {
    if (size > left()) return false;
    text->assign(bytes_.data() + offset_, size);
    offset_ += size;
    return true;
  }
  bool Text16(std::string* text) {
    std::uint32_t size = 0;
    return U16(&size) && Text(size, text);
  }

 private:
  std::string_view bytes_;
  std::size_t offset_ = 0;
};

std::uint16_t Quantize(float value, float min, float max) {
  if (!(max > min)) return 0;
  const double q =
      std::round((static_cast<double>(value) - min) / (static_cast<double>(max) - min) * kSteps);
  return static_cast<std::uint16_t>(q < 0.0 ? 0.0 : q > kSteps ? kSteps : q);
}

float Dequantize(std::uint32_t q, float min, float max) {
  return static_cast<float>(min + (static_cast<double>(max) - min) * (q / kSteps));
}

// The 16-bit value at `index` of a plane pair starting at `planes` of `count` values.
std::uint32_t PlaneValue(const unsigned char* planes, std::size_t count, std::size_t index) {
  return planes[index] | (static_cast<std::uint32_t>(planes[count + index]) << 8);
}

void WidenRange(float value, bool first, float* min, float* max) {
  if (first || value < *min) *min = value;
  if (first || value > *max) *max = value;
}

MeshPackRange RangeOf(const MeshPart& part) {
  MeshPackRange range;
  for (std::size_t v = 0; v < part.vertices.size(); ++v) {
    for (int axis = 0; axis < 2; ++axis) {
      WidenRange(part.vertices[v].uv[axis], v == 0, &range.uv_min[axis], &range.uv_max[axis]);
    }
  }
  for (std::size_t w = 0; w < part.weights.size(); ++w) {
    const MeshWeight& weight = part.weights[w];
    WidenRange(weight.bias, w == 0, &range.bias_min, &range.bias_max);
    for (int axis = 0; axis < 3; ++axis) {
      WidenRange(weight.position[axis], w == 0, &range.position_min[axis],
                 &range.position_max[axis]);
    }
  }
  return range;
}

Diagnostic PackError(std::string_view file_name, std::size_t offset, const std::string& message) {
  return MakeError(std::string(file_name), 0, 0,
                   "mesh pack, byte " + std::to_string(offset) + ": " + message);
}

bool AllFinite(const float* values, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

}  // namespace

bool IsMeshPack(std::string_view bytes) {
  return bytes.size() >= 7 && std::memcmp(bytes.data(), kMeshPackMagic, 7) == 0;
}

Result<std::string> EncodeMeshPack(const MeshFile& mesh) {
  Writer out;
  out.Bytes(kMeshPackMagic, sizeof kMeshPackMagic);
  out.U32(static_cast<std::uint32_t>(mesh.joints.size()));
  out.U32(static_cast<std::uint32_t>(mesh.meshes.size()));
  out.U32(static_cast<std::uint32_t>(mesh.commandline.size()));
  out.Bytes(mesh.commandline.data(), mesh.commandline.size());
  for (const MeshJoint& joint : mesh.joints) {
    if (joint.name.size() > 0xffff) {
      return MakeError(mesh.file_name, joint.line, 0,
                       "a joint name of at most 65535 bytes, to pack");
    }
    out.Text16(joint.name);
    out.U32(static_cast<std::uint32_t>(joint.parent));
    for (int axis = 0; axis < 3; ++axis) out.F32(joint.position[axis]);
    for (int axis = 0; axis < 3; ++axis) out.F32(joint.orientation_xyz[axis]);
  }
  for (std::size_t m = 0; m < mesh.meshes.size(); ++m) {
    const MeshPart& part = mesh.meshes[m];
    const std::string which = "mesh " + std::to_string(m);
    if (part.shader.size() > 0xffff || part.vertices.size() > 65536) {
      return MakeError(mesh.file_name, part.line, 0,
                       which +
                           ": a pack holds meshes of at most 65536 vertices and a shader name "
                           "of at most 65535 bytes; this one stays MD5 text");
    }
    int next_weight = 0;
    for (std::size_t v = 0; v < part.vertices.size(); ++v) {
      const MeshVertex& vertex = part.vertices[v];
      if (vertex.first_weight != next_weight || vertex.weight_count > 255) {
        return MakeError(mesh.file_name, part.line, 0,
                         which +
                             ": a pack needs each vertex's weights right after the previous "
                             "vertex's and at most 255 of them; vert " +
                             std::to_string(v) + " has " + std::to_string(vertex.weight_count) +
                             " from index " + std::to_string(vertex.first_weight) +
                             ", this mesh stays MD5 text");
      }
      next_weight += vertex.weight_count;
    }
    if (static_cast<std::size_t>(next_weight) != part.weights.size()) {
      return MakeError(mesh.file_name, part.line, 0,
                       which + ": a pack needs every weight used once by the vertices in order; " +
                           std::to_string(next_weight) + " of " +
                           std::to_string(part.weights.size()) + " are");
    }
    const MeshPackRange range = RangeOf(part);
    out.Text16(part.shader);
    out.U32(static_cast<std::uint32_t>(part.vertices.size()));
    out.U32(static_cast<std::uint32_t>(part.triangles.size()));
    out.U32(static_cast<std::uint32_t>(part.weights.size()));
    const float header[kMeshHeaderFloats] = {
        range.uv_min.x,       range.uv_min.y,       range.uv_max.x,       range.uv_max.y,
        range.bias_min,       range.bias_max,       range.position_min.x, range.position_min.y,
        range.position_min.z, range.position_max.x, range.position_max.y, range.position_max.z};
    for (float value : header) out.F32(value);

    std::string counts;
    for (const MeshVertex& vertex : part.vertices)
      counts.push_back(static_cast<char>(vertex.weight_count));
    out.Bytes(counts.data(), counts.size());
    for (int axis = 0; axis < 2; ++axis) {
      std::vector<std::uint16_t> uv;
      for (const MeshVertex& vertex : part.vertices) {
        uv.push_back(Quantize(vertex.uv[axis], range.uv_min[axis], range.uv_max[axis]));
      }
      out.DeltaPlanes(uv);
    }
    // Corners as differences from the previous corner (mod 2^16): neighbours in the file are
    // neighbours on the mesh, so most differences are small and repeat.
    std::vector<std::uint16_t> corners;
    std::uint32_t previous = 0;
    for (const MeshTriangle& triangle : part.triangles) {
      for (std::uint32_t corner : triangle.vertices) {
        corners.push_back(static_cast<std::uint16_t>((corner - previous) & 0xffff));
        previous = corner;
      }
    }
    out.Planes(corners);
    std::vector<std::uint16_t> joints, biases;
    for (const MeshWeight& weight : part.weights) {
      joints.push_back(static_cast<std::uint16_t>(weight.joint));
      biases.push_back(Quantize(weight.bias, range.bias_min, range.bias_max));
    }
    out.Planes(joints);
    out.Planes(biases);
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<std::uint16_t> positions;
      for (const MeshWeight& weight : part.weights) {
        positions.push_back(
            Quantize(weight.position[axis], range.position_min[axis], range.position_max[axis]));
      }
      out.DeltaPlanes(positions);
    }
  }
  return out.Take();
}

Result<MeshPackLayout> ReadMeshPackLayout(std::string_view file_name, std::string_view bytes,
                                          const Md5Limits& limits) {
  Reader in(bytes);
  auto fail = [&](const std::string& message) {
    return PackError(file_name, in.offset(), message);
  };
  if (bytes.size() > limits.max_file_bytes) {
    return fail("expected at most " + std::to_string(limits.max_file_bytes) + " bytes, found " +
                std::to_string(bytes.size()));
  }
  if (bytes.size() < sizeof kMeshPackMagic || !IsMeshPack(bytes)) {
    return fail("expected 'MD5PACK' and a version, found something else");
  }
  if (static_cast<unsigned char>(bytes[7]) != static_cast<unsigned char>(kMeshPackMagic[7])) {
    return fail("expected version " + std::to_string(kMeshPackMagic[7]) + ", found " +
                std::to_string(static_cast<unsigned char>(bytes[7])));
  }
  in.Skip(sizeof kMeshPackMagic);
  std::uint32_t joint_count = 0, mesh_count = 0, commandline_size = 0;
  if (!in.U32(&joint_count) || !in.U32(&mesh_count) || !in.U32(&commandline_size)) {
    return fail("expected the joint, mesh and commandline counts, found the end");
  }
  if (joint_count < 1 || joint_count > static_cast<std::uint32_t>(limits.max_joints)) {
    return fail("expected 1 to " + std::to_string(limits.max_joints) + " joints, found " +
                std::to_string(joint_count));
  }
  if (mesh_count > static_cast<std::uint32_t>(limits.max_meshes)) {
    return fail("expected at most " + std::to_string(limits.max_meshes) + " meshes, found " +
                std::to_string(mesh_count));
  }
  // A joint takes at least 30 bytes, a mesh's header 62: counts the bytes cannot hold are
  // refused before anything is reserved.
  if (static_cast<std::uint64_t>(joint_count) * 30 + static_cast<std::uint64_t>(mesh_count) * 62 >
      in.left()) {
    return fail("expected " + std::to_string(joint_count) + " joints and " +
                std::to_string(mesh_count) + " meshes, found only " + std::to_string(in.left()) +
                " bytes left");
  }
  MeshPackLayout layout;
  if (!in.Text(commandline_size, &layout.commandline)) {
    return fail("expected a commandline of " + std::to_string(commandline_size) +
                " bytes, found the end");
  }
  layout.joints.resize(joint_count);
  int roots = 0;
  for (std::uint32_t j = 0; j < joint_count; ++j) {
    MeshJoint& joint = layout.joints[j];
    joint.index = static_cast<int>(j);
    std::uint32_t parent_bits = 0;
    float values[6];
    if (!in.Text16(&joint.name) || !in.U32(&parent_bits) || !in.F32(&values[0]) ||
        !in.F32(&values[1]) || !in.F32(&values[2]) || !in.F32(&values[3]) || !in.F32(&values[4]) ||
        !in.F32(&values[5])) {
      return fail("expected joint " + std::to_string(j) + ", found the end");
    }
    const auto parent = static_cast<std::int32_t>(parent_bits);
    if (parent < -1 || parent >= static_cast<std::int32_t>(j)) {
      return fail("expected joint " + std::to_string(j) +
                  "'s parent to be -1 or a joint before it, found " + std::to_string(parent));
    }
    if (parent == -1 && ++roots > 1 && !limits.allow_multiple_roots) {
      return fail("expected one root joint, found a second: joint " + std::to_string(j));
    }
    if (!AllFinite(values, 6)) {
      return fail("expected finite numbers for joint " + std::to_string(j) + ", found another");
    }
    joint.parent = parent;
    if (parent >= 0) joint.parent_name = layout.joints[parent].name;
    joint.position = glm::vec3(values[0], values[1], values[2]);
    joint.orientation_xyz = glm::vec3(values[3], values[4], values[5]);
    joint.orientation = QuatFromXyz(joint.orientation_xyz);
  }
  layout.parts.resize(mesh_count);
  std::uint64_t total_vertices = 0;
  for (std::uint32_t m = 0; m < mesh_count; ++m) {
    MeshPackPart& part = layout.parts[m];
    const std::string which = "mesh " + std::to_string(m);
    std::uint32_t counts[3] = {0, 0, 0};
    float header[kMeshHeaderFloats];
    bool read =
        in.Text16(&part.shader) && in.U32(&counts[0]) && in.U32(&counts[1]) && in.U32(&counts[2]);
    for (float& value : header) read = read && in.F32(&value);
    if (!read) return fail("expected " + which + "'s header, found the end");
    if (counts[0] > 65536 || counts[0] > static_cast<std::uint32_t>(limits.max_vertices_per_mesh) ||
        counts[1] > static_cast<std::uint32_t>(limits.max_triangles_per_mesh) ||
        counts[2] > static_cast<std::uint32_t>(limits.max_weights_per_mesh)) {
      return fail("expected " + which + "'s counts within the limits, found " +
                  std::to_string(counts[0]) + " vertices, " + std::to_string(counts[1]) +
                  " triangles, " + std::to_string(counts[2]) + " weights");
    }
    total_vertices += counts[0];
    if (total_vertices > static_cast<std::uint64_t>(limits.max_total_vertices)) {
      return fail("expected at most " + std::to_string(limits.max_total_vertices) +
                  " vertices in all, found more by " + which);
    }
    if (!AllFinite(header, kMeshHeaderFloats)) {
      return fail("expected finite ranges in " + which + "'s header, found another number");
    }
    part.vertex_count = static_cast<int>(counts[0]);
    part.triangle_count = static_cast<int>(counts[1]);
    part.weight_count = static_cast<int>(counts[2]);
    part.range.uv_min = glm::vec2(header[0], header[1]);
    part.range.uv_max = glm::vec2(header[2], header[3]);
    part.range.bias_min = header[4];
    part.range.bias_max = header[5];
    part.range.position_min = glm::vec3(header[6], header[7], header[8]);
    part.range.position_max = glm::vec3(header[9], header[10], header[11]);
    part.arrays_offset = in.offset();
    const std::uint64_t array_bytes = ArrayBytes(counts[0], counts[1], counts[2]);
    if (!in.Skip(array_bytes)) {
      return fail("expected " + std::to_string(array_bytes) + " bytes of " + which +
                  "'s arrays, found " + std::to_string(in.left()));
    }
  }
  if (in.left() != 0) {
    return fail("expected the end after " + std::to_string(mesh_count) + " meshes, found " +
                std::to_string(in.left()) + " more bytes");
  }
  return layout;
}

MeshFile SizeMeshFromLayout(std::string_view file_name, const MeshPackLayout& layout) {
  MeshFile mesh;
  mesh.file_name.assign(file_name);
  mesh.commandline = layout.commandline;
  mesh.joints = layout.joints;
  mesh.meshes.resize(layout.parts.size());
  for (std::size_t m = 0; m < layout.parts.size(); ++m) {
    mesh.meshes[m].shader = layout.parts[m].shader;
    mesh.meshes[m].vertices.resize(static_cast<std::size_t>(layout.parts[m].vertex_count));
    mesh.meshes[m].triangles.resize(static_cast<std::size_t>(layout.parts[m].triangle_count));
    mesh.meshes[m].weights.resize(static_cast<std::size_t>(layout.parts[m].weight_count));
  }
  return mesh;
}

bool MeshPackDecodeJob::Validate() const {
  if (!layout || !mesh || mesh->meshes.size() != layout->parts.size()) return false;
  for (std::size_t m = 0; m < layout->parts.size(); ++m) {
    const MeshPackPart& part = layout->parts[m];
    const MeshPart& out = mesh->meshes[m];
    if (out.vertices.size() != static_cast<std::size_t>(part.vertex_count) ||
        out.triangles.size() != static_cast<std::size_t>(part.triangle_count) ||
        out.weights.size() != static_cast<std::size_t>(part.weight_count) ||
        part.arrays_offset + ArrayBytes(part.vertex_count, part.triangle_count, part.weight_count) >
            bytes.size()) {
      return false;
    }
  }
  return true;
}

bool MeshPackDecodeJob::Run() const {
  if (!Validate()) return false;
  for (std::size_t m = 0; m < layout->parts.size(); ++m) {
    const MeshPackPart& part = layout->parts[m];
    const MeshPackRange& range = part.range;
    MeshPart& out = mesh->meshes[m];
    const auto vertices = static_cast<std::size_t>(part.vertex_count);
    const auto corners = static_cast<std::size_t>(part.triangle_count) * 3;
    const auto weights = static_cast<std::size_t>(part.weight_count);
    const auto* at = reinterpret_cast<const unsigned char*>(bytes.data() + part.arrays_offset);
    int next_weight = 0;
    for (std::size_t v = 0; v < vertices; ++v) {
      out.vertices[v].first_weight = next_weight;
      out.vertices[v].weight_count = at[v];
      next_weight += at[v];
    }
    at += vertices;
    for (int axis = 0; axis < 2; ++axis) {
      std::uint32_t q = 0;
      for (std::size_t v = 0; v < vertices; ++v) {
        q = (q + PlaneValue(at, vertices, v)) & 0xffff;
        out.vertices[v].uv[axis] = Dequantize(q, range.uv_min[axis], range.uv_max[axis]);
      }
      at += 2 * vertices;
    }
    std::uint32_t previous = 0;
    for (std::size_t c = 0; c < corners; ++c) {
      previous = (previous + PlaneValue(at, corners, c)) & 0xffff;
      out.triangles[c / 3].vertices[c % 3] = previous;
    }
    at += 2 * corners;
    for (std::size_t w = 0; w < weights; ++w) {
      out.weights[w].joint = static_cast<int>(PlaneValue(at, weights, w));
      out.weights[w].bias =
          Dequantize(PlaneValue(at + 2 * weights, weights, w), range.bias_min, range.bias_max);
    }
    at += 4 * weights;
    for (int axis = 0; axis < 3; ++axis) {
      std::uint32_t q = 0;
      for (std::size_t w = 0; w < weights; ++w) {
        q = (q + PlaneValue(at, weights, w)) & 0xffff;
        out.weights[w].position[axis] =
            Dequantize(q, range.position_min[axis], range.position_max[axis]);
      }
      at += 2 * weights;
    }
  }
  return true;
}

Status CheckMeshPackIndices(const MeshFile& mesh) {
  const auto joint_count = static_cast<int>(mesh.joints.size());
  for (std::size_t m = 0; m < mesh.meshes.size(); ++m) {
    const MeshPart& part = mesh.meshes[m];
    const std::string which = "mesh " + std::to_string(m);
    const auto vertex_count = static_cast<std::uint32_t>(part.vertices.size());
    for (std::size_t t = 0; t < part.triangles.size(); ++t) {
      for (std::uint32_t corner : part.triangles[t].vertices) {
        if (corner >= vertex_count) {
          return MakeError(mesh.file_name, 0, 0,
                           "mesh pack: expected " + which + "'s tri " + std::to_string(t) +
                               " to name vertices below " + std::to_string(vertex_count) +
                               ", found " + std::to_string(corner));
        }
      }
    }
    for (std::size_t w = 0; w < part.weights.size(); ++w) {
      if (part.weights[w].joint >= joint_count) {
        return MakeError(mesh.file_name, 0, 0,
                         "mesh pack: expected " + which + "'s weight " + std::to_string(w) +
                             " to name a joint below " + std::to_string(joint_count) + ", found " +
                             std::to_string(part.weights[w].joint));
      }
    }
    const std::int64_t used = part.vertices.empty()
                                  ? 0
                                  : static_cast<std::int64_t>(part.vertices.back().first_weight) +
                                        part.vertices.back().weight_count;
    if (used != static_cast<std::int64_t>(part.weights.size())) {
      return MakeError(mesh.file_name, 0, 0,
                       "mesh pack: expected " + which + "'s vertices to use its " +
                           std::to_string(part.weights.size()) + " weights, found " +
                           std::to_string(used));
    }
  }
  return Status();
}

Result<MeshFile> DecodeMeshPack(std::string_view file_name, std::string_view bytes,
                                const Md5Limits& limits) {
  Result<MeshPackLayout> layout = ReadMeshPackLayout(file_name, bytes, limits);
  if (!layout.ok()) return layout.error();
  MeshFile mesh = SizeMeshFromLayout(file_name, layout.value());
  const MeshPackDecodeJob job{bytes, &layout.value(), &mesh};
  if (!job.Run()) return PackError(file_name, 0, "the decoder's output does not fit the layout");
  Status indices = CheckMeshPackIndices(mesh);
  if (!indices.ok()) return indices.error();
  return mesh;
}

float MeshPackTolerance(float min, float max) {
  const float half_step = static_cast<float>((static_cast<double>(max) - min) / kSteps / 2.0);
  const float magnitude = std::max(std::fabs(min), std::fabs(max));
  return half_step + magnitude * std::numeric_limits<float>::epsilon() * 2.0f;
}

}  // namespace md5stage::md5
