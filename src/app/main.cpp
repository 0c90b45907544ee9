// Browser entry point: starts the App, runs its frames from the browser's main loop, and exports
// the C functions that web/main.js calls.
#include <emscripten.h>

#include <string>

#include "app/app.h"

namespace {

md5stage::app::App g_app;
std::string g_reply;  // keeps returned strings alive until the next call

EM_JS(void, JsShowFatalError, (const char* message), {
  if (Module.md5stageFatal) Module.md5stageFatal(UTF8ToString(message));
});

void RunFrame() { g_app.Frame(); }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* md5stage_state_json() {
  g_reply = g_app.StateJson();
  return g_reply.c_str();
}

}  // extern "C"

int main() {
  std::string error;
  if (!g_app.Init(&error)) {
    JsShowFatalError(error.c_str());
    return 1;
  }
  emscripten_set_main_loop(RunFrame, 0, false);
  return 0;
}
