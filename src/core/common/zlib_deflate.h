// One zlib deflate of a whole buffer into a malloc'd block: what stb_image_write's
// STBIW_ZLIB_COMPRESS hook wants (stb frees it with free), shared by core's PNG encoder and the
// asset generator's, which differ only in the level. Header-only so the asset generator takes it
// without linking a core module.
#pragma once

#include <zlib.h>

#include <cstdlib>

namespace md5stage {

// The zlib stream of `data` at `level` (Z_DEFAULT_COMPRESSION, Z_BEST_COMPRESSION, ...) with
// `memory_level` (zlib's 1-9; 8 is deflateInit's), its length in *out_length; null when zlib fails
// or memory runs out. The stream functions, not compress2: the wasm build compiles only zlib's
// deflate and inflate.
inline unsigned char* ZlibDeflateMalloc(const unsigned char* data, int data_length, int level,
                                        int memory_level, int* out_length) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, 15, memory_level, Z_DEFAULT_STRATEGY) != Z_OK) {
    return nullptr;
  }
  const uLong bound = deflateBound(&stream, static_cast<uLong>(data_length));
  auto* out = static_cast<unsigned char*>(std::malloc(bound));
  if (out == nullptr) {
    deflateEnd(&stream);
    return nullptr;
  }
  stream.next_in = const_cast<unsigned char*>(data);
  stream.avail_in = static_cast<uInt>(data_length);
  stream.next_out = out;
  stream.avail_out = static_cast<uInt>(bound);
  const int status = deflate(&stream, Z_FINISH);
  *out_length = static_cast<int>(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) {
    std::free(out);
    return nullptr;
  }
  return out;
}

}  // namespace md5stage
