// GltfImportJob: validity table, bad assets naming the field (built here as small glTF models and
// written with tinygltf), the Y-up -> Z-up mapping, joint order, scale baking, influences,
// interpolation modes and frame rates, what is left out; the MD5 writer read back; and the round
// trip of every ../shared/md5 model through GltfExportJob and back.
#include "core/convert/gltf_import.h"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "../../skinned_positions.h"
#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/anim/pose.h"
#include "core/convert/gltf_export.h"
#include "core/material/image_decode.h"
#include "core/material/material_parser.h"
#include "core/material/png_encode.h"
#include "core/md5/file_reader.h"
#include "core/md5/file_stem.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"
#include "core/md5/md5_writer.h"

namespace md5stage::convert {
namespace {

// ---- building small assets -------------------------------------------------------------------

// Appends typed data to buffer 0 and returns the accessor.
template <typename T>
int AddAccessor(tinygltf::Model* gltf, const std::vector<T>& values, int component_type, int type,
                bool normalized = false) {
  if (gltf->buffers.empty()) gltf->buffers.emplace_back();
  std::vector<unsigned char>& data = gltf->buffers[0].data;
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = values.size() * sizeof(T);
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  data.insert(data.end(), bytes, bytes + values.size() * sizeof(T));
  data.resize((data.size() + 3) & ~size_t{3}, 0);
  gltf->bufferViews.push_back(view);
  tinygltf::Accessor accessor;
  accessor.bufferView = static_cast<int>(gltf->bufferViews.size()) - 1;
  accessor.componentType = component_type;
  accessor.type = type;
  accessor.normalized = normalized;
  accessor.count =
      values.size() /
      static_cast<size_t>(tinygltf::GetNumComponentsInType(static_cast<uint32_t>(type)));
  if (type == TINYGLTF_TYPE_SCALAR && component_type == TINYGLTF_COMPONENT_TYPE_FLOAT &&
      !values.empty()) {
    accessor.minValues = {static_cast<double>(*std::min_element(values.begin(), values.end()))};
    accessor.maxValues = {static_cast<double>(*std::max_element(values.begin(), values.end()))};
  }
  gltf->accessors.push_back(accessor);
  return static_cast<int>(gltf->accessors.size()) - 1;
}

constexpr int kFloat = TINYGLTF_COMPONENT_TYPE_FLOAT;
constexpr int kUShort = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;

// Accessor indices of the base asset, for the spoilers.
constexpr int kPositions = 0;
constexpr int kJoints = 2;
constexpr int kIndices = 4;
constexpr int kInverseBinds = 5;
constexpr int kTimes = 6;

// Two joints, "root" at glTF (0, 1, 0) and its child "tip" one unit above; one triangle: vertex 0
// on root, vertex 1 on tip, vertex 2 half each; "wave" turns tip about glTF Z by 0, 45 and 90
// degrees at 24 fps.
tinygltf::Model BaseAsset() {
  tinygltf::Model gltf;
  gltf.asset.version = "2.0";
  tinygltf::Node root, tip, body;
  root.name = "root";
  root.translation = {0, 1, 0};
  root.children = {1};
  tip.name = "tip";
  tip.translation = {0, 1, 0};
  body.name = "body";
  body.mesh = 0;
  body.skin = 0;
  gltf.nodes = {root, tip, body};
  tinygltf::Scene scene;
  scene.nodes = {0, 2};
  gltf.scenes.push_back(scene);
  gltf.defaultScene = 0;

  tinygltf::Primitive primitive;
  primitive.mode = TINYGLTF_MODE_TRIANGLES;
  primitive.attributes["POSITION"] =
      AddAccessor<float>(&gltf, {0, 0, 0, 1, 0, 0, 0, 2, 0}, kFloat, TINYGLTF_TYPE_VEC3);
  primitive.attributes["TEXCOORD_0"] =
      AddAccessor<float>(&gltf, {0, 0, 1, 0, 0, 1}, kFloat, TINYGLTF_TYPE_VEC2);
  primitive.attributes["JOINTS_0"] = AddAccessor<std::uint16_t>(
      &gltf, {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}, kUShort, TINYGLTF_TYPE_VEC4);
  primitive.attributes["WEIGHTS_0"] = AddAccessor<float>(
      &gltf, {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0}, kFloat, TINYGLTF_TYPE_VEC4);
  primitive.indices = AddAccessor<std::uint16_t>(&gltf, {0, 1, 2}, kUShort, TINYGLTF_TYPE_SCALAR);
  primitive.material = 0;
  tinygltf::Material material;
  material.name = "models/skin";
  gltf.materials.push_back(material);
  tinygltf::Mesh mesh;
  mesh.primitives.push_back(primitive);
  gltf.meshes.push_back(mesh);

  tinygltf::Skin skin;
  skin.joints = {0, 1};
  skin.inverseBindMatrices =
      AddAccessor<float>(&gltf, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,  //
                                 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1},
                         kFloat, TINYGLTF_TYPE_MAT4);
  gltf.skins.push_back(skin);

  const float s = static_cast<float>(std::sin(M_PI / 8)),
              c = static_cast<float>(std::cos(M_PI / 8));
  const float h = static_cast<float>(std::sqrt(0.5));
  tinygltf::Animation animation;
  animation.name = "wave";
  tinygltf::AnimationSampler sampler;
  sampler.input =
      AddAccessor<float>(&gltf, {0.0f, 1.0f / 24, 2.0f / 24}, kFloat, TINYGLTF_TYPE_SCALAR);
  sampler.output =
      AddAccessor<float>(&gltf, {0, 0, 0, 1, 0, 0, s, c, 0, 0, h, h}, kFloat, TINYGLTF_TYPE_VEC4);
  sampler.interpolation = "LINEAR";
  animation.samplers.push_back(sampler);
  tinygltf::AnimationChannel channel;
  channel.sampler = 0;
  channel.target_node = 1;
  channel.target_path = "rotation";
  animation.channels.push_back(channel);
  gltf.animations.push_back(animation);
  return gltf;
}

std::string ToGlb(tinygltf::Model gltf) {
  tinygltf::TinyGLTF writer;
  std::ostringstream stream;
  EXPECT_TRUE(writer.WriteGltfSceneToStream(&gltf, stream, false, true));
  return stream.str();
}

std::string ToGltfText(tinygltf::Model gltf) {
  tinygltf::TinyGLTF writer;
  std::ostringstream stream;
  EXPECT_TRUE(writer.WriteGltfSceneToStream(&gltf, stream, true, false));
  return stream.str();
}

struct Imported {
  Status status;
  GltfImportOutput output;
  std::vector<Diagnostic> warnings;
};

Imported Import(const std::string& bytes, GltfImportOptions options = GltfImportOptions(),
                GltfFileLookup files = nullptr) {
  Imported result;
  GltfImportJob job;
  job.file_name = "asset.glb";
  job.bytes = bytes;
  job.files = std::move(files);
  job.options = options;
  job.output = &result.output;
  job.warnings = &result.warnings;
  result.status = job.Run();
  return result;
}

bool AnyWarning(const std::vector<Diagnostic>& warnings, const std::string& part) {
  for (const Diagnostic& d : warnings) {
    if (d.message.find(part) != std::string::npos) return true;
  }
  return false;
}

std::string AllWarnings(const std::vector<Diagnostic>& warnings) {
  std::string text;
  for (const Diagnostic& d : warnings) text += d.ToString() + "\n";
  return text;
}

// The converted files written as text and parsed back, as a viewer would load them.
struct Loaded {
  std::shared_ptr<const anim::Model> model;
  std::vector<anim::Animation> animations;
};

Loaded LoadWritten(const GltfImportOutput& output) {
  Loaded loaded;
  Result<md5::MeshFile> mesh =
      md5::ParseMd5Mesh(output.mesh.file_name, md5::WriteMd5Mesh(output.mesh));
  EXPECT_TRUE(mesh.ok()) << mesh.error().ToString();
  if (!mesh.ok()) return loaded;
  loaded.model = anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh.value()));
  for (const ImportedAnimation& a : output.animations) {
    Result<md5::AnimFile> anim = md5::ParseMd5Anim(a.file.file_name, md5::WriteMd5Anim(a.file));
    EXPECT_TRUE(anim.ok()) << anim.error().ToString();
    if (!anim.ok()) continue;
    std::vector<Diagnostic> ignored;
    EXPECT_TRUE(md5::CheckAnimFitsMesh(mesh.value(), anim.value(), &ignored).ok());
    loaded.animations.push_back(
        anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(anim.value())));
  }
  return loaded;
}

// CPU-skinned positions (weights normalized) of every vertex of every mesh part, in part order:
// the bind pose when `animation` is null.
std::vector<glm::vec3> Skinned(const anim::Model& model, const anim::Animation* animation,
                               int frame) {
  return test::CpuSkinnedPositions(model, animation, frame);
}

::testing::AssertionResult Near(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-5f) {
  if (glm::length(a - b) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                       << b.x << ", " << b.y << ", " << b.z << ")";
}

// ---- validity table --------------------------------------------------------------------------

TEST(GltfImportJob, RefusesBadJobFieldsNamingTheField) {
  const std::string glb = ToGlb(BaseAsset());
  GltfImportOutput output;
  struct Row {
    const char* expected;
    std::function<void(GltfImportJob&)> spoil;
  };
  const std::vector<Row> rows = {
      {"output: expected somewhere to write", [](GltfImportJob& j) { j.output = nullptr; }},
      {"bytes: expected the .glb or .gltf file's bytes", [](GltfImportJob& j) { j.bytes = {}; }},
      {"options.fps: expected 0", [](GltfImportJob& j) { j.options.fps = -1.0f; }},
      {"options.fps: expected 0", [](GltfImportJob& j) { j.options.fps = 1e6f; }},
      {"options.fps: expected 0", [](GltfImportJob& j) { j.options.fps = std::nanf(""); }},
      {"bytes: expected at most 10 bytes",
       [](GltfImportJob& j) { j.options.limits.max_file_bytes = 10; }},
  };
  for (const Row& row : rows) {
    GltfImportJob job;
    job.file_name = "a.glb";
    job.bytes = glb;
    job.output = &output;
    row.spoil(job);
    const Status valid = job.Validate();
    ASSERT_FALSE(valid.ok()) << row.expected;
    EXPECT_NE(valid.error().message.find(row.expected), std::string::npos) << valid.error().message;
    const Status run = job.Run();
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().message, valid.error().message);
    EXPECT_EQ(run.error().file, "a.glb") << "fuzz_gltf finding 1: the error named no file";
  }
  GltfImportJob good;
  good.bytes = glb;
  good.output = &output;
  EXPECT_TRUE(good.Validate().ok());
}

TEST(GltfImportJob, RefusesBadAssetsNamingTheField) {
  struct Row {
    const char* what;
    const char* expected;
    std::function<void(tinygltf::Model&)> spoil;
    std::function<void(GltfImportOptions&)> limit;
  };
  const auto none = [](GltfImportOptions&) {};
  const auto keep = [](tinygltf::Model&) {};
  const std::vector<Row> rows = {
      {"accessor past its view", "accessors[0].count: 4 elements of 12 bytes",
       [](tinygltf::Model& g) { g.accessors[kPositions].count = 4; }, none},
      {"accessor offset past its view", "accessors[4].count",
       [](tinygltf::Model& g) { g.accessors[kIndices].byteOffset = 4; }, none},
      {"view past its buffer", "bufferViews[0].byteLength",
       [](tinygltf::Model& g) { g.bufferViews[0].byteLength = 1 << 20; }, none},
      {"view index out of range", "accessors[2].bufferView: expected a buffer view index below",
       [](tinygltf::Model& g) { g.accessors[kJoints].bufferView = 99; }, none},
      {"accessor index out of range",
       "meshes[0].primitives[0].attributes.POSITION: expected an accessor index below",
       [](tinygltf::Model& g) { g.meshes[0].primitives[0].attributes["POSITION"] = 42; }, none},
      {"positions of the wrong type", "accessors[2].type: expected VEC3",
       [](tinygltf::Model& g) { g.meshes[0].primitives[0].attributes["POSITION"] = kJoints; },
       none},
      {"a stride below the element", "bufferViews[0].byteStride",
       [](tinygltf::Model& g) { g.bufferViews[0].byteStride = 4; }, none},
      {"cycle", "nodes[1].children: cycle", [](tinygltf::Model& g) { g.nodes[1].children = {0}; },
       none},
      {"own child", "nodes[2].children: cycle",
       [](tinygltf::Model& g) { g.nodes[2].children = {2}; }, none},
      {"two parents", "nodes[2].children: nodes[1] is already a child of nodes[0]",
       [](tinygltf::Model& g) { g.nodes[2].children = {1}; }, none},
      {"child out of range", "nodes[0].children[0]: expected a node index below 3, found 7",
       [](tinygltf::Model& g) { g.nodes[0].children = {7}; }, none},
      {"no skin", "skins: expected a skin", [](tinygltf::Model& g) { g.skins.clear(); }, none},
      {"joint twice", "skins[0].joints[1]: nodes[0] is already joint 0",
       [](tinygltf::Model& g) {
         g.skins[0].joints = {0, 0};
       },
       none},
      {"joint index out of range", "accessors[2]: expected joint indices below the 2 joints",
       [](tinygltf::Model& g) {
         g.meshes[0].primitives[0].attributes["JOINTS_0"] = AddAccessor<std::uint16_t>(
             &g, {0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0}, kUShort, TINYGLTF_TYPE_VEC4);
         std::swap(g.accessors[kJoints], g.accessors.back());
         g.meshes[0].primitives[0].attributes["JOINTS_0"] = kJoints;
       },
       none},
      {"vertex index out of range", "accessors[4]: expected vertex indices below 3, found 9",
       [](tinygltf::Model& g) {
         const int a = AddAccessor<std::uint16_t>(&g, {0, 1, 9}, kUShort, TINYGLTF_TYPE_SCALAR);
         std::swap(g.accessors[kIndices], g.accessors[static_cast<size_t>(a)]);
       },
       none},
      {"singular inverse bind", "skins[0].inverseBindMatrices: expected invertible matrices",
       [](tinygltf::Model& g) {
         std::vector<float> zeros(32, 0.0f);
         const int a = AddAccessor<float>(&g, zeros, kFloat, TINYGLTF_TYPE_MAT4);
         std::swap(g.accessors[kInverseBinds], g.accessors[static_cast<size_t>(a)]);
       },
       none},
      {"too few inverse binds", "accessors[5].count: expected a matrix for each of the 2 joints",
       [](tinygltf::Model& g) { g.accessors[kInverseBinds].count = 1; }, none},
      {"no skinning attributes",
       "meshes[0].primitives[0].attributes.WEIGHTS_0: expected skinning attributes",
       [](tinygltf::Model& g) { g.meshes[0].primitives[0].attributes.erase("WEIGHTS_0"); }, none},
      {"key times going back", "accessors[6]: expected strictly increasing key times",
       [](tinygltf::Model& g) {
         const int a = AddAccessor<float>(&g, {0.0f, 0.5f, 0.25f}, kFloat, TINYGLTF_TYPE_SCALAR);
         std::swap(g.accessors[kTimes], g.accessors[static_cast<size_t>(a)]);
       },
       none},
      {"too few key values", "accessors[7].count: expected 9 values for the 3 keys",
       [](tinygltf::Model& g) { g.animations[0].samplers[0].interpolation = "CUBICSPLINE"; }, none},
      {"sampler out of range", "animations[0].channels[0].sampler: expected a sampler index",
       [](tinygltf::Model& g) { g.animations[0].channels[0].sampler = 3; }, none},
      {"target out of range", "animations[0].channels[0].target.node: expected a node index",
       [](tinygltf::Model& g) { g.animations[0].channels[0].target_node = 30; }, none},
      {"joints over the md5 limit", "skins[0].joints: expected at most 1 joints (md5 limit)", keep,
       [](GltfImportOptions& o) { o.limits.max_joints = 1; }},
      {"vertices over the md5 limit", "accessors[0].count: expected at most 2 vertices", keep,
       [](GltfImportOptions& o) { o.limits.max_vertices_per_mesh = 2; }},
      {"frames over the md5 limit", "animations[0]: ", keep,
       [](GltfImportOptions& o) { o.limits.max_frames = 2; }},
      {"joint frames over the md5 limit", "joint frames, expected at most 5 (md5 limit)", keep,
       [](GltfImportOptions& o) { o.limits.max_joint_frames = 5; }},
      {"triangles over the md5 limit", "expected at most 0 triangles", keep,
       [](GltfImportOptions& o) { o.limits.max_triangles_per_mesh = 0; }},
  };
  for (const Row& row : rows) {
    tinygltf::Model gltf = BaseAsset();
    row.spoil(gltf);
    GltfImportOptions options;
    row.limit(options);
    const Imported result = Import(ToGlb(gltf), options);
    ASSERT_FALSE(result.status.ok()) << row.what;
    const std::string message = result.status.error().ToString();
    EXPECT_NE(message.find(row.expected), std::string::npos) << row.what << "\n" << message;
    EXPECT_EQ(message.rfind("asset.glb: error: ", 0), 0u) << message;
  }
}

TEST(GltfImportJob, RefusesWhatIsNotGltf) {
  const std::string glb = ToGlb(BaseAsset());
  const std::string text = ToGltfText(BaseAsset());
  const struct {
    std::string bytes;
    const char* expected;
  } rows[] = {
      {"MD5Version 10\n", "expected a glTF file (GLB magic \"glTF\" or JSON text)"},
      {std::string("\x89PNG\r\n\x1a\n", 8), "expected a glTF file"},
      {glb.substr(0, 20), "not a readable glTF 2.0 file"},
      {text.substr(0, text.size() / 2), "not a readable glTF 2.0 file"},
      {"{\"asset\": {\"version\": \"2.0\"}}", "skins: expected a skin"},
  };
  for (const auto& row : rows) {
    const Imported result = Import(row.bytes);
    ASSERT_FALSE(result.status.ok()) << row.expected;
    EXPECT_NE(result.status.error().message.find(row.expected), std::string::npos)
        << result.status.error().message;
  }
}

// A .glb of one JSON chunk (no BIN), padded to 4 bytes as the format asks.
std::string GlbOfJson(std::string json) {
  while (json.size() % 4 != 0) json += ' ';
  std::string glb = "glTF";
  const auto put = [&glb](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) glb += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put(2);
  put(static_cast<std::uint32_t>(20 + json.size()));
  put(static_cast<std::uint32_t>(json.size()));
  glb += "JSON";
  return glb + json;
}

// JSON nested `depth` arrays deep under "extras" (the document itself is one more level).
std::string NestedExtras(int depth) {
  return R"({"asset":{"version":"2.0"},"extras":)" + std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']') + "}";
}

// Limits checked before tinygltf reads a byte: its JSON reader recurses once per level (200,000
// nested arrays overflowed the stack of `md5stage convert`), and glTF 1.0 would be read as 2.0.
TEST(GltfImportJob, RefusesWhatPassesALimitBeforeParsing) {
  tinygltf::Model version1 = BaseAsset();
  version1.asset.version = "1.0";
  const std::string prefix = R"({"asset":{"version":"2.0"},"extras":)";
  const std::string too_deep =
      "expected JSON nested at most 64 arrays and objects deep (the limit), found deeper";
  const struct {
    const char* name;
    std::string bytes;
    std::string message;  // the whole message
    int line;
    int column;
  } rows[] = {
      {"gltf nested 200000 deep", NestedExtras(200000), too_deep, 1,
       static_cast<int>(prefix.size()) + 64},
      {"gltf nested 64 deep after a line", "\n" + NestedExtras(64), too_deep, 2,
       static_cast<int>(prefix.size()) + 64},
      {"glb nested 200000 deep", GlbOfJson(NestedExtras(200000)),
       "JSON chunk at byte " + std::to_string(prefix.size() + 63) + ": " + too_deep, 0, 0},
      {"glb of glTF 1.0", ToGlb(version1),
       R"(asset.version: expected "2.0" (a glTF 2 file), found "1.0")", 0, 0},
      {"gltf of glTF 1.0", ToGltfText(version1),
       R"(asset.version: expected "2.0" (a glTF 2 file), found "1.0")", 0, 0},
      {"gltf of glTF 3", R"({"asset":{"version":"3.0"}})",
       R"(asset.version: expected "2.0" (a glTF 2 file), found "3.0")", 0, 0},
  };
  for (const auto& row : rows) {
    const Imported result = Import(row.bytes);
    ASSERT_FALSE(result.status.ok()) << row.name;
    EXPECT_EQ(result.status.error().file, "asset.glb") << row.name;
    EXPECT_EQ(result.status.error().message, row.message) << row.name;
    EXPECT_EQ(result.status.error().line, row.line) << row.name;
    EXPECT_EQ(result.status.error().column, row.column) << row.name;
  }
  // At the limit, and with brackets inside strings, the file is read (and found to have no skin).
  const std::string in_strings = prefix + "\"" + std::string(1000, '[') + "\"}";
  for (const std::string& bytes : {NestedExtras(63), in_strings, GlbOfJson(NestedExtras(63))}) {
    const Imported result = Import(bytes);
    ASSERT_FALSE(result.status.ok());
    EXPECT_NE(result.status.error().message.find("skins: expected a skin"), std::string::npos)
        << result.status.error().message;
  }
}

// ---- conversion --------------------------------------------------------------------------------

TEST(GltfImportJob, MapsYUpToZUpAndSkinsLikeTheGltf) {
  const Imported result = Import(ToGlb(BaseAsset()));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  const md5::MeshFile& mesh = result.output.mesh;
  EXPECT_EQ(mesh.file_name, "asset.md5mesh");
  ASSERT_EQ(mesh.joints.size(), 2u);
  EXPECT_EQ(mesh.joints[0].name, "root");
  EXPECT_EQ(mesh.joints[1].name, "tip");
  EXPECT_EQ(mesh.joints[1].parent, 0);
  // glTF (0, 2, 0) -> MD5 (0, 0, 2).
  EXPECT_TRUE(Near(mesh.joints[1].position, glm::vec3(0, 0, 2)));
  ASSERT_EQ(mesh.meshes.size(), 1u);
  EXPECT_EQ(mesh.meshes[0].shader, "models/skin");
  // glTF's counter-clockwise (0, 1, 2) is MD5's clockwise (0, 2, 1).
  EXPECT_EQ(mesh.meshes[0].triangles[0].vertices, (std::array<std::uint32_t, 3>{0, 2, 1}));
  EXPECT_EQ(mesh.meshes[0].vertices[1].uv, glm::vec2(1, 0));

  const Loaded loaded = LoadWritten(result.output);
  ASSERT_TRUE(loaded.model);
  const std::vector<glm::vec3> bind = Skinned(*loaded.model, nullptr, 0);
  EXPECT_TRUE(Near(bind[0], glm::vec3(0, 0, 0)));
  EXPECT_TRUE(Near(bind[1], glm::vec3(1, 0, 0)));
  EXPECT_TRUE(Near(bind[2], glm::vec3(0, 0, 2)));  // glTF (0, 2, 0)

  ASSERT_EQ(loaded.animations.size(), 1u);
  const anim::Animation& wave = loaded.animations[0];
  EXPECT_EQ(result.output.animations[0].name, "wave");
  EXPECT_EQ(wave.frame_count(), 3);
  EXPECT_EQ(wave.frame_rate(), 24.0f);  // the keys' own spacing
  // Frame 2: tip turned 90 degrees about glTF Z: vertex 1, (1, -2, 0) from tip, goes to glTF
  // (2, 3, 0) = MD5 (2, 0, 3); vertex 2, (0, 0) from tip, stays at glTF (0, 2, 0) for its tip
  // half and its root half, so at MD5 (0, 0, 2).
  const std::vector<glm::vec3> turned = Skinned(*loaded.model, &wave, 2);
  EXPECT_TRUE(Near(turned[0], glm::vec3(0, 0, 0)));
  EXPECT_TRUE(Near(turned[1], glm::vec3(2, 0, 3)));
  EXPECT_TRUE(Near(turned[2], glm::vec3(0, 0, 2)));
  // Frame 1: 45 degrees.
  const float h = std::sqrt(0.5f);
  const glm::vec3 expected1(h + 2 * h, 0, 2 - 2 * h + h);  // R45 (1, -2) = (h + 2h, h - 2h)
  EXPECT_TRUE(Near(Skinned(*loaded.model, &wave, 1)[1], expected1));
  // Bounds per frame.
  const md5::AnimFile& file = result.output.animations[0].file;
  EXPECT_TRUE(Near(file.bounds[2].min, glm::vec3(0, 0, 0)));
  EXPECT_TRUE(Near(file.bounds[2].max, glm::vec3(2, 0, 3)));
  // Only tip's rotation changes, about its parent's Z: root's MD5 frame is glTF's turned to
  // Z-up, so the local axis stays glTF's. One component.
  EXPECT_EQ(file.hierarchy[0].flags, 0);
  EXPECT_EQ(file.hierarchy[1].flags, md5::kAnimQz);
  EXPECT_EQ(file.animated_component_count, 1);
}

TEST(GltfImportJob, OrdersJointsParentsFirstAndFoldsInNonJointNodesAndScale) {
  tinygltf::Model gltf = BaseAsset();
  // A non-joint "armature" node above root, scaled 2x and turned 90 degrees about glTF Y; the
  // skin lists tip before root.
  tinygltf::Node armature;
  armature.name = "armature";
  armature.scale = {2, 2, 2};
  armature.rotation = {0, std::sqrt(0.5), 0, std::sqrt(0.5)};
  armature.children = {0};
  gltf.nodes.push_back(armature);
  gltf.scenes[0].nodes = {3, 2};
  gltf.skins[0].joints = {1, 0};
  // Inverse binds that match: world(root) = A x T(0,1,0), world(tip) = A x T(0,2,0).
  const glm::dmat4 a = glm::translate(glm::dmat4(1.0), glm::dvec3(0.0)) *
                       glm::mat4_cast(glm::dquat(std::sqrt(0.5), 0, std::sqrt(0.5), 0)) *
                       glm::scale(glm::dmat4(1.0), glm::dvec3(2.0));
  std::vector<float> binds;
  for (double y : {2.0, 1.0}) {
    const glm::dmat4 inverse =
        glm::inverse(a * glm::translate(glm::dmat4(1.0), glm::dvec3(0, y, 0)));
    for (int e = 0; e < 16; ++e) binds.push_back(static_cast<float>(inverse[e / 4][e % 4]));
  }
  const int ibm = AddAccessor<float>(&gltf, binds, kFloat, TINYGLTF_TYPE_MAT4);
  gltf.skins[0].inverseBindMatrices = ibm;
  // JOINTS_0 refers to skin indices: swap 0 and 1 to keep the same joints per vertex.
  const int joints = AddAccessor<std::uint16_t>(&gltf, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},
                                                kUShort, TINYGLTF_TYPE_VEC4);
  gltf.meshes[0].primitives[0].attributes["JOINTS_0"] = joints;

  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  const md5::MeshFile& mesh = result.output.mesh;
  ASSERT_EQ(mesh.joints.size(), 2u);
  EXPECT_EQ(mesh.joints[0].name, "root");
  EXPECT_EQ(mesh.joints[1].name, "tip");
  EXPECT_EQ(mesh.joints[1].parent, 0);
  EXPECT_TRUE(AnyWarning(result.warnings, "reordered parents first"))
      << AllWarnings(result.warnings);
  EXPECT_TRUE(AnyWarning(result.warnings, "baked into their weight positions"))
      << AllWarnings(result.warnings);
  EXPECT_FALSE(AnyWarning(result.warnings, "scale or shear changes"));

  // glTF skinned vertex 1 at frame 2: world(tip) x IBM(tip) x (1, 0, 0); by hand, tip-local
  // (1, -2, 0) turned 90 about Z is (2, -1... ) in tip's frame then through A and up to tip:
  // world(tip, frame 2) = A x T(0,1,0) x T(0,1,0) x Rz90; IBM(tip) = inverse(A x T(0,2,0)).
  const glm::dquat rz(std::sqrt(0.5), 0, 0, std::sqrt(0.5));
  const glm::dmat4 world_tip =
      a * glm::translate(glm::dmat4(1.0), glm::dvec3(0, 2, 0)) * glm::mat4_cast(rz);
  const glm::dvec4 gl = world_tip *
                        glm::inverse(a * glm::translate(glm::dmat4(1.0), glm::dvec3(0, 2, 0))) *
                        glm::dvec4(1, 0, 0, 1);
  const glm::vec3 expected(static_cast<float>(gl.x), static_cast<float>(-gl.z),
                           static_cast<float>(gl.y));
  const Loaded loaded = LoadWritten(result.output);
  ASSERT_TRUE(loaded.model);
  ASSERT_EQ(loaded.animations.size(), 1u);
  EXPECT_TRUE(Near(Skinned(*loaded.model, &loaded.animations[0], 2)[1], expected, 1e-5f));
  // The bind pose is the glTF's vertex positions, Z-up.
  EXPECT_TRUE(Near(Skinned(*loaded.model, nullptr, 0)[2], glm::vec3(0, 0, 2)));
}

TEST(GltfImportJob, WarnsWhenAnimatedScaleCannotBeKept) {
  tinygltf::Model gltf = BaseAsset();
  tinygltf::AnimationSampler sampler;
  sampler.input = kTimes;
  sampler.output =
      AddAccessor<float>(&gltf, {1, 1, 1, 1, 1, 1, 2, 2, 2}, kFloat, TINYGLTF_TYPE_VEC3);
  gltf.animations[0].samplers.push_back(sampler);
  tinygltf::AnimationChannel channel;
  channel.sampler = 1;
  channel.target_node = 0;
  channel.target_path = "scale";
  gltf.animations[0].channels.push_back(channel);
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  EXPECT_TRUE(AnyWarning(result.warnings, "scale or shear changes in animation (by up to "))
      << AllWarnings(result.warnings);
  EXPECT_TRUE(AnyWarning(result.warnings, "wave frame 2)")) << AllWarnings(result.warnings);
}

TEST(GltfImportJob, KeepsTheFourLargestOfEightInfluencesRenormalized) {
  tinygltf::Model gltf = BaseAsset();
  tinygltf::Primitive& primitive = gltf.meshes[0].primitives[0];
  // Vertex 0: 0.4 root + 0.1 tip in set 0, then 0.3 root (merged: 0.7) and 0.2 tip (0.3) in set 1.
  primitive.attributes["JOINTS_1"] = AddAccessor<std::uint16_t>(
      &gltf, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, kUShort, TINYGLTF_TYPE_VEC4);
  primitive.attributes["WEIGHTS_1"] = AddAccessor<float>(
      &gltf, {0.3f, 0.2f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, kFloat, TINYGLTF_TYPE_VEC4);
  primitive.attributes["JOINTS_0"] = AddAccessor<std::uint16_t>(
      &gltf, {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}, kUShort, TINYGLTF_TYPE_VEC4);
  primitive.attributes["WEIGHTS_0"] = AddAccessor<float>(
      &gltf, {0.4f, 0.1f, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0}, kFloat, TINYGLTF_TYPE_VEC4);
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  const md5::MeshPart& part = result.output.mesh.meshes[0];
  ASSERT_EQ(part.vertices[0].weight_count, 2);
  EXPECT_NEAR(part.weights[0].bias, 0.7f, 1e-6f);
  EXPECT_EQ(part.weights[0].joint, 0);
  EXPECT_NEAR(part.weights[1].bias, 0.3f, 1e-6f);
  EXPECT_TRUE(AnyWarning(result.warnings, "JOINTS_1/WEIGHTS_1 read on 1 primitives"))
      << AllWarnings(result.warnings);

  // Eight distinct influences are not possible with two joints; with six joints they are.
  tinygltf::Model wide = BaseAsset();
  for (int k = 0; k < 4; ++k) {
    tinygltf::Node extra;
    extra.name = "extra" + std::to_string(k);
    wide.nodes[1].children.push_back(static_cast<int>(wide.nodes.size()));
    wide.skins[0].joints.push_back(static_cast<int>(wide.nodes.size()));
    wide.nodes.push_back(extra);
  }
  std::vector<float> binds(16 * 6, 0.0f);
  for (int j = 0; j < 6; ++j) {
    for (int d = 0; d < 4; ++d) binds[static_cast<size_t>(j * 16 + d * 5)] = 1.0f;
  }
  wide.skins[0].inverseBindMatrices = AddAccessor<float>(&wide, binds, kFloat, TINYGLTF_TYPE_MAT4);
  tinygltf::Primitive& p = wide.meshes[0].primitives[0];
  p.attributes["JOINTS_0"] = AddAccessor<std::uint16_t>(&wide, {0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0},
                                                        kUShort, TINYGLTF_TYPE_VEC4);
  p.attributes["WEIGHTS_0"] = AddAccessor<float>(
      &wide, {0.05f, 0.3f, 0.1f, 0.2f, 1, 0, 0, 0, 1, 0, 0, 0}, kFloat, TINYGLTF_TYPE_VEC4);
  p.attributes["JOINTS_1"] = AddAccessor<std::uint16_t>(&wide, {4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                                        kUShort, TINYGLTF_TYPE_VEC4);
  p.attributes["WEIGHTS_1"] = AddAccessor<float>(&wide, {0.15f, 0.2f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                                 kFloat, TINYGLTF_TYPE_VEC4);
  const Imported six = Import(ToGlb(wide));
  ASSERT_TRUE(six.status.ok()) << six.status.error().ToString();
  const md5::MeshPart& six_part = six.output.mesh.meshes[0];
  ASSERT_EQ(six_part.vertices[0].weight_count, 4);
  // Kept: 0.3 (tip), 0.2, 0.2, 0.15 of 0.85, largest first.
  EXPECT_NEAR(six_part.weights[0].bias, 0.3f / 0.85f, 1e-6f);
  EXPECT_NEAR(six_part.weights[3].bias, 0.15f / 0.85f, 1e-6f);
  float sum = 0.0f;
  for (int w = 0; w < 4; ++w) sum += six_part.weights[static_cast<size_t>(w)].bias;
  EXPECT_NEAR(sum, 1.0f, 1e-6f);
  EXPECT_TRUE(
      AnyWarning(six.warnings, "1 vertices with more than 4 influences keep their 4 largest"))
      << AllWarnings(six.warnings);
}

TEST(GltfImportJob, EvaluatesStepAndCubicSplineAndTakesTheFrameRateAsked) {
  // Translation of tip along glTF X: STEP keys 0, 1 at t = 0, 1; CUBICSPLINE 0 -> 1 with zero
  // tangents is smoothstep: 0.5 at t = 0.5 and 0.15625 at t = 0.25.
  const auto with_translation = [](const char* interpolation, std::vector<float> values) {
    tinygltf::Model gltf = BaseAsset();
    gltf.animations.clear();
    tinygltf::Animation animation;
    animation.name = interpolation;
    tinygltf::AnimationSampler sampler;
    sampler.input = AddAccessor<float>(&gltf, {0.0f, 1.0f}, kFloat, TINYGLTF_TYPE_SCALAR);
    sampler.output = AddAccessor<float>(&gltf, values, kFloat, TINYGLTF_TYPE_VEC3);
    sampler.interpolation = interpolation;
    animation.samplers.push_back(sampler);
    tinygltf::AnimationChannel channel;
    channel.sampler = 0;
    channel.target_node = 1;
    channel.target_path = "translation";
    animation.channels.push_back(channel);
    gltf.animations.push_back(animation);
    return gltf;
  };
  GltfImportOptions four;
  four.fps = 4.0f;
  const Imported step = Import(ToGlb(with_translation("STEP", {0, 1, 0, 1, 1, 0})), four);
  ASSERT_TRUE(step.status.ok()) << step.status.error().ToString();
  const Loaded step_loaded = LoadWritten(step.output);
  ASSERT_EQ(step_loaded.animations.size(), 1u);
  ASSERT_EQ(step_loaded.animations[0].frame_count(), 5);
  EXPECT_EQ(step_loaded.animations[0].frame_rate(), 4.0f);
  // MD5 X is glTF X; glTF Y (the joint's height) is MD5 Z.
  EXPECT_NEAR(step_loaded.animations[0].frame(3)[1].translation.x, 0.0f, 1e-6f);
  EXPECT_NEAR(step_loaded.animations[0].frame(4)[1].translation.x, 1.0f, 1e-6f);

  const Imported cubic =
      Import(ToGlb(with_translation("CUBICSPLINE", {0, 0, 0, 0, 1, 0, 0, 0, 0,  //
                                                    0, 0, 0, 1, 1, 0, 0, 0, 0})),
             four);
  ASSERT_TRUE(cubic.status.ok()) << cubic.status.error().ToString();
  const Loaded cubic_loaded = LoadWritten(cubic.output);
  ASSERT_EQ(cubic_loaded.animations.size(), 1u);
  EXPECT_NEAR(cubic_loaded.animations[0].frame(1)[1].translation.x, 0.15625f, 1e-6f);
  EXPECT_NEAR(cubic_loaded.animations[0].frame(2)[1].translation.x, 0.5f, 1e-6f);

  // Unasked, two keys one second apart are uniformly spaced: 1 fps, 2 frames.
  const Imported own = Import(ToGlb(with_translation("LINEAR", {0, 1, 0, 1, 1, 0})));
  ASSERT_TRUE(own.status.ok());
  EXPECT_EQ(own.output.animations[0].file.frame_count, 2);
  EXPECT_EQ(own.output.animations[0].file.frame_rate, 1.0f);

  // Keys on a grid of 0.1 s with gaps: 10 fps.
  tinygltf::Model gaps = BaseAsset();
  gaps.animations[0].samplers[0].input =
      AddAccessor<float>(&gaps, {0.0f, 0.1f, 1.0f}, kFloat, TINYGLTF_TYPE_SCALAR);
  const Imported ten = Import(ToGlb(gaps));
  ASSERT_TRUE(ten.status.ok());
  EXPECT_EQ(ten.output.animations[0].file.frame_rate, 10.0f);
  EXPECT_EQ(ten.output.animations[0].file.frame_count, 11);

  // Keys on no grid: the default 30 fps.
  tinygltf::Model uneven = BaseAsset();
  const int times = AddAccessor<float>(&uneven, {0.0f, 0.1f, 0.25f}, kFloat, TINYGLTF_TYPE_SCALAR);
  uneven.animations[0].samplers[0].input = times;
  const Imported thirty = Import(ToGlb(uneven));
  ASSERT_TRUE(thirty.status.ok());
  EXPECT_EQ(thirty.output.animations[0].file.frame_rate, kDefaultImportFps);
  EXPECT_EQ(thirty.output.animations[0].file.frame_count, 9);  // 0.25 s at 30 fps, rounded

  // A grid finer than 240 fps: the default.
  tinygltf::Model fine = BaseAsset();
  fine.animations[0].samplers[0].input =
      AddAccessor<float>(&fine, {0.0f, 0.001f, 0.002f}, kFloat, TINYGLTF_TYPE_SCALAR);
  const Imported coarse = Import(ToGlb(fine));
  ASSERT_TRUE(coarse.status.ok());
  EXPECT_EQ(coarse.output.animations[0].file.frame_rate, kDefaultImportFps);
  EXPECT_EQ(coarse.output.animations[0].file.frame_count, 1);
}

// ---- materials and their images ----------------------------------------------------------

// A PNG's signature and a few bytes: the importer hands images over undecoded.
std::string FakePng(char fill) {
  return std::string("\x89PNG\r\n\x1a\n", 8) + std::string(24, fill);
}

// A real 3 x 2 PNG whose pixels `seed` varies: normal maps are decoded and re-encoded.
material::RgbaImage NormalPicture(int seed) {
  material::RgbaImage image;
  image.width = 3;
  image.height = 2;
  for (int i = 0; i < 6; ++i) {
    image.rgba.insert(image.rgba.end(),
                      {static_cast<uint8_t>(100 + i), static_cast<uint8_t>(seed * 7 + i * 40),
                       static_cast<uint8_t>(250 - i), 255});
  }
  return image;
}
std::string NormalPng(int seed) { return material::EncodePng("n", NormalPicture(seed)).value(); }

// The decoded pixels of an imported normal map, green inverted back.
std::vector<uint8_t> GreenInvertedBack(const std::string& png) {
  auto decoded = material::DecodeImage("imported", png);
  EXPECT_TRUE(decoded.ok());
  if (!decoded.ok()) return {};
  material::InvertGreen(&decoded.value());
  return decoded.value().rgba;
}

// Image `bytes` in buffer 0 as the image of a new texture; returns the texture.
int AddBufferImage(tinygltf::Model* gltf, const std::string& bytes, const std::string& name) {
  std::vector<unsigned char>& data = gltf->buffers[0].data;
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = bytes.size();
  data.insert(data.end(), bytes.begin(), bytes.end());
  data.resize((data.size() + 3) & ~size_t{3}, 0);
  gltf->bufferViews.push_back(view);
  tinygltf::Image image;
  image.name = name;
  image.mimeType = "image/png";
  image.bufferView = static_cast<int>(gltf->bufferViews.size()) - 1;
  gltf->images.push_back(image);
  tinygltf::Texture texture;
  texture.source = static_cast<int>(gltf->images.size()) - 1;
  gltf->textures.push_back(texture);
  return static_cast<int>(gltf->textures.size()) - 1;
}

int AddUriImage(tinygltf::Model* gltf, const std::string& uri) {
  tinygltf::Image image;
  image.uri = uri;
  gltf->images.push_back(image);
  tinygltf::Texture texture;
  texture.source = static_cast<int>(gltf->images.size()) - 1;
  gltf->textures.push_back(texture);
  return static_cast<int>(gltf->textures.size()) - 1;
}

TEST(GltfImportJob, MaterialImagesComeAlongWithAnMtrNamingThem) {
  tinygltf::Model gltf = BaseAsset();
  gltf.materials[0].name = "skin (red)";  // not one decl token: made one
  gltf.materials[0].pbrMetallicRoughness.baseColorTexture.index =
      AddBufferImage(&gltf, FakePng('d'), "skin colour");
  gltf.materials[0].normalTexture.index = AddBufferImage(&gltf, NormalPng(1), "skin_n");
  gltf.materials[0].pbrMetallicRoughness.metallicRoughnessTexture.index =
      AddBufferImage(&gltf, FakePng('m'), "skin_mr");
  {
    tinygltf::Value::Object index;
    index["index"] = tinygltf::Value(AddBufferImage(&gltf, FakePng('s'), "skin_s"));
    tinygltf::Value::Object specular;
    specular["specularColorTexture"] = tinygltf::Value(index);
    specular["specularTexture"] = tinygltf::Value(index);
    gltf.materials[0].extensions["KHR_materials_specular"] = tinygltf::Value(specular);
    gltf.extensionsUsed.push_back("KHR_materials_specular");
  }
  const Imported imported = Import(ToGlb(gltf));
  ASSERT_TRUE(imported.status.ok()) << imported.status.error().ToString();
  const GltfImportOutput& out = imported.output;
  ASSERT_EQ(out.images.size(), 3u);
  EXPECT_EQ(out.images[0].file_name, "skin_colour.png");
  EXPECT_EQ(out.images[0].bytes, FakePng('d'));
  // glTF's green leans up the image, Doom 3's down it: the bump map is the picture, green
  // inverted.
  EXPECT_EQ(out.images[1].file_name, "skin_n.png");
  EXPECT_EQ(GreenInvertedBack(out.images[1].bytes), NormalPicture(1).rgba);
  EXPECT_EQ(out.images[2].file_name, "skin_s.png");
  EXPECT_EQ(out.images[2].bytes, FakePng('s'));
  EXPECT_TRUE(AnyWarning(imported.warnings, "KHR_materials_specular.specularTexture"))
      << AllWarnings(imported.warnings);
  ASSERT_EQ(out.materials.size(), 1u);
  EXPECT_EQ(out.materials[0].name, "skin__red_");
  EXPECT_EQ(out.mesh.meshes[0].shader, "skin__red_");
  EXPECT_TRUE(AnyWarning(imported.warnings, "metallicRoughnessTexture"))
      << AllWarnings(imported.warnings);

  // The .mtr parses (with the project's decl parser) to that material and those images.
  const std::string mtr = WriteImportedMaterials(out);
  auto decl = material::ParseDeclFile("asset.mtr", mtr);
  ASSERT_TRUE(decl.ok()) << decl.error().ToString() << "\n" << mtr;
  EXPECT_TRUE(decl.value().warnings.empty()) << mtr;
  ASSERT_EQ(decl.value().materials.size(), 1u);
  const material::Material& m = decl.value().materials[0];
  EXPECT_EQ(m.name, "skin__red_");
  EXPECT_NE(mtr.find("diffusemap\tskin_colour.png"), std::string::npos) << mtr;
  EXPECT_NE(mtr.find("bumpmap\t\tskin_n.png"), std::string::npos) << mtr;
  EXPECT_NE(mtr.find("specularmap\tskin_s.png"), std::string::npos) << mtr;
}

TEST(GltfImportJob, MaterialImagesFromDataUrisAndGivenFiles) {
  tinygltf::Model gltf = BaseAsset();
  tinygltf::Material second = gltf.materials[0];
  // A data: URI (base64 of FakePng('u')) and a file next to the .gltf ("%20" decoded).
  std::string base64;
  {
    const std::string raw = FakePng('u');
    static const char* kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < raw.size(); i += 3) {
      uint32_t n = static_cast<unsigned char>(raw[i]) << 16;
      if (i + 1 < raw.size()) n |= static_cast<unsigned char>(raw[i + 1]) << 8;
      if (i + 2 < raw.size()) n |= static_cast<unsigned char>(raw[i + 2]);
      base64 += kAlphabet[(n >> 18) & 63];
      base64 += kAlphabet[(n >> 12) & 63];
      base64 += i + 1 < raw.size() ? kAlphabet[(n >> 6) & 63] : '=';
      base64 += i + 2 < raw.size() ? kAlphabet[n & 63] : '=';
    }
  }
  gltf.materials[0].pbrMetallicRoughness.baseColorTexture.index =
      AddUriImage(&gltf, "data:image/png;base64," + base64);
  gltf.materials[0].normalTexture.index = AddUriImage(&gltf, "maps/skin%20n.png");
  const std::string text = ToGltfText(gltf);
  const std::string file = NormalPng(2);
  std::vector<std::string> asked;
  const GltfFileLookup lookup = [&](const std::string& uri) -> const std::string* {
    asked.push_back(uri);
    return uri == "maps/skin n.png" ? &file : nullptr;
  };
  Imported imported = Import(text, GltfImportOptions(), lookup);
  ASSERT_TRUE(imported.status.ok()) << imported.status.error().ToString();
  ASSERT_EQ(imported.output.images.size(), 2u) << AllWarnings(imported.warnings);
  EXPECT_EQ(imported.output.images[0].bytes, FakePng('u'));
  EXPECT_EQ(imported.output.images[0].file_name, "asset_image0.png");  // no name, no file
  EXPECT_EQ(GreenInvertedBack(imported.output.images[1].bytes), NormalPicture(2).rgba);
  EXPECT_EQ(imported.output.images[1].file_name, "skin_n.png");
  EXPECT_EQ(std::count(asked.begin(), asked.end(), "maps/skin n.png"), 1);

  // Without the file: a warning naming it, and the material keeps its data: URI image.
  imported = Import(text);
  ASSERT_TRUE(imported.status.ok());
  ASSERT_EQ(imported.output.images.size(), 1u);
  EXPECT_TRUE(
      AnyWarning(imported.warnings, "images[1].uri: the file \"maps/skin n.png\" was not given"))
      << AllWarnings(imported.warnings);
  ASSERT_EQ(imported.output.materials.size(), 1u);
  EXPECT_EQ(imported.output.materials[0].normal_image, -1);
}

TEST(GltfImportJob, NormalMapThatDoesNotDecodeIsWarnedAndLeftOut) {
  // A normal map is decoded to invert its green: a PNG signature with no image is left out, and
  // the same image as base colour is still handed over as it is.
  tinygltf::Model gltf = BaseAsset();
  const int texture = AddBufferImage(&gltf, FakePng('x'), "broken");
  gltf.materials[0].pbrMetallicRoughness.baseColorTexture.index = texture;
  gltf.materials[0].normalTexture.index = texture;
  const Imported imported = Import(ToGlb(gltf));
  ASSERT_TRUE(imported.status.ok()) << imported.status.error().ToString();
  EXPECT_TRUE(AnyWarning(imported.warnings, "images[0]: the normal map cannot be converted"))
      << AllWarnings(imported.warnings);
  ASSERT_EQ(imported.output.images.size(), 1u);
  EXPECT_EQ(imported.output.images[0].bytes, FakePng('x'));
  ASSERT_EQ(imported.output.materials.size(), 1u);
  EXPECT_EQ(imported.output.materials[0].diffuse_image, 0);
  EXPECT_EQ(imported.output.materials[0].normal_image, -1);
}

TEST(GltfImportJob, ImagesThatAreNotPngOrJpegOrOutOfRangeAreWarnedAndLeftOut) {
  tinygltf::Model gltf = BaseAsset();
  gltf.materials[0].pbrMetallicRoughness.baseColorTexture.index =
      AddBufferImage(&gltf, "RIFF....WEBPVP8 not a png", "webp");
  gltf.materials[0].normalTexture.index = 7;  // no such texture
  const Imported imported = Import(ToGlb(gltf));
  ASSERT_TRUE(imported.status.ok()) << imported.status.error().ToString();
  EXPECT_TRUE(imported.output.images.empty());
  EXPECT_TRUE(imported.output.materials.empty());
  EXPECT_EQ(imported.output.mesh.meshes[0].shader, "models/skin");  // unchanged without images
  EXPECT_EQ(WriteImportedMaterials(imported.output), "");
  EXPECT_TRUE(AnyWarning(imported.warnings, "images[0]: not a PNG or JPEG image"))
      << AllWarnings(imported.warnings);
  EXPECT_TRUE(
      AnyWarning(imported.warnings,
                 "materials[0].normalTexture.index: expected a texture index below 1, found 7"))
      << AllWarnings(imported.warnings);
}

TEST(GltfImportJob, ReportsWhatMd5CannotHoldAsLeftOut) {
  tinygltf::Model gltf = BaseAsset();
  tinygltf::Primitive& primitive = gltf.meshes[0].primitives[0];
  primitive.attributes["TEXCOORD_1"] = primitive.attributes["TEXCOORD_0"];
  primitive.targets.push_back({{"POSITION", kPositions}});
  gltf.meshes[0].weights = {0.0};
  gltf.cameras.emplace_back();
  gltf.cameras[0].type = "perspective";
  gltf.cameras[0].perspective.yfov = 1.0;
  gltf.cameras[0].perspective.znear = 0.1;
  gltf.skins.push_back(gltf.skins[0]);
  tinygltf::Primitive empty = primitive;
  empty.indices = AddAccessor<std::uint16_t>(&gltf, {0, 1}, kUShort, TINYGLTF_TYPE_SCALAR);
  empty.targets.clear();
  gltf.meshes[0].primitives.push_back(empty);
  tinygltf::Node rigid;
  rigid.mesh = 0;
  gltf.nodes.push_back(rigid);
  gltf.scenes[0].nodes.push_back(3);
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  for (const char* expected :
       {"left out: UV set TEXCOORD_1 of meshes[0].primitives[0]",
        "left out: 1 morph targets of meshes[0].primitives[0]",
        "left out: morph target weights of meshes[0]", "left out: 1 cameras",
        "left out: 1 more skins (only skins[0])", "left out: nodes[3] (meshes[0], not skinned)",
        "left out: meshes[0].primitives[1] (no triangles)"}) {
    EXPECT_TRUE(AnyWarning(result.warnings, expected)) << expected << "\n"
                                                       << AllWarnings(result.warnings);
  }
  EXPECT_EQ(result.output.mesh.meshes.size(), 1u);
}

// A sparse accessor without a buffer view: zeros, but for vertex 2 at glTF (0, 2, 0).
void MakePositionsSparse(tinygltf::Model* gltf, size_t count) {
  const int indices = AddAccessor<std::uint16_t>(gltf, {2}, kUShort, TINYGLTF_TYPE_SCALAR);
  const int values = AddAccessor<float>(gltf, {0, 2, 0}, kFloat, TINYGLTF_TYPE_VEC3);
  tinygltf::Accessor& positions = gltf->accessors[kPositions];
  positions.bufferView = -1;
  positions.count = count;
  positions.sparse.isSparse = true;
  positions.sparse.count = 1;
  positions.sparse.indices.bufferView = gltf->accessors[static_cast<size_t>(indices)].bufferView;
  positions.sparse.indices.componentType = kUShort;
  positions.sparse.indices.byteOffset = 0;  // tinygltf leaves these uninitialized
  positions.sparse.values.byteOffset = 0;
  positions.sparse.values.bufferView = gltf->accessors[static_cast<size_t>(values)].bufferView;
}

TEST(GltfImportJob, ReadsSparseAccessorsAndBoundsTheirCount) {
  tinygltf::Model gltf = BaseAsset();
  MakePositionsSparse(&gltf, 3);
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  const Loaded loaded = LoadWritten(result.output);
  ASSERT_TRUE(loaded.model);
  const std::vector<glm::vec3> bind = Skinned(*loaded.model, nullptr, 0);
  EXPECT_TRUE(Near(bind[1], glm::vec3(0, 0, 0)));
  EXPECT_TRUE(Near(bind[2], glm::vec3(0, 0, 2)));

  // A count no bytes of the file back: refused before anything is allocated for it.
  tinygltf::Model huge = BaseAsset();
  MakePositionsSparse(&huge, 50000000);
  const Imported refused = Import(ToGlb(huge));
  ASSERT_FALSE(refused.status.ok());
  EXPECT_NE(refused.status.error().message.find("accessors[0].count: expected at most"),
            std::string::npos)
      << refused.status.error().message;
}

TEST(GltfImportJob, ConvertsTheSkinTheSceneUses) {
  tinygltf::Model gltf = BaseAsset();
  tinygltf::Skin unused;
  unused.joints = {1};
  gltf.skins.insert(gltf.skins.begin(), unused);
  gltf.nodes[2].skin = 1;
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  EXPECT_EQ(result.output.mesh.joints.size(), 2u);
  EXPECT_TRUE(AnyWarning(result.warnings, "left out: 1 more skins (only skins[1])"))
      << AllWarnings(result.warnings);
}

TEST(GltfImportJob, ReadsAGltfWithItsBinThroughTheLookup) {
  std::string text = ToGltfText(BaseAsset());
  const std::string prefix = "data:application/octet-stream;base64,";
  const size_t start = text.find(prefix);
  ASSERT_NE(start, std::string::npos);
  const size_t end = text.find('"', start);
  text.replace(start, end - start, "parts/the%20data.bin");
  const tinygltf::Model base = BaseAsset();
  const std::string bin(base.buffers[0].data.begin(), base.buffers[0].data.end());
  std::vector<std::string> asked;
  const Imported result = Import(text, GltfImportOptions(), [&](const std::string& uri) {
    asked.push_back(uri);
    return uri == "parts/the data.bin" ? &bin : nullptr;
  });
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  EXPECT_NE(std::find(asked.begin(), asked.end(), "parts/the data.bin"), asked.end());
  EXPECT_EQ(result.output.mesh.vertex_count(), 3);

  const Imported missing = Import(text, GltfImportOptions(), nullptr);
  ASSERT_FALSE(missing.status.ok());
  EXPECT_NE(missing.status.error().message.find("not a readable glTF 2.0 file"), std::string::npos)
      << missing.status.error().message;
}

TEST(GltfImportJob, NamesAreMadeUniqueAndFileSafe) {
  tinygltf::Model gltf = BaseAsset();
  gltf.nodes[1].name = "root";
  gltf.animations.push_back(gltf.animations[0]);
  gltf.animations[0].name = "../run";
  gltf.animations[1].name = "../run";
  const Imported result = Import(ToGlb(gltf));
  ASSERT_TRUE(result.status.ok()) << result.status.error().ToString();
  EXPECT_EQ(result.output.mesh.joints[1].name, "root_2");
  ASSERT_EQ(result.output.animations.size(), 2u);
  EXPECT_EQ(result.output.animations[0].name, ".._run");
  EXPECT_EQ(result.output.animations[1].name, ".._run_2");
  EXPECT_TRUE(AnyWarning(result.warnings, "1 joints renamed"));
}

TEST(GltfImportJob, TwoRunsGiveTheSameFiles) {
  const std::string glb = ToGlb(BaseAsset());
  const Imported a = Import(glb), b = Import(glb);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_EQ(md5::WriteMd5Mesh(a.output.mesh), md5::WriteMd5Mesh(b.output.mesh));
  EXPECT_EQ(md5::WriteMd5Anim(a.output.animations[0].file),
            md5::WriteMd5Anim(b.output.animations[0].file));
}

// ---- the written files ------------------------------------------------------------------------

TEST(Md5Writer, WrittenMeshAndAnimParseBackToTheSameData) {
  const Imported result = Import(ToGlb(BaseAsset()));
  ASSERT_TRUE(result.status.ok());
  const md5::MeshFile& mesh = result.output.mesh;
  Result<md5::MeshFile> back = md5::ParseMd5Mesh("m.md5mesh", md5::WriteMd5Mesh(mesh));
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_TRUE(back.value().warnings.empty());
  ASSERT_EQ(back.value().joints.size(), mesh.joints.size());
  for (size_t j = 0; j < mesh.joints.size(); ++j) {
    EXPECT_EQ(back.value().joints[j].name, mesh.joints[j].name);
    EXPECT_EQ(back.value().joints[j].position, mesh.joints[j].position);
    EXPECT_EQ(back.value().joints[j].orientation_xyz, mesh.joints[j].orientation_xyz);
  }
  ASSERT_EQ(back.value().meshes.size(), 1u);
  const md5::MeshPart& part = back.value().meshes[0];
  for (size_t w = 0; w < part.weights.size(); ++w) {
    EXPECT_EQ(part.weights[w].position, mesh.meshes[0].weights[w].position);
    EXPECT_EQ(part.weights[w].bias, mesh.meshes[0].weights[w].bias);
  }
  const md5::AnimFile& anim = result.output.animations[0].file;
  Result<md5::AnimFile> anim_back = md5::ParseMd5Anim("a.md5anim", md5::WriteMd5Anim(anim));
  ASSERT_TRUE(anim_back.ok()) << anim_back.error().ToString();
  EXPECT_EQ(anim_back.value().frame_components, anim.frame_components);
  EXPECT_EQ(anim_back.value().frame_rate, anim.frame_rate);
  EXPECT_EQ(anim_back.value().hierarchy[1].flags, anim.hierarchy[1].flags);
}

// ---- round trip over ../shared/md5 --------------------------------------------------------------

struct SharedModel {
  std::string mesh;
  std::vector<std::string> anims;
};

// Each .md5mesh with the .md5anim files of its folder and its animation/ subfolder, as the export
// checks pick them; the refused samples (assimp_invalid, extensions/) are left out.
std::vector<SharedModel> SharedModels(const std::string& root) {
  std::vector<SharedModel> models;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".md5mesh") continue;
    if (path.find("assimp_invalid") != std::string::npos ||
        path.find("/extensions/") != std::string::npos) {
      continue;
    }
    SharedModel model{path, {}};
    for (const std::filesystem::path& folder :
         {entry.path().parent_path(), entry.path().parent_path() / "animation"}) {
      if (!std::filesystem::is_directory(folder)) continue;
      for (const auto& anim : std::filesystem::directory_iterator(folder)) {
        if (anim.path().extension() == ".md5anim") model.anims.push_back(anim.path().string());
      }
    }
    std::sort(model.anims.begin(), model.anims.end());
    models.push_back(std::move(model));
  }
  std::sort(models.begin(), models.end(),
            [](const SharedModel& a, const SharedModel& b) { return a.mesh < b.mesh; });
  return models;
}

// What the glTF holds: the GPU path (bind position, 4 weights renormalized) of the source model.
std::vector<glm::vec3> GpuSkinned(const anim::Model& model, const anim::Animation* animation,
                                  int frame) {
  const std::vector<glm::vec3> positions = test::GpuSkinnedPositions(model, animation, frame);
  // Parts without triangles are not exported.
  std::vector<glm::vec3> kept;
  for (const anim::GpuSubmesh& part : model.gpu().submeshes) {
    if (part.vertex_count == 0 || part.index_count == 0) continue;
    kept.insert(kept.end(), positions.begin() + part.first_vertex,
                positions.begin() + part.first_vertex + part.vertex_count);
  }
  return kept;
}

TEST(GltfImportJob, EverySharedModelSurvivesExportAndImport) {
  const std::string root = std::string(MD5STAGE_SHARED_DIR) + "/md5";
  MD5STAGE_SKIP_WITHOUT_SHARED(std::filesystem::is_directory(root));
  int models = 0, poses = 0;
  float worst_relative = 0.0f;
  for (const SharedModel& shared : SharedModels(root)) {
    SCOPED_TRACE(shared.mesh);
    Result<std::string> mesh_text = md5::ReadFileBytes(shared.mesh);
    ASSERT_TRUE(mesh_text.ok());
    Result<md5::MeshFile> mesh_file = md5::ParseMd5Mesh(shared.mesh, mesh_text.value());
    if (!mesh_file.ok()) continue;  // refused by the parser: nothing to export
    const std::shared_ptr<const anim::Model> source =
        anim::Model::Create(std::make_shared<const md5::MeshFile>(mesh_file.value()));
    std::vector<anim::Animation> animations;
    animations.reserve(shared.anims.size());
    for (const std::string& path : shared.anims) {
      Result<std::string> text = md5::ReadFileBytes(path);
      Result<md5::AnimFile> anim = md5::ParseMd5Anim(path, text.ok() ? text.value() : "");
      std::vector<Diagnostic> ignored;
      if (!anim.ok() || !md5::CheckAnimFitsMesh(mesh_file.value(), anim.value(), &ignored).ok()) {
        continue;
      }
      animations.push_back(
          anim::Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(anim.value())));
    }
    std::vector<ExportAnimation> exports;
    for (const anim::Animation& a : animations) exports.push_back({&a, md5::FileStemOf(a.name())});
    GltfFiles files;
    GltfExportJob export_job;
    export_job.model = source.get();
    export_job.animations = exports;
    export_job.output = &files;
    if (!export_job.Validate().ok()) continue;  // e.g. no triangles: the exporter's own refusal
    ASSERT_TRUE(export_job.Run().ok());

    const Imported imported = Import(files.main);
    ASSERT_TRUE(imported.status.ok()) << imported.status.error().ToString();
    const Loaded loaded = LoadWritten(imported.output);
    ASSERT_TRUE(loaded.model);
    ASSERT_EQ(loaded.animations.size(), animations.size());
    // Joint order and names are kept.
    ASSERT_EQ(loaded.model->skeleton().names(), source->skeleton().names());
    ASSERT_EQ(loaded.model->skeleton().parents(), source->skeleton().parents());

    const std::vector<glm::vec3> bind = GpuSkinned(*source, nullptr, 0);
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : bind) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    const float tolerance = 1e-5f * std::max(glm::length(hi - lo), 1e-3f);
    float worst = 0.0f;
    std::string where;
    const auto compare = [&](const std::vector<glm::vec3>& expected,
                             const std::vector<glm::vec3>& actual, const std::string& pose) {
      ASSERT_EQ(actual.size(), expected.size()) << pose;
      for (size_t v = 0; v < expected.size(); ++v) {
        const float d = glm::length(expected[v] - actual[v]);
        if (!(d <= worst)) {
          worst = d;
          where = pose + " vertex " + std::to_string(v);
        }
      }
      ++poses;
    };
    compare(bind, Skinned(*loaded.model, nullptr, 0), "bind pose");
    for (size_t a = 0; a < animations.size(); ++a) {
      ASSERT_EQ(loaded.animations[a].frame_count(), animations[a].frame_count());
      EXPECT_EQ(imported.output.animations[a].name, exports[a].name);
      for (int f = 0; f < animations[a].frame_count(); ++f) {
        compare(GpuSkinned(*source, &animations[a], f),
                Skinned(*loaded.model, &loaded.animations[a], f),
                exports[a].name + " frame " + std::to_string(f));
      }
    }
    EXPECT_LE(worst, tolerance) << "at " << where;
    worst_relative = std::max(worst_relative, worst / (tolerance / 1e-5f));
    ++models;
  }
  // 25 meshes, less the refused samples (assimp_invalid, the MD5Version 11/12 extensions).
  EXPECT_EQ(models, 19);
  RecordProperty("worst_error_of_extent", std::to_string(worst_relative));
  RecordProperty("models", models);
  RecordProperty("poses", poses);
}

}  // namespace
}  // namespace md5stage::convert
