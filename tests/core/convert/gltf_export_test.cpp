// GltfExportJob: validity table, determinism, the Z-up -> Y-up mapping, quaternion hemispheres,
// the 4-weight reduction and its warning, images and the .gltf + .bin form. Exports are read back
// with tinygltf's loader (a different code path from its writer) and checked against the model.
#include "core/convert/gltf_export.h"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "../anim/anim_test_util.h"
#include "core/anim/jobs.h"
#include "core/anim/pose.h"
#include "core/md5/file_reader.h"
#include "core/md5/file_stem.h"
#include "tinygltf_reading.h"

namespace md5stage::convert {
namespace {

using anim::testing::kAnimFixture;
using anim::testing::kMeshFixture;
using anim::testing::LoadAnimation;
using anim::testing::LoadModel;
using anim::testing::Replace;

// The 8-byte PNG signature and an IHDR start: enough for the exporter, which embeds bytes as is.
const std::string kPngBytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
const std::string kJpegBytes("\xFF\xD8\xFF\xE0\0\x10JFIF", 10);

using test::Read;
using test::ReadGlb;

struct Fixture {
  std::shared_ptr<const anim::Model> model;
  std::vector<anim::Animation> animations;
  std::vector<ExportAnimation> exports;
};

Fixture MakeFixture(const std::string& mesh = kMeshFixture,
                    const std::vector<std::string>& anims = {kAnimFixture}) {
  Fixture f;
  f.model = LoadModel(mesh);
  f.animations.reserve(anims.size());
  for (size_t i = 0; i < anims.size(); ++i) {
    f.animations.push_back(LoadAnimation(anims[i], "anim" + std::to_string(i) + ".md5anim"));
  }
  for (size_t i = 0; i < f.animations.size(); ++i) {
    f.exports.push_back({&f.animations[i], "anim" + std::to_string(i)});
  }
  return f;
}

GltfExportJob MakeJob(const Fixture& f, GltfFiles* files, std::vector<Diagnostic>* warnings) {
  GltfExportJob job;
  job.model = f.model.get();
  job.animations = f.exports;
  job.output = files;
  job.warnings = warnings;
  return job;
}

// ---- validity table ------------------------------------------------------------------------

struct BadCase {
  const char* name;
  const char* expected;  // part of the message (the field it names)
};

TEST(GltfExportJob, RefusesBadInputsNamingTheField) {
  const Fixture good = MakeFixture();
  // One joint instead of two; and the right count with another parent.
  const std::string one_joint =
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n";
  const std::string two_roots = Replace(kAnimFixture, "\"child\" 0 40 2", "\"child\" -1 40 2");
  const Fixture misfit = MakeFixture(kMeshFixture, {one_joint});
  const Fixture wrong_parent = MakeFixture(kMeshFixture, {two_roots});
  const Fixture no_triangles = MakeFixture(
      Replace(Replace(kMeshFixture, "numtris 1", "numtris 0"), "\ttri 0 0 1 2\n", ""), {});
  const std::string not_png = "GIF89a....";
  const std::vector<ExportImage> png{{"skin.png", "image/png", &kPngBytes}};
  const std::vector<ExportImage> tga{{"skin.tga", "image/x-tga", &kPngBytes}};
  const std::vector<ExportImage> null_bytes{{"skin.png", "image/png", nullptr}};
  const std::vector<ExportImage> lying{{"skin.png", "image/png", &not_png}};
  const std::vector<ExportImage> jpeg_as_png{{"skin.png", "image/png", &kJpegBytes}};
  const std::vector<ExportPartMaps> two_parts{{0, -1, -1}, {0, -1, -1}};
  const std::vector<ExportPartMaps> diffuse_out_of_range{{1, -1, -1}};
  const std::vector<ExportPartMaps> normal_out_of_range{{0, 1, -1}};
  const std::vector<ExportPartMaps> specular_below{{-1, -1, -2}};
  const std::vector<ExportAnimation> null_anim{{nullptr, "x"}};
  const std::vector<ExportAnimation> unnamed{{&good.animations[0], ""}};

  struct Row {
    BadCase what;
    std::function<void(GltfExportJob&)> spoil;
  };
  GltfFiles files;
  const std::vector<Row> rows = {
      {{"no output", "output: expected somewhere to write"},
       [](GltfExportJob& j) { j.output = nullptr; }},
      {{"no model", "model: expected a model"}, [](GltfExportJob& j) { j.model = nullptr; }},
      {{"model without triangles", "expected a mesh part with triangles"},
       [&](GltfExportJob& j) { j.model = no_triangles.model.get(); }},
      {{"anim with another joint count", "animations[0]: anim0.md5anim"},
       [&](GltfExportJob& j) { j.animations = misfit.exports; }},
      {{"anim with another parent", "animations[0]: anim0.md5anim"},
       [&](GltfExportJob& j) { j.animations = wrong_parent.exports; }},
      {{"null animation", "animations[0]: expected an animation"},
       [&](GltfExportJob& j) { j.animations = null_anim; }},
      {{"unnamed animation", "animations[0].name: expected a name"},
       [&](GltfExportJob& j) { j.animations = unnamed; }},
      {{"TGA image", "images[0] (skin.tga).mime_type: expected image/png or image/jpeg"},
       [&](GltfExportJob& j) { j.images = tga; }},
      {{"image without bytes", "images[0] (skin.png).bytes: expected the image file's bytes"},
       [&](GltfExportJob& j) { j.images = null_bytes; }},
      {{"image bytes of another format", "images[0] (skin.png).bytes: expected a png file"},
       [&](GltfExportJob& j) { j.images = lying; }},
      {{"JPEG bytes called PNG", "images[0] (skin.png).bytes: expected a png file"},
       [&](GltfExportJob& j) { j.images = jpeg_as_png; }},
      {{"part_maps of the wrong length", "part_maps: expected one entry per mesh part (1)"},
       [&](GltfExportJob& j) {
         j.images = png;
         j.part_maps = two_parts;
       }},
      {{"diffuse out of range", "part_maps[0].diffuse: expected -1 or an index below 1, found 1"},
       [&](GltfExportJob& j) {
         j.images = png;
         j.part_maps = diffuse_out_of_range;
       }},
      {{"normal out of range", "part_maps[0].normal: expected -1 or an index below 1, found 1"},
       [&](GltfExportJob& j) {
         j.images = png;
         j.part_maps = normal_out_of_range;
       }},
      {{"specular below -1", "part_maps[0].specular: expected -1 or an index below 0, found -2"},
       [&](GltfExportJob& j) { j.part_maps = specular_below; }},
      {{".gltf without a .bin name", "bin_uri: expected the .bin's name"},
       [](GltfExportJob& j) { j.container = GltfContainer::kGltfSeparateBin; }},
  };
  for (const Row& row : rows) {
    files.main = "untouched";
    GltfExportJob job = MakeJob(good, &files, nullptr);
    row.spoil(job);
    const Status validated = job.Validate();
    ASSERT_FALSE(validated.ok()) << row.what.name;
    EXPECT_NE(validated.error().message.find(row.what.expected), std::string::npos)
        << row.what.name << ": " << validated.error().message;
    const Status ran = job.Run();
    EXPECT_FALSE(ran.ok()) << row.what.name;
    EXPECT_EQ(files.main, "untouched") << row.what.name << ": a refused job wrote its output";
  }
  // And the unspoiled job passes.
  GltfExportJob job = MakeJob(good, &files, nullptr);
  EXPECT_TRUE(job.Validate().ok());
  EXPECT_TRUE(job.Run().ok());
}

TEST(GltfExportJob, MessageForAMisfitNamesBothFiles) {
  const std::string one_joint =
      "MD5Version 10\nnumFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 0\n"
      "hierarchy {\n\"root\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
      "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n";
  const Fixture misfit = MakeFixture(kMeshFixture, {kAnimFixture, one_joint});
  GltfFiles files;
  const Status status = MakeJob(misfit, &files, nullptr).Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("animations[1]"), std::string::npos);
  EXPECT_NE(status.error().message.find("m.md5mesh"), std::string::npos) << status.error().message;
}

// ---- determinism ---------------------------------------------------------------------------

TEST(GltfExportJob, TwoRunsAreByteIdenticalForBothContainers) {
  for (GltfContainer container : {GltfContainer::kGlb, GltfContainer::kGltfSeparateBin}) {
    GltfFiles first, second, rebuilt;
    const Fixture f = MakeFixture();
    const std::vector<ExportImage> images{{"skin.png", "image/png", &kPngBytes}};
    const std::vector<ExportPartMaps> part_maps{{0, 0, 0}};
    GltfExportJob job = MakeJob(f, &first, nullptr);
    job.container = container;
    job.bin_uri = "out.bin";
    job.images = images;
    job.part_maps = part_maps;
    ASSERT_TRUE(job.Run().ok());
    job.output = &second;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_EQ(first.main, second.main);
    EXPECT_EQ(first.bin, second.bin);
    // A model and animations loaded afresh (other addresses, other allocations) give the same.
    const Fixture again = MakeFixture();
    GltfExportJob other = MakeJob(again, &rebuilt, nullptr);
    other.container = container;
    other.bin_uri = "out.bin";
    other.images = images;
    other.part_maps = part_maps;
    ASSERT_TRUE(other.Run().ok());
    EXPECT_EQ(first.main, rebuilt.main);
    EXPECT_EQ(first.bin, rebuilt.bin);
  }
}

TEST(GltfExportJob, SharedModelWith39AnimsIsByteIdenticalTwice) {
  const std::string dir = std::string(MD5STAGE_SHARED_DIR) + "/md5/imprimis_bones";
  MD5STAGE_SKIP_WITHOUT_SHARED(std::filesystem::exists(dir + "/model.md5mesh"));
  Result<std::string> mesh_text = md5::ReadFileBytes(dir + "/model.md5mesh");
  ASSERT_TRUE(mesh_text.ok());
  Fixture f;
  f.model = LoadModel(mesh_text.value(), "model.md5mesh");
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/animation")) {
    if (entry.path().extension() == ".md5anim") names.push_back(entry.path().string());
  }
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 39u);
  f.animations.reserve(names.size());
  for (const std::string& name : names) {
    Result<std::string> text = md5::ReadFileBytes(name);
    ASSERT_TRUE(text.ok());
    f.animations.push_back(LoadAnimation(text.value(), name));
    f.exports.push_back({&f.animations.back(), md5::FileStemOf(name)});
  }
  GltfFiles first, second;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(MakeJob(f, &first, &warnings).Run().ok());
  ASSERT_TRUE(MakeJob(f, &second, nullptr).Run().ok());
  EXPECT_EQ(first.main, second.main);
  const tinygltf::Model gltf = ReadGlb(first.main);
  ASSERT_EQ(gltf.animations.size(), 39u);
  EXPECT_EQ(gltf.animations[0].name, md5::FileStemOf(names[0]));
  // Every rotation key stays on the hemisphere of the key before it.
  for (const tinygltf::Animation& animation : gltf.animations) {
    for (const tinygltf::AnimationChannel& channel : animation.channels) {
      if (channel.target_path != "rotation") continue;
      const std::vector<float> q =
          Read<float>(gltf, animation.samplers[static_cast<size_t>(channel.sampler)].output);
      for (size_t k = 4; k < q.size(); k += 4) {
        const float dot =
            q[k] * q[k - 4] + q[k + 1] * q[k - 3] + q[k + 2] * q[k - 2] + q[k + 3] * q[k - 1];
        ASSERT_GE(dot, 0.0f) << animation.name << " node " << channel.target_node;
      }
    }
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("2483 vertices have more than 4 weights"), std::string::npos)
      << warnings[0].message;
}

// ---- conventions ---------------------------------------------------------------------------

TEST(GltfExportJob, ZUpBecomesYUpAtOneRootAndSkinningRestoresTheBindPose) {
  const Fixture f = MakeFixture();
  GltfFiles files;
  ASSERT_TRUE(MakeJob(f, &files, nullptr).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  ASSERT_EQ(gltf.scenes.size(), 1u);
  const tinygltf::Node& root = gltf.nodes[0];
  ASSERT_EQ(root.rotation.size(), 4u);
  // The root's rotation takes MD5's up (0, 0, 1) to glTF's up (0, 1, 0), and +Y to -Z.
  const glm::quat q(static_cast<float>(root.rotation[3]), static_cast<float>(root.rotation[0]),
                    static_cast<float>(root.rotation[1]), static_cast<float>(root.rotation[2]));
  EXPECT_TRUE(anim::testing::Near(q * glm::vec3(0, 0, 1), {0, 1, 0}, 1e-6f));
  EXPECT_TRUE(anim::testing::Near(q * glm::vec3(0, 1, 0), {0, 0, -1}, 1e-6f));
  EXPECT_TRUE(anim::testing::Near(q * glm::vec3(1, 0, 0), {1, 0, 0}, 1e-6f));
  // Joints hang from the root in MD5 order: node 1 "root", node 2 "child" under it.
  ASSERT_EQ(root.children, std::vector<int>{1});
  EXPECT_EQ(gltf.nodes[1].name, "root");
  EXPECT_EQ(gltf.nodes[2].name, "child");
  EXPECT_EQ(gltf.nodes[1].children, std::vector<int>{2});
  ASSERT_EQ(gltf.skins.size(), 1u);
  EXPECT_EQ(gltf.skins[0].joints, (std::vector<int>{1, 2}));
  EXPECT_EQ(gltf.skins[0].skeleton, 0);
  // The skinned mesh node sits at the scene root, beside the rotated skeleton.
  EXPECT_EQ(gltf.scenes[0].nodes, (std::vector<int>{0, 3}));
  EXPECT_EQ(gltf.nodes[3].skin, 0);

  // Positions are the bind pose mapped (x, y, z) -> (x, z, -y), exactly.
  const std::vector<float> positions =
      Read<float>(gltf, gltf.meshes[0].primitives[0].attributes.at("POSITION"));
  const std::vector<anim::GpuVertex>& gpu = f.model->gpu().vertices;
  ASSERT_EQ(positions.size(), gpu.size() * 3);
  for (size_t v = 0; v < gpu.size(); ++v) {
    EXPECT_EQ(positions[v * 3 + 0], gpu[v].position.x);
    EXPECT_EQ(positions[v * 3 + 1], gpu[v].position.z);
    EXPECT_EQ(positions[v * 3 + 2], -gpu[v].position.y);
  }
  // In the bind pose, root rotation x joint bind x inverse bind is the identity for every joint.
  const std::vector<float> ibm = Read<float>(gltf, gltf.skins[0].inverseBindMatrices);
  const glm::mat4 root_matrix = glm::mat4_cast(q);
  for (int j = 0; j < 2; ++j) {
    glm::mat4 inverse_bind;
    std::memcpy(&inverse_bind[0][0], ibm.data() + j * 16, 64);
    const glm::mat4 product = root_matrix * f.model->skeleton().bind_matrices()[j] * inverse_bind;
    EXPECT_TRUE(anim::testing::NearMatrix(product, glm::mat4(1.0f), 1e-6f)) << j;
    // glTF requires affine inverse bind matrices: the last row exactly (0, 0, 0, 1).
    EXPECT_EQ(inverse_bind[0][3], 0.0f);
    EXPECT_EQ(inverse_bind[3][3], 1.0f);
  }
  // Normals are unit length and mapped like positions.
  const std::vector<float> normals =
      Read<float>(gltf, gltf.meshes[0].primitives[0].attributes.at("NORMAL"));
  const glm::vec3 n0 = f.model->geometry(0).bind_normals[0];
  EXPECT_TRUE(anim::testing::Near({normals[0], normals[1], normals[2]}, {n0.x, n0.z, -n0.y}));
  // UVs as in the file: MD5 and glTF both put (0, 0) at the image's top left.
  const std::vector<float> uvs =
      Read<float>(gltf, gltf.meshes[0].primitives[0].attributes.at("TEXCOORD_0"));
  EXPECT_EQ(uvs, (std::vector<float>{0, 0, 1, 0, 0, 1}));
  // Triangles reversed to counter-clockwise, like the viewer's index buffer.
  const std::vector<uint16_t> indices = Read<uint16_t>(gltf, gltf.meshes[0].primitives[0].indices);
  EXPECT_EQ(indices, (std::vector<uint16_t>{0, 2, 1}));
}

TEST(GltfExportJob, AnimationHasAKeyPerFrameAtTheFrameRate) {
  const Fixture f = MakeFixture();
  GltfFiles files;
  ASSERT_TRUE(MakeJob(f, &files, nullptr).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  ASSERT_EQ(gltf.animations.size(), 1u);
  const tinygltf::Animation& animation = gltf.animations[0];
  EXPECT_EQ(animation.name, "anim0");
  ASSERT_EQ(animation.channels.size(), 4u);  // translation + rotation per joint
  const std::vector<float> times = Read<float>(gltf, animation.samplers[0].input);
  EXPECT_EQ(times, (std::vector<float>{0.0f, 0.1f, 0.2f}));  // 3 frames at 10 fps
  for (const tinygltf::AnimationSampler& sampler : animation.samplers) {
    EXPECT_EQ(sampler.interpolation, "LINEAR");
  }
  // Each key is the animation's own local pose of that frame.
  for (const tinygltf::AnimationChannel& channel : animation.channels) {
    const int joint = channel.target_node - 1;
    const std::vector<float> values =
        Read<float>(gltf, animation.samplers[static_cast<size_t>(channel.sampler)].output);
    for (int frame = 0; frame < 3; ++frame) {
      const anim::JointTransform& local = f.animations[0].frame(frame)[joint];
      if (channel.target_path == "translation") {
        EXPECT_TRUE(anim::testing::Near(
            {values[frame * 3], values[frame * 3 + 1], values[frame * 3 + 2]}, local.translation));
      } else {
        const glm::quat q(values[frame * 4 + 3], values[frame * 4], values[frame * 4 + 1],
                          values[frame * 4 + 2]);
        EXPECT_TRUE(anim::testing::SameRotation(q, local.rotation));
        EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
      }
    }
  }
}

TEST(GltfExportJob, RotationKeysStayOnOneHemisphereThroughAHalfTurn) {
  // The root turns about X from 0 to 360 degrees in 45-degree steps: the stored quaternions
  // (w = -sqrt(1 - |xyz|^2) in MD5) would cross hemispheres; the exported keys must not.
  std::string frames;
  for (int f = 0; f <= 8; ++f) {
    const double half = f * 45.0 * M_PI / 360.0;
    // MD5 stores x, y, z and takes w <= 0: write the rotation on the w <= 0 side.
    double x = std::sin(half), w = std::cos(half);
    if (w > 0) x = -x;
    std::ostringstream line;
    line.precision(9);
    line << "frame " << f << " {\n\t" << x << "\n}\n";
    frames += line.str();
  }
  const std::string anim =
      "MD5Version 10\nnumFrames 9\nnumJoints 2\nframeRate 8\nnumAnimatedComponents 1\n"
      "hierarchy {\n\"root\" -1 8 0\n\"child\" 0 0 1\n}\nbounds {\n"
      "( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n"
      "( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n"
      "( 0 0 0 ) ( 0 0 0 )\n}\nbaseframe {\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 1 ) ( 0 0 0 )\n}\n" +
      frames;
  const Fixture f = MakeFixture(kMeshFixture, {anim});
  GltfFiles files;
  ASSERT_TRUE(MakeJob(f, &files, nullptr).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  const tinygltf::Animation& animation = gltf.animations[0];
  const std::vector<float> q = Read<float>(gltf, animation.samplers[1].output);  // root rotation
  ASSERT_EQ(animation.channels[1].target_path, "rotation");
  ASSERT_EQ(q.size(), 36u);
  for (size_t k = 4; k < q.size(); k += 4) {
    const float dot =
        q[k] * q[k - 4] + q[k + 1] * q[k - 3] + q[k + 2] * q[k - 2] + q[k + 3] * q[k - 1];
    EXPECT_GT(dot, 0.9f) << "key " << k / 4;  // 45 degrees apart: cos(22.5) = 0.92
  }
  // Still the same orientations as the file's frames.
  for (int frame = 0; frame < 9; ++frame) {
    const glm::quat key(q[frame * 4 + 3], q[frame * 4], q[frame * 4 + 1], q[frame * 4 + 2]);
    EXPECT_TRUE(anim::testing::SameRotation(key, f.animations[0].frame(frame)[0].rotation));
  }
}

// ---- the 4-weight reduction ----------------------------------------------------------------

// Vertex 0 has five weights: 0.1 (joint 0, dropped), 0.3 (joint 0), 0.2 (joint 1), 0.25
// (joint 1), 0.15 (joint 0); the kept four name each joint twice.
const char kFiveWeights[] =
    "MD5Version 10\nnumJoints 2\nnumMeshes 1\njoints {\n"
    "\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n}\n"
    "mesh {\nshader \"first\"\nnumverts 3\n"
    "vert 0 ( 0.25 0.5 ) 0 5\nvert 1 ( 0 0 ) 5 1\nvert 2 ( 1 0 ) 6 1\nnumtris 1\ntri 0 0 1 2\n"
    "numweights 7\n"
    "weight 0 0 0.1 ( 2 0 0 )\nweight 1 0 0.3 ( 1 0 0 )\nweight 2 1 0.2 ( 1 0 -1 )\n"
    "weight 3 1 0.25 ( 1 0 -1 )\nweight 4 0 0.15 ( 1 0 0 )\nweight 5 0 1 ( 0 1 0 )\n"
    "weight 6 1 1 ( 0 0 0 )\n}\n";

TEST(GltfExportJob, KeepsFourWeightsMergedPerJointAndWarnsHowFarAVertexMoves) {
  const Fixture f = MakeFixture(kFiveWeights, {kAnimFixture});
  GltfFiles files;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(MakeJob(f, &files, &warnings).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  const tinygltf::Primitive& primitive = gltf.meshes[0].primitives[0];
  const std::vector<uint16_t> joints = Read<uint16_t>(gltf, primitive.attributes.at("JOINTS_0"));
  const std::vector<float> weights = Read<float>(gltf, primitive.attributes.at("WEIGHTS_0"));
  // Joint 0 keeps 0.3 + 0.15, joint 1 keeps 0.25 + 0.2, out of the kept 0.9; no joint twice.
  EXPECT_EQ(joints[0], 0);
  EXPECT_EQ(joints[1], 1);
  EXPECT_NEAR(weights[0], 0.45f / 0.9f, 1e-6f);
  EXPECT_NEAR(weights[1], 0.45f / 0.9f, 1e-6f);
  EXPECT_EQ(weights[2], 0.0f);
  EXPECT_EQ(weights[3], 0.0f);
  EXPECT_EQ(joints[2], 0);
  EXPECT_EQ(joints[3], 0);
  for (size_t v = 0; v < weights.size() / 4; ++v) {
    EXPECT_EQ(weights[v * 4] + weights[v * 4 + 1] + weights[v * 4 + 2] + weights[v * 4 + 3], 1.0f)
        << v;
  }
  // The warning states the largest displacement over the exported frames, which is the viewer's
  // own measure (MeasureGpuSkinningError) at its worst frame.
  float worst = 0.0f;
  anim::Pose pose(2);
  for (int frame = 0; frame < f.animations[0].frame_count(); ++frame) {
    anim::SampleJob sample;
    sample.animation = &f.animations[0];
    sample.frame = frame;
    sample.output = pose.locals;
    anim::LocalToModelJob to_model;
    to_model.skeleton = &f.model->skeleton();
    to_model.locals = pose.locals;
    to_model.models = pose.models;
    ASSERT_TRUE(sample.Run() && to_model.Run());
    worst = std::max(worst, anim::MeasureGpuSkinningError(*f.model, pose.models).distance);
  }
  ASSERT_GT(worst, 0.0f);
  ASSERT_EQ(warnings.size(), 1u);
  const std::string& message = warnings[0].message;
  EXPECT_NE(message.find("1 vertices have more than 4 weights"), std::string::npos) << message;
  std::ostringstream figure;
  figure.precision(6);
  figure << "by at most " << worst << " units";
  EXPECT_NE(message.find(figure.str()), std::string::npos) << message << " / " << figure.str();
  EXPECT_NE(message.find("10% of a vertex's weight dropped"), std::string::npos) << message;
}

TEST(GltfExportJob, NoWarningWhenEveryVertexHasFourWeightsOrFewer) {
  const Fixture f = MakeFixture();
  GltfFiles files;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(MakeJob(f, &files, &warnings).Run().ok());
  EXPECT_TRUE(warnings.empty());
}

// ---- images, names, the .gltf form ---------------------------------------------------------

TEST(GltfExportJob, EmbedsTheDiffuseImageAsIsAndSharesItBetweenParts) {
  const std::string two_parts =
      std::string(kMeshFixture)
          .replace(std::string(kMeshFixture).find("numMeshes 1"), 11, "numMeshes 2") +
      "mesh {\n\tshader \"other\"\n\tnumverts 3\n\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n"
      "\tvert 2 ( 0 1 ) 2 1\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 3\n"
      "\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 0 1 ( 1 0 0 )\n\tweight 2 1 1 ( 0 1 0 )\n}\n";
  const Fixture f = MakeFixture(two_parts, {});
  const std::vector<ExportImage> images{{"skin.png", "image/png", &kPngBytes}};
  const std::vector<ExportPartMaps> part_maps{{0, -1, -1}, {0, -1, -1}};
  GltfFiles files;
  GltfExportJob job = MakeJob(f, &files, nullptr);
  job.images = images;
  job.part_maps = part_maps;
  ASSERT_TRUE(job.Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  ASSERT_EQ(gltf.images.size(), 1u);
  ASSERT_EQ(gltf.textures.size(), 1u);
  ASSERT_EQ(gltf.materials.size(), 2u);
  EXPECT_EQ(gltf.materials[0].name, "skin");
  EXPECT_EQ(gltf.materials[1].name, "other");
  EXPECT_EQ(gltf.materials[0].pbrMetallicRoughness.baseColorTexture.index, 0);
  EXPECT_EQ(gltf.materials[1].pbrMetallicRoughness.baseColorTexture.index, 0);
  EXPECT_EQ(gltf.images[0].mimeType, "image/png");
  const tinygltf::BufferView& view =
      gltf.bufferViews[static_cast<size_t>(gltf.images[0].bufferView)];
  const std::vector<unsigned char>& data = gltf.buffers[0].data;
  EXPECT_EQ(std::string(data.begin() + static_cast<long>(view.byteOffset),
                        data.begin() + static_cast<long>(view.byteOffset + view.byteLength)),
            kPngBytes);
}

TEST(GltfExportJob, NamesThatAreNotUtf8AreRepairedNotRefused) {
  const Fixture f = MakeFixture(Replace(kMeshFixture, "\"child\"", "\"ch\xFFld\""), {});
  GltfFiles files;
  ASSERT_TRUE(MakeJob(f, &files, nullptr).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  EXPECT_EQ(gltf.nodes[2].name, "ch\xEF\xBF\xBDld");
}

TEST(GltfExportJob, GltfFormRefersToItsBinWhichHoldsTheGlbBuffer) {
  const Fixture f = MakeFixture();
  GltfFiles glb, text;
  ASSERT_TRUE(MakeJob(f, &glb, nullptr).Run().ok());
  GltfExportJob job = MakeJob(f, &text, nullptr);
  job.container = GltfContainer::kGltfSeparateBin;
  job.bin_uri = "my model.bin";
  ASSERT_TRUE(job.Run().ok());
  EXPECT_NE(text.main.find("\"uri\": \"my%20model.bin\""), std::string::npos) << text.main;
  EXPECT_EQ(text.main.find("base64"), std::string::npos);
  const tinygltf::Model gltf = ReadGlb(glb.main);
  EXPECT_EQ(text.bin, std::string(gltf.buffers[0].data.begin(), gltf.buffers[0].data.end()));
  EXPECT_TRUE(glb.bin.empty());
}

TEST(GltfExportJob, LeavesOutMeshPartsWithoutTrianglesWithAWarning) {
  const std::string with_empty =
      std::string(kMeshFixture)
          .replace(std::string(kMeshFixture).find("numMeshes 1"), 11, "numMeshes 2") +
      "mesh {\n\tshader \"empty\"\n\tnumverts 0\n\tnumtris 0\n\tnumweights 0\n}\n";
  const Fixture f = MakeFixture(with_empty, {});
  GltfFiles files;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(MakeJob(f, &files, &warnings).Run().ok());
  const tinygltf::Model gltf = ReadGlb(files.main);
  EXPECT_EQ(gltf.meshes.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("left out: 1"), std::string::npos) << warnings[0].message;
}

}  // namespace
}  // namespace md5stage::convert
