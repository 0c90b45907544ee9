// Browser entry point: starts the App, runs its frames from the browser's main loop, and exports
// the C functions that web/main.js calls (JSON in, JSON out; bytes copied in).
#include <emscripten.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "app/app.h"
#include "core/common/json.h"
#include "viewer/embed_options.h"

namespace {

md5stage::app::App g_app;
bool g_started = false;
std::string g_reply;  // keeps the returned string alive until the next call

EM_JS(void, JsShowFatalError, (const char* message), {
  if (Module.md5stageFatal) Module.md5stageFatal(UTF8ToString(message));
});

// Tells the page (web/main.js) that a frame was drawn; the first call starts the page's API.
EM_JS(void, JsFrameRendered, (int frame), {
  if (Module.md5stageFrameRendered) Module.md5stageFrameRendered(frame);
});

void RunFrame() {
  g_app.Frame();
  JsFrameRendered(static_cast<int>(g_app.viewer().frame()));
}

const char* Keep(const md5stage::JsonValue& value) {
  g_reply = md5stage::WriteJson(value);
  return g_reply.c_str();
}

}  // namespace

extern "C" {

// {"cmd": NAME, ...} -> JSON reply. Malformed JSON is answered, never fatal.
EMSCRIPTEN_KEEPALIVE const char* md5stage_call(const char* json) {
  if (!g_started) return "{\"ok\":false,\"error\":\"not started\"}";
  // Room for the largest field a command takes (a page location of kMaxEmbedUrlChars).
  md5stage::JsonLimits limits;
  limits.max_bytes = md5stage::viewer::kMaxEmbedUrlChars + 4096;
  auto parsed = md5stage::ParseJson("command", json ? json : "", limits);
  if (!parsed.ok()) {
    md5stage::JsonValue reply = md5stage::JsonValue::MakeObject();
    reply.Set("ok", false);
    reply.Set("error", parsed.error().ToString());
    return Keep(reply);
  }
  return Keep(g_app.hub().Call(parsed.value()));
}

// Copies one file into the stage's next load batch; "loadQueued" loads the batch. False for a
// stage that is not open.
EMSCRIPTEN_KEEPALIVE int md5stage_queue_stage_file(int stage, const char* name, const char* source,
                                                   const uint8_t* data, int size) {
  md5stage::viewer::Stage* target = g_started ? g_app.hub().Find(stage) : nullptr;
  if (target == nullptr) return 0;
  md5stage::viewer::InputFile file;
  file.name = name ? name : "";
  file.source = source ? source : "local";
  if (data != nullptr && size > 0)
    file.bytes.assign(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  target->QueueFile(std::move(file));
  return 1;
}

// The page's answer to a stage's fetch (App::Fetch): the bytes, or what went wrong.
EMSCRIPTEN_KEEPALIVE void md5stage_fetched(int stage, int request, int ok, const uint8_t* data,
                                           int size, const char* error) {
  md5stage::viewer::Stage* target = g_started ? g_app.hub().Find(stage) : nullptr;
  if (target == nullptr) return;
  std::string bytes;
  if (ok && data != nullptr && size > 0)
    bytes.assign(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  target->OnFetched(request, ok != 0, std::move(bytes), error ? error : "");
}

// The main stage's batch (pages and scripts made before stages).
EMSCRIPTEN_KEEPALIVE void md5stage_queue_file(const char* name, const char* source,
                                              const uint8_t* data, int size) {
  md5stage_queue_stage_file(md5stage::viewer::StageHub::kMainStage, name, source, data, size);
}

// Asks for the main view drawn afresh at width x height pixels after the next frame; the page
// gets its PNG through Module.md5stagePoster. "" when asked, else what is wrong with a side.
EMSCRIPTEN_KEEPALIVE const char* md5stage_request_poster(int width, int height) {
  if (!g_started) return "not started";
  static std::string error;
  error.clear();
  return g_app.RequestPoster(width, height, &error) ? "" : error.c_str();
}

// The allocator's bytes in use: every block malloc has handed out and not taken back, with its
// header (mallinfo's uordblks, exact for dlmalloc, the viewer's allocator, and for emmalloc).
// The soak test's leak measure (docs/reliability.md, section 5): unlike where a probe allocation
// lands, it does not move with fragmentation.
EMSCRIPTEN_KEEPALIVE double md5stage_heap_bytes_in_use() { return mallinfo().uordblks; }

}  // extern "C"

int main() {
  std::string error;
  if (!g_app.Init(&error)) {
    JsShowFatalError(error.c_str());
    return 1;
  }
  g_started = true;
  emscripten_set_main_loop(RunFrame, 0, false);
  return 0;
}
