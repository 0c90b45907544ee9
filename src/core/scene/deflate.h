// Raw DEFLATE (RFC 1951) for share links: a small LZ77 + Huffman compressor and a bounded inflater
// that treats its input as hostile. The browser can read the same bytes with
// DecompressionStream("deflate-raw").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace md5stage {

// Compresses to a raw DEFLATE stream (no zlib/gzip wrapper). Each block is written stored, with
// the fixed codes or with its own dynamic codes, whichever is smallest.
std::vector<std::uint8_t> DeflateCompress(std::string_view data);

// Decompresses a raw DEFLATE stream. Fails (naming `file` and the byte offset) on malformed or
// truncated data, on output beyond `max_output` bytes, and on bytes after the final block.
Result<std::string> DeflateDecompress(std::string_view file, const std::uint8_t* data,
                                      std::size_t size, std::size_t max_output);

}  // namespace md5stage
