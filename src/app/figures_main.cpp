// The figures module (md5stage-figures.wasm): every <md5-stage> element of a page is a stage of
// this one module, drawn with one WebGL2 context into the top-left corner of a shared canvas,
// from where web/md5stage-element.js copies it into the element's own canvas. No ImGui, no
// converter: only what a figure needs (docs/design.md, "Figures").
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/json.h"
#include "render/draw_list_renderer.h"
#include "render/gl.h"
#include "render/line_renderer.h"
#include "render/skinned_mesh_renderer.h"
#include "viewer/embed_options.h"
#include "viewer/key_bindings.h"
#include "viewer/render_scale.h"
#include "viewer/stage_hub.h"

namespace {

using md5stage::JsonValue;
namespace viewer = md5stage::viewer;

// JavaScript bodies, left as written.
// clang-format off
EM_JS(int, JsFetch, (int stage, int request, const char* url, const char* label, int index, int count), {
  if (!Module.md5stageFetch) return 0;
  Module.md5stageFetch(stage, request, UTF8ToString(url), UTF8ToString(label), index, count);
  return 1;
});
EM_JS(void, JsEvent, (int stage, const char* name, const char* detail_json), {
  if (Module.md5stageEvent)
    Module.md5stageEvent(UTF8ToString(name), UTF8ToString(detail_json), stage);
});
// Whether the current context is drawn by a CPU rasterizer (SwiftShader, Mesa's llvmpipe or
// softpipe, Windows' basic render driver): what browsers fall back to without a usable GPU.
EM_JS(int, JsSoftwareRenderer, (), {
  const info = GLctx.getExtension('WEBGL_debug_renderer_info');
  const name = String(GLctx.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : GLctx.RENDERER));
  return /SwiftShader|llvmpipe|softpipe|software|Basic Render/i.test(name) ? 1 : 0;
});
// Frees a context now rather than at the next garbage collection (it counts against the
// browser's limit of live contexts until then).
EM_JS(void, JsLoseContext, (), {
  const lose = GLctx.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
});
// clang-format on

class FiguresHost : public viewer::HubHost {
 public:
  bool Fetch(int stage, const viewer::FetchRequest& r) override {
    return JsFetch(stage, r.request, r.url.c_str(), r.label.c_str(), r.index, r.count) != 0;
  }
  void Event(int stage, const std::string& name, const JsonValue& detail) override {
    JsEvent(stage, name.c_str(), md5stage::WriteJson(detail).c_str());
  }
};

struct Figures {
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = 0;
  std::unique_ptr<md5stage::render::SkinnedMeshRenderer> meshes;
  std::unique_ptr<md5stage::render::LineRenderer> lines;
  FiguresHost host;
  std::unique_ptr<viewer::StageHub> hub;
  // This frame's figures, prepared (moved on, their draw lists built) and not drawn yet: the
  // page prepares each visible figure, then md5stage_figures_draw draws them all.
  std::vector<viewer::DrawList> lists;
  std::vector<md5stage::render::DrawListView> views;
  bool lost = false;
  std::string reply;  // keeps the returned string alive until the next call
  // Per stage, its last draw list's texts as JSON: the page draws them with the 2D canvas after
  // copying the picture, since this module has no font renderer (no ImGui).
  std::unordered_map<int, std::string> texts;
  // Dynamic resolution: the scale the page's figures draw at, from its frames' times.
  viewer::RenderScaleController render_scale;
};
Figures g;

// md5stage_figure_frame's result bits (web/md5stage-element.js reads them).
constexpr int kFigureDrawn = 1;
constexpr int kFigureAnimating = 2;
constexpr int kFigureTexts = 4;

bool MakeRenderers(std::string* error) {
  auto meshes = std::make_unique<md5stage::render::SkinnedMeshRenderer>();
  auto lines = std::make_unique<md5stage::render::LineRenderer>();
  if (!meshes->Init(error) || !lines->Init(error)) return false;
  g.meshes = std::move(meshes);
  g.lines = std::move(lines);
  return true;
}

const char* Keep(const JsonValue& value) {
  g.reply = md5stage::WriteJson(value);
  return g.reply.c_str();
}

viewer::Stage* StageOf(int stage) { return g.hub ? g.hub->Find(stage) : nullptr; }

// [{"x": px, "y": px, "text": "h = 95.2", "color": [r, g, b, a]}, ...] in figure pixels (y down).
std::string TextsJson(const viewer::DrawList& list) {
  if (list.texts.empty()) return "[]";  // most figures' every frame
  md5stage::JsonArray texts;
  for (const viewer::DrawList::Text& text : list.texts) {
    JsonValue entry = JsonValue::MakeObject();
    entry.Set("x", static_cast<double>(text.position.x));
    entry.Set("y", static_cast<double>(text.position.y));
    entry.Set("text", text.text);
    entry.Set("color",
              JsonValue(md5stage::JsonArray{JsonValue(text.color.r), JsonValue(text.color.g),
                                            JsonValue(text.color.b), JsonValue(text.color.a)}));
    texts.push_back(std::move(entry));
  }
  return md5stage::WriteJson(JsonValue(std::move(texts)));
}

}  // namespace

extern "C" {

// Creates the WebGL2 context on the canvas (a CSS selector), with multisampling or not, and
// (the first time) the stages' hub; "" on success, else why not. Called again with another canvas
// it first drops the context it made before (a canvas keeps the attributes of its first context).
EMSCRIPTEN_KEEPALIVE const char* md5stage_figures_start(const char* canvas, int antialias) {
  if (g.context > 0) {
    emscripten_webgl_make_context_current(g.context);
    g.meshes.reset();
    g.lines.reset();
    JsLoseContext();
    emscripten_webgl_destroy_context(g.context);
    g.context = 0;
  }
  EmscriptenWebGLContextAttributes attributes;
  emscripten_webgl_init_context_attributes(&attributes);
  attributes.majorVersion = 2;
  attributes.minorVersion = 0;
  attributes.alpha = false;
  attributes.depth = true;
  attributes.antialias = antialias != 0;
  attributes.preserveDrawingBuffer = false;  // each figure is copied out right after it is drawn
  g.context = emscripten_webgl_create_context(canvas, &attributes);
  if (g.context <= 0) return "This browser could not create a WebGL2 context.";
  emscripten_webgl_make_context_current(g.context);
  static std::string error;
  if (!MakeRenderers(&error)) return error.c_str();
  if (!g.hub) {
    g.hub = std::make_unique<viewer::StageHub>(g.meshes.get(), &g.host);
  } else {
    g.hub->RecreateGpuObjects(g.meshes.get());
  }
  return "";
}

// 1 when the context is drawn by a CPU rasterizer: there multisampling is most of a figure's
// cost (a page of 4 figures: 14 frames a second with it, 37 without), so the page starts again
// without it (docs/design.md, "Figures").
EMSCRIPTEN_KEEPALIVE int md5stage_figures_software() {
  return g.context > 0 && JsSoftwareRenderer() ? 1 : 0;
}

// {"cmd": NAME, "stage": ID, ...} -> JSON reply, as the viewer's md5stage_call.
EMSCRIPTEN_KEEPALIVE const char* md5stage_call(const char* json) {
  if (!g.hub) return "{\"ok\":false,\"error\":\"not started\"}";
  md5stage::JsonLimits limits;
  limits.max_bytes = viewer::kMaxEmbedUrlChars + 4096;
  auto parsed = md5stage::ParseJson("command", json ? json : "", limits);
  if (!parsed.ok()) {
    JsonValue reply = JsonValue::MakeObject();
    reply.Set("ok", false);
    reply.Set("error", parsed.error().ToString());
    return Keep(reply);
  }
  return Keep(g.hub->Call(parsed.value()));
}

// The page's answer to a stage's fetch: the bytes, or what went wrong.
EMSCRIPTEN_KEEPALIVE void md5stage_fetched(int stage, int request, int ok, const uint8_t* data,
                                           int size, const char* error) {
  viewer::Stage* target = StageOf(stage);
  if (target == nullptr) return;
  std::string bytes;
  if (ok && data != nullptr && size > 0)
    bytes.assign(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  target->OnFetched(request, ok != 0, std::move(bytes), error ? error : "");
}

// Moves the stage's clocks by dt and builds its picture for the width x height pixels whose
// top-left corner is (x, y) in the drawing buffer (canvas_height tall, y down as on the page).
// Returns kFigure* bits: 0 when there is nothing to draw (no stage, or the context is lost);
// kFigureAnimating when the picture changes with time alone, so that the page asks for the next
// frame; kFigureTexts when md5stage_figure_texts has labels to draw (most frames have none, and
// the page then skips that call). The page prepares every visible figure, laid out side by
// side, then draws them all with md5stage_figures_draw and copies them out: one upload and one
// flush of the GL queue per frame.
EMSCRIPTEN_KEEPALIVE int md5stage_figure_frame(int stage, double dt, int x, int y, int width,
                                               int height, double ratio, int canvas_height) {
  viewer::Stage* target = StageOf(stage);
  if (target == nullptr || g.lost || width <= 0 || height <= 0) return 0;
  target->SetViewport(width, height, static_cast<float>(ratio));
  target->Update(dt);
  const size_t index = g.views.size();
  if (g.lists.size() <= index) g.lists.resize(index + 1);
  target->BuildDrawList(&g.lists[index]);
  target->PlaceHotspots();
  std::string& texts = g.texts[stage];
  if (!(g.lists[index].texts.empty() && texts == "[]")) texts = TextsJson(g.lists[index]);
  md5stage::render::DrawListView view;  // its list is g.lists[index], pointed to when drawn
  view.x = x;
  view.y = std::max(0, canvas_height - y - height);
  view.width = width;
  view.height = height;
  g.views.push_back(view);
  target->EndFrame();
  return kFigureDrawn | (target->Animating() ? kFigureAnimating : 0) |
         (g.lists[index].texts.empty() ? 0 : kFigureTexts);
}

// The stage's hotspots as its last frame placed them (setHotspots sets them):
// Stage::kHotspotFloats floats each (framebuffer x, y, flags), valid until its next frame or
// command; null when it has none.
EMSCRIPTEN_KEEPALIVE const float* md5stage_figure_hotspots(int stage) {
  const viewer::Stage* target = StageOf(stage);
  if (target == nullptr || target->placed_hotspots().empty()) return nullptr;
  return target->placed_hotspots().data();
}

// Draws every figure prepared since the last call into its region of the drawing buffer.
EMSCRIPTEN_KEEPALIVE void md5stage_figures_draw(int canvas_width, int canvas_height) {
  if (!g.lost && !g.views.empty()) {
    for (size_t i = 0; i < g.views.size(); ++i) g.views[i].list = &g.lists[i];
    md5stage::render::DrawDrawLists(g.views, glm::vec3(0.13f, 0.14f, 0.17f), canvas_width,
                                    canvas_height, *g.meshes, *g.lines);
  }
  g.views.clear();
}

// The texts of the stage's last frame (labels of the construction view, joint names) as JSON,
// in its framebuffer pixels: "[]" when there are none or no frame was drawn.
EMSCRIPTEN_KEEPALIVE const char* md5stage_figure_texts(int stage) {
  const auto found = g.texts.find(stage);
  return found == g.texts.end() ? "[]" : found->second.c_str();
}

// Pointer input in the figure's framebuffer pixels: kind 0 move, 1 press, 2 release; button
// 0 left, 1 right, 2 middle.
EMSCRIPTEN_KEEPALIVE void md5stage_figure_pointer(int stage, int kind, double x, double y,
                                                  int button, int shift) {
  viewer::Stage* target = StageOf(stage);
  if (target == nullptr) return;
  target->SetShiftHeld(shift != 0);
  target->OnCursor(x, y);
  if (kind == 0) return;
  const viewer::MouseButton which = button == 0   ? viewer::MouseButton::kLeft
                                    : button == 1 ? viewer::MouseButton::kRight
                                                  : viewer::MouseButton::kMiddle;
  target->OnMouseButton(which, kind == 1);
}

EMSCRIPTEN_KEEPALIVE void md5stage_figure_wheel(int stage, double steps) {
  if (viewer::Stage* target = StageOf(stage)) target->OnScroll(steps);
}

// A key pressed on a focused figure, by its KeyboardEvent.key name (the table the viewer shares,
// viewer/key_bindings.h), `repeat` when the keyboard repeats a held key (only keys that repeat
// act again). A press counts once however short; 1 when the figure takes the key (the page then
// keeps it from scrolling), 0 for keys no stage answers.
EMSCRIPTEN_KEEPALIVE int md5stage_figure_key(int stage, const char* name, int repeat) {
  viewer::Stage* target = StageOf(stage);
  const viewer::KeyBinding* binding = viewer::FindKeyBinding(name != nullptr ? name : "");
  if (target == nullptr || binding == nullptr) return 0;
  if (!repeat || binding->repeats) {
    target->OnKeyDown(binding->key);
    target->OnKeyUp(binding->key);
  }
  return 1;
}

// The time the page's last frame of figures took (ms, its update, render and copies): returns
// the render scale for the next frames (viewer/render_scale.h).
EMSCRIPTEN_KEEPALIVE double md5stage_figures_frame_time(double ms) {
  return g.render_scale.Observe(ms);
}

// The lowest render scale of the page's figures (the least min-render-scale among them).
EMSCRIPTEN_KEEPALIVE void md5stage_figures_min_render_scale(double minimum) {
  g.render_scale.SetMinimum(minimum);
}

// webglcontextlost: nothing is drawn until the context comes back.
EMSCRIPTEN_KEEPALIVE void md5stage_context_lost() { g.lost = true; }

// webglcontextrestored: new renderers, and every stage's meshes and textures made again from
// what the stages hold. 1 on success.
EMSCRIPTEN_KEEPALIVE int md5stage_context_restored() {
  if (!g.hub) return 0;
  emscripten_webgl_make_context_current(g.context);
  std::string error;
  // The old renderers' objects died with the context; they are dropped, not deleted one by one.
  g.meshes.release();
  g.lines.release();
  if (!MakeRenderers(&error)) return 0;
  g.hub->RecreateGpuObjects(g.meshes.get());
  g.lost = false;
  return 1;
}

}  // extern "C"

int main() { return 0; }  // the page starts it with md5stage_figures_start
