// `md5stage info` on material and skin decl files and `md5stage check MESH --materials DIR`, run
// as a process: on small folders written here, and on the Unvanquished weapons of ../shared.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../core/md5/test_fixtures.h"
#include "../shared_data.h"
#include "cli_test_util.h"
#include "core/common/json.h"

namespace md5stage {
namespace {

namespace fs = std::filesystem;
using testing::Lines;
using testing::RunCli;
using testing::TempPath;
using testing::WriteFile;

const fs::path kUnv = fs::path(MD5STAGE_SHARED_DIR) / "md5" / "unvanquished_weapons";

std::string Q(const std::string& path) { return "'" + path + "'"; }

// A folder laid out like a Doom 3 model: the fixture mesh (shader "skin"), a material for it and
// whichever images the test names.
fs::path MakeModelFolder(const std::string& name, const std::string& mtr,
                         const std::vector<std::string>& images) {
  const fs::path root = TempPath(name);
  fs::remove_all(root);
  fs::create_directories(root / "materials");
  fs::create_directories(root / "models/x");
  WriteFile((root / "models/x/x.md5mesh").string(), md5::testing::kMeshFixture);
  if (!mtr.empty()) WriteFile((root / "materials/x.mtr").string(), mtr);
  for (const std::string& image : images) {
    fs::create_directories((root / image).parent_path());
    WriteFile((root / image).string(), "not decoded by check");
  }
  return root;
}

TEST(MaterialCli, InfoListsMaterialsStagesAndWarnings) {
  const std::string mtr = TempPath("info.mtr");
  WriteFile(mtr,
            "table t { { 0, 1 } }\nmodels/x/skin\n{\n twoSided\n diffusemap models/x/skin_d.tga\n"
            " bumpmap addnormals( models/x/skin_local, heightmap( models/x/skin_h, 4 ) )\n"
            " { if ( parm4 > 0 )\n blend specularmap\n map models/x/skin_s }\n bogus 1\n}\n");
  const testing::CliRun run = RunCli("info " + Q(mtr));
  EXPECT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  const std::vector<std::string> expected = {
      mtr + ": decls, 1 material, 0 skins, 1 other decl skipped, 1 warning",
      "  material models/x/skin (2:1) twoSided",
      "    diffuse: models/x/skin_d.tga",
      "    normal: addnormals(models/x/skin_local, heightmap(models/x/skin_h, 4))",
      "    specular (blend specularmap): models/x/skin_s [conditional]",
  };
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(run.err, mtr +
                         ":10:2: warning: material 'models/x/skin': skipped unknown keyword "
                         "'bogus'\n");
}

TEST(MaterialCli, InfoJson) {
  const std::string skin = TempPath("info.skin");
  WriteFile(skin, "skin red { model models/x/x.md5mesh\n skin red_skin\n * nodraw }\n");
  const testing::CliRun run = RunCli("info --json " + Q(skin));
  ASSERT_EQ(run.status, 0) << run.err;
  Result<JsonValue> json = ParseJson("out", run.out);
  ASSERT_TRUE(json.ok()) << json.error().ToString() << run.out;
  EXPECT_EQ(json.value().Find("kind")->as_string(), "decls");
  const JsonValue& skins = *json.value().Find("skins");
  ASSERT_EQ(skins.as_array().size(), 1u);
  EXPECT_EQ(skins.as_array()[0].Find("name")->as_string(), "red");
  EXPECT_EQ(skins.as_array()[0].Find("remaps")->as_array().size(), 2u);
  EXPECT_EQ(skins.as_array()[0].Find("models")->as_array()[0].as_string(), "models/x/x.md5mesh");
}

TEST(MaterialCli, InfoRefusesABrokenDeclWithItsLocation) {
  const std::string mtr = TempPath("broken.mtr");
  WriteFile(mtr, "m {\n diffusemap a\n");
  const testing::CliRun run = RunCli("info " + Q(mtr));
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, mtr +
                         ":3:1: error: expected '}' closing material 'm' (opened at 1:3), found "
                         "end of file\n");
}

TEST(MaterialCli, CheckResolvesThroughTheMaterial) {
  const fs::path root = MakeModelFolder(
      "resolves", "skin { diffusemap models/x/skin_d.tga\n bumpmap models/x/skin_local.tga\n}",
      {"models/x/skin_d.png", "models/x/skin_local.tga"});
  const testing::CliRun run = RunCli("check " + Q((root / "models/x/x.md5mesh").string()) +
                                     " --materials " + Q(root.string()));
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 6u) << run.out;
  EXPECT_EQ(lines[1], "  part 0 \"skin\": material skin (materials/x.mtr:1:1)");
  EXPECT_EQ(lines[2], "    diffuse: models/x/skin_d.png");
  EXPECT_EQ(lines[3], "    normal: models/x/skin_local.tga");
  EXPECT_EQ(lines[4], "    specular: none");
  EXPECT_EQ(lines[5], "1 of 1 parts complete, 0 images missing, 0 parts without a diffuse image");
}

TEST(MaterialCli, CheckReportsMissingImagesAndFails) {
  const fs::path root =
      MakeModelFolder("missing", "skin { diffusemap models/x/skin_d\n specularmap models/x/s }",
                      {"models/x/skin_d.tga"});
  const testing::CliRun run = RunCli("check " + Q((root / "models/x/x.md5mesh").string()) +
                                     " --materials " + Q(root.string()));
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("    specular: MISSING models/x/s\n"), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("materials/x.mtr:2:14: warning: material 'skin': specular image "
                         "'models/x/s' not found"),
            std::string::npos)
      << run.err;
}

TEST(MaterialCli, CheckWithoutMaterialGuessesAndSkinsRemap) {
  const fs::path root = MakeModelFolder(
      "guess", "", {"textures/skin_d.tga", "textures/skin_n.png", "textures/red.png"});
  WriteFile((root / "materials/x.skin").string(), "skin red { skin textures/red }");
  const std::string mesh = Q((root / "models/x/x.md5mesh").string());
  const testing::CliRun plain = RunCli("check " + mesh + " --materials " + Q(root.string()));
  EXPECT_EQ(plain.status, 0) << plain.out << plain.err;
  EXPECT_NE(plain.out.find("  skins: red\n"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("no material, guessed from the shader's name\n"
                           "    diffuse: textures/skin_d.tga\n    normal: textures/skin_n.png\n"),
            std::string::npos)
      << plain.out;
  const testing::CliRun skinned =
      RunCli("check " + mesh + " --materials " + Q(root.string()) + " --skin RED --json");
  ASSERT_EQ(skinned.status, 0) << skinned.err;
  Result<JsonValue> json = ParseJson("out", skinned.out);
  ASSERT_TRUE(json.ok()) << skinned.out;
  const JsonValue& part = json.value().Find("parts")->as_array()[0];
  EXPECT_EQ(part.Find("shader_after_skin")->as_string(), "textures/red");
  EXPECT_EQ(
      part.Find("maps")->Find("diffuse")->Find("images")->as_array()[0].Find("file")->as_string(),
      "textures/red.png");
  EXPECT_TRUE(part.Find("maps")->Find("normal")->is_null());
}

struct BadArguments {
  const char* name;
  const char* args;
  const char* error;  // the first line of stderr
};

TEST(MaterialCli, BadArgumentsNameTheField) {
  const fs::path root = MakeModelFolder("args", "", {});
  const std::string mesh = Q((root / "models/x/x.md5mesh").string());
  const BadArguments cases[] = {
      {"no_value", "--materials", "md5stage check: --materials: expected a value, found nothing"},
      {"not_a_folder", "--materials /nonexistent/folder",
       "md5stage check: --materials: expected a folder, found '/nonexistent/folder'"},
      {"unknown_skin", "--skin nope --materials ROOT",
       "md5stage check: --skin: expected a skin defined under ROOT, found 'nope'"},
      {"json_without_materials", "--json x.md5anim",
       "md5stage check: --skin and --json need --materials DIR"},
      {"two_meshes", "other.md5mesh --materials ROOT",
       "md5stage check: --materials: expected one MESH, found 2 files"},
  };
  for (const BadArguments& c : cases) {
    std::string args = c.args, error = c.error;
    for (std::string* s : {&args, &error}) {
      const std::size_t at = s->find("ROOT");
      if (at != std::string::npos) s->replace(at, 4, root.string());
    }
    const testing::CliRun run = RunCli("check " + mesh + " " + args);
    EXPECT_EQ(run.status, 2) << c.name;
    EXPECT_EQ(Lines(run.err).empty() ? "" : Lines(run.err)[0], error) << c.name;
  }
}

struct WeaponCase {
  const char* mesh;
  int status;
  int complete_parts;
  int missing_images;
};

class UnvanquishedCheck : public ::testing::TestWithParam<WeaponCase> {};

TEST_P(UnvanquishedCheck, ResolvesTheShaders) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kUnv));
  const WeaponCase& c = GetParam();
  const testing::CliRun run = RunCli("check " + Q((kUnv / c.mesh).string()) + " --materials " +
                                     Q(kUnv.string()) + " --json");
  EXPECT_EQ(run.status, c.status) << run.err;
  Result<JsonValue> json = ParseJson("out", run.out);
  ASSERT_TRUE(json.ok()) << run.out;
  EXPECT_EQ(json.value().Find("complete_parts")->as_number(), c.complete_parts);
  EXPECT_EQ(json.value().Find("missing_images")->as_number(), c.missing_images);
  EXPECT_EQ(json.value().Find("materials")->as_number(), 13);
  for (const JsonValue& part : json.value().Find("parts")->as_array()) {
    if (!part.Find("complete")->as_bool()) continue;
    const std::string stem = part.Find("shader")->as_string();
    const JsonValue& maps = *part.Find("maps");
    EXPECT_EQ(maps.Find("diffuse")->Find("images")->as_array()[0].Find("file")->as_string(),
              stem + ".png");
    EXPECT_EQ(maps.Find("normal")->Find("images")->as_array()[0].Find("file")->as_string(),
              stem + "_n.png");
    EXPECT_EQ(maps.Find("specular")->Find("images")->as_array()[0].Find("file")->as_string(),
              stem + "_s.png");
  }
}

// The rifle's diffuse map and the hand material are not in the set (see its LICENSE-NOTE).
const WeaponCase kWeapons[] = {
    {"models/weapons/grenade/grenade.md5mesh", 0, 1, 0},
    {"models/weapons/firebomb/firebomb.md5mesh", 0, 1, 0},
    {"models/weapons/rifle/rifle_view.md5mesh", 1, 0, 1},
};

INSTANTIATE_TEST_SUITE_P(Meshes, UnvanquishedCheck, ::testing::ValuesIn(kWeapons),
                         [](const auto& info) {
                           return fs::path(info.param.mesh).stem().string();
                         });

TEST(MaterialCli, DarkRadiantFlagWithASkinFromADefFile) {
  const fs::path dark = fs::path(MD5STAGE_SHARED_DIR) / "md5" / "darkradiant_decls";
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(dark));
  const std::string mesh = Q((dark / "models/md5/testflag.md5mesh").string());
  // flag_pirate is defined nowhere: no material, nothing to guess, so check fails.
  const testing::CliRun plain = RunCli("check " + mesh + " --materials " + Q(dark.string()));
  EXPECT_EQ(plain.status, 1);
  EXPECT_NE(plain.out.find("0 of 2 parts complete, 0 images missing, 2 parts without a diffuse "
                           "image"),
            std::string::npos)
      << plain.out;
  const testing::CliRun skinned = RunCli("check " + mesh + " --materials " + Q(dark.string()) +
                                         " --skin swap_flag_pirate_with_caulk");
  // The skin (in def/skinned_models.def) swaps in TDM's caulk, defined without images.
  EXPECT_NE(skinned.out.find("  part 0 \"flag_pirate\" (skin: textures/common/caulk): material "
                             "textures/common/caulk (materials/tdm_internal_engine.mtr:151:1)"),
            std::string::npos)
      << skinned.out;
}

TEST(MaterialCli, InfoOnEveryUnvanquishedShader) {
  MD5STAGE_SKIP_WITHOUT_SHARED(fs::is_directory(kUnv));
  for (const char* name : {"grenade", "firebomb", "rifle"}) {
    const fs::path path = kUnv / "scripts" / (std::string(name) + ".shader");
    const testing::CliRun run = RunCli("info " + Q(path.string()));
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, "") << name;
    EXPECT_NE(run.out.find("  material models/weapons/" + std::string(name) + "/" + name +
                           " (1:1)\n    diffuse: models/weapons/" + name + "/" + name + "\n"),
              std::string::npos)
        << run.out;
  }
}

}  // namespace
}  // namespace md5stage
