// The pieces every MD5 text format opens with (md5mesh, md5anim, md5camera): the version line,
// counts checked against the loader's limits and the bytes left, the frame rate, the file size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/md5/md5_limits.h"
#include "core/md5/tokenizer.h"

namespace md5stage::md5 {

// A number in a message: "%.6g".
std::string FormatMessageNumber(double value);

// "MD5Version 10" and an optional `commandline "..."`.
bool ReadVersionAndCommandLine(Tokenizer& tk, int* version, std::string* commandline);

// Reads a count after its keyword and rejects it unless min <= count <= limit and the rest of the
// file can hold count items of at least min_bytes_each bytes; `limit_reason` says where the limit
// comes from in the message ("the loader's limit", "numFrames - 1").
bool ReadCount(Tokenizer& tk, const char* keyword, std::int64_t min, std::int64_t limit,
               std::size_t min_bytes_each, int* out,
               std::string_view limit_reason = "the loader's limit");

// The number after `frameRate`: above 0 and at most limits.max_frame_rate.
bool ReadFrameRate(Tokenizer& tk, const Md5Limits& limits, float* out);

// The error for a file over limits.max_file_bytes.
Diagnostic FileTooLarge(std::string_view file_name, std::size_t size, const Md5Limits& limits);

}  // namespace md5stage::md5
