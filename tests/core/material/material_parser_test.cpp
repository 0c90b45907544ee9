// The material and skin decl parsers: a table of small decls (shortcuts, explicit stages, image
// programs, flags, skipped keywords and decls), hostile inputs, and skins of both forms.
#include "core/material/material_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace md5stage::material {
namespace {

std::string Summary(const Material& m) {
  std::string out = m.name + ":";
  for (const Stage& s : m.stages) {
    out += std::string(" ") + MapKindName(s.kind) + (s.conditional ? "?" : "") + "=" +
           (s.has_image ? s.image.ToString() : "-");
  }
  if (m.two_sided) out += " twosided";
  if (m.translucent) out += " translucent";
  if (m.alpha_test) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " alphatest=%g", *m.alpha_test);
    out += buffer;
  }
  return out;
}

struct ParseCase {
  const char* name;
  const char* text;
  std::vector<std::string> materials;  // Summary() of each
  int warnings;
  int skipped_decls;
};

class MaterialParseTable : public ::testing::TestWithParam<ParseCase> {};

TEST_P(MaterialParseTable, Parses) {
  const ParseCase& c = GetParam();
  Result<DeclFile> file = ParseMaterialFile("t.mtr", c.text);
  ASSERT_TRUE(file.ok()) << file.error().ToString();
  std::vector<std::string> got;
  for (const Material& m : file.value().materials) got.push_back(Summary(m));
  EXPECT_EQ(got, c.materials);
  std::string warnings;
  for (const Diagnostic& w : file.value().warnings) warnings += w.ToString() + "\n";
  EXPECT_EQ(static_cast<int>(file.value().warnings.size()), c.warnings) << warnings;
  EXPECT_EQ(file.value().skipped_decls, c.skipped_decls);
}

const ParseCase kParseCases[] = {
    {"shortcuts",
     "m { diffusemap a.tga\n bumpmap a_local\n specularmap a_s }",
     {"m: diffuse=a.tga normal=a_local specular=a_s"},
     0,
     0},
    {"odd_casing_and_normalmap",
     "M/X { DiffuseMap a\n NormalMap a_n\n SPECULARMAP a_s }",
     {"M/X: diffuse=a normal=a_n specular=a_s"},
     0,
     0},
    {"explicit_stages",
     "m {\n { blend diffusemap\n map a.tga }\n { blend bumpmap ; map a_local }\n"
     " { blend specularmap map a_s } }",
     {"m: diffuse=a.tga normal=a_local specular=a_s"},
     0,
     0},
    {"other_stage_blends",
     "m { { blend gl_one, gl_zero\n map x } { blend add\n map y } }",
     {"m: other=x other=y"},
     0,
     0},
    {"addnormals_and_heightmap",
     "m { bumpmap addnormals( a_local, heightmap( a_h, 4 ) ) }",
     {"m: normal=addnormals(a_local, heightmap(a_h, 4))"},
     0,
     0},
    {"program_in_stage",
     "m { { blend bumpmap\n map heightmap(\"a b.tga\", 2.5) } }",
     {"m: normal=heightmap(a b.tga, 2.5)"},
     0,
     0},
    {"other_function_kept",
     "m { diffusemap makeintensity( lights/x.tga ) }",
     {"m: diffuse=makeintensity(lights/x.tga)"},
     0,
     0},
    {"quoted_paths",
     "\"m q\" { diffusemap \"textures/a b/c.tga\" }",
     {"m q: diffuse=textures/a b/c.tga"},
     0,
     0},
    {"flags",
     "m { twoSided translucent noShadows\n diffusemap a\n { blend diffusemap map a\n"
     " alphaTest 0.4 } }",
     {"m: diffuse=a diffuse=a twosided translucent alphatest=0.4"},
     0,
     0},
    {"alpha_test_expression",
     "m { { blend diffusemap\n map a\n alphaTest sinTable[time] } }",
     {"m: diffuse=a alphatest=0.5"},
     0,
     0},
    {"quake3_cull_and_alphafunc",
     "m { cull none\n { map a\n alphaFunc GE128 } }",
     {"m: other=a twosided alphatest=0.5"},
     0,
     0},
    {"daemon_stage_maps",
     "models/w/g\n{\n qer_editorImage models/w/g\n imageMinDimension 128\n {\n"
     "  diffuseMap models/w/g\n  normalMap models/w/g_n\n  specularMap models/w/g_s\n }\n}\n",
     {"models/w/g: diffuse=models/w/g normal=models/w/g_n specular=models/w/g_s"},
     0,
     0},
    {"conditional_stage",
     "m { { if ( parm7 == 0 )\n blend diffusemap\n map a } }",
     {"m: diffuse?=a"},
     0,
     0},
    {"comments",
     "// c\nm /* a { } */ { // x {\n diffusemap a // b\n /* } */ }",
     {"m: diffuse=a"},
     0,
     0},
    {"comment_right_after_path", "m { diffusemap a//b\n }", {"m: diffuse=a"}, 0, 0},
    {"one_line_materials",
     "a { sORt SUbVieW } b { solid } c{diffusemap x}",
     {"a:", "b:", "c: diffuse=x"},
     0,
     0},
    {"unknown_keywords_one_warning",
     "m { frobstage_texture t 0.15 0.40\n frobstage_diffuse 1 2\n diffusemap a\n"
     " { blend diffusemap map a\n bogus 1 } }\n n { another }",
     {"m: diffuse=a diffuse=a", "n:"},
     2,
     0},
    {"nested_unknown_block_in_stage", "m { { map a { x { y } } } }", {"m: other=a"}, 1, 0},
    {"tables_guides_and_other_decls",
     "table t { { 0, 1 } }\ntable c { clamp { 1, 0 } }\nguide g/x generic( a, b )\n"
     "particle p { { count 3 } }\nsound s { x }\nm { diffusemap a }\nmaterial n { bumpmap b }",
     {"m: diffuse=a", "n: normal=b"},
     0,
     5},
    {"expressions_skipped",
     "m { deform expand (0.1 * t[time * (0.3+time)] - global3)\n"
     "{ blend diffusemap\n map a\n rgb 0.40 * parm11\n scroll time, .5 } }",
     {"m: diffuse=a"},
     0,
     0},
    {"mirror_stage_without_map",
     "m { { blend blend\n mirrorRenderMap 256 128 } }",
     {"m: other=-"},
     0,
     0},
    {"semicolons_and_bom", "\xEF\xBB\xBFm { diffusemap a; ; }", {"m: diffuse=a"}, 0, 0},
    {"empty", "", {}, 0, 0},
};

INSTANTIATE_TEST_SUITE_P(Cases, MaterialParseTable, ::testing::ValuesIn(kParseCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(MaterialParser, TrailingNulByteIsABlank) {
  const std::string text("m { diffusemap a }\n\0", 20);
  Result<DeclFile> file = ParseMaterialFile("t.mtr", text);
  ASSERT_TRUE(file.ok()) << file.error().ToString();
  ASSERT_EQ(file.value().materials.size(), 1u);
}

TEST(MaterialParser, UnknownKeywordWarningNamesMaterialAndLocation) {
  Result<DeclFile> file = ParseMaterialFile("t.mtr", "m\n{\n  bogus 1 2\n  other\n}");
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file.value().warnings.size(), 1u);
  EXPECT_EQ(file.value().warnings[0].ToString(),
            "t.mtr:3:3: warning: material 'm': skipped unknown keyword 'bogus' and 1 more");
}

TEST(MaterialParser, ProgramTreeAndLocations) {
  Result<DeclFile> file =
      ParseMaterialFile("t.mtr", "m {\n bumpmap addnormals( a_local, heightmap( a_h, 4 ) )\n}");
  ASSERT_TRUE(file.ok());
  const ImageProgram& p = file.value().materials[0].stages[0].image;
  EXPECT_EQ(p.op, ImageProgram::Op::kAddNormals);
  ASSERT_EQ(p.args.size(), 2u);
  EXPECT_EQ(p.args[0].op, ImageProgram::Op::kImage);
  EXPECT_EQ(p.args[1].op, ImageProgram::Op::kHeightMap);
  EXPECT_EQ(p.args[1].args[1].op, ImageProgram::Op::kNumber);
  EXPECT_FLOAT_EQ(p.args[1].args[1].number, 4.0f);
  EXPECT_EQ(p.args[1].args[0].where.line, 2);
  EXPECT_EQ(p.args[1].args[0].where.column, 42);
  std::vector<const ImageProgram*> images;
  p.CollectImages(&images);
  ASSERT_EQ(images.size(), 2u);
  EXPECT_EQ(images[0]->text, "a_local");
  EXPECT_EQ(images[1]->text, "a_h");
}

struct ErrorCase {
  const char* name;
  std::string text;
  const char* message;  // the whole ToString()
};

class MaterialErrorTable : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(MaterialErrorTable, Refuses) {
  const ErrorCase& c = GetParam();
  Result<DeclFile> file = ParseMaterialFile("t.mtr", c.text);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().ToString(), c.message);
}

std::string Nested(int depth) {
  std::string text = "m { bumpmap ";
  for (int i = 0; i < depth; ++i) text += "addnormals( a, ";
  text += "b";
  for (int i = 0; i < depth; ++i) text += " )";
  return text + " }";
}

const ErrorCase kErrorCases[] = {
    {"unclosed_material", "m {\n diffusemap a\n",
     "t.mtr:3:1: error: expected '}' closing material 'm' (opened at 1:3), found end of file"},
    {"unclosed_stage", "m { { map a",
     "t.mtr:1:12: error: expected '}' closing the stage of 'm' (opened at 1:5), found end of "
     "file"},
    {"stray_close", "}", "t.mtr:1:1: error: expected a decl name, found '}'"},
    {"extra_close_after_material", "m { }\n}", "t.mtr:2:1: error: expected a decl name, found '}'"},
    {"name_without_block", "m diffusemap a",
     "t.mtr:1:14: error: expected '{' after m 'diffusemap', found 'a'"},
    {"unclosed_skipped_decl", "table t { { 1",
     "t.mtr:1:14: error: expected '}' closing the block opened at 1:9, found end of file"},
    {"deep_braces", "particle p " + std::string(40, '{') + std::string(40, '}'),
     "t.mtr:1:44: error: expected blocks nested at most 32 deep, found deeper"},
    {"deep_program", Nested(40),
     "t.mtr:1:265: error: expected image programs nested at most 16 deep, found deeper"},
    {"addnormals_arity", "m { bumpmap addnormals( a )\n}",
     "t.mtr:1:13: error: expected addnormals( IMAGE, IMAGE ), found 1 arguments: addnormals(a)"},
    {"heightmap_scale", "m { bumpmap heightmap( a, b ) }",
     "t.mtr:1:13: error: expected heightmap( IMAGE, SCALE ), found 2 arguments: heightmap(a, b)"},
    {"program_unclosed", "m { bumpmap addnormals( a, b }",
     "t.mtr:1:30: error: expected ',' or ')' in 'addnormals'( ... ), found '}'"},
    {"map_without_image", "m { { map } }", "t.mtr:1:11: error: expected an image, found '}'"},
    {"unterminated_string", "m { diffusemap \"abc\n}",
     "t.mtr:1:16: error: expected a closing '\"' on the same line, found end of line"},
    {"huge_token", "m { diffusemap " + std::string(1 << 20, 'x') + " }",
     "t.mtr:1:16: error: expected a token of at most 4096 bytes, found one of 1048576 bytes "
     "starting 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"},
};

INSTANTIATE_TEST_SUITE_P(Cases, MaterialErrorTable, ::testing::ValuesIn(kErrorCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(MaterialParser, FileSizeLimit) {
  DeclLimits limits;
  limits.max_file_bytes = 10;
  Result<DeclFile> file = ParseMaterialFile("t.mtr", "m { diffusemap a }", limits);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().ToString(),
            "t.mtr: error: expected a decl file of at most 10 bytes, found 18");
}

TEST(MaterialParser, EveryPrefixOfADeclFileFailsOrParsesWithoutCrashing) {
  const std::string text =
      "table t { { 0, 1 } }\nm {\n diffusemap a\n { blend bumpmap\n map addnormals( a_local, "
      "heightmap( \"a h\", 4 ) ) }\n alphaTest 0.5 }\nskin s { model x a b }\n";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    Result<DeclFile> file = ParseMaterialFile("t.mtr", text.substr(0, n));
    if (!file.ok()) {
      EXPECT_NE(file.error().line, 0) << n;
    }
  }
}

// ---- skins ----------------------------------------------------------------------------------

std::string SkinSummary(const Skin& skin) {
  std::string out = skin.name + ":";
  for (const std::string& m : skin.models) out += " model=" + m;
  for (const SkinRemap& r : skin.remaps) out += " " + r.from + "->" + r.to;
  return out;
}

struct SkinCase {
  const char* name;
  const char* file_name;
  const char* text;
  std::vector<std::string> skins;
  int warnings;
};

class SkinParseTable : public ::testing::TestWithParam<SkinCase> {};

TEST_P(SkinParseTable, Parses) {
  const SkinCase& c = GetParam();
  Result<DeclFile> file = ParseDeclFile(c.file_name, c.text);
  ASSERT_TRUE(file.ok()) << file.error().ToString();
  std::vector<std::string> got;
  for (const Skin& s : file.value().skins) got.push_back(SkinSummary(s));
  EXPECT_EQ(got, c.skins);
  EXPECT_EQ(static_cast<int>(file.value().warnings.size()), c.warnings);
}

const SkinCase kSkinCases[] = {
    {"doom3_typed",
     "a.skin",
     "skin s { model \"models/x.md5mesh\"\n a b\n c d }",
     {"s: model=models/x.md5mesh a->b c->d"},
     0},
    {"untyped_and_odd_casing",
     "a.skin",
     "t { x y }\nSkIn u { material m }",
     {"t: x->y", "u: material->m"},
     0},
    {"wildcard", "a.skin", "skin w { caulk shadow\n * nodraw }", {"w: caulk->shadow *->nodraw"}, 0},
    {"two_models", "a.skin", "skin w { model a\n model b\n x y }", {"w: model=a model=b x->y"}, 0},
    {"skins_in_a_def_file",
     "a.def",
     "model m { mesh x }\nskin s { flag_pirate caulk }",
     {"s: flag_pirate->caulk"},
     0},
    {"quake_style",
     "models/players/x/head_default.skin",
     "h_head,models/players/x/head.tga\ntag_head,\nh_eyes , models/players/x/eyes.png\n",
     {"head_default: h_head->models/players/x/head.tga h_eyes->models/players/x/eyes.png"},
     0},
    {"quake_style_bad_line", "b.skin", "a,b\nno comma here\nc,d\n", {"b: a->b c->d"}, 1},
};

INSTANTIATE_TEST_SUITE_P(Cases, SkinParseTable, ::testing::ValuesIn(kSkinCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Skin, RemapFollowsFileOrderWithWildcards) {
  Skin skin;
  skin.remaps = {{"Textures/Common/Caulk", "shadow", {}}, {"*", "nodraw", {}}};
  EXPECT_EQ(skin.Remap("textures/common/caulk"), "shadow");
  EXPECT_EQ(skin.Remap("anything"), "nodraw");
  Skin first_wildcard;
  first_wildcard.remaps = {{"*", "nodraw", {}}, {"a", "b", {}}};
  EXPECT_EQ(first_wildcard.Remap("a"), "nodraw");  // as idDeclSkin::RemapShaderBySkin
  Skin none;
  none.remaps = {{"a", "b", {}}};
  EXPECT_EQ(none.Remap("c"), "c");
}

TEST(Skin, IsForItsModels) {
  Skin skin;
  EXPECT_TRUE(skin.IsFor("anything.md5mesh"));
  skin.models = {"models/md5/testflag.md5mesh"};
  EXPECT_TRUE(skin.IsFor("/data/models/md5/TestFlag.md5mesh"));
  EXPECT_TRUE(skin.IsFor("testflag.md5mesh"));
  EXPECT_FALSE(skin.IsFor("models/md5/flag01.md5mesh"));
  EXPECT_FALSE(skin.IsFor("xtestflag.md5mesh"));
}

TEST(SkinParser, Errors) {
  Result<DeclFile> unclosed = ParseSkinFile("a.skin", "skin s { a b");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.error().ToString(),
            "a.skin:1:13: error: expected '}' closing skin 's' (opened at 1:8), found end of file");
  Result<DeclFile> odd = ParseSkinFile("a.skin", "skin s { a }");
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().ToString(),
            "a.skin:1:12: error: expected the shader that replaces 'a', found '}'");
}

TEST(SkinParser, HostileInputs) {
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {"stray_close", "skin s { a b }\n}", "a.skin:2:1: error: expected a decl name, found '}'"},
      {"open_without_name", "{ a b }", "a.skin:1:1: error: expected a decl name, found '{'"},
      {"huge_token", "skin s { " + std::string(1 << 20, 'y') + " b }",
       "a.skin:1:10: error: expected a token of at most 4096 bytes, found one of 1048576 bytes "
       "starting 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...'"},
      {"huge_quake_token", "a," + std::string(1 << 20, 'z'),
       "a.skin:1:3: error: expected a token of at most 4096 bytes, found one of 1048576 bytes "
       "starting 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...'"},
      {"brace_inside_skin", "skin s { a { } }",
       "a.skin:1:12: error: expected the shader that replaces 'a', found '{'"},
  };
  for (const Case& c : cases) {
    Result<DeclFile> file = ParseSkinFile("a.skin", c.text);
    ASSERT_FALSE(file.ok()) << c.name;
    EXPECT_EQ(file.error().ToString(), c.message) << c.name;
  }
  // A trailing NUL and a BOM are blanks in skins too.
  Result<DeclFile> nul = ParseSkinFile("a.skin", std::string("\xEF\xBB\xBFskin s { a b }\0", 19));
  ASSERT_TRUE(nul.ok()) << nul.error().ToString();
  EXPECT_EQ(nul.value().skins.size(), 1u);
}

TEST(DeclFileNames, ByExtension) {
  EXPECT_TRUE(IsDeclFileName("materials/a.MTR"));
  EXPECT_TRUE(IsDeclFileName("scripts/a.shader"));
  EXPECT_TRUE(IsDeclFileName("a.skin"));
  EXPECT_FALSE(IsDeclFileName("a.md5mesh"));
  EXPECT_FALSE(IsDeclFileName("mtr"));
}

}  // namespace
}  // namespace md5stage::material
