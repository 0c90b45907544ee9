// The key light and shading switches: direction from azimuth/elevation, Shift + drag, the
// setLight / setShading commands (errors name the field, a bad command changes nothing), the
// state and draw list that carry them, and the panels' requests.
#include "viewer/shading.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ui/panel_commands.h"
#include "viewer/stage.h"

namespace md5stage::viewer {
namespace {

JsonValue Command(const std::string& json) {
  auto parsed = ParseJson("test", json);
  EXPECT_TRUE(parsed.ok()) << json;
  return parsed.ok() ? parsed.value() : JsonValue();
}

TEST(ShadingOptions, LightDirection) {
  const float h = std::sqrt(0.5f);
  struct Case {
    float azimuth, elevation;
    glm::vec3 direction;
  };
  const Case cases[] = {
      {0, 0, {1, 0, 0}},    {90, 0, {0, 1, 0}},      {180, 0, {-1, 0, 0}},
      {270, 0, {0, -1, 0}}, {123, 90, {0, 0, 1}},    {0, -90, {0, 0, -1}},
      {45, 0, {h, h, 0}},   {180, -45, {-h, 0, -h}}, {360, 45, {h, 0, h}},
  };
  for (const Case& c : cases) {
    ShadingOptions shading;
    shading.light_azimuth = c.azimuth;
    shading.light_elevation = c.elevation;
    const glm::vec3 d = shading.LightDirection();
    EXPECT_LT(glm::length(d - c.direction), 1e-5f) << c.azimuth << " " << c.elevation;
    EXPECT_NEAR(glm::length(d), 1.0f, 1e-5f);
  }
  // The default is the fixed light the viewer had before the light could turn.
  EXPECT_LT(
      glm::length(ShadingOptions().LightDirection() - glm::normalize(glm::vec3(0.4f, 0.3f, 0.85f))),
      0.01f);
}

TEST(ShadingOptions, NormalizeWrapsAzimuthAndClampsElevation) {
  const float nan = std::nanf("");
  struct Case {
    float azimuth, elevation, want_azimuth, want_elevation;
  };
  const Case cases[] = {
      {10, 20, 10, 20}, {370, 0, 10, 0},   {-30, 0, 330, 0}, {720, 0, 0, 0},
      {0, 120, 0, 90},  {0, -200, 0, -90}, {nan, nan, 0, 0}, {359.5f, 89, 359.5f, 89},
  };
  for (const Case& c : cases) {
    ShadingOptions shading;
    shading.light_azimuth = c.azimuth;
    shading.light_elevation = c.elevation;
    shading.Normalize();
    EXPECT_NEAR(shading.light_azimuth, c.want_azimuth, 1e-4f) << c.azimuth;
    EXPECT_NEAR(shading.light_elevation, c.want_elevation, 1e-4f) << c.elevation;
  }
}

class ShadingViewerTest : public ::testing::Test {
 protected:
  ShadingViewerTest() : viewer_(&backend_, nullptr) { viewer_.SetViewport(1280, 720, 1.0f); }
  JsonValue Call(const std::string& json) { return viewer_.Call(Command(json)); }
  static bool Ok(const JsonValue& reply) { return reply.Find("ok") && reply.Find("ok")->as_bool(); }
  static std::string Error(const JsonValue& reply) {
    const JsonValue* error = reply.Find("error");
    return error && error->is_string() ? error->as_string() : "";
  }
  double StateNumber(const char* group, const char* field) {
    return viewer_.State().Find(group)->Find(field)->as_number();
  }

  NullRenderBackend backend_;
  Stage viewer_;
};

TEST_F(ShadingViewerTest, SetLightAndSetShadingReachStateAndDrawList) {
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setLight","azimuth":-90,"elevation":30})")));
  EXPECT_NEAR(StateNumber("light", "azimuth"), 270.0, 1e-4);
  EXPECT_NEAR(StateNumber("light", "elevation"), 30.0, 1e-4);
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setLight","elevation":-10})")));  // azimuth kept
  EXPECT_NEAR(StateNumber("light", "azimuth"), 270.0, 1e-4);
  const JsonValue light_state = viewer_.State();  // kept: Find points into it
  const JsonValue* direction = light_state.Find("light")->Find("direction");
  ASSERT_TRUE(direction && direction->is_array());
  EXPECT_NEAR(direction->as_array()[1].as_number(), -std::cos(10.0 * 3.14159265 / 180), 1e-5);

  ASSERT_TRUE(
      Ok(Call(R"({"cmd":"setShading","normalMaps":false,"specular":false,"channel":"normals"})")));
  const JsonValue state = viewer_.State();
  EXPECT_FALSE(state.Find("shading")->Find("normalMaps")->as_bool());
  EXPECT_FALSE(state.Find("shading")->Find("specular")->as_bool());
  EXPECT_EQ(state.Find("shading")->Find("channel")->as_string(), "normals");
  DrawList list;
  viewer_.BuildDrawList(&list);
  EXPECT_FALSE(list.shading.normal_maps);
  EXPECT_FALSE(list.shading.specular);
  EXPECT_EQ(list.shading.channel, ShadingChannel::kNormals);
  EXPECT_NEAR(list.shading.light_elevation, -10.0f, 1e-4f);
}

TEST_F(ShadingViewerTest, ABadCommandNamesTheFieldAndChangesNothing) {
  ASSERT_TRUE(Ok(Call(R"({"cmd":"setLight","azimuth":10,"elevation":20})")));
  struct Case {
    const char* command;
    const char* field;
  };
  const Case cases[] = {
      {R"({"cmd":"setLight","azimuth":"north","elevation":5})", "azimuth"},
      {R"({"cmd":"setLight","azimuth":5,"elevation":91})", "elevation"},
      {R"({"cmd":"setLight","azimuth":400})", "azimuth"},
      {R"({"cmd":"setLight","height":3})", "height"},
      {R"({"cmd":"setShading","normalMaps":false,"channel":"albedo"})", "channel"},
      {R"({"cmd":"setShading","specular":1})", "specular"},
  };
  for (const Case& c : cases) {
    const JsonValue reply = Call(c.command);
    EXPECT_FALSE(Ok(reply)) << c.command;
    EXPECT_NE(Error(reply).find(c.field), std::string::npos) << Error(reply);
  }
  EXPECT_NEAR(StateNumber("light", "azimuth"), 10.0, 1e-4);
  EXPECT_NEAR(StateNumber("light", "elevation"), 20.0, 1e-4);
  EXPECT_TRUE(viewer_.shading().normal_maps);
  EXPECT_TRUE(viewer_.shading().specular);
}

TEST_F(ShadingViewerTest, ShiftDragTurnsTheLightAndNotTheCamera) {
  const ShadingOptions before = viewer_.shading();
  const glm::vec3 eye = viewer_.camera().EyePosition();
  viewer_.OnCursor(600, 300);
  viewer_.SetShiftHeld(true);
  viewer_.OnMouseButton(MouseButton::kLeft, true);
  viewer_.OnCursor(640, 280);  // 40 right, 20 up
  viewer_.OnMouseButton(MouseButton::kLeft, false);
  viewer_.SetShiftHeld(false);
  EXPECT_NEAR(viewer_.shading().light_azimuth, before.light_azimuth - 20.0f, 1e-4f);
  EXPECT_NEAR(viewer_.shading().light_elevation, before.light_elevation + 10.0f, 1e-4f);
  EXPECT_LT(glm::length(viewer_.camera().EyePosition() - eye), 1e-4f);
  // The same drag without Shift orbits the camera and leaves the light.
  viewer_.OnMouseButton(MouseButton::kLeft, true);
  viewer_.OnCursor(700, 300);
  viewer_.OnMouseButton(MouseButton::kLeft, false);
  EXPECT_NEAR(viewer_.shading().light_azimuth, before.light_azimuth - 20.0f, 1e-4f);
  EXPECT_GT(glm::length(viewer_.camera().EyePosition() - eye), 1e-3f);
  // Shift released mid-drag: the drag that began with it still turns the light to its end.
  viewer_.SetShiftHeld(true);
  viewer_.OnMouseButton(MouseButton::kLeft, true);
  viewer_.SetShiftHeld(false);
  viewer_.OnCursor(700, 400);
  viewer_.OnMouseButton(MouseButton::kLeft, false);
  EXPECT_NEAR(viewer_.shading().light_elevation, before.light_elevation + 10.0f - 50.0f, 1e-4f);
}

// The Display panel's light sliders typed past their ends (Ctrl+click): the command it makes
// wraps the azimuth and stops the elevation, as a drag of the light does; where the panels drew
// their widgets reaches state().
TEST_F(ShadingViewerTest, PanelCommandsAreNormalizedAndItemRectsReachTheState) {
  ShadingOptions shading;
  shading.light_azimuth = -45.0f;
  shading.light_elevation = 100.0f;
  shading.channel = ShadingChannel::kSpecular;
  const ui::ViewerModel before = viewer_.BuildViewerModel();
  ASSERT_NE(before.shading.channel, ShadingChannel::kSpecular);
  ASSERT_TRUE(Ok(viewer_.Call(ui::command::SetShading(shading))));
  ASSERT_TRUE(Ok(viewer_.Call(ui::command::SetLight(shading))));
  viewer_.SetPanelItemRects({{"normal maps", glm::vec4(10, 20, 30, 40)}});
  EXPECT_NEAR(viewer_.shading().light_azimuth, 315.0f, 1e-4f);
  EXPECT_NEAR(viewer_.shading().light_elevation, 90.0f, 1e-4f);
  EXPECT_EQ(viewer_.BuildViewerModel().shading.channel, ShadingChannel::kSpecular);
  const JsonValue items_state = viewer_.State();  // kept: Find points into it
  const JsonValue* rect = items_state.Find("ui_items")->Find("normal maps");
  ASSERT_TRUE(rect && rect->is_array());
  EXPECT_EQ(rect->as_array()[2].as_number(), 30.0);
}

}  // namespace
}  // namespace md5stage::viewer
