// md5stage_api_types: writes what the page makes of the command table (viewer/command_spec.h): the
// TypeScript declaration of window.md5stage, and the table as a script that build_wasm.sh bundles
// before main.js, from which the page runtime makes window.md5stage's functions.
//
//   md5stage_api_types OUT.d.ts OUT.js
#include <cstdio>
#include <fstream>
#include <string>

#include "viewer/command_spec.h"

namespace {

bool Write(const char* path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "md5stage_api_types: cannot write %s\n", path);
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: md5stage_api_types OUT.d.ts OUT.js\n");
    return 2;
  }
  const bool ok = Write(argv[1], md5stage::viewer::WritePageApiTypeScript()) &&
                  Write(argv[2], md5stage::viewer::WritePageCommandTableScript());
  return ok ? 0 : 1;
}
