#include "core/convert/gltf_import.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "core/material/image_decode.h"
#include "core/material/png_encode.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_writer.h"

namespace md5stage::convert {
namespace {

using glm::dmat3;
using glm::dmat4;
using glm::dquat;
using glm::dvec3;

// No accessor may hold more elements than this, whatever its buffer (one without a bufferView is
// all zeros and takes no bytes).
constexpr std::size_t kMaxAccessorCount = std::size_t{1} << 26;

Diagnostic FieldError(const std::string& field, const std::string& message) {
  return MakeError("", 0, 0, field + ": " + message);
}

std::string Indexed(const char* array, std::size_t index) {
  return std::string(array) + "[" + std::to_string(index) + "]";
}

std::string Number(double value) {
  std::ostringstream text;
  text.precision(7);
  text << value;
  return text.str();
}

// glTF (x, y, z) -> MD5 (x, -z, y), the inverse of the exporter's root rotation.
dmat4 YUpToZUp() {
  dmat4 m(1.0);
  m[1] = glm::dvec4(0.0, 0.0, 1.0, 0.0);
  m[2] = glm::dvec4(0.0, -1.0, 0.0, 0.0);
  return m;
}

// A rigid transform and the linear part it leaves: matrix = rigid x (residual, no translation).
struct RigidSplit {
  dvec3 translation{0.0};
  dquat rotation{1.0, 0.0, 0.0, 0.0};
  dmat3 residual{1.0};
};

// The rotation by Gram-Schmidt on the columns: for a matrix rotation x axis scale it is the
// rotation exactly; a mirror leaves a -1 in the residual instead of an improper rotation.
RigidSplit SplitRigid(const dmat4& m) {
  RigidSplit split;
  split.translation = dvec3(m[3]);
  const dmat3 linear(m);
  dvec3 x = linear[0];
  dvec3 y = linear[1];
  if (glm::length(x) < 1e-300) x = dvec3(1.0, 0.0, 0.0);
  x = glm::normalize(x);
  y -= x * glm::dot(x, y);
  if (glm::length(y) < 1e-12) {
    y = std::abs(x.x) < 0.9 ? dvec3(1.0, 0.0, 0.0) : dvec3(0.0, 1.0, 0.0);
    y -= x * glm::dot(x, y);
  }
  y = glm::normalize(y);
  const dvec3 z = glm::cross(x, y);
  const dmat3 rotation(x, y, z);
  split.rotation = glm::normalize(glm::quat_cast(rotation));
  split.residual = glm::transpose(rotation) * linear;
  return split;
}

dmat4 RigidMatrix(const dvec3& translation, const dquat& rotation) {
  dmat4 m = glm::mat4_cast(rotation);
  m[3] = glm::dvec4(translation, 1.0);
  return m;
}

dmat4 InverseRigid(const dvec3& translation, const dquat& rotation) {
  const dquat inverse = glm::conjugate(rotation);
  return RigidMatrix(-(inverse * translation), inverse);
}

// MD5 writes a unit quaternion's x, y, z and derives w <= 0 (md5::QuatFromXyz). Near w = 0 the
// derived w hangs on the last bit of x, y and z, so the neighbours of the rounded floats are
// tried too and the one that reads back nearest to q is kept: that finds the very floats a
// converted MD5 file held.
glm::vec3 Md5Xyz(dquat q) {
  q = glm::normalize(q);
  if (q.w > 0.0) q = -q;
  const glm::vec3 rounded(static_cast<float>(q.x), static_cast<float>(q.y),
                          static_cast<float>(q.z));
  if (q.w < -0.1) return rounded;
  const auto error = [&](const glm::vec3& xyz) {
    const glm::quat back = md5::QuatFromXyz(xyz);
    const dquat b(back.w, back.x, back.y, back.z);
    return std::min(glm::length(b - q), glm::length(b + q));
  };
  glm::vec3 best = rounded;
  double best_error = error(rounded);
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dz = -1; dz <= 1; ++dz) {
        glm::vec3 candidate = rounded;
        const int steps[3] = {dx, dy, dz};
        for (int c = 0; c < 3; ++c) {
          if (steps[c] != 0) {
            candidate[c] = std::nextafter(candidate[c], steps[c] > 0 ? 2.0f : -2.0f);
          }
        }
        const double e = error(candidate);
        if (e < best_error) {
          best_error = e;
          best = candidate;
        }
      }
    }
  }
  return best;
}

double MaxAbsDifference(const dmat3& a, const dmat3& b) {
  double worst = 0.0;
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  }
  return worst;
}

const char* TypeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "another type";
  }
}

// Reads accessors as doubles, with every offset and count checked against its buffer first.
class AccessorReader {
 public:
  // `max_zero_count`: the most elements an accessor without a buffer view may have.
  AccessorReader(const tinygltf::Model& gltf, std::size_t max_zero_count)
      : gltf_(gltf), max_zero_count_(max_zero_count) {}

  // `field` names the reference (e.g. "meshes[0].primitives[1].attributes.POSITION") for an
  // index out of range; other messages name the accessor. Integer components are read as they
  // are unless the accessor is normalized.
  Status Read(int index, const std::string& field, std::initializer_list<int> types,
              std::initializer_list<int> component_types, std::vector<double>* out,
              int* components = nullptr) const {
    if (index < 0 || static_cast<std::size_t>(index) >= gltf_.accessors.size()) {
      return FieldError(field, "expected an accessor index below " +
                                   std::to_string(gltf_.accessors.size()) + ", found " +
                                   std::to_string(index));
    }
    const tinygltf::Accessor& accessor = gltf_.accessors[static_cast<std::size_t>(index)];
    const std::string name = Indexed("accessors", static_cast<std::size_t>(index));
    if (std::find(types.begin(), types.end(), accessor.type) == types.end()) {
      std::string expected;
      for (int t : types) expected += (expected.empty() ? "" : " or ") + std::string(TypeName(t));
      return FieldError(name + ".type", "expected " + expected + " (for " + field + "), found " +
                                            TypeName(accessor.type));
    }
    if (std::find(component_types.begin(), component_types.end(), accessor.componentType) ==
        component_types.end()) {
      return FieldError(name + ".componentType", "expected one of the types glTF allows for " +
                                                     field + ", found " +
                                                     std::to_string(accessor.componentType));
    }
    const int count_per = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(accessor.type));
    const int component_size =
        tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(accessor.componentType));
    if (components != nullptr) *components = count_per;
    if (accessor.count > kMaxAccessorCount) {
      return FieldError(name + ".count", "expected at most " + std::to_string(kMaxAccessorCount) +
                                             " elements, found " + std::to_string(accessor.count));
    }
    const std::size_t count = accessor.count;
    if (accessor.bufferView < 0 && count > max_zero_count_) {
      // All zeros but for sparse values: nothing in the file bounds it but this.
      return FieldError(name + ".count", "expected at most " + std::to_string(max_zero_count_) +
                                             " elements without a buffer view, found " +
                                             std::to_string(count));
    }
    if (accessor.bufferView >= 0) {
      const unsigned char* data = nullptr;
      std::size_t stride = 0;
      const Status view = ViewBytes(accessor.bufferView, name, count, count_per * component_size,
                                    accessor.byteOffset, &accessor, &data, &stride);
      if (!view.ok()) return view;
      out->assign(count * static_cast<std::size_t>(count_per), 0.0);
      for (std::size_t i = 0; i < count; ++i) {
        for (int c = 0; c < count_per; ++c) {
          (*out)[i * count_per + c] =
              Component(data + i * stride + static_cast<std::size_t>(c) * component_size,
                        accessor.componentType, accessor.normalized);
        }
      }
    } else if (!accessor.sparse.isSparse) {
      return FieldError(name + ".bufferView",
                        "expected a buffer view or sparse values, found none");
    } else {
      out->assign(count * static_cast<std::size_t>(count_per), 0.0);
    }
    if (accessor.sparse.isSparse) {
      const auto& sparse = accessor.sparse;
      const std::string sparse_name = name + ".sparse";
      if (sparse.count < 0 || static_cast<std::size_t>(sparse.count) > count) {
        return FieldError(sparse_name + ".count", "expected at most the accessor's " +
                                                      std::to_string(count) + " elements, found " +
                                                      std::to_string(sparse.count));
      }
      const int index_type = sparse.indices.componentType;
      if (index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
          index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
          index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) {
        return FieldError(sparse_name + ".indices.componentType",
                          "expected an unsigned integer type, found " + std::to_string(index_type));
      }
      const std::size_t n = static_cast<std::size_t>(sparse.count);
      const unsigned char* index_data = nullptr;
      const unsigned char* value_data = nullptr;
      std::size_t index_stride = 0, value_stride = 0;
      const int index_size = tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(index_type));
      Status view = ViewBytes(sparse.indices.bufferView, sparse_name + ".indices", n, index_size,
                              static_cast<std::size_t>(sparse.indices.byteOffset), nullptr,
                              &index_data, &index_stride);
      if (!view.ok()) return view;
      view = ViewBytes(
          sparse.values.bufferView, sparse_name + ".values", n, count_per * component_size,
          static_cast<std::size_t>(sparse.values.byteOffset), nullptr, &value_data, &value_stride);
      if (!view.ok()) return view;
      for (std::size_t i = 0; i < n; ++i) {
        const double target = Component(index_data + i * index_stride, index_type, false);
        if (!(target < static_cast<double>(count))) {
          return FieldError(sparse_name + ".indices",
                            "expected indices below " + std::to_string(count) + ", found " +
                                Number(target) + " at " + std::to_string(i));
        }
        const std::size_t row = static_cast<std::size_t>(target);
        for (int c = 0; c < count_per; ++c) {
          (*out)[row * count_per + c] = Component(
              value_data + i * value_stride + static_cast<std::size_t>(c) * component_size,
              accessor.componentType, accessor.normalized);
        }
      }
    }
    for (double v : *out) {
      if (!std::isfinite(v)) return FieldError(name, "expected finite numbers, found " + Number(v));
    }
    return Status();
  }

 private:
  // The first byte of `count` elements of `element_size` bytes at `offset` in a buffer view,
  // and the stride between them, after checking they lie inside the view and the view inside
  // its buffer.
  Status ViewBytes(int view_index, const std::string& who, std::size_t count, int element_size,
                   std::size_t offset, const tinygltf::Accessor* accessor,
                   const unsigned char** data, std::size_t* stride) const {
    if (view_index < 0 || static_cast<std::size_t>(view_index) >= gltf_.bufferViews.size()) {
      return FieldError(who + ".bufferView", "expected a buffer view index below " +
                                                 std::to_string(gltf_.bufferViews.size()) +
                                                 ", found " + std::to_string(view_index));
    }
    const tinygltf::BufferView& view = gltf_.bufferViews[static_cast<std::size_t>(view_index)];
    const std::string view_name = Indexed("bufferViews", static_cast<std::size_t>(view_index));
    if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= gltf_.buffers.size()) {
      return FieldError(view_name + ".buffer", "expected a buffer index below " +
                                                   std::to_string(gltf_.buffers.size()) +
                                                   ", found " + std::to_string(view.buffer));
    }
    const std::vector<unsigned char>& buffer =
        gltf_.buffers[static_cast<std::size_t>(view.buffer)].data;
    if (view.byteOffset > buffer.size() || view.byteLength > buffer.size() - view.byteOffset) {
      return FieldError(view_name + ".byteLength",
                        std::to_string(view.byteLength) + " bytes from byte " +
                            std::to_string(view.byteOffset) + " run past the end of buffers[" +
                            std::to_string(view.buffer) + "] (" + std::to_string(buffer.size()) +
                            " bytes)");
    }
    *stride = static_cast<std::size_t>(element_size);
    if (accessor != nullptr) {
      const int byte_stride = accessor->ByteStride(view);
      if (byte_stride < element_size) {
        return FieldError(view_name + ".byteStride",
                          "expected at least the " + std::to_string(element_size) +
                              "-byte element size of " + who + ", found " +
                              std::to_string(view.byteStride));
      }
      *stride = static_cast<std::size_t>(byte_stride);
    }
    const std::uint64_t need = count == 0 ? 0
                                          : static_cast<std::uint64_t>(offset) +
                                                static_cast<std::uint64_t>(*stride) * (count - 1) +
                                                static_cast<std::uint64_t>(element_size);
    if (need > view.byteLength) {
      return FieldError(who + ".count", std::to_string(count) + " elements of " +
                                            std::to_string(element_size) + " bytes from byte " +
                                            std::to_string(offset) + " need " +
                                            std::to_string(need) + " bytes, " + view_name +
                                            " has " + std::to_string(view.byteLength));
    }
    *data = buffer.data() + view.byteOffset + offset;
    return Status();
  }

  static double Component(const unsigned char* p, int type, bool normalized) {
    switch (type) {
      case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return normalized ? p[0] / 255.0 : p[0];
      case TINYGLTF_COMPONENT_TYPE_BYTE: {
        const auto v = static_cast<std::int8_t>(p[0]);
        return normalized ? std::max(v / 127.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return normalized ? v / 65535.0 : v;
      }
      case TINYGLTF_COMPONENT_TYPE_SHORT: {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return normalized ? std::max(v / 32767.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
      }
      default:
        return 0.0;
    }
  }

  const tinygltf::Model& gltf_;
  std::size_t max_zero_count_;
};

constexpr std::initializer_list<int> kFloat = {TINYGLTF_COMPONENT_TYPE_FLOAT};
constexpr std::initializer_list<int> kUnsignedInts = {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT};
constexpr std::initializer_list<int> kFloatOrUnorm = {TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT};
constexpr std::initializer_list<int> kFloatOrSnorm = {
    TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_BYTE,
    TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_SHORT,
    TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT};

struct NodeTrs {
  dvec3 translation{0.0};
  dquat rotation{1.0, 0.0, 0.0, 0.0};
  dvec3 scale{1.0};
  bool has_matrix = false;
  dmat4 matrix{1.0};

  dmat4 Local() const {
    if (has_matrix) return matrix;
    dmat4 m = glm::mat4_cast(rotation);
    m[0] *= scale.x;
    m[1] *= scale.y;
    m[2] *= scale.z;
    m[3] = glm::dvec4(translation, 1.0);
    return m;
  }
};

// One animation channel that moves a node: its keys, read once.
struct Track {
  int node = 0;
  int path = 0;           // 0 translation, 1 rotation, 2 scale
  int interpolation = 0;  // 0 LINEAR, 1 STEP, 2 CUBICSPLINE
  std::vector<double> times;
  std::vector<double> values;  // components per key (x3 for CUBICSPLINE: in, value, out)
  int components = 3;
};

// The value of a track at time t, clamped to its key range.
void SampleTrack(const Track& track, double t, double* out) {
  const int n = track.components;
  const std::size_t keys = track.times.size();
  const int per_key = track.interpolation == 2 ? 3 : 1;
  auto value = [&](std::size_t key, int part) {
    return track.values.data() + (key * per_key + static_cast<std::size_t>(part)) * n;
  };
  const int middle = track.interpolation == 2 ? 1 : 0;
  if (keys == 1 || t <= track.times.front()) {
    std::copy(value(0, middle), value(0, middle) + n, out);
    return;
  }
  if (t >= track.times.back()) {
    std::copy(value(keys - 1, middle), value(keys - 1, middle) + n, out);
    return;
  }
  const std::size_t hi = static_cast<std::size_t>(
      std::upper_bound(track.times.begin(), track.times.end(), t) - track.times.begin());
  const std::size_t lo = hi - 1;
  const double dt = track.times[hi] - track.times[lo];
  const double u = dt > 0.0 ? (t - track.times[lo]) / dt : 0.0;
  if (track.interpolation == 1) {
    std::copy(value(lo, 0), value(lo, 0) + n, out);
    return;
  }
  if (track.interpolation == 2) {
    const double u2 = u * u, u3 = u2 * u;
    const double* p0 = value(lo, 1);
    const double* m0 = value(lo, 2);
    const double* p1 = value(hi, 1);
    const double* m1 = value(hi, 0);
    for (int c = 0; c < n; ++c) {
      out[c] = (2 * u3 - 3 * u2 + 1) * p0[c] + (u3 - 2 * u2 + u) * dt * m0[c] +
               (-2 * u3 + 3 * u2) * p1[c] + (u3 - u2) * dt * m1[c];
    }
    return;
  }
  const double* a = value(lo, 0);
  const double* b = value(hi, 0);
  if (track.path == 1) {
    dquat qa(a[3], a[0], a[1], a[2]);
    dquat qb(b[3], b[0], b[1], b[2]);
    if (glm::dot(qa, qb) < 0.0) qb = -qb;
    const double dot = std::min(glm::dot(qa, qb), 1.0);
    dquat q;
    if (dot > 0.9995) {
      q = qa * (1.0 - u) + qb * u;
    } else {
      const double theta = std::acos(dot);
      q = qa * (std::sin((1.0 - u) * theta) / std::sin(theta)) +
          qb * (std::sin(u * theta) / std::sin(theta));
    }
    q = glm::normalize(q);
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
    return;
  }
  for (int c = 0; c < n; ++c) out[c] = a[c] + u * (b[c] - a[c]);
}

void ApplyTrack(const Track& track, double t, NodeTrs* trs) {
  double v[4];
  SampleTrack(track, t, v);
  if (track.path == 0) {
    trs->translation = dvec3(v[0], v[1], v[2]);
  } else if (track.path == 1) {
    const dquat q(v[3], v[0], v[1], v[2]);
    const double length = glm::length(q);
    trs->rotation = length > 0.0 ? q / length : dquat(1.0, 0.0, 0.0, 0.0);
  } else {
    trs->scale = dvec3(v[0], v[1], v[2]);
  }
}

// One vertex's pull by one MD5 joint.
struct Influence {
  int joint = 0;  // MD5 joint index
  double weight = 0.0;
};

// A primitive's JOINTS_n and WEIGHTS_n: four joint indices (into the skin) and four weights a
// vertex.
struct InfluenceSet {
  std::vector<double> joints;
  std::vector<double> weights;
  int joints_accessor = -1;  // for messages
};

// A primitive's vertex attributes, read and checked against its vertex count.
struct PrimitiveVertices {
  std::size_t count = 0;
  std::string count_field;               // "accessors[N].count" of POSITION, for messages
  std::vector<double> positions;         // x y z a vertex
  std::vector<double> uvs;               // u v a vertex, or none
  std::vector<InfluenceSet> influences;  // JOINTS_0/WEIGHTS_0, then _1 when both are there
};

// A primitive's vertex indices and the field that gave them (the accessor, or the primitive
// when it has none).
struct PrimitiveIndices {
  std::vector<double> indices;
  std::string field;
};

// What the warnings about influences count over all primitives.
struct InfluenceCounts {
  int over_four = 0;    // vertices that kept their four largest
  int unweighted = 0;   // vertices without a weight above 0
  int second_sets = 0;  // primitives with JOINTS_1/WEIGHTS_1
};

// An animation's channels that move nodes, and the span of their keys' times.
struct AnimationTracks {
  std::vector<Track> tracks;
  double start = std::numeric_limits<double>::infinity();
  double end = -std::numeric_limits<double>::infinity();
};

// What sampling costs, in doubles so that no count of a hostile input overflows before it is
// compared with its bound.
struct SamplingCost {
  double joint_frames = 0.0;  // frames x joints (the md5 limit)
  double anim_bytes = 0.0;    // md5anim text, estimated (md5::EstimateMd5AnimBytes)
  double work = 0.0;          // frames x (nodes + joints + mesh weights)
};

// How an animation will be sampled, worked out before any frame is.
struct SamplingPlan {
  double start = 0.0;    // the first key's time
  double seconds = 0.0;  // to the last key
  double fps = 0.0;
  double frames = 1.0;  // whole, at least 1
  SamplingCost cost;
};

// A count as a whole number, or in exponent form past what a double holds exactly.
std::string Count(double value) {
  if (value < 1e15) return std::to_string(static_cast<long long>(value));
  return Number(value);
}

// Bytes as "176 MB" (one decimal below 10 MB), or "900 bytes" below 1 MB.
std::string Megabytes(double bytes) {
  if (bytes < 1024.0 * 1024.0) return Count(bytes) + " bytes";
  const double mb = bytes / (1024.0 * 1024.0);
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(mb < 10.0 ? 1 : 0);
  text << mb << " MB";
  return text.str();
}

// A name usable as a file stem: path separators and control characters replaced.
std::string FileSafe(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    const bool bad = c < 0x20 || c == '/' || c == '\\' || c == ':' || c == '*' || c == '?' ||
                     c == '"' || c == '<' || c == '>' || c == '|';
    out.push_back(bad ? '_' : static_cast<char>(c));
  }
  if (out == "." || out == "..") out = "_";
  return out;
}

// Images are never decoded. Those in data: URIs arrive here decoded from base64 and are kept by
// index; those in buffer views are read later through checked views (the pointer tinygltf hands
// over for them is not checked against the buffer).
bool KeepDataUriImages(tinygltf::Image* image, const int index, std::string*, std::string*, int,
                       int, const unsigned char* bytes, int size, void* user) {
  if (image->bufferView >= 0 || bytes == nullptr || size <= 0) return true;
  auto* kept = static_cast<std::map<int, std::string>*>(user);
  (*kept)[index].assign(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  return true;
}

// A name that is one token in a decl file and a file name everywhere: letters, digits and
// "_.-/" kept (slashes only when `slashes`), anything else '_'.
std::string DeclSafe(const std::string& name, bool slashes) {
  std::string out;
  for (unsigned char c : name) {
    const bool keep = std::isalnum(c) || c == '_' || c == '.' || c == '-' || (slashes && c == '/');
    out.push_back(keep ? static_cast<char>(c) : '_');
  }
  return out;
}

// "%20" and the like decoded, as a relative URI names a file.
std::string PercentDecoded(const std::string& uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    const auto hex = [](char c) {
      return c >= '0' && c <= '9'   ? c - '0'
             : c >= 'a' && c <= 'f' ? c - 'a' + 10
             : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                    : -1;
    };
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2])));
      i += 2;
    } else {
      out.push_back(uri[i]);
    }
  }
  return out;
}

// "png" or "jpg" by the file's signature, "" for anything else.
const char* ImageExtension(const std::string& bytes) {
  const std::string_view mime_type = material::EmbeddableMimeType(bytes);
  return mime_type == "image/png" ? "png" : mime_type == "image/jpeg" ? "jpg" : "";
}

struct LookupContext {
  const GltfFileLookup* files = nullptr;
};

std::string LookupName(const std::string& path) {
  std::string name = path;
  while (name.compare(0, 2, "./") == 0) name.erase(0, 2);
  return name;
}

bool LookupExists(const std::string& path, void* user) {
  const auto* context = static_cast<const LookupContext*>(user);
  return *context->files && (*context->files)(LookupName(path)) != nullptr;
}

std::string LookupExpand(const std::string& path, void*) { return path; }

bool LookupRead(std::vector<unsigned char>* out, std::string* error, const std::string& path,
                void* user) {
  const auto* context = static_cast<const LookupContext*>(user);
  const std::string* bytes = *context->files ? (*context->files)(LookupName(path)) : nullptr;
  if (bytes == nullptr) {
    if (error != nullptr) *error = "no such file";
    return false;
  }
  out->assign(bytes->begin(), bytes->end());
  return true;
}

bool LookupWrite(std::string* error, const std::string&, const std::vector<unsigned char>&, void*) {
  if (error != nullptr) *error = "the importer writes no files";
  return false;
}

// Where the JSON handed to tinygltf first nests deeper than `limit` arrays and objects, or
// npos. Checked before parsing: its JSON reader recurses once per level, so 200,000 nested
// arrays overflow the stack (native) or throw RangeError (wasm). Strings are skipped, so a
// bracket inside one does not count.
std::size_t TooDeepAt(std::string_view json, int limit) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

// The line and column (from 1, in bytes) of offset `at` in `text`.
std::pair<int, int> LineColumn(std::string_view text, std::size_t at) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// The JSON chunk of a .glb (chunk 0, as tinygltf reads it), or "" when the header is too short
// to name one (tinygltf then reports the file).
std::string_view GlbJsonChunk(std::string_view glb) {
  if (glb.size() < 20) return {};
  std::uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(glb[12 + i]);
  return glb.substr(20, std::min<std::size_t>(length, glb.size() - 20));
}

std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// The state of one conversion.
class Importer {
 public:
  Importer(const GltfImportJob& job, const tinygltf::Model& gltf,
           const std::map<int, std::string>& data_uri_images)
      : job_(job),
        gltf_(gltf),
        data_uri_images_(data_uri_images),
        reader_(gltf, std::max<std::size_t>(job.bytes.size(), 1024)),
        to_z_up_(YUpToZUp()) {}

  Status Run() {
    Status s = ReadNodes();
    if (!s.ok()) return s;
    s = ReadSkin();
    if (!s.ok()) return s;
    s = ReadMeshes();
    if (!s.ok()) return s;
    s = ReadAnimations();
    if (!s.ok()) return s;
    ReadMaterials();
    ReportLeftOut();
    return Status();
  }

 private:
  void Warn(const std::string& message) {
    if (job_.warnings != nullptr)
      job_.warnings->push_back(MakeWarning(job_.file_name, 0, 0, message));
  }

  Status ReadNodes() {
    const std::size_t n = gltf_.nodes.size();
    parents_.assign(n, -1);
    rest_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const tinygltf::Node& node = gltf_.nodes[i];
      const std::string name = Indexed("nodes", i);
      for (std::size_t c = 0; c < node.children.size(); ++c) {
        const int child = node.children[c];
        if (child < 0 || static_cast<std::size_t>(child) >= n) {
          return FieldError(name + ".children[" + std::to_string(c) + "]",
                            "expected a node index below " + std::to_string(n) + ", found " +
                                std::to_string(child));
        }
        if (static_cast<std::size_t>(child) == i) {
          return FieldError(name + ".children", "cycle: the node is its own child");
        }
        if (parents_[static_cast<std::size_t>(child)] >= 0) {
          return FieldError(name + ".children",
                            "nodes[" + std::to_string(child) + "] is already a child of nodes[" +
                                std::to_string(parents_[static_cast<std::size_t>(child)]) +
                                "]: a node has one parent");
        }
        parents_[static_cast<std::size_t>(child)] = static_cast<int>(i);
      }
      NodeTrs& trs = rest_[i];
      if (node.matrix.size() == 16) {
        trs.has_matrix = true;
        for (int k = 0; k < 16; ++k) trs.matrix[k / 4][k % 4] = node.matrix[k];
      } else if (!node.matrix.empty()) {
        return FieldError(name + ".matrix",
                          "expected 16 numbers, found " + std::to_string(node.matrix.size()));
      }
      if (node.translation.size() == 3) {
        trs.translation = dvec3(node.translation[0], node.translation[1], node.translation[2]);
      } else if (!node.translation.empty()) {
        return FieldError(name + ".translation",
                          "expected 3 numbers, found " + std::to_string(node.translation.size()));
      }
      if (node.rotation.size() == 4) {
        const dquat q(node.rotation[3], node.rotation[0], node.rotation[1], node.rotation[2]);
        const double length = glm::length(q);
        if (!(length > 0.0) || !std::isfinite(length)) {
          return FieldError(name + ".rotation",
                            "expected a unit quaternion, found length " + Number(length));
        }
        trs.rotation = q / length;
      } else if (!node.rotation.empty()) {
        return FieldError(name + ".rotation",
                          "expected 4 numbers, found " + std::to_string(node.rotation.size()));
      }
      if (node.scale.size() == 3) {
        trs.scale = dvec3(node.scale[0], node.scale[1], node.scale[2]);
      } else if (!node.scale.empty()) {
        return FieldError(name + ".scale",
                          "expected 3 numbers, found " + std::to_string(node.scale.size()));
      }
    }
    // Every chain of parents must end at a root; one that runs longer than the node count
    // loops (each node having one parent, the loop is the only way).
    for (std::size_t i = 0; i < n; ++i) {
      int node = static_cast<int>(i);
      std::size_t steps = 0;
      while (node >= 0 && steps <= n) {
        node = parents_[static_cast<std::size_t>(node)];
        ++steps;
      }
      if (node >= 0) {
        return FieldError(
            Indexed("nodes", static_cast<std::size_t>(parents_[i])) + ".children",
            "cycle through nodes[" + std::to_string(i) + "]: the node graph must be a forest");
      }
    }
    // Parents-first order of all nodes.
    std::vector<int> depth(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
      int d = 0;
      for (int p = parents_[i]; p >= 0; p = parents_[static_cast<std::size_t>(p)]) ++d;
      depth[i] = d;
    }
    node_order_.resize(n);
    for (std::size_t i = 0; i < n; ++i) node_order_[i] = static_cast<int>(i);
    std::stable_sort(node_order_.begin(), node_order_.end(), [&](int a, int b) {
      return depth[static_cast<std::size_t>(a)] < depth[static_cast<std::size_t>(b)];
    });
    return Status();
  }

  void WorldMatrices(const std::vector<NodeTrs>& locals, std::vector<dmat4>* world) const {
    world->resize(locals.size());
    for (int node : node_order_) {
      const std::size_t i = static_cast<std::size_t>(node);
      const dmat4 local = locals[i].Local();
      (*world)[i] =
          parents_[i] < 0 ? local : (*world)[static_cast<std::size_t>(parents_[i])] * local;
    }
  }

  // The first skin a mesh node of the default scene uses (scene order, depth first), else the
  // first skin a mesh node uses at all, else skins[0].
  int ChooseSkin() const {
    const int scene = gltf_.defaultScene >= 0 ? gltf_.defaultScene : 0;
    const auto valid = [&](int skin) {
      return skin >= 0 && static_cast<std::size_t>(skin) < gltf_.skins.size();
    };
    if (static_cast<std::size_t>(scene) < gltf_.scenes.size()) {
      std::vector<int> stack(gltf_.scenes[static_cast<std::size_t>(scene)].nodes.rbegin(),
                             gltf_.scenes[static_cast<std::size_t>(scene)].nodes.rend());
      std::size_t visited = 0;
      while (!stack.empty() && visited++ <= gltf_.nodes.size()) {
        const int n = stack.back();
        stack.pop_back();
        if (n < 0 || static_cast<std::size_t>(n) >= gltf_.nodes.size()) continue;
        const tinygltf::Node& node = gltf_.nodes[static_cast<std::size_t>(n)];
        if (node.mesh >= 0 && valid(node.skin)) return node.skin;
        stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
      }
    }
    for (const tinygltf::Node& node : gltf_.nodes) {
      if (node.mesh >= 0 && valid(node.skin)) return node.skin;
    }
    return 0;
  }

  // The chosen skin's joints as MD5 joints: parents first, each bound where its inverse bind
  // matrix puts it.
  Status ReadSkin() {
    if (gltf_.skins.empty()) {
      return FieldError("skins", "expected a skin (MD5 models are skinned), found none");
    }
    skin_index_ = ChooseSkin();
    const std::string skin_name = Indexed("skins", static_cast<std::size_t>(skin_index_));
    const tinygltf::Skin& skin = gltf_.skins[static_cast<std::size_t>(skin_index_)];
    const std::size_t count = skin.joints.size();
    if (count == 0)
      return FieldError(skin_name + ".joints", "expected at least one joint, found none");
    if (count > static_cast<std::size_t>(job_.options.limits.max_joints)) {
      return FieldError(skin_name + ".joints",
                        "expected at most " + std::to_string(job_.options.limits.max_joints) +
                            " joints (md5 limit), found " + std::to_string(count));
    }
    std::vector<int> joint_of_node;
    Status s = JointOfEachNode(skin, skin_name, &joint_of_node);
    if (!s.ok()) return s;
    OrderJointsParentsFirst(skin, joint_of_node);
    bool reordered = false;
    for (std::size_t j = 0; j < count; ++j) reordered |= skin_of_md5_[j] != static_cast<int>(j);
    if (reordered) Warn(skin_name + ".joints reordered parents first, as MD5 needs");
    std::vector<double> inverse_binds;
    s = ReadInverseBinds(skin, skin_name, &inverse_binds);
    if (!s.ok()) return s;
    return BindJoints(skin_name, inverse_binds);
  }

  // Per node, its index in the skin's joints (-1 for none); a node listed twice is an error.
  Status JointOfEachNode(const tinygltf::Skin& skin, const std::string& skin_name,
                         std::vector<int>* joint_of_node) const {
    joint_of_node->assign(gltf_.nodes.size(), -1);
    for (std::size_t k = 0; k < skin.joints.size(); ++k) {
      const int node = skin.joints[k];
      const std::string field = skin_name + ".joints[" + std::to_string(k) + "]";
      if (node < 0 || static_cast<std::size_t>(node) >= gltf_.nodes.size()) {
        return FieldError(field, "expected a node index below " +
                                     std::to_string(gltf_.nodes.size()) + ", found " +
                                     std::to_string(node));
      }
      int& joint = (*joint_of_node)[static_cast<std::size_t>(node)];
      if (joint >= 0) {
        return FieldError(
            field, "nodes[" + std::to_string(node) + "] is already joint " + std::to_string(joint));
      }
      joint = static_cast<int>(k);
    }
    return Status();
  }

  // The MD5 order of the skin's joints (md5_of_skin_, skin_of_md5_), their nodes and MD5
  // parents: a joint's parent is its nearest ancestor that is a joint of the skin, parents come
  // first, and the skin's order is kept where it already is.
  void OrderJointsParentsFirst(const tinygltf::Skin& skin, const std::vector<int>& joint_of_node) {
    const std::size_t count = skin.joints.size();
    std::vector<int> skin_parent(count, -1);
    for (std::size_t k = 0; k < count; ++k) {
      for (int p = parents_[static_cast<std::size_t>(skin.joints[k])]; p >= 0;
           p = parents_[static_cast<std::size_t>(p)]) {
        if (joint_of_node[static_cast<std::size_t>(p)] >= 0) {
          skin_parent[k] = joint_of_node[static_cast<std::size_t>(p)];
          break;
        }
      }
    }
    md5_of_skin_.assign(count, -1);
    std::vector<int> chain;
    for (std::size_t k = 0; k < count; ++k) {
      chain.clear();
      for (int j = static_cast<int>(k); j >= 0 && md5_of_skin_[static_cast<std::size_t>(j)] < 0;
           j = skin_parent[static_cast<std::size_t>(j)]) {
        chain.push_back(j);
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        md5_of_skin_[static_cast<std::size_t>(*it)] = static_cast<int>(skin_of_md5_.size());
        skin_of_md5_.push_back(*it);
      }
    }
    joint_nodes_.resize(count);
    md5_parents_.resize(count);
    for (std::size_t j = 0; j < count; ++j) {
      const int k = skin_of_md5_[j];
      joint_nodes_[j] = skin.joints[static_cast<std::size_t>(k)];
      const int p = skin_parent[static_cast<std::size_t>(k)];
      md5_parents_[j] = p < 0 ? -1 : md5_of_skin_[static_cast<std::size_t>(p)];
    }
  }

  // The skin's inverse bind matrices, 16 numbers a joint (none: every one the identity).
  Status ReadInverseBinds(const tinygltf::Skin& skin, const std::string& skin_name,
                          std::vector<double>* out) const {
    if (skin.inverseBindMatrices < 0) return Status();
    const Status s = reader_.Read(skin.inverseBindMatrices, skin_name + ".inverseBindMatrices",
                                  {TINYGLTF_TYPE_MAT4}, kFloat, out);
    if (!s.ok()) return s;
    if (out->size() < skin.joints.size() * 16) {
      return FieldError(
          Indexed("accessors", static_cast<std::size_t>(skin.inverseBindMatrices)) + ".count",
          "expected a matrix for each of the " + std::to_string(skin.joints.size()) +
              " joints of " + skin_name + ", found " + std::to_string(out->size() / 16));
    }
    return Status();
  }

  // The mesh's joints in the bind pose, the rigid part of each joint's inverse inverse-bind
  // matrix in Z-up, with unique names; what scale remains is baked into the weight positions.
  Status BindJoints(const std::string& skin_name, const std::vector<double>& inverse_binds) {
    const std::size_t count = skin_of_md5_.size();
    md5::MeshFile& mesh = job_.output->mesh;
    mesh = md5::MeshFile();
    mesh.file_name = md5::FileStemOf(job_.file_name) + ".md5mesh";
    mesh.commandline = "md5stage convert " + md5::FileStemOf(job_.file_name);
    bind_.resize(count);
    weight_from_model_.resize(count);
    std::set<std::string> used_names;
    int renamed = 0;
    int scaled = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t k = static_cast<std::size_t>(skin_of_md5_[j]);
      dmat4 inverse_bind(1.0);
      if (!inverse_binds.empty()) {
        for (int e = 0; e < 16; ++e) inverse_bind[e / 4][e % 4] = inverse_binds[k * 16 + e];
      }
      const double det = glm::determinant(inverse_bind);
      if (!(std::abs(det) > 1e-30)) {
        return FieldError(
            skin_name + ".inverseBindMatrices",
            "expected invertible matrices, found a singular one for joint " + std::to_string(k));
      }
      const RigidSplit split = SplitRigid(to_z_up_ * glm::inverse(inverse_bind));
      bind_[j] = split;
      if (MaxAbsDifference(split.residual, dmat3(1.0)) > 1e-6) ++scaled;
      md5::MeshJoint joint;
      joint.index = static_cast<int>(j);
      std::string name = gltf_.nodes[static_cast<std::size_t>(joint_nodes_[j])].name;
      if (name.empty()) name = "joint_" + std::to_string(k);
      std::string unique = name;
      for (int suffix = 2; used_names.count(unique) != 0; ++suffix) {
        unique = name + "_" + std::to_string(suffix);
      }
      if (unique != name) ++renamed;
      used_names.insert(unique);
      joint.name = unique;
      joint.parent = md5_parents_[j];
      joint.position = glm::vec3(split.translation);
      joint.orientation_xyz = Md5Xyz(split.rotation);
      joint.orientation = md5::QuatFromXyz(joint.orientation_xyz);
      // weight position = inverse(bind) x C x vertex, with the bind a reader rebuilds from the
      // written floats, so the bind pose comes back to the vertex.
      const glm::quat& q = joint.orientation;
      weight_from_model_[j] =
          InverseRigid(dvec3(joint.position), dquat(q.w, q.x, q.y, q.z)) * to_z_up_;
      mesh.joints.push_back(std::move(joint));
    }
    for (std::size_t j = 0; j < count; ++j) {
      if (mesh.joints[j].parent >= 0) {
        mesh.joints[j].parent_name =
            mesh.joints[static_cast<std::size_t>(mesh.joints[j].parent)].name;
      }
    }
    if (renamed > 0) {
      Warn(std::to_string(renamed) +
           " joints renamed to keep joint names unique (MD5 binds by name)");
    }
    if (scaled > 0) {
      Warn("scale of " + std::to_string(scaled) +
           " joints' bind matrices baked into their weight positions (MD5 has no scale)");
    }
    return Status();
  }

  // Every triangle primitive of the nodes the chosen skin deforms, as an MD5 mesh part; what MD5
  // cannot hold is noted as left out, influences past four warned about.
  Status ReadMeshes() {
    InfluenceCounts counts;
    for (std::size_t n = 0; n < gltf_.nodes.size(); ++n) {
      const tinygltf::Node& node = gltf_.nodes[n];
      if (node.mesh < 0) continue;
      if (static_cast<std::size_t>(node.mesh) >= gltf_.meshes.size()) {
        return FieldError(Indexed("nodes", n) + ".mesh",
                          "expected a mesh index below " + std::to_string(gltf_.meshes.size()) +
                              ", found " + std::to_string(node.mesh));
      }
      if (node.skin != skin_index_) {
        left_out_.push_back(Indexed("nodes", n) + " (meshes[" + std::to_string(node.mesh) + "], " +
                            (node.skin < 0 ? std::string("not skinned")
                                           : "skins[" + std::to_string(node.skin) + "]") +
                            ")");
        continue;
      }
      const tinygltf::Mesh& gltf_mesh = gltf_.meshes[static_cast<std::size_t>(node.mesh)];
      const std::string mesh_name = Indexed("meshes", static_cast<std::size_t>(node.mesh));
      if (!gltf_mesh.weights.empty()) left_out_.push_back("morph target weights of " + mesh_name);
      for (std::size_t p = 0; p < gltf_mesh.primitives.size(); ++p) {
        const std::string prim = mesh_name + ".primitives[" + std::to_string(p) + "]";
        const Status s = ReadPrimitive(gltf_mesh.primitives[p], prim, &counts);
        if (!s.ok()) return s;
      }
    }
    if (job_.output->mesh.meshes.empty()) {
      return FieldError("meshes", "expected a triangle mesh on a node with skins[" +
                                      std::to_string(skin_index_) + "], found none");
    }
    WarnAboutInfluences(counts);
    return Status();
  }

  // One primitive as a mesh part: its vertices with their influences, its triangles and its
  // shader, each against the MD5 limits.
  Status ReadPrimitive(const tinygltf::Primitive& primitive, const std::string& prim,
                       InfluenceCounts* counts) {
    NoteLeftOutAttributes(primitive, prim);
    const int mode = primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
    if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
        mode != TINYGLTF_MODE_TRIANGLE_FAN) {
      left_out_.push_back(prim + " (points or lines, mode " + std::to_string(mode) + ")");
      return Status();
    }
    PrimitiveVertices vertices;
    Status s = ReadVertexAttributes(primitive, prim, &vertices);
    if (!s.ok()) return s;
    if (vertices.influences.size() > 1) ++counts->second_sets;
    PrimitiveIndices indices;
    s = ReadIndices(primitive, prim, vertices.count, &indices);
    if (!s.ok()) return s;
    md5::MeshPart part;
    s = PartShader(primitive, prim, &part.shader);
    if (!s.ok()) return s;
    AddTriangles(mode, indices.indices, &part.triangles);
    const md5::Md5Limits& limits = job_.options.limits;
    if (part.triangles.size() > static_cast<std::size_t>(limits.max_triangles_per_mesh)) {
      return FieldError(indices.field + ".count",
                        "expected at most " + std::to_string(limits.max_triangles_per_mesh) +
                            " triangles in a mesh part (md5 limit), found " +
                            std::to_string(part.triangles.size()));
    }
    s = AddWeightedVertices(vertices, &part, counts);
    if (!s.ok()) return s;
    if (part.weights.size() > static_cast<std::size_t>(limits.max_weights_per_mesh)) {
      return FieldError(vertices.count_field, "expected at most " +
                                                  std::to_string(limits.max_weights_per_mesh) +
                                                  " weights in a mesh part (md5 limit), found " +
                                                  std::to_string(part.weights.size()));
    }
    if (part.triangles.empty()) {
      left_out_.push_back(prim + " (no triangles)");
      return Status();
    }
    md5::MeshFile& mesh = job_.output->mesh;
    if (mesh.meshes.size() >= static_cast<std::size_t>(limits.max_meshes)) {
      return FieldError(prim, "expected at most " + std::to_string(limits.max_meshes) +
                                  " mesh parts (md5 limit)");
    }
    mesh.meshes.push_back(std::move(part));
    part_materials_.push_back(primitive.material);
    return Status();
  }

  // Morph targets, UV sets past the first and vertex colours: MD5 holds none of them.
  void NoteLeftOutAttributes(const tinygltf::Primitive& primitive, const std::string& prim) {
    if (!primitive.targets.empty()) {
      left_out_.push_back(std::to_string(primitive.targets.size()) + " morph targets of " + prim);
    }
    for (const auto& [attribute, accessor] : primitive.attributes) {
      if (attribute.compare(0, 9, "TEXCOORD_") == 0 && attribute != "TEXCOORD_0") {
        left_out_.push_back("UV set " + attribute + " of " + prim);
      }
      if (attribute.compare(0, 6, "COLOR_") == 0) {
        left_out_.push_back("vertex colours " + attribute + " of " + prim);
      }
    }
  }

  // POSITION (within the vertex limits), TEXCOORD_0 and the influence sets JOINTS_0/WEIGHTS_0
  // and, when both are there, JOINTS_1/WEIGHTS_1, each with the vertex count of POSITION.
  Status ReadVertexAttributes(const tinygltf::Primitive& primitive, const std::string& prim,
                              PrimitiveVertices* out) {
    const auto attribute = [&](const char* key) {
      const auto it = primitive.attributes.find(key);
      return it == primitive.attributes.end() ? -1 : it->second;
    };
    const std::string attributes = prim + ".attributes.";
    if (attribute("POSITION") < 0) {
      return FieldError(attributes + "POSITION", "expected vertex positions, found none");
    }
    if (attribute("JOINTS_0") < 0 || attribute("WEIGHTS_0") < 0) {
      return FieldError(attributes + (attribute("JOINTS_0") < 0 ? "JOINTS_0" : "WEIGHTS_0"),
                        "expected skinning attributes on a node with a skin, found none");
    }
    Status s = reader_.Read(attribute("POSITION"), attributes + "POSITION", {TINYGLTF_TYPE_VEC3},
                            kFloat, &out->positions);
    if (!s.ok()) return s;
    out->count = out->positions.size() / 3;
    out->count_field =
        Indexed("accessors", static_cast<std::size_t>(attribute("POSITION"))) + ".count";
    s = CheckVertexCount(*out);
    if (!s.ok()) return s;
    const auto same_count = [&](const char* key, const std::vector<double>& values,
                                std::size_t per) -> Status {
      if (values.size() / per == out->count) return Status();
      return FieldError(Indexed("accessors", static_cast<std::size_t>(attribute(key))) + ".count",
                        "expected the " + std::to_string(out->count) + " vertices of " +
                            attributes + "POSITION for " + key + ", found " +
                            std::to_string(values.size() / per));
    };
    if (attribute("TEXCOORD_0") >= 0) {
      s = reader_.Read(attribute("TEXCOORD_0"), attributes + "TEXCOORD_0", {TINYGLTF_TYPE_VEC2},
                       kFloatOrUnorm, &out->uvs);
      if (!s.ok()) return s;
      s = same_count("TEXCOORD_0", out->uvs, 2);
      if (!s.ok()) return s;
    }
    const int sets = attribute("JOINTS_1") >= 0 && attribute("WEIGHTS_1") >= 0 ? 2 : 1;
    for (int set = 0; set < sets; ++set) {
      const std::string joints_key = "JOINTS_" + std::to_string(set);
      const std::string weights_key = "WEIGHTS_" + std::to_string(set);
      InfluenceSet influences;
      influences.joints_accessor = attribute(joints_key.c_str());
      s = reader_.Read(
          influences.joints_accessor, attributes + joints_key, {TINYGLTF_TYPE_VEC4},
          {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
          &influences.joints);
      if (!s.ok()) return s;
      s = same_count(joints_key.c_str(), influences.joints, 4);
      if (!s.ok()) return s;
      s = reader_.Read(attribute(weights_key.c_str()), attributes + weights_key,
                       {TINYGLTF_TYPE_VEC4}, kFloatOrUnorm, &influences.weights);
      if (!s.ok()) return s;
      s = same_count(weights_key.c_str(), influences.weights, 4);
      if (!s.ok()) return s;
      out->influences.push_back(std::move(influences));
    }
    for (const auto& [key, value] : primitive.attributes) {
      if ((key.compare(0, 7, "JOINTS_") == 0 || key.compare(0, 8, "WEIGHTS_") == 0) &&
          key != "JOINTS_0" && key != "WEIGHTS_0" && key != "JOINTS_1" && key != "WEIGHTS_1") {
        left_out_.push_back("influences " + key + " of " + prim);
      }
    }
    return Status();
  }

  // A part's vertices against the MD5 limit of a part and of all parts together.
  Status CheckVertexCount(const PrimitiveVertices& vertices) {
    const md5::Md5Limits& limits = job_.options.limits;
    if (vertices.count > static_cast<std::size_t>(limits.max_vertices_per_mesh)) {
      return FieldError(vertices.count_field, "expected at most " +
                                                  std::to_string(limits.max_vertices_per_mesh) +
                                                  " vertices in a mesh part (md5 limit), found " +
                                                  std::to_string(vertices.count));
    }
    total_vertices_ += vertices.count;
    if (total_vertices_ > static_cast<std::size_t>(limits.max_total_vertices)) {
      return FieldError(vertices.count_field,
                        "expected at most " + std::to_string(limits.max_total_vertices) +
                            " vertices in all mesh parts (md5 limit), found " +
                            std::to_string(total_vertices_) + " so far");
    }
    return Status();
  }

  // The primitive's indices (or 0..n-1 without them), each below the vertex count.
  Status ReadIndices(const tinygltf::Primitive& primitive, const std::string& prim,
                     std::size_t vertex_count, PrimitiveIndices* out) const {
    if (primitive.indices >= 0) {
      const Status s = reader_.Read(primitive.indices, prim + ".indices", {TINYGLTF_TYPE_SCALAR},
                                    kUnsignedInts, &out->indices);
      if (!s.ok()) return s;
      out->field = Indexed("accessors", static_cast<std::size_t>(primitive.indices));
    } else {
      out->indices.resize(vertex_count);
      for (std::size_t i = 0; i < vertex_count; ++i) out->indices[i] = static_cast<double>(i);
      out->field = prim;
    }
    for (std::size_t i = 0; i < out->indices.size(); ++i) {
      if (!(out->indices[i] < static_cast<double>(vertex_count))) {
        return FieldError(out->field, "expected vertex indices below " +
                                          std::to_string(vertex_count) + ", found " +
                                          Number(out->indices[i]) + " at " + std::to_string(i));
      }
    }
    return Status();
  }

  // The part's shader: its material's name ("material_N" when it has none), or "default".
  Status PartShader(const tinygltf::Primitive& primitive, const std::string& prim,
                    std::string* shader) const {
    if (primitive.material >= 0 &&
        static_cast<std::size_t>(primitive.material) < gltf_.materials.size()) {
      *shader = gltf_.materials[static_cast<std::size_t>(primitive.material)].name;
      if (shader->empty()) *shader = "material_" + std::to_string(primitive.material);
    } else if (primitive.material >= 0) {
      return FieldError(prim + ".material", "expected a material index below " +
                                                std::to_string(gltf_.materials.size()) +
                                                ", found " + std::to_string(primitive.material));
    } else {
      *shader = "default";
    }
    return Status();
  }

  // Triangles of a list, strip or fan, reversed to MD5's clockwise fronts (glTF's are
  // counter-clockwise).
  static void AddTriangles(int mode, const std::vector<double>& indices,
                           std::vector<md5::MeshTriangle>* triangles) {
    const auto add = [&](std::size_t a, std::size_t b, std::size_t c) {
      md5::MeshTriangle triangle;
      triangle.vertices = {static_cast<std::uint32_t>(indices[a]),
                           static_cast<std::uint32_t>(indices[c]),
                           static_cast<std::uint32_t>(indices[b])};
      triangles->push_back(triangle);
    };
    if (mode == TINYGLTF_MODE_TRIANGLES) {
      for (std::size_t i = 0; i + 2 < indices.size(); i += 3) add(i, i + 1, i + 2);
    } else if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      for (std::size_t i = 0; i + 2 < indices.size(); ++i) {
        if (i % 2 == 0) {
          add(i, i + 1, i + 2);
        } else {
          add(i + 1, i, i + 2);
        }
      }
    } else {
      for (std::size_t i = 1; i + 1 < indices.size(); ++i) add(0, i, i + 1);
    }
  }

  // Each vertex with its UV and its (at most four, renormalized) weights, in joint space.
  Status AddWeightedVertices(const PrimitiveVertices& vertices, md5::MeshPart* part,
                             InfluenceCounts* counts) const {
    part->vertices.resize(vertices.count);
    std::vector<Influence> influences;
    for (std::size_t v = 0; v < vertices.count; ++v) {
      const Status s = GatherInfluences(vertices, v, &influences, counts);
      if (!s.ok()) return s;
      double sum = 0.0;
      for (const Influence& i : influences) sum += i.weight;
      const dvec3 position(vertices.positions[v * 3], vertices.positions[v * 3 + 1],
                           vertices.positions[v * 3 + 2]);
      md5::MeshVertex& vertex = part->vertices[v];
      if (!vertices.uvs.empty()) {
        vertex.uv = glm::vec2(static_cast<float>(vertices.uvs[v * 2]),
                              static_cast<float>(vertices.uvs[v * 2 + 1]));
      }
      vertex.first_weight = static_cast<int>(part->weights.size());
      vertex.weight_count = static_cast<int>(influences.size());
      for (const Influence& i : influences) {
        md5::MeshWeight weight;
        weight.joint = i.joint;
        weight.bias = static_cast<float>(i.weight / sum);
        const glm::dvec4 local =
            weight_from_model_[static_cast<std::size_t>(i.joint)] * glm::dvec4(position, 1.0);
        weight.position = glm::vec3(dvec3(local));
        part->weights.push_back(weight);
      }
    }
    return Status();
  }

  // Vertex v's influences by MD5 joint (a joint listed twice summed), largest first, at most
  // four; a vertex without any weight follows its first listed joint.
  Status GatherInfluences(const PrimitiveVertices& vertices, std::size_t v,
                          std::vector<Influence>* influences, InfluenceCounts* counts) const {
    influences->clear();
    const std::size_t skin_joints = skin_of_md5_.size();
    for (const InfluenceSet& set : vertices.influences) {
      for (int c = 0; c < 4; ++c) {
        const double w = set.weights[v * 4 + c];
        if (!(w > 0.0)) continue;
        const double index = set.joints[v * 4 + c];
        if (!(index < static_cast<double>(skin_joints))) {
          return FieldError(Indexed("accessors", static_cast<std::size_t>(set.joints_accessor)),
                            "expected joint indices below the " + std::to_string(skin_joints) +
                                " joints of skins[" + std::to_string(skin_index_) + "], found " +
                                Number(index) + " at vertex " + std::to_string(v));
        }
        const int joint = md5_of_skin_[static_cast<std::size_t>(index)];
        auto it = std::find_if(influences->begin(), influences->end(),
                               [&](const Influence& i) { return i.joint == joint; });
        if (it == influences->end()) {
          influences->push_back({joint, w});
        } else {
          it->weight += w;
        }
      }
    }
    if (influences->empty()) {
      // No weight at all (invalid glTF): the vertex follows its first listed joint.
      const double index = vertices.influences[0].joints[v * 4];
      const int joint = index < static_cast<double>(skin_joints)
                            ? md5_of_skin_[static_cast<std::size_t>(index)]
                            : 0;
      influences->push_back({joint, 1.0});
      ++counts->unweighted;
    }
    std::stable_sort(influences->begin(), influences->end(),
                     [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
    if (influences->size() > 4) {
      influences->resize(4);
      ++counts->over_four;
    }
    return Status();
  }

  void WarnAboutInfluences(const InfluenceCounts& counts) {
    if (counts.second_sets > 0) {
      Warn("JOINTS_1/WEIGHTS_1 read on " + std::to_string(counts.second_sets) + " primitives; " +
           std::to_string(counts.over_four) +
           " vertices with more than 4 influences keep their 4 largest, renormalized");
    } else if (counts.over_four > 0) {
      Warn(std::to_string(counts.over_four) +
           " vertices with more than 4 influences keep their 4 largest, renormalized");
    }
    if (counts.unweighted > 0) {
      Warn(std::to_string(counts.unweighted) +
           " vertices have no weight above 0: each follows its first listed joint");
    }
  }

  // Each animation: its tracks read, what sampling it will cost worked out and checked against
  // the limits and bounds, then its frames sampled.
  Status ReadAnimations() {
    std::set<std::string> used_names;
    SamplingCost spent;
    for (std::size_t a = 0; a < gltf_.animations.size(); ++a) {
      const tinygltf::Animation& animation = gltf_.animations[a];
      const std::string field = Indexed("animations", a);
      AnimationTracks tracks;
      Status s = ReadTracks(animation, field, &tracks);
      if (!s.ok()) return s;
      const SamplingPlan plan = PlanSampling(tracks);
      s = CheckSamplingPlan(field, plan, &spent);
      if (!s.ok()) return s;
      ImportedAnimation imported;
      imported.name = UniqueAnimationName(animation, a, &used_names);
      Sample(tracks.tracks, plan, &imported);
      job_.output->animations.push_back(std::move(imported));
    }
    if (worst_scale_change_ > 1e-5) {
      Warn("joint scale or shear changes in animation (by up to " + Number(worst_scale_change_) +
           " at " + worst_scale_where_ +
           "): MD5 has no scale, so the converted poses keep the bind pose's");
    }
    return Status();
  }

  // The animation's name made a file stem, unique among those before it.
  static std::string UniqueAnimationName(const tinygltf::Animation& animation, std::size_t index,
                                         std::set<std::string>* used) {
    const std::string name =
        animation.name.empty() ? "anim_" + std::to_string(index) : FileSafe(animation.name);
    std::string unique = name;
    for (int suffix = 2; used->count(unique) != 0; ++suffix)
      unique = name + "_" + std::to_string(suffix);
    used->insert(unique);
    return unique;
  }

  // The channels that move nodes, each a track with its keys; what MD5 cannot hold is noted as
  // left out.
  Status ReadTracks(const tinygltf::Animation& animation, const std::string& field,
                    AnimationTracks* out) {
    for (std::size_t c = 0; c < animation.channels.size(); ++c) {
      const tinygltf::AnimationChannel& channel = animation.channels[c];
      const std::string channel_field = field + ".channels[" + std::to_string(c) + "]";
      Track track;
      bool kept = false;
      const Status s = ReadTrack(animation, channel, field, channel_field, &track, &kept);
      if (!s.ok()) return s;
      if (!kept) continue;
      out->start = std::min(out->start, track.times.front());
      out->end = std::max(out->end, track.times.back());
      out->tracks.push_back(std::move(track));
    }
    if (out->tracks.empty()) out->start = out->end = 0.0;
    return Status();
  }

  // One channel as a track (`kept` false for one MD5 cannot hold): its target, path and sampler
  // checked, its keys read.
  Status ReadTrack(const tinygltf::Animation& animation, const tinygltf::AnimationChannel& channel,
                   const std::string& field, const std::string& channel_field, Track* track,
                   bool* kept) {
    if (channel.target_path == "weights") {
      left_out_.push_back("morph weights animated by " + channel_field);
      return Status();
    }
    if (channel.target_path == "translation") {
      track->path = 0;
    } else if (channel.target_path == "rotation") {
      track->path = 1;
    } else if (channel.target_path == "scale") {
      track->path = 2;
    } else {
      left_out_.push_back(channel_field + " (target path \"" + channel.target_path + "\")");
      return Status();
    }
    if (channel.target_node < 0) return Status();  // an extension's target: nothing MD5 can hold
    if (static_cast<std::size_t>(channel.target_node) >= gltf_.nodes.size()) {
      return FieldError(channel_field + ".target.node",
                        "expected a node index below " + std::to_string(gltf_.nodes.size()) +
                            ", found " + std::to_string(channel.target_node));
    }
    if (channel.sampler < 0 ||
        static_cast<std::size_t>(channel.sampler) >= animation.samplers.size()) {
      return FieldError(channel_field + ".sampler", "expected a sampler index below " +
                                                        std::to_string(animation.samplers.size()) +
                                                        ", found " +
                                                        std::to_string(channel.sampler));
    }
    if (rest_[static_cast<std::size_t>(channel.target_node)].has_matrix) {
      left_out_.push_back(channel_field + " (it animates nodes[" +
                          std::to_string(channel.target_node) +
                          "], which has a matrix: glTF forbids that)");
      return Status();
    }
    const tinygltf::AnimationSampler& sampler =
        animation.samplers[static_cast<std::size_t>(channel.sampler)];
    const std::string sampler_field = field + ".samplers[" + std::to_string(channel.sampler) + "]";
    if (sampler.interpolation.empty() || sampler.interpolation == "LINEAR") {
      track->interpolation = 0;
    } else if (sampler.interpolation == "STEP") {
      track->interpolation = 1;
    } else if (sampler.interpolation == "CUBICSPLINE") {
      track->interpolation = 2;
    } else {
      return FieldError(
          sampler_field + ".interpolation",
          "expected LINEAR, STEP or CUBICSPLINE, found \"" + sampler.interpolation + "\"");
    }
    track->node = channel.target_node;
    *kept = true;
    return ReadKeys(sampler, sampler_field, track);
  }

  // A track's key times (strictly increasing) and its values (three a key for CUBICSPLINE).
  Status ReadKeys(const tinygltf::AnimationSampler& sampler, const std::string& sampler_field,
                  Track* track) const {
    Status s = reader_.Read(sampler.input, sampler_field + ".input", {TINYGLTF_TYPE_SCALAR}, kFloat,
                            &track->times);
    if (!s.ok()) return s;
    const std::string input_name = Indexed("accessors", static_cast<std::size_t>(sampler.input));
    if (track->times.empty()) {
      return FieldError(input_name + ".count", "expected at least one key time, found none");
    }
    for (std::size_t k = 1; k < track->times.size(); ++k) {
      if (!(track->times[k] > track->times[k - 1])) {
        return FieldError(input_name, "expected strictly increasing key times, found " +
                                          Number(track->times[k]) + " after " +
                                          Number(track->times[k - 1]) + " at key " +
                                          std::to_string(k));
      }
    }
    if (track->path == 1) {
      s = reader_.Read(sampler.output, sampler_field + ".output", {TINYGLTF_TYPE_VEC4},
                       kFloatOrSnorm, &track->values, &track->components);
    } else {
      s = reader_.Read(sampler.output, sampler_field + ".output", {TINYGLTF_TYPE_VEC3}, kFloat,
                       &track->values, &track->components);
    }
    if (!s.ok()) return s;
    const std::size_t per_key = track->interpolation == 2 ? 3 : 1;
    const std::size_t expected = track->times.size() * per_key;
    const std::size_t found = track->values.size() / static_cast<std::size_t>(track->components);
    if (found != expected) {
      return FieldError(Indexed("accessors", static_cast<std::size_t>(sampler.output)) + ".count",
                        "expected " + std::to_string(expected) + " values for the " +
                            std::to_string(track->times.size()) + " keys of " + input_name +
                            (per_key == 3 ? " (CUBICSPLINE: 3 a key)" : "") + ", found " +
                            std::to_string(found));
    }
    return Status();
  }

  // The frame rate and count of an animation and what sampling it will cost, from its keys'
  // times and the skin's and meshes' sizes alone.
  SamplingPlan PlanSampling(const AnimationTracks& tracks) const {
    SamplingPlan plan;
    plan.start = tracks.start;
    plan.seconds = tracks.end - tracks.start;
    plan.fps = FrameRate(tracks.tracks);
    plan.frames = std::round(plan.seconds * plan.fps) + 1.0;
    const double joints = static_cast<double>(joint_nodes_.size());
    const double per_frame =
        static_cast<double>(gltf_.nodes.size()) + joints + static_cast<double>(MeshWeightCount());
    plan.cost.joint_frames = plan.frames * joints;
    plan.cost.anim_bytes = static_cast<double>(md5::EstimateMd5AnimBytes(
        static_cast<std::uint64_t>(std::min(plan.frames, 1e18)), joint_nodes_.size()));
    plan.cost.work = plan.frames * per_frame;
    return plan;
  }

  // The plan against the MD5 limits (frames, joints x frames) and the import's bounds (md5anim
  // bytes and sampling work of all animations so far), each refusal naming the animation.
  Status CheckSamplingPlan(const std::string& field, const SamplingPlan& plan,
                           SamplingCost* spent) const {
    const md5::Md5Limits& limits = job_.options.limits;
    const GltfImportBounds& bounds = job_.options.bounds;
    const std::string made = Number(plan.seconds) + " s at " + Number(plan.fps) + " fps make " +
                             Count(plan.frames) + " frames";
    if (!(plan.frames <= static_cast<double>(limits.max_frames))) {
      return FieldError(
          field, made + ", expected at most " + std::to_string(limits.max_frames) + " (md5 limit)");
    }
    const std::string joints = std::to_string(joint_nodes_.size()) + " joints";
    if (plan.cost.joint_frames > static_cast<double>(limits.max_joint_frames)) {
      return FieldError(field, made + " of " + joints + " = " + Count(plan.cost.joint_frames) +
                                   " joint frames, expected at most " +
                                   std::to_string(limits.max_joint_frames) + " (md5 limit)");
    }
    spent->anim_bytes += plan.cost.anim_bytes;
    if (spent->anim_bytes > static_cast<double>(bounds.max_anim_bytes)) {
      return FieldError(
          field, made + " of " + joints + " = " + Megabytes(plan.cost.anim_bytes) + " of md5anim" +
                     (spent->anim_bytes > plan.cost.anim_bytes
                          ? " (" + Megabytes(spent->anim_bytes) + " with the animations before it)"
                          : std::string()) +
                     ", expected at most " + Megabytes(static_cast<double>(bounds.max_anim_bytes)) +
                     " (the import's bound)");
    }
    spent->work += plan.cost.work;
    if (spent->work > static_cast<double>(bounds.max_sampling_work)) {
      return FieldError(
          field, made + " x (" + std::to_string(gltf_.nodes.size()) + " nodes + " + joints + " + " +
                     std::to_string(MeshWeightCount()) +
                     " mesh weights) = " + Count(plan.cost.work) + " transforms to sample" +
                     (spent->work > plan.cost.work
                          ? " (" + Count(spent->work) + " with the animations before it)"
                          : std::string()) +
                     ", expected at most " + std::to_string(bounds.max_sampling_work) +
                     " (the import's bound)");
    }
    return Status();
  }

  // The requested rate, else that of the grid every key lies on (the smallest key spacing),
  // when that is in [kMinGridFps, kMaxGridFps], else the default. Never 0: a rate is rounded to
  // a whole number only when that is at least 1.
  double FrameRate(const std::vector<Track>& tracks) const {
    if (job_.options.fps > 0.0f) return job_.options.fps;
    double start = std::numeric_limits<double>::infinity();
    double step = std::numeric_limits<double>::infinity();
    for (const Track& track : tracks) {
      start = std::min(start, track.times.front());
      for (std::size_t k = 1; k < track.times.size(); ++k) {
        step = std::min(step, track.times[k] - track.times[k - 1]);
      }
    }
    if (!std::isfinite(step) || !(step > 0.0)) return kDefaultImportFps;
    double fps = 1.0 / step;
    if (std::round(fps) >= 1.0 && std::abs(fps - std::round(fps)) < 1e-3) fps = std::round(fps);
    if (!(fps >= kMinGridFps && fps <= kMaxGridFps)) return kDefaultImportFps;
    for (const Track& track : tracks) {
      for (double t : track.times) {
        const double k = (t - start) * fps;
        if (std::abs(k - std::round(k)) > 1e-3) return kDefaultImportFps;
      }
    }
    return fps;
  }
  std::size_t MeshWeightCount() const {
    std::size_t weights = 0;
    for (const md5::MeshPart& part : job_.output->mesh.meshes) weights += part.weights.size();
    return weights;
  }

  void Sample(const std::vector<Track>& tracks, const SamplingPlan& plan, ImportedAnimation* out) {
    const double start = plan.start;
    const double fps = plan.fps;
    const int frames = static_cast<int>(plan.frames);
    const std::size_t joints = joint_nodes_.size();
    const md5::MeshFile& mesh = job_.output->mesh;
    md5::AnimFile& anim = out->file;
    anim.file_name = out->name + ".md5anim";
    anim.commandline = "md5stage convert " + md5::FileStemOf(job_.file_name);
    anim.frame_count = frames;
    anim.joint_count = static_cast<int>(joints);
    anim.frame_rate = static_cast<float>(fps);
    // Per frame and joint: tx ty tz qx qy qz (MD5 local, parent-relative; roots model-space).
    std::vector<float> values(static_cast<std::size_t>(frames) * joints * 6);
    std::vector<NodeTrs> locals;
    std::vector<dmat4> world;
    std::vector<RigidSplit> models(joints);
    std::vector<dmat4> skinning(joints);
    anim.bounds.resize(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
      const double t = start + f / fps;
      locals = rest_;
      for (const Track& track : tracks)
        ApplyTrack(track, t, &locals[static_cast<std::size_t>(track.node)]);
      WorldMatrices(locals, &world);
      for (std::size_t j = 0; j < joints; ++j) {
        models[j] = SplitRigid(to_z_up_ * world[static_cast<std::size_t>(joint_nodes_[j])]);
        const double change = MaxAbsDifference(models[j].residual, bind_[j].residual);
        if (change > worst_scale_change_) {
          worst_scale_change_ = change;
          worst_scale_where_ =
              mesh.joints[j].name + ", " + out->name + " frame " + std::to_string(f);
        }
        dvec3 translation = models[j].translation;
        dquat rotation = models[j].rotation;
        const int parent = md5_parents_[j];
        if (parent >= 0) {
          const RigidSplit& p = models[static_cast<std::size_t>(parent)];
          const dquat inverse = glm::conjugate(p.rotation);
          translation = inverse * (translation - p.translation);
          rotation = inverse * rotation;
        }
        const glm::vec3 xyz = Md5Xyz(rotation);
        float* v = values.data() + (static_cast<std::size_t>(f) * joints + j) * 6;
        v[0] = static_cast<float>(translation.x);
        v[1] = static_cast<float>(translation.y);
        v[2] = static_cast<float>(translation.z);
        v[3] = xyz.x;
        v[4] = xyz.y;
        v[5] = xyz.z;
        skinning[j] = RigidMatrix(models[j].translation, models[j].rotation);
      }
      // Bounds of the skinned mesh, as an MD5 reader would skin it.
      glm::dvec3 lo(std::numeric_limits<double>::infinity());
      glm::dvec3 hi(-std::numeric_limits<double>::infinity());
      for (const md5::MeshPart& part : mesh.meshes) {
        for (const md5::MeshVertex& vertex : part.vertices) {
          dvec3 p(0.0);
          for (int w = 0; w < vertex.weight_count; ++w) {
            const md5::MeshWeight& weight =
                part.weights[static_cast<std::size_t>(vertex.first_weight + w)];
            p += static_cast<double>(weight.bias) *
                 dvec3(skinning[static_cast<std::size_t>(weight.joint)] *
                       glm::dvec4(dvec3(weight.position), 1.0));
          }
          lo = glm::min(lo, p);
          hi = glm::max(hi, p);
        }
      }
      anim.bounds[static_cast<std::size_t>(f)] = {glm::vec3(lo), glm::vec3(hi)};
    }
    // Baseframe: frame 0. A component is animated only when some frame moves it off that; the
    // tolerance is below what a float of the value can tell for translations, and 1e-7 for
    // quaternion components.
    anim.hierarchy.resize(joints);
    anim.baseframe.resize(joints);
    int component_count = 0;
    std::vector<std::array<int, 6>> slot(joints);
    for (std::size_t j = 0; j < joints; ++j) {
      md5::AnimJoint& entry = anim.hierarchy[j];
      entry.name = mesh.joints[j].name;
      entry.parent = mesh.joints[j].parent;
      entry.parent_name = mesh.joints[j].parent_name;
      entry.start_index = component_count;
      const float* base = values.data() + j * 6;
      anim.baseframe[j].position = glm::vec3(base[0], base[1], base[2]);
      anim.baseframe[j].orientation_xyz = glm::vec3(base[3], base[4], base[5]);
      for (int c = 0; c < 6; ++c) {
        const double tolerance =
            c < 3 ? std::max(1e-6, std::abs(static_cast<double>(base[c])) * 1e-7) : 1e-7;
        bool animated = false;
        for (int f = 1; f < frames && !animated; ++f) {
          const float value = values[(static_cast<std::size_t>(f) * joints + j) * 6 + c];
          animated = std::abs(static_cast<double>(value) - base[c]) > tolerance;
        }
        slot[j][c] = animated ? component_count++ : -1;
        if (animated) entry.flags |= 1 << c;
      }
      if (entry.flags == 0) entry.start_index = 0;
    }
    anim.animated_component_count = component_count;
    anim.frame_components.resize(static_cast<std::size_t>(frames) * component_count);
    for (int f = 0; f < frames; ++f) {
      for (std::size_t j = 0; j < joints; ++j) {
        for (int c = 0; c < 6; ++c) {
          if (slot[j][c] < 0) continue;
          anim.frame_components[static_cast<std::size_t>(f) * component_count + slot[j][c]] =
              values[(static_cast<std::size_t>(f) * joints + j) * 6 + c];
        }
      }
    }
  }

  // Each material a part uses, with the images of its base colour, normal and specular colour
  // textures: parts whose material has one get its decl-safe name as their shader. What MD5
  // materials cannot hold (metallic-roughness, occlusion, emissive) is reported as left out.
  void ReadMaterials() {
    GltfImportOutput& out = *job_.output;
    std::map<int, int> material_slots;  // glTF material -> out.materials index, -1: none
    std::map<int, int> image_slots;     // glTF image -> out.images index, -1: left out
    for (std::size_t p = 0; p < part_materials_.size() && p < out.mesh.meshes.size(); ++p) {
      const int m = part_materials_[p];
      if (m < 0 || static_cast<std::size_t>(m) >= gltf_.materials.size()) continue;
      auto slot = material_slots.find(m);
      if (slot == material_slots.end()) {
        const tinygltf::Material& material = gltf_.materials[static_cast<std::size_t>(m)];
        const std::string name = Indexed("materials", static_cast<std::size_t>(m));
        ImportedMaterial imported;
        imported.diffuse_image =
            TextureImage(material.pbrMetallicRoughness.baseColorTexture.index,
                         name + ".pbrMetallicRoughness.baseColorTexture", &image_slots);
        imported.normal_image =
            TextureImage(material.normalTexture.index, name + ".normalTexture", &image_slots, true);
        if (const auto specular = material.extensions.find("KHR_materials_specular");
            specular != material.extensions.end()) {
          const std::string field = name + ".extensions.KHR_materials_specular";
          const tinygltf::Value& color = specular->second.Get("specularColorTexture");
          if (color.IsObject() && color.Get("index").IsNumber()) {
            imported.specular_image = TextureImage(color.Get("index").GetNumberAsInt(),
                                                   field + ".specularColorTexture", &image_slots);
          }
          if (specular->second.Get("specularTexture").IsObject()) {
            left_out_.push_back(field + ".specularTexture (MD5 specular maps are colours)");
          }
        }
        if (material.pbrMetallicRoughness.metallicRoughnessTexture.index >= 0) {
          left_out_.push_back(name + ".pbrMetallicRoughness.metallicRoughnessTexture (MD5 " +
                              "materials have diffuse, normal and specular maps)");
        }
        if (material.occlusionTexture.index >= 0) left_out_.push_back(name + ".occlusionTexture");
        if (material.emissiveTexture.index >= 0) left_out_.push_back(name + ".emissiveTexture");
        int index = -1;
        if (imported.diffuse_image >= 0 || imported.normal_image >= 0 ||
            imported.specular_image >= 0) {
          imported.name = DeclSafe(out.mesh.meshes[p].shader, true);
          if (imported.name.empty()) imported.name = "material";
          index = static_cast<int>(out.materials.size());
          out.materials.push_back(std::move(imported));
        }
        slot = material_slots.emplace(m, index).first;
      }
      if (slot->second >= 0) {
        out.mesh.meshes[p].shader = out.materials[static_cast<std::size_t>(slot->second)].name;
      }
    }
  }

  // The out.images index of a texture's image, kept on first use; -1 (and a warning) when it
  // cannot be had: a bad index, a file not given, bytes that are not PNG or JPEG.
  int TextureImage(int texture, const std::string& field, std::map<int, int>* image_slots,
                   bool normal_map = false) {
    if (texture < 0) return -1;
    if (static_cast<std::size_t>(texture) >= gltf_.textures.size()) {
      Warn(field + ".index: expected a texture index below " +
           std::to_string(gltf_.textures.size()) + ", found " + std::to_string(texture) +
           "; the texture is left out");
      return -1;
    }
    const int source = gltf_.textures[static_cast<std::size_t>(texture)].source;
    const std::string texture_name = Indexed("textures", static_cast<std::size_t>(texture));
    if (source < 0 || static_cast<std::size_t>(source) >= gltf_.images.size()) {
      Warn(texture_name + ".source: expected an image index below " +
           std::to_string(gltf_.images.size()) + ", found " + std::to_string(source) +
           " (an extension's image format?); the texture is left out");
      return -1;
    }
    const int slot = source * 2 + (normal_map ? 1 : 0);  // a normal map is a converted copy
    const auto kept = image_slots->find(slot);
    if (kept != image_slots->end()) return kept->second;
    const int index = KeepImage(source, normal_map);
    image_slots->emplace(slot, index);
    return index;
  }

  int KeepImage(int source, bool normal_map) {
    const tinygltf::Image& image = gltf_.images[static_cast<std::size_t>(source)];
    const std::string name = Indexed("images", static_cast<std::size_t>(source));
    std::string bytes;
    std::string stem = image.name;
    if (image.bufferView >= 0) {
      const auto view_index = static_cast<std::size_t>(image.bufferView);
      if (view_index >= gltf_.bufferViews.size()) {
        Warn(name + ".bufferView: expected a buffer view index below " +
             std::to_string(gltf_.bufferViews.size()) + "; the image is left out");
        return -1;
      }
      const tinygltf::BufferView& view = gltf_.bufferViews[view_index];
      const bool buffer_ok =
          view.buffer >= 0 && static_cast<std::size_t>(view.buffer) < gltf_.buffers.size();
      const std::vector<unsigned char>* buffer =
          buffer_ok ? &gltf_.buffers[static_cast<std::size_t>(view.buffer)].data : nullptr;
      if (buffer == nullptr || view.byteOffset > buffer->size() ||
          view.byteLength > buffer->size() - view.byteOffset) {
        Warn(Indexed("bufferViews", view_index) + ": the bytes of " + name +
             " run past its buffer; the image is left out");
        return -1;
      }
      bytes.assign(reinterpret_cast<const char*>(buffer->data() + view.byteOffset),
                   view.byteLength);
    } else if (const auto kept = data_uri_images_.find(source); kept != data_uri_images_.end()) {
      bytes = kept->second;
    } else if (!image.uri.empty()) {
      const std::string file = PercentDecoded(image.uri);
      const std::string* given = job_.files ? job_.files(file) : nullptr;
      if (given == nullptr) {
        Warn(name + ".uri: the file \"" + file + "\" was not given; the image is left out");
        return -1;
      }
      bytes = *given;
      if (stem.empty()) stem = md5::FileStemOf(file);
    }
    std::string extension = ImageExtension(bytes);
    if (extension.empty()) {
      Warn(name + ": not a PNG or JPEG image (" + std::to_string(bytes.size()) +
           " bytes); the image is left out");
      return -1;
    }
    if (normal_map) {
      Result<material::RgbaImage> decoded = material::DecodeImage(name, bytes);
      Result<std::string> png = decoded.ok() ? Result<std::string>(std::string()) : decoded.error();
      if (decoded.ok()) {
        material::InvertGreen(&decoded.value());
        png = material::EncodePng(name, decoded.value());
      }
      if (!png.ok()) {
        Warn(name + ": the normal map cannot be converted (" + png.error().message +
             "); the image is left out");
        return -1;
      }
      bytes = std::move(png).value();
      extension = "png";
    }
    stem = DeclSafe(md5::FileStemOf(stem), false);
    if (stem.empty())
      stem = DeclSafe(md5::FileStemOf(job_.file_name), false) + "_image" + std::to_string(source);
    std::string file_name = stem + "." + extension;
    for (int n = 2; TakenImageName(file_name); ++n) {
      file_name = stem + "_" + std::to_string(n) + "." + extension;
    }
    job_.output->images.push_back({file_name, std::move(bytes)});
    return static_cast<int>(job_.output->images.size()) - 1;
  }

  bool TakenImageName(const std::string& file_name) const {
    for (const ImportedImage& image : job_.output->images) {
      if (image.file_name.size() != file_name.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < file_name.size() && same; ++i) {
        same = std::tolower(static_cast<unsigned char>(file_name[i])) ==
               std::tolower(static_cast<unsigned char>(image.file_name[i]));
      }
      if (same) return true;
    }
    return false;
  }

  void ReportLeftOut() {
    if (gltf_.skins.size() > 1) {
      left_out_.push_back(std::to_string(gltf_.skins.size() - 1) + " more skins (only skins[" +
                          std::to_string(skin_index_) + "])");
    }
    if (!gltf_.cameras.empty())
      left_out_.push_back(std::to_string(gltf_.cameras.size()) + " cameras");
    if (!gltf_.lights.empty()) left_out_.push_back(std::to_string(gltf_.lights.size()) + " lights");
    for (const std::string& what : left_out_) Warn("left out: " + what);
  }

  const GltfImportJob& job_;
  const tinygltf::Model& gltf_;
  const std::map<int, std::string>& data_uri_images_;
  std::vector<int> part_materials_;  // per MD5 mesh part, its glTF material (-1: none)
  AccessorReader reader_;
  const dmat4 to_z_up_;
  int skin_index_ = 0;           // the skin converted
  std::vector<int> parents_;     // per node, -1 for roots
  std::vector<int> node_order_;  // parents first
  std::vector<NodeTrs> rest_;
  std::vector<int> md5_of_skin_;  // skin joint index -> MD5 joint index
  std::vector<int> skin_of_md5_;
  std::vector<int> joint_nodes_;  // per MD5 joint, its node
  std::vector<int> md5_parents_;
  std::vector<RigidSplit> bind_;  // per MD5 joint, Z-up
  std::vector<dmat4> weight_from_model_;
  std::vector<std::string> left_out_;
  std::size_t total_vertices_ = 0;  // over the mesh parts so far
  double worst_scale_change_ = 0.0;
  std::string worst_scale_where_;
};

}  // namespace

Status GltfImportJob::Validate() const {
  if (output == nullptr) return FieldError("output", "expected somewhere to write, found none");
  if (bytes.empty())
    return FieldError("bytes", "expected the .glb or .gltf file's bytes, found none");
  if (!(options.fps >= 0.0f) || !(options.fps <= options.limits.max_frame_rate)) {
    return FieldError("options.fps",
                      "expected 0 (the keys' own rate) or a rate above 0 and at most " +
                          Number(options.limits.max_frame_rate) + ", found " + Number(options.fps));
  }
  if (bytes.size() > options.limits.max_file_bytes) {
    return FieldError("bytes", "expected at most " + std::to_string(options.limits.max_file_bytes) +
                                   " bytes, found " + std::to_string(bytes.size()));
  }
  return Status();
}

Status GltfImportJob::Run() const {
  const Status valid = Validate();
  if (!valid.ok()) {
    Diagnostic d = valid.error();
    d.file = file_name;
    return d;
  }
  *output = GltfImportOutput();
  tinygltf::TinyGLTF loader;
  std::map<int, std::string> data_uri_images;
  loader.SetImageLoader(&KeepDataUriImages, &data_uri_images);
  LookupContext context{&files};
  loader.SetFsCallbacks({&LookupExists, &LookupExpand, &LookupRead, &LookupWrite, &context});
  tinygltf::Model gltf;
  std::string error, warning;
  const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  std::size_t first = 0;
  while (first < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[first]))) ++first;
  if (!binary && (first == bytes.size() || bytes[first] != '{')) {
    return MakeError(file_name, 0, 0,
                     "expected a glTF file (GLB magic \"glTF\" or JSON text), found neither");
  }
  if (bytes.size() > 0xFFFFFFFFu) return FieldError("bytes", "expected a file below 4 GiB");
  const std::string_view json = binary ? GlbJsonChunk(bytes) : bytes;
  const std::size_t too_deep = TooDeepAt(json, kMaxGltfJsonDepth);
  if (too_deep != std::string_view::npos) {
    const auto [line, column] = LineColumn(json, too_deep);
    return MakeError(
        file_name, binary ? 0 : line, binary ? 0 : column,
        std::string(binary ? "JSON chunk at byte " + std::to_string(too_deep) + ": " : "") +
            "expected JSON nested at most " + std::to_string(kMaxGltfJsonDepth) +
            " arrays and objects deep (the limit), found deeper");
  }
  const bool loaded =
      binary ? loader.LoadBinaryFromMemory(&gltf, &error, &warning,
                                           reinterpret_cast<const unsigned char*>(bytes.data()),
                                           static_cast<unsigned int>(bytes.size()), "")
             : loader.LoadASCIIFromString(&gltf, &error, &warning, bytes.data(),
                                          static_cast<unsigned int>(bytes.size()), "");
  if (!loaded) {
    return MakeError(file_name, 0, 0,
                     "not a readable glTF 2.0 file: " + FirstLine(error.empty() ? warning : error));
  }
  // glTF 1.0 has another layout (techniques, objects by id) that tinygltf reads as if it were 2.0.
  const std::string& version = gltf.asset.version;
  if (version.size() < 2 || version.compare(0, 2, "2.") != 0) {
    return MakeError(file_name, 0, 0,
                     "asset.version: expected \"2.0\" (a glTF 2 file), found \"" +
                         DeclSafe(version, false) + "\"");
  }
  if (!warning.empty() && warnings != nullptr) {
    std::istringstream lines(warning);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) warnings->push_back(MakeWarning(file_name, 0, 0, "glTF: " + line));
    }
  }
  Importer importer(*this, gltf, data_uri_images);
  Status done = importer.Run();
  if (!done.ok()) {
    Diagnostic d = done.error();
    d.file = file_name;
    return d;
  }
  return Status();
}

std::string WriteImportedMaterials(const GltfImportOutput& output) {
  if (output.materials.empty()) return "";
  std::string text = "// Doom 3 materials for " + output.mesh.file_name +
                     ", made from its glTF materials by md5stage convert\n";
  const auto image = [&](int index) -> const std::string* {
    return index >= 0 && static_cast<std::size_t>(index) < output.images.size()
               ? &output.images[static_cast<std::size_t>(index)].file_name
               : nullptr;
  };
  for (const ImportedMaterial& material : output.materials) {
    text += material.name + "\n{\n";
    if (const std::string* file = image(material.diffuse_image))
      text += "\tdiffusemap\t" + *file + "\n";
    if (const std::string* file = image(material.normal_image))
      text += "\tbumpmap\t\t" + *file + "\n";
    if (const std::string* file = image(material.specular_image))
      text += "\tspecularmap\t" + *file + "\n";
    text += "}\n";
  }
  return text;
}

}  // namespace md5stage::convert
