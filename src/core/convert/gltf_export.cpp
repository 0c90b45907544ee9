#include "core/convert/gltf_export.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "core/material/image_decode.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_weights.h"

namespace md5stage::convert {
namespace {

// GLB stores its lengths in 32 bits; leave room for the JSON chunk and the headers.
constexpr std::uint64_t kMaxBufferBytes = 0xFFFFFFFFull - (64ull << 20);

Diagnostic FieldError(const std::string& field, const std::string& message) {
  return MakeError("", 0, 0, field + ": " + message);
}

// glTF strings are JSON, which must be UTF-8; MD5 names are bytes. Invalid sequences become
// U+FFFD so the writer never meets them.
std::string ValidUtf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    int length = 0;
    std::uint32_t code = 0;
    if (c < 0x80) {
      length = 1;
      code = c;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2;
      code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      code = c & 0x07;
    }
    bool valid = length > 0 && i + length <= n;
    for (int k = 1; valid && k < length; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) valid = false;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    static const std::uint32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (valid && (code < kMinimum[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)))
      valid = false;
    if (valid && code < 0x20) valid = false;  // control characters: legal JSON, useless in names
    if (valid) {
      out.append(text, i, static_cast<std::size_t>(length));
      i += static_cast<std::size_t>(length);
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

// A relative URI for the .bin: unreserved characters and '/' as they are, the rest escaped.
std::string EncodeUri(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

bool LooksLike(const std::string& bytes, const std::string& mime_type) {
  return mime_type == material::EmbeddableMimeType(bytes);
}

glm::vec3 ToYUp(const glm::vec3& p) { return glm::vec3(p.x, p.z, -p.y); }

// The bind-pose Doom 3 tangent (MD5 axes) as glTF wants it: Y-up, unit length and orthogonal to
// the written unit normal, w = -1 or +1 with the sign flipped (see GltfExportJob).
glm::vec4 GltfTangent(const glm::vec4& tangent, const glm::vec3& unit_normal) {
  const glm::dvec3 n(unit_normal);
  glm::dvec3 t(ToYUp(glm::vec3(tangent)));
  t -= n * glm::dot(n, t);
  double length = glm::length(t);
  if (!(length > 1e-6)) {  // no UV direction: any unit vector orthogonal to the normal
    t = std::abs(n.x) < 0.9 ? glm::cross(n, glm::dvec3(1, 0, 0))
                            : glm::cross(n, glm::dvec3(0, 1, 0));
    length = glm::length(t);
  }
  t /= length;
  return glm::vec4(static_cast<float>(t.x), static_cast<float>(t.y), static_cast<float>(t.z),
                   tangent.w < 0.0f ? 1.0f : -1.0f);
}

// glTF (x, y, z) -> MD5 (x, -z, y): the inverse of the root node's rotation, exact in floats.
glm::mat4 YUpToZUp() {
  glm::mat4 m(1.0f);
  m[1] = glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  m[2] = glm::vec4(0.0f, -1.0f, 0.0f, 0.0f);
  return m;
}

std::vector<double> Quaternion(const glm::quat& q) {
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  const double length = std::sqrt(x * x + y * y + z * z + w * w);
  if (!(length > 0.0)) return {0.0, 0.0, 0.0, 1.0};
  return {x / length, y / length, z / length, w / length};
}

std::string PartName(const anim::Model& model, int part) {
  const std::string& shader = model.mesh(part).shader;
  return shader.empty() ? "mesh_" + std::to_string(part) : ValidUtf8(shader);
}

// Appends to the one buffer and describes it; every view starts 4-byte aligned.
class BufferBuilder {
 public:
  explicit BufferBuilder(tinygltf::Model* model) : model_(model) { model_->buffers.emplace_back(); }

  int AddView(const void* bytes, std::size_t size, int target) {
    std::vector<unsigned char>& data = model_->buffers[0].data;
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = data.size();
    view.byteLength = size;
    view.target = target;
    const auto* begin = static_cast<const unsigned char*>(bytes);
    data.insert(data.end(), begin, begin + size);
    data.resize((data.size() + 3) & ~std::size_t{3}, 0);
    model_->bufferViews.push_back(view);
    return static_cast<int>(model_->bufferViews.size()) - 1;
  }

  template <typename T>
  int AddAccessor(const std::vector<T>& values, int component_type, int type, int components,
                  int target, bool with_bounds) {
    tinygltf::Accessor accessor;
    accessor.bufferView = AddView(values.data(), values.size() * sizeof(T), target);
    accessor.componentType = component_type;
    accessor.type = type;
    accessor.count = values.size() / static_cast<std::size_t>(components);
    if (with_bounds) {
      accessor.minValues.assign(components, std::numeric_limits<double>::infinity());
      accessor.maxValues.assign(components, -std::numeric_limits<double>::infinity());
      for (std::size_t i = 0; i < values.size(); ++i) {
        const std::size_t c = i % static_cast<std::size_t>(components);
        accessor.minValues[c] = std::min(accessor.minValues[c], static_cast<double>(values[i]));
        accessor.maxValues[c] = std::max(accessor.maxValues[c], static_cast<double>(values[i]));
      }
    }
    model_->accessors.push_back(std::move(accessor));
    return static_cast<int>(model_->accessors.size()) - 1;
  }

 private:
  tinygltf::Model* model_;
};

// Bytes the buffer will take, to refuse what GLB cannot hold before building it.
std::uint64_t EstimateBufferBytes(const GltfExportJob& job) {
  const anim::Model& model = *job.model;
  std::uint64_t bytes = static_cast<std::uint64_t>(model.skeleton().joint_count()) * 64;
  bytes +=
      static_cast<std::uint64_t>(model.gpu().vertices.size()) * (12 + 12 + 16 + 8 + 8 + 16 + 4);
  bytes += static_cast<std::uint64_t>(model.gpu().indices.size()) * 4;
  for (const ExportAnimation& a : job.animations) {
    if (a.animation == nullptr) continue;
    bytes += static_cast<std::uint64_t>(a.animation->frame_count()) *
             (4 + static_cast<std::uint64_t>(a.animation->joint_count()) * 28);
  }
  for (const ExportImage& image : job.images) {
    if (image.bytes != nullptr) bytes += image.bytes->size() + 4;
  }
  return bytes;
}

// The 4 kept influences of a GPU vertex with the same joint merged (glTF forbids a joint twice)
// and the factors summing to 1 in floats.
void MergeInfluences(const anim::GpuVertex& vertex, std::uint16_t joints[4], float weights[4]) {
  int count = 0;
  for (int i = 0; i < 4; ++i) {
    const float w = std::max(vertex.weights[i], 0.0f);
    if (w <= 0.0f) continue;
    int slot = 0;
    while (slot < count && joints[slot] != vertex.joints[i]) ++slot;
    if (slot == count) {
      joints[count] = vertex.joints[i];
      weights[count] = 0.0f;
      ++count;
    }
    weights[slot] += w;
  }
  if (count == 0) {
    joints[0] = vertex.joints[0];
    weights[0] = 1.0f;
    count = 1;
  }
  double sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  for (int i = 0; i < count; ++i) weights[i] = static_cast<float>(weights[i] / sum);
  // The largest takes the rounding remainder, so the float sum is 1 to the last bit or two.
  int largest = 0;
  for (int i = 1; i < count; ++i) {
    if (weights[i] > weights[largest]) largest = i;
  }
  float rest = 0.0f;
  for (int i = 0; i < count; ++i) {
    if (i != largest) rest += weights[i];
  }
  weights[largest] = 1.0f - rest;
  for (int i = count; i < 4; ++i) {
    joints[i] = 0;
    weights[i] = 0.0f;
  }
}

// How far the 4-weight reduction moves a vertex at most, over the bind pose and every exported
// frame: the figure the viewer's skinning check reports (MeasureGpuSkinningError).
Diagnostic TruncationWarning(const GltfExportJob& job) {
  const anim::Model& model = *job.model;
  const anim::GpuSkinData& gpu = model.gpu();
  anim::SkinningError worst =
      anim::MeasureGpuSkinningError(model, model.skeleton().bind_matrices());
  std::string where = "bind pose";
  for (const ExportAnimation& a : job.animations) {
    const anim::AnimationSkinningError error = anim::MeasureGpuSkinningError(model, *a.animation);
    if (error.frame >= 0 && error.worst.distance > worst.distance) {
      worst = error.worst;
      where = a.name + " frame " + std::to_string(error.frame);
    }
  }
  std::ostringstream text;
  text.precision(6);
  text << gpu.vertices_over_four
       << " vertices have more than 4 weights; glTF keeps the 4 largest, renormalized (at most "
       << gpu.worst_dropped_weight * 100.0f
       << "% of a vertex's weight dropped): that moves a vertex"
       << " by at most " << worst.distance << " units (mesh " << worst.mesh << ", vertex "
       << worst.vertex << ", " << where << ")";
  return MakeWarning(model.name(), 0, 0, text.str());
}

// What converting the mesh parts counts for the warnings.
struct PartsReport {
  int zero_normals = 0;  // vertices on no triangle with an area, written with +Y normals
  bool uses_specular = false;
  std::vector<std::string> skipped_parts;  // indices of parts without vertices or triangles
};

// A joint's keys of one animation, a frame each.
struct JointKeys {
  std::vector<float> translations;  // x y z
  std::vector<float> rotations;     // x y z w
};

// One mesh part's vertices as glTF attribute arrays (Y-up, unit normals, glTF tangents, at most
// four influences).
struct PartVertexArrays {
  std::vector<float> positions;  // x y z a vertex
  std::vector<float> normals;    // x y z
  std::vector<float> tangents;   // x y z w
  std::vector<float> uvs;        // u v
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;  // four a vertex, as joints
};

// The glTF document of one export, built in the order of its nodes: the Y-up root, the joints,
// the mesh parts, then the animations.
class GltfDocumentBuilder {
 public:
  explicit GltfDocumentBuilder(const GltfExportJob& job)
      : job_(job), buffer_(&gltf_), texture_of_image_(job.images.size, -1) {
    gltf_.asset.version = "2.0";
    gltf_.asset.generator = "md5stage";
  }

  Status Run() {
    const std::string root_name = AddSkeleton();
    tinygltf::Scene scene;
    scene.name = root_name;
    scene.nodes.push_back(0);
    AddMeshParts(&scene);
    gltf_.scenes.push_back(std::move(scene));
    if (report_.uses_specular) gltf_.extensionsUsed.push_back("KHR_materials_specular");
    gltf_.defaultScene = 0;
    for (const ExportAnimation& entry : job_.animations) AddAnimation(entry);
    AddWarnings();
    return WriteOutput();
  }

 private:
  // Nodes: 0 the Y-up root, 1..J the joints (MD5 order, so parents come first); the skin with
  // its inverse bind matrices. Returns the root's name.
  std::string AddSkeleton() {
    const anim::Skeleton& skeleton = job_.model->skeleton();
    const int joint_count = skeleton.joint_count();
    tinygltf::Node root;
    root.name = ValidUtf8(md5::FileStemOf(job_.model->name()));
    root.rotation.assign(std::begin(kZUpToYUpRotation), std::end(kZUpToYUpRotation));
    gltf_.nodes.push_back(root);
    for (int j = 0; j < joint_count; ++j) {
      tinygltf::Node node;
      node.name = ValidUtf8(skeleton.name(j));
      const anim::JointTransform& local = skeleton.bind_locals()[j];
      node.translation = {local.translation.x, local.translation.y, local.translation.z};
      node.rotation = Quaternion(local.rotation);
      gltf_.nodes.push_back(std::move(node));
    }
    for (int j = 0; j < joint_count; ++j) {
      const int parent = skeleton.parent(j);
      gltf_.nodes[static_cast<std::size_t>(parent < 0 ? 0 : parent + 1)].children.push_back(j + 1);
    }
    tinygltf::Skin skin;
    skin.name = root.name;
    skin.skeleton = 0;
    const glm::mat4 to_z_up = YUpToZUp();
    std::vector<float> inverse_binds;
    inverse_binds.reserve(static_cast<std::size_t>(joint_count) * 16);
    for (int j = 0; j < joint_count; ++j) {
      skin.joints.push_back(j + 1);
      const glm::mat4 m = anim::MultiplyAffine(skeleton.inverse_bind_matrices()[j], to_z_up);
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) inverse_binds.push_back(m[c][r]);
      }
    }
    skin.inverseBindMatrices = buffer_.AddAccessor(inverse_binds, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                   TINYGLTF_TYPE_MAT4, 16, 0, false);
    gltf_.skins.push_back(std::move(skin));
    return root.name;
  }

  // One node, mesh and material a part with vertices and triangles. Skinned mesh nodes stay at
  // the scene root, as the spec advises (their own transform is ignored).
  void AddMeshParts(tinygltf::Scene* scene) {
    const anim::GpuSkinData& gpu = job_.model->gpu();
    for (int m = 0; m < job_.model->mesh_count(); ++m) {
      const anim::GpuSubmesh& part = gpu.submeshes[static_cast<std::size_t>(m)];
      if (part.vertex_count == 0 || part.index_count == 0) {
        report_.skipped_parts.push_back(std::to_string(m));
        continue;
      }
      tinygltf::Primitive primitive;
      primitive.mode = TINYGLTF_MODE_TRIANGLES;
      AddVertexAttributes(ConvertVertices(part), &primitive);
      primitive.indices = AddIndices(part);
      primitive.material = AddPartMaterial(m);
      tinygltf::Mesh mesh;
      mesh.name = PartName(*job_.model, m);
      mesh.primitives.push_back(std::move(primitive));
      gltf_.meshes.push_back(std::move(mesh));
      tinygltf::Node node;
      node.name = PartName(*job_.model, m);
      node.mesh = static_cast<int>(gltf_.meshes.size()) - 1;
      node.skin = 0;
      gltf_.nodes.push_back(std::move(node));
      scene->nodes.push_back(static_cast<int>(gltf_.nodes.size()) - 1);
    }
  }

  PartVertexArrays ConvertVertices(const anim::GpuSubmesh& part) {
    const anim::GpuSkinData& gpu = job_.model->gpu();
    PartVertexArrays out;
    out.positions.reserve(part.vertex_count * 3);
    out.normals.reserve(part.vertex_count * 3);
    out.tangents.reserve(part.vertex_count * 4);
    out.uvs.reserve(part.vertex_count * 2);
    out.joints.reserve(part.vertex_count * 4);
    out.weights.reserve(part.vertex_count * 4);
    for (std::uint32_t v = 0; v < part.vertex_count; ++v) {
      const anim::GpuVertex& vertex = gpu.vertices[part.first_vertex + v];
      const glm::vec3 p = ToYUp(vertex.position);
      out.positions.insert(out.positions.end(), {p.x, p.y, p.z});
      glm::vec3 n = ToYUp(vertex.normal);
      const double length = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
      if (length < 0.5) {
        // A vertex on no (or only degenerate) triangles: glTF wants unit normals.
        n = glm::vec3(0.0f, 1.0f, 0.0f);
        ++report_.zero_normals;
      } else {
        n = glm::vec3(static_cast<float>(n.x / length), static_cast<float>(n.y / length),
                      static_cast<float>(n.z / length));
      }
      out.normals.insert(out.normals.end(), {n.x, n.y, n.z});
      const glm::vec4 t = GltfTangent(vertex.tangent, n);
      out.tangents.insert(out.tangents.end(), {t.x, t.y, t.z, t.w});
      // MD5 texture coordinates have their origin at the image's top left, v downwards: glTF's
      // own convention, so they are written as they are (see docs/design.md).
      out.uvs.insert(out.uvs.end(), {vertex.uv.x, vertex.uv.y});
      std::uint16_t j4[4];
      float w4[4];
      MergeInfluences(vertex, j4, w4);
      out.joints.insert(out.joints.end(), j4, j4 + 4);
      out.weights.insert(out.weights.end(), w4, w4 + 4);
    }
    return out;
  }

  void AddVertexAttributes(const PartVertexArrays& arrays, tinygltf::Primitive* primitive) {
    std::map<std::string, int>& attributes = primitive->attributes;
    attributes["POSITION"] =
        buffer_.AddAccessor(arrays.positions, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3,
                            TINYGLTF_TARGET_ARRAY_BUFFER, true);
    attributes["NORMAL"] =
        buffer_.AddAccessor(arrays.normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3,
                            TINYGLTF_TARGET_ARRAY_BUFFER, false);
    attributes["TANGENT"] =
        buffer_.AddAccessor(arrays.tangents, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, 4,
                            TINYGLTF_TARGET_ARRAY_BUFFER, false);
    attributes["TEXCOORD_0"] =
        buffer_.AddAccessor(arrays.uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2, 2,
                            TINYGLTF_TARGET_ARRAY_BUFFER, false);
    attributes["JOINTS_0"] =
        buffer_.AddAccessor(arrays.joints, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                            TINYGLTF_TYPE_VEC4, 4, TINYGLTF_TARGET_ARRAY_BUFFER, false);
    attributes["WEIGHTS_0"] =
        buffer_.AddAccessor(arrays.weights, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, 4,
                            TINYGLTF_TARGET_ARRAY_BUFFER, false);
  }

  // The part's triangles relative to its first vertex: 16-bit indices when they fit.
  int AddIndices(const anim::GpuSubmesh& part) {
    const anim::GpuSkinData& gpu = job_.model->gpu();
    if (part.vertex_count <= 65535) {
      std::vector<std::uint16_t> indices;
      indices.reserve(part.index_count);
      for (std::uint32_t i = 0; i < part.index_count; ++i) {
        indices.push_back(
            static_cast<std::uint16_t>(gpu.indices[part.first_index + i] - part.first_vertex));
      }
      return buffer_.AddAccessor(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                 TINYGLTF_TYPE_SCALAR, 1, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER,
                                 false);
    }
    std::vector<std::uint32_t> indices;
    indices.reserve(part.index_count);
    for (std::uint32_t i = 0; i < part.index_count; ++i) {
      indices.push_back(gpu.indices[part.first_index + i] - part.first_vertex);
    }
    return buffer_.AddAccessor(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                               1, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER, false);
  }

  // MD5 materials are not physically based: the diffuse map becomes the base colour of a
  // dielectric, fully rough surface; the specular map tints its F0 (KHR_materials_specular).
  // Returns the material's index.
  int AddPartMaterial(int m) {
    tinygltf::Material material;
    material.name = PartName(*job_.model, m);
    material.pbrMetallicRoughness.metallicFactor = 0.0;
    material.pbrMetallicRoughness.roughnessFactor = 1.0;
    const ExportPartMaps maps =
        job_.part_maps.empty() ? ExportPartMaps{} : job_.part_maps[static_cast<std::size_t>(m)];
    if (maps.diffuse >= 0) {
      material.pbrMetallicRoughness.baseColorTexture.index = TextureOf(maps.diffuse);
    }
    if (maps.normal >= 0) material.normalTexture.index = TextureOf(maps.normal);
    if (maps.specular >= 0) {
      tinygltf::Value::Object texture_info;
      texture_info["index"] = tinygltf::Value(TextureOf(maps.specular));
      tinygltf::Value::Object specular;
      specular["specularColorTexture"] = tinygltf::Value(std::move(texture_info));
      material.extensions["KHR_materials_specular"] = tinygltf::Value(std::move(specular));
      report_.uses_specular = true;
    }
    gltf_.materials.push_back(std::move(material));
    return static_cast<int>(gltf_.materials.size()) - 1;
  }

  // The texture of an image, made on its first use (with the one sampler and the image's bytes
  // in the buffer).
  int TextureOf(int image_index) {
    int& texture = texture_of_image_[static_cast<std::size_t>(image_index)];
    if (texture >= 0) return texture;
    const ExportImage& source = job_.images[static_cast<std::size_t>(image_index)];
    if (gltf_.samplers.empty()) {
      tinygltf::Sampler sampler;
      sampler.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
      sampler.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
      gltf_.samplers.push_back(sampler);
    }
    tinygltf::Image image;
    image.name = ValidUtf8(source.name);
    image.mimeType = source.mime_type;
    image.bufferView = buffer_.AddView(source.bytes->data(), source.bytes->size(), 0);
    gltf_.images.push_back(std::move(image));
    tinygltf::Texture gltf_texture;
    gltf_texture.sampler = 0;
    gltf_texture.source = static_cast<int>(gltf_.images.size()) - 1;
    gltf_.textures.push_back(gltf_texture);
    texture = static_cast<int>(gltf_.textures.size()) - 1;
    return texture;
  }

  // One key a frame (frame / rate, as floats) and a translation and a rotation channel a joint,
  // LINEAR.
  void AddAnimation(const ExportAnimation& entry) {
    const anim::Animation& source = *entry.animation;
    const int frames = source.frame_count();
    tinygltf::Animation animation;
    animation.name = ValidUtf8(entry.name);
    std::vector<float> times(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
      times[static_cast<std::size_t>(f)] =
          static_cast<float>(f / static_cast<double>(source.frame_rate()));
    }
    const int input =
        buffer_.AddAccessor(times, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, 1, 0, true);
    JointKeys keys;
    for (int j = 0; j < job_.model->skeleton().joint_count(); ++j) {
      CollectJointKeys(source, j, &keys);
      const int translation_output = buffer_.AddAccessor(
          keys.translations, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3, 0, false);
      const int rotation_output = buffer_.AddAccessor(keys.rotations, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                      TINYGLTF_TYPE_VEC4, 4, 0, false);
      AddChannel(input, translation_output, j + 1, "translation", &animation);
      AddChannel(input, rotation_output, j + 1, "rotation", &animation);
    }
    gltf_.animations.push_back(std::move(animation));
  }

  // A joint's local translation and rotation at every frame, consecutive rotations on one
  // hemisphere so LINEAR (slerp) takes the short way.
  static void CollectJointKeys(const anim::Animation& source, int joint, JointKeys* keys) {
    keys->translations.clear();
    keys->rotations.clear();
    std::vector<double> previous;
    for (int f = 0; f < source.frame_count(); ++f) {
      const anim::JointTransform& local = source.frame(f)[joint];
      keys->translations.insert(keys->translations.end(),
                                {local.translation.x, local.translation.y, local.translation.z});
      std::vector<double> q = Quaternion(local.rotation);
      if (!previous.empty() &&
          q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] + q[3] * previous[3] < 0.0) {
        for (double& c : q) c = -c;
      }
      for (double c : q) keys->rotations.push_back(static_cast<float>(c));
      previous = std::move(q);
    }
  }

  static void AddChannel(int input, int output, int node, const char* path,
                         tinygltf::Animation* animation) {
    tinygltf::AnimationSampler key_sampler;
    key_sampler.input = input;
    key_sampler.output = output;
    key_sampler.interpolation = "LINEAR";
    animation->samplers.push_back(key_sampler);
    tinygltf::AnimationChannel channel;
    channel.sampler = static_cast<int>(animation->samplers.size()) - 1;
    channel.target_node = node;
    channel.target_path = path;
    animation->channels.push_back(channel);
  }

  void AddWarnings() const {
    std::vector<Diagnostic>* warnings = job_.warnings;
    if (warnings == nullptr) return;
    if (job_.model->gpu().vertices_over_four > 0) warnings->push_back(TruncationWarning(job_));
    if (report_.zero_normals > 0) {
      warnings->push_back(MakeWarning(
          job_.model->name(), 0, 0,
          std::to_string(report_.zero_normals) +
              " vertices lie on no triangle with an area, so have no normal; glTF wants unit "
              "normals: written as +Y"));
    }
    if (!report_.skipped_parts.empty()) {
      std::string list;
      for (const std::string& s : report_.skipped_parts) list += (list.empty() ? "" : ", ") + s;
      warnings->push_back(MakeWarning(
          job_.model->name(), 0, 0, "mesh parts without vertices or triangles left out: " + list));
    }
  }

  // The document as a .glb, or as a .gltf whose buffer is the separate .bin.
  Status WriteOutput() {
    GltfFiles* output = job_.output;
    tinygltf::TinyGLTF writer;
    std::ostringstream stream;
    const bool binary = job_.container == GltfContainer::kGlb;
    if (!writer.WriteGltfSceneToStream(&gltf_, stream, /*prettyPrint=*/!binary, binary)) {
      return FieldError("output", "the glTF writer failed");
    }
    output->main = stream.str();
    output->bin.clear();
    if (!binary) {
      // The writer embeds the buffer as a data URI; the .bin takes its place.
      const std::string prefix = "data:application/octet-stream;base64,";
      const std::size_t start = output->main.find(prefix);
      const std::size_t end =
          start == std::string::npos ? std::string::npos : output->main.find('"', start);
      if (end == std::string::npos) return FieldError("output", "the glTF writer wrote no buffer");
      output->main.replace(start, end - start, EncodeUri(job_.bin_uri));
      const std::vector<unsigned char>& data = gltf_.buffers[0].data;
      output->bin.assign(data.begin(), data.end());
    }
    return Status();
  }

  const GltfExportJob& job_;
  tinygltf::Model gltf_;
  BufferBuilder buffer_;
  std::vector<int> texture_of_image_;  // per ExportImage, its texture (-1 until first used)
  PartsReport report_;
};

}  // namespace

Status GltfExportJob::Validate() const {
  if (output == nullptr) return FieldError("output", "expected somewhere to write, found none");
  if (model == nullptr) return FieldError("model", "expected a model, found none");
  const anim::Skeleton& skeleton = model->skeleton();
  const std::string mesh_name = model->name();
  if (skeleton.joint_count() < 1) {
    return FieldError("model (" + mesh_name + ")", "expected at least one joint, found none");
  }
  if (skeleton.joint_count() > 65535) {
    return FieldError("model (" + mesh_name + ")",
                      "expected at most 65535 joints (JOINTS_0 is 16-bit), found " +
                          std::to_string(skeleton.joint_count()));
  }
  bool any_triangles = false;
  for (int m = 0; m < model->mesh_count(); ++m) {
    if (!model->mesh(m).triangles.empty() && !model->mesh(m).vertices.empty()) any_triangles = true;
  }
  if (!any_triangles) {
    return FieldError("model (" + mesh_name + ")", "expected a mesh part with triangles, found " +
                                                       std::to_string(model->mesh_count()) +
                                                       " mesh parts and no triangles");
  }
  md5::JointListView mesh_view{mesh_name, &skeleton.names(), &skeleton.parents(), nullptr, 0};
  for (std::size_t i = 0; i < animations.size; ++i) {
    const ExportAnimation& entry = animations[i];
    const std::string field = "animations[" + std::to_string(i) + "]";
    if (entry.animation == nullptr) return FieldError(field, "expected an animation, found none");
    const anim::Animation& animation = *entry.animation;
    const std::string named = field + " (" + animation.name() + ")";
    if (entry.name.empty()) return FieldError(field + ".name", "expected a name, found \"\"");
    if (animation.frame_count() < 1) {
      return FieldError(named, "expected at least one frame, found none");
    }
    if (!(animation.frame_rate() > 0.0f) || !std::isfinite(animation.frame_rate())) {
      return FieldError(
          named, "expected a frame rate above 0, found " + std::to_string(animation.frame_rate()));
    }
    md5::JointListView anim_view{animation.name(), &animation.joint_names(), &animation.parents(),
                                 nullptr, 0};
    std::vector<Diagnostic> ignored;
    const Status fits = md5::CheckAnimFitsMesh(mesh_view, anim_view, &ignored);
    if (!fits.ok()) return FieldError(field, fits.error().ToString());
    // Key times are frame / rate in floats; they must stay strictly increasing.
    if (animation.frame_count() > 1) {
      const int last = animation.frame_count() - 1;
      const float t0 = static_cast<float>((last - 1) / static_cast<double>(animation.frame_rate()));
      const float t1 = static_cast<float>(last / static_cast<double>(animation.frame_rate()));
      if (!(t1 > t0)) {
        return FieldError(named, "expected key times that floats can tell apart, found " +
                                     std::to_string(animation.frame_count()) + " frames at " +
                                     std::to_string(animation.frame_rate()) + " fps");
      }
    }
  }
  for (std::size_t i = 0; i < images.size; ++i) {
    const ExportImage& image = images[i];
    const std::string field = "images[" + std::to_string(i) + "] (" + image.name + ")";
    if (image.mime_type != "image/png" && image.mime_type != "image/jpeg") {
      return FieldError(field + ".mime_type",
                        "expected image/png or image/jpeg, found \"" + image.mime_type + "\"");
    }
    if (image.bytes == nullptr || image.bytes->empty()) {
      return FieldError(field + ".bytes", "expected the image file's bytes, found none");
    }
    if (!LooksLike(*image.bytes, image.mime_type)) {
      return FieldError(field + ".bytes",
                        "expected a " + image.mime_type.substr(6) + " file, found other bytes");
    }
  }
  if (!part_maps.empty() && part_maps.size != static_cast<std::size_t>(model->mesh_count())) {
    return FieldError("part_maps", "expected one entry per mesh part (" +
                                       std::to_string(model->mesh_count()) + "), found " +
                                       std::to_string(part_maps.size));
  }
  for (std::size_t i = 0; i < part_maps.size; ++i) {
    const std::pair<const char*, int> maps[] = {{"diffuse", part_maps[i].diffuse},
                                                {"normal", part_maps[i].normal},
                                                {"specular", part_maps[i].specular}};
    for (const auto& [name, index] : maps) {
      if (index < -1 || index >= static_cast<int>(images.size)) {
        return FieldError("part_maps[" + std::to_string(i) + "]." + name,
                          "expected -1 or an index below " + std::to_string(images.size) +
                              ", found " + std::to_string(index));
      }
    }
  }
  if (container == GltfContainer::kGltfSeparateBin && bin_uri.empty()) {
    return FieldError("bin_uri", "expected the .bin's name for a .gltf, found \"\"");
  }
  const std::uint64_t bytes = EstimateBufferBytes(*this);
  if (bytes > kMaxBufferBytes) {
    return FieldError("model (" + mesh_name + ")",
                      "expected a glTF buffer below 4 GiB, found about " + std::to_string(bytes) +
                          " bytes of mesh, animation and image data");
  }
  return Status();
}

Status GltfExportJob::Run() const {
  const Status valid = Validate();
  if (!valid.ok()) return valid;
  GltfDocumentBuilder builder(*this);
  return builder.Run();
}

}  // namespace md5stage::convert
