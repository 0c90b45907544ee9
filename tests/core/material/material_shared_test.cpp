// The decl files of ../shared/md5: every DarkRadiant .mtr, .skin and .def test file parses (with
// the materials and skins their own tests expect), the Unvanquished .shader files resolve every
// part of the grenade and firebomb, and the MD5Version 11/12 meshes are refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "core/material/material_parser.h"
#include "core/material/material_resolve.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"

namespace md5stage::material {
namespace {

namespace fs = std::filesystem;

const fs::path kDark = fs::path(MD5STAGE_SHARED_DIR) / "md5" / "darkradiant_decls";
const fs::path kUnv = fs::path(MD5STAGE_SHARED_DIR) / "md5" / "unvanquished_weapons";

std::string Read(const fs::path& path) {
  Result<std::string> bytes = md5::ReadFileBytes(path.string());
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  return bytes.ok() ? bytes.value() : std::string();
}

DeclFile ParseFile(const fs::path& path) {
  Result<DeclFile> file = ParseDeclFile(path.string(), Read(path));
  EXPECT_TRUE(file.ok()) << file.error().ToString();
  return file.ok() ? file.value() : DeclFile();
}

const Material* FindMaterial(const DeclFile& file, const std::string& name) {
  for (const Material& m : file.materials) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

struct DarkRadiantCase {
  const char* file;  // under darkradiant_decls/
  int materials;
  int skins;
  int skipped_decls;
};

class DarkRadiantDecls : public ::testing::TestWithParam<DarkRadiantCase> {};

TEST_P(DarkRadiantDecls, Parse) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kDark));
  const DarkRadiantCase& c = GetParam();
  const DeclFile file = ParseFile(kDark / c.file);
  EXPECT_EQ(static_cast<int>(file.materials.size()), c.materials);
  EXPECT_EQ(static_cast<int>(file.skins.size()), c.skins);
  EXPECT_EQ(file.skipped_decls, c.skipped_decls);
}

const DarkRadiantCase kDarkRadiantCases[] = {
    {"materials/example.mtr", 4, 0, 0},      {"materials/exporttest.mtr", 18, 0, 1},
    {"materials/frobstage.mtr", 6, 0, 0},    {"materials/hidden.mtr", 2, 0, 0},
    {"materials/lights.mtr", 2, 0, 0},       {"materials/null_byte_at_the_end.mtr", 2, 0, 0},
    {"materials/numbers.mtr", 21, 0, 0},     {"materials/parsertest.mtr", 150, 0, 1},
    {"materials/parsing_test.mtr", 3, 0, 0}, {"materials/pngs.mtr", 3, 0, 0},
    {"materials/tables.mtr", 0, 0, 4},       {"materials/tdm_internal_engine.mtr", 53, 0, 0},
    {"materials/twosided.mtr", 3, 0, 0},     {"materials/z_precedence.mtr", 1, 0, 0},
    {"skins/test_skins.skin", 0, 6, 0},      {"skins/selection_test.skin", 0, 1, 0},
    {"def/skinned_models.def", 0, 4, 30},    {"def/entity_with_model.def", 0, 0, 9},
};

INSTANTIATE_TEST_SUITE_P(Files, DarkRadiantDecls, ::testing::ValuesIn(kDarkRadiantCases),
                         [](const auto& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name) ch = std::isalnum(ch) ? ch : '_';
                           return name;
                         });

TEST(DarkRadiantDecls, WhatTheirTestsExpect) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kDark));
  const DeclFile example = ParseFile(kDark / "materials/example.mtr");
  const Material* grille = FindMaterial(example, "textures/orbweaver/drain_grille");
  ASSERT_NE(grille, nullptr);
  ASSERT_NE(grille->FindStage(MapKind::kNormal), nullptr);
  EXPECT_EQ(grille->FindStage(MapKind::kNormal)->image.text,
            "textures/orbweaver/draingrille_n.tga");

  const DeclFile hidden = ParseFile(kDark / "materials/hidden.mtr");
  const Material* h = FindMaterial(hidden, "textures/orbweaver/drain_grille_h");
  ASSERT_NE(h, nullptr);
  ASSERT_NE(h->FindStage(MapKind::kDiffuse), nullptr);
  EXPECT_FALSE(h->FindStage(MapKind::kDiffuse)->shortcut);
  EXPECT_EQ(h->FindStage(MapKind::kNormal)->image.text, "textures/orbweaver/draingrille_n.tga");

  const DeclFile twosided = ParseFile(kDark / "materials/twosided.mtr");
  ASSERT_EQ(twosided.materials.size(), 3u);
  EXPECT_TRUE(twosided.materials[0].two_sided);
  EXPECT_TRUE(twosided.materials[1].two_sided);
  EXPECT_FALSE(twosided.materials[2].two_sided);

  const DeclFile parsertest = ParseFile(kDark / "materials/parsertest.mtr");
  const Material* coverage2 = FindMaterial(parsertest, "textures/parsertest/coverage2");
  ASSERT_NE(coverage2, nullptr);
  EXPECT_TRUE(coverage2->translucent);
  EXPECT_EQ(coverage2->FindStage(MapKind::kNormal)->image.text,
            "textures/darkmod/carpet/rugs/mat_shaggy_local");
  const Material* alpha = FindMaterial(parsertest, "textures/parsertest/alphaTest");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->alpha_test_expression, "sinTable[time]");
  const Material* condition = FindMaterial(parsertest, "textures/parsertest/condition");
  ASSERT_NE(condition, nullptr);
  EXPECT_TRUE(condition->FindStage(MapKind::kDiffuse)->conditional);
  // Mixed casing of keywords: sORt oPaque is known, so no warning names it.
  for (const Diagnostic& w : parsertest.warnings) {
    EXPECT_EQ(w.message.find("sORt"), std::string::npos) << w.ToString();
  }

  const DeclFile nul = ParseFile(kDark / "materials/null_byte_at_the_end.mtr");
  ASSERT_EQ(nul.materials.size(), 2u);
  EXPECT_EQ(nul.materials[1].name, "textures/parsertest/something3");
  EXPECT_TRUE(nul.materials[1].stages[0].conditional);

  const DeclFile skins = ParseFile(kDark / "skins/test_skins.skin");
  ASSERT_EQ(skins.skins.size(), 6u);
  EXPECT_EQ(skins.skins[0].name, "tile_skin");
  EXPECT_EQ(skins.skins[0].Remap("textures/atest/a"), "textures/numbers/10");
  EXPECT_EQ(skins.skins[2].name, "separated_tile_skin");
  EXPECT_EQ(skins.skins[2].models.size(), 2u);
  EXPECT_EQ(skins.skins[2].Remap("material"), "textures/numbers/11");
  EXPECT_EQ(skins.skins[3].name, "skin_with_strange_casing");
  EXPECT_EQ(skins.skins[4].Remap("whatever"), "textures/common/nodraw");
  EXPECT_EQ(skins.skins[5].Remap("textures/common/caulk"), "textures/common/shadowcaulk");
  EXPECT_EQ(skins.skins[5].Remap("textures/other"), "textures/common/nodraw");
  EXPECT_TRUE(skins.skins[0].IsFor("models/ase/tiles.ase"));
  EXPECT_FALSE(skins.skins[0].IsFor("models/md5/testflag.md5mesh"));
}

TEST(DarkRadiantDecls, FlagMeshesWithSkinsFromTheDef) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kDark));
  const DeclFile def = ParseFile(kDark / "def/skinned_models.def");
  const Skin* caulk = nullptr;
  for (const Skin& skin : def.skins) {
    if (skin.name == "swap_flag_pirate_with_caulk") caulk = &skin;
  }
  ASSERT_NE(caulk, nullptr);
  Result<md5::MeshFile> mesh =
      md5::ParseMd5Mesh("testflag.md5mesh", Read(kDark / "models/md5/testflag.md5mesh"));
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  std::vector<DeclFile> mtrs;
  for (const auto& entry : fs::directory_iterator(kDark / "materials")) {
    if (entry.path().extension() == ".mtr") mtrs.push_back(ParseFile(entry.path()));
  }
  std::vector<const DeclFile*> files;
  for (const DeclFile& f : mtrs) files.push_back(&f);
  const MaterialTable table(files);
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(kDark)) {
    if (entry.is_regular_file()) paths.push_back(fs::relative(entry.path(), kDark).string());
  }
  const ImageIndex images(paths);
  ResolveInput input;
  for (const md5::MeshPart& m : mesh.value().meshes) input.shaders.push_back(m.shader);
  input.materials = &table;
  input.images = &images;
  ASSERT_EQ(input.shaders.size(), 2u) << "testflag.md5mesh has two parts";
  Result<ResolveOutput> plain = ResolveMaterials(input);
  ASSERT_TRUE(plain.ok());
  // One answer per part: the loops below check each (an empty answer would pass them vacuously).
  ASSERT_EQ(plain.value().parts.size(), 2u);
  for (const PartResolution& part : plain.value().parts) {
    EXPECT_EQ(part.material, nullptr);  // flag_pirate is defined nowhere: the default
    EXPECT_FALSE(part.map(MapKind::kDiffuse).present);
  }
  input.skin = caulk;
  Result<ResolveOutput> skinned = ResolveMaterials(input);
  ASSERT_TRUE(skinned.ok());
  ASSERT_EQ(skinned.value().parts.size(), 2u);
  for (const PartResolution& part : skinned.value().parts) {
    EXPECT_EQ(part.shader, "flag_pirate");
    EXPECT_EQ(part.shader_after_skin, "textures/common/caulk");
  }
}

TEST(DarkRadiantDecls, NumbersResolveToTheirTgas) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kDark));
  const DeclFile numbers = ParseFile(kDark / "materials/numbers.mtr");
  const MaterialTable table({&numbers});
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(kDark / "textures")) {
    if (entry.is_regular_file()) paths.push_back(fs::relative(entry.path(), kDark).string());
  }
  const ImageIndex images(paths);
  ResolveInput input;
  for (int i = 0; i <= 20; ++i) input.shaders.push_back("Textures/Numbers/" + std::to_string(i));
  input.materials = &table;
  input.images = &images;
  Result<ResolveOutput> out = ResolveMaterials(input);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out.value().warnings.empty());
  for (int i = 0; i <= 20; ++i) {
    const ResolvedMap& diffuse =
        out.value().parts[static_cast<std::size_t>(i)].map(MapKind::kDiffuse);
    ASSERT_TRUE(diffuse.Complete()) << i;
    EXPECT_EQ(diffuse.images[0].path, "textures/numbers/" + std::to_string(i) + ".tga");
    EXPECT_EQ(diffuse.images[0].how, ImageLookup::How::kPath);
  }
}

TEST(DarkRadiantDecls, Md5Version11And12AreRefused) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kDark));
  for (const char* name : {"test_v11.md5mesh", "test_v12.md5mesh"}) {
    const fs::path path = kDark / "extensions" / name;
    Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(path.string(), Read(path));
    ASSERT_FALSE(mesh.ok()) << name;
    const std::string version = std::string(name).find("11") != std::string::npos ? "11" : "12";
    EXPECT_EQ(mesh.error().ToString(),
              path.string() + ":1:12: error: expected MD5Version 10, found '" + version + "'");
  }
}

struct WeaponCase {
  const char* mesh;
  int parts;
  int complete_parts;  // parts whose diffuse, normal and specular maps are all found
};

class UnvanquishedWeapons : public ::testing::TestWithParam<WeaponCase> {};

TEST_P(UnvanquishedWeapons, Resolve) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kUnv));
  const WeaponCase& c = GetParam();
  std::vector<DeclFile> shaders;
  for (const auto& entry : fs::directory_iterator(kUnv / "scripts")) {
    shaders.push_back(ParseFile(entry.path()));
    EXPECT_TRUE(shaders.back().warnings.empty()) << entry.path();
  }
  ASSERT_EQ(shaders.size(), 3u) << "scripts/ holds three .shader files";
  std::vector<const DeclFile*> files;
  for (const DeclFile& f : shaders) files.push_back(&f);
  const MaterialTable table(files);
  EXPECT_TRUE(table.warnings().empty());
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(kUnv)) {
    if (entry.is_regular_file()) paths.push_back(fs::relative(entry.path(), kUnv).string());
  }
  const ImageIndex images(paths);
  Result<md5::MeshFile> mesh = md5::ParseMd5Mesh(c.mesh, Read(kUnv / c.mesh));
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  ResolveInput input;
  for (const md5::MeshPart& m : mesh.value().meshes) input.shaders.push_back(m.shader);
  input.materials = &table;
  input.images = &images;
  Result<ResolveOutput> out = ResolveMaterials(input);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(static_cast<int>(out.value().parts.size()), c.parts);
  int complete = 0;
  for (const PartResolution& part : out.value().parts) {
    if (part.map(MapKind::kDiffuse).Complete() && part.map(MapKind::kNormal).Complete() &&
        part.map(MapKind::kSpecular).Complete()) {
      ++complete;
      const std::string stem = CanonicalName(part.shader);
      EXPECT_EQ(part.map(MapKind::kDiffuse).images[0].path, stem + ".png");
      EXPECT_EQ(part.map(MapKind::kNormal).images[0].path, stem + "_n.png");
      EXPECT_EQ(part.map(MapKind::kSpecular).images[0].path, stem + "_s.png");
    }
  }
  EXPECT_EQ(complete, c.complete_parts);
}

// The rifle: rifle.png is missing upstream (its normal and specular maps resolve), and the hand
// material and images are not in the set, so those parts fall back to the guess and find none.
const WeaponCase kWeaponCases[] = {
    {"models/weapons/grenade/grenade.md5mesh", 1, 1},
    {"models/weapons/firebomb/firebomb.md5mesh", 1, 1},
    {"models/weapons/rifle/rifle_view.md5mesh", 3, 0},
};

INSTANTIATE_TEST_SUITE_P(Meshes, UnvanquishedWeapons, ::testing::ValuesIn(kWeaponCases),
                         [](const auto& info) {
                           return fs::path(info.param.mesh).stem().string();
                         });

TEST(UnvanquishedWeapons, RifleResolvesNormalAndSpecularAndReportsItsDiffuse) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kUnv));
  const DeclFile rifle = ParseFile(kUnv / "scripts/rifle.shader");
  const MaterialTable table({&rifle});
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(kUnv)) {
    if (entry.is_regular_file()) paths.push_back(fs::relative(entry.path(), kUnv).string());
  }
  const ImageIndex images(paths);
  ResolveInput input;
  input.shaders = {"models/weapons/rifle/rifle", "models/weapons/hand"};
  input.materials = &table;
  input.images = &images;
  Result<ResolveOutput> out = ResolveMaterials(input);
  ASSERT_TRUE(out.ok());
  const PartResolution& part = out.value().parts[0];
  ASSERT_NE(part.material, nullptr);
  EXPECT_FALSE(part.map(MapKind::kDiffuse).Complete());
  EXPECT_TRUE(part.map(MapKind::kNormal).Complete());
  EXPECT_TRUE(part.map(MapKind::kSpecular).Complete());
  ASSERT_EQ(out.value().warnings.size(), 1u);
  EXPECT_NE(out.value().warnings[0].message.find("diffuse image 'models/weapons/rifle/rifle'"),
            std::string::npos);
  EXPECT_EQ(out.value().parts[1].material, nullptr);
  EXPECT_FALSE(out.value().parts[1].map(MapKind::kDiffuse).present);
}

}  // namespace
}  // namespace md5stage::material
