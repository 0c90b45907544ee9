// md5stage_api_types: writes the TypeScript declaration of the page API (window.md5stage) made from
// the command table (viewer/command_spec.h). The build stages it beside the page and the package.
//
//   md5stage_api_types OUT.d.ts
#include <cstdio>
#include <fstream>

#include "viewer/command_spec.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: md5stage_api_types OUT.d.ts\n");
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << md5stage::viewer::WritePageApiTypeScript();
  out.close();
  if (!out) {
    std::fprintf(stderr, "md5stage_api_types: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
