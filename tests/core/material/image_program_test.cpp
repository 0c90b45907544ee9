// Image programs on decoded pixels: heightmap() as Doom 3's R_HeightmapToNormalMap (flat, ramps
// in x and y, the scale), addnormals() as R_AddNormalMaps (the fade of short normals, sizes),
// the errors (missing image, unsupported function, bad arguments, depth), and the validity
// tables of both jobs.
#include "core/material/image_program.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "core/material/material_parser.h"

namespace md5stage::material {
namespace {

RgbaImage Filled(int width, int height, std::array<uint8_t, 4> rgba) {
  RgbaImage image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i)
    image.rgba.insert(image.rgba.end(), rgba.begin(), rgba.end());
  return image;
}

// A grey height image whose value at (x, y) is base + dx * x + dy * y.
RgbaImage Ramp(int width, int height, int base, int dx, int dy) {
  RgbaImage image = Filled(width, height, {0, 0, 0, 255});
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const auto v = static_cast<uint8_t>(base + dx * x + dy * y);
      uint8_t* p = image.rgba.data() + (y * width + x) * 4;
      p[0] = p[1] = p[2] = v;
    }
  }
  return image;
}

std::array<int, 4> Pixel(const RgbaImage& image, int x, int y) {
  const uint8_t* p = image.rgba.data() + (y * image.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

// The program of the material's normal stage, as the parser reads it.
ImageProgram ParseNormalProgram(const std::string& program) {
  auto parsed = ParseMaterialFile("t.mtr", "m { bumpmap " + program + " }");
  EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
  if (!parsed.ok() || parsed.value().materials.empty()) return {};
  const Stage* stage = parsed.value().materials[0].FindStage(MapKind::kNormal);
  EXPECT_NE(stage, nullptr);
  return stage ? stage->image : ImageProgram{};
}

struct HeightCase {
  const char* name;
  RgbaImage height;
  float scale;
  int x, y;  // an interior pixel (the gradient wraps at the right and bottom edges)
  std::array<int, 4> expected;
};

class HeightmapTable : public ::testing::TestWithParam<HeightCase> {};

TEST_P(HeightmapTable, MatchesDoom3) {
  const HeightCase& c = GetParam();
  RgbaImage out;
  out.width = c.height.width;
  out.height = c.height.height;
  out.rgba.resize(c.height.rgba.size());
  const HeightmapToNormalJob job{&c.height, c.scale, &out};
  ASSERT_TRUE(job.Validate().ok());
  job.Run();
  EXPECT_EQ(Pixel(out, c.x, c.y), c.expected);
}

// Ramp of 16 a pixel at scale 4: each triangle's gradient is -16 * 4 / 256 = -0.25, so the normal
// is (-0.25, 0, 1) / 1.0308 = (-0.2425, 0, 0.9701), packed 128 + 127 n = (97, 128, 251).
const HeightCase kHeightCases[] = {
    {"flat_is_up", Filled(4, 4, {90, 90, 90, 255}), 4.0f, 1, 1, {128, 128, 255, 255}},
    {"ramp_in_x_tilts_x", Ramp(4, 4, 10, 16, 0), 4.0f, 1, 1, {97, 128, 251, 255}},
    {"ramp_in_y_tilts_y", Ramp(4, 4, 10, 0, 16), 4.0f, 1, 1, {128, 97, 251, 255}},
    {"falling_ramp_tilts_other_way", Ramp(4, 4, 100, -16, 0), 4.0f, 1, 1, {158, 128, 251, 255}},
    {"zero_scale_is_flat", Ramp(4, 4, 10, 16, 16), 0.0f, 1, 1, {128, 128, 255, 255}},
    // Grey is (r + g + b) / 3: a red-only ramp of 48 a pixel is a grey ramp of 16.
    {"grey_from_rgb",
     [] {
       RgbaImage image = Filled(4, 4, {0, 0, 0, 255});
       for (int y = 0; y < 4; ++y)
         for (int x = 0; x < 4; ++x) image.rgba[(y * 4 + x) * 4] = static_cast<uint8_t>(48 * x);
       return image;
     }(),
     4.0f,
     1,
     1,
     {97, 128, 251, 255}},
};
INSTANTIATE_TEST_SUITE_P(Cases, HeightmapTable, ::testing::ValuesIn(kHeightCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Heightmap, WrapsAtTheEdge) {
  // The last column compares with the first: a ramp 10..58 drops by 48 there.
  const RgbaImage height = Ramp(4, 1, 10, 16, 0);
  RgbaImage out = Filled(4, 1, {0, 0, 0, 0});
  HeightmapToNormalJob{&height, 4.0f, &out}.Run();
  EXPECT_GT(Pixel(out, 3, 0)[0], 128);  // tilted the other way
  EXPECT_LT(Pixel(out, 2, 0)[0], 128);
}

struct AddCase {
  const char* name;
  RgbaImage a, b;
  int width, height;            // of the result
  std::array<int, 4> expected;  // at (0, 0)
};

class AddNormalsTable : public ::testing::TestWithParam<AddCase> {};

TEST_P(AddNormalsTable, MatchesDoom3) {
  const AddCase& c = GetParam();
  RgbaImage out;
  out.width = c.width;
  out.height = c.height;
  out.rgba.resize(static_cast<size_t>(c.width) * c.height * 4);
  const AddNormalsJob job{&c.a, &c.b, &out};
  ASSERT_TRUE(job.Validate().ok()) << job.Validate().error().ToString();
  job.Run();
  EXPECT_EQ(Pixel(out, 0, 0), c.expected);
  EXPECT_EQ(Pixel(out, c.width - 1, c.height - 1), c.expected);
}

// (0,0,1) + (1,0) = (1,0,1) / sqrt(2): 127 * 0.7071 = 89.8 rounds to 90, + 128 = 218.
const AddCase kAddCases[] = {
    {"flat_plus_flat",
     Filled(2, 2, {128, 128, 255, 0}),
     Filled(2, 2, {128, 128, 255, 0}),
     2,
     2,
     {128, 128, 255, 255}},
    {"flat_plus_x",
     Filled(2, 2, {128, 128, 255, 0}),
     Filled(2, 2, {255, 128, 255, 0}),
     2,
     2,
     {218, 128, 218, 255}},
    {"flat_plus_minus_y",
     Filled(2, 2, {128, 128, 255, 0}),
     Filled(2, 2, {128, 1, 255, 0}),
     2,
     2,
     {128, 38, 218, 255}},
    {"zero_normal_fades_to_up",
     Filled(2, 2, {128, 128, 128, 0}),
     Filled(2, 2, {128, 128, 0, 0}),
     2,
     2,
     {128, 128, 255, 255}},
    {"b_larger_sets_the_size",
     Filled(2, 2, {128, 128, 255, 0}),
     Filled(8, 4, {255, 128, 0, 0}),
     8,
     4,
     {218, 128, 218, 255}},
    {"a_larger_sets_the_size",
     Filled(8, 8, {255, 128, 128, 0}),
     Filled(1, 1, {128, 128, 0, 0}),
     8,
     8,
     {255, 128, 128, 255}},
};
INSTANTIATE_TEST_SUITE_P(Cases, AddNormalsTable, ::testing::ValuesIn(kAddCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ImageProgram, EvaluatesParsedProgramsDepthFirst) {
  const ImageProgram program = ParseNormalProgram("addnormals( a_local, heightmap( a_h, 4 ) )");
  ASSERT_EQ(program.op, ImageProgram::Op::kAddNormals);
  const RgbaImage local = Filled(4, 4, {128, 128, 255, 255});
  const RgbaImage height = Ramp(4, 4, 10, 16, 0);
  ImageProgramInput input;
  input.program = &program;
  input.images = {&local, &height};
  auto result = EvaluateImageProgram(input);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  // (0,0,1) plus the packed height normal's x (97: -0.2441) renormalised: (-0.2371, 0, 0.9715),
  // 127 x rounds to -30.
  EXPECT_EQ(Pixel(result.value(), 1, 1), (std::array<int, 4>{98, 128, 251, 255}));
}

TEST(ImageProgram, PlainImageIsCopied) {
  const ImageProgram program = ParseNormalProgram("models/x/body_local.tga");
  const RgbaImage local = Filled(3, 2, {1, 2, 3, 4});
  ImageProgramInput input;
  input.program = &program;
  input.images = {&local};
  auto result = EvaluateImageProgram(input);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value().rgba, local.rgba);
}

struct ErrorCase {
  const char* name;
  ImageProgram program;
  int images;  // leaves given (the rest are missing)
  const char* message_part;
};

ImageProgram Nested(int depth) {
  ImageProgram program;
  program.op = ImageProgram::Op::kImage;
  program.text = "h";
  for (int i = 0; i < depth; ++i) {
    ImageProgram outer;
    outer.op = ImageProgram::Op::kHeightMap;
    outer.text = "heightmap";
    ImageProgram scale;
    scale.op = ImageProgram::Op::kNumber;
    scale.number = 1.0f;
    outer.args = {program, scale};
    program = outer;
  }
  return program;
}

// A call as the parser would not make it (it refuses these arities): the evaluator checks too.
ImageProgram CallOf(ImageProgram::Op op, const char* name, std::vector<ImageProgram> args) {
  ImageProgram program;
  program.op = op;
  program.text = name;
  program.args = std::move(args);
  return program;
}

ImageProgram Leaf(const char* name) {
  ImageProgram leaf;
  leaf.text = name;
  return leaf;
}

class ImageProgramErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ImageProgramErrors, IsAnErrorNamingTheProgram) {
  const ErrorCase& c = GetParam();
  const RgbaImage image = Filled(2, 2, {128, 128, 255, 255});
  ImageProgramInput input;
  input.program = &c.program;
  for (int i = 0; i < c.images; ++i) input.images.push_back(&image);
  input.images.push_back(nullptr);
  auto result = EvaluateImageProgram(input);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find(c.message_part), std::string::npos)
      << result.error().message;
  EXPECT_NE(result.error().message.find("image program '"), std::string::npos);
}

const ErrorCase kErrorCases[] = {
    {"missing_image", ParseNormalProgram("addnormals( a, b )"), 1, "image 'b' not found"},
    {"unsupported_function", ParseNormalProgram("makeintensity( a )"), 1,
     "'makeintensity' is not supported"},
    {"heightmap_without_scale",
     CallOf(ImageProgram::Op::kHeightMap, "heightmap", {Leaf("a"), Leaf("b")}), 2,
     "expected heightmap( IMAGE, SCALE )"},
    {"addnormals_one_argument", CallOf(ImageProgram::Op::kAddNormals, "addnormals", {Leaf("a")}), 1,
     "expected addnormals( A, B )"},
    {"number_for_an_image",
     CallOf(ImageProgram::Op::kAddNormals, "addnormals",
            {Leaf("a"),
             [] {
               ImageProgram number;
               number.op = ImageProgram::Op::kNumber;
               number.number = 3.0f;
               return number;
             }()}),
     1, "a number where an image was expected"},
    {"deeper_than_the_limit", Nested(17), 1, "nested deeper than 16"},
};
INSTANTIATE_TEST_SUITE_P(Cases, ImageProgramErrors, ::testing::ValuesIn(kErrorCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ImageProgram, AtTheDepthLimitEvaluates) {
  const ImageProgram program = Nested(16);
  const RgbaImage image = Filled(2, 2, {50, 50, 50, 255});
  ImageProgramInput input;
  input.program = &program;
  input.images = {&image};
  EXPECT_TRUE(EvaluateImageProgram(input).ok());
}

TEST(ImageProgram, InvalidImageIsAnError) {
  const ImageProgram program = ParseNormalProgram("a");
  RgbaImage truncated = Filled(4, 4, {0, 0, 0, 0});
  truncated.rgba.resize(10);
  ImageProgramInput input;
  input.program = &program;
  input.images = {&truncated};
  EXPECT_FALSE(EvaluateImageProgram(input).ok());
}

// ---- validity tables ----------------------------------------------------------------------------

TEST(HeightmapToNormalJob, Validity) {
  const RgbaImage image = Filled(4, 4, {0, 0, 0, 0});
  RgbaImage out = Filled(4, 4, {0, 0, 0, 0});
  RgbaImage wrong = Filled(2, 4, {0, 0, 0, 0});
  RgbaImage broken = image;
  broken.rgba.pop_back();
  struct Case {
    const char* name;
    HeightmapToNormalJob job;
    const char* field;  // "" when valid
  };
  const Case cases[] = {
      {"valid", {&image, 4.0f, &out}, ""},
      {"no_height", {nullptr, 4.0f, &out}, "height"},
      {"broken_height", {&broken, 4.0f, &out}, "height"},
      {"nan_scale", {&image, std::nanf(""), &out}, "scale"},
      {"no_output", {&image, 4.0f, nullptr}, "output"},
      {"output_wrong_size", {&image, 4.0f, &wrong}, "output"},
  };
  for (const Case& c : cases) {
    const Status status = c.job.Validate();
    EXPECT_EQ(status.ok(), std::string(c.field).empty()) << c.name;
    if (!status.ok()) {
      EXPECT_EQ(status.error().message.rfind(c.field, 0), 0u) << c.name;
    }
  }
  RgbaImage self = image;
  EXPECT_FALSE((HeightmapToNormalJob{&self, 1.0f, &self}.Validate().ok()));
}

TEST(AddNormalsJob, Validity) {
  const RgbaImage small = Filled(2, 2, {0, 0, 0, 0});
  const RgbaImage big = Filled(4, 2, {0, 0, 0, 0});
  RgbaImage out = Filled(4, 2, {0, 0, 0, 0});
  RgbaImage wrong = Filled(2, 2, {0, 0, 0, 0});
  struct Case {
    const char* name;
    AddNormalsJob job;
    const char* field;
  };
  const Case cases[] = {
      {"valid", {&small, &big, &out}, ""},
      {"no_a", {nullptr, &big, &out}, "a"},
      {"no_b", {&small, nullptr, &out}, "b"},
      {"output_smaller_than_b", {&small, &big, &wrong}, "output"},
      {"no_output", {&small, &big, nullptr}, "output"},
  };
  for (const Case& c : cases) {
    const Status status = c.job.Validate();
    EXPECT_EQ(status.ok(), std::string(c.field).empty()) << c.name;
    if (!status.ok()) {
      EXPECT_EQ(status.error().message.rfind(c.field, 0), 0u) << c.name;
    }
  }
}

TEST(ImageProgramInput, Validity) {
  const ImageProgram program = ParseNormalProgram("a");
  ImageProgramInput input;
  EXPECT_FALSE(input.Validate().ok());
  input.program = &program;
  EXPECT_TRUE(input.Validate().ok());
  input.max_depth = -1;
  EXPECT_FALSE(input.Validate().ok());
  input.max_depth = 4;
  input.max_side = 0;
  EXPECT_FALSE(input.Validate().ok());
}

}  // namespace
}  // namespace md5stage::material
