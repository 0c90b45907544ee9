// Google Benchmark's CPU timer under Emscripten reads the wall clock (emscripten_get_now). On a
// shared machine that counts time the process was not running, while the native numbers are CPU
// time; the wasm build points that call here instead (see CMakeLists.txt): node's
// process.cpuUsage(), user + system time of the process, in milliseconds.
#include <emscripten.h>

EM_JS(double, md5stage_process_cpu_now_ms, (), {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
});
