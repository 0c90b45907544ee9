// The parsers read vert/tri/weight/frame lines through a fast LineScanner and fall back to the
// checked tokenizer on anything unusual. These tests hold the two readers to the same results
// and the same messages, on generated files and thousands of single-byte mutations of them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "core/md5/md5_parser.h"
#include "core/md5/tokenizer.h"

namespace md5stage::md5 {
namespace {

std::string Bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return std::to_string(bits);
}

// Everything a parse produced, as text, so two parses compare with one EXPECT_EQ.
std::string Describe(const Result<MeshFile>& result) {
  if (!result.ok()) return "error: " + result.error().message;
  const MeshFile& file = result.value();
  std::string out;
  for (const MeshJoint& joint : file.joints) {
    out += joint.name + " " + std::to_string(joint.parent) + " " + Bits(joint.position.x) + " " +
           Bits(joint.orientation.w) + " line " + std::to_string(joint.line) + "\n";
  }
  for (const MeshPart& mesh : file.meshes) {
    out += "mesh " + mesh.shader + " line " + std::to_string(mesh.line) + "\n";
    for (const MeshVertex& v : mesh.vertices) {
      out += Bits(v.uv.x) + " " + Bits(v.uv.y) + " " + std::to_string(v.first_weight) + " " +
             std::to_string(v.weight_count) + "\n";
    }
    for (const MeshTriangle& t : mesh.triangles) {
      out += std::to_string(t.vertices[0]) + " " + std::to_string(t.vertices[1]) + " " +
             std::to_string(t.vertices[2]) + "\n";
    }
    for (const MeshWeight& w : mesh.weights) {
      out += std::to_string(w.joint) + " " + Bits(w.bias) + " " + Bits(w.position.x) + " " +
             Bits(w.position.y) + " " + Bits(w.position.z) + "\n";
    }
  }
  for (const Diagnostic& warning : file.warnings) out += "warning: " + warning.message + "\n";
  return out;
}

std::string Describe(const Result<AnimFile>& result) {
  if (!result.ok()) return "error: " + result.error().message;
  const AnimFile& file = result.value();
  std::string out;
  for (const float value : file.frame_components) out += Bits(value) + " ";
  for (const AnimBounds& bounds : file.bounds) out += Bits(bounds.min.x) + " " + Bits(bounds.max.z);
  for (const Diagnostic& warning : file.warnings) out += "warning: " + warning.message + "\n";
  return out;
}

// Numbers the way different exporters print them.
std::string RandomNumber(std::mt19937& random) {
  std::uniform_real_distribution<double> value(-40.0, 40.0);
  const double x = value(random);
  static const char* const kFormats[] = {"%.6f", "%.10f", "%.3f", "%.0f", "%g", "%.12f", "%.4e"};
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, kFormats[random() % 7], x);
  return buffer;
}

std::string GeneratedMesh(std::mt19937& random) {
  constexpr int kVertices = 30;
  constexpr int kWeights = 40;
  std::string text =
      "MD5Version 10\ncommandline \"generated\"\n\nnumJoints 3\nnumMeshes 1\n\njoints {\n"
      "\t\"root\"\t-1 ( 0.000000 0.000000 0.000000 ) ( 0.000000 0.000000 0.000000 )\t\t// \n"
      "\t\"a\"\t0 ( 1.000000 0.000000 2.500000 ) ( 0.100000 0.000000 0.000000 )\n"
      "\t\"b\"\t1 ( 0.000000 -1.250000 4.000000 ) ( 0.000000 0.200000 0.000000 )\n}\n\n"
      "mesh {\n\tshader \"skin\"\n\n\tnumverts " +
      std::to_string(kVertices) + "\n";
  for (int v = 0; v < kVertices; ++v) {
    text += "\tvert " + std::to_string(v) + " ( " + RandomNumber(random) + " " +
            RandomNumber(random) + " ) " + std::to_string(v) + " " + std::to_string(1 + v % 3) +
            "\n";
  }
  text += "\n\tnumtris 20\n";
  for (int t = 0; t < 20; ++t) {
    text += "\ttri " + std::to_string(t) + " " + std::to_string(t) + " " +
            std::to_string((t * 7) % kVertices) + " " + std::to_string((t * 13) % kVertices) + "\n";
  }
  text += "\n\tnumweights " + std::to_string(kWeights) + "\n";
  for (int w = 0; w < kWeights; ++w) {
    text += "\tweight " + std::to_string(w) + " " + std::to_string(w % 3) + " " +
            (w % 2 ? "1.000000" : "0.5000000000") + " ( " + RandomNumber(random) + " " +
            RandomNumber(random) + " " + RandomNumber(random) + " )\n";
  }
  return text + "}\n\n";
}

std::string GeneratedAnim(std::mt19937& random) {
  std::string text =
      "MD5Version 10\ncommandline \"generated\"\n\nnumFrames 4\nnumJoints 2\nframeRate 24\n"
      "numAnimatedComponents 9\n\nhierarchy {\n\t\"root\"\t-1 63 0\n\t\"a\"\t0 7 6\n}\n\n"
      "bounds {\n";
  for (int f = 0; f < 4; ++f) text += "\t( -1.000000 -1.000000 0.000000 ) ( 1.0 1.0 2.0 )\n";
  text +=
      "}\n\nbaseframe {\n\t( 0.000000 0.000000 0.000000 ) ( 0.000000 0.000000 0.000000 )\n"
      "\t( 0.000000 0.000000 1.000000 ) ( 0.000000 0.000000 0.000000 )\n}\n\n";
  for (int f = 0; f < 4; ++f) {
    text += "frame " + std::to_string(f) + " {\n\t";
    for (int c = 0; c < 6; ++c) text += RandomNumber(random) + " ";
    text += "\n\t";
    for (int c = 0; c < 3; ++c) text += RandomNumber(random) + (c < 2 ? " " : "");
    text += "\n}\n\n";
  }
  return text;
}

template <typename Parse>
void ExpectBothReadersAgree(const std::string& text, Parse parse, int* failures) {
  Md5Limits scanning;
  Md5Limits checked_only;
  checked_only.scan_simple_lines = false;
  const std::string fast = Describe(parse(text, scanning));
  const std::string checked = Describe(parse(text, checked_only));
  if (fast != checked && ++*failures <= 5) {
    ADD_FAILURE() << "the readers disagree on:\n"
                  << text << "\nscanner:\n"
                  << fast << "\nchecked:\n"
                  << checked;
  }
}

// One change of one byte in the body: a replacement, a deletion or an insertion.
std::string Mutate(const std::string& text, std::mt19937& random) {
  static const char kBytes[] = " \t\n\r()x-+.eE0123456789/*{}\"";
  const std::size_t body =
      text.find("mesh {") != std::string::npos ? text.find("mesh {") : text.find("frame 0");
  const std::size_t at = body + random() % (text.size() - body);
  const char byte = kBytes[random() % (sizeof kBytes - 1)];
  std::string mutated = text;
  switch (random() % 3) {
    case 0:
      mutated[at] = byte;
      break;
    case 1:
      mutated.erase(at, 1);
      break;
    default:
      mutated.insert(at, 1, byte);
      break;
  }
  return mutated;
}

const auto kParseMesh = [](const std::string& text, const Md5Limits& limits) {
  return ParseMd5Mesh("m.md5mesh", text, limits);
};
const auto kParseAnim = [](const std::string& text, const Md5Limits& limits) {
  return ParseMd5Anim("a.md5anim", text, limits);
};

TEST(LineScanning, GeneratedFilesReadTheSameBothWays) {
  std::mt19937 random(2026);
  int failures = 0;
  for (int i = 0; i < 50; ++i) {
    const std::string mesh = GeneratedMesh(random);
    ASSERT_TRUE(ParseMd5Mesh("m.md5mesh", mesh).ok()) << mesh;
    ExpectBothReadersAgree(mesh, kParseMesh, &failures);
    const std::string anim = GeneratedAnim(random);
    ASSERT_TRUE(ParseMd5Anim("a.md5anim", anim).ok()) << anim;
    ExpectBothReadersAgree(anim, kParseAnim, &failures);
  }
  EXPECT_EQ(failures, 0);
}

TEST(LineScanning, MutatedFilesGiveTheSameResultsAndMessagesBothWays) {
  std::mt19937 random(7);
  int failures = 0;
  int rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string mesh = Mutate(GeneratedMesh(random), random);
    ExpectBothReadersAgree(mesh, kParseMesh, &failures);
    rejected += !ParseMd5Mesh("m.md5mesh", mesh).ok();
    const std::string anim = Mutate(GeneratedAnim(random), random);
    ExpectBothReadersAgree(anim, kParseAnim, &failures);
    rejected += !ParseMd5Anim("a.md5anim", anim).ok();
  }
  EXPECT_EQ(failures, 0);
  // The mutations must reach both outcomes, or the comparison proves little.
  EXPECT_GT(rejected, 1000);
  EXPECT_LT(rejected, 5000);
}

struct ScanCase {
  const char* text;
  bool matches;  // "vert <int> ( <float> <float> ) <int> <int>" read to the end by the scanner
};

class VertexLineScan : public ::testing::TestWithParam<ScanCase> {};

TEST_P(VertexLineScan, AcceptsOnlyPlainLines) {
  const ScanCase& c = GetParam();
  // Padded so the inline number paths (which need room after the literal) are the ones tested.
  const std::string text = std::string(c.text) + "\n                                ";
  LineScanner line(text.data(), text.data() + text.size());
  std::int64_t index = 0;
  float u = 0.0f;
  float v = 0.0f;
  std::int64_t first = 0;
  std::int64_t count = 0;
  const bool matched = line.Word("vert") && line.Int(&index) && line.Char('(') && line.Float(&u) &&
                       line.Float(&v) && line.Char(')') && line.Int(&first) &&
                       line.Int(&count, true);
  EXPECT_EQ(matched, c.matches) << c.text;
  if (matched) {
    EXPECT_EQ(line.position(), text.data() + std::strlen(c.text)) << c.text;
    EXPECT_EQ(index, 3);
    EXPECT_EQ(u, 0.25f);
    EXPECT_EQ(v, -1.5f);
    EXPECT_EQ(first, 12);
    EXPECT_EQ(count, 2);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Lines, VertexLineScan,
    ::testing::Values(ScanCase{"vert 3 ( 0.250000 -1.500000 ) 12 2", true},
                      ScanCase{"vert\t3\t(\t0.25\t-1.5\t)\t12\t2", true},
                      ScanCase{"vert  3 (  0.2500000000 -1.5000000000 )   12 2", true},
                      ScanCase{"vert 3 ( 2.5e-1 -1.5 ) 12 2", true},
                      ScanCase{"vert 3 ( +0.25 -1.5 ) 12 2", true},
                      // The scanner gives these to the checked reader: a newline or a comment
                      // inside the line, punctuation without a blank, junk after a number.
                      ScanCase{"vert 3\n( 0.25 -1.5 ) 12 2", false},
                      ScanCase{"vert 3 /* c */ ( 0.25 -1.5 ) 12 2", false},
                      ScanCase{"vert 3 (0.25 -1.5 ) 12 2", false},
                      ScanCase{"vert 3 ( 0.25 -1.5) 12 2", false},
                      ScanCase{"vert 3 ( 0.25x -1.5 ) 12 2", false},
                      ScanCase{"vert 3 ( 0.25 -1.5 ) 12 2x", false},
                      ScanCase{"verts 3 ( 0.25 -1.5 ) 12 2", false},
                      ScanCase{"vert 3 ( 1e39 -1.5 ) 12 2", false}));

}  // namespace
}  // namespace md5stage::md5
