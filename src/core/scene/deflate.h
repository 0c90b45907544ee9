// Raw DEFLATE (RFC 1951) for share links: a small LZ77 + Huffman compressor and a bounded inflater
// that treats its input as hostile. Without a dictionary, the bytes are what zlib (and the
// browser's DecompressionStream("deflate-raw")) reads and writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace md5stage {

// Compresses to a raw DEFLATE stream (no zlib/gzip wrapper). Each block is written stored, with
// the fixed codes or with its own dynamic codes, whichever is smallest. A preset `dictionary`
// (text that typically occurs in `data`; its last 32 KB count) lets even the first bytes be
// matches; the decompressor must be given the same dictionary.
std::vector<std::uint8_t> DeflateCompress(std::string_view data, std::string_view dictionary = {});

// Decompresses a raw DEFLATE stream. Fails (naming `file` and the byte offset) on malformed or
// truncated data, on output beyond `max_output` bytes, and on bytes after the final block.
Result<std::string> DeflateDecompress(std::string_view file, const std::uint8_t* data,
                                      std::size_t size, std::size_t max_output,
                                      std::string_view dictionary = {});

}  // namespace md5stage
