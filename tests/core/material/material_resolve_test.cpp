// Resolution from mesh part shaders to image files: the image look-up order (path, path
// suffix, base name; extensions in turn; case), materials by name, skins, the guess without a
// material, and the validity table of the resolve job.
#include "core/material/material_resolve.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/material/material_parser.h"

namespace md5stage::material {
namespace {

struct FindCase {
  const char* name;
  std::vector<std::string> files;
  const char* image;
  const char* found;  // "" when missing
  ImageIndex::Match::How how;
};

class ImageFindTable : public ::testing::TestWithParam<FindCase> {};

TEST_P(ImageFindTable, Finds) {
  const FindCase& c = GetParam();
  const ImageIndex index(c.files);
  const ImageIndex::Match match = index.Find(c.image);
  EXPECT_EQ(match.file >= 0 ? index.path(match.file) : std::string(), c.found);
  EXPECT_EQ(match.how, c.how);
}

using How = ImageIndex::Match::How;
const FindCase kFindCases[] = {
    {"exact_path", {"models/x/a.tga"}, "models/x/a.tga", "models/x/a.tga", How::kPath},
    {"case_insensitive", {"Models/X/A.TGA"}, "models/x/a.tga", "Models/X/A.TGA", How::kPath},
    {"backslashes", {"models/x/a.tga"}, "models\\x\\a.tga", "models/x/a.tga", How::kPath},
    {"tga_named_png_found", {"models/x/a.png"}, "models/x/a.tga", "models/x/a.png", How::kPath},
    {"no_extension_tries_tga_first",
     {"models/x/a.jpg", "models/x/a.png", "models/x/a.tga"},
     "models/x/a",
     "models/x/a.tga",
     How::kPath},
    {"png_before_jpg",
     {"models/x/a.jpg", "models/x/a.png"},
     "models/x/a",
     "models/x/a.png",
     How::kPath},
    {"given_extension_first", {"a.tga", "a.jpg"}, "a.jpg", "a.jpg", How::kPath},
    {"folder_prefix",
     {"mymod/models/x/a.png"},
     "models/x/a",
     "mymod/models/x/a.png",
     How::kPathSuffix},
    {"path_before_base_name",
     {"other/a.tga", "models/x/a.tga"},
     "models/x/a",
     "models/x/a.tga",
     How::kPath},
    {"suffix_before_base_name",
     {"other/a.tga", "m/models/x/a.tga"},
     "models/x/a",
     "m/models/x/a.tga",
     How::kPathSuffix},
    {"base_name_anywhere", {"textures/A.Tga"}, "models/x/a", "textures/A.Tga", How::kBaseName},
    {"base_name_first_listed_wins", {"b/a.tga", "c/a.tga"}, "x/a", "b/a.tga", How::kBaseName},
    {"not_an_image_ignored", {"models/x/a.txt"}, "models/x/a", "", How::kMissing},
    {"partial_name_is_not_a_match", {"models/x/ba.tga"}, "models/x/a", "", How::kMissing},
    {"missing", {}, "models/x/a", "", How::kMissing},
    {"empty_request", {"a.tga"}, "", "", How::kMissing},
};

INSTANTIATE_TEST_SUITE_P(Cases, ImageFindTable, ::testing::ValuesIn(kFindCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(CanonicalName, LowerSlashesNoImageExtension) {
  EXPECT_EQ(CanonicalName("Models\\X\\Body.TGA"), "models/x/body");
  EXPECT_EQ(CanonicalName("./models/x/body"), "models/x/body");
  EXPECT_EQ(CanonicalName("gfx/fire.01"), "gfx/fire.01");
}

DeclFile Parse(const char* name, const char* text) {
  Result<DeclFile> file = ParseDeclFile(name, text);
  EXPECT_TRUE(file.ok()) << file.error().ToString();
  return file.ok() ? file.value() : DeclFile();
}

// Each part as "shader -> material|guess: diffuse=FILE normal=FILE specular=FILE height=FILE",
// a map missing one of its images as "!requested".
std::string Describe(const PartResolution& part) {
  std::string out = part.shader_after_skin + " -> " +
                    (part.material != nullptr ? part.material->name : std::string("guess")) + ":";
  for (int k = 0; k < kMapKindCount - 1; ++k) {
    const ResolvedMap& map = part.maps[static_cast<std::size_t>(k)];
    if (!map.present) continue;
    out += std::string(" ") + MapKindName(static_cast<MapKind>(k)) + "=";
    for (std::size_t i = 0; i < map.images.size(); ++i) {
      const ImageLookup& image = map.images[i];
      out += (i > 0 ? "+" : "") + (image.how == ImageLookup::How::kMissing   ? "!" + image.requested
                                   : image.how == ImageLookup::How::kBuiltin ? image.requested
                                                                             : image.path);
    }
  }
  return out;
}

struct ResolveCase {
  const char* name;
  const char* mtr;
  const char* skin;  // a .skin file's text, "" for none: its first skin applies
  std::vector<std::string> shaders;
  std::vector<std::string> files;
  std::vector<std::string> parts;  // Describe() of each
  int warnings;
};

class ResolveTable : public ::testing::TestWithParam<ResolveCase> {};

TEST_P(ResolveTable, Resolves) {
  const ResolveCase& c = GetParam();
  const DeclFile mtr = Parse("m.mtr", c.mtr);
  const DeclFile skins = Parse("s.skin", c.skin);
  const MaterialTable table({&mtr});
  const ImageIndex images(c.files);
  ResolveInput input;
  input.shaders = c.shaders;
  input.model_name = "body";
  input.materials = &table;
  input.images = &images;
  input.skin = skins.skins.empty() ? nullptr : &skins.skins[0];
  Result<ResolveOutput> out = ResolveMaterials(input);
  ASSERT_TRUE(out.ok());
  std::vector<std::string> got;
  for (const PartResolution& part : out.value().parts) got.push_back(Describe(part));
  EXPECT_EQ(got, c.parts);
  EXPECT_EQ(static_cast<int>(out.value().warnings.size()), c.warnings);
}

const ResolveCase kResolveCases[] = {
    {"material_by_name_ignoring_case",
     "models/X/Body { diffusemap models/x/body_d.tga\n bumpmap models/x/body_local.tga\n"
     " specularmap models/x/body_s.tga }",
     "",
     {"MODELS/x/body"},
     {"models/x/body_d.png", "models/x/body_local.tga", "models/x/body_s.jpg"},
     {"MODELS/x/body -> models/X/Body: diffuse=models/x/body_d.png "
      "normal=models/x/body_local.tga specular=models/x/body_s.jpg"},
     0},
    {"decl_images_beat_the_guess",
     "m { diffusemap textures/skin_a }",
     "",
     {"m"},
     {"m.tga", "textures/skin_a.tga"},
     {"m -> m: diffuse=textures/skin_a.tga"},
     0},
    {"missing_images_warn",
     "m { diffusemap a\n bumpmap addnormals( b_local, heightmap( b_h, 3 ) ) }",
     "",
     {"m"},
     {"b_local.tga"},
     {"m -> m: diffuse=!a normal=b_local.tga+!b_h"},
     2},
    {"builtin_images",
     "m { diffusemap _white\n bumpmap _flat }",
     "",
     {"m"},
     {},
     {"m -> m: diffuse=_white normal=_flat"},
     0},
    {"shader_with_extension_finds_material",
     "models/x/body { diffusemap a }",
     "",
     {"models/x/body.tga"},
     {"a.png"},
     {"models/x/body.tga -> models/x/body: diffuse=a.png"},
     0},
    {"no_material_guess_by_base_name",
     "",
     "",
     {"models/x/body"},
     {"other/body_d.tga", "other/body_local.tga", "other/body_s.tga", "other/body_h.tga"},
     {"models/x/body -> guess: diffuse=other/body_d.tga normal=other/body_local.tga "
      "specular=other/body_s.tga height=other/body_h.tga"},
     0},
    {"guess_suffix_forms",
     "",
     "",
     {"a", "b"},
     {"a.png", "a_n.png", "a_spec.png", "b_diffuse.jpg", "b_normal.tga", "b_s.tga"},
     {"a -> guess: diffuse=a.png normal=a_n.png specular=a_spec.png",
      "b -> guess: diffuse=b_diffuse.jpg normal=b_normal.tga specular=b_s.tga"},
     0},
    {"guess_prefers_the_path",
     "",
     "",
     {"models/x/body"},
     {"y/body.tga", "models/x/body.tga"},
     {"models/x/body -> guess: diffuse=models/x/body.tga"},
     0},
    {"empty_shader_conventional_names",
     "",
     "",
     {""},
     {"skin.png", "x.png"},
     {" -> guess: diffuse=skin.png"},
     0},
    {"empty_shader_model_name",
     "",
     "",
     {""},
     {"body.png", "x.png"},
     {" -> guess: diffuse=body.png"},
     0},
    {"empty_shader_only_image",
     "",
     "",
     {""},
     {"x.png", "readme.txt"},
     {" -> guess: diffuse=x.png"},
     0},
    {"nothing_found", "", "", {"a"}, {"b.png"}, {"a -> guess:"}, 0},
    {"skin_remaps_before_resolution",
     "red { diffusemap red_d }\nblue { diffusemap blue_d }",
     "skin s { Red blue }",
     {"red", "green"},
     {"red_d.tga", "blue_d.tga", "green.tga"},
     {"blue -> blue: diffuse=blue_d.tga", "green -> guess: diffuse=green.tga"},
     0},
    {"skin_wildcard",
     "",
     "skin s { keep kept\n * textures/common/nodraw }",
     {"keep", "other"},
     {"kept.tga", "textures/common/nodraw.tga"},
     {"kept -> guess: diffuse=kept.tga",
      "textures/common/nodraw -> guess: "
      "diffuse=textures/common/nodraw.tga"},
     0},
    {"quake_skin_names_an_image",
     "",
     "h_head,models/players/x/head.tga\n",
     {"h_head"},
     {"models/players/x/head.png"},
     {"models/players/x/head.tga -> guess: diffuse=models/players/x/head.png"},
     0},
};

INSTANTIATE_TEST_SUITE_P(Cases, ResolveTable, ::testing::ValuesIn(kResolveCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ResolveMaterials, MissingImageWarningNamesMaterialFileAndImage) {
  const DeclFile mtr = Parse("materials/m.mtr", "m\n{\n  bumpmap models/x/m_local\n}");
  const MaterialTable table({&mtr});
  const ImageIndex images(std::vector<std::string>{});
  ResolveInput input;
  input.shaders = {"m"};
  input.materials = &table;
  input.images = &images;
  Result<ResolveOutput> out = ResolveMaterials(input);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out.value().warnings.size(), 1u);
  EXPECT_EQ(out.value().warnings[0].ToString(),
            "materials/m.mtr:3:11: warning: material 'm': normal image 'models/x/m_local' not "
            "found (tried .tga .png .jpg by path and base name)");
}

TEST(MaterialTable, FirstDefinitionWinsAndLaterOnesAreReported) {
  const DeclFile a = Parse("a.mtr", "m { diffusemap first }");
  const DeclFile b = Parse("b.mtr", "M { diffusemap second }");
  const MaterialTable table({&a, &b});
  ASSERT_NE(table.Find("m"), nullptr);
  EXPECT_EQ(table.Find("m")->stages[0].image.text, "first");
  ASSERT_EQ(table.warnings().size(), 1u);
  EXPECT_EQ(table.warnings()[0].ToString(),
            "b.mtr:1:1: warning: material 'M' is defined again; the first definition (a.mtr:1:1) "
            "is used");
  EXPECT_EQ(table.size(), 1);
}

TEST(ResolveMaterials, Validity) {
  const MaterialTable table({});
  const ImageIndex images;
  struct Case {
    const char* name;
    const MaterialTable* materials;
    const ImageIndex* images;
    const char* error;
  };
  const Case cases[] = {
      {"valid", &table, &images, ""},
      {"no_table", nullptr, &images, "error: resolve.materials: expected a table"},
      {"no_images", &table, nullptr, "error: resolve.images: expected an image index"},
  };
  for (const Case& c : cases) {
    ResolveInput input;
    input.shaders = {"a"};
    input.materials = c.materials;
    input.images = c.images;
    const Status valid = input.Validate();
    EXPECT_EQ(valid.ok() ? std::string() : valid.error().ToString(), c.error) << c.name;
    EXPECT_EQ(ResolveMaterials(input).ok(), valid.ok()) << c.name;
  }
}

}  // namespace
}  // namespace md5stage::material

namespace md5stage::material {
namespace {

struct GuessCase {
  const char* name;
  const char* shader;
  MapKind kind;
  std::vector<std::string> files;
  const char* found;  // "" when none
};

class GuessTable : public ::testing::TestWithParam<GuessCase> {};

TEST_P(GuessTable, Guesses) {
  const GuessCase& c = GetParam();
  const ImageIndex images(c.files);
  const ImageLookup guess = GuessImage(images, c.shader, "walker", c.kind);
  EXPECT_EQ(guess.path, c.found);
  EXPECT_EQ(guess.file >= 0, std::string(c.found) != "");
}

const GuessCase kGuessCases[] = {
    {"windows_path_shader",
     "D:\\Users\\x\\HUD Arms\\diffuse.png",
     MapKind::kDiffuse,
     {"arms/Diffuse.PNG"},
     "arms/Diffuse.PNG"},
    {"exact_before_suffix",
     "models/x/body",
     MapKind::kDiffuse,
     {"body_d.png", "body.tga"},
     "body.tga"},
    {"diffuse_suffix", "body", MapKind::kDiffuse, {"body_color.jpg"}, "body_color.jpg"},
    {"local_before_n",
     "body",
     MapKind::kNormal,
     {"body_n.png", "body_local.tga"},
     "body_local.tga"},
    {"normal_suffix", "body", MapKind::kNormal, {"body_normal.png"}, "body_normal.png"},
    {"spec", "body", MapKind::kSpecular, {"body_spec.png"}, "body_spec.png"},
    {"height", "body", MapKind::kHeight, {"body_h.png"}, "body_h.png"},
    {"a_diffuse_is_not_a_normal", "body", MapKind::kNormal, {"body.png"}, ""},
    {"empty_shader_model_name", "", MapKind::kDiffuse, {"a.png", "Walker.png"}, "Walker.png"},
    {"empty_shader_base", "", MapKind::kDiffuse, {"a.png", "base.tga"}, "base.tga"},
    {"empty_shader_two_unrelated", "", MapKind::kDiffuse, {"a.png", "b.png"}, ""},
    {"empty_shader_only_image", "", MapKind::kDiffuse, {"notes.txt", "a.png"}, "a.png"},
    {"empty_shader_no_normal_guess", "", MapKind::kNormal, {"a_n.png"}, ""},
};

INSTANTIATE_TEST_SUITE_P(Cases, GuessTable, ::testing::ValuesIn(kGuessCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace md5stage::material
