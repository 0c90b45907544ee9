// md5stage_api_types: writes what the pages make of the command table (viewer/command_spec.h) and
// of the <md5-stage> element's table (viewer/element_spec.h): the TypeScript declaration of
// window.md5stage, and the command table as a script that build_wasm.sh bundles before main.js,
// from which the page runtime makes window.md5stage's functions; with the element's three
// further paths, the element's TypeScript declaration, its React JSX declaration, and its
// attribute table as a script bundled before md5stage-element.js.
//
//   md5stage_api_types OUT.d.ts OUT.js [ELEMENT.d.ts ELEMENT-REACT.d.ts ELEMENT-TABLE.js]
#include <cstdio>
#include <fstream>
#include <string>

#include "viewer/command_spec.h"
#include "viewer/element_spec.h"

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
  if (argc != 3 && argc != 6) {
    std::fprintf(stderr,
                 "usage: md5stage_api_types OUT.d.ts OUT.js [ELEMENT.d.ts ELEMENT-REACT.d.ts "
                 "ELEMENT-TABLE.js]\n");
    return 2;
  }
  namespace viewer = md5stage::viewer;
  bool ok = Write(argv[1], viewer::WritePageApiTypeScript()) &&
            Write(argv[2], viewer::WritePageCommandTableScript());
  if (ok && argc == 6) {
    ok = Write(argv[3], viewer::WriteElementTypeScript()) &&
         Write(argv[4], viewer::WriteElementReactTypeScript()) &&
         Write(argv[5], viewer::WriteElementTableScript());
  }
  return ok ? 0 : 1;
}
