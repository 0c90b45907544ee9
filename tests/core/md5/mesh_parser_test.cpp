// .md5mesh parsing: every format feature on hand-made fixtures, every validation error with its
// message and location, and the load warnings.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/md5/md5_parser.h"
#include "test_fixtures.h"

namespace md5stage::md5 {
namespace {

using testing::kMeshFixture;
using testing::Replace;

TEST(MeshParser, ReadsEveryStructure) {
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", kMeshFixture);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  const MeshFile& file = result.value();
  EXPECT_EQ(file.file_name, "m.md5mesh");
  EXPECT_EQ(file.version, 10);
  EXPECT_EQ(file.commandline, "test");
  ASSERT_EQ(file.joints.size(), 2u);
  EXPECT_EQ(file.joints[1].index, 1);
  EXPECT_EQ(file.joints[1].name, "child");
  EXPECT_EQ(file.joints[1].parent, 0);
  EXPECT_EQ(file.joints[1].parent_name, "root");
  EXPECT_EQ(file.joints[0].parent_name, "");
  EXPECT_EQ(file.joints[1].position, glm::vec3(0, 0, 1));
  EXPECT_EQ(file.joints[1].line, 9);
  ASSERT_EQ(file.meshes.size(), 1u);
  const MeshPart& mesh = file.meshes[0];
  EXPECT_EQ(mesh.shader, "skin");
  EXPECT_EQ(mesh.line, 12);
  ASSERT_EQ(mesh.vertices.size(), 3u);
  EXPECT_EQ(mesh.vertices[1].uv, glm::vec2(1, 0));
  EXPECT_EQ(mesh.vertices[2].first_weight, 2);
  EXPECT_EQ(mesh.vertices[2].weight_count, 1);
  ASSERT_EQ(mesh.triangles.size(), 1u);
  EXPECT_EQ(mesh.triangles[0].vertices[0], 0u);
  EXPECT_EQ(mesh.triangles[0].vertices[2], 2u);
  ASSERT_EQ(mesh.weights.size(), 3u);
  EXPECT_EQ(mesh.weights[2].joint, 1);
  EXPECT_EQ(mesh.weights[2].bias, 1.0f);
  EXPECT_EQ(mesh.weights[1].position, glm::vec3(1, 0, 0));
  EXPECT_TRUE(file.warnings.empty());
  EXPECT_EQ(file.vertex_count(), 3);
  EXPECT_EQ(file.triangle_count(), 1);
  EXPECT_EQ(file.weight_count(), 3);
  EXPECT_EQ(file.max_weights_per_vertex(), 1);
}

// Real exporters: comments after lines with and without a space, block comments, tabs, CRLF, a
// BOM, integers as floats, exponents, -0.000000, an empty shader, a Windows path, two meshes, a
// mesh without a shader line, numMeshes before numJoints.
TEST(MeshParser, AcceptsTheConventionsSeenInTheWild) {
  const std::string text =
      "\xEF\xBB\xBFMD5Version 10 // version\r\n"
      "commandline \"-dest x\"\r\n"
      "numMeshes 3\r\n"
      "numJoints 1//joints\r\n"
      "joints {\r\n"
      "\t\"origin\"\t-1 ( 1.5e1 -2 +3 ) ( -0.000000 0 0 )\t\t// \r\n"
      "}\r\n"
      "/* a block\r\n comment */\r\n"
      "mesh {\r\n shader \"\"\r\n numverts 1\r\n vert 0 ( 0 1 ) 0 1\r\n"
      " numtris 0\r\n numweights 1\r\n weight 0 0 1 ( 1E-1 0 0 )\r\n}\r\n"
      "mesh {\r\n shader \"C:\\Users\\x\\skin.tga\"\r\n numverts 0\r\n numtris 0\r\n"
      " numweights 0\r\n}\r\n"
      "mesh {\r\n numverts 0\r\n numtris 0\r\n numweights 0\r\n}\r\n";
  Result<MeshFile> result = ParseMd5Mesh("w.md5mesh", text);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  const MeshFile& file = result.value();
  EXPECT_EQ(file.commandline, "-dest x");
  EXPECT_EQ(file.joints[0].position, glm::vec3(15, -2, 3));
  EXPECT_TRUE(std::signbit(file.joints[0].orientation_xyz.x));
  ASSERT_EQ(file.meshes.size(), 3u);
  EXPECT_EQ(file.meshes[0].shader, "");
  EXPECT_EQ(file.meshes[0].weights[0].position.x, 0.1f);
  EXPECT_EQ(file.meshes[1].shader, "C:\\Users\\x\\skin.tga");
  EXPECT_EQ(file.meshes[2].shader, "");
  EXPECT_EQ(file.meshes[2].line, 24);
}

struct QuatCase {
  glm::vec3 xyz;
  glm::quat expected;  // (w, x, y, z)
};

class QuaternionW : public ::testing::TestWithParam<QuatCase> {};

TEST_P(QuaternionW, IsMinusSqrtOfTheRestThenNormalized) {
  const glm::quat q = QuatFromXyz(GetParam().xyz);
  const glm::quat& e = GetParam().expected;
  EXPECT_NEAR(q.w, e.w, 1e-6f);
  EXPECT_NEAR(q.x, e.x, 1e-6f);
  EXPECT_NEAR(q.y, e.y, 1e-6f);
  EXPECT_NEAR(q.z, e.z, 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(Cases, QuaternionW,
                         ::testing::Values(QuatCase{{0, 0, 0}, {-1, 0, 0, 0}},
                                           QuatCase{{0.6f, 0, 0}, {-0.8f, 0.6f, 0, 0}},
                                           QuatCase{{0, 0, -0.6f}, {-0.8f, 0, 0, -0.6f}},
                                           // Radicand below zero: w = 0, then normalized.
                                           QuatCase{{1, 1, 0}, {0, 0.70710678f, 0.70710678f, 0}},
                                           QuatCase{{0, 2, 0}, {0, 0, 1, 0}}));

struct ErrorCase {
  const char* name;
  const char* from;  // replaced in kMeshFixture...
  const char* to;    // ...by this
  int line;
  int column;
  const char* message;
};

class MeshErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(MeshErrors, ReportMessageAndLocation) {
  const ErrorCase& c = GetParam();
  Md5Limits limits;
  limits.allow_multiple_roots = false;
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", Replace(kMeshFixture, c.from, c.to), limits);
  ASSERT_FALSE(result.ok());
  const Diagnostic& error = result.error();
  EXPECT_EQ(error.severity, Diagnostic::Severity::kError);
  EXPECT_EQ(error.file, "m.md5mesh");
  EXPECT_EQ(error.message, c.message);
  EXPECT_EQ(error.line, c.line);
  EXPECT_EQ(error.column, c.column);
}

INSTANTIATE_TEST_SUITE_P(
    Table, MeshErrors,
    ::testing::Values(
        ErrorCase{"WrongVersion", "MD5Version 10", "MD5Version 11", 1, 12,
                  "expected MD5Version 10, found '11'"},
        ErrorCase{"NotMd5", "MD5Version 10", "OBJ 1", 1, 1, "expected 'MD5Version', found 'OBJ'"},
        ErrorCase{"MissingNumMeshes", "numMeshes 1\n", "", 6, 1,
                  "expected 'numMeshes', found 'joints'"},
        ErrorCase{"MoreJointsDeclared", "numJoints 2", "numJoints 3", 10, 1,
                  "expected joint 2's quoted name (numJoints is 3), found '}'"},
        ErrorCase{"FewerJointsDeclared", "numJoints 2", "numJoints 1", 9, 2,
                  "expected '}' (numJoints is 1), found \"child\""},
        ErrorCase{"NoJoints", "numJoints 2", "numJoints 0", 4, 11,
                  "expected numJoints of at least 1, found '0'"},
        ErrorCase{
            "ParentAfterChild", "\"child\" 0", "\"child\" 1", 9, 10,
            "expected a parent joint index below 1 (parents come before children), found '1'"},
        ErrorCase{"ParentOutOfRange", "\"child\" 0", "\"child\" 5", 9, 10,
                  "expected a parent joint index from -1 to 1, found '5'"},
        ErrorCase{"ParentBelowMinusOne", "\"child\" 0", "\"child\" -2", 9, 10,
                  "expected a parent joint index from -1 to 1, found '-2'"},
        ErrorCase{"SecondRoot", "\"child\" 0", "\"child\" -1", 9, 10,
                  "expected one root joint (\"root\" at line 8 is the root), found a second root "
                  "\"child\""},
        ErrorCase{"MoreVerticesDeclared", "numverts 3", "numverts 4", 18, 2,
                  "expected vert 3 of 4 (numverts), found 'numtris'"},
        ErrorCase{"FewerVerticesDeclared", "numverts 3", "numverts 2", 17, 2,
                  "expected 'numtris' (numverts is 2), found 'vert'"},
        ErrorCase{"MoreTrianglesDeclared", "numtris 1", "numtris 2", 20, 2,
                  "expected tri 1 of 2 (numtris), found 'numweights'"},
        ErrorCase{"FewerTrianglesDeclared", "numtris 1", "numtris 0", 19, 2,
                  "expected 'numweights' (numtris is 0), found 'tri'"},
        ErrorCase{"MoreWeightsDeclared", "numweights 3", "numweights 4", 24, 1,
                  "expected weight 3 of 4 (numweights), found '}'"},
        ErrorCase{"FewerWeightsDeclared", "numweights 3", "numweights 2", 23, 2,
                  "expected '}' closing mesh 0 (numweights is 2), found 'weight'"},
        ErrorCase{"MoreMeshesDeclared", "numMeshes 1", "numMeshes 2", 25, 1,
                  "expected mesh 1 of 2 (numMeshes), found end of file"},
        ErrorCase{"FewerMeshesDeclared", "numMeshes 1", "numMeshes 0", 12, 1,
                  "expected end of file (numMeshes is 0), found 'mesh'"},
        ErrorCase{"VertexIndexOutOfOrder", "vert 1", "vert 5", 16, 7,
                  "expected vertex index 1, found '5'"},
        ErrorCase{"TriangleIndexOutOfOrder", "tri 0", "tri 4294967295", 19, 6,
                  "expected triangle index 0, found '4294967295'"},
        ErrorCase{"WeightIndexOutOfOrder", "weight 2", "weight 1", 23, 9,
                  "expected weight index 2, found '1'"},
        ErrorCase{"WeightJointOutOfRange", "weight 2 1", "weight 2 7", 23, 11,
                  "expected a joint index from 0 to 1, found '7'"},
        ErrorCase{"VertexWeightsOutOfRange", "( 0 1 ) 2 1", "( 0 1 ) 2 2", 17, 17,
                  "expected vert 2's weights within the mesh's 3 weights (numweights), found 2 "
                  "weights from index 2"},
        ErrorCase{"VertexFirstWeightOutOfRange", "( 1 0 ) 1 1", "( 1 0 ) 9 1", 16, 17,
                  "expected vert 1's weights within the mesh's 3 weights (numweights), found 1 "
                  "weights from index 9"},
        ErrorCase{"NegativeWeightCount", "( 1 0 ) 1 1", "( 1 0 ) 1 -1", 16, 19,
                  "expected a weight count from 0 to 67108864, found '-1'"},
        ErrorCase{"TriangleVertexOutOfRange", "tri 0 0 1 2", "tri 0 0 1 3", 19, 12,
                  "expected a vertex index from 0 to 2, found '3'"},
        ErrorCase{"NaN", "( 1 0 0 )", "( nan 0 0 )", 22, 17, "expected a number, found 'nan'"},
        ErrorCase{"Infinity", "( 1 0 0 )", "( 1e999 0 0 )", 22, 17,
                  "expected a number within float range, found '1e999'"},
        ErrorCase{"NaNBias", "weight 1 0 1", "weight 1 0 -nan", 22, 13,
                  "expected a number (weight bias), found '-nan'"},
        ErrorCase{"NaNInJoint", "( 0 0 1 )", "( 0 0 1.#QNAN )", 9, 18,
                  "expected a number, found '1.#QNAN'"},
        ErrorCase{"HugeVertexCount", "numverts 3", "numverts 4294967295", 14, 11,
                  "expected numverts of at most 16777216 (the loader's limit), found "
                  "'4294967295'"},
        ErrorCase{"VertexCountBeyondFile", "numverts 3", "numverts 100000", 14, 11,
                  "expected numverts of at most 12 (what the 171 bytes left in the file can "
                  "hold), found '100000'"},
        ErrorCase{"HugeJointCount", "numJoints 2", "numJoints 65536", 4, 11,
                  "expected numJoints of at most 65535 (the loader's limit), found '65536'"},
        ErrorCase{"JointCountBeyondFile", "numJoints 2", "numJoints 50000", 4, 11,
                  "expected numJoints of at most 16 (what the 293 bytes left in the file can "
                  "hold), found '50000'"},
        ErrorCase{"WeightCountBeyondFile", "numweights 3", "numweights 9", 20, 13,
                  "expected numweights of at most 4 (what the 73 bytes left in the file can "
                  "hold), found '9'"},
        ErrorCase{"NegativeCount", "numtris 1", "numtris -1", 18, 10,
                  "expected numtris of at least 0, found '-1'"},
        ErrorCase{"FloatCount", "numverts 3", "numverts 3.0", 14, 11,
                  "expected an integer after numverts, found '3.0'"},
        ErrorCase{"MissingParenthesis", "vert 0 ( 0 0 )", "vert 0 0 0 )", 15, 9,
                  "expected '(', found '0'"},
        ErrorCase{"ExtraTupleValue", "( 0 1 0 )", "( 0 1 0 0 )", 23, 23,
                  "expected ')' after 3 numbers, found '0'"},
        ErrorCase{"UnclosedShader", "\"skin\"", "\"skin", 13, 9,
                  "expected a closing '\"' on the same line, found end of line"},
        ErrorCase{"TrailingText", "( 0 1 0 )\n}\n", "( 0 1 0 )\n}\nextra\n", 25, 1,
                  "expected end of file (numMeshes is 1), found 'extra'"},
        ErrorCase{"UnknownMeshKeyword", "shader \"skin\"", "material \"skin\"", 13, 2,
                  "expected 'shader' or 'numverts', found 'material'"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST(MeshParser, EmptyInputIsAnError) {
  Result<MeshFile> result = ParseMd5Mesh("e.md5mesh", "");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().ToString(),
            "e.md5mesh:1:1: error: expected 'MD5Version', found end of file");
}

TEST(MeshParser, RejectsFilesAboveTheSizeLimitBeforeParsing) {
  Md5Limits limits;
  limits.max_file_bytes = 100;
  Result<MeshFile> result = ParseMd5Mesh("big.md5mesh", kMeshFixture, limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message,
            "expected a file of at most 100 bytes (the loader's limit), found " +
                std::to_string(sizeof kMeshFixture - 1) + " bytes");
}

TEST(MeshParser, LimitsAreConfigurable) {
  Md5Limits limits;
  limits.max_vertices_per_mesh = 2;
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", kMeshFixture, limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message,
            "expected numverts of at most 2 (the loader's limit), found '3'");
}

TEST(MeshParser, ASecondRootIsAWarningByDefault) {
  Result<MeshFile> result =
      ParseMd5Mesh("m.md5mesh", Replace(kMeshFixture, "\"child\" 0", "\"child\" -1"));
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  ASSERT_EQ(result.value().warnings.size(), 1u);
  const Diagnostic& warning = result.value().warnings[0];
  EXPECT_EQ(warning.severity, Diagnostic::Severity::kWarning);
  EXPECT_EQ(warning.line, 9);
  EXPECT_EQ(warning.message,
            "joint \"child\" is a second root (\"root\" at line 8 is the first); every root "
            "takes the character's transform");
}

TEST(MeshParser, WarnsWhenWeightsDoNotSumToOne) {
  const std::string text = Replace(Replace(kMeshFixture, "weight 0 0 1", "weight 0 0 0.5"),
                                   "weight 2 1 1", "weight 2 1 1.25");
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", text);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  ASSERT_EQ(result.value().warnings.size(), 1u);
  const Diagnostic& warning = result.value().warnings[0];
  EXPECT_EQ(warning.ToString(),
            "m.md5mesh:15:17: warning: mesh 0 (shader \"skin\"): 2 of 3 vertices have weights "
            "that do not sum to 1 (vert 0 sums to 0.5); the viewer normalizes them, 'md5stage "
            "pose' uses the plain weighted sum unless --normalize");
}

TEST(MeshParser, SumsWithinToleranceDoNotWarn) {
  const std::string text = Replace(kMeshFixture, "weight 0 0 1", "weight 0 0 0.9999");
  Result<MeshFile> result = ParseMd5Mesh("m.md5mesh", text);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.value().warnings.empty());
}

// Vertex 0 has five weights on two joints; the smallest (0.1) is dropped. Joint 1 sits at
// (0, 0, 1), so the weight positions below all put the vertex at (1, 0, 0) except the dropped one
// at (2, 0, 0): full = 0.9 * (1,0,0) + 0.1 * (2,0,0) = (1.1, 0, 0); kept = (1, 0, 0).
const char kFiveWeights[] =
    "MD5Version 10\n"
    "numJoints 2\n"
    "numMeshes 1\n"
    "joints {\n"
    "\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n"
    "\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n"
    "}\n"
    "mesh {\n"
    "shader \"s\"\n"
    "numverts 2\n"
    "vert 0 ( 0 0 ) 0 5\n"  // line 11
    "vert 1 ( 0 0 ) 5 1\n"
    "numtris 0\n"
    "numweights 6\n"
    "weight 0 0 0.1 ( 2 0 0 )\n"
    "weight 1 0 0.3 ( 1 0 0 )\n"
    "weight 2 1 0.2 ( 1 0 -1 )\n"
    "weight 3 1 0.25 ( 1 0 -1 )\n"
    "weight 4 0 0.15 ( 1 0 0 )\n"
    "weight 5 0 1 ( 0 0 0 )\n"
    "}\n";

TEST(MeshParser, WarnsAboutMoreThanFourInfluencesWithTheWorstError) {
  Result<MeshFile> result = ParseMd5Mesh("five.md5mesh", kFiveWeights);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result.value().max_weights_per_vertex(), 5);
  ASSERT_EQ(result.value().warnings.size(), 1u);
  const Diagnostic& warning = result.value().warnings[0];
  EXPECT_EQ(warning.line, 11);
  EXPECT_EQ(warning.message,
            "mesh 0 (shader \"s\"): 1 of 2 vertices have more than 4 weights (up to 5); the GPU "
            "path keeps the 4 largest and renormalizes: worst dropped weight 0.1 (vert 0), worst "
            "bind-pose vertex error 0.1 units (vert 0)");
}

}  // namespace
}  // namespace md5stage::md5

namespace md5stage::md5 {
namespace {

TEST(DetectMd5Kind, UsesTheExtensionThenTheHeader) {
  EXPECT_EQ(DetectMd5Kind("a/b.md5mesh", ""), Md5Kind::kMesh);
  EXPECT_EQ(DetectMd5Kind("B.MD5ANIM", ""), Md5Kind::kAnim);
  EXPECT_EQ(DetectMd5Kind("blob", testing::kMeshFixture), Md5Kind::kMesh);
  EXPECT_EQ(DetectMd5Kind("blob", testing::kAnimFixture), Md5Kind::kAnim);
  EXPECT_EQ(DetectMd5Kind("notes.txt", "hello"), Md5Kind::kUnknown);
  EXPECT_EQ(DetectMd5Kind("md5mesh", ""), Md5Kind::kUnknown);
}

}  // namespace
}  // namespace md5stage::md5
