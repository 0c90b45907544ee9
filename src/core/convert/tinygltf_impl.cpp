// tinygltf's implementation (the single header from Debian's libtinygltf-dev, with
// nlohmann-json3-dev) compiled here with exceptions off (TINYGLTF_NOEXCEPTION, JSON_NOEXCEPTION),
// so the core never sees one and the same code can build for wasm. No stb image decoding or
// writing and no image files: the exporter embeds image bytes itself. The options are compile
// definitions of md5stage_convert (CMakeLists.txt): the class's defaults depend on them in every
// file that includes the header.
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
