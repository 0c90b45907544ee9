#include "core/md5/mesh_pack.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "core/md5/md5_parser.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

MeshFile ParseOrDie(const std::string& name, const std::string& text) {
  Result<MeshFile> mesh = ParseMd5Mesh(name, text);
  EXPECT_TRUE(mesh.ok()) << mesh.error().ToString();
  return mesh.ok() ? mesh.value() : MeshFile();
}

std::string PackOrDie(const MeshFile& mesh) {
  Result<std::string> pack = EncodeMeshPack(mesh);
  EXPECT_TRUE(pack.ok()) << pack.error().ToString();
  return pack.ok() ? pack.value() : std::string();
}

std::string ReadWalker() {
  std::ifstream in(std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/walker.md5mesh",
                   std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

glm::vec3 BindPosition(const MeshFile& file, const MeshPart& part, const MeshVertex& vertex) {
  glm::vec3 sum(0.0f);
  for (int i = 0; i < vertex.weight_count; ++i) {
    const MeshWeight& w = part.weights[vertex.first_weight + i];
    const MeshJoint& joint = file.joints[w.joint];
    sum += w.bias * (joint.position + joint.orientation * w.position);
  }
  return sum;
}

// Every joint exact; every vertex's weights, UVs and bind position within the pack's stated
// tolerance of the text's; triangles the same.
void ExpectSameModel(const MeshFile& text, const MeshFile& pack) {
  ASSERT_EQ(text.joints.size(), pack.joints.size());
  for (std::size_t j = 0; j < text.joints.size(); ++j) {
    EXPECT_EQ(text.joints[j].name, pack.joints[j].name);
    EXPECT_EQ(text.joints[j].parent, pack.joints[j].parent);
    EXPECT_EQ(text.joints[j].parent_name, pack.joints[j].parent_name);
    EXPECT_EQ(text.joints[j].position, pack.joints[j].position);
    EXPECT_EQ(text.joints[j].orientation_xyz, pack.joints[j].orientation_xyz);
  }
  EXPECT_EQ(text.commandline, pack.commandline);
  ASSERT_EQ(text.meshes.size(), pack.meshes.size());
  Result<std::string> packed = EncodeMeshPack(text);
  ASSERT_TRUE(packed.ok());
  Result<MeshPackLayout> layout = ReadMeshPackLayout("t", packed.value());
  ASSERT_TRUE(layout.ok()) << layout.error().ToString();
  for (std::size_t m = 0; m < text.meshes.size(); ++m) {
    const MeshPart& a = text.meshes[m];
    const MeshPart& b = pack.meshes[m];
    const MeshPackRange& range = layout.value().parts[m].range;
    EXPECT_EQ(a.shader, b.shader);
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    ASSERT_EQ(a.weights.size(), b.weights.size());
    ASSERT_EQ(a.triangles.size(), b.triangles.size());
    for (std::size_t t = 0; t < a.triangles.size(); ++t) {
      EXPECT_EQ(a.triangles[t].vertices, b.triangles[t].vertices) << "tri " << t;
    }
    const float bias_tolerance = MeshPackTolerance(range.bias_min, range.bias_max);
    glm::vec3 position_tolerance;
    for (int axis = 0; axis < 3; ++axis) {
      position_tolerance[axis] =
          MeshPackTolerance(range.position_min[axis], range.position_max[axis]);
    }
    for (std::size_t w = 0; w < a.weights.size(); ++w) {
      EXPECT_EQ(a.weights[w].joint, b.weights[w].joint) << "weight " << w;
      EXPECT_NEAR(a.weights[w].bias, b.weights[w].bias, bias_tolerance) << "weight " << w;
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(a.weights[w].position[axis], b.weights[w].position[axis],
                    position_tolerance[axis])
            << "weight " << w << " axis " << axis;
      }
    }
    for (std::size_t v = 0; v < a.vertices.size(); ++v) {
      EXPECT_EQ(a.vertices[v].first_weight, b.vertices[v].first_weight) << "vert " << v;
      EXPECT_EQ(a.vertices[v].weight_count, b.vertices[v].weight_count) << "vert " << v;
      for (int axis = 0; axis < 2; ++axis) {
        EXPECT_NEAR(a.vertices[v].uv[axis], b.vertices[v].uv[axis],
                    MeshPackTolerance(range.uv_min[axis], range.uv_max[axis]))
            << "vert " << v;
      }
      // A bind position moves by at most each weight's bias times its position's error (a
      // rotation keeps lengths) plus its bias's error times its full offset.
      float bound = 0.0f;
      for (int i = 0; i < a.vertices[v].weight_count; ++i) {
        const MeshWeight& w = a.weights[a.vertices[v].first_weight + i];
        const MeshJoint& joint = text.joints[w.joint];
        bound += std::fabs(w.bias) * glm::length(position_tolerance) +
                 bias_tolerance * glm::length(joint.position + joint.orientation * w.position);
      }
      const float error =
          glm::length(BindPosition(text, a, a.vertices[v]) - BindPosition(pack, b, b.vertices[v]));
      EXPECT_LE(error, bound + 1e-4f) << "vert " << v;
    }
  }
}

TEST(MeshPack, FixtureComesBackAsTheTextParses) {
  const MeshFile text = ParseOrDie("fixture.md5mesh", testing::kMeshFixture);
  const std::string pack = PackOrDie(text);
  EXPECT_TRUE(IsMeshPack(pack));
  Result<MeshFile> back = DecodeMeshPack("fixture.md5mesh", pack);
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  ExpectSameModel(text, back.value());
  // The fixture's values are the ends of their ranges: exact.
  EXPECT_EQ(back.value().meshes[0].weights[2].position, glm::vec3(0, 1, 0));
  EXPECT_EQ(back.value().meshes[0].vertices[1].uv, glm::vec2(1, 0));
}

TEST(MeshPack, WalkerEveryVertexWithinTheStatedTolerance) {
  const std::string walker = ReadWalker();
  ASSERT_FALSE(walker.empty());
  const MeshFile text = ParseOrDie("walker.md5mesh", walker);
  const std::string pack = PackOrDie(text);
  Result<MeshFile> back = DecodeMeshPack("walker.md5mesh", pack);
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  ExpectSameModel(text, back.value());
  // What the pack is for: fewer bytes than the text (gzip would keep the ratio near).
  EXPECT_LT(pack.size() * 3, walker.size());
  // The walker's tolerance in its own units (it is about 65 units tall).
  Result<MeshPackLayout> layout = ReadMeshPackLayout("walker.md5pack", pack);
  ASSERT_TRUE(layout.ok());
  const MeshPackRange& range = layout.value().parts[0].range;
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_LT(MeshPackTolerance(range.position_min[axis], range.position_max[axis]), 5e-4f);
  }
}

// Meshes a pack cannot hold exactly stay text: the packer says which and why.
TEST(MeshPack, EncodeRefusals) {
  struct Case {
    const char* name;
    std::function<void(MeshFile*)> change;
    const char* message_part;
  };
  const Case cases[] = {
      {"weights out of vertex order",
       [](MeshFile* m) { m->meshes[0].vertices[1].first_weight = 2; },
       "right after the previous vertex's"},
      {"a weight used by no vertex",
       [](MeshFile* m) { m->meshes[0].weights.push_back(m->meshes[0].weights[0]); },
       "every weight used once"},
      {"256 weights on a vertex", [](MeshFile* m) { m->meshes[0].vertices[2].weight_count = 256; },
       "at most 255"},
      {"65537 vertices", [](MeshFile* m) { m->meshes[0].vertices.resize(65537); },
       "at most 65536 vertices"},
  };
  for (const Case& c : cases) {
    MeshFile mesh = ParseOrDie("fixture.md5mesh", testing::kMeshFixture);
    c.change(&mesh);
    Result<std::string> pack = EncodeMeshPack(mesh);
    ASSERT_FALSE(pack.ok()) << c.name;
    EXPECT_NE(pack.error().message.find(c.message_part), std::string::npos)
        << c.name << ": " << pack.error().message;
    EXPECT_EQ(pack.error().file, "fixture.md5mesh") << c.name;
  }
}

// Byte offsets in the fixture's pack: magic 8, counts 12, commandline "test" 4, then joints.
constexpr std::size_t kFirstJointOffset = 24;

void PutU32(std::string* bytes, std::size_t offset, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) (*bytes)[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

// Bad packs are refused with a message naming the file; none crashes.
TEST(MeshPack, DecodeValidityTable) {
  const std::string good = PackOrDie(ParseOrDie("fixture.md5mesh", testing::kMeshFixture));
  // Offsets of the fixture's mesh: its header follows 2 joints of 2 + 4 + 4 + 24 bytes plus names.
  const std::size_t mesh_header = kFirstJointOffset + (2 + 4 + 4 + 24) + (2 + 5 + 4 + 24);
  const std::size_t arrays = mesh_header + 2 + 4 + 12 + 48;
  const std::size_t corners = arrays + 3 + 12;  // after the weight counts and the UV planes
  const std::size_t joints = corners + 6;       // after the triangle's corner planes
  struct Case {
    const char* name;
    std::function<void(std::string*)> change;
    const char* message_part;
  };
  const Case cases[] = {
      {"empty", [](std::string* b) { b->clear(); }, "expected 'MD5PACK'"},
      {"MD5 text", [](std::string* b) { *b = testing::kMeshFixture; }, "expected 'MD5PACK'"},
      {"version 2", [](std::string* b) { (*b)[7] = 2; }, "expected version 1, found 2"},
      {"no joints", [](std::string* b) { PutU32(b, 8, 0); }, "expected 1 to 65535 joints"},
      {"4 billion joints", [](std::string* b) { PutU32(b, 8, 0xffffffffu); },
       "joints, found 4294967295"},
      {"joints the bytes cannot hold", [](std::string* b) { PutU32(b, 8, 60000); }, "bytes left"},
      {"meshes past the limit", [](std::string* b) { PutU32(b, 12, 5000); }, "at most 4096 meshes"},
      {"a commandline past the end", [](std::string* b) { PutU32(b, 16, 1000); }, "found the end"},
      {"a parent after its joint", [](std::string* b) { PutU32(b, kFirstJointOffset + 2 + 4, 0); },
       "a joint before it"},
      {"a parent below -1",
       [](std::string* b) { PutU32(b, kFirstJointOffset + 2 + 4, 0xfffffffeu); }, "found -2"},
      {"a NaN joint position",
       [](std::string* b) { PutU32(b, kFirstJointOffset + 2 + 4 + 4, 0x7fc00000u); },
       "finite numbers for joint 0"},
      {"a NaN range", [=](std::string* b) { PutU32(b, mesh_header + 2 + 4 + 12, 0x7fc00000u); },
       "finite ranges"},
      {"too many vertices", [=](std::string* b) { PutU32(b, mesh_header + 2 + 4, 70000); },
       "within the limits"},
      {"one vertex more than the arrays hold",
       [=](std::string* b) { PutU32(b, mesh_header + 2 + 4, 4); }, "bytes of mesh 0's arrays"},
      {"a byte too many", [](std::string* b) { b->push_back('\0'); }, "found 1 more bytes"},
      {"a byte too few", [](std::string* b) { b->pop_back(); }, "bytes of mesh 0's arrays"},
      {"a corner past the vertices", [=](std::string* b) { (*b)[corners] = 3; },
       "tri 0 to name vertices below 3, found 3"},
      {"a weight's joint past the joints", [=](std::string* b) { (*b)[joints] = 2; },
       "a joint below 2, found 2"},
      {"weight counts using more weights than the mesh has",
       [=](std::string* b) { (*b)[arrays] = 2; }, "to use its 3 weights, found 4"},
  };
  for (const Case& c : cases) {
    std::string bytes = good;
    c.change(&bytes);
    Result<MeshFile> mesh = DecodeMeshPack("bad.md5mesh", bytes);
    ASSERT_FALSE(mesh.ok()) << c.name;
    EXPECT_NE(mesh.error().message.find(c.message_part), std::string::npos)
        << c.name << ": " << mesh.error().message;
    EXPECT_EQ(mesh.error().file, "bad.md5mesh") << c.name;
  }
  // Every prefix of a good pack is refused (never read past its end).
  for (std::size_t size = 0; size < good.size(); ++size) {
    EXPECT_FALSE(DecodeMeshPack("cut.md5mesh", good.substr(0, size)).ok()) << size;
  }
  EXPECT_TRUE(DecodeMeshPack("fixture.md5mesh", good).ok());
}

TEST(MeshPack, DecodeJobValidityTable) {
  const std::string pack = PackOrDie(ParseOrDie("fixture.md5mesh", testing::kMeshFixture));
  Result<MeshPackLayout> layout = ReadMeshPackLayout("fixture.md5pack", pack);
  ASSERT_TRUE(layout.ok());
  struct Case {
    const char* name;
    std::function<void(MeshPackDecodeJob*, MeshFile*)> change;
    bool valid;
  };
  const Case cases[] = {
      {"sized from the layout", [](MeshPackDecodeJob*, MeshFile*) {}, true},
      {"no layout", [](MeshPackDecodeJob* j, MeshFile*) { j->layout = nullptr; }, false},
      {"no output", [](MeshPackDecodeJob* j, MeshFile*) { j->mesh = nullptr; }, false},
      {"a mesh too many", [](MeshPackDecodeJob*, MeshFile* m) { m->meshes.emplace_back(); }, false},
      {"a vertex short", [](MeshPackDecodeJob*, MeshFile* m) { m->meshes[0].vertices.pop_back(); },
       false},
      {"a triangle more",
       [](MeshPackDecodeJob*, MeshFile* m) { m->meshes[0].triangles.emplace_back(); }, false},
      {"a weight short", [](MeshPackDecodeJob*, MeshFile* m) { m->meshes[0].weights.pop_back(); },
       false},
      {"bytes cut short",
       [&](MeshPackDecodeJob* j, MeshFile*) {
         j->bytes = std::string_view(pack).substr(0, pack.size() - 1);
       },
       false},
  };
  for (const Case& c : cases) {
    MeshFile mesh = SizeMeshFromLayout("fixture.md5mesh", layout.value());
    MeshPackDecodeJob job{pack, &layout.value(), &mesh};
    c.change(&job, &mesh);
    EXPECT_EQ(job.Validate(), c.valid) << c.name;
    EXPECT_EQ(job.Run(), c.valid) << c.name;
  }
}

// Half a step, plus two float epsilons of the range's largest magnitude (min + step * q rounds to
// a float).
TEST(MeshPack, ToleranceIsHalfAStepAndTheRounding) {
  const float epsilon = std::numeric_limits<float>::epsilon();
  EXPECT_FLOAT_EQ(MeshPackTolerance(0.0f, 65535.0f), 0.5f + 65535.0f * 2.0f * epsilon);
  EXPECT_FLOAT_EQ(MeshPackTolerance(-1.0f, 1.0f), 1.0f / 65535.0f + 2.0f * epsilon);
  EXPECT_FLOAT_EQ(MeshPackTolerance(3.0f, 3.0f), 3.0f * 2.0f * epsilon);  // one value
}

}  // namespace
}  // namespace md5stage::md5
